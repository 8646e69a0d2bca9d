// SPDX-License-Identifier: BSD-3-Clause
// A tile of a random matrix on the GPU (cpu/dplrnt_tile.c's entries, bit
// for bit: the same counter-based generator, random.h): one thread an
// entry, a warp along a row of the row-major tile (coalesced stores).
#include "gpu.h"
#include "gpu_check.h"
#include "random.h"

namespace
{

constexpr int rows = 8; // rows of a block of 32 x rows threads

template <typename T>
__global__ void __launch_bounds__(32 * rows)
    plrnt_kernel(int m, int n, T *t, int ldt, int i0, int j0,
                 unsigned long long seed, int sym, T bump)
{
    int i = blockIdx.y * rows + threadIdx.y;
    int j = blockIdx.x * 32 + threadIdx.x;
    if (i >= m || j >= n) return;
    int r = i0 + i, c = j0 + j;
    // The symmetric matrix takes the entries above its diagonal from
    // below it.
    T v = (T)(sym && c > r ? hyla_random_entry(seed, c, r)
                           : hyla_random_entry(seed, r, c));
    if (sym && r == c) v += bump;
    t[(size_t)i * ldt + j] = v;
}

template <typename T>
int plrnt(cudaStream_t st, int m, int n, T *t, int ldt, int i0, int j0,
          unsigned long long seed, int sym, T bump)
{
    if (m <= 0 || n <= 0) return 0;
    dim3 grid((unsigned)(n + 31) / 32, (unsigned)(m + rows - 1) / rows);
    plrnt_kernel<T><<<grid, dim3(32, rows), 0, st>>>(m, n, t, ldt, i0, j0,
                                                     seed, sym, bump);
    HYLA_CUDA_CHECK(cudaGetLastError());
    return 0;
}

} // namespace

extern "C" int hyla_cuda_dplrnt(cudaStream_t st, int m, int n, double *T,
                                int ldt, int i0, int j0,
                                unsigned long long seed, int sym, double bump)
{
    return plrnt(st, m, n, T, ldt, i0, j0, seed, sym, bump);
}

extern "C" int hyla_cuda_splrnt(cudaStream_t st, int m, int n, float *T,
                                int ldt, int i0, int j0,
                                unsigned long long seed, int sym, float bump)
{
    return plrnt(st, m, n, T, ldt, i0, j0, seed, sym, bump);
}

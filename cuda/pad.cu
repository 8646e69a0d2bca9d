// SPDX-License-Identifier: BSD-3-Clause
// A tile of a matrix padded beyond A, from the row-major tiles of A that
// it overlaps (hyla_cpu_dtile_pad_to_tile): one warp a row, its lanes
// along the row (coalesced), the row's sum of magnitudes reduced in the
// warp.
#include "gpu.h"
#include "gpu_check.h"

namespace
{

constexpr int warps = 8;

template <typename T> struct quad {
    const T *S[4];
    int ld[4];
};

template <typename T>
__global__ void __launch_bounds__(32 * warps)
    pad_kernel(int m, int n, int mv, int nv, int ident, const quad<T> q,
               int ms, int ns, T *A, int lda, T *sums, int add)
{
    int i = blockIdx.x * warps + threadIdx.x / 32, lane = threadIdx.x % 32;
    if (i >= m) return;
    T *a = A + (size_t)i * lda;
    T s = 0;
    int lo = i >= ms ? 2 : 0, r = i >= ms ? i - ms : i;
    for (int j = lane; j < n; j += 32) {
        T v;
        if (i < mv && j < nv) {
            int k = lo + (j >= ns);
            v = q.S[k][(size_t)r * q.ld[k] + (j >= ns ? j - ns : j)];
            s += v < 0 ? -v : v;
        } else {
            v = ident && i == j ? T(1) : T(0);
        }
        a[j] = v;
    }
    for (int o = 16; o > 0; o /= 2)
        s += __shfl_down_sync(0xffffffffu, s, o);
    if (lane == 0) sums[i] = add ? sums[i] + s : s;
}

template <typename T>
int pad(cudaStream_t st, int m, int n, int mv, int nv, int ident,
        const T *const S[4], const int lds[4], int ms, int ns, T *A, int lda,
        T *sums, int add)
{
    if (m <= 0 || n <= 0) return 0;
    quad<T> q;
    for (int k = 0; k < 4; k++) {
        q.S[k] = S[k];
        q.ld[k] = lds[k];
    }
    pad_kernel<T><<<(m + warps - 1) / warps, 32 * warps, 0, st>>>(
        m, n, mv, nv, ident, q, ms, ns, A, lda, sums, add);
    HYLA_CUDA_CHECK(cudaGetLastError());
    return 0;
}

} // namespace

extern "C" int hyla_cuda_dtile_pad_to_tile(cudaStream_t st, int m, int n,
                                           int mv, int nv, int ident,
                                           const double *const S[4],
                                           const int lds[4], int ms, int ns,
                                           double *A, int lda, double *sums,
                                           int add)
{
    return pad(st, m, n, mv, nv, ident, S, lds, ms, ns, A, lda, sums, add);
}

extern "C" int hyla_cuda_stile_pad_to_tile(cudaStream_t st, int m, int n,
                                           int mv, int nv, int ident,
                                           const float *const S[4],
                                           const int lds[4], int ms, int ns,
                                           float *A, int lda, float *sums,
                                           int add)
{
    return pad(st, m, n, mv, nv, ident, S, lds, ms, ns, A, lda, sums, add);
}

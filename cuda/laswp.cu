// SPDX-License-Identifier: BSD-3-Clause
// Row interchanges on a tile column of row-major tiles.
#include "gpu_check.h"
#include "gpu.h"

namespace {

// The device addresses of the tiles, passed by value to the kernel.
template <typename T> struct tiles {
    T *tile[HYLA_CUDA_LASWP_MAXTILES];
};

constexpr int threads = 128;

// Each block owns `threads` consecutive columns and applies every
// interchange to them in order; consecutive threads touch consecutive
// elements of a row (coalesced).  Blocks need no synchronisation: they
// share no column.
template <typename T>
__global__ void laswp_kernel(tiles<T> t, int mb, int n, int ldd,
                             const int *ipiv, int k1, int k2, int row0,
                             int inc)
{
    int c = blockIdx.x * threads + threadIdx.x;
    if (c >= n) return;
    int count = k2 - k1;
    for (int s = 0; s < count; s++) {
        int i = inc > 0 ? k1 + s : k2 - 1 - s;
        int p = ipiv[i] - 1 - row0;
        if (p == i) continue;
        T *a = t.tile[i / mb] + (size_t)(i % mb) * ldd + c;
        T *b = t.tile[p / mb] + (size_t)(p % mb) * ldd + c;
        T x = *a;
        *a = *b;
        *b = x;
    }
}

template <typename T>
int laswp(T *const *dtile, int ntiles, int mb, int m, int n, int ldd,
          const int *dipiv, int k1, int k2, int row0, int inc,
          cudaStream_t stream)
{
    (void)m;
    if (n <= 0 || k2 <= k1) return 0;
    if (ntiles > HYLA_CUDA_LASWP_MAXTILES) return HYLA_ERR_NOT_SUPPORTED;
    tiles<T> t;
    for (int i = 0; i < ntiles; i++)
        t.tile[i] = dtile[i];
    dim3 grid((n + threads - 1) / threads);
    laswp_kernel<T><<<grid, threads, 0, stream>>>(t, mb, n, ldd, dipiv, k1,
                                                  k2, row0, inc);
    HYLA_CUDA_CHECK(cudaGetLastError());
    return 0;
}

} // namespace

extern "C" int hyla_cuda_dlaswp(double *const *dtile, int ntiles, int mb,
                                int m, int n, int ldd, const int *dipiv,
                                int k1, int k2, int row0, int inc,
                                cudaStream_t stream)
{
    return laswp(dtile, ntiles, mb, m, n, ldd, dipiv, k1, k2, row0, inc,
                 stream);
}

extern "C" int hyla_cuda_slaswp(float *const *dtile, int ntiles, int mb,
                                int m, int n, int ldd, const int *dipiv,
                                int k1, int k2, int row0, int inc,
                                cudaStream_t stream)
{
    return laswp(dtile, ntiles, mb, m, n, ldd, dipiv, k1, k2, row0, inc,
                 stream);
}

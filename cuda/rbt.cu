// SPDX-License-Identifier: BSD-3-Clause
// Random butterfly transforms on row-major tiles, as cpu/drbt_tile.c: one
// thread an element of each of the tiles it pairs, consecutive threads
// along a row (coalesced).  Memory-bound: each element is read and written
// once.  A tile has fewer than 2^31 elements.
#include "gpu.h"
#include "gpu_check.h"

namespace
{

constexpr int threads = 256;

// B^T [a b; c d] C on partner tiles A11, A12, A21, A22 (m-by-n, ld).
template <typename T>
__global__ void __launch_bounds__(threads)
    two_sided_kernel(int m, int n, T *A11, T *A12, T *A21, T *A22, int ld,
                     const T *r0, const T *r1, const T *c0, const T *c1)
{
    int e = blockIdx.x * threads + threadIdx.x;
    if (e >= m * n) return;
    int i = e / n, j = e % n;
    size_t o = (size_t)i * ld + j;
    T p = A11[o], q = A12[o], s = A21[o], t = A22[o];
    T sp = p + q, sm = p - q, tp = s + t, tm = s - t;
    T h0 = T(0.5) * r0[i], h1 = T(0.5) * r1[i];
    A11[o] = h0 * c0[j] * (sp + tp);
    A12[o] = h0 * c1[j] * (sm + tm);
    A21[o] = h1 * c0[j] * (sp - tp);
    A22[o] = h1 * c1[j] * (sm - tm);
}

// B^T [x; y] (trans) or B [x; y] on partner tiles X1, X2 (m-by-n, ld).
template <typename T, bool trans>
__global__ void __launch_bounds__(threads)
    rows_kernel(int m, int n, T *X1, T *X2, int ld, const T *r0, const T *r1)
{
    int e = blockIdx.x * threads + threadIdx.x;
    if (e >= m * n) return;
    int i = e / n, j = e % n;
    size_t o = (size_t)i * ld + j;
    const T h = T(0.70710678118654752440);
    T a = h * r0[i], b = h * r1[i];
    T x = X1[o], y = X2[o];
    if (trans) {
        X1[o] = a * (x + y);
        X2[o] = b * (x - y);
    } else {
        X1[o] = a * x + b * y;
        X2[o] = a * x - b * y;
    }
}

unsigned blocks(int m, int n)
{
    return (unsigned)(((long long)m * n + threads - 1) / threads);
}

template <typename T>
int two_sided(cudaStream_t s, int m, int n, T *A11, T *A12, T *A21, T *A22,
              int ld, const T *r0, const T *r1, const T *c0, const T *c1)
{
    if (m <= 0 || n <= 0) return 0;
    two_sided_kernel<T><<<blocks(m, n), threads, 0, s>>>(
        m, n, A11, A12, A21, A22, ld, r0, r1, c0, c1);
    HYLA_CUDA_CHECK(cudaGetLastError());
    return 0;
}

template <typename T>
int rows(cudaStream_t s, int trans, int m, int n, T *X1, T *X2, int ld,
         const T *r0, const T *r1)
{
    if (m <= 0 || n <= 0) return 0;
    if (trans == HYLA_TRANS)
        rows_kernel<T, true>
            <<<blocks(m, n), threads, 0, s>>>(m, n, X1, X2, ld, r0, r1);
    else
        rows_kernel<T, false>
            <<<blocks(m, n), threads, 0, s>>>(m, n, X1, X2, ld, r0, r1);
    HYLA_CUDA_CHECK(cudaGetLastError());
    return 0;
}

} // namespace

extern "C" int hyla_cuda_drbt_two_sided(cudaStream_t s, int m, int n,
                                        double *A11, double *A12, double *A21,
                                        double *A22, int ld, const double *r0,
                                        const double *r1, const double *c0,
                                        const double *c1)
{
    return two_sided(s, m, n, A11, A12, A21, A22, ld, r0, r1, c0, c1);
}

extern "C" int hyla_cuda_srbt_two_sided(cudaStream_t s, int m, int n,
                                        float *A11, float *A12, float *A21,
                                        float *A22, int ld, const float *r0,
                                        const float *r1, const float *c0,
                                        const float *c1)
{
    return two_sided(s, m, n, A11, A12, A21, A22, ld, r0, r1, c0, c1);
}

extern "C" int hyla_cuda_drbt_rows(cudaStream_t s, int trans, int m, int n,
                                   double *X1, double *X2, int ld,
                                   const double *r0, const double *r1)
{
    return rows(s, trans, m, n, X1, X2, ld, r0, r1);
}

extern "C" int hyla_cuda_srbt_rows(cudaStream_t s, int trans, int m, int n,
                                   float *X1, float *X2, int ld,
                                   const float *r0, const float *r1)
{
    return rows(s, trans, m, n, X1, X2, ld, r0, r1);
}

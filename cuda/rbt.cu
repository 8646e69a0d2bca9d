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

// Two levels on a 4-by-4 group of partner tiles (hyla_cpu_drbt_two_levels):
// block row i of the grid is row i of the tiles.
template <typename T> struct group {
    T *A[16];
    const T *w[16];
};

template <typename T>
__global__ void __launch_bounds__(threads)
    two_levels_kernel(int n, int ld, const group<T> g)
{
    int i = blockIdx.y, j = blockIdx.x * threads + threadIdx.x;
    if (j >= n) return;
    size_t o = (size_t)i * ld + j;
    T x[4][4];
#pragma unroll
    for (int k = 0; k < 4; k++)
#pragma unroll
        for (int l = 0; l < 4; l++)
            x[k][l] = g.A[4 * k + l][o];
    T ci[4], co[4];
#pragma unroll
    for (int l = 0; l < 4; l++) {
        ci[l] = g.w[8 + l][j];
        co[l] = g.w[12 + l][j];
    }
#pragma unroll
    for (int k = 0; k < 4; k++) {
        T p = ci[0] * (x[k][0] + x[k][1]), q = ci[1] * (x[k][0] - x[k][1]);
        T r = ci[2] * (x[k][2] + x[k][3]), s = ci[3] * (x[k][2] - x[k][3]);
        x[k][0] = co[0] * (p + r);
        x[k][2] = co[2] * (p - r);
        x[k][1] = co[1] * (q + s);
        x[k][3] = co[3] * (q - s);
    }
    T ri[4], ro[4];
#pragma unroll
    for (int k = 0; k < 4; k++) {
        ri[k] = T(0.25) * g.w[k][i];
        ro[k] = g.w[4 + k][i];
    }
#pragma unroll
    for (int l = 0; l < 4; l++) {
        T p = ri[0] * (x[0][l] + x[1][l]), q = ri[1] * (x[0][l] - x[1][l]);
        T r = ri[2] * (x[2][l] + x[3][l]), s = ri[3] * (x[2][l] - x[3][l]);
        g.A[l][o] = ro[0] * (p + r);
        g.A[8 + l][o] = ro[2] * (p - r);
        g.A[4 + l][o] = ro[1] * (q + s);
        g.A[12 + l][o] = ro[3] * (q - s);
    }
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
int two_levels(cudaStream_t s, int m, int n, int ld, T *const A[16],
               const T *const w[16])
{
    if (m <= 0 || n <= 0) return 0;
    group<T> g;
    for (int k = 0; k < 16; k++) {
        g.A[k] = A[k];
        g.w[k] = w[k];
    }
    dim3 grid((unsigned)((n + threads - 1) / threads), (unsigned)m);
    two_levels_kernel<T><<<grid, threads, 0, s>>>(n, ld, g);
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

extern "C" int hyla_cuda_drbt_two_levels(cudaStream_t s, int m, int n, int ld,
                                         double *const A[16],
                                         const double *const w[16])
{
    return two_levels(s, m, n, ld, A, w);
}

extern "C" int hyla_cuda_srbt_two_levels(cudaStream_t s, int m, int n, int ld,
                                         float *const A[16],
                                         const float *const w[16])
{
    return two_levels(s, m, n, ld, A, w);
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

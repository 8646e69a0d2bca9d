// SPDX-License-Identifier: BSD-3-Clause
// y = alpha sum_j A_j x_j + beta y over a row of row-major tiles, in one
// kernel.  A product by a tile row of one right-hand side is a chain of
// matrix-vector products of a few microseconds each (cuBLAS's GEMV on a
// 1024 tile: 17 us, about 0.5 TB/s); here every tile of the row streams
// through one launch, each of its rows read once, coalesced.  The sum
// runs in a fixed order, so a result does not change from run to run.
#include "gpu.h"
#include "gpu_check.h"

namespace
{

constexpr int warps = 8;      // warps of a block: each takes 32 columns
constexpr int rows = 4;       // rows of y a block computes
constexpr int max_terms = 64; // terms a launch takes (kernel argument)

template <typename T> struct terms {
    const T *A[max_terms];
    const T *x[max_terms];
    int k[max_terms], lda[max_terms], incx[max_terms];
};

// Block b computes rows b*rows .. b*rows + rows - 1 of y.  Warp w takes
// columns w*32 + lane, then 256 further on, of every term: the loads of
// a warp run along a row of A_j, and the `rows` rows share each x value.
// Each warp's partial sums meet in shared memory and are added in warp
// order.
template <typename T>
__global__ void __launch_bounds__(warps * 32)
    gemv_sum_kernel(int m, int count, terms<T> t, T alpha, T beta, T *y,
                    int incy)
{
    __shared__ T part[warps][rows];
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    const int r0 = blockIdx.x * rows, nr = min(rows, m - r0);
    T acc[rows];
#pragma unroll
    for (int r = 0; r < rows; r++)
        acc[r] = T(0);
    for (int j = 0; j < count; j++) {
        const T *A = t.A[j] + (size_t)r0 * t.lda[j], *x = t.x[j];
        const int k = t.k[j], lda = t.lda[j], incx = t.incx[j];
#pragma unroll 4
        for (int c = warp * 32 + lane; c < k; c += warps * 32) {
            T xv = x[(size_t)c * incx];
#pragma unroll
            for (int r = 0; r < rows; r++)
                if (r < nr) acc[r] += A[(size_t)r * lda + c] * xv;
        }
    }
#pragma unroll
    for (int r = 0; r < rows; r++) {
        T v = acc[r];
#pragma unroll
        for (int o = 16; o > 0; o /= 2)
            v += __shfl_down_sync(0xffffffffu, v, o);
        if (lane == 0) part[warp][r] = v;
    }
    __syncthreads();
    if ((int)threadIdx.x < nr) {
        T s = T(0);
#pragma unroll
        for (int w = 0; w < warps; w++)
            s += part[w][threadIdx.x];
        T *yi = y + (size_t)(r0 + threadIdx.x) * incy;
        // beta = 0: y is not read (it may hold NaN)
        *yi = beta == T(0) ? alpha * s : alpha * s + beta * *yi;
    }
}

template <typename T>
int gemv_sum(cudaStream_t s, int m, int count, const T *const *A, const int *k,
             const int *lda, const T *const *x, const int *incx, T alpha,
             T beta, T *y, int incy)
{
    if (m <= 0) return 0;
    const int blocks = (m + rows - 1) / rows;
    // count = 0 leaves beta y; more than max_terms terms go in launches of
    // max_terms, the later ones adding to y.
    int j = 0;
    do {
        int c = count - j < max_terms ? count - j : max_terms;
        terms<T> t;
        for (int i = 0; i < c; i++) {
            t.A[i] = A[j + i];
            t.x[i] = x[j + i];
            t.k[i] = k[j + i];
            t.lda[i] = lda[j + i];
            t.incx[i] = incx[j + i];
        }
        gemv_sum_kernel<T><<<blocks, warps * 32, 0, s>>>(
            m, c, t, alpha, j ? T(1) : beta, y, incy);
        HYLA_CUDA_CHECK(cudaGetLastError());
        j += c;
    } while (j < count);
    return 0;
}

} // namespace

extern "C" int hyla_cuda_dgemv_sum(cudaStream_t s, int m, int count,
                                   const double *const *A, const int *k,
                                   const int *lda, const double *const *x,
                                   const int *incx, double alpha, double beta,
                                   double *y, int incy)
{
    return gemv_sum(s, m, count, A, k, lda, x, incx, alpha, beta, y, incy);
}

extern "C" int hyla_cuda_sgemv_sum(cudaStream_t s, int m, int count,
                                   const float *const *A, const int *k,
                                   const int *lda, const float *const *x,
                                   const int *incx, float alpha, float beta,
                                   float *y, int incy)
{
    return gemv_sum(s, m, count, A, k, lda, x, incx, alpha, beta, y, incy);
}

// SPDX-License-Identifier: BSD-3-Clause
// LU without pivoting of one row-major tile on the GPU, as
// cpu/dgetrf_nopiv.c: recursive on halves, with TRSMs (trsm_t.h) and a
// cuBLAS GEMM between levels, and a leaf of up to 64 columns factored by
// one thread block in shared memory.
#include "gpu.h"
#include "blas_t.h"
#include "gpu_check.h"
#include "trsm_t.h"

namespace
{

using hyla::blas;

constexpr int leaf_n = 64;
constexpr int leaf_threads = 256;

// Row-major n-by-n A (lda) = L U in place, n <= leaf_n.  Step j: the
// rows below j get their multipliers, then the trailing block loses
// their products with row j.  A zero pivot stops the leaf, its column
// (offset by col0) going to *info unless it holds one already (leaves run
// in column order on one stream); a plain store, as *info may be mapped
// host memory.
template <typename T>
__global__ void __launch_bounds__(leaf_threads)
    leaf_kernel(T *A, int lda, int n, int *info, int col0)
{
    __shared__ T s[leaf_n][leaf_n + 1];
    const int t = threadIdx.x;
    for (int e = t; e < n * n; e += leaf_threads)
        s[e / n][e % n] = A[(size_t)(e / n) * lda + e % n];
    __syncthreads();
    for (int j = 0; j < n; j++) {
        const T piv = s[j][j];
        if (piv == T(0)) {
            if (t == 0 && *info == 0) *info = col0 + j + 1;
            break; // every thread reads the same pivot
        }
        for (int i = j + 1 + t; i < n; i += leaf_threads)
            s[i][j] /= piv;
        __syncthreads();
        const int w = n - j - 1;
        for (int e = t; e < w * w; e += leaf_threads) {
            int i = j + 1 + e / w, c = j + 1 + e % w;
            s[i][c] -= s[i][j] * s[j][c];
        }
        __syncthreads();
    }
    for (int e = t; e < n * n; e += leaf_threads)
        A[(size_t)(e / n) * lda + e % n] = s[e / n][e % n];
}

// The n-by-n row-major A (lda) = L U: A11 first, then
//   A12 = L11^-1 A12, A21 = A21 U11^-1, A22 -= A21 A12,
// then A22.  cuBLAS sees the column-major transposes: A12^T = A12^T
// (L11^T)^-1 with L11^T upper, A21^T = (U11^T)^-1 A21^T with U11^T lower,
// A22^T -= A12^T A21^T.
template <typename T>
int rec(cublasHandle_t h, cudaStream_t stream, T *A, int lda, int n, int *info,
        int col0)
{
    if (n <= leaf_n) {
        leaf_kernel<T><<<1, leaf_threads, 0, stream>>>(A, lda, n, info, col0);
        HYLA_CUDA_CHECK(cudaGetLastError());
        return 0;
    }
    int n1 = (n / 2 + leaf_n - 1) / leaf_n * leaf_n, n2 = n - n1;
    int rc = rec<T>(h, stream, A, lda, n1, info, col0);
    if (rc) return rc;
    T *A12 = A + n1, *A21 = A + (size_t)n1 * lda, *A22 = A21 + n1;
    const T one = 1, minus_one = -1;
    HYLA_CUBLAS_CHECK(hyla::trsm<T>(h, CUBLAS_SIDE_RIGHT, CUBLAS_FILL_MODE_UPPER,
                                    CUBLAS_OP_N, CUBLAS_DIAG_UNIT, n2, n1, one,
                                    A, lda, A12, lda));
    HYLA_CUBLAS_CHECK(hyla::trsm<T>(h, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER,
                                    CUBLAS_OP_N, CUBLAS_DIAG_NON_UNIT, n1, n2,
                                    one, A, lda, A21, lda));
    HYLA_CUBLAS_CHECK(blas<T>::gemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n2, n2, n1,
                                    &minus_one, A12, lda, A21, lda, &one, A22,
                                    lda));
    return rec<T>(h, stream, A22, lda, n2, info, col0 + n1);
}

template <typename T>
int getrf_nopiv(cublasHandle_t h, int n, T *dA, int ldda, int *dinfo, int col0)
{
    cudaStream_t stream;
    HYLA_CUBLAS_CHECK(cublasGetStream(h, &stream));
    if (n <= 0) return 0;
    return rec<T>(h, stream, dA, ldda, n, dinfo, col0);
}

} // namespace

extern "C" int hyla_cuda_dgetrf_nopiv(cublasHandle_t handle, int n, double *dA,
                                      int ldda, int *dinfo, int col0)
{
    return getrf_nopiv(handle, n, dA, ldda, dinfo, col0);
}

extern "C" int hyla_cuda_sgetrf_nopiv(cublasHandle_t handle, int n, float *dA,
                                      int ldda, int *dinfo, int col0)
{
    return getrf_nopiv(handle, n, dA, ldda, dinfo, col0);
}

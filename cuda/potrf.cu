// SPDX-License-Identifier: BSD-3-Clause
// Cholesky of one tile on the GPU: recursive, cuBLAS TRSM and SYRK between
// levels, a leaf of up to 32 columns factored by one warp in shared memory.
#include "gpu.h"
#include "blas_t.h"
#include "gpu_check.h"

namespace {

using hyla::blas;

constexpr int leaf_n = 32;

// Column-major view of the row-major tile (the same memory): a row-major
// lower L is a column-major upper U = L^T with A = U^T U, and a row-major
// upper one a column-major lower L with A = L L^T.  `upper` below is the
// column-major triangle.
//
// The leaf: thread c owns column c of the block in shared memory (upper)
// or row c (lower, by symmetry the same loops on the transpose).  Step j:
// the pivot d = a(j, j) must be positive (NaN fails too, as in LAPACK's
// dpotrf2); row j right of the diagonal is divided by sqrt(d); the
// trailing triangle takes the rank-1 update.  On failure the first
// failing column, offset by col0, goes to *info unless it holds one
// already (leaves run in column order on one stream), and the leaf stops.
template <typename T, bool upper>
__global__ void potrf_leaf_kernel(T *A, int lda, int n, int *info, int col0)
{
    __shared__ T s[leaf_n][leaf_n + 1]; // s[r][c] = a(r, c), upper part
    int c = threadIdx.x;
    for (int r = 0; r < n; r++)
        if (c < n && r <= c)
            s[r][c] = upper ? A[r + (size_t)c * lda] : A[c + (size_t)r * lda];
    __syncthreads();
    for (int j = 0; j < n; j++) {
        T d = s[j][j];
        if (!(d > T(0))) {
            // Plain store: the leaves of one stream run one at a time, and
            // *info may be host memory, where device atomics may not work.
            if (c == 0 && *info == 0) *info = col0 + j + 1;
            return; // every thread reads the same d: all leave together
        }
        d = sqrt(d);
        __syncthreads();
        if (c == j) s[j][j] = d;
        if (c > j && c < n) s[j][c] /= d;
        __syncthreads();
        if (c > j && c < n)
            for (int r = j + 1; r <= c; r++)
                s[r][c] -= s[j][r] * s[j][c];
        __syncthreads();
    }
    for (int r = 0; r < n; r++)
        if (c < n && r <= c) {
            if (upper)
                A[r + (size_t)c * lda] = s[r][c];
            else
                A[c + (size_t)r * lda] = s[r][c];
        }
}

// Column-major A (n x n, lda), its `upper` triangle: A11 first, then
//   upper: A12 = U11^-T A12, A22 -= A12^T A12;
//   lower: A21 = A21 L11^-T, A22 -= A21 A21^T;
// then A22.
template <typename T, bool upper>
int rec(cublasHandle_t h, cudaStream_t stream, T *A, int lda, int n,
        int *info, int col0)
{
    if (n <= leaf_n) {
        potrf_leaf_kernel<T, upper><<<1, leaf_n, 0, stream>>>(A, lda, n, info,
                                                              col0);
        HYLA_CUDA_CHECK(cudaGetLastError());
        return 0;
    }
    int n1 = (n / 2 + leaf_n - 1) / leaf_n * leaf_n, n2 = n - n1;
    int rc = rec<T, upper>(h, stream, A, lda, n1, info, col0);
    if (rc) return rc;
    const T one = 1, minus_one = -1;
    T *A22 = A + n1 + (size_t)n1 * lda;
    if (upper) {
        T *A12 = A + (size_t)n1 * lda;
        HYLA_CUBLAS_CHECK(blas<T>::trsm(h, CUBLAS_SIDE_LEFT,
                                        CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_T,
                                        n1, n2, &one, A, lda, A12, lda));
        HYLA_CUBLAS_CHECK(blas<T>::syrk(h, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_T,
                                        n2, n1, &minus_one, A12, lda, &one,
                                        A22, lda));
    } else {
        T *A21 = A + n1;
        HYLA_CUBLAS_CHECK(blas<T>::trsm(h, CUBLAS_SIDE_RIGHT,
                                        CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_T,
                                        n2, n1, &one, A, lda, A21, lda));
        HYLA_CUBLAS_CHECK(blas<T>::syrk(h, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N,
                                        n2, n1, &minus_one, A21, lda, &one,
                                        A22, lda));
    }
    return rec<T, upper>(h, stream, A22, lda, n2, info, col0 + n1);
}

template <typename T>
int potrf(cublasHandle_t h, int uplo, int n, T *dA, int ldda, int *dinfo,
          int col0)
{
    cudaStream_t stream;
    HYLA_CUBLAS_CHECK(cublasGetStream(h, &stream));
    if (n <= 0) return 0;
    // A row-major lower triangle is the column-major upper one.
    return uplo == HYLA_LOWER
               ? rec<T, true>(h, stream, dA, ldda, n, dinfo, col0)
               : rec<T, false>(h, stream, dA, ldda, n, dinfo, col0);
}

} // namespace

extern "C" int hyla_cuda_dpotrf(cublasHandle_t handle, int uplo, int n,
                                double *dA, int ldda, int *dinfo, int col0)
{
    return potrf(handle, uplo, n, dA, ldda, dinfo, col0);
}

extern "C" int hyla_cuda_spotrf(cublasHandle_t handle, int uplo, int n,
                                float *dA, int ldda, int *dinfo, int col0)
{
    return potrf(handle, uplo, n, dA, ldda, dinfo, col0);
}

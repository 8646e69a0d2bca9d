// SPDX-License-Identifier: BSD-3-Clause
// Inverse of a triangular tile on the GPU, out of place: every diagonal
// leaf block inverted at once by one kernel, then the levels joined
// recursively with two GEMMs each.
#include "blas_t.h"
#include "gpu.h"
#include "gpu_check.h"

namespace
{

using hyla::blas;

constexpr int leaf_n = 64;

// Column-major view of the row-major tiles (the same memory): a row-major
// lower L is a column-major upper U = L^T, and inv(L) row-major is inv(U)
// column-major.  `upper` below is the column-major triangle.
//
// One thread block per leaf: block b inverts the diagonal block at rows
// and columns b*leaf_n .. of A into W, zeroing the other triangle of W's
// block.  In shared memory the block is held as an upper triangle (the
// transpose when lower).  Column j of the inverse Y:
// Y(j, j) = 1 / U(j, j), Y(i, j) = -Y(j, j) * sum_{i <= k < j} Y(i, k) U(k, j),
// from the columns before it.
template <typename T, bool upper>
__global__ void trtri_leaf_kernel(const T *A, int lda, T *W, int ldw, int n,
                                  bool unit)
{
    __shared__ T s[leaf_n][leaf_n + 1]; // s[r][c], r <= c
    int off = blockIdx.x * leaf_n, nl = min(leaf_n, n - off);
    const T *a = A + off + (size_t)off * lda;
    T *w = W + off + (size_t)off * ldw;
    int t = threadIdx.x;
    for (int r = 0; r < nl; r++)
        if (t < nl && r <= t)
            s[r][t] = unit && r == t ? T(1)
                      : upper        ? a[r + (size_t)t * lda]
                                     : a[t + (size_t)r * lda];
    __syncthreads();
    for (int j = 0; j < nl; j++) {
        T yjj = T(1) / s[j][j];
        T acc = 0;
        if (t < j)
            for (int k = t; k < j; k++)
                acc += s[t][k] * s[k][j];
        __syncthreads(); // every read of column j before any write
        if (t < j) s[t][j] = -acc * yjj;
        if (t == j) s[j][j] = yjj;
        __syncthreads();
    }
    if (t < nl)
        for (int r = 0; r < nl; r++) {
            T v = r <= t ? s[r][t] : T(0);
            // upper: w(r, t) = Y(r, t); lower: w(t, r) = Y(r, t) (transpose)
            if (upper)
                w[r + (size_t)t * ldw] = v;
            else
                w[t + (size_t)r * ldw] = v;
        }
}

// Joins the inverted diagonal blocks of the n-by-n column-major triangle:
//   upper: Y12 = -Y11 U12 Y22,  lower: Y21 = -Y22 L21 Y11.
// The off-diagonal block of W on the zero side holds the middle product
// (transposed) until it is cleared.
template <typename T, bool upper>
int join(cublasHandle_t h, cudaStream_t stream, const T *A, int lda, T *W,
         int ldw, int n)
{
    if (n <= leaf_n) return 0;
    int n1 = (n / 2 + leaf_n - 1) / leaf_n * leaf_n, n2 = n - n1;
    int rc = join<T, upper>(h, stream, A, lda, W, ldw, n1);
    if (!rc)
        rc = join<T, upper>(h, stream, A + n1 + (size_t)n1 * lda, lda,
                            W + n1 + (size_t)n1 * ldw, ldw, n2);
    if (rc) return rc;
    const T one = 1, zero = 0, minus_one = -1;
    T *W11 = W, *W22 = W + n1 + (size_t)n1 * ldw;
    T *W12 = W + (size_t)n1 * ldw, *W21 = W + n1;
    T *tmp;
    if (upper) {
        // W21 = (U12 Y22)^T = Y22^T U12^T, then Y12 = -Y11 W21^T.
        const T *U12 = A + (size_t)n1 * lda;
        HYLA_CUBLAS_CHECK(blas<T>::gemm(h, CUBLAS_OP_T, CUBLAS_OP_T, n2, n1, n2,
                                        &one, W22, ldw, U12, lda, &zero, W21,
                                        ldw));
        HYLA_CUBLAS_CHECK(blas<T>::gemm(h, CUBLAS_OP_N, CUBLAS_OP_T, n1, n2, n1,
                                        &minus_one, W11, ldw, W21, ldw, &zero,
                                        W12, ldw));
        tmp = W21; // n2 rows, n1 columns
    } else {
        // W12 = (L21 Y11)^T = Y11^T L21^T, then Y21 = -Y22 W12^T.
        const T *L21 = A + n1;
        HYLA_CUBLAS_CHECK(blas<T>::gemm(h, CUBLAS_OP_T, CUBLAS_OP_T, n1, n2, n1,
                                        &one, W11, ldw, L21, lda, &zero, W12,
                                        ldw));
        HYLA_CUBLAS_CHECK(blas<T>::gemm(h, CUBLAS_OP_N, CUBLAS_OP_T, n2, n1, n2,
                                        &minus_one, W22, ldw, W12, ldw, &zero,
                                        W21, ldw));
        tmp = W12; // n1 rows, n2 columns
    }
    int rows = upper ? n2 : n1, cols = upper ? n1 : n2;
    HYLA_CUDA_CHECK(cudaMemset2DAsync(tmp, sizeof(T) * (size_t)ldw, 0,
                                      sizeof(T) * (size_t)rows, cols, stream));
    return 0;
}

template <typename T>
int trtri(cublasHandle_t h, int uplo, int diag, int n, const T *dA, int ldda,
          T *dW, int lddw)
{
    cudaStream_t stream;
    HYLA_CUBLAS_CHECK(cublasGetStream(h, &stream));
    if (n <= 0) return 0;
    int leaves = (n + leaf_n - 1) / leaf_n;
    bool unit = diag == HYLA_UNIT;
    // A row-major lower triangle is the column-major upper one.
    if (uplo == HYLA_LOWER)
        trtri_leaf_kernel<T, true>
            <<<leaves, leaf_n, 0, stream>>>(dA, ldda, dW, lddw, n, unit);
    else
        trtri_leaf_kernel<T, false>
            <<<leaves, leaf_n, 0, stream>>>(dA, ldda, dW, lddw, n, unit);
    HYLA_CUDA_CHECK(cudaGetLastError());
    return uplo == HYLA_LOWER
               ? join<T, true>(h, stream, dA, ldda, dW, lddw, n)
               : join<T, false>(h, stream, dA, ldda, dW, lddw, n);
}

} // namespace

extern "C" int hyla_cuda_dtrtri(cublasHandle_t handle, int uplo, int diag,
                                int n, const double *dA, int ldda, double *dW,
                                int lddw)
{
    return trtri(handle, uplo, diag, n, dA, ldda, dW, lddw);
}

extern "C" int hyla_cuda_strtri(cublasHandle_t handle, int uplo, int diag,
                                int n, const float *dA, int ldda, float *dW,
                                int lddw)
{
    return trtri(handle, uplo, diag, n, dA, ldda, dW, lddw);
}

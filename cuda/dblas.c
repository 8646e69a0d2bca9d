// SPDX-License-Identifier: BSD-3-Clause
// cuBLAS on row-major tiles.  @precisions d -> s
//
// A row-major m-by-n matrix is the column-major n-by-m transpose, so
//   C = op(A) op(B)        is  C^T = op(B)^T op(A)^T       (swap A and B),
//   B = op(A)^-1 B         is  B^T = B^T op(A)^-T          (other side),
//   C = op(A) op(A)^T      is  C^T = the same, with the other triangle
// and a row-major lower triangle is a column-major upper one.
#include "gpu_check.h"
#include "gpu.h"

static cublasOperation_t op(int trans)
{
    return trans == HYLA_NO_TRANS ? CUBLAS_OP_N : CUBLAS_OP_T;
}

// The triangle as cuBLAS sees the transposed storage.
static cublasFillMode_t fill(int uplo)
{
    return uplo == HYLA_LOWER ? CUBLAS_FILL_MODE_UPPER : CUBLAS_FILL_MODE_LOWER;
}

// C = alpha op(A) op(B) + beta C with C one column (n = 1) or one row
// (m = 1) is cuBLAS's GEMV: for a row-major tile of 1024 by one column,
// cuBLAS's GEMM sees a product with one row and takes 31 us on an H100,
// its GEMV 17 us.  0 when done, 1 when not a matrix-vector product.
// k = 0 stays a GEMM, which scales C.
static int gemv(cublasHandle_t handle, int transa, int transb, int m, int n,
                int k, const double *alpha, const double *dA, int ldda,
                const double *dB, int lddb, const double *beta, double *dC,
                int lddc, cublasStatus_t *st)
{
    if (k == 0 || (n != 1 && m != 1)) return 1;
    // A row-major r-by-c matrix is the column-major c-by-r one (M = X^T).
    if (n == 1) {
        // y = op(A) x, y strided by lddc; op(A) is M^T for A m-by-k
        // (M k-by-m), M for A^T (M m-by-k); x strided in B's column.
        int t = transa == HYLA_NO_TRANS;
        *st = cublasDgemv(handle, t ? CUBLAS_OP_T : CUBLAS_OP_N, t ? k : m,
                          t ? m : k, alpha, dA, ldda, dB,
                          transb == HYLA_NO_TRANS ? lddb : 1, beta, dC, lddc);
    } else {
        // y^T = x^T op(B): y = op(B)^T x, contiguous; op(B)^T is M for B
        // k-by-n (M n-by-k), M^T for B^T (M k-by-n); x strided in A's row.
        int t = transb == HYLA_NO_TRANS;
        *st = cublasDgemv(handle, t ? CUBLAS_OP_N : CUBLAS_OP_T, t ? n : k,
                          t ? k : n, alpha, dB, lddb, dA,
                          transa == HYLA_NO_TRANS ? 1 : ldda, beta, dC, 1);
    }
    return 0;
}

int hyla_cuda_dgemm(cublasHandle_t handle, int transa, int transb, int m, int n,
                    int k, double alpha, const double *dA, int ldda,
                    const double *dB, int lddb, double beta, double *dC,
                    int lddc)
{
    cublasStatus_t st;
    if (!gemv(handle, transa, transb, m, n, k, &alpha, dA, ldda, dB, lddb,
              &beta, dC, lddc, &st)) {
        HYLA_CUBLAS_CHECK(st);
        return 0;
    }
    HYLA_CUBLAS_CHECK(cublasDgemm(handle, op(transb), op(transa), n, m, k,
                                  &alpha, dB, lddb, dA, ldda, &beta, dC, lddc));
    return 0;
}

int hyla_cuda_dsyrk(cublasHandle_t handle, int uplo, int trans, int n, int k,
                    double alpha, const double *dA, int ldda, double beta,
                    double *dC, int lddc)
{
    // Row-major op(A) (n-by-k) is column-major op(A)^T: flip trans too.
    cublasOperation_t t = trans == HYLA_NO_TRANS ? CUBLAS_OP_T : CUBLAS_OP_N;
    HYLA_CUBLAS_CHECK(cublasDsyrk(handle, fill(uplo), t, n, k, &alpha, dA, ldda,
                                  &beta, dC, lddc));
    return 0;
}

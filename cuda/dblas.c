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

int hyla_cuda_dgemm(cublasHandle_t handle, int transa, int transb, int m, int n,
                    int k, double alpha, const double *dA, int ldda,
                    const double *dB, int lddb, double beta, double *dC,
                    int lddc)
{
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

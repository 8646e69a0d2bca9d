// SPDX-License-Identifier: BSD-3-Clause
// TRSM on row-major tiles: the column-major transpose (dblas.c says how)
// solved by recursion (trsm_t.h).
#include "gpu.h"
#include "gpu_check.h"
#include "trsm_t.h"

namespace
{

template <typename T>
int trsm(cublasHandle_t handle, int side, int uplo, int trans, int diag, int m,
         int n, T alpha, const T *dA, int ldda, T *dB, int lddb)
{
    // Row-major B = op(A)^-1 B is column-major B^T = B^T op(A)^-T: the
    // other side, and a row-major lower triangle is a column-major upper.
    HYLA_CUBLAS_CHECK(hyla::trsm<T>(
        handle, side == HYLA_LEFT ? CUBLAS_SIDE_RIGHT : CUBLAS_SIDE_LEFT,
        uplo == HYLA_LOWER ? CUBLAS_FILL_MODE_UPPER : CUBLAS_FILL_MODE_LOWER,
        trans == HYLA_NO_TRANS ? CUBLAS_OP_N : CUBLAS_OP_T,
        diag == HYLA_UNIT ? CUBLAS_DIAG_UNIT : CUBLAS_DIAG_NON_UNIT, n, m,
        alpha, dA, ldda, dB, lddb));
    return 0;
}

} // namespace

extern "C" int hyla_cuda_dtrsm(cublasHandle_t handle, int side, int uplo,
                               int trans, int diag, int m, int n, double alpha,
                               const double *dA, int ldda, double *dB, int lddb)
{
    return trsm(handle, side, uplo, trans, diag, m, n, alpha, dA, ldda, dB,
                lddb);
}

extern "C" int hyla_cuda_strsm(cublasHandle_t handle, int side, int uplo,
                               int trans, int diag, int m, int n, float alpha,
                               const float *dA, int ldda, float *dB, int lddb)
{
    return trsm(handle, side, uplo, trans, diag, m, n, alpha, dA, ldda, dB,
                lddb);
}

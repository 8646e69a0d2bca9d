// SPDX-License-Identifier: BSD-3-Clause
// Triangular solves by recursion (column-major, cuBLAS's conventions):
// the triangle is halved until it is small, and the halves are joined by
// a GEMM, so that most of the work runs at GEMM speed rather than at
// cuBLAS TRSM's.
#ifndef HYLA_CUDA_TRSM_T_H
#define HYLA_CUDA_TRSM_T_H

#include "blas_t.h"

namespace hyla
{

// Triangles of this order or less go to cuBLAS's TRSM.
constexpr int trsm_leaf = 256;

// B = alpha op(A)^-1 B (left) or alpha B op(A)^-1 (right); B is m-by-n,
// A k-by-k with k = m (left) or n (right).
template <typename T>
cublasStatus_t trsm(cublasHandle_t h, cublasSideMode_t side,
                    cublasFillMode_t fill, cublasOperation_t trans,
                    cublasDiagType_t diag, int m, int n, T alpha, const T *A,
                    int lda, T *B, int ldb)
{
    int k = side == CUBLAS_SIDE_LEFT ? m : n;
    // One right-hand side: cuBLAS's TRSV (70 us for a 1024 triangle on an
    // H100, where the halves joined by GEMMs take 165 us and halves joined
    // by GEMVs down to a TRSV of 512 take 81 us).
    // x^T op(A) = b^T is op(A)^T x = b.
    if (alpha == T(1) && k > 0 && (side == CUBLAS_SIDE_LEFT ? n : m) == 1) {
        cublasOperation_t t = side == CUBLAS_SIDE_LEFT ? trans
                              : trans == CUBLAS_OP_N   ? CUBLAS_OP_T
                                                       : CUBLAS_OP_N;
        return blas<T>::trsv(h, fill, t, diag, k, A, lda, B,
                             side == CUBLAS_SIDE_LEFT ? 1 : ldb);
    }
    if (k <= trsm_leaf || m == 0 || n == 0)
        return blas<T>::trsm(h, side, fill, trans, diag, m, n, &alpha, A, lda,
                             B, ldb);
    int k1 = (k / 2 + 63) / 64 * 64, k2 = k - k1;
    const T *A11 = A, *A22 = A + k1 + (size_t)k1 * lda;
    // The off-diagonal block as stored, op() of which is op(A)'s: below
    // the diagonal of op(A) (solve A11 first on the left, A22 first on
    // the right) when `lower`.
    const T *off =
        fill == CUBLAS_FILL_MODE_LOWER ? A + k1 : A + (size_t)k1 * lda;
    bool lower = (fill == CUBLAS_FILL_MODE_LOWER) == (trans == CUBLAS_OP_N);
    const T one = 1, minus_one = -1;
    cublasStatus_t st;
    if (side == CUBLAS_SIDE_LEFT) {
        T *B1 = B, *B2 = B + k1;
        if (lower) {
            if ((st = trsm(h, side, fill, trans, diag, k1, n, alpha, A11, lda,
                           B1, ldb)) ||
                (st =
                     blas<T>::gemm(h, trans, CUBLAS_OP_N, k2, n, k1, &minus_one,
                                   off, lda, B1, ldb, &alpha, B2, ldb)))
                return st;
            return trsm(h, side, fill, trans, diag, k2, n, one, A22, lda, B2,
                        ldb);
        }
        if ((st = trsm(h, side, fill, trans, diag, k2, n, alpha, A22, lda, B2,
                       ldb)) ||
            (st = blas<T>::gemm(h, trans, CUBLAS_OP_N, k1, n, k2, &minus_one,
                                off, lda, B2, ldb, &alpha, B1, ldb)))
            return st;
        return trsm(h, side, fill, trans, diag, k1, n, one, A11, lda, B1, ldb);
    }
    T *B1 = B, *B2 = B + (size_t)k1 * ldb;
    if (lower) {
        if ((st = trsm(h, side, fill, trans, diag, m, k2, alpha, A22, lda, B2,
                       ldb)) ||
            (st = blas<T>::gemm(h, CUBLAS_OP_N, trans, m, k1, k2, &minus_one,
                                B2, ldb, off, lda, &alpha, B1, ldb)))
            return st;
        return trsm(h, side, fill, trans, diag, m, k1, one, A11, lda, B1, ldb);
    }
    if ((st = trsm(h, side, fill, trans, diag, m, k1, alpha, A11, lda, B1,
                   ldb)) ||
        (st = blas<T>::gemm(h, CUBLAS_OP_N, trans, m, k2, k1, &minus_one, B1,
                            ldb, off, lda, &alpha, B2, ldb)))
        return st;
    return trsm(h, side, fill, trans, diag, m, k2, one, A22, lda, B2, ldb);
}

} // namespace hyla

#endif // HYLA_CUDA_TRSM_T_H

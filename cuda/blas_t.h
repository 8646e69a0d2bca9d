// SPDX-License-Identifier: BSD-3-Clause
// cuBLAS by element type, for the templated kernels (column-major, as
// cuBLAS takes them).
#ifndef HYLA_CUDA_BLAS_T_H
#define HYLA_CUDA_BLAS_T_H

#include <cublas_v2.h>

namespace hyla {

template <typename T> struct blas;

#define HYLA_BLAS_T(T, X)                                                      \
    template <> struct blas<T> {                                               \
        static cublasStatus_t gemm(cublasHandle_t h, cublasOperation_t ta,     \
                                   cublasOperation_t tb, int m, int n, int k,  \
                                   const T *a, const T *A, int lda,            \
                                   const T *B, int ldb, const T *b, T *C,      \
                                   int ldc)                                    \
        {                                                                      \
            return cublas##X##gemm(h, ta, tb, m, n, k, a, A, lda, B, ldb, b,   \
                                   C, ldc);                                    \
        }                                                                      \
        static cublasStatus_t trsm(cublasHandle_t h, cublasSideMode_t s,       \
                                   cublasFillMode_t f, cublasOperation_t t,    \
                                   cublasDiagType_t d, int m, int n,           \
                                   const T *a, const T *A, int lda, T *B,      \
                                   int ldb)                                    \
        {                                                                      \
            return cublas##X##trsm(h, s, f, t, d, m, n, a, A, lda, B, ldb);    \
        }                                                                      \
        static cublasStatus_t trsv(cublasHandle_t h, cublasFillMode_t f,       \
                                   cublasOperation_t t, cublasDiagType_t d,    \
                                   int n, const T *A, int lda, T *x, int incx) \
        {                                                                      \
            return cublas##X##trsv(h, f, t, d, n, A, lda, x, incx);            \
        }                                                                      \
        static cublasStatus_t syrk(cublasHandle_t h, cublasFillMode_t f,       \
                                   cublasOperation_t t, int n, int k,          \
                                   const T *a, const T *A, int lda,            \
                                   const T *b, T *C, int ldc)                  \
        {                                                                      \
            return cublas##X##syrk(h, f, t, n, k, a, A, lda, b, C, ldc);       \
        }                                                                      \
        static cublasStatus_t gemm_batched(                                    \
            cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb,      \
            int m, int n, int k, const T *a, const T *const A[], int lda,      \
            const T *const B[], int ldb, const T *b, T *const C[], int ldc,    \
            int count)                                                         \
        {                                                                      \
            return cublas##X##gemmBatched(h, ta, tb, m, n, k, a, A, lda, B,    \
                                          ldb, b, C, ldc, count);              \
        }                                                                      \
        static cublasStatus_t gemm_strided(                                    \
            cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb,      \
            int m, int n, int k, const T *a, const T *A, int lda,              \
            long long sa, const T *B, int ldb, long long sb, const T *b, T *C, \
            int ldc, long long sc, int count)                                  \
        {                                                                      \
            return cublas##X##gemmStridedBatched(h, ta, tb, m, n, k, a, A,     \
                                                 lda, sa, B, ldb, sb, b, C,    \
                                                 ldc, sc, count);              \
        }                                                                      \
        static cublasStatus_t trsm_batched(                                    \
            cublasHandle_t h, cublasSideMode_t s, cublasFillMode_t f,          \
            cublasOperation_t t, cublasDiagType_t d, int m, int n, const T *a, \
            const T *const A[], int lda, T *const B[], int ldb, int count)     \
        {                                                                      \
            return cublas##X##trsmBatched(h, s, f, t, d, m, n, a, A, lda, B,   \
                                          ldb, count);                         \
        }                                                                      \
    };
HYLA_BLAS_T(double, D)
HYLA_BLAS_T(float, S)
#undef HYLA_BLAS_T

} // namespace hyla

#endif // HYLA_CUDA_BLAS_T_H

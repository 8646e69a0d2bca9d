// SPDX-License-Identifier: BSD-3-Clause
// Test matrices and LAPACK-style residuals.  @precisions d -> s
#include "check_d.h"
#include "check_par.h"

#include <cblas.h>
#include <lapacke.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

// Entry k of the sequence `key`: splitmix64 of key + k (a counter-based
// generator, 10x faster than LAPACK's dlarnv, which made the benchmark's
// large matrices take longer to build than to factor), uniform in
// [-1, 1).
static double uniform(uint64_t key, uint64_t k)
{
    uint64_t z = key + (k + 1) * 0x9e3779b97f4a7c15u;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    z ^= z >> 31;
    return (double)(z >> 11) * 0x1p-52 - 1.0;
}

typedef struct {
    int m, lda;
    double *A;
    uint64_t key;
} gen_t;

static void gen_columns(size_t j0, size_t j1, void *arg)
{
    const gen_t *g = arg;
    for (size_t j = j0; j < j1; j++)
        for (int i = 0; i < g->m; i++)
            g->A[j * g->lda + i] = uniform(g->key, (uint64_t)j * g->m + i);
}

void hyla_check_dgen(int m, int n, double *A, int lda, int seed)
{
    gen_t g = {m, lda, A, 0xd1b54a32d192ed03u * (uint64_t)(unsigned)seed};
    // Threads for slices of 2^20 entries or more.
    size_t grain = m > 0 ? ((size_t)1 << 20) / (size_t)m + 1 : 1;
    hyla_check_parallel((size_t)n, grain, gen_columns, &g);
}

void hyla_check_dgen_pivoted(int m, int n, double *A, int lda, int seed)
{
    hyla_check_dgen(m, n, A, lda, seed);
    int k = m < n ? m : n;
    for (int j = 0; j < k; j++) {
        double *a = A + (size_t)j * lda;
        a[j] = 1.0 + cblas_dasum(m, a, 1);
    }
    // Fisher-Yates shuffle of the rows, from the seed.
    unsigned s = 2654435761u * (unsigned)(seed + 1);
    for (int i = m - 1; i > 0; i--) {
        s = s * 1664525u + 1013904223u;
        int r = (int)((s >> 8) % (unsigned)(i + 1));
        if (r != i) cblas_dswap(n, A + i, lda, A + r, lda);
    }
}

typedef struct {
    int n, lda;
    double *A;
} sym_t;

enum { SYM_BLOCK = 64 };

// Block columns [b0, b1) of the lower triangle from the upper one, by
// 64 x 64 blocks (a plain loop reads a row of a column-major matrix: a
// cache miss each).  Each block column writes only its own columns and
// reads only the upper triangle.
static void sym_columns(size_t b0, size_t b1, void *arg)
{
    const sym_t *s = arg;
    int n = s->n, B = SYM_BLOCK;
    for (int jb = (int)b0 * B; jb < n && jb < (int)b1 * B; jb += B)
        for (int ib = jb; ib < n; ib += B)
            for (int j = jb; j < n && j < jb + B; j++)
                for (int i = ib > j + 1 ? ib : j + 1; i < n && i < ib + B; i++)
                    s->A[(size_t)j * s->lda + i] = s->A[(size_t)i * s->lda + j];
}

void hyla_check_dgen_spd(int n, double *A, int lda, int seed)
{
    hyla_check_dgen(n, n, A, lda, seed);
    sym_t s = {n, lda, A};
    size_t blocks = ((size_t)n + SYM_BLOCK - 1) / SYM_BLOCK;
    // Threads from n = 2048 on, 4 block columns or more each.
    hyla_check_parallel(blocks, n < 2048 ? blocks : 4, sym_columns, &s);
    for (int j = 0; j < n; j++)
        A[(size_t)j * lda + j] = fabs(A[(size_t)j * lda + j]) + n;
}

static double *alloc(size_t count)
{
    return calloc(count ? count : 1, sizeof(double));
}

static double eps(void)
{
    return LAPACKE_dlamch('E');
}

// One-norm of an m-vector.
static double norm1(int m, const double *x)
{
    return m ? cblas_dasum(m, x, 1) : 0.0;
}

// Scaled residual r / (anorm * xnorm * n * eps), with the conventions of
// LAPACK's test programs for zero norms.
static double scaled(double r, double anorm, double xnorm, int n)
{
    double d = anorm * xnorm * (n > 0 ? n : 1) * eps();
    if (d == 0.0) return r == 0.0 ? 0.0 : 1.0 / eps();
    return r / d;
}

// Copies of L (m-by-k unit lower) and U (k-by-n upper) from getrf's output.
static void split_lu(int m, int n, const double *LU, int ldlu, double *L,
                     double *U)
{
    int k = m < n ? m : n;
    for (int j = 0; j < k; j++)
        for (int i = 0; i < m; i++)
            L[(size_t)j * m + i] = i > j    ? LU[(size_t)j * ldlu + i]
                                   : i == j ? 1.0
                                            : 0.0;
    for (int j = 0; j < n; j++)
        for (int i = 0; i < k; i++)
            U[(size_t)j * k + i] = i <= j ? LU[(size_t)j * ldlu + i] : 0.0;
}

double hyla_check_dresid_getrf(int m, int n, const double *A, int lda,
                               const double *LU, int ldlu, const int *ipiv)
{
    int k = m < n ? m : n;
    if (k == 0) return 0.0;
    double *L = alloc((size_t)m * k), *U = alloc((size_t)k * n);
    double *PA = alloc((size_t)m * n);
    split_lu(m, n, LU, ldlu, L, U);
    LAPACKE_dlacpy(LAPACK_COL_MAJOR, 'A', m, n, A, lda, PA, m);
    LAPACKE_dlaswp(LAPACK_COL_MAJOR, n, PA, m, 1, k, ipiv, 1);
    // PA -= L U
    cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, m, n, k, -1.0, L, m,
                U, k, 1.0, PA, m);
    double r = LAPACKE_dlange(LAPACK_COL_MAJOR, '1', m, n, PA, m);
    double anorm = LAPACKE_dlange(LAPACK_COL_MAJOR, '1', m, n, A, lda);
    free(L);
    free(U);
    free(PA);
    return scaled(r, anorm, 1.0, n);
}

double hyla_check_dresid_getrf_probe(int m, int n, const double *A, int lda,
                                     const double *LU, int ldlu,
                                     const int *ipiv)
{
    int k = m < n ? m : n;
    if (k == 0) return 0.0;
    double *x = alloc(n), *y = alloc(m), *z = alloc(m), *ux = alloc(k);
    hyla_check_dgen(n, 1, x, n, 4242);
    // y = P A x
    cblas_dgemv(CblasColMajor, CblasNoTrans, m, n, 1.0, A, lda, x, 1, 0.0, y,
                1);
    LAPACKE_dlaswp(LAPACK_COL_MAJOR, 1, y, m, 1, k, ipiv, 1);
    // ux = U x: the k-by-k triangle, then the columns right of it
    memcpy(ux, x, sizeof(double) * k);
    cblas_dtrmv(CblasColMajor, CblasUpper, CblasNoTrans, CblasNonUnit, k, LU,
                ldlu, ux, 1);
    if (n > k)
        cblas_dgemv(CblasColMajor, CblasNoTrans, k, n - k, 1.0,
                    LU + (size_t)k * ldlu, ldlu, x + k, 1, 1.0, ux, 1);
    // z = L ux: the unit triangle, then the rows below it
    memcpy(z, ux, sizeof(double) * k);
    cblas_dtrmv(CblasColMajor, CblasLower, CblasNoTrans, CblasUnit, k, LU, ldlu,
                z, 1);
    if (m > k)
        cblas_dgemv(CblasColMajor, CblasNoTrans, m - k, k, 1.0, LU + k, ldlu,
                    ux, 1, 0.0, z + k, 1);
    cblas_daxpy(m, -1.0, z, 1, y, 1);
    double r = norm1(m, y);
    double anorm = LAPACKE_dlange(LAPACK_COL_MAJOR, '1', m, n, A, lda);
    double xnorm = norm1(n, x);
    free(x);
    free(y);
    free(z);
    free(ux);
    return scaled(r, anorm, xnorm, n);
}

// The factor of potrf with its other triangle zeroed, as an n-by-n matrix.
static double *factor(char uplo, int n, const double *F, int ldf)
{
    double *T = alloc((size_t)n * n);
    LAPACKE_dlacpy(LAPACK_COL_MAJOR, uplo, n, n, F, ldf, T, n);
    return T;
}

double hyla_check_dresid_potrf(char uplo, int n, const double *A, int lda,
                               const double *F, int ldf)
{
    if (n == 0) return 0.0;
    double *T = factor(uplo, n, F, ldf), *C = alloc((size_t)n * n);
    int lower = uplo == 'L' || uplo == 'l';
    // C = A - L L^T (or A - U^T U) on the uplo triangle
    LAPACKE_dlacpy(LAPACK_COL_MAJOR, uplo, n, n, A, lda, C, n);
    cblas_dsyrk(CblasColMajor, lower ? CblasLower : CblasUpper,
                lower ? CblasNoTrans : CblasTrans, n, n, -1.0, T, n, 1.0, C, n);
    double r = LAPACKE_dlansy(LAPACK_COL_MAJOR, '1', uplo, n, C, n);
    double anorm = LAPACKE_dlansy(LAPACK_COL_MAJOR, '1', uplo, n, A, lda);
    free(T);
    free(C);
    return scaled(r, anorm, 1.0, n);
}

double hyla_check_dresid_potrf_probe(char uplo, int n, const double *A, int lda,
                                     const double *F, int ldf)
{
    if (n == 0) return 0.0;
    int lower = uplo == 'L' || uplo == 'l';
    CBLAS_UPLO u = lower ? CblasLower : CblasUpper;
    double *x = alloc(n), *y = alloc(n), *z = alloc(n);
    hyla_check_dgen(n, 1, x, n, 4243);
    cblas_dsymv(CblasColMajor, u, n, 1.0, A, lda, x, 1, 0.0, y, 1);
    // z = L (L^T x), or U^T (U x)
    memcpy(z, x, sizeof(double) * n);
    cblas_dtrmv(CblasColMajor, u, lower ? CblasTrans : CblasNoTrans,
                CblasNonUnit, n, F, ldf, z, 1);
    cblas_dtrmv(CblasColMajor, u, lower ? CblasNoTrans : CblasTrans,
                CblasNonUnit, n, F, ldf, z, 1);
    cblas_daxpy(n, -1.0, z, 1, y, 1);
    double r = norm1(n, y);
    double anorm = LAPACKE_dlansy(LAPACK_COL_MAJOR, '1', uplo, n, A, lda);
    double xnorm = norm1(n, x);
    free(x);
    free(y);
    free(z);
    return scaled(r, anorm, xnorm, n);
}

double hyla_check_dresid_solve(char trans, int n, int nrhs, const double *A,
                               int lda, const double *X, int ldx,
                               const double *B, int ldb)
{
    if (n == 0 || nrhs == 0) return 0.0;
    int t = trans == 'T' || trans == 't' || trans == 'C' || trans == 'c';
    double *R = alloc((size_t)n * nrhs);
    LAPACKE_dlacpy(LAPACK_COL_MAJOR, 'A', n, nrhs, B, ldb, R, n);
    cblas_dgemm(CblasColMajor, t ? CblasTrans : CblasNoTrans, CblasNoTrans, n,
                nrhs, n, -1.0, A, lda, X, ldx, 1.0, R, n);
    // ||op(A)||_inf = ||A||_1 when transposed
    double anorm =
        LAPACKE_dlange(LAPACK_COL_MAJOR, t ? '1' : 'I', n, n, A, lda);
    double worst = 0.0;
    for (int j = 0; j < nrhs; j++) {
        const double *x = X + (size_t)j * ldx, *r = R + (size_t)j * n;
        double rn = fabs(r[cblas_idamax(n, r, 1)]);
        double xn = fabs(x[cblas_idamax(n, x, 1)]);
        double s = scaled(rn, anorm, xn, n);
        if (!(s <= worst)) // keeps a NaN
            worst = s;
    }
    free(R);
    return worst;
}

double hyla_check_dresid_inverse(int n, const double *A, int lda,
                                 const double *X, int ldx)
{
    if (n == 0) return 0.0;
    double *R = alloc((size_t)n * n);
    LAPACKE_dlaset(LAPACK_COL_MAJOR, 'A', n, n, 0.0, 1.0, R, n);
    cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, n, n, n, -1.0, A,
                lda, X, ldx, 1.0, R, n);
    double rn = LAPACKE_dlange(LAPACK_COL_MAJOR, '1', n, n, R, n);
    double an = LAPACKE_dlange(LAPACK_COL_MAJOR, '1', n, n, A, lda);
    double xn = LAPACKE_dlange(LAPACK_COL_MAJOR, '1', n, n, X, ldx);
    free(R);
    return scaled(rn, an, xn, n);
}

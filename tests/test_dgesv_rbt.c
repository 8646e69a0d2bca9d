// SPDX-License-Identifier: BSD-3-Clause
// Random-butterfly solver tests.  @precisions d -> s
#include "check.h"
#include "cpu_d.h"
#include "harness.h"

#include <cblas.h>
#include <float.h>
#include <lapacke.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// Checks hyla_dgesv_rbt and hyla_drbt_factor / hyla_drbt_solve:
//  - the butterfly kernels: B^T A C against the product of the dense
//    butterflies, and the inverse butterflies bring A back within a few
//    eps;
//  - solutions whose backward error ||b - A x||_inf / (||A||_inf ||x||_inf
//    n eps) is within 10x of LAPACKE_dgesv's on the same system (or below
//    2), on random, diagonally dominant, Hilbert and Kahan matrices and on
//    matrices with a zero or a tiny leading minor, depths 0-4, several
//    tile sizes and worker counts;
//  - no fall back on the random, dominant and zero-minor matrices with
//    butterflies where cond_inf(A) n eps <= 0.1; the fall back (zero
//    pivot, no convergence) without them, where LU without pivoting
//    fails; A unchanged unless it fell back, then holding LU factors that
//    pass getrf's residual;
//  - a singular A gives LAPACKE's info; the same seed gives the same X;
//    factor once, solve twice; b = 0; bad arguments;
//  - single precision solves by substitution whatever trsm_inverse says.

enum kind { RANDOM, DOMINANT, ZERO_MINOR, TINY_MINOR, HILBERT, KAHAN, NKINDS };
static const char *const kind_names[] = {"random",     "dominant", "zero minor",
                                         "tiny minor", "hilbert",  "kahan"};

static double *alloc(int ld, int n)
{
    return malloc(sizeof(double) * (size_t)ld * (n > 0 ? n : 1));
}

static void gen(int kind, int n, double *A, int lda, int seed)
{
    hyla_check_dgen(n, n, A, lda, seed);
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++) {
            double *a = &A[(size_t)j * lda + i];
            if (kind == DOMINANT && i == j) *a = n + 1;
            if (kind == HILBERT) *a = 1.0 / (i + j + 1);
            // Kahan: diag(1, s, s^2, ...) times the unit upper triangle
            // with -c above the diagonal, s = sin 1.2, c = cos 1.2.
            if (kind == KAHAN)
                *a = i > j ? 0 : pow(sin(1.2), i) * (i == j ? 1 : -cos(1.2));
        }
    if (kind == ZERO_MINOR && n > 2) {
        A[0] = 0; // leading minors of order 1 and 2 zero
        A[1] = 0;
    }
    if (kind == TINY_MINOR) A[0] = 1e-30;
}

// LAPACKE_dgesv's backward error on the same system, and LAPACK's
// estimate of cond_inf(A) n eps in *knu (NULL: not wanted).
static double reference(int n, int nrhs, const double *A, int lda,
                        const double *B, int ldb, double *knu)
{
    double *F = alloc(n, n), *X = alloc(n, nrhs);
    int *ipiv = malloc(sizeof(int) * n);
    LAPACKE_dlacpy(LAPACK_COL_MAJOR, 'A', n, n, A, lda, F, n);
    LAPACKE_dlacpy(LAPACK_COL_MAJOR, 'A', n, nrhs, B, ldb, X, n);
    int info = LAPACKE_dgesv(LAPACK_COL_MAJOR, n, nrhs, F, n, ipiv, X, n);
    double r =
        info ? NAN
             : hyla_check_dresid_solve('N', n, nrhs, A, lda, X, n, B, ldb);
    if (knu) {
        double anorm = LAPACKE_dlange(LAPACK_COL_MAJOR, 'I', n, n, A, lda);
        double rcond = 0;
        if (!info)
            LAPACKE_dgecon(LAPACK_COL_MAJOR, 'I', n, F, n, anorm, &rcond);
        *knu = rcond > 0 ? n * DBL_EPSILON / rcond : INFINITY;
    }
    free(F);
    free(X);
    free(ipiv);
    return r;
}

// The fall back a case expects, besides hyla_rbt_fallback_t's.  WELL:
// none where cond_inf(A) n eps <= well_knu(kind), else any.  The refinement's
// contraction grows with cond(A) eps times the growth in the factors;
// single-precision random matrices of order 640 and more, at cond(A) n
// eps of 1 to 2000, fall back at times.
// A zero leading minor leaves more growth in the randomized factors,
// and the solves by inverted diagonal tiles (the _inv variants) add
// errors that grow with those tiles' condition: in single precision a
// zero-minor matrix of order 129 at cond_inf(A) n eps = 0.053 stalled
// and fell back there (AMD EPYC, OpenBLAS's Zen kernels), with a
// backward error as good as partial pivoting's.
enum { ANY = -1, SOME = -2, WELL = -3 };
static double well_knu(int kind)
{
    return kind == ZERO_MINOR ? 0.01 : 0.1;
}

// One solve by hyla_dgesv_rbt; want: the fall back expected; at most
// max_iter refinement steps (-1: the default, 30).
static void run(int kind, int n, int nrhs, int nb, int depth, int max_iter,
                int want, int seed)
{
    int lda = n + 2, ldb = n + 1, ldx = n + 3;
    double *A = alloc(lda, n), *A0 = alloc(lda, n);
    double *B = alloc(ldb, nrhs), *X = alloc(ldx, nrhs);
    int *ipiv = malloc(sizeof(int) * (n > 0 ? n : 1));
    gen(kind, n, A, lda, seed);
    hyla_check_dgen(ldb, nrhs, B, ldb, seed + 1);
    memcpy(A0, A, sizeof(double) * (size_t)lda * (n > 0 ? n : 1));
    hyla_rbt_opts_t o = HYLA_RBT_OPTS_DEFAULT;
    o.depth = depth;
    o.max_iter = max_iter;
    o.seed = (unsigned long long)seed;
    hyla_rbt_report_t rep = {-1, -1, -1};
    th_tic();
    int rc = hyla_dgesv_rbt(n, nrhs, A, lda, ipiv, B, ldb, X, ldx, &o, &rep);
    double t = th_toc();
    double berr =
        rc ? NAN
           : hyla_check_dresid_solve('N', n, nrhs, A0, lda, X, ldx, B, ldb);
    double knu = 0;
    double ref = n && nrhs ? reference(n, nrhs, A0, lda, B, ldb, &knu) : 0;
    if (want == WELL) want = knu <= well_knu(kind) ? HYLA_RBT_NONE : ANY;
    int ok = rc == 0 && berr <= fmax(10 * ref, 2.0);
    ok &= want == ANY || (want == SOME && rep.fallback != HYLA_RBT_NONE) ||
          (int)rep.fallback == want;
    ok &= th_check(
        rep.iterations >= 0 && rep.iterations <= (max_iter < 0 ? 30 : max_iter),
        "%d refinement steps, max_iter %d", rep.iterations, max_iter);
    // A unchanged, or LU factors after a fall back.
    if (rep.fallback == HYLA_RBT_NONE)
        ok &= th_check(!memcmp(A, A0, sizeof(double) * (size_t)lda * n),
                       "A changed without a fall back");
    else
        ok &= th_check(hyla_check_dresid_getrf(n, n, A0, lda, A, lda, ipiv) <=
                           HYLA_CHECK_TOL,
                       "A after the fall back is not its LU factors");
    char note[112];
    snprintf(note, sizeof note, "%s d=%d nrhs=%d it=%d fb=%d ref=%.2g knu=%.2g",
             kind_names[kind], depth, nrhs, rep.iterations, (int)rep.fallback,
             ref, knu);
    th_row("dgesv_rbt", n, n, nb, t, 2.0 * n * n * n / 3, berr, ok, note);
    free(A);
    free(A0);
    free(B);
    free(X);
    free(ipiv);
}

// Column col of A zero: LAPACKE's info, and a fall back.
static void singular(int n, int nb, int col, int seed)
{
    double *A = alloc(n, n), *F = alloc(n, n), *B = alloc(n, 2),
           *X = alloc(n, 2);
    int *ipiv = malloc(sizeof(int) * n);
    hyla_check_dgen(n, n, A, n, seed);
    for (int i = 0; i < n; i++)
        A[(size_t)col * n + i] = 0;
    hyla_check_dgen(n, 2, B, n, seed + 1);
    memcpy(F, A, sizeof(double) * n * n);
    int want = LAPACKE_dgetrf(LAPACK_COL_MAJOR, n, n, F, n, ipiv);
    hyla_rbt_report_t rep;
    int rc = hyla_dgesv_rbt(n, 2, A, n, ipiv, B, n, X, n, NULL, &rep);
    char note[64];
    snprintf(note, sizeof note, "singular col %d: info %d (want %d) fb=%d", col,
             rc, want, (int)rep.fallback);
    th_row("dgesv_rbt", n, n, nb, 0, 0, 0,
           want > 0 && rc == want && rep.fallback != HYLA_RBT_NONE, note);
    free(A);
    free(F);
    free(B);
    free(X);
    free(ipiv);
}

// Factor once, solve twice: each solution passes, and equals the one of
// hyla_dgesv_rbt with the same seed; a matrix that falls back keeps doing
// so.
static void split(int kind, int depth, int n, int nb, int seed)
{
    double *A = alloc(n, n), *B = alloc(n, 5), *X = alloc(n, 5),
           *Y = alloc(n, 5), *W = alloc(n, n);
    int *ipiv = malloc(sizeof(int) * n);
    gen(kind, n, A, n, seed);
    hyla_check_dgen(n, 5, B, n, seed + 1);
    hyla_rbt_opts_t o = HYLA_RBT_OPTS_DEFAULT;
    o.depth = depth;
    hyla_drbt_t *F = NULL;
    int ok = TH_STATUS(hyla_drbt_factor(n, A, n, &o, &F), 0) && F;
    hyla_rbt_report_t r1 = {0}, r2 = {0};
    double berr = NAN;
    if (ok) {
        ok &= TH_STATUS(hyla_drbt_solve(F, 2, B, n, X, n, &r1), 0);
        ok &= TH_STATUS(hyla_drbt_solve(F, 3, B + 2 * n, n, X + 2 * n, n, &r2),
                        0);
        berr = hyla_check_dresid_solve('N', n, 5, A, n, X, n, B, n);
        ok &= berr <= fmax(10 * reference(n, 5, A, n, B, n, NULL), 2.0);
        ok &= th_check(r1.fallback == r2.fallback, "fall back %d then %d",
                       r1.fallback, r2.fallback);
        // The same seed through hyla_dgesv_rbt: the same first solution,
        // to the bit on CPU workers; with GPUs the scheduler may run a
        // task on either kind, whose roundings differ.
        memcpy(W, A, sizeof(double) * n * n);
        ok &= TH_STATUS(hyla_dgesv_rbt(n, 2, W, n, ipiv, B, n, Y, n, &o, NULL),
                        0);
        if (th_gpus())
            ok &= th_check(hyla_check_dresid_solve('N', n, 2, A, n, Y, n, B,
                                                   n) <= berr * 10 + 2,
                           "gesv_rbt, same seed: a worse solution");
        else
            ok &= th_check(!memcmp(X, Y, sizeof(double) * 2 * n),
                           "factor + solve differs from gesv_rbt, same seed");
    }
    hyla_drbt_destroy(F);
    char note[64];
    snprintf(note, sizeof note, "factor+solve %s d=%d fb=%d", kind_names[kind],
             depth, (int)r1.fallback);
    th_row("drbt_solve", n, n, nb, 0, 0, berr, ok, note);
    free(A);
    free(B);
    free(X);
    free(Y);
    free(W);
    free(ipiv);
}

// hyla_dgesv_rbt_tile on A in tiles of tnb (nb: the configured size),
// column zero_col of A zero (-1: none): the backward error as in run(), or
// LAPACKE's info; A's tiles unchanged, or its LU factors after a fall
// back; on CPU workers with tiles of nb, the X of hyla_dgesv_rbt to the
// bit.
static void tiles(int kind, int depth, int n, int nb, int tnb, int zero_col,
                  int want, int seed)
{
    int nrhs = 2;
    double *A = alloc(n, n), *A0 = alloc(n, n), *B = alloc(n, nrhs),
           *X = alloc(n, nrhs), *Y = alloc(n, nrhs);
    int *ipiv = malloc(sizeof(int) * n);
    gen(kind, n, A0, n, seed);
    for (int i = 0; zero_col >= 0 && i < n; i++)
        A0[(size_t)zero_col * n + i] = 0;
    hyla_check_dgen(n, nrhs, B, n, seed + 1);
    hyla_rbt_opts_t o = HYLA_RBT_OPTS_DEFAULT;
    o.depth = depth;
    hyla_desc_t *At = NULL, *Bt = NULL, *Xt = NULL;
    int ok = TH_STATUS(hyla_desc_create(&At, HYLA_DOUBLE, n, n, tnb), 0) &&
             TH_STATUS(hyla_desc_create(&Bt, HYLA_DOUBLE, n, nrhs, tnb), 0) &&
             TH_STATUS(hyla_desc_create(&Xt, HYLA_DOUBLE, n, nrhs, tnb), 0) &&
             TH_STATUS(hyla_dlap_to_desc(A0, n, At), 0) &&
             TH_STATUS(hyla_dlap_to_desc(B, n, Bt), 0);
    hyla_rbt_report_t rep = {-1, -1, -1};
    double berr = NAN;
    int rc = -1, info = 0;
    if (ok) {
        rc = hyla_dgesv_rbt_tile(At, ipiv, Bt, Xt, &o, &rep);
        ok &= TH_STATUS(hyla_ddesc_to_lap(At, A, n), 0);
        if (zero_col >= 0) {
            double *F = alloc(n, n);
            memcpy(F, A0, sizeof(double) * n * n);
            info = LAPACKE_dgetrf(LAPACK_COL_MAJOR, n, n, F, n, ipiv);
            free(F);
        }
    }
    if (ok && zero_col >= 0) {
        ok &=
            th_check(rc == info && info > 0, "info %d, LAPACKE's %d", rc, info);
    } else if (ok) {
        ok &= TH_STATUS(rc, 0) && TH_STATUS(hyla_ddesc_to_lap(Xt, X, n), 0);
        berr = hyla_check_dresid_solve('N', n, nrhs, A0, n, X, n, B, n);
        double knu = 0, ref = reference(n, nrhs, A0, n, B, n, &knu);
        if (want == WELL) want = knu <= well_knu(kind) ? HYLA_RBT_NONE : ANY;
        ok &=
            th_check(berr <= fmax(10 * ref, 2.0), "backward error %.2g", berr);
        ok &= th_check(want == ANY || (int)rep.fallback == want,
                       "fall back %d, want %d", (int)rep.fallback, want);
        if (rep.fallback == HYLA_RBT_NONE)
            ok &= th_check(!memcmp(A, A0, sizeof(double) * n * n),
                           "A changed without a fall back");
        else
            ok &= th_check(hyla_check_dresid_getrf(n, n, A0, n, A, n, ipiv) <=
                               HYLA_CHECK_TOL,
                           "A after the fall back is not its LU factors");
        if (!th_gpus() && tnb == nb && ok) {
            memcpy(A, A0, sizeof(double) * n * n);
            ok &= TH_STATUS(
                      hyla_dgesv_rbt(n, nrhs, A, n, ipiv, B, n, Y, n, &o, NULL),
                      0) &&
                  th_check(!memcmp(X, Y, sizeof(double) * n * nrhs),
                           "X differs from hyla_dgesv_rbt's");
        }
    }
    hyla_desc_destroy(&At);
    hyla_desc_destroy(&Bt);
    hyla_desc_destroy(&Xt);
    char note[80];
    snprintf(note, sizeof note, "tiles of %d: %s d=%d col0=%d fb=%d it=%d", tnb,
             kind_names[kind], depth, zero_col, (int)rep.fallback,
             rep.iterations);
    th_row("dgesv_rbt_tile", n, n, nb, 0, 0, berr, ok, note);
    free(A);
    free(A0);
    free(B);
    free(X);
    free(Y);
    free(ipiv);
}

// The kernels on a 2m-by-2n row-major matrix seen as four tiles:
// B^T M C against the dense product, then B^-T (B^T M C) C^-1 = M with
// the inverse butterflies (B(w)^-T = B(1/w): the same kernel, reciprocal
// weights).
static void kernels(int m, int n, int seed)
{
    int ld = 2 * n + 3, M2 = 2 * m, N2 = 2 * n;
    double *M = alloc(ld, M2), *A = alloc(ld, M2), *Ref = alloc(N2, M2);
    double *Bu = alloc(M2, M2), *Cv = alloc(N2, N2), *T = alloc(M2, N2);
    double *r = alloc(1, M2), *c = alloc(1, N2);
    hyla_check_dgen(ld, M2, M, ld, seed);
    memcpy(A, M, sizeof(double) * (size_t)ld * M2);
    hyla_cpu_drbt_random((unsigned long long)seed, M2, r);
    hyla_cpu_drbt_random((unsigned long long)seed + 1, N2, c);
    // Dense butterflies, row-major: [R0 R1; R0 -R1] / s2.
    const double h = sqrt(0.5);
    memset(Bu, 0, sizeof(double) * M2 * M2);
    memset(Cv, 0, sizeof(double) * N2 * N2);
    for (int i = 0; i < m; i++) {
        Bu[i * M2 + i] = h * r[i];
        Bu[i * M2 + m + i] = h * r[m + i];
        Bu[(m + i) * M2 + i] = h * r[i];
        Bu[(m + i) * M2 + m + i] = -h * r[m + i];
    }
    for (int j = 0; j < n; j++) {
        Cv[j * N2 + j] = h * c[j];
        Cv[j * N2 + n + j] = h * c[n + j];
        Cv[(n + j) * N2 + j] = h * c[j];
        Cv[(n + j) * N2 + n + j] = -h * c[n + j];
    }
    cblas_dgemm(CblasRowMajor, CblasTrans, CblasNoTrans, M2, N2, M2, 1.0, Bu,
                M2, M, ld, 0.0, T, N2);
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, M2, N2, N2, 1.0, T,
                N2, Cv, N2, 0.0, Ref, N2);
    hyla_cpu_drbt_two_sided(m, n, A, A + n, A + (size_t)m * ld,
                            A + (size_t)m * ld + n, ld, r, r + m, c, c + n);
    double mmax = 0, e1 = 0, e2 = 0;
    for (int i = 0; i < M2; i++)
        for (int j = 0; j < N2; j++) {
            mmax = fmax(mmax, fabs(M[i * ld + j]));
            e1 = fmax(e1, fabs(A[i * ld + j] - Ref[i * N2 + j]));
        }
    // Back: rows by B(1/r), then columns by C(1/c)^T through the
    // transpose (rows again).
    for (int i = 0; i < M2; i++)
        r[i] = 1 / r[i];
    for (int j = 0; j < N2; j++)
        c[j] = 1 / c[j];
    hyla_cpu_drbt_rows(HYLA_NO_TRANS, m, N2, A, A + (size_t)m * ld, ld, r,
                       r + m);
    for (int i = 0; i < M2; i++)
        for (int j = 0; j < N2; j++)
            T[j * M2 + i] = A[i * ld + j];
    hyla_cpu_drbt_rows(HYLA_NO_TRANS, n, M2, T, T + (size_t)n * M2, M2, c,
                       c + n);
    for (int i = 0; i < M2; i++)
        for (int j = 0; j < N2; j++)
            e2 = fmax(e2, fabs(T[j * M2 + i] - M[i * ld + j]));
    double eps = DBL_EPSILON;
    e1 /= mmax * eps;
    e2 /= mmax * eps;
    char note[64];
    snprintf(note, sizeof note,
             "kernels: B^T M C %.2g eps, round trip %.2g eps", e1, e2);
    th_row("drbt_tile", M2, N2, m, 0, 0, fmax(e1, e2), e1 <= 8 && e2 <= 8,
           note);
    free(M);
    free(A);
    free(Ref);
    free(Bu);
    free(Cv);
    free(T);
    free(r);
    free(c);
}

// Two levels in one pass on a 4m-by-4n row-major matrix seen as 4-by-4
// tiles against the two-sided kernel on the inner pairs (tile rows and
// columns 0 | 1, 2 | 3), then on the outer ones (0 | 2, 1 | 3).
static void two_levels(int m, int n, int seed)
{
    int ld = 4 * n + 1, M4 = 4 * m;
    double *M = alloc(ld, M4), *A = alloc(ld, M4), *Ref = alloc(ld, M4);
    double *w = alloc(1, 8 * (m + n));
    hyla_check_dgen(ld, M4, M, ld, seed);
    memcpy(A, M, sizeof(double) * (size_t)ld * M4);
    memcpy(Ref, M, sizeof(double) * (size_t)ld * M4);
    hyla_cpu_drbt_random((unsigned long long)seed, 8 * (m + n), w);
    double *tile[16], *ref[16];
    const double *wp[16];
    for (int k = 0; k < 4; k++) {
        for (int l = 0; l < 4; l++) {
            size_t o = (size_t)k * m * ld + (size_t)l * n;
            tile[4 * k + l] = A + o;
            ref[4 * k + l] = Ref + o;
        }
        wp[k] = w + k * m;                    // rows, inner level
        wp[4 + k] = w + (4 + k) * m;          // rows, outer level
        wp[8 + k] = w + 8 * m + k * n;        // columns, inner
        wp[12 + k] = w + 8 * m + (4 + k) * n; // columns, outer
    }
    hyla_cpu_drbt_two_levels(m, n, ld, tile, wp);
    // (first, second) partner rows and columns of each level.
    static const int pairs[2][2][2] = {{{0, 1}, {2, 3}}, {{0, 2}, {1, 3}}};
    for (int lev = 0; lev < 2; lev++)
        for (int p = 0; p < 2; p++)
            for (int q = 0; q < 2; q++) {
                int k0 = pairs[lev][p][0], k1 = pairs[lev][p][1];
                int l0 = pairs[lev][q][0], l1 = pairs[lev][q][1];
                hyla_cpu_drbt_two_sided(
                    m, n, ref[4 * k0 + l0], ref[4 * k0 + l1], ref[4 * k1 + l0],
                    ref[4 * k1 + l1], ld, wp[4 * lev + k0], wp[4 * lev + k1],
                    wp[8 + 4 * lev + l0], wp[8 + 4 * lev + l1]);
            }
    double mmax = 0, e = 0;
    for (int i = 0; i < M4; i++)
        for (int j = 0; j < 4 * n; j++) {
            mmax = fmax(mmax, fabs(Ref[i * ld + j]));
            e = fmax(e, fabs(A[i * ld + j] - Ref[i * ld + j]));
        }
    e /= mmax * DBL_EPSILON;
    char note[64];
    snprintf(note, sizeof note, "kernels: two levels %.2g eps", e);
    th_row("drbt_tile", M4, 4 * n, m, 0, 0, e, e <= 8, note);
    free(M);
    free(A);
    free(Ref);
    free(w);
}

// hyla_dgesv_rbt with trsm_inverse 1, then 0 (HYLA_TRSM_INV, read by
// hyla_init), without butterflies, on a matrix whose first pivot is 1e-3:
// the factors' diagonal tiles are ill-conditioned.  Both solutions as good
// as partial pivoting's; in single precision, which solves by
// substitution whatever trsm_inverse says (products by inverted tiles
// err by the tile's condition number times eps), the same X to the bit
// on CPU workers.
static void inverses(int n, int nb, int seed)
{
    const char *env = getenv("HYLA_TRSM_INV");
    char *was = env ? strdup(env) : NULL;
    double *A = alloc(n, n), *W = alloc(n, n), *B = alloc(n, 1),
           *X = alloc(n, 2);
    int *ipiv = malloc(sizeof(int) * n);
    gen(RANDOM, n, A, n, seed);
    A[0] = 1e-3;
    hyla_check_dgen(n, 1, B, n, seed + 1);
    hyla_rbt_opts_t o = HYLA_RBT_OPTS_DEFAULT;
    o.depth = 0;
    hyla_rbt_report_t rep[2] = {{-1, -1, -1}, {-1, -1, -1}};
    double berr[2] = {NAN, NAN};
    int ok = 1;
    for (int v = 0; v < 2; v++) {
        setenv("HYLA_TRSM_INV", v ? "0" : "1", 1);
        th_init(2, nb, 1);
        memcpy(W, A, sizeof(double) * n * n);
        if (TH_STATUS(hyla_dgesv_rbt(n, 1, W, n, ipiv, B, n, X + v * n, n, &o,
                                     &rep[v]),
                      0))
            berr[v] =
                hyla_check_dresid_solve('N', n, 1, A, n, X + v * n, n, B, n);
        else
            ok = 0;
        th_finalize();
    }
    if (was)
        setenv("HYLA_TRSM_INV", was, 1);
    else
        unsetenv("HYLA_TRSM_INV");
    double ref = reference(n, 1, A, n, B, n, NULL);
    ok &= th_check(fmax(berr[0], berr[1]) <= fmax(10 * ref, 2.0),
                   "backward errors %.3g (inverses) and %.3g against %.3g",
                   berr[0], berr[1], ref);
    int single = sizeof(double) != 8; // this file's s version
    // A fall back's partial pivoting solves by inverses where asked.
    if (single && !th_gpus())
        ok &= th_check(rep[0].iterations == rep[1].iterations &&
                           rep[0].fallback == rep[1].fallback &&
                           (rep[1].fallback != HYLA_RBT_NONE ||
                            !memcmp(X, X + n, sizeof(double) * n)),
                       "trsm_inverse changed the solution (%d and %d steps)",
                       rep[0].iterations, rep[1].iterations);
    char note[80];
    snprintf(note, sizeof note, "trsm_inverse 1, 0: it=%d,%d fb=%d,%d",
             rep[0].iterations, rep[1].iterations, (int)rep[0].fallback,
             (int)rep[1].fallback);
    th_row("dgesv_rbt", n, n, nb, 0, 0, fmax(berr[0], berr[1]), ok, note);
    free(was);
    free(A);
    free(W);
    free(B);
    free(X);
    free(ipiv);
}

static void bad_args(void)
{
    double a[4] = {1, 0, 0, 1}, b[2] = {1, 1}, x[2];
    int ipiv[2];
    hyla_rbt_opts_t o = HYLA_RBT_OPTS_DEFAULT;
    hyla_drbt_t *F = NULL;
    int ok = 1;
    ok &= TH_STATUS(hyla_dgesv_rbt(-1, 1, a, 2, ipiv, b, 2, x, 2, NULL, NULL),
                    -1);
    ok &= TH_STATUS(hyla_dgesv_rbt(2, -1, a, 2, ipiv, b, 2, x, 2, NULL, NULL),
                    -2);
    ok &= TH_STATUS(hyla_dgesv_rbt(2, 1, NULL, 2, ipiv, b, 2, x, 2, NULL, NULL),
                    -3);
    ok &=
        TH_STATUS(hyla_dgesv_rbt(2, 1, a, 1, ipiv, b, 2, x, 2, NULL, NULL), -4);
    ok &=
        TH_STATUS(hyla_dgesv_rbt(2, 1, a, 2, NULL, b, 2, x, 2, NULL, NULL), -5);
    ok &= TH_STATUS(hyla_dgesv_rbt(2, 1, a, 2, ipiv, NULL, 2, x, 2, NULL, NULL),
                    -6);
    ok &=
        TH_STATUS(hyla_dgesv_rbt(2, 1, a, 2, ipiv, b, 1, x, 2, NULL, NULL), -7);
    ok &= TH_STATUS(hyla_dgesv_rbt(2, 1, a, 2, ipiv, b, 2, NULL, 2, NULL, NULL),
                    -8);
    ok &=
        TH_STATUS(hyla_dgesv_rbt(2, 1, a, 2, ipiv, b, 2, x, 1, NULL, NULL), -9);
    o.depth = 5;
    ok &=
        TH_STATUS(hyla_dgesv_rbt(2, 1, a, 2, ipiv, b, 2, x, 2, &o, NULL), -10);
    o.depth = 2;
    o.max_iter = -2;
    ok &=
        TH_STATUS(hyla_dgesv_rbt(2, 1, a, 2, ipiv, b, 2, x, 2, &o, NULL), -10);
    ok &= TH_STATUS(hyla_drbt_factor(2, a, 2, NULL, NULL), -5);
    ok &= TH_STATUS(hyla_drbt_factor(2, a, 1, NULL, &F), -3);
    ok &= th_check(F == NULL, "F set by a failed factor");
    ok &= TH_STATUS(hyla_drbt_solve(NULL, 1, b, 2, x, 2, NULL), -1);
    ok &= TH_STATUS(hyla_drbt_factor(2, a, 2, NULL, &F), 0);
    ok &= TH_STATUS(hyla_drbt_solve(F, 1, b, 1, x, 2, NULL), -4);
    ok &= TH_STATUS(hyla_drbt_solve(F, 1, b, 2, x, 2, NULL), 0);
    ok &= th_check(fabs(x[0] - 1) + fabs(x[1] - 1) < 1e-5, "I x = 1 gave %g %g",
                   x[0], x[1]);
    // b = 0: x = 0 at once, without a fall back.
    double z[2] = {0, 0};
    hyla_rbt_report_t rep = {-1, -1, -1};
    ok &= TH_STATUS(hyla_drbt_solve(F, 1, z, 2, x, 2, &rep), 0);
    ok &= th_check(x[0] == 0 && x[1] == 0 && rep.fallback == HYLA_RBT_NONE &&
                       rep.iterations == 0,
                   "b = 0 gave x = %g %g, fall back %d after %d steps", x[0],
                   x[1], (int)rep.fallback, rep.iterations);
    // The tile form: shapes, precision, options.
    hyla_desc_t *At = NULL, *Bt = NULL, *Xt = NULL, *X3 = NULL, *Af = NULL;
    ok &= TH_STATUS(hyla_desc_create(&At, HYLA_DOUBLE, 2, 2, 1), 0) &&
          TH_STATUS(hyla_desc_create(&Bt, HYLA_DOUBLE, 2, 1, 1), 0) &&
          TH_STATUS(hyla_desc_create(&Xt, HYLA_DOUBLE, 2, 1, 1), 0) &&
          TH_STATUS(hyla_desc_create(&X3, HYLA_DOUBLE, 3, 1, 1), 0) &&
          TH_STATUS(hyla_desc_create(&Af, TH_OTHER_DTYPE(double), 2, 2, 1), 0);
    if (ok) {
        ok &=
            TH_STATUS(hyla_dgesv_rbt_tile(NULL, ipiv, Bt, Xt, NULL, NULL), -1);
        ok &= TH_STATUS(hyla_dgesv_rbt_tile(Af, ipiv, Bt, Xt, NULL, NULL), -1);
        ok &= TH_STATUS(hyla_dgesv_rbt_tile(At, NULL, Bt, Xt, NULL, NULL), -2);
        ok &= TH_STATUS(hyla_dgesv_rbt_tile(At, ipiv, X3, Xt, NULL, NULL), -3);
        ok &=
            TH_STATUS(hyla_dgesv_rbt_tile(At, ipiv, Bt, NULL, NULL, NULL), -4);
        ok &= TH_STATUS(hyla_dgesv_rbt_tile(At, ipiv, Bt, X3, NULL, NULL), -4);
        o.max_iter = -1;
        o.depth = -2;
        ok &= TH_STATUS(hyla_dgesv_rbt_tile(At, ipiv, Bt, Xt, &o, NULL), -5);
    }
    hyla_desc_destroy(&At);
    hyla_desc_destroy(&Bt);
    hyla_desc_destroy(&Xt);
    hyla_desc_destroy(&X3);
    hyla_desc_destroy(&Af);
    hyla_drbt_destroy(F);
    hyla_drbt_destroy(NULL);
    // n = 0 and nrhs = 0 do nothing.
    ok &= TH_STATUS(
        hyla_dgesv_rbt(0, 1, NULL, 1, NULL, NULL, 1, NULL, 1, NULL, NULL), 0);
    ok &= TH_STATUS(
        hyla_dgesv_rbt(2, 0, a, 2, ipiv, NULL, 2, NULL, 2, NULL, NULL), 0);
    th_row("bad arguments", 2, 2, 0, 0, 0, 0, ok, "");
}

int main(void)
{
    th_begin("dgesv_rbt");
    int seed = 1;
    static const int kn[][2] = {{1, 1}, {3, 5}, {8, 8}, {17, 4}};
    for (size_t i = 0; i < sizeof kn / sizeof kn[0]; i++) {
        kernels(kn[i][0], kn[i][1], seed++);
        two_levels(kn[i][0], kn[i][1], seed++);
    }

    // 160: tiles whose LU without pivoting recurses (CPU leaves of 16,
    // GPU leaves of 64).
    static const int nbs[] = {4, 16, 160};
    for (int ncpus = 1; ncpus <= 2; ncpus++)
        for (size_t b = 0; b < sizeof nbs / sizeof nbs[0]; b++) {
            int nb = nbs[b];
            th_init(ncpus, nb, 1);
            const int ns[] = {1, 2, 3, 7, nb * 4, 50, 129};
            for (size_t s = 0; s < sizeof ns / sizeof ns[0]; s++)
                for (int k = 0; k < NKINDS; k++) {
                    int n = ns[s];
                    if (k == HILBERT && n > 10) continue; // singular in eps
                    // Kahan's solutions grow as 1.36^n: past single's range
                    // from n = 288.
                    if (k == KAHAN && n > 200) continue;
                    // dsgesv's stopping rule (eps sqrt(n) ||A|| ||x||) is
                    // within the rounding of one product at the smallest
                    // orders: there a fall back may happen.
                    int want = n >= 7 && (k == RANDOM || k == DOMINANT ||
                                          k == ZERO_MINOR)
                                   ? WELL
                                   : ANY;
                    run(k, n, 1 + (int)s % 3, nb, 2, -1, want, seed++);
                }
            if (ncpus == 2) {
                bad_args();
                // Every depth; without butterflies, plain LU without
                // pivoting falls back where a leading minor is zero or
                // tiny.
                for (int d = 0; d <= 4; d++)
                    run(RANDOM, 50, 2, nb, d, -1, WELL, seed++);
                run(ZERO_MINOR, 50, 2, nb, 0, -1, HYLA_RBT_ZERO_PIVOT, seed++);
                run(TINY_MINOR, 50, 2, nb, 0, -1, SOME, seed++);
                // A budget of 0 and 1 steps: the first solution, then one
                // correction, or the fall back.
                run(RANDOM, 129, 3, nb, 2, 0, ANY, seed++);
                run(RANDOM, 129, 3, nb, 2, 1, ANY, seed++);
                singular(37, nb, 0, seed++);
                singular(37, nb, 20, seed++);
                split(RANDOM, 2, 45, nb, seed++);
                split(ZERO_MINOR, 0, 45, nb, seed++);
                // Tiles: of the configured size, one the butterflies fit
                // whole (n = 16 tiles), and others, which the padded
                // copy's tiles straddle.
                tiles(RANDOM, 2, 129, nb, nb, -1, WELL, seed++);
                tiles(RANDOM, 2, 16 * nb, nb, nb, -1, WELL, seed++);
                tiles(RANDOM, 2, 129, nb, nb + 3, -1, WELL, seed++);
                tiles(DOMINANT, 3, 100, nb, 2 * nb + 1, -1, WELL, seed++);
                tiles(ZERO_MINOR, 0, 50, nb, nb, -1, HYLA_RBT_ZERO_PIVOT,
                      seed++);
                tiles(RANDOM, 2, 37, nb, nb + 1, 20, ANY, seed++);
            }
            th_finalize();
        }
    inverses(2 * 16 + 5, 16, seed++);
    inverses(2 * 160 + 5, 160, seed++);
    return th_end();
}

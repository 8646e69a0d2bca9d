// SPDX-License-Identifier: BSD-3-Clause
// Linear solve tests.  @precisions d -> s
#include "check.h"
#include "harness.h"

#include <lapacke.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// Checks the solves, column-major and tile forms: hyla_dgesv, hyla_dgetrs
// with trans 'N', 'T' and 'C' after hyla_dgetrf, hyla_dposv and hyla_dpotrs
// (uplo 'L' and 'U') after hyla_dpotrf.  Each solution passes the backward
// error ||b - op(A) x||_inf / (||A||_inf ||x||_inf n eps); gesv and posv
// also leave factors that pass their factor residual; the input A of the
// solve-only routines is untouched, and so are the rows below n (up to
// lda, ldb) everywhere.  Sizes around the tile size, nrhs 0, 1, 3 and
// nb + 1, 1 and 2 CPU workers.  LAPACKE_dgesv's solution of the same
// system also passes the residual (the two are not compared entry by
// entry).  A singular A (a zero column j) in gesv and a non positive
// definite A in posv give info = j + 1 (as LAPACKE) and leave B unchanged.

enum { API_LAPACK, API_TILE };

enum { GESV, GETRS, POSV, POTRS };

static const char *const op_names[] = {"dgesv", "dgetrs", "dposv", "dpotrs"};

static const char *api_name(int api)
{
    return api == API_LAPACK ? "lapack" : "tile";
}

static double *alloc(int ld, int n)
{
    return malloc(sizeof(double) * (size_t)ld * (n > 0 ? n : 1));
}

static double *copy_of(const double *X, int ld, int n)
{
    double *Y = alloc(ld, n);
    memcpy(Y, X, sizeof(double) * (size_t)ld * (n > 0 ? n : 1));
    return Y;
}

// Every entry of the ld-by-n arrays X and Y, rows r0..ld-1, is identical.
static int same_rows(int r0, int ld, int n, const double *X, const double *Y)
{
    for (int j = 0; j < n; j++)
        for (int i = r0; i < ld; i++)
            if (memcmp(&X[(size_t)j * ld + i], &Y[(size_t)j * ld + i],
                       sizeof(double)))
                return 0;
    return 1;
}

// Tile copies of A (n-by-n) and B (n-by-nrhs), tiles of nb.
static int to_tiles(int n, int nrhs, int nb, const double *A, int lda,
                    const double *B, int ldb, hyla_desc_t **TA,
                    hyla_desc_t **TB)
{
    *TA = *TB = NULL;
    int rc = hyla_desc_create(TA, HYLA_DOUBLE, n, n, nb);
    if (!rc) rc = hyla_desc_create(TB, HYLA_DOUBLE, n, nrhs, nb);
    if (!rc) rc = hyla_dlap_to_desc(A, lda, *TA);
    if (!rc) rc = hyla_dlap_to_desc(B, ldb, *TB);
    return rc;
}

// Copies A and B back (when they exist) and destroys the tile matrices;
// returns rc, or the first copy failure.
static int from_tiles(int rc, hyla_desc_t **TA, hyla_desc_t **TB, double *A,
                      int lda, double *B, int ldb)
{
    int r;
    if (*TA && (r = hyla_ddesc_to_lap(*TA, A, lda)) && rc >= 0) rc = r;
    if (*TB && (r = hyla_ddesc_to_lap(*TB, B, ldb)) && rc >= 0) rc = r;
    hyla_desc_destroy(TA);
    hyla_desc_destroy(TB);
    return rc;
}

// One solve: F (the matrix, or its factors for getrs/potrs) and X (the
// right-hand sides, then the solution) are updated in place.  Returns the
// status of the solve routine.
static int solve(int api, int op, char flag, int n, int nrhs, int nb, double *F,
                 int lda, int *ipiv, double *X, int ldb)
{
    if (api == API_LAPACK) {
        switch (op) {
        case GESV: return hyla_dgesv(n, nrhs, F, lda, ipiv, X, ldb);
        case GETRS: return hyla_dgetrs(flag, n, nrhs, F, lda, ipiv, X, ldb);
        case POSV: return hyla_dposv(flag, n, nrhs, F, lda, X, ldb);
        default: return hyla_dpotrs(flag, n, nrhs, F, lda, X, ldb);
        }
    }
    hyla_desc_t *TA, *TB;
    int rc = to_tiles(n, nrhs, nb, F, lda, X, ldb, &TA, &TB);
    if (!rc) {
        switch (op) {
        case GESV: rc = hyla_dgesv_tile(TA, ipiv, TB); break;
        case GETRS: rc = hyla_dgetrs_tile(flag, TA, ipiv, TB); break;
        case POSV: rc = hyla_dposv_tile(flag, TA, TB); break;
        default: rc = hyla_dpotrs_tile(flag, TA, TB);
        }
    }
    return from_tiles(rc, &TA, &TB, F, lda, X, ldb);
}

// The factorization that getrs and potrs start from, through the same API.
static int prefactor(int api, int op, char flag, int n, int nb, double *F,
                     int lda, int *ipiv)
{
    if (api == API_LAPACK)
        return op == GETRS ? hyla_dgetrf(n, n, F, lda, ipiv)
                           : hyla_dpotrf(flag, n, F, lda);
    hyla_desc_t *TA;
    int rc = hyla_desc_create(&TA, HYLA_DOUBLE, n, n, nb);
    if (!rc) rc = hyla_dlap_to_desc(F, lda, TA);
    if (!rc)
        rc = op == GETRS ? hyla_dgetrf_tile(TA, ipiv)
                         : hyla_dpotrf_tile(flag, TA);
    if (rc >= 0 && TA) {
        int r = hyla_ddesc_to_lap(TA, F, lda);
        rc = r ? r : rc;
    }
    hyla_desc_destroy(&TA);
    return rc;
}

// The test matrix for op: general, or symmetric positive definite.
static double *gen_a(int op, int n, int lda, int seed)
{
    double *A = alloc(lda, n);
    hyla_check_dgen(lda, n, A, lda, seed);
    if (op == POSV || op == POTRS) hyla_check_dgen_spd(n, A, lda, seed);
    return A;
}

// One case: counts a row.  flag is trans (getrs) or uplo (posv, potrs).
static void run(int api, int op, char flag, int n, int nrhs, int nb, int seed)
{
    int lda = n + 3, ldb = n + 2;
    int lu = op == GESV || op == GETRS;
    double *A = gen_a(op, n, lda, seed);
    double *B = alloc(ldb, nrhs);
    hyla_check_dgen(ldb, nrhs, B, ldb, seed + 7919); // not A's seed
    int *ipiv = calloc(n + 1, sizeof(int));

    // F: A, or its factors for the solve-only routines.
    double *F = copy_of(A, lda, n);
    int pre = 0;
    if (op == GETRS || op == POTRS)
        pre = prefactor(api, op, flag, n, nb, F, lda, ipiv);
    double *F0 = copy_of(F, lda, n), *X = copy_of(B, ldb, nrhs);

    th_tic();
    int info =
        pre ? pre : solve(api, op, flag, n, nrhs, nb, F, lda, ipiv, X, ldb);
    double t = th_toc();

    char trans = op == GETRS ? flag : 'N';
    double resid = info == 0 ? hyla_check_dresid_solve(trans, n, nrhs, A, lda,
                                                       X, ldb, B, ldb)
                             : NAN;
    // gesv and posv leave the factors in A; getrs and potrs leave A alone.
    double fresid = 0.0;
    int a_ok;
    if (op == GESV)
        fresid = hyla_check_dresid_getrf(n, n, A, lda, F, lda, ipiv);
    else if (op == POSV)
        fresid = hyla_check_dresid_potrf(flag, n, A, lda, F, lda);
    if (lu || op == POSV)
        a_ok = same_rows(n, lda, n, F0, F);
    else
        a_ok = same_rows(0, lda, n, F0, F);
    if (op == POSV) // and the other triangle is not referenced
        for (int j = 0; j < n; j++)
            for (int i = 0; i < n; i++)
                if ((flag == 'L' ? i < j : i > j) &&
                    memcmp(&F[(size_t)j * lda + i], &F0[(size_t)j * lda + i],
                           sizeof(double)))
                    a_ok = 0;
    int b_ok = same_rows(n, ldb, nrhs, B, X);

    char note[128];
    snprintf(note, sizeof note, "%s %c nrhs=%d info=%d%s%s%s", api_name(api),
             flag ? flag : '-', nrhs, info,
             fresid <= HYLA_CHECK_TOL ? "" : " factor-residual",
             a_ok ? "" : " A-changed", b_ok ? "" : " B-padding-changed");
    double flops = 2.0 * n * n * nrhs + (op == GESV   ? 2.0 / 3.0 * n * n * n
                                         : op == POSV ? 1.0 / 3.0 * n * n * n
                                                      : 0.0);
    th_row(op_names[op], n, nrhs, nb, t, flops, resid,
           info == 0 && resid <= HYLA_CHECK_TOL && fresid <= HYLA_CHECK_TOL &&
               a_ok && b_ok,
           note);
    free(A);
    free(B);
    free(F);
    free(F0);
    free(X);
    free(ipiv);
}

// LAPACKE_dgesv on the same system: its solution passes the same residual
// test (and info agrees with hyla's, which run() checks is 0).
static void reference(int n, int nrhs, int nb, int seed)
{
    int lda = n + 3, ldb = n + 2;
    double *A = gen_a(GESV, n, lda, seed);
    double *B = alloc(ldb, nrhs);
    hyla_check_dgen(ldb, nrhs, B, ldb, seed + 7919);
    double *F = copy_of(A, lda, n), *X = copy_of(B, ldb, nrhs);
    double *G = copy_of(A, lda, n), *Y = copy_of(B, ldb, nrhs);
    int *ipiv = calloc(n + 1, sizeof(int)), *rpiv = calloc(n + 1, sizeof(int));

    int info = hyla_dgesv(n, nrhs, F, lda, ipiv, X, ldb);
    int rinfo = LAPACKE_dgesv(LAPACK_COL_MAJOR, n, nrhs, G, lda, rpiv, Y, ldb);
    double r1 = hyla_check_dresid_solve('N', n, nrhs, A, lda, X, ldb, B, ldb);
    double r2 = hyla_check_dresid_solve('N', n, nrhs, A, lda, Y, ldb, B, ldb);
    char note[96];
    snprintf(note, sizeof note, "vs LAPACKE info=%d/%d lapacke-resid=%.2e",
             info, rinfo, r2);
    th_row("dgesv", n, nrhs, nb, 0.0, 0.0, r1,
           info == 0 && rinfo == 0 && r1 <= HYLA_CHECK_TOL &&
               r2 <= HYLA_CHECK_TOL,
           note);
    free(A);
    free(B);
    free(F);
    free(X);
    free(G);
    free(Y);
    free(ipiv);
    free(rpiv);
}

// gesv with column j of A zeroed, or posv with A(j, j) = -1: info = j + 1
// (LAPACKE's), the factorization still reaches A, and B is bit-identical.
static void breakdown(int api, int op, char flag, int n, int nrhs, int nb,
                      int j, int seed)
{
    int lda = n + 3, ldb = n + 2;
    double *A = gen_a(op, n, lda, seed);
    if (op == GESV)
        for (int i = 0; i < n; i++)
            A[(size_t)j * lda + i] = 0.0;
    else
        A[(size_t)j * lda + j] = -1.0;
    double *B = alloc(ldb, nrhs);
    hyla_check_dgen(ldb, nrhs, B, ldb, seed + 7919);
    double *F = copy_of(A, lda, n), *X = copy_of(B, ldb, nrhs);
    double *G = copy_of(A, lda, n), *Y = copy_of(B, ldb, nrhs);
    int *ipiv = calloc(n + 1, sizeof(int)), *rpiv = calloc(n + 1, sizeof(int));

    th_tic();
    int info = solve(api, op, flag, n, nrhs, nb, F, lda, ipiv, X, ldb);
    double t = th_toc();
    int rinfo =
        op == GESV
            ? LAPACKE_dgesv(LAPACK_COL_MAJOR, n, nrhs, G, lda, rpiv, Y, ldb)
            : LAPACKE_dposv(LAPACK_COL_MAJOR, flag, n, nrhs, G, lda, Y, ldb);
    // The LU of a singular matrix still completes: its residual holds.
    double fresid =
        op == GESV ? hyla_check_dresid_getrf(n, n, A, lda, F, lda, ipiv) : 0.0;
    int b_ok = same_rows(0, ldb, nrhs, B, X);

    char note[128];
    snprintf(note, sizeof note, "%s %c %s %d: info=%d/%d want=%d%s",
             api_name(api), flag ? flag : '-',
             op == GESV ? "zero column" : "A(j,j)=-1 at", j, info, rinfo, j + 1,
             b_ok ? "" : " B-changed");
    th_row(op_names[op], n, nrhs, nb, t, 0.0, fresid,
           info == j + 1 && rinfo == j + 1 && b_ok && fresid <= HYLA_CHECK_TOL,
           note);
    free(A);
    free(B);
    free(F);
    free(X);
    free(G);
    free(Y);
    free(ipiv);
    free(rpiv);
}

int main(void)
{
    th_begin("dgesv");
    static const int nbs[] = {5, 32};
    static const char transes[] = {'N', 'T', 'C'};
    static const char uplos[] = {'L', 'U'};
    int seed = 1;
    for (int ncpus = 1; ncpus <= 2; ncpus++)
        for (size_t b = 0; b < sizeof nbs / sizeof nbs[0]; b++) {
            int nb = nbs[b];
            th_init(ncpus, nb, ncpus - 1);
            const int ns[] = {0, 1, nb - 1, nb + 1, 3 * nb + 2};
            const int nrhss[] = {0, 1, 3, nb + 1};
            for (size_t s = 0; s < sizeof ns / sizeof ns[0]; s++)
                for (size_t r = 0; r < sizeof nrhss / sizeof nrhss[0]; r++) {
                    int n = ns[s], nrhs = nrhss[r];
                    for (int api = API_LAPACK; api <= API_TILE; api++) {
                        run(api, GESV, 0, n, nrhs, nb, seed++);
                        for (int t = 0; t < 3; t++)
                            run(api, GETRS, transes[t], n, nrhs, nb, seed++);
                        for (int u = 0; u < 2; u++) {
                            run(api, POSV, uplos[u], n, nrhs, nb, seed++);
                            run(api, POTRS, uplos[u], n, nrhs, nb, seed++);
                        }
                    }
                    if (n > 0 && nrhs > 0) reference(n, nrhs, nb, seed++);
                }
            th_finalize();
        }

    // Singular and not positive definite: columns in the first tile, on
    // tile edges and the last one (n = 17, nb = 5).
    th_init(2, 5, 1);
    static const int cols[] = {0, 2, 4, 5, 10, 16};
    for (size_t c = 0; c < sizeof cols / sizeof cols[0]; c++)
        for (int api = API_LAPACK; api <= API_TILE; api++) {
            breakdown(api, GESV, 0, 17, 3, 5, cols[c], seed++);
            for (int u = 0; u < 2; u++)
                breakdown(api, POSV, uplos[u], 17, 3, 5, cols[c], seed++);
        }
    th_finalize();
    return th_end();
}

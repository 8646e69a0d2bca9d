// SPDX-License-Identifier: BSD-3-Clause
// Solves on distributed tile matrices, and copies from and to
// ScaLAPACK's local layout.  @precisions d -> s
//
// Run by mpiexec on 1, 2 or 4 processes (meson suite mpi), each with one
// CPU worker, on every p-by-q grid of the processes.  Every rank makes
// the same matrices (same seeds); rank 0 checks and prints.
//  - local layout: each rank's block-cyclic local matrix (lld larger than
//    its rows) goes to the tiles and back bit for bit, its padding
//    untouched, and the tiles equal the global matrix; local sizes are
//    ScaLAPACK's NUMROC;
//  - gesv, getrs (trans and not) after getrf, posv and potrs (both uplo)
//    on orders with edge tiles and 1 to 5 right-hand sides: the residual
//    ||b - A x|| / (||A|| ||x|| n eps), the same info on every rank;
//  - a singular A: gesv's info is LAPACKE_dgesv's and B is unchanged;
//  - the RBT solver: the residual, the same report on every rank, A
//    unchanged (or its LU factors after a fall back: a zero pivot without
//    butterflies, a singular A with LAPACKE's info), with and without the
//    padded copy of A; X within 100 n eps of one process alone's, with
//    its fall back (the distributed products and solves add the same
//    terms in another order);
//  - argument errors, the same status on every rank: B (X) not
//    distributed as A (B), one rank's bad ipiv, opts or lld.
#include "check.h"
#include "mpi_harness.h"

#include <float.h>
#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

// The same m-by-n column-major matrix (lda = m) on every rank.
static double *gen(int m, int n, int seed)
{
    double *A = malloc(sizeof(double) * ((size_t)m * n + 1));
    hyla_check_dgen(m, n, A, m > 1 ? m : 1, seed);
    return A;
}

// ScaLAPACK's NUMROC: the rows (columns) of n in blocks of nb that
// process coordinate iproc of nprocs holds, the first block on 0.
static int numroc(int n, int nb, int iproc, int nproc)
{
    int count = 0;
    for (int i = iproc; i * nb < n; i += nproc)
        count += n - i * nb < nb ? n - i * nb : nb;
    return count;
}

// This rank's local matrix of the global A (lda) in blocks of nb on the
// p-by-q grid, lld = mloc + 3, padding -7.
static double *local_of(const double *A, int lda, int m, int n, int nb, int p,
                        int q, int *mloc, int *nloc, int *lld)
{
    int pr = rank / q, pc = rank % q;
    *mloc = numroc(m, nb, pr, p);
    *nloc = numroc(n, nb, pc, q);
    *lld = *mloc + 3;
    size_t size = (size_t)*lld * *nloc + 1;
    double *L = malloc(sizeof(double) * size);
    for (size_t e = 0; e < size; e++)
        L[e] = -7.0;
    for (int j = 0; j < n; j++)
        for (int i = 0; i < m; i++) {
            if ((i / nb) % p != pr || (j / nb) % q != pc) continue;
            int li = (i / nb) / p * nb + i % nb,
                lj = (j / nb) / q * nb + j % nb;
            L[(size_t)lj * *lld + li] = A[(size_t)j * lda + i];
        }
    return L;
}

static void local_layout(int m, int n, int nb, int p, int q, int seed)
{
    double *A = gen(m, n, seed), *B = rank == 0 ? gen(m, n, seed + 1) : NULL;
    int lda = m > 1 ? m : 1, mloc, nloc, lld;
    double *L = local_of(A, lda, m, n, nb, p, q, &mloc, &nloc, &lld);
    size_t size = (size_t)lld * nloc + 1;
    double *L2 = malloc(sizeof(double) * size);
    for (size_t e = 0; e < size; e++)
        L2[e] = -7.0;
    hyla_desc_t *T;
    int rc = hyla_desc_create_dist(&T, HYLA_DOUBLE, m, n, nb, p, q);
    int hm = -1, hn = -1;
    if (!rc) rc = hyla_desc_local_size(T, &hm, &hn);
    if (!rc) rc = hyla_dlocal_to_desc(L, lld, T);
    if (!rc) rc = hyla_ddesc_to_lap(T, B, lda);
    if (!rc) rc = hyla_ddesc_to_local(T, L2, lld);
    hyla_desc_destroy(&T);
    rc = agreed(rc);
    int ok = all_ok(hm == mloc && hn == nloc &&
                    !memcmp(L, L2, sizeof(double) * size));
    if (rank == 0) {
        ok = ok && (m * n == 0 || !memcmp(A, B, sizeof(double) * lda * n));
        char note[64];
        snprintf(note, sizeof note, "local grid %dx%d rc=%d", p, q, rc);
        th_row("dlocal_to_desc", m, n, nb, 0.0, 0.0, 0.0, rc == 0 && ok, note);
    }
    free(A);
    free(B);
    free(L);
    free(L2);
}

enum { GESV, GETRS_N, GETRS_T, POSV_L, POSV_U, POTRS_L, POTRS_U };
static const char *const names[] = {"dgesv_tile", "dgetrs_tile", "dgetrs_tile",
                                    "dposv_tile", "dposv_tile",  "dpotrs_tile",
                                    "dpotrs_tile"};

// The solve `kind` of order n with nrhs right-hand sides, A and B from
// each rank's local matrices; X comes back to rank 0 for the residual.
static void solve(int kind, int n, int nrhs, int nb, int p, int q, int seed)
{
    int spd = kind >= POSV_L;
    char uplo = kind == POSV_L || kind == POTRS_L ? 'L' : 'U';
    char trans = kind == GETRS_T ? 'T' : 'N';
    double *A = gen(n, n, seed), *B = gen(n, nrhs, seed + 1);
    if (spd) hyla_check_dgen_spd(n, A, n, seed);
    double *X =
        rank == 0 ? malloc(sizeof(double) * ((size_t)n * nrhs + 1)) : NULL;
    int ma, na, lda_loc, mb, nbl, ldb_loc;
    double *La = local_of(A, n, n, n, nb, p, q, &ma, &na, &lda_loc);
    double *Lb = local_of(B, n, n, nrhs, nb, p, q, &mb, &nbl, &ldb_loc);
    int *ipiv = calloc(n + 1, sizeof(int));
    hyla_desc_t *TA = NULL, *TB = NULL;
    int rc = hyla_desc_create_dist(&TA, HYLA_DOUBLE, n, n, nb, p, q);
    if (!rc) rc = hyla_desc_create_dist(&TB, HYLA_DOUBLE, n, nrhs, nb, p, q);
    if (!rc) rc = hyla_dlocal_to_desc(La, lda_loc, TA);
    if (!rc) rc = hyla_dlocal_to_desc(Lb, ldb_loc, TB);
    th_tic();
    if (!rc) {
        switch (kind) {
        case GESV: rc = hyla_dgesv_tile(TA, ipiv, TB); break;
        case GETRS_N:
        case GETRS_T:
            rc = hyla_dgetrf_tile(TA, ipiv);
            if (!rc) rc = hyla_dgetrs_tile(trans, TA, ipiv, TB);
            break;
        case POSV_L:
        case POSV_U: rc = hyla_dposv_tile(uplo, TA, TB); break;
        default:
            rc = hyla_dpotrf_tile(uplo, TA);
            if (!rc) rc = hyla_dpotrs_tile(uplo, TA, TB);
        }
    }
    double t = th_toc();
    if (!rc) rc = hyla_ddesc_to_lap(TB, X, n);
    hyla_desc_destroy(&TA);
    hyla_desc_destroy(&TB);
    rc = agreed(rc);
    if (rank == 0) {
        double resid =
            rc == 0 ? hyla_check_dresid_solve(trans, n, nrhs, A, n, X, n, B, n)
                    : NAN;
        char note[64];
        snprintf(note, sizeof note, "grid %dx%d %s%c nrhs=%d info=%d", p, q,
                 spd ? "uplo=" : "trans=", spd ? uplo : trans, nrhs, rc);
        th_row(names[kind], n, n, nb, t, 2.0 * n * n * nrhs, resid,
               rc == 0 && resid <= HYLA_CHECK_TOL, note);
    }
    free(A);
    free(B);
    free(X);
    free(La);
    free(Lb);
    free(ipiv);
}

// gesv of A with column `zero` set to zero: LAPACKE's info on every rank,
// and B as it was.
static void singular(int n, int nb, int p, int q, int zero, int seed)
{
    double *A = gen(n, n, seed), *B = gen(n, 2, seed + 1);
    for (int i = 0; i < n; i++)
        A[(size_t)zero * n + i] = 0.0;
    double *X = rank == 0 ? malloc(sizeof(double) * 2 * n) : NULL;
    int *ipiv = calloc(n, sizeof(int));
    hyla_desc_t *TA = NULL, *TB = NULL;
    int rc = hyla_desc_create_dist(&TA, HYLA_DOUBLE, n, n, nb, p, q);
    if (!rc) rc = hyla_desc_create_dist(&TB, HYLA_DOUBLE, n, 2, nb, p, q);
    if (!rc) rc = hyla_dlap_to_desc(rank == 0 ? A : NULL, n, TA);
    if (!rc) rc = hyla_dlap_to_desc(rank == 0 ? B : NULL, n, TB);
    if (!rc) rc = hyla_dgesv_tile(TA, ipiv, TB);
    int rc2 = rc >= 0 ? hyla_ddesc_to_lap(TB, X, n) : rc;
    hyla_desc_destroy(&TA);
    hyla_desc_destroy(&TB);
    rc = agreed(rc);
    rc2 = agreed(rc2);
    if (rank == 0) {
        int linfo = LAPACKE_dgesv(LAPACK_COL_MAJOR, n, 2, A, n, ipiv, B, n);
        // LAPACKE left B as it was too.
        int same = rc2 == 0 && !memcmp(X, B, sizeof(double) * 2 * n);
        char note[80];
        snprintf(note, sizeof note,
                 "grid %dx%d zero column %d info=%d "
                 "lapacke=%d",
                 p, q, zero, rc, linfo);
        th_row("dgesv_tile", n, n, nb, 0.0, 0.0, 0.0,
               rc > 0 && rc == linfo && same, note);
    }
    free(A);
    free(B);
    free(X);
    free(ipiv);
}

// hyla_dgesv_rbt_tile on rank 0 alone (A, B not distributed): whether X
// is within 100 n eps (relative, max norm) of the X given, with the same
// fall back.
static int rbt_alone(int n, int nrhs, int nb, const hyla_rbt_opts_t *o,
                     const double *A, const double *B, const double *X,
                     const hyla_rbt_report_t *r)
{
    double *Y = malloc(sizeof(double) * ((size_t)n * nrhs + 1));
    int *ipiv = calloc(n + 1, sizeof(int));
    hyla_desc_t *TA = NULL, *TB = NULL, *TX = NULL;
    hyla_rbt_report_t r1 = {-1, -1, -1};
    int rc = hyla_desc_create(&TA, HYLA_DOUBLE, n, n, nb);
    if (!rc) rc = hyla_desc_create(&TB, HYLA_DOUBLE, n, nrhs, nb);
    if (!rc) rc = hyla_desc_create(&TX, HYLA_DOUBLE, n, nrhs, nb);
    if (!rc) rc = hyla_dlap_to_desc(A, n, TA);
    if (!rc) rc = hyla_dlap_to_desc(B, n, TB);
    if (!rc) rc = hyla_dgesv_rbt_tile(TA, ipiv, TB, TX, o, &r1);
    if (!rc) rc = hyla_ddesc_to_lap(TX, Y, n);
    hyla_desc_destroy(&TA);
    hyla_desc_destroy(&TB);
    hyla_desc_destroy(&TX);
    double diff = 0, ymax = 0;
    for (size_t e = 0; !rc && e < (size_t)n * nrhs; e++) {
        diff = fmax(diff, fabs(X[e] - Y[e]));
        ymax = fmax(ymax, fabs(Y[e]));
    }
    double rel = diff / ymax, eps = DBL_EPSILON;
    int same = rc == 0 && rel <= 100 * n * eps && r1.fallback == r->fallback;
    free(Y);
    free(ipiv);
    return th_check(same,
                    "rc %d, X apart by %.2g (bound %.2g), fall back %d "
                    "and %d",
                    rc, rel, 100 * n * eps, (int)r->fallback, (int)r1.fallback);
}

// hyla_dgesv_rbt_tile of order n with butterflies of `depth`, column
// zero_col of A zero (-1: none; a fall back with LAPACKE's info), or
// A(0, 0) = 0 where minor (with depth 0: a fall back for the zero pivot).
static void rbt(int n, int nrhs, int nb, int depth, int zero_col, int minor,
                int p, int q, int seed)
{
    double *A = gen(n, n, seed), *B = gen(n, nrhs, seed + 1);
    for (int i = 0; zero_col >= 0 && i < n; i++)
        A[(size_t)zero_col * n + i] = 0.0;
    if (minor) A[0] = 0.0;
    size_t nn = (size_t)n * n + 1;
    double *X = malloc(sizeof(double) * ((size_t)n * nrhs + 1));
    double *Af = malloc(sizeof(double) * nn);
    int *ipiv = calloc(n + 1, sizeof(int));
    hyla_desc_t *TA = NULL, *TB = NULL, *TX = NULL;
    int rc = hyla_desc_create_dist(&TA, HYLA_DOUBLE, n, n, nb, p, q);
    if (!rc) rc = hyla_desc_create_dist(&TB, HYLA_DOUBLE, n, nrhs, nb, p, q);
    if (!rc) rc = hyla_desc_create_dist(&TX, HYLA_DOUBLE, n, nrhs, nb, p, q);
    if (!rc) rc = hyla_dlap_to_desc(A, n, TA);
    if (!rc) rc = hyla_dlap_to_desc(B, n, TB);
    hyla_rbt_opts_t o = HYLA_RBT_OPTS_DEFAULT;
    o.depth = depth;
    hyla_rbt_report_t r = {-1, -1, -1};
    th_tic();
    if (!rc) rc = hyla_dgesv_rbt_tile(TA, ipiv, TB, TX, &o, &r);
    double t = th_toc();
    int rc2 = rc == 0 ? hyla_ddesc_to_lap(TX, X, n) : 0;
    if (rc >= 0 && !rc2) rc2 = hyla_ddesc_to_lap(TA, Af, n);
    hyla_desc_destroy(&TA);
    hyla_desc_destroy(&TB);
    hyla_desc_destroy(&TX);
    rc = agreed(rc);
    rc2 = agreed(rc2);
    int same = agreed(r.iterations) == r.iterations &&
               agreed((int)r.fallback) == (int)r.fallback &&
               agreed(r.zero_pivot) == r.zero_pivot;
    if (rank == 0) {
        int ok = rc2 == 0 && same;
        double resid = NAN;
        int linfo = 0;
        if (zero_col >= 0) {
            double *F = malloc(sizeof(double) * nn);
            int *lp = malloc(sizeof(int) * (n + 1));
            memcpy(F, A, sizeof(double) * nn);
            linfo = LAPACKE_dgetrf(LAPACK_COL_MAJOR, n, n, F, n, lp);
            ok &= rc > 0 && rc == linfo && r.fallback != HYLA_RBT_NONE;
            free(F);
            free(lp);
        } else {
            resid = rc == 0 ? hyla_check_dresid_solve('N', n, nrhs, A, n, X, n,
                                                      B, n)
                            : NAN;
            ok &= rc == 0 && resid <= HYLA_CHECK_TOL;
            if (minor && depth == 0)
                ok &= r.fallback == HYLA_RBT_ZERO_PIVOT && r.zero_pivot == 1;
            if (rc == 0 && r.fallback == HYLA_RBT_NONE)
                ok &= rbt_alone(n, nrhs, nb, &o, A, B, X, &r);
        }
        // A as it was, or its LU factors after a fall back.
        if (rc >= 0 && r.fallback == HYLA_RBT_NONE)
            ok &= !memcmp(A, Af, sizeof(double) * n * n);
        else if (rc >= 0)
            ok &= hyla_check_dresid_getrf(n, n, A, n, Af, n, ipiv) <=
                  HYLA_CHECK_TOL;
        char note[96];
        snprintf(note, sizeof note,
                 "grid %dx%d d=%d nrhs=%d zero=%d minor=%d fb=%d it=%d "
                 "info=%d",
                 p, q, depth, nrhs, zero_col, minor, (int)r.fallback,
                 r.iterations, rc);
        th_row("dgesv_rbt_tile", n, n, nb, t, 2.0 * n * n * n / 3, resid, ok,
               note);
    }
    free(A);
    free(B);
    free(X);
    free(Af);
    free(ipiv);
}

static void bad_arguments(void)
{
    int n = 20, nb = 4;
    hyla_desc_t *A = NULL, *B = NULL, *S = NULL;
    int rc = hyla_desc_create_dist(&A, HYLA_DOUBLE, n, n, nb, 1, nprocs);
    if (!rc) rc = hyla_desc_create_dist(&B, HYLA_DOUBLE, n, 2, nb, 1, nprocs);
    if (!rc) rc = hyla_desc_create(&S, HYLA_DOUBLE, n, 2, nb);
    double *Af = gen(n, n, 3);
    if (!rc) rc = hyla_dlap_to_desc(Af, n, A);
    int *ipiv = calloc(n, sizeof(int));
    if (!rc) rc = hyla_dgetrf_tile(A, ipiv);
    rc = agreed(rc);
    if (rank == 0) TH_STATUS(rc, 0);
    if (rc) goto out;
    // B not distributed, or over another grid.
    rc = agreed(hyla_dgetrs_tile('N', A, ipiv, S));
    if (rank == 0) TH_STATUS(rc, -4);
    rc = agreed(hyla_dposv_tile('L', A, S));
    if (rank == 0) TH_STATUS(rc, -3);
    rc = agreed(hyla_dgesv_rbt_tile(A, ipiv, S, B, NULL, NULL));
    if (rank == 0) TH_STATUS(rc, -3);
    rc = agreed(hyla_dgesv_rbt_tile(A, ipiv, B, S, NULL, NULL));
    if (rank == 0) TH_STATUS(rc, -4);
    if (nprocs > 1) {
        hyla_desc_t *G = NULL;
        rc = hyla_desc_create_dist(&G, HYLA_DOUBLE, n, 2, nb, nprocs, 1);
        if (!rc) rc = hyla_dgesv_tile(A, ipiv, G);
        rc = agreed(rc);
        if (rank == 0) TH_STATUS(rc, -3);
        rc = agreed(hyla_dgesv_rbt_tile(A, ipiv, B, G, NULL, NULL));
        if (rank == 0) TH_STATUS(rc, -4);
        hyla_desc_destroy(&G);
    }
    // One rank's RBT options or ipiv wrong: every rank gets the status.
    hyla_rbt_opts_t o = HYLA_RBT_OPTS_DEFAULT;
    if (rank == nprocs - 1) o.depth = 9;
    rc = agreed(hyla_dgesv_rbt_tile(A, ipiv, B, B, &o, NULL));
    if (rank == 0) TH_STATUS(rc, -5);
    rc = agreed(hyla_dgesv_rbt_tile(A, rank == nprocs - 1 ? NULL : ipiv, B, B,
                                    NULL, NULL));
    if (rank == 0) TH_STATUS(rc, -2);
    // One rank's ipiv out of range: every rank gets -3.
    int keep = ipiv[n - 1];
    if (rank == nprocs - 1) ipiv[n - 1] = n + 1;
    rc = agreed(hyla_dgetrs_tile('N', A, ipiv, B));
    if (rank == 0) TH_STATUS(rc, -3);
    ipiv[n - 1] = keep;
    // One rank's lld too small: every rank gets -2.
    int mloc;
    hyla_desc_local_size(A, &mloc, NULL);
    double *L = calloc((size_t)(mloc + 1) * n + 1, sizeof(double));
    rc =
        agreed(hyla_dlocal_to_desc(L, rank == nprocs - 1 ? mloc - 1 : mloc, A));
    if (rank == 0) TH_STATUS(rc, -2);
    rc = agreed(hyla_ddesc_to_local(A, rank == nprocs - 1 ? NULL : L, mloc));
    if (rank == 0) TH_STATUS(rc, -2);
    free(L);
out:
    free(Af);
    free(ipiv);
    hyla_desc_destroy(&A);
    hyla_desc_destroy(&B);
    hyla_desc_destroy(&S);
}

int main(int argc, char **argv)
{
    if (mpi_begin(&argc, &argv, "distributed solves over MPI")) {
        MPI_Finalize();
        return 1;
    }
    bad_arguments();
    int seed = 100;
    for (int p = 1; p <= nprocs; p++) {
        if (nprocs % p) continue;
        int q = nprocs / p;
        local_layout(0, 4, 4, p, q, seed++);
        local_layout(1, 1, 4, p, q, seed++);
        local_layout(37, 23, 8, p, q, seed++);
        local_layout(64, 40, 16, p, q, seed++);
        for (int kind = GESV; kind <= POTRS_U; kind++) {
            solve(kind, 37, 3, 8, p, q, seed++);
            solve(kind, 100, 1, 16, p, q, seed++);
        }
        solve(GESV, 1, 1, 8, p, q, seed++);
        solve(POSV_L, 1, 1, 8, p, q, seed++);
        solve(GETRS_T, 64, 5, 16, p, q, seed++);
        solve(POTRS_U, 64, 5, 16, p, q, seed++);
        singular(40, 8, p, q, 0, seed++);
        singular(40, 8, p, q, 23, seed++);
        rbt(37, 3, 8, 2, -1, 0, p, q, seed++);  // padded to 40, tiles of 5
        rbt(64, 2, 16, 2, -1, 0, p, q, seed++); // A's tiles read in place
        rbt(100, 1, 16, 1, -1, 0, p, q, seed++);
        rbt(48, 2, 8, 3, -1, 0, p, q, seed++);
        rbt(50, 2, 8, 0, -1, 1, p, q, seed++); // zero pivot: fall back
        rbt(40, 2, 8, 2, 17, 0, p, q, seed++); // singular: LAPACKE's info
    }
    return mpi_end();
}

// SPDX-License-Identifier: BSD-3-Clause
// Distributed tile matrices, Cholesky and LU over StarPU-MPI.
// @precisions d -> s
//
// Run by mpiexec on 1, 2 or 4 processes (meson suite mpi), each with one
// CPU worker.  On every p-by-q grid of the processes (1x4, 2x2 and 4x1 on
// four):
//  - the tile owners are 2-D block-cyclic;
//  - rank 0's column-major matrix goes to the tiles and back bit for bit,
//    for sizes that leave edge tiles and rows of padding (lda > m), which
//    stay untouched;
//  - random tile matrices have the same entries for any tile size (so any
//    owner) and at offsets, and the symmetric one is symmetric;
//  - the Cholesky factor residual ||A - L L^T|| / (||A|| n eps) (or
//    U^T U) on orders around the tile size, both uplo;
//  - a negative diagonal entry gives LAPACKE_dpotrf's info, on every rank;
//  - the LU residual ||PA - LU|| / (||A|| n eps) on square, tall and wide
//    sizes with edge tiles, the pivots equal to LAPACKE_dgetrf's on input
//    without ties, and the same ipiv on every rank;
//  - a zero column gives LAPACKE_dgetrf's info, on every rank;
//  - a first column of +-1 (every row ties, on every process) gives
//    LAPACKE_dgetrf's pivots: the first row of equals wins;
//  - argument errors: a grid that is not the processes, a distributed
//    matrix given to a routine that works on one process's matrices, and
//    rank 0's bad lda: every rank gets the same status.
// Rank 0 checks and prints; every rank's status is gathered to it.
#include "check.h"
#include "mpi_harness.h"

#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

// Rank 0's m-by-n column-major matrix with lda = m + 2 (NULL elsewhere).
static double *gen(int m, int n, int seed)
{
    if (rank != 0) return NULL;
    int lda = m + 2;
    double *A = malloc(sizeof(double) * ((size_t)lda * n + 1));
    hyla_check_dgen(lda, n, A, lda, seed);
    return A;
}

static void owners(int p, int q)
{
    hyla_desc_t *T;
    int rc = hyla_desc_create_dist(&T, HYLA_DOUBLE, 50, 70, 8, p, q);
    int ok = rc == 0;
    for (int i = 0; ok && i < 7; i++)
        for (int j = 0; j < 9; j++)
            ok = ok && hyla_desc_owner(T, i, j) == (i % p) * q + j % q;
    ok = ok && hyla_desc_owner(T, 7, 0) == -1 && hyla_desc_owner(T, 0, 9) == -1;
    ok = all_ok(ok);
    if (rank == 0)
        th_check(ok, "grid %dx%d: tile owners are not 2-D block-cyclic", p, q);
    hyla_desc_destroy(&T);
}

static void roundtrip(int m, int n, int nb, int p, int q, int seed)
{
    int lda = m + 2;
    size_t size = (size_t)lda * n + 1;
    double *A = gen(m, n, seed), *B = NULL;
    if (rank == 0) {
        B = malloc(sizeof(double) * size);
        for (size_t e = 0; e < size; e++)
            B[e] = -7.0;
    }
    hyla_desc_t *T;
    int rc = hyla_desc_create_dist(&T, HYLA_DOUBLE, m, n, nb, p, q);
    if (!rc) rc = hyla_dlap_to_desc(A, lda, T);
    if (!rc) rc = hyla_ddesc_to_lap(T, B, lda);
    hyla_desc_destroy(&T);
    rc = agreed(rc);
    if (rank == 0) {
        int same = 1;
        for (int j = 0; j < n; j++)
            for (int i = 0; i < lda; i++) {
                size_t e = (size_t)j * lda + i;
                same = same && (i < m ? B[e] == A[e] : B[e] == -7.0);
            }
        char note[64];
        snprintf(note, sizeof note, "layout grid %dx%d rc=%d", p, q, rc);
        th_row("dlap_to_desc", m, n, nb, 0.0, 0.0, 0.0, rc == 0 && same, note);
    }
    free(A);
    free(B);
}

// Random tile matrices on the grid, copied to rank 0: the same entries in
// tiles of 8 and of 5 (other processes hold them), a block generated at
// offset (3, 5) equal to that block of the whole, and the symmetric one
// symmetric with its bump on the diagonal.
static void random_tiles(int m, int n, int p, int q, int seed)
{
    enum { I0 = 3, J0 = 5 };
    static const int nbs[4] = {8, 5, 4, 8};
    const int rows[4] = {m, m, m - I0, m}, cols[4] = {n, n, n - J0, m};
    double *F[4] = {NULL, NULL, NULL, NULL};
    int rc = 0;
    for (int k = 0; k < 4; k++) {
        if (rank == 0)
            F[k] = malloc(sizeof(double) * ((size_t)rows[k] * cols[k] + 1));
        hyla_desc_t *T = NULL;
        int r = hyla_desc_create_dist(&T, HYLA_DOUBLE, rows[k], cols[k], nbs[k],
                                      p, q);
        if (!r)
            r = k == 3   ? hyla_dplgsy_tile(m, T, 0, 0, seed)
                : k == 2 ? hyla_dplrnt_tile(T, I0, J0, seed)
                         : hyla_dplrnt_tile(T, 0, 0, seed);
        if (!r) r = hyla_ddesc_to_lap(T, F[k], rows[k]);
        hyla_desc_destroy(&T);
        if (!rc) rc = r;
    }
    rc = agreed(rc);
    if (rank == 0) {
        int ok = rc == 0;
        for (size_t e = 0; ok && e < (size_t)m * n; e++)
            ok = F[0][e] == F[1][e] && fabs(F[0][e]) <= 0.5;
        for (int j = 0; ok && j < n - J0; j++)
            for (int i = 0; i < m - I0; i++)
                ok = ok && F[2][(size_t)j * (m - I0) + i] ==
                               F[0][(size_t)(j + J0) * m + i + I0];
        for (int j = 0; ok && j < m; j++)
            for (int i = j; i < m; i++) {
                double s = F[3][(size_t)j * m + i];
                double r = j < n ? F[0][(size_t)j * m + i] : s;
                ok = ok && s == F[3][(size_t)i * m + j] &&
                     (j >= n || s == (i == j ? r + m : r));
            }
        char note[64];
        snprintf(note, sizeof note, "plrnt/plgsy grid %dx%d rc=%d", p, q, rc);
        th_row("dplrnt", m, n, 8, 0.0, 0.0, 0.0, ok, note);
    }
    for (int k = 0; k < 4; k++)
        free(F[k]);
}

// Rank 0's SPD matrix (lda = n + 1), its diagonal entry j set to value
// when j >= 0, factored on the grid; returns the agreed status, and on
// rank 0 the residual (NaN unless the status is 0) and LAPACKE's info.
static int factor(char uplo, int n, int nb, int p, int q, int j, double value,
                  int seed, double *resid, int *lapack_info)
{
    int lda = n + 1;
    size_t size = (size_t)lda * n + 1;
    double *A = NULL, *F = NULL;
    if (rank == 0) {
        A = malloc(sizeof(double) * size);
        F = malloc(sizeof(double) * size);
        hyla_check_dgen_spd(n, A, lda, seed);
        if (j >= 0) A[(size_t)j * lda + j] = value;
        memcpy(F, A, sizeof(double) * size);
    }
    hyla_desc_t *T;
    int rc = hyla_desc_create_dist(&T, HYLA_DOUBLE, n, n, nb, p, q);
    if (!rc) rc = hyla_dlap_to_desc(A, lda, T);
    if (!rc) rc = hyla_dpotrf_tile(uplo, T);
    if (rc >= 0) {
        int rc2 = hyla_ddesc_to_lap(T, F, lda);
        rc = rc2 ? rc2 : rc;
    }
    hyla_desc_destroy(&T);
    rc = agreed(rc);
    if (rank == 0) {
        *resid =
            rc == 0 ? hyla_check_dresid_potrf(uplo, n, A, lda, F, lda) : NAN;
        memcpy(F, A, sizeof(double) * size);
        *lapack_info = LAPACKE_dpotrf(LAPACK_COL_MAJOR, uplo, n, F, lda);
    }
    free(A);
    free(F);
    return rc;
}

static void cholesky(char uplo, int n, int nb, int p, int q, int seed)
{
    double resid = NAN;
    int linfo = 0;
    th_tic();
    int rc = factor(uplo, n, nb, p, q, -1, 0.0, seed, &resid, &linfo);
    double t = th_toc();
    if (rank == 0) {
        char note[64];
        snprintf(note, sizeof note, "grid %dx%d uplo=%c info=%d", p, q, uplo,
                 rc);
        th_row("dpotrf_tile", n, n, nb, t, (double)n * n * n / 3.0, resid,
               rc == 0 && resid <= HYLA_CHECK_TOL, note);
    }
}

static void breakdown(char uplo, int n, int nb, int p, int q, int j, int seed)
{
    double resid;
    int linfo = -1;
    int rc = factor(uplo, n, nb, p, q, j, -1.0, seed, &resid, &linfo);
    if (rank == 0) {
        char note[80];
        snprintf(note, sizeof note,
                 "grid %dx%d uplo=%c -1 at (%d,%d) info=%d "
                 "lapacke=%d",
                 p, q, uplo, j, j, rc, linfo);
        th_row("dpotrf_tile", n, n, nb, 0.0, 0.0, 0.0,
               rc > 0 && rc == linfo && rc == j + 1, note);
    }
}

// The first column +-1: a tie for every pivot of the first column.
enum { TIES = -2 };

// LU of rank 0's m-by-n matrix (lda = m + 1; column `zero` set to zero
// when >= 0, column 0 to +-1 when TIES) on the grid: the residual, the pivots
// against LAPACKE's, every rank's ipiv against rank 0's, the info against
// LAPACKE's.
static void lu(int m, int n, int nb, int p, int q, int zero, int seed)
{
    int lda = m + 1, k = m < n ? m : n;
    size_t size = (size_t)lda * n + 1;
    double *A = NULL, *F = NULL;
    if (rank == 0) {
        A = malloc(sizeof(double) * size);
        F = malloc(sizeof(double) * size);
        hyla_check_dgen(m, n, A, lda, seed);
        for (int i = 0; i < m && zero != -1; i++)
            A[(size_t)(zero >= 0 ? zero : 0) * lda + i] = zero >= 0 ? 0.0
                                                          : i % 2   ? -1.0
                                                                    : 1.0;
        memcpy(F, A, sizeof(double) * size);
    }
    int *ipiv = calloc(k + 1, sizeof(int));
    hyla_desc_t *T;
    th_tic();
    int rc = hyla_desc_create_dist(&T, HYLA_DOUBLE, m, n, nb, p, q);
    if (!rc) rc = hyla_dlap_to_desc(A, lda, T);
    if (!rc) rc = hyla_dgetrf_tile(T, ipiv);
    if (rc >= 0) {
        int rc2 = hyla_ddesc_to_lap(T, F, lda);
        rc = rc2 ? rc2 : rc;
    }
    double t = th_toc();
    hyla_desc_destroy(&T);
    rc = agreed(rc);
    // Every rank's ipiv is rank 0's.
    int *all = rank == 0 ? malloc(sizeof(int) * (k + 1) * nprocs) : NULL;
    MPI_Gather(ipiv, k + 1, MPI_INT, all, k + 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        int same = 1;
        for (int r = 1; r < nprocs; r++)
            same = same &&
                   !memcmp(all, all + (size_t)r * (k + 1), sizeof(int) * k);
        double resid =
            rc >= 0 ? hyla_check_dresid_getrf(m, n, A, lda, F, lda, ipiv) : NAN;
        memcpy(F, A, sizeof(double) * size);
        int *rpiv = calloc(k + 1, sizeof(int));
        int linfo = LAPACKE_dgetrf(LAPACK_COL_MAJOR, m, n, F, lda, rpiv);
        int pivots = zero >= 0 || !memcmp(ipiv, rpiv, sizeof(int) * k);
        char note[96];
        snprintf(note, sizeof note, "grid %dx%d info=%d lapacke=%d%s%s%s", p, q,
                 rc, linfo,
                 zero >= 0      ? " zero column"
                 : zero == TIES ? " ties"
                                : "",
                 pivots ? "" : " pivots-differ", same ? "" : " ipiv-differs");
        th_row("dgetrf_tile", m, n, nb, t, 2.0 * m * n * k / 3.0, resid,
               rc == linfo && (zero < 0 || rc == zero + 1) &&
                   resid <= HYLA_CHECK_TOL && pivots && same,
               note);
        free(rpiv);
    }
    free(all);
    free(ipiv);
    free(A);
    free(F);
}

static void bad_arguments(void)
{
    hyla_desc_t *T = NULL;
    int rc = agreed(
        hyla_desc_create_dist(&T, HYLA_DOUBLE, 10, 10, 4, 1, nprocs + 1));
    if (rank == 0) TH_STATUS(rc, -7);
    rc = agreed(hyla_desc_create_dist(&T, HYLA_DOUBLE, 10, 10, 4, 0, nprocs));
    if (rank == 0) TH_STATUS(rc, -6);
    rc = agreed(hyla_desc_create_dist(&T, HYLA_DOUBLE, 10, 10, 4, nprocs, 1));
    // Only rank 0's column-major arguments are read; its lda decides.
    double *A = gen(10, 10, 5);
    int got = rc ? rc : agreed(hyla_dlap_to_desc(A, rank == 0 ? 9 : 0, T));
    if (rank == 0) TH_STATUS(got, -2);
    got = rc ? rc : agreed(hyla_dlap_to_desc(A, rank == 0 ? 12 : 0, T));
    if (rank == 0) TH_STATUS(got, 0);
    free(A);
    hyla_desc_destroy(&T);
}

int main(int argc, char **argv)
{
    if (mpi_begin(&argc, &argv, "dpotrf over MPI")) {
        MPI_Finalize();
        return 1;
    }
    // Only once: a second start is refused.
    hyla_config_t cfg;
    hyla_config_init(&cfg);
    int got = agreed(hyla_mpi_init(&cfg, MPI_COMM_WORLD));
    if (rank == 0) TH_STATUS(got, HYLA_ERR_REINITIALIZED);
    // Started without MPI, hyla makes no distributed matrix.
    hyla_finalize();
    int rc = hyla_init(&cfg);
    hyla_desc_t *T = NULL;
    got = rc ? rc : hyla_desc_create_dist(&T, HYLA_DOUBLE, 4, 4, 2, 1, nprocs);
    if (!rc) hyla_finalize();
    got = agreed(got);
    if (rank == 0) TH_STATUS(got, HYLA_ERR_NOT_SUPPORTED);
    // Again as the harness started it: on GPUs where asked.
    rc = mpi_start();
    if (rank == 0) th_check(rc == 0, "hyla_mpi_init again");
    if (rc) {
        MPI_Finalize();
        return 1;
    }
    bad_arguments();
    int seed = 1;
    for (int p = 1; p <= nprocs; p++) {
        if (nprocs % p) continue;
        int q = nprocs / p;
        owners(p, q);
        roundtrip(0, 5, 4, p, q, seed++);
        roundtrip(1, 1, 4, p, q, seed++);
        roundtrip(37, 23, 8, p, q, seed++);
        roundtrip(64, 64, 16, p, q, seed++);
        random_tiles(37, 23, p, q, seed++);
        random_tiles(40, 41, p, q, seed++);
        static const char uplos[] = {'L', 'U'};
        for (int u = 0; u < 2; u++) {
            cholesky(uplos[u], 0, 8, p, q, seed++);
            cholesky(uplos[u], 1, 8, p, q, seed++);
            cholesky(uplos[u], 31, 8, p, q, seed++);
            cholesky(uplos[u], 64, 16, p, q, seed++);
            cholesky(uplos[u], 101, 16, p, q, seed++);
            cholesky(uplos[u], 200, 32, p, q, seed++);
            breakdown(uplos[u], 40, 8, p, q, 0, seed++);
            breakdown(uplos[u], 40, 8, p, q, 17, seed++);
            breakdown(uplos[u], 40, 8, p, q, 39, seed++);
        }
        lu(1, 1, 8, p, q, -1, seed++);
        lu(37, 37, 8, p, q, -1, seed++);
        lu(64, 64, 16, p, q, -1, seed++);
        lu(150, 150, 32, p, q, -1, seed++);
        lu(90, 41, 16, p, q, -1, seed++);
        lu(41, 90, 16, p, q, -1, seed++);
        lu(50, 50, 8, p, q, 0, seed++);
        lu(50, 50, 8, p, q, 21, seed++);
        lu(50, 50, 8, p, q, 49, seed++);
        lu(60, 60, 8, p, q, TIES, seed++);
    }

    return mpi_end();
}

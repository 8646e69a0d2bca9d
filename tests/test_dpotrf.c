// SPDX-License-Identifier: BSD-3-Clause
// Cholesky tests.  @precisions d -> s
#include "check.h"
#include "harness.h"

#include <lapacke.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// Checks hyla_dpotrf and hyla_dpotrf_tile: the factor residual
// ||A - L L^T|| / (||A|| n eps) (or U^T U) for uplo 'L', 'U', 'l' and 'u',
// on sizes around the tile size, for several tile sizes, lookahead depths
// and 1 or 2 CPU workers; that only the uplo triangle is referenced (the
// other one holds garbage the factorization must neither read nor write)
// and that the rows below n (up to lda) are untouched; a larger case with
// the O(n^2) probe residual.  Not positive definite input (a negative
// diagonal entry) gives LAPACKE_dpotrf's info, a NaN on the diagonal at
// column j gives j + 1, and a NaN at (i, j) of the referenced triangle
// gives max(i, j) + 1, for both uplo and both API levels.
//
// Why max(i, j) + 1 for an off-diagonal NaN (lower, i > j): L(i, j) =
// (A(i, j) - ...) / L(j, j) is NaN; L(i, k), j < k < i, and L(i, i) use
// L(i, j), so the first NaN on the diagonal of the factor is L(i, i).  The
// diagonal entries L(k, k), k < i, use rows k only and stay finite, so the
// leading minors of order <= i are factored and the one of order i + 1 is
// the first that involves A(i, j).  Upper is the transpose.

enum { API_LAPACK, API_TILE };

static char upper_case(char uplo)
{
    return uplo == 'l' ? 'L' : uplo == 'u' ? 'U' : uplo;
}

static int is_lower(char uplo)
{
    return uplo == 'L' || uplo == 'l';
}

// Inside the referenced triangle of uplo (diagonal included).
static int referenced(char uplo, int i, int j)
{
    return is_lower(uplo) ? i >= j : i <= j;
}

// Factor A (n-by-n, lda) in place through one API; returns the status.
// The tile form round-trips the whole array, so a write to the other
// triangle of the tile matrix would show too.
static int factor(int api, char uplo, int n, double *A, int lda, int nb)
{
    if (api == API_LAPACK) return hyla_dpotrf(uplo, n, A, lda);
    hyla_desc_t *T;
    int rc = hyla_desc_create(&T, HYLA_DOUBLE, n, n, nb);
    if (!rc) rc = hyla_dlap_to_desc(A, lda, T);
    if (!rc) rc = hyla_desc_place(T, HYLA_PLACE_GPUS);
    if (!rc) rc = hyla_dpotrf_tile(uplo, T);
    if (rc >= 0) {
        int rc2 = hyla_ddesc_to_lap(T, A, lda);
        rc = rc2 ? rc2 : rc;
    }
    hyla_desc_destroy(&T);
    return rc;
}

// An SPD matrix in the uplo triangle of an lda-by-n array; the other
// triangle and the padding rows hold unrelated large values.
static double *gen(char uplo, int n, int lda, int seed)
{
    size_t size = (size_t)lda * (n ? n : 1);
    double *A = malloc(sizeof(double) * size);
    hyla_check_dgen(lda, n, A, lda, seed + 5000);
    for (size_t e = 0; e < size; e++)
        A[e] = 1000.0 + A[e];
    double *S = malloc(sizeof(double) * size);
    hyla_check_dgen_spd(n, S, lda, seed);
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++)
            if (referenced(uplo, i, j))
                A[(size_t)j * lda + i] = S[(size_t)j * lda + i];
    free(S);
    return A;
}

// Every entry of the array outside the uplo triangle of the leading n-by-n
// block (the other triangle and the rows n..lda-1) is bit-identical.
static int untouched(char uplo, int n, const double *A0, const double *A,
                     int lda)
{
    for (int j = 0; j < n; j++)
        for (int i = 0; i < lda; i++) {
            size_t e = (size_t)j * lda + i;
            if ((i >= n || !referenced(uplo, i, j)) &&
                memcmp(&A0[e], &A[e], sizeof(double)))
                return 0;
        }
    return 1;
}

static const char *api_name(int api)
{
    return api == API_LAPACK ? "lapack" : "tile";
}

// One factorization of an SPD matrix: counts a row.
static void run(int api, char uplo, int n, int nb, int probe, int seed)
{
    int lda = n + 3;
    size_t size = (size_t)lda * (n ? n : 1);
    double *A = gen(uplo, n, lda, seed);
    double *F = malloc(sizeof(double) * size);
    memcpy(F, A, sizeof(double) * size);

    th_tic();
    int info = factor(api, uplo, n, F, lda, nb);
    double t = th_toc();
    char U = upper_case(uplo);
    double resid = info != 0 ? NAN
                   : probe ? hyla_check_dresid_potrf_probe(U, n, A, lda, F, lda)
                           : hyla_check_dresid_potrf(U, n, A, lda, F, lda);
    int same = untouched(uplo, n, A, F, lda);

    char note[96];
    snprintf(note, sizeof note, "%s uplo=%c info=%d%s", api_name(api), uplo,
             info, same ? "" : " other-triangle-or-padding-changed");
    th_row("dpotrf", n, n, nb, t, (double)n * n * n / 3.0, resid,
           info == 0 && resid <= HYLA_CHECK_TOL && same, note);
    free(A);
    free(F);
}

// A(i, j) (or A(j, i), whichever is in the uplo triangle) set to value; the
// factorization must stop with info == want.  With compare set, the info
// must also equal LAPACKE_dpotrf's.
static void breakdown(int api, char uplo, int n, int nb, int i, int j,
                      double value, int want, int compare, const char *what,
                      int seed)
{
    int lda = n + 3;
    size_t size = (size_t)lda * n;
    double *A = gen(uplo, n, lda, seed);
    if (!referenced(uplo, i, j)) {
        int s = i;
        i = j;
        j = s;
    }
    A[(size_t)j * lda + i] = value;
    double *F = malloc(sizeof(double) * size);
    memcpy(F, A, sizeof(double) * size);

    th_tic();
    int info = factor(api, uplo, n, F, lda, nb);
    double t = th_toc();
    int rinfo = want;
    if (compare) {
        double *R = malloc(sizeof(double) * size);
        memcpy(R, A, sizeof(double) * size);
        rinfo = LAPACKE_dpotrf(LAPACK_COL_MAJOR, upper_case(uplo), n, R, lda);
        free(R);
    }
    int same = untouched(uplo, n, A, F, lda);

    char note[128];
    snprintf(note, sizeof note, "%s uplo=%c %s at (%d,%d) info=%d want=%d%s%s",
             api_name(api), uplo, what, i, j, info, want,
             rinfo == want ? "" : " lapacke-differs",
             same ? "" : " other-triangle-or-padding-changed");
    th_row("dpotrf", n, n, nb, t, 0.0, 0.0,
           info == want && rinfo == want && same, note);
    free(A);
    free(F);
}

// The breakdown cases at columns in the first tile, on tile edges and at
// the end, for an n-by-n matrix in tiles of nb (n = 30, nb = 7 puts edges
// at 7, 14, 21, 28).
static void breakdowns(int nb, int *seed)
{
    const int n = 30;
    static const int cols[] = {0, 3, 6, 7, 14, 29};
    static const int offdiag[][2] = {{1, 0},  {5, 2},   {7, 0},  {6, 5},
                                     {20, 8}, {14, 13}, {29, 0}, {29, 28}};
    static const char uplos[] = {'L', 'U'};
    for (int u = 0; u < 2; u++)
        for (int api = API_LAPACK; api <= API_TILE; api++) {
            char uplo = uplos[u];
            for (size_t c = 0; c < sizeof cols / sizeof cols[0]; c++) {
                int j = cols[c];
                breakdown(api, uplo, n, nb, j, j, -1.0, j + 1, 1, "-1",
                          (*seed)++);
                breakdown(api, uplo, n, nb, j, j, NAN, j + 1, 0, "NaN",
                          (*seed)++);
            }
            // An Inf below the diagonal at (i, j) makes L(i, j) infinite
            // and the minor of order max(i, j) + 1 -Inf: not positive.
            for (size_t c = 0; c < sizeof offdiag / sizeof offdiag[0]; c++) {
                int i = offdiag[c][0], j = offdiag[c][1];
                breakdown(api, uplo, n, nb, i, j, NAN, (i > j ? i : j) + 1, 0,
                          "NaN", (*seed)++);
                breakdown(api, uplo, n, nb, i, j, INFINITY, (i > j ? i : j) + 1,
                          0, "Inf", (*seed)++);
            }
        }
}

int main(void)
{
    th_begin("dpotrf");
    static const int nbs[] = {1, 7, 32};
    static const int las[] = {0, 1, 3};
    static const char uplos[] = {'L', 'U', 'l', 'u'};
    int seed = 1;
    for (int ncpus = 1; ncpus <= 2; ncpus++)
        for (size_t b = 0; b < sizeof nbs / sizeof nbs[0]; b++)
            for (size_t l = 0; l < sizeof las / sizeof las[0]; l++) {
                int nb = nbs[b];
                th_init(ncpus, nb, las[l]);
                const int sizes[] = {0,      1,          nb - 1,    nb,
                                     nb + 1, 2 * nb + 3, 3 * nb + 1};
                for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
                    for (size_t u = 0; u < sizeof uplos; u++)
                        for (int api = API_LAPACK; api <= API_TILE; api++)
                            run(api, uplos[u], sizes[s], nb, 0, seed++);
                th_finalize();
            }

    // Breakdowns, over several tiles and inside one tile.
    th_init(2, 7, 1);
    breakdowns(7, &seed);
    th_finalize();
    th_init(1, 32, 0);
    breakdowns(32, &seed);
    th_finalize();

    // Larger: many tiles, the O(n^2) residual.
    th_init(2, 48, 2);
    for (int u = 0; u < 2; u++)
        for (int api = API_LAPACK; api <= API_TILE; api++)
            run(api, uplos[u], 400, 48, 1, seed++);
    th_finalize();
    return th_end();
}

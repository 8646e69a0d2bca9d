// SPDX-License-Identifier: BSD-3-Clause
// Random tile matrices (hyla_dplrnt_tile, hyla_dplgsy_tile).
// @precisions d -> s
#include "check.h"
#include "harness.h"
#include "random.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// Checks that the entries depend on (seed, row, column) only: the same
// matrix in tiles of several sizes, blocks at offsets equal to the same
// block of the whole matrix, another seed another matrix; that they are
// in [-0.5, 0.5] with the mean, variance and neighbour correlations of
// uniform numbers; that the symmetric one is symmetric with its lower
// triangle from the plain one and bump on its diagonal, and positive
// definite with bump = n (hyla_dpotrf_tile succeeds, small residual);
// that single precision holds double's entries rounded; that every entry
// is the generator's own (random.h) for its seed, row and column, on
// whichever workers the tasks ran; argument checks.

// Rows i0... and columns j0... of the random matrix (sym: symmetric, plus
// bump on the diagonal) in tiles of nb, copied into the m-by-n F.
static int gen(int sym, double bump, int m, int n, int nb, int i0, int j0,
               unsigned long long seed, double *F)
{
    hyla_desc_t *A = NULL;
    int rc = hyla_desc_create(&A, HYLA_DOUBLE, m, n, nb);
    if (!rc)
        rc = sym ? hyla_dplgsy_tile(bump, A, i0, j0, seed)
                 : hyla_dplrnt_tile(A, i0, j0, seed);
    if (!rc && m && n) rc = hyla_ddesc_to_lap(A, F, m);
    hyla_desc_destroy(&A);
    return rc;
}

static double *alloc(size_t count)
{
    return calloc(count ? count : 1, sizeof(double));
}

// The same matrix in tiles of nb and of other sizes, and blocks of it
// generated at offsets.
static void tile_sizes(int sym, int m, int n, int nb, unsigned long long seed)
{
    size_t size = (size_t)m * n;
    double *F = alloc(size), *G = alloc(size);
    th_tic();
    int rc = gen(sym, 3.0, m, n, nb, 0, 0, seed, F);
    double t = th_toc();
    int same = 1, in_range = 1;
    static const int other[] = {1, 3, 16, 1000};
    for (size_t k = 0; !rc && k < sizeof other / sizeof other[0]; k++) {
        rc = gen(sym, 3.0, m, n, other[k], 0, 0, seed, G);
        same &= !memcmp(F, G, sizeof(double) * size);
    }
    // Blocks at offsets (edges included), in tiles of 5.
    for (int i0 = 0; !rc && i0 < m; i0 += m / 3 + 1)
        for (int j0 = 0; !rc && j0 < n; j0 += n / 3 + 1) {
            int bm = m - i0 < 7 ? m - i0 : 7, bn = n - j0 < 9 ? n - j0 : 9;
            rc = gen(sym, 3.0, bm, bn, 5, i0, j0, seed, G);
            for (int j = 0; j < bn; j++)
                for (int i = 0; i < bm; i++)
                    same &= G[(size_t)j * bm + i] ==
                            F[(size_t)(j0 + j) * m + i0 + i];
        }
    for (size_t e = 0; e < size; e++) {
        int diag = sym && e % m == e / m;
        double v = diag ? F[e] - 3.0 : F[e];
        in_range &= v >= -0.5 && v <= 0.5;
    }
    char note[96];
    snprintf(note, sizeof note, "%s rc=%d%s%s", sym ? "plgsy" : "plrnt", rc,
             same ? "" : " depends-on-tiles", in_range ? "" : " out-of-range");
    th_row(sym ? "dplgsy" : "dplrnt", m, n, nb, t, 0.0, 0.0,
           rc == 0 && same && in_range, note);
    free(F);
    free(G);
}

// Every entry of the block at (i0, j0) equals the generator's for its
// seed, row and column (random.h, in this precision), the symmetric
// matrix's above the diagonal from below it and bump added on it.
static void entries(int sym, int m, int n, int nb, int i0, int j0,
                    unsigned long long seed)
{
    const double bump = 2.5;
    size_t size = (size_t)m * n;
    double *F = alloc(size);
    int rc = gen(sym, bump, m, n, nb, i0, j0, seed, F);
    size_t wrong = 0;
    for (int j = 0; !rc && j < n; j++)
        for (int i = 0; i < m; i++) {
            int r = i0 + i, c = j0 + j;
            double want = sym && c > r ? hyla_random_entry(seed, c, r)
                                       : hyla_random_entry(seed, r, c);
            if (sym && r == c) want += bump;
            wrong += F[(size_t)j * m + i] != want;
        }
    th_check(rc == 0 && wrong == 0,
             "%s %d x %d at (%d, %d), tiles of %d: rc %d, %zu entries not "
             "the generator's",
             sym ? "plgsy" : "plrnt", m, n, i0, j0, nb, rc, wrong);
    free(F);
}

// Mean, variance and lag-1 correlations along columns and rows of an
// n-by-n random matrix, against those of uniform numbers in [-0.5, 0.5]
// (mean 0, variance 1/12) at 6 standard deviations of their estimates;
// another seed gives another matrix.
static void statistics(int n, unsigned long long seed)
{
    size_t size = (size_t)n * n;
    double *F = alloc(size), *G = alloc(size);
    int rc = gen(0, 0.0, n, n, 64, 0, 0, seed, F);
    if (!rc) rc = gen(0, 0.0, n, n, 64, 0, 0, seed + 1, G);
    double sum = 0, sq = 0, down = 0, right = 0;
    size_t equal = 0;
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++) {
            double v = F[(size_t)j * n + i];
            sum += v;
            sq += v * v;
            if (i + 1 < n) down += v * F[(size_t)j * n + i + 1];
            if (j + 1 < n) right += v * F[(size_t)(j + 1) * n + i];
            equal += v == G[(size_t)j * n + i];
        }
    const double twelfth = 1.0 / 12; // uniform numbers' variance
    double count = (double)size, mean = sum / count;
    double var = sq / count - mean * mean;
    double pairs = (double)n * (n - 1);
    // Correlations: E[xy] / var; the standard deviation of E[xy] is
    // var / sqrt(pairs).
    double cd = down / pairs / var, cr = right / pairs / var;
    double sd_mean = sqrt(twelfth / count);
    double sd_var = sqrt((1.0 / 80 - 1.0 / 144) / count);
    double sd_corr = 1.0 / sqrt(pairs);
    int ok = rc == 0 && fabs(mean) <= 6 * sd_mean &&
             fabs(var - twelfth) <= 6 * sd_var && fabs(cd) <= 6 * sd_corr &&
             fabs(cr) <= 6 * sd_corr && equal <= size / 1000;
    char note[160];
    snprintf(note, sizeof note,
             "mean %.1e var-1/12 %.1e corr %.1e %.1e same-as-seed+1 %zu", mean,
             var - twelfth, cd, cr, equal);
    th_row("dplrnt", n, n, 64, 0.0, 0.0, 0.0, ok, note);
    free(F);
    free(G);
}

// The symmetric matrix: S = S^T, its lower triangle that of the plain
// matrix, bump on the diagonal; with bump = n Cholesky succeeds.
static void symmetric(int n, int nb, unsigned long long seed)
{
    size_t size = (size_t)n * n;
    double *S = alloc(size), *R = alloc(size), *F = alloc(size);
    double bump = n;
    int rc = gen(1, bump, n, n, nb, 0, 0, seed, S);
    if (!rc) rc = gen(0, 0.0, n, n, nb, 0, 0, seed, R);
    int ok = 1;
    for (int j = 0; j < n; j++)
        for (int i = j; i < n; i++) {
            double s = S[(size_t)j * n + i], r = R[(size_t)j * n + i];
            ok &= s == S[(size_t)i * n + j] && s == (i == j ? r + bump : r);
        }
    hyla_desc_t *A = NULL;
    int info = -1;
    double resid = -1;
    th_tic();
    if (!rc) rc = hyla_desc_create(&A, HYLA_DOUBLE, n, n, nb);
    if (!rc) rc = hyla_dplgsy_tile(bump, A, 0, 0, seed);
    if (!rc) info = hyla_dpotrf_tile('L', A);
    double t = th_toc();
    if (!rc && !info) rc = hyla_ddesc_to_lap(A, F, n);
    hyla_desc_destroy(&A);
    if (!rc && !info) resid = hyla_check_dresid_potrf('L', n, S, n, F, n);
    char note[96];
    snprintf(note, sizeof note, "plgsy bump=n rc=%d info=%d%s", rc, info,
             ok ? "" : " not-symmetric-or-not-plrnt");
    th_row("dplgsy+potrf", n, n, nb, t, (double)n * n * n / 3.0, resid,
           rc == 0 && info == 0 && ok && resid >= 0 && resid <= HYLA_CHECK_TOL,
           note);
    free(S);
    free(R);
    free(F);
}

// Single precision's entries are double's, rounded (run by the d test).
static void rounded(int m, int n, int nb, unsigned long long seed)
{
    size_t size = (size_t)m * n;
    double *D = alloc(size);
    float *S = malloc(sizeof(float) * (size ? size : 1));
    hyla_desc_t *A = NULL;
    int rc = gen(0, 0.0, m, n, nb, 0, 0, seed, D);
    if (!rc) rc = hyla_desc_create(&A, HYLA_FLOAT, m, n, nb);
    if (!rc) rc = hyla_splrnt_tile(A, 0, 0, seed);
    if (!rc) rc = hyla_sdesc_to_lap(A, S, m);
    hyla_desc_destroy(&A);
    int ok = rc == 0;
    for (size_t e = 0; ok && e < size; e++)
        ok &= S[e] == (float)D[e];
    th_check(ok, "splrnt (%d x %d): rc %d, entries are not dplrnt's rounded", m,
             n, rc);
    free(D);
    free(S);
}

static void arguments(void)
{
    hyla_desc_t *A = NULL, *O = NULL;
    TH_STATUS(hyla_desc_create(&A, HYLA_DOUBLE, 3, 4, 2), 0);
    TH_STATUS(hyla_desc_create(&O, TH_OTHER_DTYPE(double), 3, 4, 2), 0);
    TH_STATUS(hyla_dplrnt_tile(NULL, 0, 0, 1), -1);
    TH_STATUS(hyla_dplrnt_tile(O, 0, 0, 1), -1);
    TH_STATUS(hyla_dplrnt_tile(A, -1, 0, 1), -2);
    TH_STATUS(hyla_dplrnt_tile(A, 0, -1, 1), -3);
    // i0 + m and j0 + n must be ints.
    TH_STATUS(hyla_dplrnt_tile(A, INT_MAX - 3, 0, 1), 0);
    TH_STATUS(hyla_dplrnt_tile(A, INT_MAX - 2, 0, 1), -2);
    TH_STATUS(hyla_dplrnt_tile(A, 0, INT_MAX - 4, 1), 0);
    TH_STATUS(hyla_dplrnt_tile(A, 0, INT_MAX - 3, 1), -3);
    TH_STATUS(hyla_dplgsy_tile(1.0, NULL, 0, 0, 1), -2);
    TH_STATUS(hyla_dplgsy_tile(1.0, O, 0, 0, 1), -2);
    TH_STATUS(hyla_dplgsy_tile(1.0, A, -5, 0, 1), -3);
    TH_STATUS(hyla_dplgsy_tile(1.0, A, 0, INT_MAX, 1), -4);
    th_check(strstr(hyla_error_detail(), "hyla_dplgsy_tile") != NULL,
             "no error detail naming hyla_dplgsy_tile: \"%s\"",
             hyla_error_detail());
    hyla_desc_destroy(&A);
    hyla_desc_destroy(&O);
    // Empty matrices.
    TH_STATUS(hyla_desc_create(&A, HYLA_DOUBLE, 0, 5, 2), 0);
    TH_STATUS(hyla_dplrnt_tile(A, 0, 0, 1), 0);
    TH_STATUS(hyla_dplgsy_tile(1.0, A, 0, 0, 1), 0);
    hyla_desc_destroy(&A);
}

int main(void)
{
    th_begin("dplrnt, dplgsy");
    th_init(2, 8, 1);
    static const int shapes[][3] = {
        {1, 1, 1}, {13, 7, 4}, {37, 23, 8}, {64, 64, 8}, {70, 90, 16}};
    unsigned long long seed = 1;
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
        for (int sym = 0; sym < 2; sym++)
            tile_sizes(sym, shapes[s][0], shapes[s][1], shapes[s][2], seed++);
    for (int sym = 0; sym < 2; sym++) {
        entries(sym, 70, 90, 16, 0, 0, 3);
        entries(sym, 33, 41, 8, 1000, 77, 4);  // an off-diagonal block
        entries(sym, 40, 40, 16, 300, 290, 5); // across the diagonal
    }
    // Single precision is double rounded: the statistics of double's
    // entries hold for it (and its float sums would be too coarse).
    if (sizeof(double) == 8) {
        statistics(400, 0);
        statistics(300, 12345678901234567ull);
        rounded(45, 37, 8, 9);
    }
    symmetric(200, 32, 7);
    symmetric(97, 16, 8);
    arguments();
    th_finalize();
    return th_end();
}

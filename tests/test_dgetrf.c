// SPDX-License-Identifier: BSD-3-Clause
// LU tests.  @precisions d -> s
#include "check.h"
#include "harness.h"

#include <lapacke.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// Checks hyla_dgetrf and hyla_dgetrf_tile: the factor residual
// ||PA - LU|| / (||A|| n eps), pivots equal to LAPACKE_dgetrf's and info
// equal to LAPACK's, on square, tall, wide and edge-tile shapes, for several
// tile sizes, lookahead depths, 1 or 2 CPU workers and 1 or 2 panel
// threads (a parallel panel on a combined worker); zero columns give
// info = their index; NaN or Inf input returns.
//
// Pivots are compared on input without ties: in double, random matrices
// (the candidates differ by far more than rounding); in any precision,
// matrices built so that every pivot wins by a wide margin.  In single
// precision random matrices have near-ties that rounding order decides.

enum { API_LAPACK, API_TILE };
enum { RANDOM, PIVOTED };

// Factor A (m-by-n, lda) in place through one API; returns the status.
static int factor(int api, int m, int n, double *A, int lda, int *ipiv, int nb)
{
    if (api == API_LAPACK) return hyla_dgetrf(m, n, A, lda, ipiv);
    hyla_desc_t *T;
    int rc = hyla_desc_create(&T, HYLA_DOUBLE, m, n, nb);
    if (!rc) rc = hyla_dlap_to_desc(A, lda, T);
    if (!rc) rc = hyla_dgetrf_tile(T, ipiv);
    if (rc >= 0) {
        int rc2 = hyla_ddesc_to_lap(T, A, lda);
        rc = rc2 ? rc2 : rc;
    }
    hyla_desc_destroy(&T);
    return rc;
}

// One case: counts a row.  zero_col >= 0 zeroes a column.
static void run(int api, int kind, int m, int n, int nb, int zero_col, int seed)
{
    int lda = m + 3, k = m < n ? m : n;
    size_t size = (size_t)lda * (n ? n : 1);
    double *A = malloc(sizeof(double) * size);
    double *LU = malloc(sizeof(double) * size);
    double *R = malloc(sizeof(double) * size);
    int *ipiv = calloc(k + 1, sizeof(int)), *rpiv = calloc(k + 1, sizeof(int));
    if (kind == PIVOTED)
        hyla_check_dgen_pivoted(lda, n, A, lda, seed);
    else
        hyla_check_dgen(lda, n, A, lda, seed);
    if (zero_col >= 0)
        for (int i = 0; i < m; i++)
            A[(size_t)zero_col * lda + i] = 0.0;
    memcpy(LU, A, sizeof(double) * size);
    memcpy(R, A, sizeof(double) * size);

    th_tic();
    int info = factor(api, m, n, LU, lda, ipiv, nb);
    double t = th_toc();
    int rinfo = k ? LAPACKE_dgetrf(LAPACK_COL_MAJOR, m, n, R, lda, rpiv) : 0;
    double resid =
        info >= 0 ? hyla_check_dresid_getrf(m, n, A, lda, LU, lda, ipiv) : NAN;
    int tie_free = kind == PIVOTED || sizeof(double) == 8;
    int same_piv = !tie_free || !memcmp(ipiv, rpiv, sizeof(int) * k);
    // Rows below m (padding up to lda) must be untouched.
    int pad_ok = 1;
    for (int j = 0; j < n; j++)
        for (int i = m; i < lda; i++)
            pad_ok &= LU[(size_t)j * lda + i] == A[(size_t)j * lda + i];

    char note[96];
    snprintf(note, sizeof note, "%s info=%d/%d%s%s",
             api == API_LAPACK ? "lapack" : "tile", info, rinfo,
             same_piv ? "" : " pivots-differ",
             pad_ok ? "" : " padding-changed");
    int ok = info == rinfo && resid <= HYLA_CHECK_TOL && same_piv && pad_ok;
    th_row("dgetrf", m, n, nb, t, 2.0 / 3.0 * k * k * (3.0 * n - k), resid, ok,
           note);
    free(A);
    free(LU);
    free(R);
    free(ipiv);
    free(rpiv);
}

// A NaN or an Inf in the input: the call returns (no hang), with
// info >= 0, and the NaN or Inf reaches the factors.
static void bad_value(int nb, double value)
{
    int n = 3 * nb + 2, k = 0;
    double *A = malloc(sizeof(double) * n * n);
    int *ipiv = malloc(sizeof(int) * n);
    hyla_check_dgen(n, n, A, n, 77);
    A[(size_t)(n / 2) * n + n / 2] = value;
    int info = hyla_dgetrf(n, n, A, n, ipiv);
    for (int i = 0; i < n * n; i++)
        k += !isfinite(A[i]);
    th_check(info >= 0 && k > 0,
             "dgetrf with %g: info = %d, %d non-finite values in the factors",
             (double)value, info, k);
    free(A);
    free(ipiv);
}

int main(void)
{
    th_begin("dgetrf");
    static const int nbs[] = {1, 7, 32};
    static const int las[] = {0, 1, 3};
    int seed = 1;
    // Workers x panel threads: 1 x 1, 2 x 1, 2 x 2 (a parallel panel on a
    // combined worker of both).
    static const int workers[][2] = {{1, 1}, {2, 1}, {2, 2}};
    for (size_t w = 0; w < sizeof workers / sizeof workers[0]; w++)
        for (size_t b = 0; b < sizeof nbs / sizeof nbs[0]; b++)
            for (size_t l = 0; l < sizeof las / sizeof las[0]; l++) {
                int nb = nbs[b];
                th_init_panel(workers[w][0], nb, las[l], workers[w][1]);
                // Shapes around the tile size: smaller than a tile, one
                // tile, edge tiles, tall and wide.
                const int shapes[][2] = {{0, 0},
                                         {0, 5},
                                         {5, 0},
                                         {1, 1},
                                         {1, 6},
                                         {6, 1},
                                         {nb - 1, nb - 1},
                                         {nb, nb},
                                         {nb + 1, nb + 1},
                                         {2 * nb + 3, 2 * nb + 3},
                                         {3 * nb + 1, 2 * nb - 1},
                                         {2 * nb - 1, 3 * nb + 1},
                                         {4 * nb + 5, nb + 2},
                                         {nb + 2, 4 * nb + 5}};
                for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
                    for (int api = API_LAPACK; api <= API_TILE; api++)
                        for (int kind = RANDOM; kind <= PIVOTED; kind++)
                            run(api, kind, shapes[s][0], shapes[s][1], nb, -1,
                                seed++);
                th_finalize();
            }

    // Exactly singular: a zero column j gives U(j, j) = 0 and info = j + 1,
    // in the first tile, on tile edges and in the last column.
    th_init_panel(2, 7, 1, 2);
    static const int zero_cols[] = {0, 6, 7, 13, 29};
    for (size_t z = 0; z < sizeof zero_cols / sizeof zero_cols[0]; z++)
        for (int api = API_LAPACK; api <= API_TILE; api++)
            run(api, RANDOM, 30, 30, 7, zero_cols[z], 100 + (int)z);
    run(API_LAPACK, RANDOM, 40, 20, 7, 19, 200);
    run(API_TILE, RANDOM, 20, 40, 7, 10, 201);
    bad_value(7, NAN);
    bad_value(7, INFINITY);
    bad_value(7, -INFINITY);
    th_finalize();

    // Larger: many tiles, the default tile size through the tile API, and
    // parallel panels.
    th_init_panel(2, 48, 2, 2);
    run(API_LAPACK, RANDOM, 300, 300, 48, -1, 300);
    run(API_TILE, PIVOTED, 500, 180, 0, -1, 301);
    th_finalize();
    return th_end();
}

// SPDX-License-Identifier: BSD-3-Clause
// Layout conversion and tile-matrix tests.  @precisions d -> s
#include "check.h"
#include "harness.h"
#include "runtime.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// Checks hyla_dlap_to_desc and hyla_ddesc_to_lap: the round trip
// column-major -> CRRB -> column-major is bit-exact (NaN, Inf, -0 and
// subnormals included) for odd shapes and tile sizes, with lda > m and
// lda = max(1, m), the input untouched and the padding rows below m of the
// output untouched; each element lands at its CRRB position in the
// library's tile array (tile columns one after the other, each tile
// row-major with the width of its tile column as leading dimension, edge
// tiles smaller), computed here independently of the library, and
// desc_to_lap reads it back from there.  With GPUs (gpu suite) the copies
// run on them, tiles of 1030 in more than one piece.  Also hyla_desc_size,
// hyla_desc_create with nb = 0 (the configured tile size) and with bad
// arguments, hyla_desc_destroy on NULL, and that a tile matrix of the
// other element type is refused by the d routines with the position of
// the tile-matrix argument.

static int imin(int a, int b)
{
    return a < b ? a : b;
}

// Offset of element (i, j) in the tile array of an m-by-n matrix in tiles
// of nb, counted tile by tile: the whole tile columns left of j's (m rows
// by their width), the tiles above i's in j's tile column (their height by
// the column's width), then row-major inside the tile.
static size_t crrb_offset(int m, int n, int nb, int i, int j)
{
    size_t off = 0;
    int c0 = 0, r0 = 0;
    for (; c0 + nb <= j; c0 += nb)
        off += (size_t)m * imin(nb, n - c0);
    int w = imin(nb, n - c0);
    for (; r0 + nb <= i; r0 += nb)
        off += (size_t)imin(nb, m - r0) * w;
    return off + (size_t)(i - r0) * w + (size_t)(j - c0);
}

static int same(const double *x, const double *y)
{
    return !memcmp(x, y, sizeof(double));
}

// One shape: counts a row.
static void run(int m, int n, int nb, int lda, int seed)
{
    size_t size = (size_t)lda * (n ? n : 1);
    double *Af = malloc(sizeof(double) * size);
    double *A0 = malloc(sizeof(double) * size);
    double *Bf = malloc(sizeof(double) * size);
    double *B0 = malloc(sizeof(double) * size);
    hyla_check_dgen(lda, n, Af, lda, seed);
    hyla_check_dgen(lda, n, Bf, lda, seed + 1);
    // Values a copy through arithmetic would change.
    if (m > 0 && n > 0) {
        Af[0] = -0.0;
        Af[(size_t)(n - 1) * lda + m - 1] = NAN;
        Af[(size_t)(n / 2) * lda + m / 2] = -INFINITY;
        Af[(size_t)(n - 1) * lda] = DBL_MIN / 4;
    }
    memcpy(A0, Af, sizeof(double) * size);
    memcpy(B0, Bf, sizeof(double) * size);

    int in_ok = 1, crrb_ok = 1, out_ok = 1, pad_ok = 1, back_ok = 1, meta = 1;
    hyla_desc_t *T = NULL;
    th_tic();
    int rc = hyla_desc_create(&T, HYLA_DOUBLE, m, n, nb);
    if (!rc) rc = hyla_dlap_to_desc(Af, lda, T);
    if (!rc) rc = hyla_ddesc_to_lap(T, Bf, lda);
    double t = th_toc();
    if (!rc) {
        in_ok = !memcmp(Af, A0, sizeof(double) * size);
        for (int j = 0; j < n; j++)
            for (int i = 0; i < lda; i++) {
                size_t e = (size_t)j * lda + i;
                if (i < m)
                    out_ok &= same(&Bf[e], &Af[e]);
                else
                    pad_ok &= same(&Bf[e], &B0[e]);
            }

        // The library's tile array, read directly once the tiles are
        // home (with GPUs they may be only there).
        if (!rc) rc = hyla_desc_place(T, HYLA_PLACE_HOST);
        int rm, rn, rnb;
        meta = !hyla_desc_size(T, &rm, &rn, &rnb) && rm == m && rn == n &&
               rnb == nb && T->m == m && T->n == n && T->nb == nb &&
               T->mt == (m + nb - 1) / nb && T->nt == (n + nb - 1) / nb &&
               T->elemsize == sizeof(double);
        double *mat = T->mat;
        for (int j = 0; j < n; j++)
            for (int i = 0; i < m; i++)
                crrb_ok &= same(&mat[crrb_offset(m, n, nb, i, j)],
                                &Af[(size_t)j * lda + i]);
        // Written directly into a fresh tile matrix, whose tiles have
        // no other copy yet, and read back from there.
        hyla_desc_destroy(&T);
        if (!rc) rc = hyla_desc_create(&T, HYLA_DOUBLE, m, n, nb);
        mat = rc ? NULL : T->mat;
        for (int j = 0; mat && j < n; j++)
            for (int i = 0; i < m; i++)
                mat[crrb_offset(m, n, nb, i, j)] = i + (double)j * m + 0.5;
        memcpy(Bf, B0, sizeof(double) * size);
        if (!rc) rc = hyla_ddesc_to_lap(T, Bf, lda);
        for (int j = 0; j < n; j++)
            for (int i = 0; i < lda; i++)
                back_ok &=
                    i < m ? Bf[(size_t)j * lda + i] == i + (double)j * m + 0.5
                          : same(&Bf[(size_t)j * lda + i],
                                 &B0[(size_t)j * lda + i]);
    }
    hyla_desc_destroy(&T);

    char note[128];
    snprintf(note, sizeof note, "lda=%d rc=%d%s%s%s%s%s%s", lda, rc,
             in_ok ? "" : " input-changed", out_ok ? "" : " round-trip-differs",
             pad_ok ? "" : " padding-changed", crrb_ok ? "" : " not-crrb",
             back_ok ? "" : " crrb-read-back-differs",
             meta ? "" : " sizes-differ");
    th_row("dlayout", m, n, nb, t, 0.0, 0.0,
           rc == 0 && in_ok && out_ok && pad_ok && crrb_ok && back_ok && meta &&
               T == NULL,
           note);
    free(Af);
    free(A0);
    free(Bf);
    free(B0);
}

// hyla_desc_create, hyla_desc_size, hyla_desc_destroy.
static void descriptors(int config_nb)
{
    hyla_desc_t *T = NULL;
    int m = -7, n = -7, nb = -7;
    TH_STATUS(hyla_desc_create(&T, HYLA_DOUBLE, 10, 20, 0), 0);
    TH_STATUS(hyla_desc_size(T, &m, &n, &nb), 0);
    th_check(m == 10 && n == 20 && nb == config_nb,
             "desc_create(nb = 0): size %d x %d, nb %d; expected 10 x 20, %d",
             m, n, nb, config_nb);
    TH_STATUS(hyla_desc_size(T, NULL, NULL, NULL), 0);
    m = -7;
    TH_STATUS(hyla_desc_size(T, &m, NULL, NULL), 0);
    th_check(m == 10, "desc_size: m = %d, expected 10", m);
    TH_STATUS(hyla_desc_size(NULL, &m, &n, &nb), -1);
    TH_STATUS(hyla_desc_destroy(&T), 0);
    th_check(T == NULL, "desc_destroy left %p", (void *)T);
    TH_STATUS(hyla_desc_destroy(&T), 0);
    TH_STATUS(hyla_desc_destroy(NULL), 0);

    // A tile larger than the matrix, and empty matrices.
    TH_STATUS(hyla_desc_create(&T, HYLA_DOUBLE, 3, 5, 64), 0);
    TH_STATUS(hyla_desc_size(T, &m, &n, &nb), 0);
    th_check(m == 3 && n == 5 && nb == 64, "desc 3 x 5 / 64: %d x %d / %d", m,
             n, nb);
    hyla_desc_destroy(&T);
    TH_STATUS(hyla_desc_create(&T, HYLA_DOUBLE, 0, 0, 4), 0);
    th_check(T != NULL, "desc_create 0 x 0: NULL");
    hyla_desc_destroy(&T);

    // Bad arguments: -position, and *A is NULL afterwards.
    T = (hyla_desc_t *)&T; // not NULL: the call must reset it
    TH_STATUS(hyla_desc_create(NULL, HYLA_DOUBLE, 1, 1, 1), -1);
    TH_STATUS(hyla_desc_create(&T, (hyla_dtype_t)7, 1, 1, 1), -2);
    th_check(T == NULL, "desc_create(bad dtype) left A = %p", (void *)T);
    TH_STATUS(hyla_desc_create(&T, HYLA_DOUBLE, -1, 1, 1), -3);
    TH_STATUS(hyla_desc_create(&T, HYLA_DOUBLE, 1, -1, 1), -4);
    TH_STATUS(hyla_desc_create(&T, HYLA_DOUBLE, 1, 1, -1), -5);
    th_check(T == NULL, "desc_create(bad nb) left A = %p", (void *)T);
    th_check(hyla_error_detail()[0] != '\0', "desc_create: no error detail");
}

// A tile matrix of the other element type is refused, by position.
static void wrong_dtype(void)
{
    enum { N = 6 };
    hyla_desc_t *F = NULL, *D = NULL;
    double Af[N * N] = {0};
    int ipiv[N];
    TH_STATUS(hyla_desc_create(&F, TH_OTHER_DTYPE(double), N, N, 4), 0);
    TH_STATUS(hyla_desc_create(&D, HYLA_DOUBLE, N, N, 4), 0);
    TH_STATUS(hyla_dlap_to_desc(Af, N, F), -3);
    TH_STATUS(hyla_ddesc_to_lap(F, Af, N), -1);
    TH_STATUS(hyla_dgetrf_tile(F, ipiv), -1);
    TH_STATUS(hyla_dpotrf_tile('L', F), -2);
    TH_STATUS(hyla_dgesv_tile(F, ipiv, D), -1);
    TH_STATUS(hyla_dposv_tile('U', D, F), -3);
    hyla_desc_destroy(&F);
    hyla_desc_destroy(&D);
}

int main(void)
{
    th_begin("dlayout");
    static const int shapes[][3] = {
        {1, 1, 1},    {5, 3, 2},    {17, 9, 4},   {33, 65, 16},
        {100, 7, 32}, {7, 100, 32}, {64, 64, 64}, {0, 5, 3},
        {5, 0, 3},    {0, 0, 1},    {3, 5, 64},   {1, 40, 3},
        {40, 1, 3},   {31, 29, 1},  {65, 63, 8},  {96, 96, 32},
        // Tiles larger than a GPU's staging buffer cross it in pieces.
        {1100, 1035, 1030}};
    int seed = 1;
    th_init(2, 11, 1);
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
        int m = shapes[s][0], n = shapes[s][1], nb = shapes[s][2];
        run(m, n, nb, m + 3, seed++);
        run(m, n, nb, m > 1 ? m : 1, seed++);
    }
    descriptors(11);
    wrong_dtype();
    th_finalize();

    // One worker: the copies run one after the other.
    th_init(1, 5, 0);
    run(33, 65, 16, 40, seed++);
    run(12, 12, 5, 13, seed++);
    descriptors(5);
    th_finalize();
    return th_end();
}

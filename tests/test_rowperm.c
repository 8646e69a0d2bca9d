// SPDX-License-Identifier: BSD-3-Clause
// The row interchanges of one LU step as a permutation (cpu/rowperm.h),
// against LAPACK's row swaps applied one after the other.
//
// A column of tiles of nb rows holds its global row numbers (rows of one
// int).  For random pivots of steps at every tile row (pivots in the top
// block, below it, repeated, none): gather from every tile, merge for
// every process row of 1 .. 3, scatter from a saved top block give the
// swapped column; the inverse permutation gives the column swapped back
// (swaps in reverse order).  Every row is compared.
#include "harness.h"
#include "rowperm.h"

#include <stdlib.h>
#include <string.h>

// Column rows 0 .. m-1, the ipiv of the step at row0 (npiv pivots):
// col[i] = the row that ends at i.
static void swaps(int *col, int npiv, const int *ipiv, int row0, int inverse)
{
    for (int s = 0; s < npiv; s++) {
        int t = inverse ? npiv - 1 - s : s;
        int a = row0 + t, b = ipiv[t] - 1, x = col[a];
        col[a] = col[b];
        col[b] = x;
    }
}

static int check(int m, int nb, int k, int nprow, int inverse, unsigned seed)
{
    int row0 = k * nb, npiv = m - row0 < nb ? m - row0 : nb;
    int *ipiv = malloc(sizeof(int) * npiv), *want = malloc(sizeof(int) * m);
    int *col = malloc(sizeof(int) * m), *W = calloc(nprow * nb, sizeof(int));
    int *Old = malloc(sizeof(int) * nb);
    srand(seed);
    for (int t = 0; t < npiv; t++) {
        int r = rand() % 4;
        ipiv[t] = 1 + (r == 0   ? row0 + t // no interchange
                       : r == 1 ? row0 + t + rand() % (npiv - t) // top block
                                : row0 + t + rand() % (m - row0 - t));
    }
    for (int i = 0; i < m; i++)
        col[i] = want[i] = i;
    swaps(want, npiv, ipiv, row0, inverse);

    hyla_rowperm_t p;
    void *mem = malloc(hyla_rowperm_size(npiv));
    hyla_rowperm_init(&p, npiv, ipiv, row0, inverse, mem);
    size_t rb = sizeof(int);
    memcpy(Old, col + row0, rb * npiv);
    int mt = (m + nb - 1) / nb;
    for (int i = k; i < mt; i++) {
        int rows = m - i * nb < nb ? m - i * nb : nb;
        hyla_rowperm_gather(&p, col + i * nb, i * nb, rows, rb,
                            W + (i % nprow) * nb, rb, rb);
    }
    for (int i = k; i < mt; i++) {
        int rows = m - i * nb < nb ? m - i * nb : nb;
        hyla_rowperm_scatter(&p, Old, rb, col + i * nb, i * nb, rows, rb, rb);
    }
    for (int r = 0; r < nprow; r++)
        hyla_rowperm_merge(&p, W + r * nb, rb, col + row0, rb, rb, nb, nprow,
                           r);
    int ok = !memcmp(col, want, sizeof(int) * m);
    th_check(ok, "m=%d nb=%d step %d, %d process rows%s: rows differ", m, nb, k,
             nprow, inverse ? ", inverse" : "");
    free(mem);
    free(ipiv);
    free(want);
    free(col);
    free(W);
    free(Old);
    return ok;
}

int main(void)
{
    th_begin("rowperm");
    unsigned seed = 1;
    static const int sizes[][2] = {{1, 1},    {7, 3},   {40, 8},
                                   {100, 16}, {37, 37}, {300, 32}};
    for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
        int m = sizes[s][0], nb = sizes[s][1];
        for (int k = 0; k * nb < m; k++)
            for (int nprow = 1; nprow <= 3; nprow++)
                for (int inverse = 0; inverse < 2; inverse++)
                    check(m, nb, k, nprow, inverse, seed++);
    }
    return th_end();
}

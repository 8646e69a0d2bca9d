// SPDX-License-Identifier: BSD-3-Clause
// Row interchanges of one LU step as a permutation (rowperm.h).
#include "rowperm.h"

#include <string.h>

// Open addressing over the rows under the top block that the interchanges
// touch (at most npiv of them): a table twice as large, or more.
static int table_size(int npiv)
{
    int cap = 1;
    while (cap < 2 * npiv)
        cap *= 2;
    return cap;
}

// mem: src, below, from; the table (keys, values); the inverse's src,
// below, from.
size_t hyla_rowperm_size(int npiv)
{
    return sizeof(int) * (6 * (size_t)npiv + 2 * (size_t)table_size(npiv));
}

// The slot of row g: where it is, or the empty one where it goes.
static int slot(const int *key, int cap, int g)
{
    unsigned h = ((unsigned)g * 2654435761u) & (unsigned)(cap - 1);
    while (key[h] >= 0 && key[h] != g)
        h = (h + 1) & (unsigned)(cap - 1);
    return (int)h;
}

// The inverse of p into src, below, from: the row that top row t took goes
// back from t, and each old top row comes back from where it went.
static void invert(hyla_rowperm_t *p, int *src, int *below, int *from)
{
    int nbelow = 0, top_end = p->row0 + p->npiv;
    for (int t = 0; t < p->npiv; t++) {
        if (p->src[t] < top_end) {
            src[p->src[t] - p->row0] = p->row0 + t;
        } else {
            below[nbelow] = p->src[t];
            from[nbelow] = t;
            nbelow++;
        }
    }
    for (int i = 0; i < p->nbelow; i++)
        src[p->from[i]] = p->below[i];
    *p = (hyla_rowperm_t){p->npiv, p->row0, nbelow, src, below, from};
}

void hyla_rowperm_init(hyla_rowperm_t *p, int npiv, const int *ipiv, int row0,
                       int inverse, void *mem)
{
    int cap = table_size(npiv);
    int *src = mem, *below = src + npiv, *from = below + npiv;
    int *key = from + npiv, *val = key + cap;
    for (int h = 0; h < cap; h++)
        key[h] = -1;
    for (int t = 0; t < npiv; t++)
        src[t] = row0 + t;
    // src holds what each top row holds; val what each touched row
    // below holds (key: the row).
    for (int t = 0; t < npiv; t++) {
        int g = ipiv[t] - 1;
        if (g == row0 + t) continue;
        if (g < row0 + npiv) {
            int s = src[t];
            src[t] = src[g - row0];
            src[g - row0] = s;
            continue;
        }
        int h = slot(key, cap, g);
        if (key[h] < 0) {
            key[h] = g;
            val[h] = g;
        }
        int s = src[t];
        src[t] = val[h];
        val[h] = s;
    }
    // A row below gets an old top row: only top rows move down.
    int nbelow = 0;
    for (int h = 0; h < cap; h++)
        if (key[h] >= 0 && val[h] != key[h]) {
            below[nbelow] = key[h];
            from[nbelow] = val[h] - row0;
            nbelow++;
        }
    *p = (hyla_rowperm_t){npiv, row0, nbelow, src, below, from};
    if (inverse) invert(p, val + cap, val + cap + npiv, val + cap + 2 * npiv);
}

void hyla_rowperm_gather(const hyla_rowperm_t *p, const void *T, int r0,
                         int rows, size_t ldt, void *W, size_t ldw,
                         size_t row_bytes)
{
    for (int t = 0; t < p->npiv; t++) {
        int r = p->src[t] - r0;
        if (r >= 0 && r < rows)
            memcpy((char *)W + t * ldw, (const char *)T + r * ldt, row_bytes);
    }
}

void hyla_rowperm_merge(const hyla_rowperm_t *p, const void *W, size_t ldw,
                        void *Top, size_t ldtop, size_t row_bytes, int nb,
                        int nprow, int prow)
{
    for (int t = 0; t < p->npiv; t++)
        if (p->src[t] / nb % nprow == prow)
            memcpy((char *)Top + t * ldtop, (const char *)W + t * ldw,
                   row_bytes);
}

void hyla_rowperm_scatter(const hyla_rowperm_t *p, const void *Old, size_t ldo,
                          void *T, int r0, int rows, size_t ldt,
                          size_t row_bytes)
{
    for (int i = 0; i < p->nbelow; i++) {
        int r = p->below[i] - r0;
        if (r >= 0 && r < rows)
            memcpy((char *)T + r * ldt, (const char *)Old + p->from[i] * ldo,
                   row_bytes);
    }
}

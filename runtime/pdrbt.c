// SPDX-License-Identifier: BSD-3-Clause
// Random butterfly transforms of tile matrices.  @precisions d -> s
#include "algorithms_d.h"
#include "tasks_d.h"

// A recursive butterfly of depth d on N = A->m rows is the product of d
// levels; level l (1 = outermost) is block diagonal with 2^(l-1)
// butterflies of order N / 2^(l-1), and U = U_d ... U_2 U_1.  Row i of a
// butterfly's top half pairs with row i of its bottom half; weight i of
// level l is element u + (l - 1) N + i of the weights W.  The callers make
// every half a whole number of full tiles, so partners sit at the same place in
// partner tiles.

// Tiles of one butterfly of level l, for mt tile rows.
static int span(int mt, int l)
{
    return mt >> (l - 1);
}

// Level l alone, on the 2-by-2 groups of its partner tiles.
static void one_level(hyla_task_opts_t *o, const hyla_desc_t *A, int l, void *W,
                      size_t u, size_t v)
{
    int mt = A->mt, s = span(mt, l), h = s / 2;
    size_t ul = u + (size_t)(l - 1) * A->m;
    size_t vl = v + (size_t)(l - 1) * A->m;
    for (int m = 0; m < mt; m++) {
        if (m % s >= h) continue;
        for (int n = 0; n < mt; n++)
            if (n % s < h)
                hyla_task_drbt_two_sided(o, A, m, m + h, n, n + h, W, ul, vl);
    }
}

// Levels l and l - 1 in one pass, on the 4-by-4 groups of tiles that
// they mix: a group's tile rows are m, m + h (partners in level l),
// m + 2h and m + 3h (partners of the first two in level l - 1).
static void two_levels(hyla_task_opts_t *o, const hyla_desc_t *A, int l,
                       void *W, size_t u, size_t v)
{
    int mt = A->mt, s = span(mt, l - 1), h = s / 4;
    size_t ui = u + (size_t)(l - 1) * A->m, uo = ui - A->m;
    size_t vi = v + (size_t)(l - 1) * A->m, vo = vi - A->m;
    for (int m = 0; m < mt; m++) {
        if (m % s >= h) continue;
        int rows[4] = {m, m + h, m + 2 * h, m + 3 * h};
        for (int n = 0; n < mt; n++) {
            if (n % s >= h) continue;
            int cols[4] = {n, n + h, n + 2 * h, n + 3 * h};
            hyla_task_drbt_two_levels(o, A, rows, cols, W, ui, uo, vi, vo);
        }
    }
}

void hyla_pdrbt_two_sided(const hyla_desc_t *A, int depth, void *W, size_t u,
                          size_t v, hyla_seq_t *seq)
{
    hyla_task_opts_t o = hyla_task_opts(seq);
    // U^T A V = U_1^T ... U_d^T A V_d ... V_1: the innermost level first,
    // two at a time (each pass reads and writes A once).
    int l = depth;
    for (; l >= 2; l -= 2)
        two_levels(&o, A, l, W, u, v);
    if (l == 1) one_level(&o, A, 1, W, u, v);
}

void hyla_pdrbt_rows(int trans, const hyla_desc_t *B, int depth, void *W,
                     size_t w, hyla_seq_t *seq)
{
    hyla_task_opts_t o = hyla_task_opts(seq);
    int mt = B->mt;
    // U^T B: the innermost level first; V B = V_d ... V_1 B: the outermost.
    for (int i = 0; i < depth; i++) {
        int l = trans == HYLA_TRANS ? depth - i : i + 1;
        int s = span(mt, l), h = s / 2;
        size_t wl = w + (size_t)(l - 1) * B->m;
        for (int m = 0; m < mt; m++) {
            if (m % s >= h) continue;
            for (int n = 0; n < B->nt; n++)
                hyla_task_drbt_rows(&o, trans, B, m, m + h, n, W, wl);
        }
    }
}

// SPDX-License-Identifier: BSD-3-Clause
// Random butterfly transforms of tile matrices.  @precisions d -> s
#include "algorithms_d.h"
#include "tasks_d.h"

// A recursive butterfly of depth d on N = A->m rows is the product of d
// levels; level l (1 = outermost) is block diagonal with 2^(l-1)
// butterflies of order N / 2^(l-1), and U = U_d ... U_2 U_1.  Row i of a
// butterfly's top half pairs with row i of its bottom half; weight i of
// level l is element u + (l - 1) N + i of the weights W.  The callers make every half a whole number
// of full tiles, so partners sit at the same place in partner tiles.

// Tiles of one butterfly of level l, for mt tile rows.
static int span(int mt, int l)
{
    return mt >> (l - 1);
}

void hyla_pdrbt_two_sided(const hyla_desc_t *A, int depth, void *W, size_t u,
                          size_t v, hyla_seq_t *seq)
{
    hyla_task_opts_t o = hyla_task_opts(seq);
    int mt = A->mt;
    // U^T A V = U_1^T ... U_d^T A V_d ... V_1: the innermost level first.
    for (int l = depth; l >= 1; l--) {
        int s = span(mt, l), h = s / 2;
        size_t ul = u + (size_t)(l - 1) * A->m;
        size_t vl = v + (size_t)(l - 1) * A->m;
        for (int m = 0; m < mt; m++) {
            if (m % s >= h) continue;
            for (int n = 0; n < mt; n++)
                if (n % s < h)
                    hyla_task_drbt_two_sided(&o, A, m, m + h, n, n + h, W, ul,
                                             vl);
        }
    }
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

// SPDX-License-Identifier: BSD-3-Clause
// Row interchanges of a whole LU applied to a tile matrix.
// @precisions d -> s
#include "algorithms_d.h"
#include "tasks_d.h"

// B = P B (inc > 0: the pieces of P in order) or B = P^T B (inc < 0:
// reverse order, each piece backward).
void hyla_pdlaswp(const hyla_desc_t *B, const hyla_pivots_t *P, int inc,
                  hyla_seq_t *seq)
{
    hyla_task_opts_t o = hyla_task_opts(seq);
    for (int i = 0; i < P->nsteps; i++) {
        int k = inc > 0 ? i : P->nsteps - 1 - i;
        o.priority = hyla_prio_panel(P->nsteps, i);
        for (int n = 0; n < B->nt; n++)
            hyla_task_dlaswp(&o, B, k, n, P, inc);
    }
}

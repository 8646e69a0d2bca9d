// SPDX-License-Identifier: BSD-3-Clause
// Row interchanges of a whole LU applied to a tile matrix.
// @precisions d -> s
#include "algorithms_d.h"
#include "tasks.h"

void hyla_pdlaswp_step(hyla_task_opts_t *o, const hyla_desc_t *A, int k, int n,
                       const hyla_pivots_t *P, int inc)
{
    if (!P->W) {
        hyla_task_dlaswp(o, A, k, n, P, inc);
        return;
    }
    int owner = o->owner;
    o->owner = -1; // CPU tasks
    hyla_task_rowperm_save(o, A, k, n, P);
    for (int m = k; m < A->mt; m++)
        hyla_task_rowperm_gather(o, A, k, m, n, P, inc);
    for (int m = k; m < A->mt; m++)
        hyla_task_rowperm_scatter(o, A, k, m, n, P, inc);
    // The process rows that hold tiles k .. mt-1.
    for (int i = 0; i < A->p && i < A->mt - k; i++)
        hyla_task_rowperm_merge(o, A, k, n, P, inc, (k + i) % A->p);
    o->owner = owner;
}

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
            hyla_pdlaswp_step(&o, B, k, n, P, inc);
    }
}

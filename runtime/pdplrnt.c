// SPDX-License-Identifier: BSD-3-Clause
// Random tile matrices.  @precisions d -> s
#include "algorithms_d.h"
#include "tasks_d.h"

void hyla_pdplrnt(const hyla_desc_t *A, int i0, int j0, unsigned long long seed,
                  int sym, double bump, hyla_seq_t *seq)
{
    hyla_task_opts_t o = hyla_task_opts(seq);
    for (int n = 0; n < A->nt; n++)
        for (int m = 0; m < A->mt; m++)
            hyla_task_dplrnt(&o, A, m, n, i0 + m * A->nb, j0 + n * A->nb, seed,
                             sym, bump);
}

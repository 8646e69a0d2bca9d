// SPDX-License-Identifier: BSD-3-Clause
// Tile matrix copy.  @precisions d -> s
#include "algorithms_d.h"
#include "tasks_d.h"

void hyla_pdlacpy(const hyla_desc_t *A, const hyla_desc_t *B, hyla_seq_t *seq)
{
    hyla_task_opts_t o = hyla_task_opts(seq);
    for (int n = 0; n < A->nt; n++)
        for (int m = 0; m < A->mt; m++)
            hyla_task_dlacpy(&o, A, m, n, B, m, n);
}

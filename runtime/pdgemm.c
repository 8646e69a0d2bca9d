// SPDX-License-Identifier: BSD-3-Clause
// Tile matrix product.  @precisions d -> s
#include "algorithms_d.h"
#include "tasks_d.h"

// C(m, n) = alpha sum_k A(m, k) B(k, n) + beta C(m, n): one task per
// (m, n, k), the k in order on each tile of C; where B and C are one tile
// column (a few right-hand sides), one task per tile of C, whose products
// would be too small to pay for a task each.
void hyla_pdgemm(double alpha, const hyla_desc_t *A, const hyla_desc_t *B,
                 double beta, const hyla_desc_t *C, hyla_seq_t *seq)
{
    hyla_task_opts_t o = hyla_task_opts(seq);
    int kt = A->nt;
    if (C->nt == 1 && kt > 0) {
        for (int m = 0; m < C->mt; m++)
            hyla_task_dgemm_sum(&o, alpha, A, m, B, kt, beta, C, m);
        return;
    }
    for (int n = 0; n < C->nt; n++)
        for (int m = 0; m < C->mt; m++)
            for (int k = 0; k < kt; k++)
                hyla_task_dgemm(&o, HYLA_NO_TRANS, HYLA_NO_TRANS, alpha, A, m,
                                k, B, k, n, k == 0 ? beta : 1.0, C, m, n);
}

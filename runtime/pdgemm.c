// SPDX-License-Identifier: BSD-3-Clause
// Tile matrix product.  @precisions d -> s
#include "algorithms_d.h"
#include "tasks_d.h"

// C(m, n) = alpha sum_k A(m, k) B(k, n) + beta C(m, n): one task per
// (m, n, k), the k in order on each tile of C.
void hyla_pdgemm(double alpha, const hyla_desc_t *A, const hyla_desc_t *B,
                 double beta, const hyla_desc_t *C, hyla_seq_t *seq)
{
    hyla_task_opts_t o = hyla_task_opts(seq);
    for (int n = 0; n < C->nt; n++)
        for (int m = 0; m < C->mt; m++)
            for (int k = 0; k < A->nt; k++)
                hyla_task_dgemm(&o, HYLA_NO_TRANS, HYLA_NO_TRANS, alpha, A, m,
                                k, B, k, n, k == 0 ? beta : 1.0, C, m, n);
}

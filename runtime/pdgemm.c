// SPDX-License-Identifier: BSD-3-Clause
// Tile matrix product.  @precisions d -> s
#include "algorithms_d.h"
#include "tasks_d.h"

// Distributed: the fan-in.  Each process of tile row m's process row
// sums the products of its own tiles A(m, k) into its partial sum of
// C(m, n), and the process of C(m, n) adds those up: only tiles of B's
// and C's shape cross processes.
static void fan_in(double alpha, const hyla_desc_t *A, const hyla_desc_t *B,
                   double beta, const hyla_desc_t *C, hyla_seq_t *seq)
{
    hyla_task_opts_t o = hyla_task_opts(seq);
    int cols = A->q < A->nt ? A->q : A->nt; // process columns with tiles
    hyla_partials_t *W = hyla_rt_partials(seq, C);
    if (!W) return;
    void *S[cols > 0 ? cols : 1];
    for (int n = 0; n < C->nt; n++)
        for (int m = 0; m < C->mt; m++) {
            // Process column c holds A(m, k) for k = c, c + q, ...
            for (int c = 0; c < cols; c++) {
                S[c] = hyla_rt_partial(W, m, n, hyla_tile_owner(A, m, c));
                hyla_task_dpartial_row(&o, A, m, c, A->q, B, n, S[c]);
            }
            hyla_task_dsum(&o, alpha, S, cols, beta, C, m, n);
        }
}

// C(m, n) = alpha sum_k A(m, k) B(k, n) + beta C(m, n): one task per
// (m, n, k), the k in order on each tile of C; where B and C are one tile
// column (a few right-hand sides), one task per tile of C, whose products
// would be too small to pay for a task each.
void hyla_pdgemm(double alpha, const hyla_desc_t *A, const hyla_desc_t *B,
                 double beta, const hyla_desc_t *C, hyla_seq_t *seq)
{
    if (C->dist) {
        fan_in(alpha, A, B, beta, C, seq);
        return;
    }
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

// SPDX-License-Identifier: BSD-3-Clause
// Tile triangular solve with many right-hand sides.  @precisions d -> s
#include "algorithms_d.h"
#include "tasks_d.h"

// B = op(A)^-1 B.  op(A) is lower triangular for (lower, no-trans) and
// (upper, trans): solve forward, otherwise backward.  The block of op(A)
// coupling tile rows m and k is A(m, k), or A(k, m)^T when transposed.
// One tile column of B on one GPU that holds A's triangle with room to
// spare: the whole solve as one task, as its tile tasks would be
// matrix-vector products too small for their scheduling.
void hyla_pdtrsm(int uplo, int trans, int diag, const hyla_desc_t *A,
                 const hyla_trsm_ws_t *inv, int Wm, const hyla_desc_t *B,
                 hyla_seq_t *seq)
{
    hyla_task_opts_t o = hyla_task_opts(seq);
    int mt = B->mt, nt = B->nt;
    int forward = (uplo == HYLA_LOWER) == (trans == HYLA_NO_TRANS);
    size_t tri = (size_t)mt * (mt + 1) / 2 * A->nb * A->nb * A->elemsize;
    if (!B->dist && nt == 1 && mt > 1 && hyla_rt_gpus() == 1 &&
        hyla_rt_gpu_fits(tri)) {
        o.priority = hyla_prio_panel(mt, 0);
        int w = inv && inv->inv;
        hyla_task_dtrsm_col(&o, uplo, trans, diag, A, w ? inv->inv : NULL, Wm,
                            w ? inv->scratch : NULL, B);
        return;
    }

    for (int i = 0; i < mt; i++) {
        int k = forward ? i : mt - 1 - i;
        // B(k, n) = op(A(k, k))^-1 B(k, n)
        o.priority = hyla_prio_panel(mt, i);
        for (int n = 0; n < nt; n++)
            hyla_task_dtrsm(&o, HYLA_LEFT, uplo, trans, diag, 1.0, A, k, k, B,
                            k, n);
        // B(m, n) -= op(A)(m, k) B(k, n) for the rows not yet solved
        for (int j = i + 1; j < mt; j++) {
            int m = forward ? j : mt - 1 - j;
            o.priority = hyla_prio_update(mt, i, j, 1);
            int am = trans == HYLA_NO_TRANS ? m : k;
            int an = trans == HYLA_NO_TRANS ? k : m;
            for (int n = 0; n < nt; n++)
                hyla_task_dgemm(&o, trans, HYLA_NO_TRANS, -1.0, A, am, an, B, k,
                                n, 1.0, B, m, n);
        }
    }
}

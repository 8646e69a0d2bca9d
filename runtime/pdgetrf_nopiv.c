// SPDX-License-Identifier: BSD-3-Clause
// Right-looking tile LU without pivoting.  @precisions d -> s
#include "algorithms_d.h"
#include "tasks_d.h"

// Step k: factor the diagonal tile; solve the tiles below it by U_kk and
// those to its right by L_kk; update the trailing tiles, the columns
// within lookahead at high priority.  The partial-pivoting graph without
// its interchanges: the panel is one tile, its column a set of
// independent TRSMs.  With ws->inv (two a tile) the inverses of L_kk and
// U_kk are computed at each step, and with `inv` every solve by them is a
// GEMM by the inverse.
void hyla_pdgetrf_nopiv(const hyla_desc_t *A, int lookahead,
                        const hyla_trsm_ws_t *ws, int inv, hyla_seq_t *seq)
{
    hyla_task_opts_t o = hyla_task_opts(seq);
    o.critical_stream = hyla_rt_critical_stream(0);
    hyla_rt_gpus_spares(A);
    int mt = A->mt, nt = A->nt;
    int kt = hyla_imin(mt, nt);
    inv = inv && ws->inv;

    for (int k = 0; k < kt; k++) {
        // A(k, k) = L_kk U_kk, and in the same task W(0, k) = L_kk^-1,
        // W(1, k) = U_kk^-1 (as tasks of their own, each waited 0.1 to
        // 0.7 ms for a GPU busy with the updates, on the critical path)
        o.priority = hyla_prio_panel(nt, k);
        hyla_task_dgetrf_nopiv(&o, A, k, ws->inv);
        // A(m, k) = A(m, k) U_kk^-1
        for (int m = k + 1; m < mt; m++) {
            if (inv)
                hyla_task_dtrsm_inv(&o, HYLA_RIGHT, HYLA_UPPER, HYLA_NO_TRANS,
                                    ws->inv, 1, k, A, m, k, ws->scratch);
            else
                hyla_task_dtrsm(&o, HYLA_RIGHT, HYLA_UPPER, HYLA_NO_TRANS,
                                HYLA_NON_UNIT, 1.0, A, k, k, A, m, k);
        }
        for (int n = k + 1; n < nt; n++) {
            o.priority = hyla_prio_update(nt, k, n, lookahead);
            // A(k, n) = L_kk^-1 A(k, n)
            if (inv)
                hyla_task_dtrsm_inv(&o, HYLA_LEFT, HYLA_LOWER, HYLA_NO_TRANS,
                                    ws->inv, 0, k, A, k, n, ws->scratch);
            else
                hyla_task_dtrsm(&o, HYLA_LEFT, HYLA_LOWER, HYLA_NO_TRANS,
                                HYLA_UNIT, 1.0, A, k, k, A, k, n);
            // A(m, n) -= A(m, k) A(k, n)
            for (int m = k + 1; m < mt; m++)
                hyla_task_dgemm(&o, HYLA_NO_TRANS, HYLA_NO_TRANS, -1.0, A, m, k,
                                A, k, n, 1.0, A, m, n);
        }
    }
}

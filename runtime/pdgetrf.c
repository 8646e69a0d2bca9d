// SPDX-License-Identifier: BSD-3-Clause
// Right-looking tile LU with partial pivoting and lookahead.
// @precisions d -> s
#include "algorithms_d.h"
#include "tasks_d.h"

// Step k: factor the panel A(k:mt-1, k); apply its interchanges and update
// the columns to its right, those within lookahead at high priority; then
// apply the interchanges to the columns on its left, at the lowest priority.
void hyla_pdgetrf(const hyla_desc_t *A, const hyla_pivots_t *P, int lookahead,
                  const hyla_trsm_ws_t *ws, hyla_seq_t *seq)
{
    hyla_task_opts_t o = hyla_task_opts(seq);
    o.critical_stream = hyla_rt_critical_stream(1);
    o.cyclic = hyla_rt_cyclic(A->bytes, 1);
    hyla_rt_gpus_spares(A);
    int mt = A->mt, nt = A->nt;
    int kt = hyla_imin(mt, nt);

    for (int k = 0; k < kt; k++) {
        // A(k:mt-1, k) = P_k L_k U_kk
        o.priority = hyla_prio_panel(nt, k);
        o.owner = k; // its column's GPU under the cyclic mapping
        if (P->comm)
            hyla_task_dgetrf_panel_dist(&o, A, k, P);
        else
            hyla_task_dgetrf_panel(&o, A, k, P);
        // W = L_kk^-1, for the solves by L_kk as GEMMs
        if (ws->inv && k + 1 < nt) {
            hyla_task_dtrtri(&o, HYLA_LOWER, HYLA_UNIT, k * A->nb, A, k, k,
                             ws->inv, 0, k);
        }

        for (int n = k + 1; n < nt; n++) {
            o.priority = hyla_prio_update(nt, k, n, lookahead);
            o.owner = n;
            // A(k:mt-1, n) = P_k A(k:mt-1, n)
            hyla_pdlaswp_step(&o, A, k, n, P, 1);
            // A(k, n) = L_kk^-1 A(k, n)
            if (ws->inv)
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

        // A(k:mt-1, n) = P_k A(k:mt-1, n) for the finished columns n < k
        o.priority = hyla_prio_last(nt);
        for (int n = 0; n < k; n++) {
            o.owner = n;
            hyla_pdlaswp_step(&o, A, k, n, P, 1);
        }
        o.owner = -1;
    }
}

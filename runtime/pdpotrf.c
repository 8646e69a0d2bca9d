// SPDX-License-Identifier: BSD-3-Clause
// Right-looking tile Cholesky.  @precisions d -> s
#include "algorithms_d.h"
#include "tasks_d.h"

// The Cholesky of the diagonal tile k; with a workspace, the same task
// inverts the factor into tile (0, k) of ws->inv, but for the last tile,
// which solves nothing.
static void factor(int uplo, const hyla_desc_t *A, int k,
                   const hyla_trsm_ws_t *ws, hyla_task_opts_t *o)
{
    o->priority = hyla_prio_panel(A->nt, k);
    o->owner = k;
    hyla_task_dpotrf(o, uplo, A, k, k + 1 < A->nt ? ws->inv : NULL, 0, k);
}

// The solves by the diagonal tile k, B = A(k, k)^-T B (upper) or
// B A(k, k)^-T (lower): TRSMs, or GEMMs by the inverse factor() left in
// the workspace.
static void solve(int uplo, const hyla_desc_t *A, int k,
                  const hyla_trsm_ws_t *ws, hyla_task_opts_t *o)
{
    int nt = A->nt;
    for (int i = k + 1; i < nt; i++) {
        int m = uplo == HYLA_LOWER ? i : k, n = uplo == HYLA_LOWER ? k : i;
        int side = uplo == HYLA_LOWER ? HYLA_RIGHT : HYLA_LEFT;
        // Lower: A(i, k) runs with column k; upper: A(k, i) with column i.
        o->owner = n;
        if (ws->inv)
            hyla_task_dtrsm_inv(o, side, uplo, HYLA_TRANS, ws->inv, 0, k, A, m,
                                n, ws->scratch);
        else
            hyla_task_dtrsm(o, side, uplo, HYLA_TRANS, HYLA_NON_UNIT, 1.0, A, k,
                            k, A, m, n);
    }
}

// A = L L^T, working on the lower tiles.
static void lower(const hyla_desc_t *A, int lookahead, const hyla_trsm_ws_t *ws,
                  hyla_task_opts_t *o)
{
    int nt = A->nt;
    for (int k = 0; k < nt; k++) {
        // A(k, k) = L(k, k) L(k, k)^T
        factor(HYLA_LOWER, A, k, ws, o);
        // A(m, k) = A(m, k) L(k, k)^-T
        o->priority = hyla_prio_panel(nt, k) - 1;
        solve(HYLA_LOWER, A, k, ws, o);
        for (int n = k + 1; n < nt; n++) {
            o->priority = hyla_prio_update(nt, k, n, lookahead);
            o->owner = n;
            // A(n, n) -= A(n, k) A(n, k)^T
            hyla_task_dsyrk(o, HYLA_LOWER, HYLA_NO_TRANS, -1.0, A, n, k, 1.0, A,
                            n, n);
            // A(m, n) -= A(m, k) A(n, k)^T
            for (int m = n + 1; m < nt; m++)
                hyla_task_dgemm(o, HYLA_NO_TRANS, HYLA_TRANS, -1.0, A, m, k, A,
                                n, k, 1.0, A, m, n);
        }
    }
}

// A = U^T U, working on the upper tiles.
static void upper(const hyla_desc_t *A, int lookahead, const hyla_trsm_ws_t *ws,
                  hyla_task_opts_t *o)
{
    int nt = A->nt;
    for (int k = 0; k < nt; k++) {
        // A(k, k) = U(k, k)^T U(k, k)
        factor(HYLA_UPPER, A, k, ws, o);
        // A(k, n) = U(k, k)^-T A(k, n)
        o->priority = hyla_prio_panel(nt, k) - 1;
        solve(HYLA_UPPER, A, k, ws, o);
        for (int m = k + 1; m < nt; m++) {
            o->priority = hyla_prio_update(nt, k, m, lookahead);
            // A(m, m) -= A(k, m)^T A(k, m)
            o->owner = m;
            hyla_task_dsyrk(o, HYLA_UPPER, HYLA_TRANS, -1.0, A, k, m, 1.0, A, m,
                            m);
            // A(m, n) -= A(k, m)^T A(k, n)
            for (int n = m + 1; n < nt; n++) {
                o->owner = n;
                hyla_task_dgemm(o, HYLA_TRANS, HYLA_NO_TRANS, -1.0, A, k, m, A,
                                k, n, 1.0, A, m, n);
            }
        }
    }
}

void hyla_pdpotrf(int uplo, const hyla_desc_t *A, int lookahead,
                  const hyla_trsm_ws_t *ws, hyla_seq_t *seq)
{
    hyla_task_opts_t o = hyla_task_opts(seq);
    o.critical_stream = hyla_rt_critical_stream(0);
    // Out of core the Cholesky keeps the scheduler's placement unless the
    // cyclic mapping is asked for: on 2 GPUs it was as fast or faster
    // (docs/perf), so the rule sees no bytes.
    o.cyclic = hyla_rt_cyclic(0, 0);
    hyla_rt_gpus_spares(A);
    if (uplo == HYLA_LOWER)
        lower(A, lookahead, ws, &o);
    else
        upper(A, lookahead, ws, &o);
}

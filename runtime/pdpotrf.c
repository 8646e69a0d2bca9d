// SPDX-License-Identifier: BSD-3-Clause
// Right-looking tile Cholesky.  @precisions d -> s
#include "algorithms_d.h"
#include "tasks_d.h"

// A = L L^T, working on the lower tiles.
static void lower(const hyla_desc_t *A, int lookahead, hyla_task_opts_t *o)
{
    int nt = A->nt;
    for (int k = 0; k < nt; k++) {
        // A(k, k) = L(k, k) L(k, k)^T
        o->priority = hyla_prio_panel(nt, k);
        hyla_task_dpotrf(o, HYLA_LOWER, A, k);
        // A(m, k) = A(m, k) L(k, k)^-T
        o->priority = hyla_prio_panel(nt, k) - 1;
        for (int m = k + 1; m < nt; m++)
            hyla_task_dtrsm(o, HYLA_RIGHT, HYLA_LOWER, HYLA_TRANS,
                            HYLA_NON_UNIT, 1.0, A, k, k, A, m, k);
        for (int n = k + 1; n < nt; n++) {
            o->priority = hyla_prio_update(nt, k, n, lookahead);
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
static void upper(const hyla_desc_t *A, int lookahead, hyla_task_opts_t *o)
{
    int nt = A->nt;
    for (int k = 0; k < nt; k++) {
        // A(k, k) = U(k, k)^T U(k, k)
        o->priority = hyla_prio_panel(nt, k);
        hyla_task_dpotrf(o, HYLA_UPPER, A, k);
        // A(k, n) = U(k, k)^-T A(k, n)
        o->priority = hyla_prio_panel(nt, k) - 1;
        for (int n = k + 1; n < nt; n++)
            hyla_task_dtrsm(o, HYLA_LEFT, HYLA_UPPER, HYLA_TRANS, HYLA_NON_UNIT,
                            1.0, A, k, k, A, k, n);
        for (int m = k + 1; m < nt; m++) {
            o->priority = hyla_prio_update(nt, k, m, lookahead);
            // A(m, m) -= A(k, m)^T A(k, m)
            hyla_task_dsyrk(o, HYLA_UPPER, HYLA_TRANS, -1.0, A, k, m, 1.0, A, m,
                            m);
            // A(m, n) -= A(k, m)^T A(k, n)
            for (int n = m + 1; n < nt; n++)
                hyla_task_dgemm(o, HYLA_TRANS, HYLA_NO_TRANS, -1.0, A, k, m, A,
                                k, n, 1.0, A, m, n);
        }
    }
}

void hyla_pdpotrf(int uplo, const hyla_desc_t *A, int lookahead,
                  hyla_seq_t *seq)
{
    hyla_task_opts_t o = {seq, 0};
    if (uplo == HYLA_LOWER)
        lower(A, lookahead, &o);
    else
        upper(A, lookahead, &o);
}

// SPDX-License-Identifier: BSD-3-Clause
// hyla_dgetrf, hyla_dgetrf_tile: entry points.  @precisions d -> s
#include "algorithms_d.h"

HYLA_EXPORT int hyla_dgetrf_tile(hyla_desc_t *A, int *ipiv)
{
    const char *r = "hyla_dgetrf_tile";
    int rc;
    if ((rc = hyla_rt_check_init(r)) ||
        (rc = hyla_rt_check_desc_any(r, 1, A, HYLA_DOUBLE)) ||
        (rc = hyla_rt_check_ptr(r, 2, "ipiv", ipiv, A->m && A->n)))
        return rc;
    if (hyla_imin(A->m, A->n) == 0) return 0;

    // Distributed: the interchanges move rows across processes, the
    // solves by diagonal tiles are TRSMs, and every process gets all of
    // ipiv.
    hyla_seq_t seq;
    hyla_pivots_t P;
    hyla_trsm_ws_t ws = {NULL, NULL};
    hyla_rt_seq_init_on(&seq, 0, A);
    rc = hyla_rt_pivots_create(&P, ipiv, hyla_imin(A->m, A->n), A->nb);
    if (!rc && A->dist) rc = hyla_rt_pivots_dist(&P, A, A);
    if (!rc && A->dist && A->p > 1) rc = hyla_rt_pivots_panel(&P, A);
    if (!rc && !A->dist) rc = hyla_rt_trsm_ws_create(r, &ws, A, 1, 1);
    int la;
    hyla_rt_tuned(HYLA_TUNE_GETRF, HYLA_DOUBLE, hyla_imax(A->m, A->n), NULL,
                  &la);
    if (!rc) hyla_pdgetrf(A, &P, la, &ws, &seq);
    if (!rc && A->dist) hyla_rt_pivots_share(&P);
    int info = hyla_rt_seq_wait(&seq);
    hyla_rt_trsm_ws_destroy(&ws);
    hyla_rt_pivots_destroy(&P);
    return rc ? rc : info;
}

HYLA_EXPORT int hyla_dgetrf(int m, int n, double *A, int lda, int *ipiv)
{
    const char *r = "hyla_dgetrf";
    int rc;
    if ((rc = hyla_rt_check_init(r)) ||
        (rc = hyla_rt_check_dim(r, 1, "m", m)) ||
        (rc = hyla_rt_check_dim(r, 2, "n", n)) ||
        (rc = hyla_rt_check_ptr(r, 3, "A", A, m && n)) ||
        (rc = hyla_rt_check_ld(r, 4, "lda", lda, m)) ||
        (rc = hyla_rt_check_ptr(r, 5, "ipiv", ipiv, m && n)))
        return rc;
    if (hyla_imin(m, n) == 0) return 0;

    hyla_desc_t *T;
    int nb, la;
    hyla_rt_tuned(HYLA_TUNE_GETRF, HYLA_DOUBLE, hyla_imax(m, n), &nb, &la);
    if ((rc = hyla_rt_desc_copy(&T, HYLA_DOUBLE, m, n, nb, A, lda)))
        return hyla_rt_error(rc, "%s: no memory for a %d x %d tile copy", r, m,
                             n);
    hyla_seq_t seq;
    hyla_pivots_t P;
    hyla_trsm_ws_t ws = {NULL, NULL};
    hyla_rt_seq_init(&seq, 0);
    rc = hyla_rt_pivots_create(&P, ipiv, hyla_imin(m, n), T->nb);
    if (!rc) rc = hyla_rt_trsm_ws_create(r, &ws, T, 1, 1);
    if (!rc) {
        hyla_pdlap_to_desc(HYLA_FULL, A, lda, T, &seq);
        hyla_pdgetrf(T, &P, la, &ws, &seq);
        hyla_pddesc_to_lap(HYLA_FULL, T, A, lda, &seq);
    }
    int info = hyla_rt_seq_wait(&seq);
    hyla_rt_trsm_ws_destroy(&ws);
    hyla_rt_pivots_destroy(&P);
    hyla_desc_destroy(&T);
    return rc ? rc : info;
}

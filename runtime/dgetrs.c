// SPDX-License-Identifier: BSD-3-Clause
// hyla_dgetrs, hyla_dgesv and their tile forms: entry points.
// @precisions d -> s
#include "algorithms_d.h"

HYLA_EXPORT int hyla_dgetrs_tile(char trans, hyla_desc_t *A, const int *ipiv,
                                 hyla_desc_t *B)
{
    const char *r = "hyla_dgetrs_tile";
    int rc, t;
    if ((rc = hyla_rt_check_init(r)) ||
        (rc = hyla_rt_check_trans(r, 1, trans, &t)) ||
        (rc = hyla_rt_check_desc_any(r, 2, A, HYLA_DOUBLE)) ||
        (rc = hyla_rt_check_desc_any(r, 4, B, HYLA_DOUBLE)) ||
        (rc = hyla_rt_check_rhs(r, 2, A, 4, B)))
        return rc;
    // Distributed, each process has its ipiv (the same after an LU); the
    // pieces the interchanges use are those of tile (k, k)'s process.
    rc = hyla_rt_check_ipiv(r, 3, ipiv, A->n);
    if ((rc = hyla_rt_check_agree(r, A, rc))) return rc;
    if (A->n == 0 || B->n == 0) return 0;

    hyla_seq_t seq;
    hyla_pivots_t P;
    hyla_rt_seq_init_on(&seq, 0, A);
    rc = hyla_rt_pivots_create(&P, (int *)ipiv, A->n, A->nb);
    if (!rc && A->dist) rc = hyla_rt_pivots_dist(&P, A, B);
    if (!rc) hyla_pdgetrs(t, A, &P, B, &seq);
    int st = hyla_rt_seq_wait(&seq);
    hyla_rt_pivots_destroy(&P);
    return rc ? rc : st;
}

HYLA_EXPORT int hyla_dgesv_tile(hyla_desc_t *A, int *ipiv, hyla_desc_t *B)
{
    const char *r = "hyla_dgesv_tile";
    int rc;
    if ((rc = hyla_rt_check_init(r)) ||
        (rc = hyla_rt_check_desc_any(r, 1, A, HYLA_DOUBLE)) ||
        (rc = hyla_rt_check_desc_any(r, 3, B, HYLA_DOUBLE)) ||
        (rc = hyla_rt_check_rhs(r, 1, A, 3, B)))
        return rc;
    rc = hyla_rt_check_ptr(r, 2, "ipiv", ipiv, A->n);
    if ((rc = hyla_rt_check_agree(r, A, rc))) return rc;
    rc = hyla_dgetrf_tile(A, ipiv);
    if (rc == 0 && B->n > 0) rc = hyla_dgetrs_tile('N', A, ipiv, B);
    return rc;
}

// The column-major forms: tile copies of A and B, and the pivots.
struct lap_solve {
    hyla_desc_t *A, *B;
    hyla_pivots_t P;
    hyla_seq_t seq;
};

static int lap_begin(struct lap_solve *s, const char *r, int n, int nrhs,
                     const double *A, int lda, int *ipiv, const double *B,
                     int ldb)
{
    int nb;
    hyla_rt_tuned(HYLA_TUNE_GETRF, HYLA_DOUBLE, n, &nb, NULL);
    s->A = s->B = NULL;
    s->P = (hyla_pivots_t){0};
    hyla_rt_seq_init(&s->seq, 0);
    int rc = hyla_rt_desc_copy(&s->A, HYLA_DOUBLE, n, n, nb, A, lda);
    if (!rc) rc = hyla_rt_desc_copy(&s->B, HYLA_DOUBLE, n, nrhs, nb, B, ldb);
    if (!rc) rc = hyla_rt_pivots_create(&s->P, ipiv, n, nb);
    if (rc) return hyla_rt_error(rc, "%s: no memory for the tile copies", r);
    hyla_pdlap_to_desc(HYLA_FULL, A, lda, s->A, &s->seq);
    hyla_pdlap_to_desc(HYLA_FULL, B, ldb, s->B, &s->seq);
    return 0;
}

static int lap_end(struct lap_solve *s, int rc)
{
    int st = hyla_rt_seq_wait(&s->seq);
    hyla_rt_pivots_destroy(&s->P);
    hyla_desc_destroy(&s->A);
    hyla_desc_destroy(&s->B);
    return rc ? rc : st;
}

HYLA_EXPORT int hyla_dgetrs(char trans, int n, int nrhs, const double *A,
                            int lda, const int *ipiv, double *B, int ldb)
{
    const char *r = "hyla_dgetrs";
    int rc, t;
    if ((rc = hyla_rt_check_init(r)) ||
        (rc = hyla_rt_check_trans(r, 1, trans, &t)) ||
        (rc = hyla_rt_check_dim(r, 2, "n", n)) ||
        (rc = hyla_rt_check_dim(r, 3, "nrhs", nrhs)) ||
        (rc = hyla_rt_check_ptr(r, 4, "A", A, n)) ||
        (rc = hyla_rt_check_ld(r, 5, "lda", lda, n)) ||
        (rc = hyla_rt_check_ipiv(r, 6, ipiv, n)) ||
        (rc = hyla_rt_check_ptr(r, 7, "B", B, n && nrhs)) ||
        (rc = hyla_rt_check_ld(r, 8, "ldb", ldb, n)))
        return rc;
    if (n == 0 || nrhs == 0) return 0;

    struct lap_solve s;
    rc = lap_begin(&s, r, n, nrhs, A, lda, (int *)ipiv, B, ldb);
    if (!rc) {
        hyla_pdgetrs(t, s.A, &s.P, s.B, &s.seq);
        hyla_pddesc_to_lap(HYLA_FULL, s.B, B, ldb, &s.seq);
    }
    return lap_end(&s, rc);
}

HYLA_EXPORT int hyla_dgesv(int n, int nrhs, double *A, int lda, int *ipiv,
                           double *B, int ldb)
{
    const char *r = "hyla_dgesv";
    int rc;
    if ((rc = hyla_rt_check_gesv(r, n, nrhs, A, lda, ipiv, B, ldb))) return rc;
    if (n == 0) return 0;

    // Factor (B comes in meanwhile), then solve only if U is nonsingular:
    // on info > 0, B is left as it was, as LAPACK leaves it.
    struct lap_solve s;
    rc = lap_begin(&s, r, n, nrhs, A, lda, ipiv, B, ldb);
    if (rc) return lap_end(&s, rc);
    hyla_trsm_ws_t ws;
    if ((rc = hyla_rt_trsm_ws_create(r, &ws, s.A, 1, 1)))
        return lap_end(&s, rc);
    int la;
    hyla_rt_tuned(HYLA_TUNE_GETRF, HYLA_DOUBLE, n, NULL, &la);
    hyla_pdgetrf(s.A, &s.P, la, &ws, &s.seq);
    hyla_pddesc_to_lap(HYLA_FULL, s.A, A, lda, &s.seq);
    int info = hyla_rt_seq_wait(&s.seq);
    hyla_rt_trsm_ws_destroy(&ws);
    if (info == 0) {
        hyla_rt_seq_init(&s.seq, 0);
        hyla_pdgetrs(HYLA_NO_TRANS, s.A, &s.P, s.B, &s.seq);
        hyla_pddesc_to_lap(HYLA_FULL, s.B, B, ldb, &s.seq);
    } else {
        hyla_rt_seq_init(&s.seq, 0);
        rc = info;
    }
    return lap_end(&s, rc);
}

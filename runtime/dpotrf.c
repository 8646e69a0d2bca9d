// SPDX-License-Identifier: BSD-3-Clause
// hyla_dpotrf, hyla_dpotrs, hyla_dposv and their tile forms: entry points.
// @precisions d -> s
#include "algorithms_d.h"

// The lookahead of a Cholesky of order n (configured, tuned or default).
static int potrf_lookahead(int n)
{
    int la;
    hyla_rt_tuned(HYLA_TUNE_POTRF, HYLA_DOUBLE, n, NULL, &la);
    return la;
}

HYLA_EXPORT int hyla_dpotrf_tile(char uplo, hyla_desc_t *A)
{
    const char *r = "hyla_dpotrf_tile";
    int rc, u;
    if ((rc = hyla_rt_check_init(r)) ||
        (rc = hyla_rt_check_uplo(r, 1, uplo, &u)) ||
        (rc = hyla_rt_check_desc_any(r, 2, A, HYLA_DOUBLE)))
        return rc;
    if (A->m != A->n)
        return hyla_rt_error(-2, "%s: A is %d x %d, not square", r, A->m, A->n);

    // After a failing diagonal block the rest of the factorization is void.
    // Distributed, the solves are TRSMs (the inverses' workspace is one
    // process's).
    hyla_trsm_ws_t ws = {NULL, NULL};
    if (!A->dist && (rc = hyla_rt_trsm_ws_create(r, &ws, A, 1, 0))) return rc;
    hyla_seq_t seq;
    hyla_rt_seq_init_on(&seq, 1, A);
    hyla_pdpotrf(u, A, potrf_lookahead(A->n), &ws, &seq);
    rc = hyla_rt_seq_wait(&seq);
    hyla_rt_trsm_ws_destroy(&ws);
    return rc;
}

// Checks of (uplo, A, B) for the tile solves.
static int check_tile_solve(const char *r, char uplo, int *u,
                            const hyla_desc_t *A, const hyla_desc_t *B)
{
    int rc;
    if ((rc = hyla_rt_check_init(r)) ||
        (rc = hyla_rt_check_uplo(r, 1, uplo, u)) ||
        (rc = hyla_rt_check_desc_any(r, 2, A, HYLA_DOUBLE)) ||
        (rc = hyla_rt_check_desc_any(r, 3, B, HYLA_DOUBLE)) ||
        (rc = hyla_rt_check_rhs(r, 2, A, 3, B)))
        return rc;
    return 0;
}

HYLA_EXPORT int hyla_dpotrs_tile(char uplo, hyla_desc_t *A, hyla_desc_t *B)
{
    int u, rc = check_tile_solve("hyla_dpotrs_tile", uplo, &u, A, B);
    if (rc) return rc;
    hyla_seq_t seq;
    hyla_rt_seq_init_on(&seq, 0, A);
    hyla_pdpotrs(u, A, B, &seq);
    return hyla_rt_seq_wait(&seq);
}

HYLA_EXPORT int hyla_dposv_tile(char uplo, hyla_desc_t *A, hyla_desc_t *B)
{
    int u, rc = check_tile_solve("hyla_dposv_tile", uplo, &u, A, B);
    if (rc) return rc;
    rc = hyla_dpotrf_tile(uplo, A);
    return rc ? rc : hyla_dpotrs_tile(uplo, A, B);
}

// Checks shared by the column-major forms: uplo, n, [nrhs,] A, lda[, B,
// ldb]; has_b tells whether the routine takes right-hand sides.
static int check_lap(const char *r, int has_b, char uplo, int *u, int n,
                     int nrhs, const double *A, int lda, const double *B,
                     int ldb)
{
    int rc, p = has_b ? 4 : 3; // position of A
    if ((rc = hyla_rt_check_init(r)) ||
        (rc = hyla_rt_check_uplo(r, 1, uplo, u)) ||
        (rc = hyla_rt_check_dim(r, 2, "n", n)) ||
        (has_b && (rc = hyla_rt_check_dim(r, 3, "nrhs", nrhs))) ||
        (rc = hyla_rt_check_ptr(r, p, "A", A, n)) ||
        (rc = hyla_rt_check_ld(r, p + 1, "lda", lda, n)))
        return rc;
    if (has_b && ((rc = hyla_rt_check_ptr(r, 6, "B", B, n && nrhs)) ||
                  (rc = hyla_rt_check_ld(r, 7, "ldb", ldb, n))))
        return rc;
    return 0;
}

// Tile copies of the uplo triangle of A and of B (nrhs > 0), in seq.
static int lap_in(const char *r, int u, int n, int nrhs, const double *A,
                  int lda, const double *B, int ldb, hyla_desc_t **TA,
                  hyla_desc_t **TB, hyla_seq_t *seq)
{
    int nb;
    hyla_rt_tuned(HYLA_TUNE_POTRF, HYLA_DOUBLE, n, &nb, NULL);
    *TA = *TB = NULL;
    int rc = hyla_rt_desc_copy(TA, HYLA_DOUBLE, n, n, nb, A, lda);
    if (!rc && nrhs > 0)
        rc = hyla_rt_desc_copy(TB, HYLA_DOUBLE, n, nrhs, nb, B, ldb);
    if (rc) return hyla_rt_error(rc, "%s: no memory for the tile copies", r);
    hyla_pdlap_to_desc(u, A, lda, *TA, seq);
    if (*TB) hyla_pdlap_to_desc(HYLA_FULL, B, ldb, *TB, seq);
    return 0;
}

static int lap_done(hyla_seq_t *seq, hyla_desc_t **TA, hyla_desc_t **TB, int rc)
{
    int st = hyla_rt_seq_wait(seq);
    hyla_desc_destroy(TA);
    hyla_desc_destroy(TB);
    return rc ? rc : st;
}

HYLA_EXPORT int hyla_dpotrf(char uplo, int n, double *A, int lda)
{
    const char *r = "hyla_dpotrf";
    int rc, u;
    if ((rc = check_lap(r, 0, uplo, &u, n, 0, A, lda, NULL, 0))) return rc;
    if (n == 0) return 0;
    hyla_desc_t *TA, *TB;
    hyla_seq_t seq;
    hyla_rt_seq_init(&seq, 1);
    hyla_trsm_ws_t ws = {NULL, NULL};
    rc = lap_in(r, u, n, 0, A, lda, NULL, 0, &TA, &TB, &seq);
    if (!rc) rc = hyla_rt_trsm_ws_create(r, &ws, TA, 1, 0);
    if (!rc) {
        hyla_pdpotrf(u, TA, potrf_lookahead(n), &ws, &seq);
        hyla_pddesc_to_lap(u, TA, A, lda, &seq);
    }
    rc = lap_done(&seq, &TA, &TB, rc);
    hyla_rt_trsm_ws_destroy(&ws);
    return rc;
}

HYLA_EXPORT int hyla_dpotrs(char uplo, int n, int nrhs, const double *A,
                            int lda, double *B, int ldb)
{
    const char *r = "hyla_dpotrs";
    int rc, u;
    if ((rc = check_lap(r, 1, uplo, &u, n, nrhs, A, lda, B, ldb))) return rc;
    if (n == 0 || nrhs == 0) return 0;
    hyla_desc_t *TA, *TB;
    hyla_seq_t seq;
    hyla_rt_seq_init(&seq, 0);
    rc = lap_in(r, u, n, nrhs, A, lda, B, ldb, &TA, &TB, &seq);
    if (!rc) {
        hyla_pdpotrs(u, TA, TB, &seq);
        hyla_pddesc_to_lap(HYLA_FULL, TB, B, ldb, &seq);
    }
    return lap_done(&seq, &TA, &TB, rc);
}

HYLA_EXPORT int hyla_dposv(char uplo, int n, int nrhs, double *A, int lda,
                           double *B, int ldb)
{
    const char *r = "hyla_dposv";
    int rc, u;
    if ((rc = check_lap(r, 1, uplo, &u, n, nrhs, A, lda, B, ldb))) return rc;
    if (n == 0) return 0;
    // Factor (B comes in meanwhile), then solve only if A is positive
    // definite: on info > 0, B is left as it was, as LAPACK leaves it.
    hyla_desc_t *TA, *TB;
    hyla_seq_t seq;
    hyla_rt_seq_init(&seq, 1);
    hyla_trsm_ws_t ws = {NULL, NULL};
    rc = lap_in(r, u, n, nrhs, A, lda, B, ldb, &TA, &TB, &seq);
    if (!rc) rc = hyla_rt_trsm_ws_create(r, &ws, TA, 1, 0);
    if (rc) return lap_done(&seq, &TA, &TB, rc);
    hyla_pdpotrf(u, TA, potrf_lookahead(n), &ws, &seq);
    hyla_pddesc_to_lap(u, TA, A, lda, &seq);
    int info = hyla_rt_seq_wait(&seq);
    hyla_rt_trsm_ws_destroy(&ws);
    hyla_rt_seq_init(&seq, 0);
    if (info == 0 && TB) {
        hyla_pdpotrs(u, TA, TB, &seq);
        hyla_pddesc_to_lap(HYLA_FULL, TB, B, ldb, &seq);
    }
    return lap_done(&seq, &TA, &TB, info);
}

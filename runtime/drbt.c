// SPDX-License-Identifier: BSD-3-Clause
// hyla_dgesv_rbt and its factor / solve split: entry points.
// @precisions d -> s
#include "algorithms_d.h"
#include "cpu_d.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { DEFAULT_DEPTH = 2, MAX_DEPTH = 4, DEFAULT_ITER = 30, STALL = 3 };

struct hyla_drbt {
    int n, N, depth, max_iter;
    hyla_desc_t *A;  // A padded by the identity to N-by-N, for residuals
    hyla_desc_t *LU; // L and U of U^T A V without pivoting (tiles where
                     // the tasks left them)
    double *w;       // the butterflies: U's levels, then V's (N apiece)
    void *W;         // w as a runtime vector
    int zero;        // first zero pivot of that LU (1-based), 0: none
    double anrm;     // ||A||_inf
    // After a fall back: Ap (N-by-N column-major) holds hyla_dgetrf's
    // factors of A in its leading n-by-n.
    double *Ap;
    int *ipiv;
    hyla_rbt_fallback_t why;
    int info; // hyla_dgetrf's
};

// N and the tile size t for n >= 1: N = 2^depth q t >= n, so that each
// half of the innermost butterflies is q whole tiles of t <= nb, and
// N - n is small (less than 2^depth q).
static void padded(int n, int depth, int nb, int *N, int *t)
{
    long parts = 1L << depth;
    long q = (n + parts * nb - 1) / (parts * nb);
    long tile = (n + parts * q - 1) / (parts * q);
    *t = (int)tile;
    *N = (int)(parts * q * tile);
}

static int options(const char *r, int pos, const hyla_rbt_opts_t *opts,
                   hyla_rbt_opts_t *o)
{
    *o = (hyla_rbt_opts_t)HYLA_RBT_OPTS_DEFAULT;
    if (opts) *o = *opts;
    if (o->depth == -1) o->depth = DEFAULT_DEPTH;
    if (o->max_iter == -1) o->max_iter = DEFAULT_ITER;
    if (o->depth < 0 || o->depth > MAX_DEPTH)
        return hyla_rt_error(-pos, "%s: opts->depth is %d, not in 0 .. %d",
                             r, o->depth, MAX_DEPTH);
    if (o->max_iter < 0)
        return hyla_rt_error(-pos, "%s: opts->max_iter is %d, below 0", r,
                             o->max_iter);
    return 0;
}

HYLA_EXPORT void hyla_drbt_destroy(hyla_drbt_t *F)
{
    if (!F) return;
    hyla_desc_destroy(&F->LU);
    hyla_desc_destroy(&F->A);
    hyla_rt_vector_destroy(F->W);
    free(F->w);
    free(F->Ap);
    free(F->ipiv);
    free(F);
}

// ||A||_inf from the row sums by tile column (hyla_pdlap_pad_to_desc).
static double norm_inf(int n, int N, int nt, const double *sums)
{
    double m = 0;
    for (int i = 0; i < n; i++) {
        double s = 0;
        for (int k = 0; k < nt; k++)
            s += sums[(size_t)k * N + i];
        if (!(s <= m)) m = s; // keeps a NaN
    }
    return m;
}

// The tiles of A (padded), its norm, and the LU of its randomized copy,
// in one graph: A comes in by the groups of tile columns that the
// butterflies mix, and the randomization and LU of a group start once it
// is in.
static int factor(hyla_drbt_t *F, const double *A, int lda,
                  unsigned long long seed)
{
    int n = F->n, N, t, nu = F->depth;
    padded(n, nu, hyla_rt_config()->nb, &N, &t);
    F->N = N;
    size_t count = (size_t)2 * nu * N + 1;
    F->w = malloc(sizeof(double) * count);
    int rc = F->w ? 0 : HYLA_ERR_OUT_OF_MEMORY;
    if (!rc) rc = hyla_rt_desc_new(&F->A, HYLA_DOUBLE, N, N, t);
    if (!rc) rc = hyla_rt_desc_temp(&F->LU, HYLA_DOUBLE, N, N, t);
    double *sums = rc ? NULL : malloc(sizeof(double) * N * F->A->nt);
    if (!rc && !sums) rc = HYLA_ERR_OUT_OF_MEMORY;
    if (rc) return rc;
    hyla_cpu_drbt_random(seed, count - 1, F->w);
    hyla_rt_vector_create(&F->W, F->w, count, sizeof(double));

    // The solves by the diagonal tiles of L and U stay TRSMs whatever
    // hyla_config's trsm_inverse: without pivoting, L's entries are not
    // bounded by 1, and a product by an inverted tile errs by up to its
    // condition number times eps, against eps times growth for the
    // substitution; the refinement pays for every such loss in steps.
    hyla_seq_t seq;
    hyla_rt_seq_init(&seq, 0);
    hyla_pdlap_pad_to_desc(n, A, lda, F->A, sums, 1 << nu, &seq);
    hyla_pdlacpy(F->A, F->LU, &seq);
    hyla_pdrbt_two_sided(F->LU, nu, F->W, 0, (size_t)nu * N, &seq);
    hyla_pdgetrf_nopiv(F->LU, hyla_rt_config()->lookahead, &seq);
    rc = hyla_rt_seq_wait(&seq);
    F->anrm = norm_inf(n, N, F->A->nt, sums);
    free(sums);
    if (rc > 0) F->zero = rc;
    return rc < 0 ? rc : 0;
}

HYLA_EXPORT int hyla_drbt_factor(int n, const double *A, int lda,
                                 const hyla_rbt_opts_t *opts, hyla_drbt_t **F)
{
    const char *r = "hyla_drbt_factor";
    hyla_rbt_opts_t o;
    int rc;
    if (F) *F = NULL;
    if ((rc = hyla_rt_check_init(r)) ||
        (rc = hyla_rt_check_dim(r, 1, "n", n)) ||
        (rc = hyla_rt_check_ptr(r, 2, "A", A, n)) ||
        (rc = hyla_rt_check_ld(r, 3, "lda", lda, n)) ||
        (rc = options(r, 4, opts, &o)) ||
        (rc = hyla_rt_check_ptr(r, 5, "F", F, 1)))
        return rc;
    hyla_drbt_t *f = calloc(1, sizeof *f);
    if (!f) return hyla_rt_error(HYLA_ERR_OUT_OF_MEMORY, "%s: no memory", r);
    f->n = n;
    f->depth = o.depth;
    f->max_iter = o.max_iter;
    if (n > 0 && (rc = factor(f, A, lda, o.seed))) {
        hyla_drbt_destroy(f);
        return rc == HYLA_ERR_OUT_OF_MEMORY
                   ? hyla_rt_error(rc, "%s: no memory for the copies of A", r)
                   : rc;
    }
    *F = f;
    return 0;
}

// R = V U^-1 L^-1 U^T R for N-by-nrhs R (column-major, leading dimension
// N): the solve by the randomized factors.
static int solve_once(const hyla_drbt_t *F, int nrhs, double *R)
{
    hyla_desc_t *T = NULL;
    int rc = hyla_rt_desc_new(&T, HYLA_DOUBLE, F->N, nrhs, F->LU->nb);
    if (rc) return rc;
    hyla_seq_t seq;
    hyla_rt_seq_init(&seq, 0);
    hyla_pdlap_to_desc(HYLA_FULL, R, F->N, T, &seq);
    hyla_pdrbt_rows(HYLA_TRANS, T, F->depth, F->W, 0, &seq);
    hyla_pdtrsm(HYLA_LOWER, HYLA_NO_TRANS, HYLA_UNIT, F->LU, T, &seq);
    hyla_pdtrsm(HYLA_UPPER, HYLA_NO_TRANS, HYLA_NON_UNIT, F->LU, T, &seq);
    hyla_pdrbt_rows(HYLA_NO_TRANS, T, F->depth, F->W,
                    (size_t)F->depth * F->N, &seq);
    hyla_pddesc_to_lap(HYLA_FULL, T, R, F->N, &seq);
    rc = hyla_rt_seq_wait(&seq);
    hyla_desc_destroy(&T);
    return rc;
}

// R = R - A X for N-by-nrhs R and X (column-major, leading dimension N),
// on the tiles of A, where they are.
static int residual(const hyla_drbt_t *F, int nrhs, const double *X, double *R)
{
    hyla_desc_t *Xt = NULL, *Rt = NULL;
    int nb = F->A->nb;
    int rc = hyla_rt_desc_new(&Xt, HYLA_DOUBLE, F->N, nrhs, nb);
    if (!rc) rc = hyla_rt_desc_new(&Rt, HYLA_DOUBLE, F->N, nrhs, nb);
    if (!rc) {
        hyla_seq_t seq;
        hyla_rt_seq_init(&seq, 0);
        hyla_pdlap_to_desc(HYLA_FULL, X, F->N, Xt, &seq);
        hyla_pdlap_to_desc(HYLA_FULL, R, F->N, Rt, &seq);
        hyla_pdgemm(-1.0, F->A, Xt, 1.0, Rt, &seq);
        hyla_pddesc_to_lap(HYLA_FULL, Rt, R, F->N, &seq);
        rc = hyla_rt_seq_wait(&seq);
    }
    hyla_desc_destroy(&Xt);
    hyla_desc_destroy(&Rt);
    return rc;
}

// The first n rows of R from B, the rest zero.
static void load(int n, int N, int nrhs, const double *B, int ldb, double *R)
{
    for (int j = 0; j < nrhs; j++) {
        memcpy(R + (size_t)j * N, B + (size_t)j * ldb, sizeof(double) * n);
        memset(R + (size_t)j * N + n, 0, sizeof(double) * (N - n));
    }
}

// max |X(i, j)| over the n rows of column j.
static double col_max(int n, const double *X, int ldx, int j)
{
    double m = 0;
    for (int i = 0; i < n; i++) {
        double a = fabs(X[(size_t)j * ldx + i]);
        if (!(a <= m)) m = a; // keeps a NaN
    }
    return m;
}

// dsgesv's stopping rule: ||r||_inf <= ||x||_inf cte for every column,
// i.e. *worst = max ||r||_inf / (||x||_inf cte) <= 1.  1: met; 0: not
// yet; -1: a residual is not finite (no step can help).
static int converged(int n, int nrhs, const double *R, int ldr,
                     const double *X, int ldx, double cte, double *worst)
{
    *worst = 0;
    for (int j = 0; j < nrhs; j++) {
        double rn = col_max(n, R, ldr, j);
        if (!isfinite(rn)) return -1;
        double q = rn == 0 ? 0 : rn / (col_max(n, X, ldx, j) * cte);
        if (q > *worst) *worst = q;
    }
    return *worst <= 1;
}

// Whether the stopping rule says nothing for some column: 10 ||x||_inf
// cte > ||b||_inf, where even x = 0 (residual b) would nearly pass it.
// Then cond(A) is about 1 / (eps sqrt(n)) or more: an exactly singular A
// gives such an x (the pivots of LU without pivoting of the randomized A
// are rounding errors rather than zeros), where partial pivoting reports
// the zero pivot as LAPACK does.
static int vacuous(int n, int nrhs, const double *B, int ldb, const double *X,
                   int ldx, double cte)
{
    for (int j = 0; j < nrhs; j++)
        if (10 * col_max(n, X, ldx, j) * cte > col_max(n, B, ldb, j))
            return 1;
    return 0;
}

// LU with partial pivoting of A (from F's tiles), once, for this and
// later solves.
static int fall_back(hyla_drbt_t *F, hyla_rbt_fallback_t why)
{
    if (F->ipiv) return 0;
    size_t N = (size_t)F->N;
    F->Ap = malloc(sizeof(double) * N * N);
    F->ipiv = malloc(sizeof(int) * F->n);
    int rc = F->Ap && F->ipiv ? 0 : HYLA_ERR_OUT_OF_MEMORY;
    if (!rc) {
        hyla_seq_t seq;
        hyla_rt_seq_init(&seq, 0);
        hyla_pddesc_to_lap(HYLA_FULL, F->A, F->Ap, F->N, &seq);
        rc = hyla_rt_seq_wait(&seq);
    }
    if (!rc) rc = hyla_dgetrf(F->n, F->n, F->Ap, F->N, F->ipiv);
    if (rc < 0) {
        free(F->Ap);
        free(F->ipiv);
        F->Ap = NULL;
        F->ipiv = NULL;
        return rc;
    }
    F->why = why;
    F->info = rc;
    return 0;
}

// Refinement from Xp = the RBT solution (Xp and R N-by-nrhs, leading
// dimension N): 0 when it converged, else why it falls back (or a failure
// status < 0).
static int refine(hyla_drbt_t *F, int nrhs, const double *B, int ldb,
                  double *Xp, double *R, hyla_rbt_report_t *rep)
{
    int n = F->n, N = F->N;
    size_t count = (size_t)N * nrhs;
    double cte = F->anrm * (DBL_EPSILON / 2) * sqrt((double)n);
    load(n, N, nrhs, B, ldb, Xp);
    int rc = solve_once(F, nrhs, Xp);
    if (rc) return rc;
    double best = INFINITY;
    int stalled = 0; // steps in a row that did not improve on best
    for (int it = 0;; it++) {
        load(n, N, nrhs, B, ldb, R);
        if ((rc = residual(F, nrhs, Xp, R))) return rc;
        double worst;
        int c = converged(n, nrhs, R, N, Xp, N, cte, &worst);
        rep->iterations = it;
        // A step that does not reduce the scaled residual means either a
        // residual at the rounding level of its own computation in working
        // precision (n u ||A|| ||x||: worst = sqrt(n)), where it cannot
        // tell a better x, so x is accepted; or slow, erratic progress
        // (growth in the factors), given STALL steps before it falls back.
        int improved = worst < best;
        if (c == 1 || (!improved && c == 0 && worst <= sqrt((double)n)))
            return vacuous(n, nrhs, B, ldb, Xp, N, cte) ? HYLA_RBT_SINGULAR : 0;
        stalled = improved ? 0 : stalled + 1;
        if (improved) best = worst;
        if (c < 0 || it == F->max_iter || stalled == STALL)
            return HYLA_RBT_NO_CONVERGENCE;
        if ((rc = solve_once(F, nrhs, R))) return rc;
        for (size_t i = 0; i < count; i++)
            Xp[i] += R[i];
    }
}

HYLA_EXPORT int hyla_drbt_solve(hyla_drbt_t *F, int nrhs, const double *B,
                                int ldb, double *X, int ldx,
                                hyla_rbt_report_t *report)
{
    const char *r = "hyla_drbt_solve";
    int rc;
    if ((rc = hyla_rt_check_init(r)) ||
        (rc = hyla_rt_check_ptr(r, 1, "F", F, 1)) ||
        (rc = hyla_rt_check_dim(r, 2, "nrhs", nrhs)) ||
        (rc = hyla_rt_check_ptr(r, 3, "B", B, F->n && nrhs)) ||
        (rc = hyla_rt_check_ld(r, 4, "ldb", ldb, F->n)) ||
        (rc = hyla_rt_check_ptr(r, 5, "X", X, F->n && nrhs)) ||
        (rc = hyla_rt_check_ld(r, 6, "ldx", ldx, F->n)))
        return rc;
    hyla_rbt_report_t rep = {0, HYLA_RBT_NONE, F->zero};
    int n = F->n;
    if (n == 0 || nrhs == 0) goto done;
    if (!F->ipiv) {
        int why = HYLA_RBT_ZERO_PIVOT;
        if (!F->zero) {
            size_t size = (size_t)F->N * nrhs;
            double *Xp = malloc(sizeof(double) * 2 * size);
            if (!Xp)
                return hyla_rt_error(HYLA_ERR_OUT_OF_MEMORY, "%s: no memory",
                                     r);
            why = refine(F, nrhs, B, ldb, Xp, Xp + size, &rep);
            if (why == 0) // converged
                for (int j = 0; j < nrhs; j++)
                    memcpy(X + (size_t)j * ldx, Xp + (size_t)j * F->N,
                           sizeof(double) * n);
            free(Xp);
            if (why < 0) return why;
            if (why == 0) goto done;
        }
        if ((rc = fall_back(F, why))) return rc;
    }
    rep.fallback = F->why;
    rc = F->info; // A singular: X not computed
    if (!rc) {
        for (int j = 0; j < nrhs; j++)
            memcpy(X + (size_t)j * ldx, B + (size_t)j * ldb, sizeof(double) * n);
        rc = hyla_dgetrs('N', n, nrhs, F->Ap, F->N, F->ipiv, X, ldx);
    }
done:
    if (report) *report = rep;
    return rc;
}

HYLA_EXPORT int hyla_dgesv_rbt(int n, int nrhs, double *A, int lda, int *ipiv,
                               const double *B, int ldb, double *X, int ldx,
                               const hyla_rbt_opts_t *opts,
                               hyla_rbt_report_t *report)
{
    const char *r = "hyla_dgesv_rbt";
    hyla_rbt_opts_t o;
    int rc;
    if ((rc = hyla_rt_check_gesv(r, n, nrhs, A, lda, ipiv, B, ldb)) ||
        (rc = hyla_rt_check_ptr(r, 8, "X", X, n && nrhs)) ||
        (rc = hyla_rt_check_ld(r, 9, "ldx", ldx, n)) ||
        (rc = options(r, 10, opts, &o)))
        return rc;
    if (report) *report = (hyla_rbt_report_t){0, HYLA_RBT_NONE, 0};
    if (n == 0 || nrhs == 0) return 0;
    hyla_drbt_t *F;
    if ((rc = hyla_drbt_factor(n, A, lda, &o, &F))) return rc;
    rc = hyla_drbt_solve(F, nrhs, B, ldb, X, ldx, report);
    if (F->ipiv) {
        // As dsgesv: after a fall back A holds the LU factors.
        for (int j = 0; j < n; j++)
            memcpy(A + (size_t)j * lda, F->Ap + (size_t)j * F->N,
                   sizeof(double) * n);
        memcpy(ipiv, F->ipiv, sizeof(int) * n);
    }
    hyla_drbt_destroy(F);
    return rc;
}

// SPDX-License-Identifier: BSD-3-Clause
// hyla_dgesv_rbt and its factor / solve split: entry points.
// @precisions d -> s
#include "algorithms_d.h"
#include "cpu_d.h"

#include <cblas.h>
#include <float.h>
#include <lapack.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { DEFAULT_DEPTH = 2, MAX_DEPTH = 4, DEFAULT_ITER = 30 };

struct hyla_drbt {
    int n, N, depth, max_iter;
    double *Ap;      // A padded by the identity, N-by-N column-major
    double *w;       // the butterflies: U's levels, then V's (N apiece)
    hyla_desc_t *LU; // L and U of U^T Ap V, without pivoting
    int zero;        // first zero pivot of that LU (1-based), 0: none
    double anrm;     // ||A||_inf
    // After a fall back: Ap's leading n-by-n holds hyla_dgetrf's factors.
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
    free(F->Ap);
    free(F->w);
    free(F->ipiv);
    free(F);
}

static int factor(hyla_drbt_t *F, const double *A, int lda,
                  unsigned long long seed)
{
    int n = F->n, N, t, nu = F->depth;
    padded(n, nu, hyla_rt_config()->nb, &N, &t);
    F->N = N;
    F->Ap = calloc((size_t)N * N, sizeof(double));
    F->w = malloc(sizeof(double) * ((size_t)2 * nu * N + 1));
    if (!F->Ap || !F->w) return HYLA_ERR_OUT_OF_MEMORY;
    for (int j = 0; j < n; j++)
        memcpy(F->Ap + (size_t)j * N, A + (size_t)j * lda, sizeof(double) * n);
    for (int j = n; j < N; j++)
        F->Ap[(size_t)j * N + j] = 1;
    double *work = malloc(sizeof(double) * n);
    if (!work) return HYLA_ERR_OUT_OF_MEMORY;
    F->anrm = LAPACK_dlange("I", &n, &n, A, &lda, work);
    free(work);
    hyla_cpu_drbt_random(seed, (size_t)2 * nu * N, F->w);

    int rc = hyla_rt_desc_new(&F->LU, HYLA_DOUBLE, N, N, t);
    if (rc) return rc;
    hyla_seq_t seq;
    hyla_rt_seq_init(&seq, 0);
    hyla_pdlap_to_desc(HYLA_FULL, F->Ap, N, F->LU, &seq);
    hyla_pdrbt_two_sided(F->LU, nu, F->w, F->w + (size_t)nu * N, &seq);
    hyla_pdgetrf_nopiv(F->LU, hyla_rt_config()->lookahead, &seq);
    rc = hyla_rt_seq_wait(&seq);
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
    const double *v = F->w + (size_t)F->depth * F->N;
    hyla_seq_t seq;
    hyla_rt_seq_init(&seq, 0);
    hyla_pdlap_to_desc(HYLA_FULL, R, F->N, T, &seq);
    hyla_pdrbt_rows(HYLA_TRANS, T, F->depth, F->w, &seq);
    hyla_pdtrsm(HYLA_LOWER, HYLA_NO_TRANS, HYLA_UNIT, F->LU, T, &seq);
    hyla_pdtrsm(HYLA_UPPER, HYLA_NO_TRANS, HYLA_NON_UNIT, F->LU, T, &seq);
    hyla_pdrbt_rows(HYLA_NO_TRANS, T, F->depth, v, &seq);
    hyla_pddesc_to_lap(HYLA_FULL, T, R, F->N, &seq);
    rc = hyla_rt_seq_wait(&seq);
    hyla_desc_destroy(&T);
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

// LU with partial pivoting of F's copy of A, once, for this and later
// solves.
static int fall_back(hyla_drbt_t *F, hyla_rbt_fallback_t why)
{
    if (F->ipiv) return 0;
    F->ipiv = malloc(sizeof(int) * F->n);
    if (!F->ipiv) return HYLA_ERR_OUT_OF_MEMORY;
    F->why = why;
    int rc = hyla_dgetrf(F->n, F->n, F->Ap, F->N, F->ipiv);
    if (rc < 0) {
        free(F->ipiv);
        F->ipiv = NULL;
        return rc;
    }
    F->info = rc;
    return 0;
}

// Refinement from X = the RBT solution: 0 when it converged, else why it
// falls back (or a failure status < 0).
static int refine(hyla_drbt_t *F, int nrhs, const double *B, int ldb,
                  double *X, int ldx, double *R, hyla_rbt_report_t *rep)
{
    int n = F->n, N = F->N;
    double cte = F->anrm * (DBL_EPSILON / 2) * sqrt((double)n);
    load(n, N, nrhs, B, ldb, R);
    int rc = solve_once(F, nrhs, R);
    if (rc) return rc;
    for (int j = 0; j < nrhs; j++)
        memcpy(X + (size_t)j * ldx, R + (size_t)j * N, sizeof(double) * n);
    double last = INFINITY;
    for (int it = 0;; it++) {
        load(n, N, nrhs, B, ldb, R);
        cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, n, nrhs, n, -1.0,
                    F->Ap, N, X, ldx, 1.0, R, N);
        double worst;
        int c = converged(n, nrhs, R, N, X, ldx, cte, &worst);
        rep->iterations = it;
        if (c == 1)
            return vacuous(n, nrhs, B, ldb, X, ldx, cte) ? HYLA_RBT_SINGULAR
                                                         : 0;
        // A step that does not reduce the scaled residual means growth
        // in the factors beyond what refinement can repair: stop there.
        if (c < 0 || it == F->max_iter || !(worst < last))
            return HYLA_RBT_NO_CONVERGENCE;
        last = worst;
        if ((rc = solve_once(F, nrhs, R))) return rc;
        for (int j = 0; j < nrhs; j++)
            cblas_daxpy(n, 1.0, R + (size_t)j * N, 1, X + (size_t)j * ldx, 1);
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
            double *R = malloc(sizeof(double) * (size_t)F->N * nrhs);
            if (!R) return hyla_rt_error(HYLA_ERR_OUT_OF_MEMORY, "%s: no memory", r);
            why = refine(F, nrhs, B, ldb, X, ldx, R, &rep);
            free(R);
            if (why < 0) return why;
            if (why == 0) goto done; // converged
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

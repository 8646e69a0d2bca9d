// SPDX-License-Identifier: BSD-3-Clause
// hyla_dgesv_rbt and its factor / solve split: entry points.
// @precisions d -> s
#include "algorithms_d.h"
#include "cpu_d.h"

#include <cblas.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

// Refinement: at most RESTART GMRES steps per correction, aiming at
// MARGIN times below the stopping rule but at most INNER_FLOOR below the
// residual (the products by A round in working precision: GMRES's
// estimate of a smaller residual is not to be trusted); STALL corrections
// in a row without progress end it.
enum {
    DEFAULT_DEPTH = 2,
    MAX_DEPTH = 4,
    DEFAULT_ITER = 30,
    RESTART = 10,
    MARGIN = 4,
    STALL = 3
};
static const double INNER_FLOOR = 0.3;

struct hyla_drbt {
    int n, N, depth, max_iter;
    hyla_desc_t *A;     // A padded by the identity to N-by-N, for residuals
    int borrowed;       // A is the caller's tile matrix (not freed here)
    hyla_desc_t *LU;    // L and U of U^T A V without pivoting (tiles where
                        // the tasks left them)
    hyla_trsm_ws_t inv; // inverses of LU's diagonal tiles' L (tile row 0)
                        // and U (row 1), or none
    double *w;          // the butterflies: U's levels, then V's (N apiece)
    void *W;            // w as a runtime vector
    int zero;           // first zero pivot of that LU (1-based), 0: none
    double anrm;        // ||A||_inf
    // On a distributed A every process inserts the same tasks, and the
    // refinement's arithmetic on the column-major vectors is rank 0's
    // (root), which shares its decisions (share()).
    int root;
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
        return hyla_rt_error(-pos, "%s: opts->depth is %d, not in 0 .. %d", r,
                             o->depth, MAX_DEPTH);
    if (o->max_iter < 0)
        return hyla_rt_error(-pos, "%s: opts->max_iter is %d, below 0", r,
                             o->max_iter);
    return 0;
}

HYLA_EXPORT void hyla_drbt_destroy(hyla_drbt_t *F)
{
    if (!F) return;
    hyla_rt_trsm_ws_destroy(&F->inv);
    hyla_desc_destroy(&F->LU);
    if (!F->borrowed) hyla_desc_destroy(&F->A);
    hyla_rt_vector_destroy(F->W);
    free(F->w);
    free(F->Ap);
    free(F->ipiv);
    free(F);
}

// ||A||_inf from the row sums by tile column (hyla_pdlap_pad_to_desc), nt
// columns of N.
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
// in one graph: A (the column-major Af, or the tile matrix At) comes in by
// the groups of tile columns that the butterflies mix, and the
// randomization and LU of a group start once it is in.  In native mode Af
// first becomes tiles on the GPUs (hyla_rt_desc_copy: the copy is GPU
// tasks, while the padding copy from column-major is a CPU one), and
// takes At's way from there.
static int factor(hyla_drbt_t *F, const double *Af, int lda,
                  const hyla_desc_t *At, unsigned long long seed)
{
    int n = F->n, N, t, nu = F->depth;
    int nb, la;
    hyla_rt_tuned(HYLA_TUNE_RBT, HYLA_DOUBLE, n, &nb, &la);
    padded(n, nu, At ? At->nb : nb, &N, &t);
    F->N = N;
    size_t count = (size_t)2 * nu * N + 1;
    F->w = malloc(sizeof(double) * count);
    int rc = F->w ? 0 : HYLA_ERR_OUT_OF_MEMORY;
    hyla_desc_t *Ac = NULL;
    if (!rc && !At && hyla_rt_config()->mode == HYLA_MODE_NATIVE &&
        !(rc = hyla_rt_desc_copy(&Ac, HYLA_DOUBLE, n, n, t, Af, lda)))
        At = Ac;
    // The caller's tile matrix, when it needs no padding, is read where it
    // is: by the refinement's products, and once for the randomized copy
    // (a copy of A fewer: 42 ms of the 0.65 s at n = 32768 on one H100
    // went to the two, traced).  From tiles, the copy of A has no host
    // memory of its own: its tiles are made where A's are, and stay there.
    // A distributed At: the copies of A and the factors are distributed
    // over its grid, and every process makes the same butterflies.
    F->borrowed = !rc && At && !Ac && N == n && At->nb == t;
    if (F->borrowed) F->A = (hyla_desc_t *)At;
    if (!rc && At && !F->borrowed)
        rc = hyla_rt_desc_on(&F->A, HYLA_DOUBLE, N, N, t, 1, At);
    if (!rc && !At) rc = hyla_rt_desc_new(&F->A, HYLA_DOUBLE, N, N, t);
    if (!rc) rc = hyla_rt_desc_on(&F->LU, HYLA_DOUBLE, N, N, t, 1, At);
    int dist = !rc && F->LU->dist;
    F->root = !dist || hyla_rt_rank() == 0;
    // The row sums by tile column, in memory that GPUs copy to quickly;
    // from tiles they come back through runtime vectors, one a tile row
    // (each is unregistered on its own: with one a tile, 256 at n = 16384,
    // one H100 sat idle 2.8 to 5.8 ms after the LU, traced), and one per
    // process column on a distributed A: each process sums its own tiles'
    // rows, and the processes add up their sums.
    int nt = rc ? 0 : F->A->nt, cols = At ? 1 : nt, q = rc ? 1 : F->LU->q;
    size_t bytes = sizeof(double) * N * cols;
    double *sums = rc ? NULL : hyla_rt_staging_alloc(bytes);
    size_t nh = (size_t)nt * q;
    void **h = At && sums ? calloc(nh, sizeof *h) : NULL;
    if (!rc && (!sums || (At && !h))) rc = HYLA_ERR_OUT_OF_MEMORY;
    if (!rc) memset(sums, 0, bytes); // another process's rows stay 0
    for (size_t k = 0; !rc && h && k < nh; k++)
        rc = hyla_rt_vector_of_tile(&h[k], sums + (k % nt) * t, t,
                                    sizeof(double), F->LU, (int)(k % nt),
                                    (int)(k / nt));
    if (!rc) {
        hyla_cpu_drbt_random(seed, count - 1, F->w);
        rc = hyla_rt_vector_everywhere(&F->W, F->w, count, sizeof(double),
                                       F->LU);
    }
    // The inverses of the diagonal tiles' L and U (2 N t elements): the
    // LU's solves by those triangles are products by them when
    // hyla_rt_trsm_inverse says so, and on one GPU so are the
    // refinement's (hyla_pdtrsm).  Without pivoting L's entries are not
    // bounded by 1, and such a product errs by up to the tile's condition
    // number times eps, against eps times growth for the substitution.
    // In double the refinement pays for the difference; in single it
    // cannot: on random matrices of order 4096 to 16384 the inverses made
    // factors of up to 1e28, or not finite, where substitutions made them
    // of 1e6 as in double (docs/perf, "RBT in single precision").  So
    // single precision solves by substitution, whatever trsm_inverse says.
    // Distributed, the solves are substitutions.
    int inverses = !dist && sizeof(double) == 8;
    int inv = hyla_rt_trsm_inverse(0) && inverses;
    if (!rc && inverses && (inv || hyla_rt_gpus() == 1))
        rc = hyla_rt_inv_ws_create("hyla_drbt_factor", &F->inv, F->LU, 2);
    if (!rc) {
        hyla_seq_t seq;
        hyla_rt_seq_init_on(&seq, 0, F->LU);
        if (Ac) hyla_pdlap_to_desc(HYLA_FULL, Af, lda, Ac, &seq);
        if (At)
            hyla_pdtile_pad_to_desc(At, F->borrowed ? F->LU : F->A, h, 1 << nu,
                                    &seq);
        else
            hyla_pdlap_pad_to_desc(n, Af, lda, F->A, sums, 1 << nu, &seq);
        if (!F->borrowed) hyla_pdlacpy(F->A, F->LU, &seq);
        hyla_pdrbt_two_sided(F->LU, nu, F->W, 0, (size_t)nu * N, &seq);
        hyla_pdgetrf_nopiv(F->LU, la, &F->inv, inv, &seq);
        rc = hyla_rt_seq_wait(&seq);
    }
    if (h) hyla_rt_vectors_destroy(h, nh);
    free(h);
    hyla_desc_destroy(&Ac);
    if (sums && rc >= 0) {
        hyla_rt_mpi_sum(sums, (size_t)N * cols, HYLA_DOUBLE, F->LU);
        F->anrm = norm_inf(n, N, cols, sums);
    }
    hyla_rt_staging_free(sums, bytes);
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
    if (n > 0 && (rc = factor(f, A, lda, NULL, o.seed))) {
        hyla_drbt_destroy(f);
        return rc == HYLA_ERR_OUT_OF_MEMORY
                   ? hyla_rt_error(rc, "%s: no memory for the copies of A", r)
                   : rc;
    }
    *F = f;
    return 0;
}

// The refinement's right-hand sides in tiles (N-by-nrhs, tiles of the
// factors' size), made once per solve call: registering and pinning new
// ones for each step cost 1-2 ms of idle GPU per step at n = 16384.
typedef struct {
    hyla_desc_t *T, *X;
} rhs_tiles_t;

static int rhs_tiles_new(const hyla_drbt_t *F, int nrhs, rhs_tiles_t *w)
{
    *w = (rhs_tiles_t){NULL, NULL};
    int nb = F->LU->nb;
    int rc = hyla_rt_desc_on(&w->T, HYLA_DOUBLE, F->N, nrhs, nb, 0, F->LU);
    if (!rc) rc = hyla_rt_desc_on(&w->X, HYLA_DOUBLE, F->N, nrhs, nb, 0, F->LU);
    return rc;
}

static void rhs_tiles_free(rhs_tiles_t *w)
{
    hyla_desc_destroy(&w->T);
    hyla_desc_destroy(&w->X);
}

// The column-major N-by-nrhs R as the tiles T and back, in seq.  On a
// distributed T, R is rank 0's, cut into blocks registered as data by
// host_blocks (*b, for after the wait: hyla_rt_lap_blocks_destroy); *b
// is NULL otherwise.
static int host_blocks(const double *R, int N, const hyla_desc_t *T, void ***b)
{
    *b = NULL;
    return T->dist ? hyla_rt_lap_blocks_create(b, T, R, N) : 0;
}

static void host_in(const double *R, int N, const hyla_desc_t *T, void **b,
                    hyla_seq_t *seq)
{
    if (b)
        hyla_pdlap_blocks_to_desc(b, T, seq);
    else
        hyla_pdlap_to_desc(HYLA_FULL, R, N, T, seq);
}

static void host_out(const hyla_desc_t *T, double *R, int N, void **b,
                     hyla_seq_t *seq)
{
    if (b)
        hyla_pddesc_to_lap_blocks(T, b, seq);
    else
        hyla_pddesc_to_lap(HYLA_FULL, T, R, N, seq);
}

// R = V U^-1 L^-1 U^T R for N-by-nrhs R (column-major, leading dimension
// N): the solve by the randomized factors, through w->T; with X (the
// same shape), R = V U^-1 L^-1 U^T A X, a GMRES step's vector, whose
// product by A stays in tiles rather than crossing to the host and back.
static int solve_once(const hyla_drbt_t *F, const rhs_tiles_t *w,
                      const double *X, double *R)
{
    hyla_desc_t *T = w->T;
    hyla_seq_t seq;
    hyla_rt_seq_init_on(&seq, 0, F->LU);
    void **b, **bx = NULL;
    int rc = host_blocks(R, F->N, T, &b);
    if (!rc && X) rc = host_blocks(X, F->N, w->X, &bx);
    if (!rc) {
        if (X) {
            host_in(X, F->N, w->X, bx, &seq);
            hyla_pdgemm(1.0, F->A, w->X, 0.0, T, &seq);
        } else {
            host_in(R, F->N, T, b, &seq);
        }
        hyla_pdrbt_rows(HYLA_TRANS, T, F->depth, F->W, 0, &seq);
        hyla_pdtrsm(HYLA_LOWER, HYLA_NO_TRANS, HYLA_UNIT, F->LU, &F->inv, 0, T,
                    &seq);
        hyla_pdtrsm(HYLA_UPPER, HYLA_NO_TRANS, HYLA_NON_UNIT, F->LU, &F->inv, 1,
                    T, &seq);
        hyla_pdrbt_rows(HYLA_NO_TRANS, T, F->depth, F->W,
                        (size_t)F->depth * F->N, &seq);
        host_out(T, R, F->N, b, &seq);
    }
    int st = hyla_rt_seq_wait(&seq);
    hyla_rt_lap_blocks_destroy(b, T);
    hyla_rt_lap_blocks_destroy(bx, w->X);
    return rc ? rc : st;
}

// R -= A X for N-by-nrhs R and X (column-major, leading dimension N),
// on the tiles of A, where they are, through w's tiles: the residual.
static int residual(const hyla_drbt_t *F, const rhs_tiles_t *w, const double *X,
                    double *R)
{
    hyla_seq_t seq;
    hyla_rt_seq_init_on(&seq, 0, F->LU);
    void **bx, **br = NULL;
    int rc = host_blocks(X, F->N, w->X, &bx);
    if (!rc) rc = host_blocks(R, F->N, w->T, &br);
    if (!rc) {
        host_in(X, F->N, w->X, bx, &seq);
        host_in(R, F->N, w->T, br, &seq);
        hyla_pdgemm(-1.0, F->A, w->X, 1.0, w->T, &seq);
        host_out(w->T, R, F->N, br, &seq);
    }
    int st = hyla_rt_seq_wait(&seq);
    hyla_rt_lap_blocks_destroy(bx, w->X);
    hyla_rt_lap_blocks_destroy(br, w->T);
    return rc ? rc : st;
}

// Rank 0's `bytes` at v to every process of a distributed solve.
static void share(const hyla_drbt_t *F, void *v, size_t bytes)
{
    hyla_rt_mpi_bcast(v, bytes, F->LU);
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
// i.e. *worst = max q_j <= 1, q_j = ||r_j||_inf / (||x_j||_inf cte).
// 1: met; 0: not yet; -1: a residual is not finite (no step can help).
static int converged(int n, int nrhs, const double *R, int ldr, const double *X,
                     int ldx, double cte, double *worst, double *q)
{
    *worst = 0;
    for (int j = 0; j < nrhs; j++) {
        double rn = col_max(n, R, ldr, j);
        if (!isfinite(rn)) return -1;
        q[j] = rn == 0 ? 0 : rn / (col_max(n, X, ldx, j) * cte);
        if (q[j] > *worst) *worst = q[j];
    }
    return *worst <= 1;
}

// Whether A is singular to working precision: ||A||_inf ||x||_inf /
// ||b||_inf, a lower bound of cond_inf(A), above 1 / (20 u) for some
// column (LAPACK's gesvx says so where rcond < eps).  An exactly singular
// A gives such an x with a small residual, the pivots of LU without
// pivoting of the randomized A being rounding errors rather than zeros;
// partial pivoting then reports the zero pivot as LAPACK does.
static int singular(int n, int nrhs, const double *B, int ldb, const double *X,
                    int ldx, double anrm)
{
    for (int j = 0; j < nrhs; j++)
        if (20 * col_max(n, X, ldx, j) * anrm * (DBL_EPSILON / 2) >
            col_max(n, B, ldb, j))
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

// The Krylov space of a correction, for each right-hand side j: the
// basis V (vector i of every column: the N-by-nrhs block V + i N nrhs),
// the Hessenberg matrix H_j ((m + 1)-by-m, by columns) reduced by Givens
// rotations (cs, sn), the rotated right side g_j, and beta_j, the norm of
// the first vector; tol_j, how much the correction should reduce it;
// q_j, column j's residual against the stopping rule (converged()).
typedef struct {
    int m, nrhs, N;
    double *V, *H, *cs, *sn, *g, *beta, *tol, *q;
    int *len;  // basis vectors in the correction of column j
    int *live; // whether column j goes on
} krylov_t;

static void krylov_free(krylov_t *K)
{
    free(K->V);
    free(K->H);
    free(K->cs);
}

// m = RESTART basis vectors, fewer where more right-hand sides than
// N / RESTART: the basis stays within the size of A.
static int krylov_new(krylov_t *K, int N, int nrhs)
{
    int m = N / nrhs - 1;
    K->m = m < 1 ? 1 : m > RESTART ? RESTART : m;
    K->nrhs = nrhs;
    K->N = N;
    size_t r = (size_t)K->m + 1;
    K->V = malloc(sizeof(double) * r * N * nrhs);
    K->H = malloc(sizeof(double) * r * K->m * nrhs);
    // cs, sn (m each), g (m + 1), beta, tol, q by column, then len, live.
    K->cs = malloc((sizeof(double) * (3 * r + 2) + 2 * sizeof(int)) * nrhs);
    K->sn = K->cs + (size_t)K->m * nrhs;
    K->g = K->sn + (size_t)K->m * nrhs;
    K->beta = K->g + r * nrhs;
    K->tol = K->beta + nrhs;
    K->q = K->tol + nrhs;
    K->len = (int *)(K->q + nrhs);
    K->live = K->len + nrhs;
    if (K->V && K->H && K->cs) return 0;
    krylov_free(K);
    return HYLA_ERR_OUT_OF_MEMORY;
}

// Step k of GMRES for column j, whose new vector w = M^-1 A v_k is in V
// block k + 1: orthogonalize it against the basis (modified Gram-Schmidt),
// rotate the new column of H into upper triangular form, and return the
// residual norm of the least-squares problem (-1: the basis cannot grow).
static double arnoldi(krylov_t *K, int j, int k)
{
    size_t Nn = (size_t)K->N * K->nrhs;
    double *w = K->V + (k + 1) * Nn + (size_t)j * K->N;
    double *h = K->H + ((size_t)j * K->m + k) * (K->m + 1);
    double *cs = K->cs + (size_t)j * K->m, *sn = K->sn + (size_t)j * K->m;
    double *g = K->g + (size_t)j * (K->m + 1);
    for (int i = 0; i <= k; i++) {
        const double *v = K->V + i * Nn + (size_t)j * K->N;
        h[i] = cblas_ddot(K->N, w, 1, v, 1);
        cblas_daxpy(K->N, -h[i], v, 1, w, 1);
    }
    h[k + 1] = cblas_dnrm2(K->N, w, 1);
    if (h[k + 1] > 0) cblas_dscal(K->N, 1 / h[k + 1], w, 1);
    for (int i = 0; i < k; i++) {
        double t = cs[i] * h[i] + sn[i] * h[i + 1];
        h[i + 1] = cs[i] * h[i + 1] - sn[i] * h[i];
        h[i] = t;
    }
    double r = hypot(h[k], h[k + 1]);
    if (!(r > 0)) return -1; // also a NaN
    cs[k] = h[k] / r;
    sn[k] = h[k + 1] / r;
    h[k] = r;
    h[k + 1] = 0;
    g[k + 1] = -sn[k] * g[k];
    g[k] = cs[k] * g[k];
    K->len[j] = k + 1;
    return fabs(g[k + 1]);
}

// X += the correction of column j: sum of y_i v_i over its basis, where
// H y = g (upper triangular after the rotations).
static void correct(krylov_t *K, int j, double *X)
{
    int len = K->len[j];
    size_t Nn = (size_t)K->N * K->nrhs;
    const double *H = K->H + (size_t)j * K->m * (K->m + 1);
    double *y = K->g + (size_t)j * (K->m + 1);
    for (int i = len - 1; i >= 0; i--) {
        for (int l = i + 1; l < len; l++)
            y[i] -= H[(size_t)l * (K->m + 1) + i] * y[l];
        y[i] /= H[(size_t)i * (K->m + 1) + i];
    }
    for (int i = 0; i < len; i++)
        cblas_daxpy(K->N, y[i], K->V + i * Nn + (size_t)j * K->N, 1,
                    X + (size_t)j * K->N, 1);
}

// One correction of X from the residual R (overwritten), M = the
// randomized LU: z = M^-1 R, then up to `steps` steps of GMRES on
// M^-1 A d = z (GMRES-based refinement), each one product by A and one
// solve, all columns together.  Column j stops where its preconditioned
// residual fell by tol_j = max(1 / (MARGIN q_j), INNER_FLOOR); a column
// that took no step gets d = z, plain refinement's.  *used counts the
// solves against budget.
static int correction(const hyla_drbt_t *F, const rhs_tiles_t *wt, krylov_t *K,
                      int steps, const double *q, double *R, double *X,
                      int budget, int *used)
{
    int N = K->N, nrhs = K->nrhs, rc;
    size_t Nn = (size_t)N * nrhs;
    if ((rc = solve_once(F, wt, NULL, R))) return rc;
    ++*used;
    int active = 0;
    if (F->root) memcpy(K->V, R, sizeof(double) * Nn);
    for (int j = 0; F->root && j < nrhs; j++) {
        double *v = K->V + (size_t)j * N;
        double b = cblas_dnrm2(N, v, 1);
        K->beta[j] = b;
        K->g[(size_t)j * (K->m + 1)] = b;
        K->tol[j] = fmax(1 / (MARGIN * q[j]), INNER_FLOOR);
        K->len[j] = 0;
        // b = 0: nothing to correct; not finite: nothing to trust.
        K->live[j] = b > 0 && isfinite(b);
        if (K->live[j]) cblas_dscal(N, 1 / b, v, 1);
        active |= K->live[j];
    }
    share(F, &active, sizeof active);
    for (int k = 0; k < steps && active && *used < budget; k++) {
        double *v = K->V + k * Nn, *w = v + Nn;
        if ((rc = solve_once(F, wt, v, w))) return rc;
        ++*used;
        active = 0;
        for (int j = 0; F->root && j < nrhs; j++)
            if (K->live[j]) {
                double res = arnoldi(K, j, k);
                K->live[j] = res > K->tol[j] * K->beta[j];
                active |= K->live[j];
            }
        share(F, &active, sizeof active);
    }
    for (int j = 0; F->root && j < nrhs; j++) {
        double *x = X + (size_t)j * N;
        if (K->len[j] > 0)
            correct(K, j, X);
        else if (K->beta[j] > 0 && isfinite(K->beta[j]))
            cblas_daxpy(N, 1.0, R + (size_t)j * N, 1, x, 1);
    }
    return 0;
}

// Refinement from Xp = the RBT solution (Xp and R N-by-nrhs, leading
// dimension N): 0 when it converged, else why it falls back (or a failure
// status < 0).  Plain refinement (x += M^-1 r) while each correction
// halves the residual; GMRES corrections from the first that does not.
static int refine(hyla_drbt_t *F, int nrhs, const double *B, int ldb,
                  double *Xp, double *R, hyla_rbt_report_t *rep)
{
    int n = F->n, N = F->N;
    double cte = F->anrm * (DBL_EPSILON / 2) * sqrt((double)n);
    if (F->root) load(n, N, nrhs, B, ldb, Xp);
    rhs_tiles_t wt;
    int rc = rhs_tiles_new(F, nrhs, &wt);
    if (!rc) rc = solve_once(F, &wt, NULL, Xp);
    krylov_t K;
    if (rc || (rc = krylov_new(&K, N, nrhs))) {
        rhs_tiles_free(&wt);
        return rc;
    }
    double best = INFINITY, last = INFINITY;
    int stalled = 0; // corrections in a row that did not improve on best
    int used = 0, steps = 0;
    for (;;) {
        if (F->root) load(n, N, nrhs, B, ldb, R);
        if ((rc = residual(F, &wt, Xp, R))) break;
        // Whether it converged, how far it is, whether x shows A singular.
        struct {
            double worst;
            int c, singular;
        } v = {0, 0, 0};
        if (F->root) {
            v.c = converged(n, nrhs, R, N, Xp, N, cte, &v.worst, K.q);
            v.singular = singular(n, nrhs, B, ldb, Xp, N, F->anrm);
        }
        share(F, &v, sizeof v);
        double worst = v.worst;
        int c = v.c;
        rep->iterations = used;
        // A correction that does not reduce the scaled residual means
        // either a residual at the rounding level of its own computation
        // in working precision (n u ||A|| ||x||: worst = sqrt(n)), where it
        // cannot tell a better x, so x is accepted; or erratic progress,
        // given STALL corrections before it falls back.
        int improved = worst < best;
        if (c == 1 || (!improved && c == 0 && worst <= sqrt((double)n))) {
            rc = v.singular ? HYLA_RBT_SINGULAR : 0;
            break;
        }
        stalled = improved ? 0 : stalled + 1;
        if (improved) best = worst;
        if (c < 0 || used >= F->max_iter || stalled == STALL) {
            rc = HYLA_RBT_NO_CONVERGENCE;
            break;
        }
        if (worst > last / 2) steps = K.m;
        last = worst;
        if ((rc =
                 correction(F, &wt, &K, steps, K.q, R, Xp, F->max_iter, &used)))
            break;
    }
    krylov_free(&K);
    rhs_tiles_free(&wt);
    return rc;
}

// X from the randomized factors and refinement: 0, or why it falls back
// (X then undefined), or a failure status < 0.
static int rbt_solve(hyla_drbt_t *F, int nrhs, const double *B, int ldb,
                     double *X, int ldx, hyla_rbt_report_t *rep)
{
    if (F->zero) return HYLA_RBT_ZERO_PIVOT;
    size_t size = (size_t)F->N * nrhs;
    // X and the residual cross to the GPUs several times a step: pinned,
    // each copy is one asynchronous transfer.
    size_t bytes = sizeof(double) * 2 * size;
    double *Xp = hyla_rt_staging_alloc(bytes);
    if (!Xp) return HYLA_ERR_OUT_OF_MEMORY;
    int why = refine(F, nrhs, B, ldb, Xp, Xp + size, rep);
    if (why == 0) // converged
        for (int j = 0; j < nrhs; j++)
            memcpy(X + (size_t)j * ldx, Xp + (size_t)j * F->N,
                   sizeof(double) * F->n);
    hyla_rt_staging_free(Xp, bytes);
    return why;
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
        int why = rbt_solve(F, nrhs, B, ldb, X, ldx, &rep);
        if (why == HYLA_ERR_OUT_OF_MEMORY)
            return hyla_rt_error(why, "%s: no memory", r);
        if (why <= 0) {
            rc = why;
            goto done;
        }
        if ((rc = fall_back(F, why))) return rc;
    }
    rep.fallback = F->why;
    rc = F->info; // A singular: X not computed
    if (!rc) {
        for (int j = 0; j < nrhs; j++)
            memcpy(X + (size_t)j * ldx, B + (size_t)j * ldb,
                   sizeof(double) * n);
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

HYLA_EXPORT int hyla_dgesv_rbt_tile(hyla_desc_t *A, int *ipiv,
                                    const hyla_desc_t *B, hyla_desc_t *X,
                                    const hyla_rbt_opts_t *opts,
                                    hyla_rbt_report_t *report)
{
    const char *r = "hyla_dgesv_rbt_tile";
    hyla_rbt_opts_t o;
    int rc;
    if ((rc = hyla_rt_check_init(r)) ||
        (rc = hyla_rt_check_desc_any(r, 1, A, HYLA_DOUBLE)) ||
        (rc = hyla_rt_check_desc_any(r, 3, B, HYLA_DOUBLE)) ||
        (rc = hyla_rt_check_rhs(r, 1, A, 3, B)) ||
        (rc = hyla_rt_check_desc_any(r, 4, X, HYLA_DOUBLE)))
        return rc;
    if (X->m != B->m || X->n != B->n || X->nb != B->nb)
        return hyla_rt_error(-4,
                             "%s: X is %d x %d in tiles of %d; B is %d x %d "
                             "in tiles of %d",
                             r, X->m, X->n, X->nb, B->m, B->n, B->nb);
    if (X->dist != B->dist || X->p != B->p || X->q != B->q)
        return hyla_rt_error(-4, "%s: X is not distributed as B", r);
    // ipiv and opts are each process's own; on a distributed A every
    // process must take rank 0's opts (the same butterflies).
    rc = hyla_rt_check_ptr(r, 2, "ipiv", ipiv, A->n);
    if (!rc) rc = options(r, 5, opts, &o);
    if ((rc = hyla_rt_check_agree(r, A, rc))) return rc;
    hyla_rt_mpi_bcast(&o, sizeof o, A);
    int n = A->n, nrhs = B->n;
    hyla_rbt_report_t rep = {0, HYLA_RBT_NONE, 0};
    if (n == 0 || nrhs == 0) goto done;
    hyla_drbt_t *F = calloc(1, sizeof *F);
    size_t size = (size_t)n * nrhs;
    double *Bf = malloc(sizeof(double) * 2 * size), *Xf = Bf ? Bf + size : NULL;
    if (!F || !Bf) {
        free(F);
        free(Bf);
        return hyla_rt_error(HYLA_ERR_OUT_OF_MEMORY, "%s: no memory", r);
    }
    *F = (hyla_drbt_t){.n = n, .depth = o.depth, .max_iter = o.max_iter};
    // B and X are small beside A: the refinement keeps them column-major
    // (on rank 0 when distributed).
    if (!(rc = factor(F, NULL, 0, A, o.seed)) &&
        !(rc = hyla_ddesc_to_lap(B, Bf, n))) {
        rep.zero_pivot = F->zero;
        rc = rbt_solve(F, nrhs, Bf, n, Xf, n, &rep);
        if (rc == 0) rc = hyla_dlap_to_desc(Xf, n, X);
    }
    hyla_drbt_destroy(F);
    free(Bf);
    if (rc > 0) {
        // The fall back: hyla_dgesv_tile on A, B's copy in X.
        rep.fallback = (hyla_rbt_fallback_t)rc;
        hyla_seq_t seq;
        hyla_rt_seq_init_on(&seq, 0, A);
        hyla_pdlacpy(B, X, &seq);
        rc = hyla_rt_seq_wait(&seq);
        if (!rc) rc = hyla_dgesv_tile(A, ipiv, X);
    } else if (rc == HYLA_ERR_OUT_OF_MEMORY) {
        return hyla_rt_error(rc, "%s: no memory for the copies of A", r);
    }
done:
    if (report) *report = rep;
    return rc;
}

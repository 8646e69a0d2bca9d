// SPDX-License-Identifier: BSD-3-Clause
// hyla-bench cases, double precision.  @precisions d -> s
#include "bench.h"
#include "energy.h"
#include "check.h"
#include "check_par.h"

#include <cblas.h>
#include <hyla.h>
#include <lapack.h>
#include <lapacke.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifdef HYLA_BENCH_CUSOLVER
#include <cuda_runtime.h>
#endif

enum { GETRF, POTRF, GESV, POSV, GESV_RBT };

static const char *const routine_names[] = {"getrf", "potrf", "gesv", "posv",
                                            "gesv_rbt"};

static int routine_id(const char *name)
{
    for (int i = 0; i < 5; i++)
        if (!strcmp(name, routine_names[i])) return i;
    return -1;
}

// The input of a case: A (and B for the solves), from the case's seed.
typedef struct {
    int id, m, n, nrhs;
    int rbt_depth, rbt_iter; // gesv_rbt's depth (-1: default), steps
    int rbt_fallback;        // and why it fell back (-1: not run)
    int on_gpu;              // tiles placed on the GPUs before the timed call
    int ref_gpus;            // GPUs of the cuSolverMg reference
    double *A0, *B0;         // originals
    double *A, *B;           // work copies
    double *X;               // gesv_rbt's solution (B is only read)
    int *ipiv;
} input_t;

// The originals of the last case, kept for the next measure() of the same
// case (the reference and hyla run on one matrix, generated once).
static struct {
    int id, m, n, nrhs, seed;
    double *A0, *B0;
} last = {.id = -1};

static void free_last(void)
{
    free(last.A0);
    free(last.B0);
}

static int input_make(const bench_case_t *c, input_t *in)
{
    in->id = routine_id(c->routine);
    if (in->id < 0) return -1;
    in->on_gpu = c->on_gpu;
    in->rbt_depth = c->rbt_depth;
    in->rbt_iter = -1;
    in->rbt_fallback = -1;
    in->ref_gpus = c->ref_gpus;
    int n = in->n = c->n;
    int m = in->m = in->id == GETRF && c->m > 0 ? c->m : n;
    in->nrhs = in->id == GETRF || in->id == POTRF ? 0 : c->nrhs;
    size_t nn = (size_t)m * n, nb = (size_t)n * in->nrhs;
    in->A = malloc(sizeof(double) * (nn ? nn : 1));
    in->B = malloc(sizeof(double) * (nb ? nb : 1));
    in->X = malloc(sizeof(double) * (nb ? nb : 1));
    in->ipiv = malloc(sizeof(int) * (m < n ? m + 1 : n + 1));
    if (last.id != in->id || last.m != m || last.n != n ||
        last.nrhs != in->nrhs || last.seed != c->seed) {
        if (last.id < 0) atexit(free_last);
        free_last();
        last.id = in->id, last.m = m, last.n = n, last.nrhs = in->nrhs;
        last.seed = c->seed;
        last.A0 = malloc(sizeof(double) * (nn ? nn : 1));
        last.B0 = malloc(sizeof(double) * (nb ? nb : 1));
        if (in->id == POTRF || in->id == POSV)
            hyla_check_dgen_spd(n, last.A0, n, c->seed);
        else
            hyla_check_dgen(m, n, last.A0, m, c->seed);
        hyla_check_dgen(n, in->nrhs, last.B0, n, c->seed + 1);
    }
    in->A0 = last.A0;
    in->B0 = last.B0;
    return 0;
}

static void input_reset(input_t *in)
{
    hyla_check_memcpy(in->A, in->A0, sizeof(double) * in->m * in->n);
    memcpy(in->B, in->B0, sizeof(double) * in->n * in->nrhs);
}

// The originals stay (`last`) for the next measure().
static void input_free(input_t *in)
{
    free(in->A);
    free(in->B);
    free(in->X);
    free(in->ipiv);
}

// The residual of the routine's output, in O(n^2) for the factorizations.
static double residual(const input_t *in)
{
    int n = in->n;
    switch (in->id) {
    case GETRF:
        return hyla_check_dresid_getrf_probe(in->m, n, in->A0, in->m, in->A,
                                             in->m, in->ipiv);
    case POTRF:
        return hyla_check_dresid_potrf_probe('L', n, in->A0, n, in->A, n);
    default:
        return hyla_check_dresid_solve('N', n, in->nrhs, in->A0, n, in->B, n,
                                       in->B0, n);
    }
}

static int run_lapack(input_t *in, const char *ref);

// The reference; *seconds gets its time.  cuSOLVER (CUDA builds) times
// the factorization alone, with the matrix already on the GPU.
static int run_ref(input_t *in, const char *ref, seconds_t *seconds)
{
    if (ref && !strcmp(ref, "cusolver")) {
#ifdef HYLA_BENCH_CUSOLVER
        int potrf = in->id == POTRF || in->id == POSV;
        return bench_dcusolver(potrf, in->m, in->n, in->A, in->ipiv, in->nrhs,
                               in->nrhs ? in->B : NULL, seconds);
#endif
        return -2000; // not in this build
    }
    if (ref && !strcmp(ref, "cusolvermg")) {
#ifdef HYLA_BENCH_CUSOLVER
        if (in->id == GETRF || in->id == POTRF)
            return bench_dcusolvermg(in->id == POTRF, in->m, in->n,
                                     in->ref_gpus, in->A, in->ipiv, seconds);
#endif
        return -2000;
    }
    seconds_t t = bench_now();
    int info = run_lapack(in, ref);
    *seconds = bench_now() - t;
    energy_mark(t, t + *seconds);
    return info;
}

static int run_lapack(input_t *in, const char *ref)
{
    int n = in->n, m = in->m;
    switch (in->id) {
    case GETRF:
        if (ref && !strcmp(ref, "getf2")) {
            // The unblocked, column-at-a-time algorithm.
            int info;
            LAPACK_dgetf2(&m, &n, in->A, &m, in->ipiv, &info);
            return info;
        }
        return LAPACKE_dgetrf(LAPACK_COL_MAJOR, m, n, in->A, m, in->ipiv);
    case POTRF: return LAPACKE_dpotrf(LAPACK_COL_MAJOR, 'L', n, in->A, n);
    case GESV:
    case GESV_RBT: // against LAPACK's dgesv
        return LAPACKE_dgesv(LAPACK_COL_MAJOR, n, in->nrhs, in->A, n, in->ipiv,
                             in->B, n);
    default:
        return LAPACKE_dposv(LAPACK_COL_MAJOR, 'L', n, in->nrhs, in->A, n,
                             in->B, n);
    }
}

// hyla_dgesv_rbt, its solution then copied to B (for the residual); says
// on stderr when it fell back to partial pivoting.
static int run_rbt(input_t *in)
{
    int n = in->n;
    hyla_rbt_report_t rep;
    hyla_rbt_opts_t opts = HYLA_RBT_OPTS_DEFAULT;
    opts.depth = in->rbt_depth;
    int rc = hyla_dgesv_rbt(n, in->nrhs, in->A, n, in->ipiv, in->B, n, in->X, n,
                            &opts, &rep);
    in->rbt_iter = rep.iterations;
    in->rbt_fallback = (int)rep.fallback;
    memcpy(in->B, in->X, sizeof(double) * n * in->nrhs);
    if (rep.fallback != HYLA_RBT_NONE)
        fprintf(stderr,
                "hyla-bench: dgesv_rbt n=%d fell back (%d) after %d "
                "steps\n",
                n, (int)rep.fallback, rep.iterations);
    return rc;
}

static int run_hyla_lapack(input_t *in)
{
    int n = in->n;
    switch (in->id) {
    case GETRF: return hyla_dgetrf(in->m, n, in->A, in->m, in->ipiv);
    case POTRF: return hyla_dpotrf('L', n, in->A, n);
    case GESV: return hyla_dgesv(n, in->nrhs, in->A, n, in->ipiv, in->B, n);
    case GESV_RBT: return run_rbt(in);
    default: return hyla_dposv('L', n, in->nrhs, in->A, n, in->B, n);
    }
}

// hyla_dgesv_rbt_tile into X, its report kept as run_rbt does.
static int run_rbt_tile(input_t *in, hyla_desc_t *A, hyla_desc_t *B,
                        hyla_desc_t *X)
{
    hyla_rbt_report_t rep;
    hyla_rbt_opts_t opts = HYLA_RBT_OPTS_DEFAULT;
    opts.depth = in->rbt_depth;
    int rc = hyla_dgesv_rbt_tile(A, in->ipiv, B, X, &opts, &rep);
    in->rbt_iter = rep.iterations;
    in->rbt_fallback = (int)rep.fallback;
    if (rep.fallback != HYLA_RBT_NONE)
        fprintf(stderr,
                "hyla-bench: dgesv_rbt_tile n=%d fell back (%d) after "
                "%d steps\n",
                in->n, (int)rep.fallback, rep.iterations);
    return rc;
}

// Tile level: only the factorization (or solve) is timed; copies in and
// out of the tile layout are not.  The tiles are of the size the routine's
// LAPACK-layout call would take (hyla_tuned).
static int run_hyla_tile(input_t *in, seconds_t *seconds)
{
    int n = in->n, m = in->m, rc, rbt = in->id == GESV_RBT, nb = 0;
    hyla_tuned(routine_names[in->id], sizeof(double) == 8 ? 'd' : 's',
               m > n ? m : n, &nb, NULL);
    hyla_desc_t *A = NULL, *B = NULL, *X = NULL;
    if ((rc = hyla_desc_create(&A, HYLA_DOUBLE, m, n, nb)) ||
        (rc = hyla_desc_create(&B, HYLA_DOUBLE, n, in->nrhs, nb)) ||
        (rbt && (rc = hyla_desc_create(&X, HYLA_DOUBLE, n, in->nrhs, nb))) ||
        (rc = hyla_dlap_to_desc(in->A, m, A)) ||
        (in->nrhs && (rc = hyla_dlap_to_desc(in->B, n, B))))
        goto out;
    if (in->on_gpu && (rc = hyla_desc_place(A, HYLA_PLACE_GPUS))) goto out;
    seconds_t t = bench_now();
    switch (in->id) {
    case GETRF: rc = hyla_dgetrf_tile(A, in->ipiv); break;
    case POTRF: rc = hyla_dpotrf_tile('L', A); break;
    case GESV: rc = hyla_dgesv_tile(A, in->ipiv, B); break;
    case GESV_RBT: rc = run_rbt_tile(in, A, B, X); break;
    default: rc = hyla_dposv_tile('L', A, B);
    }
    *seconds = bench_now() - t;
    energy_mark(t, t + *seconds);
    // The solution goes to in->B (for the residual), from X for RBT.
    if (rc >= 0 && !hyla_ddesc_to_lap(A, in->A, m) && in->nrhs)
        hyla_ddesc_to_lap(rbt ? X : B, in->B, n);
out:
    hyla_desc_destroy(&A);
    hyla_desc_destroy(&B);
    hyla_desc_destroy(&X);
    return rc;
}

// --in-tiles: the matrix of the case generated in tiles of nb, from row
// i0 on (a block of order-n's matrix A: a block of tile rows, or all).
static int generate(int potrf, int n, hyla_desc_t *A, int i0, int seed)
{
    return potrf ? hyla_dplgsy_tile(n, A, i0, 0, (unsigned)seed)
                 : hyla_dplrnt_tile(A, i0, 0, (unsigned)seed);
}

// One thread's rows [i0, i1) of a block of rows of A (column-major, n
// columns): the largest |b_i - (A x)_i| and the largest row sum of |A|,
// in one pass over the block, summed in double.
typedef struct {
    const double *a, *x, *b;
    int lda, n, i0, i1;
    bench_sum_t rnorm, anorm;
} rows_share_t;

// |v| without fabs, which the precision generator makes fabsf.
static bench_sum_t magnitude(bench_sum_t v)
{
    return v < 0 ? -v : v;
}

static void *rows_share(void *p)
{
    rows_share_t *s = p;
    int k = s->i1 - s->i0;
    bench_sum_t *r = malloc(sizeof(bench_sum_t) * k);
    bench_sum_t *sum = calloc(k, sizeof(bench_sum_t));
    s->rnorm = s->anorm = 0;
    if (!r || !sum) {
        free(r);
        free(sum);
        s->rnorm = s->anorm = NAN; // makes the residual NaN, not a pass
        return NULL;
    }
    for (int i = 0; i < k; i++)
        r[i] = s->b[s->i0 + i];
    // Four columns a sweep: a quarter of the loads and stores of r and sum.
    const double *a = s->a + s->i0;
    size_t ld = (size_t)s->lda;
    int j = 0;
    for (; j + 4 <= s->n; j += 4) {
        const double *a0 = a + j * ld, *a1 = a0 + ld, *a2 = a1 + ld,
                     *a3 = a2 + ld;
        bench_sum_t x0 = s->x[j], x1 = s->x[j + 1], x2 = s->x[j + 2],
                    x3 = s->x[j + 3];
        for (int i = 0; i < k; i++) {
            bench_sum_t v0 = a0[i], v1 = a1[i], v2 = a2[i], v3 = a3[i];
            r[i] -= v0 * x0 + v1 * x1 + v2 * x2 + v3 * x3;
            sum[i] +=
                magnitude(v0) + magnitude(v1) + magnitude(v2) + magnitude(v3);
        }
    }
    for (; j < s->n; j++)
        for (int i = 0; i < k; i++) {
            bench_sum_t v = a[j * ld + i];
            r[i] -= v * s->x[j];
            sum[i] += magnitude(v);
        }
    for (int i = 0; i < k; i++) {
        if (!(magnitude(r[i]) <= s->rnorm)) // keeps a NaN
            s->rnorm = magnitude(r[i]);
        if (!(sum[i] <= s->anorm)) s->anorm = sum[i];
    }
    free(r);
    free(sum);
    return NULL;
}

// The rows [0, mb) of a block with b and x at its rows, over up to
// `threads` threads (the caller's if one cannot start); the results are
// folded into *rnorm and *anorm.
static void block_rows(const double *a, int mb, int n, const double *x,
                       const double *b, int threads, bench_sum_t *rnorm,
                       bench_sum_t *anorm)
{
    if (threads > mb / 64) threads = mb / 64 > 1 ? mb / 64 : 1;
    rows_share_t sh[threads];
    pthread_t tid[threads];
    int started[threads];
    for (int t = 0; t < threads; t++) {
        int i0 = (int)((long)mb * t / threads);
        int i1 = (int)((long)mb * (t + 1) / threads);
        sh[t] = (rows_share_t){
            .a = a, .x = x, .b = b, .lda = mb, .n = n, .i0 = i0, .i1 = i1};
        started[t] =
            t > 0 && !pthread_create(&tid[t], NULL, rows_share, &sh[t]);
    }
    for (int t = 0; t < threads; t++)
        if (!started[t]) rows_share(&sh[t]);
    for (int t = 0; t < threads; t++) {
        if (started[t]) pthread_join(tid[t], NULL);
        if (!(sh[t].rnorm <= *rnorm)) *rnorm = sh[t].rnorm;
        if (!(sh[t].anorm <= *anorm)) *anorm = sh[t].anorm;
    }
}

// ||b - A x||_inf / (||A||_inf ||x||_inf n eps), x the solution of A x = b
// by the factors in F (b from the seed), with A built again a tile row at
// a time: the memory of two tile rows beside F.  The products run on the
// machine's cores (up to 32 threads) while no task does.  With the
// tiles on the GPUs (on_gpu), the block the tile rows come back to is
// pinned once, so that each copy crosses the bus at its full rate.
// Prints where the time went.  -1 if it cannot run.
static double in_tiles_residual(int potrf, int n, int nb, hyla_desc_t *F,
                                const int *ipiv, int seed, int on_gpu)
{
    double *b = malloc(sizeof(double) * n), *x = malloc(sizeof(double) * n);
    size_t block_bytes = sizeof(double) * nb * n;
    double *block = malloc(block_bytes);
    int pinned = 0;
#ifdef HYLA_BENCH_CUSOLVER
    if (block && on_gpu) {
        pinned = cudaHostRegister(block, block_bytes,
                                  cudaHostRegisterPortable) == cudaSuccess;
        if (!pinned) cudaGetLastError(); // copied as pageable memory
    }
#else
    (void)on_gpu;
#endif
    hyla_desc_t *X = NULL, *R = NULL;
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    int threads = cores < 1 ? 1 : cores > 32 ? 32 : (int)cores;
    seconds_t t0 = bench_now(), solve_s, gen_s = 0, copy_s = 0, prod_s = 0;
    int rc = !b || !x || !block;
    if (!rc) {
        hyla_check_dgen(n, 1, b, n, seed + 1);
        rc = hyla_desc_create(&X, HYLA_DOUBLE, n, 1, nb);
    }
    if (!rc) rc = hyla_dlap_to_desc(b, n, X);
    if (!rc)
        rc = potrf ? hyla_dpotrs_tile('L', F, X)
                   : hyla_dgetrs_tile('N', F, ipiv, X);
    if (!rc) rc = hyla_ddesc_to_lap(X, x, n);
    solve_s = bench_now() - t0;
    bench_sum_t anorm = 0, rnorm = 0;
    double xnorm = 0;
    for (int i = 0; !rc && i < n; i++)
        if (!(fabs(x[i]) <= xnorm)) xnorm = fabs(x[i]); // keeps a NaN
    for (int i0 = 0; !rc && i0 < n; i0 += nb) {
        int mb = n - i0 < nb ? n - i0 : nb;
        seconds_t p0 = bench_now();
        if (!R || mb < nb) {
            hyla_desc_destroy(&R);
            rc = hyla_desc_create(&R, HYLA_DOUBLE, mb, n, nb);
        }
        if (!rc) rc = generate(potrf, n, R, i0, seed);
        seconds_t p1 = bench_now();
        if (!rc) rc = hyla_ddesc_to_lap(R, block, mb);
        seconds_t p2 = bench_now();
        if (rc) break;
        block_rows(block, mb, n, x, b + i0, threads, &rnorm, &anorm);
        gen_s += p1 - p0;
        copy_s += p2 - p1;
        prod_s += bench_now() - p2;
    }
    hyla_desc_destroy(&X);
    hyla_desc_destroy(&R);
#ifdef HYLA_BENCH_CUSOLVER
    if (pinned) cudaHostUnregister(block);
#endif
    free(b);
    free(x);
    free(block);
    if (rc) return -1.0;
    printf("# --in-tiles n=%d residual: solve %.1f s, tile rows generated "
           "%.1f s, copied out%s %.1f s, products (up to %d threads) %.1f "
           "s\n",
           n, solve_s, gen_s, pinned ? " (pinned)" : "", copy_s, threads,
           prod_s);
    double d = anorm * xnorm * n * LAPACKE_dlamch('E');
    return d > 0 ? rnorm / d : rnorm == 0 ? 0.0 : 1.0 / LAPACKE_dlamch('E');
}

// One phase of an --in-tiles case, printed at once.
static void progress(int n, const char *phase, seconds_t seconds)
{
    printf("# --in-tiles n=%d: %s in %.3f s\n", n, phase, seconds);
    fflush(stdout);
}

static int factor_in_tiles(int potrf, hyla_desc_t *A, int *ipiv)
{
    return potrf ? hyla_dpotrf_tile('L', A) : hyla_dgetrf_tile(A, ipiv);
}

// --in-tiles: getrf or potrf of a matrix hyla generates in its tiles, one
// untimed warm-up and c->repeat timed runs, each on the matrix generated
// again (not timed).
static int measure_in_tiles(const bench_case_t *c, bench_result_t *r)
{
    int id = routine_id(c->routine), n = c->n, nb = 0;
    if (id != GETRF && id != POTRF) return -1;
    int potrf = id == POTRF;
    hyla_tuned(c->routine, sizeof(double) == 8 ? 'd' : 's', n, &nb, NULL);
    int runs = c->repeat > 0 ? c->repeat : 1;
    seconds_t *t = malloc(sizeof(seconds_t) * runs);
    int *ipiv = malloc(sizeof(int) * (n + 1));
    hyla_desc_t *A = NULL;
    // Every phase printed as it ends: at the largest orders the untimed
    // ones take most of the call (the tiles pinned for the GPUs, the
    // residual's solve), and a call stopped by a time limit shows where it
    // was.
    seconds_t p0 = bench_now();
    int rc = !t || !ipiv ? HYLA_ERR_OUT_OF_MEMORY
                         : hyla_desc_create(&A, HYLA_DOUBLE, n, n, nb);
    if (!rc) progress(n, "tiles allocated", bench_now() - p0);
    for (int i = -1; !rc && i < runs; i++) {
        p0 = bench_now();
        rc = generate(potrf, n, A, 0, c->seed);
        if (!rc && c->on_gpu) rc = hyla_desc_place(A, HYLA_PLACE_GPUS);
        if (rc) break;
        progress(n, c->on_gpu ? "generated and placed" : "generated",
                 bench_now() - p0);
        if (i == 0) energy_reset(); // the warm-up does not count
        seconds_t t0 = bench_now();
        r->info = factor_in_tiles(potrf, A, ipiv);
        seconds_t t1 = bench_now();
        progress(n, i < 0 ? "untimed run" : "timed run", t1 - t0);
        if (i >= 0) {
            t[i] = t1 - t0;
            energy_mark(t0, t1);
        }
    }
    if (rc) {
        fprintf(stderr, "hyla-bench: --in-tiles n=%d: %s\n", n,
                hyla_error_detail());
        *r = (bench_result_t){0, 0, -1, rc, -1, -1, -1, -1};
    } else {
        bench_summarize(t, runs, r);
        energy_per_call(&r->gpu_j, &r->cpu_j);
        p0 = bench_now();
        r->resid =
            c->check && r->info == 0
                ? in_tiles_residual(potrf, n, nb, A, ipiv, c->seed, c->on_gpu)
                : -1.0;
        if (c->check && r->info == 0) progress(n, "residual", bench_now() - p0);
    }
    if (!rc && c->trace) {
        // One more run, recorded.
        rc = generate(potrf, n, A, 0, c->seed);
        if (!rc && c->on_gpu) rc = hyla_desc_place(A, HYLA_PLACE_GPUS);
        hyla_trace_start();
        if (!rc) factor_in_tiles(potrf, A, ipiv);
        hyla_trace_stop();
        bench_trace_write(c->trace);
    }
    hyla_desc_destroy(&A);
    free(t);
    free(ipiv);
    return 0;
}

// Runs a case: one untimed warm-up for hyla and for cuSOLVER (which load
// their kernels and calibrate on first use), then c->repeat timed runs.
static int measure(const bench_case_t *c, int hyla, bench_result_t *r)
{
    input_t in;
    if (input_make(c, &in)) return -1;
    int runs = c->repeat > 0 ? c->repeat : 1;
    int warm = hyla || (c->ref && !strncmp(c->ref, "cusolver", 8));
    seconds_t *t = malloc(sizeof(seconds_t) * runs);
    for (int i = warm ? -1 : 0; i < runs; i++) {
        input_reset(&in);
        if (i == 0) energy_reset(); // the warm-up does not count
        seconds_t s = bench_now();
        if (!hyla)
            r->info = run_ref(&in, c->ref, &s);
        else if (!c->tile)
            r->info = run_hyla_lapack(&in);
        else
            r->info = run_hyla_tile(&in, &s);
        if (hyla && !c->tile) {
            seconds_t t0 = s;
            s = bench_now() - s;
            energy_mark(t0, t0 + s);
        }
        if (i >= 0) t[i] = s;
    }
    bench_summarize(t, runs, r);
    energy_per_call(&r->gpu_j, &r->cpu_j);
    r->resid = c->check && r->info == 0 ? residual(&in) : -1.0;
    r->rbt_iter = in.rbt_iter;
    r->rbt_fallback = in.rbt_fallback;
    if (hyla && c->trace) {
        // One more run, recorded.
        input_reset(&in);
        hyla_trace_start();
        if (c->tile)
            run_hyla_tile(&in, &t[0]);
        else
            run_hyla_lapack(&in);
        hyla_trace_stop();
        bench_trace_write(c->trace);
    }
    free(t);
    input_free(&in);
    return 0;
}

// getrf_batched, getri_batched: examples/bench_batched_d.c.
int bench_dref(const bench_case_t *c, bench_result_t *r)
{
    if (bench_is_batched(c->routine)) return bench_dbatched(c, 0, r);
    return measure(c, 0, r);
}

int bench_dhyla(const bench_case_t *c, bench_result_t *r)
{
    if (bench_is_batched(c->routine)) return bench_dbatched(c, 1, r);
    if (c->in_tiles) return measure_in_tiles(c, r);
    return measure(c, 1, r);
}

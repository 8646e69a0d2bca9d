// SPDX-License-Identifier: BSD-3-Clause
// hyla-bench's batched cases, double precision.  @precisions d -> s
//
// getrf_batched and getri_batched on bench_batch_size() random matrices of
// one order.  By default the batch lies in host memory: hyla's public
// batched routines against LAPACK on each matrix, the batch dealt to
// c->ref_threads threads.  With the reference cublas (CUDA builds) it lies
// in GPU memory: hyla_cuda_dgetrf_batched / hyla_cuda_dgetri_batched
// against cuBLAS's batched routines (examples/batched_d.c).  Matrix 1 of a
// batch (of two or more) is singular, column 0 zero, so that the infos are
// checked too.
#include "bench.h"
#include "check.h"
#ifdef HYLA_BENCH_CUSOLVER
#include "batched.h"
#endif

#include <cblas.h>
#include <hyla.h>
#include <lapacke.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

// Matrices whose residual is computed, spread over the batch.
enum { SAMPLE = 64 };

// The status of a case whose reference this build lacks, and of a failed
// CUDA call (bench_d.c's conventions).
enum { NO_REF = -2000, GPU_FAILED = -1000 };

//==== host memory: hyla_dgetrf_batched_strided, hyla_dgetri_batched ====

// The originals of the last batch, kept for the next call with the same
// order, count and seed: the reference and hyla (and both routines) run
// on one batch, generated once.
static struct {
    int n, batch, seed;
    double *A0;
} last = {.n = -1};

static void free_last(void)
{
    free(last.A0);
}

// batch random n-by-n matrices, one after the other (lda = n), matrix 1
// singular.  They are generated in slices of about 2^24 elements, each
// from its own seed, so that no element count of one call overflows an
// int whatever the batch.
static void gen_batch(int n, int batch, int seed, double *A0)
{
    size_t e = (size_t)n * n;
    int slice = e ? (int)((1 << 24) / e) : batch;
    if (slice < 1) slice = 1;
    for (int i0 = 0, s = 0; i0 < batch; i0 += slice, s++) {
        int count = batch - i0 < slice ? batch - i0 : slice;
        hyla_check_dgen(n, n * count, A0 + i0 * e, n, seed + s);
    }
    if (batch > 1) memset(A0 + e, 0, sizeof(double) * n);
}

// The buffers of a case: the originals (last.A0), the work copy A
// (getrf's factors), the inverses C (getri), and the pointer arrays that
// hyla_dgetri_batched takes.
typedef struct {
    int n, batch, getri;
    size_t elems; // of one matrix
    double *A0, *A, *C;
    double **A_array, **C_array;
    int *ipiv, *info;
} input_t;

static void input_free(input_t *in)
{
    free(in->A);
    free(in->C);
    free(in->A_array);
    free(in->C_array);
    free(in->ipiv);
    free(in->info);
}

static int input_make(const bench_case_t *c, int getri, input_t *in)
{
    memset(in, 0, sizeof *in);
    int n = in->n = c->n, batch = in->batch = bench_batch_size(c);
    in->getri = getri;
    in->elems = (size_t)n * n;
    size_t total = in->elems * batch;
    if (last.n != n || last.batch != batch || last.seed != c->seed) {
        if (last.n < 0) atexit(free_last);
        free(last.A0);
        last.n = -1;
        if (!(last.A0 = malloc(sizeof(double) * (total ? total : 1))))
            return HYLA_ERR_OUT_OF_MEMORY;
        gen_batch(n, batch, c->seed, last.A0);
        last.n = n, last.batch = batch, last.seed = c->seed;
    }
    in->A0 = last.A0;
    in->A = malloc(sizeof(double) * (total ? total : 1));
    in->ipiv = malloc(sizeof(int) * ((size_t)n * batch + 1));
    in->info = malloc(sizeof(int) * batch);
    if (getri) {
        in->C = malloc(sizeof(double) * (total ? total : 1));
        in->A_array = malloc(sizeof(double *) * batch);
        in->C_array = malloc(sizeof(double *) * batch);
    }
    if (!in->A || !in->ipiv || !in->info ||
        (getri && (!in->C || !in->A_array || !in->C_array))) {
        input_free(in);
        return HYLA_ERR_OUT_OF_MEMORY;
    }
    if (getri) {
        for (int i = 0; i < batch; i++) {
            in->A_array[i] = in->A + i * in->elems;
            in->C_array[i] = in->C + i * in->elems;
        }
        // Touched once here, so that no timed run pays the page faults.
        memset(in->C, 0, sizeof(double) * total);
    }
    return 0;
}

// One reference thread's share of the batch: matrices first ..
// first+count-1.
typedef struct {
    const input_t *in;
    int first, count;
} share_t;

// LAPACK on each matrix of a share: getrf in place, or for getri getrf
// and getri on a copy in C (out of place, as hyla's).  The _work forms
// neither scan the matrix for NaNs nor allocate getri's workspace at each
// call, overheads that hyla's CPU kernels do not have either.
static void *ref_share(void *arg)
{
    const share_t *s = arg;
    const input_t *in = s->in;
    int n = in->n, lwork = 64 * (n > 0 ? n : 1);
    size_t e = in->elems;
    double *work = in->getri ? malloc(sizeof(double) * lwork) : NULL;
    for (int i = s->first; i < s->first + s->count; i++) {
        double *a = in->A + i * e;
        int *ipiv = in->ipiv + (size_t)i * n;
        if (in->getri) {
            double *inv = in->C + i * e;
            memcpy(inv, a, sizeof(double) * e);
            a = inv;
        }
        in->info[i] = LAPACKE_dgetrf_work(LAPACK_COL_MAJOR, n, n, a, n, ipiv);
        if (in->getri && in->info[i] == 0)
            in->info[i] = work ? LAPACKE_dgetri_work(LAPACK_COL_MAJOR, n, a, n,
                                                     ipiv, work, lwork)
                               : HYLA_ERR_OUT_OF_MEMORY;
    }
    free(work);
    return NULL;
}

// The reference on the whole batch, dealt in equal shares to `threads`
// threads (the calling one among them).  A share whose thread cannot be
// started runs in the calling thread.
static int run_ref(const input_t *in, int threads)
{
    if (threads > in->batch) threads = in->batch;
    if (threads < 1) threads = 1;
    pthread_t *tid = malloc(sizeof(pthread_t) * threads);
    share_t *sh = malloc(sizeof(share_t) * threads);
    int *started = calloc(threads, sizeof(int));
    if (!tid || !sh || !started) {
        free(tid);
        free(sh);
        free(started);
        return HYLA_ERR_OUT_OF_MEMORY;
    }
    for (int t = 0; t < threads; t++) {
        int first = (int)((long long)in->batch * t / threads);
        int next = (int)((long long)in->batch * (t + 1) / threads);
        sh[t] = (share_t){in, first, next - first};
    }
    for (int t = 1; t < threads; t++)
        started[t] = !pthread_create(&tid[t], NULL, ref_share, &sh[t]);
    ref_share(&sh[0]);
    for (int t = 1; t < threads; t++) {
        if (started[t])
            pthread_join(tid[t], NULL);
        else
            ref_share(&sh[t]);
    }
    free(tid);
    free(sh);
    free(started);
    return 0;
}

static int run_hyla(const input_t *in)
{
    int n = in->n;
    if (in->getri)
        return hyla_dgetri_batched(n, in->A_array, n, in->ipiv, in->C_array, n,
                                   in->info, in->batch);
    return hyla_dgetrf_batched_strided(n, in->A, n, (long long)in->elems,
                                       in->ipiv, in->info, in->batch);
}

// Matrices whose info is not what it should be: 0, except for the
// singular matrix 1, whose U(1,1) is zero (getrf: info 1; getri: any
// positive info).
static int infos_wrong(const input_t *in)
{
    int wrong = 0;
    for (int i = 0; i < in->batch; i++) {
        int info = in->info[i];
        if (i == 1)
            wrong += in->getri ? !(info > 0) : info != 1;
        else
            wrong += info != 0;
    }
    return wrong;
}

// The worst residual of up to SAMPLE matrices spread over the batch, the
// singular one left out: ||PA - LU|| or ||I - A inv(A)||, scaled by n eps.
static double sample_resid(const input_t *in)
{
    int n = in->n, count = in->batch < SAMPLE ? in->batch : SAMPLE;
    size_t e = in->elems;
    double worst = 0.0;
    for (int k = 0; k < count; k++) {
        int i = (int)((long long)k * in->batch / count);
        if ((in->batch > 1 && i == 1) || in->info[i]) continue;
        double x = in->getri
                       ? hyla_check_dresid_inverse(n, in->A0 + i * e, n,
                                                   in->C + i * e, n)
                       : hyla_check_dresid_getrf(n, n, in->A0 + i * e, n,
                                                 in->A + i * e, n,
                                                 in->ipiv + (size_t)i * n);
        if (!(x <= worst)) worst = x; // a NaN sticks
    }
    return worst;
}

// The reference (hyla = 0) or hyla: one untimed warm-up for hyla, then
// c->repeat timed runs, each on a fresh copy of the batch (not timed).
// The reference's threads run OpenBLAS single-threaded, its thread count
// restored afterwards.
static void host_measure(const bench_case_t *c, int getri, int hyla,
                         bench_result_t *r)
{
    input_t in;
    int runs = c->repeat > 0 ? c->repeat : 1, rc;
    seconds_t *t = malloc(sizeof(seconds_t) * runs);
    if (!t || (rc = input_make(c, getri, &in))) {
        free(t);
        r->info = HYLA_ERR_OUT_OF_MEMORY;
        return;
    }
    int blas_threads = openblas_get_num_threads();
    if (!hyla) openblas_set_num_threads(1);
    int status = 0;
    for (int i = hyla ? -1 : 0; i < runs; i++) {
        memcpy(in.A, in.A0, sizeof(double) * in.elems * in.batch);
        seconds_t s = bench_now();
        rc = hyla ? run_hyla(&in) : run_ref(&in, c->ref_threads);
        s = bench_now() - s;
        if (rc && !status) status = rc;
        if (i >= 0) t[i] = s;
    }
    if (!hyla) openblas_set_num_threads(blas_threads);
    bench_summarize(t, runs, r);
    r->info = status ? status : infos_wrong(&in);
    r->resid = c->check ? sample_resid(&in) : -1.0;
    free(t);
    input_free(&in);
}

//==== GPU memory: hyla_cuda_dgetrf_batched against cuBLAS ====

#ifdef HYLA_BENCH_CUSOLVER
// batched_dgetrf / batched_dgetri time hyla_cuda_* and cuBLAS in one call,
// on one batch in GPU memory.  The reference step calls them and keeps
// hyla's side here; the hyla step of the same case returns it (and calls
// them itself when the reference did not run).  hyla_cuda_* run without
// hyla_init, so the configuration the driver sets before the hyla step
// (mode, workers, tile size) does not apply to them.
static struct {
    int valid, getri, n, batch, repeat, check, rc;
    batched_result_t r;
} gpu_last;

static void gpu_run(int getri, int n, int batch, int repeat, int check)
{
    batched_result_t b = {0};
    int rc = (getri ? batched_dgetri : batched_dgetrf)(
        n, batch, repeat, check ? SAMPLE : 0, 0, &b);
    gpu_last.valid = 1;
    gpu_last.getri = getri, gpu_last.n = n, gpu_last.batch = batch;
    gpu_last.repeat = repeat, gpu_last.check = check;
    gpu_last.rc = rc;
    gpu_last.r = b;
}
#endif

// Times by CUDA events are the best of the runs (batched_d.c keeps no
// other), reported as both min and median.  Only hyla's results are
// checked: the residual of the sampled matrices, and their infos against
// cuBLAS's (so the reference's residual is -1, and without c->check
// nothing is checked).
static void gpu_measure(const bench_case_t *c, int getri, int hyla,
                        bench_result_t *r)
{
#ifdef HYLA_BENCH_CUSOLVER
    int n = c->n, batch = bench_batch_size(c), check = c->check != 0;
    int runs = c->repeat > 0 ? c->repeat : 1;
    if (!hyla || !gpu_last.valid || gpu_last.getri != getri ||
        gpu_last.n != n || gpu_last.batch != batch || gpu_last.repeat != runs ||
        gpu_last.check != check)
        gpu_run(getri, n, batch, runs, check);
    if (gpu_last.rc) {
        r->info = GPU_FAILED;
        return;
    }
    r->t_min = r->t_median = hyla ? gpu_last.r.hyla_s : gpu_last.r.ref_s;
    r->info = hyla && check && !gpu_last.r.info_same;
    r->resid = hyla && check ? gpu_last.r.resid : -1.0;
#else
    (void)c, (void)getri, (void)hyla;
    r->info = NO_REF;
#endif
}

int bench_dbatched(const bench_case_t *c, int hyla, bench_result_t *r)
{
    int getri;
    if (!strcmp(c->routine, "getrf_batched"))
        getri = 0;
    else if (!strcmp(c->routine, "getri_batched"))
        getri = 1;
    else
        return -1;
    r->t_min = r->t_median = 0.0;
    r->resid = -1.0;
    r->info = 0;
    r->gpu_j = r->cpu_j = -1.0;
    r->rbt_iter = r->rbt_fallback = -1;
    if (c->ref && !strcmp(c->ref, "cublas"))
        gpu_measure(c, getri, hyla, r);
    else if (hyla || !c->ref || !strcmp(c->ref, "lapack"))
        host_measure(c, getri, hyla, r);
    else
        r->info = NO_REF; // getf2, cusolver, cusolvermg: none batched
    return 0;
}

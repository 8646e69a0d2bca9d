// SPDX-License-Identifier: BSD-3-Clause
// hyla-batched, double precision.  @precisions d -> s
#include "batched.h"
#include "check.h"
#include "gpu_time.h"

#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <hyla.h>
#include <hyla/hyla_cuda.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CUDA_OK(call) ((call) == cudaSuccess)
#define BLAS_OK(call) ((call) == CUBLAS_STATUS_SUCCESS)

// One benchmark's data in GPU memory: the pristine batch, a working copy,
// the inverses, and their pointer arrays.
struct dbatch {
    int n, batch;
    size_t elems;
    double *dA0, *dA, *dC;
    double **dAp, **dCp;
    int *dipiv, *dinfo;
    cudaStream_t s;
    cublasHandle_t blas;
    int getri, strided; // hyla's call: the inverse; the strided form
};

static double **dpointers(double *base, size_t stride, int batch)
{
    double **h = malloc(sizeof(double *) * batch), **d = NULL;
    if (!h) return NULL;
    for (int i = 0; i < batch; i++)
        h[i] = base + i * stride;
    if (!CUDA_OK(cudaMalloc((void **)&d, sizeof(double *) * batch)) ||
        !CUDA_OK(cudaMemcpy(d, h, sizeof(double *) * batch,
                            cudaMemcpyHostToDevice))) {
        cudaFree(d);
        d = NULL;
    }
    free(h);
    return d;
}

static void dbatch_free(struct dbatch *b)
{
    cudaFree(b->dA0);
    cudaFree(b->dA);
    cudaFree(b->dC);
    cudaFree(b->dAp);
    cudaFree(b->dCp);
    cudaFree(b->dipiv);
    cudaFree(b->dinfo);
    if (b->blas) cublasDestroy(b->blas);
    if (b->s) cudaStreamDestroy(b->s);
}

// Matrices generated on the host in slices, copied to dA0.
static int dbatch_make(struct dbatch *b, int n, int batch, int getri)
{
    memset(b, 0, sizeof *b);
    b->n = n;
    b->batch = batch;
    b->getri = getri;
    b->elems = (size_t)n * n;
    size_t bytes = sizeof(double) * b->elems * batch;
    if (!CUDA_OK(cudaStreamCreate(&b->s)) || !BLAS_OK(cublasCreate(&b->blas)) ||
        !BLAS_OK(cublasSetStream(b->blas, b->s)) ||
        !CUDA_OK(cudaMalloc((void **)&b->dA0, bytes)) ||
        !CUDA_OK(cudaMalloc((void **)&b->dA, bytes)) ||
        (getri && !CUDA_OK(cudaMalloc((void **)&b->dC, bytes))) ||
        !CUDA_OK(cudaMalloc((void **)&b->dipiv, sizeof(int) * n * batch)) ||
        !CUDA_OK(cudaMalloc((void **)&b->dinfo, sizeof(int) * batch)) ||
        !(b->dAp = dpointers(b->dA, b->elems, batch)) ||
        (getri && !(b->dCp = dpointers(b->dC, b->elems, batch))))
        return -1;
    // A pool of distinct matrices, repeated over the batch on the GPU.
    int pool = batch < 4096 ? batch : 4096;
    double *h = malloc(sizeof(double) * b->elems * pool);
    if (!h) return -1;
    hyla_check_dgen(n, n * pool, h, n, 1000);
    if (batch > 1) // matrix 1 singular
        memset(h + b->elems, 0, sizeof(double) * n);
    size_t pbytes = sizeof(double) * b->elems * pool;
    int ok = CUDA_OK(cudaMemcpy(b->dA0, h, pbytes, cudaMemcpyHostToDevice));
    for (int i0 = pool; ok && i0 < batch; i0 += pool) {
        int cnt = batch - i0 < pool ? batch - i0 : pool;
        ok = CUDA_OK(cudaMemcpy(b->dA0 + i0 * b->elems, b->dA0,
                                sizeof(double) * b->elems * cnt,
                                cudaMemcpyDeviceToDevice));
    }
    if (!ok) {
        free(h);
        return -1;
    }
    free(h);
    return 0;
}

static int run_hyla(void *arg)
{
    struct dbatch *b = arg;
    long long e = (long long)b->elems;
    if (b->getri && b->strided)
        return hyla_cuda_dgetri_batched_strided(b->n, b->dA, b->n, e, b->dipiv,
                                                b->dC, b->n, e, b->dinfo,
                                                b->batch, b->s);
    if (b->getri)
        return hyla_cuda_dgetri_batched(b->n, b->dAp, b->n, b->dipiv, b->dCp,
                                        b->n, b->dinfo, b->batch, b->s);
    if (b->strided)
        return hyla_cuda_dgetrf_batched_strided(b->n, b->dA, b->n, e, b->dipiv,
                                                b->dinfo, b->batch, b->s);
    return hyla_cuda_dgetrf_batched(b->n, b->dAp, b->n, b->dipiv, b->dinfo,
                                    b->batch, b->s);
}

static int run_ref(void *arg)
{
    struct dbatch *b = arg;
    if (!BLAS_OK(cublasDgetrfBatched(b->blas, b->n, b->dAp, b->n, b->dipiv,
                                     b->dinfo, b->batch)))
        return -1;
    if (b->getri &&
        !BLAS_OK(cublasDgetriBatched(b->blas, b->n, (const double **)b->dAp,
                                     b->n, b->dipiv, b->dCp, b->n, b->dinfo,
                                     b->batch)))
        return -1;
    return 0;
}

// Best time of repeat runs after a warm-up, each on a fresh copy.
static int time_runs(struct dbatch *b, int (*run)(void *), int repeat,
                     seconds_t *best)
{
    return gpu_time_runs(b->s, repeat, b->dA, b->dA0,
                         sizeof(double) * b->elems * b->batch, run, b, best);
}

// Results of the last run for matrices picked: their outputs, pivots and
// infos.
struct dpicked {
    int count, *idx;
    double *A0, *out;
    int *ipiv, *info;
};

static int dfetch(const struct dbatch *b, struct dpicked *p, int with_a0)
{
    size_t e = b->elems;
    const double *src = b->getri ? b->dC : b->dA;
    for (int k = 0; k < p->count; k++) {
        int i = p->idx[k];
        if ((with_a0 && !CUDA_OK(cudaMemcpy(p->A0 + k * e, b->dA0 + i * e,
                                            sizeof(double) * e,
                                            cudaMemcpyDeviceToHost))) ||
            !CUDA_OK(cudaMemcpy(p->out + k * e, src + i * e,
                                sizeof(double) * e, cudaMemcpyDeviceToHost)) ||
            !CUDA_OK(cudaMemcpy(p->ipiv + (size_t)k * b->n,
                                b->dipiv + (size_t)i * b->n,
                                sizeof(int) * b->n, cudaMemcpyDeviceToHost)) ||
            !CUDA_OK(cudaMemcpy(p->info + k, b->dinfo + i, sizeof(int),
                                cudaMemcpyDeviceToHost)))
            return -1;
    }
    return 0;
}

static int dbench(int n, int batch, int repeat, int check, int strided,
                  int getri, batched_result_t *r)
{
    struct dbatch b = {0};
    struct dpicked h = {0}, ref = {0};
    int rc = -1;
    if (check > batch) check = batch;
    size_t e = (size_t)n * n;
    h.count = ref.count = check;
    h.idx = ref.idx = malloc(sizeof(int) * (check + 1));
    h.A0 = malloc(sizeof(double) * e * (check + 1));
    h.out = malloc(sizeof(double) * e * (check + 1));
    ref.out = malloc(sizeof(double) * e * (check + 1));
    h.ipiv = malloc(sizeof(int) * n * (check + 1));
    ref.ipiv = malloc(sizeof(int) * n * (check + 1));
    h.info = malloc(sizeof(int) * (check + 1));
    ref.info = malloc(sizeof(int) * (check + 1));
    for (int k = 0; k < check; k++) // matrix 1 (singular) among them
        h.idx[k] = k == 0 ? (batch > 1) : (int)((long long)k * batch / check);
    if (!h.idx || !h.A0 || !h.out || !ref.out || !h.ipiv || !ref.ipiv ||
        !h.info || !ref.info || dbatch_make(&b, n, batch, getri))
        goto out;
    b.strided = strided;
    if (time_runs(&b, run_hyla, repeat, &r->hyla_s) || dfetch(&b, &h, 1) ||
        time_runs(&b, run_ref, repeat, &r->ref_s) || dfetch(&b, &ref, 0))
        goto out;
    r->resid = 0;
    r->info_same = 1;
    int same = 0;
    for (int k = 0; k < check; k++) {
        r->info_same &= h.info[k] == ref.info[k];
        same += !memcmp(h.ipiv + (size_t)k * n, ref.ipiv + (size_t)k * n,
                        sizeof(int) * n);
        if (h.info[k]) continue;
        double x = getri ? hyla_check_dresid_inverse(n, h.A0 + k * e, n,
                                                     h.out + k * e, n)
                         : hyla_check_dresid_getrf(n, n, h.A0 + k * e, n,
                                                   h.out + k * e, n,
                                                   h.ipiv + (size_t)k * n);
        if (!(x <= r->resid)) r->resid = x;
    }
    r->piv_same = check ? (double)same / check : 1.0;
    rc = 0;
out:
    if (rc) fprintf(stderr, "hyla-batched: a CUDA call failed (n = %d)\n", n);
    dbatch_free(&b);
    free(h.idx);
    free(h.A0);
    free(h.out);
    free(ref.out);
    free(h.ipiv);
    free(ref.ipiv);
    free(h.info);
    free(ref.info);
    return rc;
}

int batched_dgetrf(int n, int batch, int repeat, int check, int strided,
                   batched_result_t *r)
{
    return dbench(n, batch, repeat, check, strided, 0, r);
}

int batched_dgetri(int n, int batch, int repeat, int check, int strided,
                   batched_result_t *r)
{
    return dbench(n, batch, repeat, check, strided, 1, r);
}

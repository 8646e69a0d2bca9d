// SPDX-License-Identifier: BSD-3-Clause
// hyla-kernels, double precision.  @precisions d -> s
#include "kernels.h"
#include "check.h"
#include "gpu.h"

#include <cuda_runtime.h>
#include <cusolverDn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define CUDA_OK(call) ((call) == cudaSuccess)

// Milliseconds of the work queued by run(arg) on stream s, best of repeat
// runs, each on a fresh copy of dA0 in dA.
static int time_runs(cudaStream_t s, int repeat, double *dA,
                     const double *dA0, size_t bytes,
                     int (*run)(void *), void *arg, seconds_t *best)
{
    cudaEvent_t t0, t1;
    if (!CUDA_OK(cudaEventCreate(&t0)) || !CUDA_OK(cudaEventCreate(&t1)))
        return -1;
    int rc = 0;
    *best = INFINITY;
    for (int i = -1; i < repeat && !rc; i++) {
        float ms;
        if (!CUDA_OK(cudaMemcpyAsync(dA, dA0, bytes, cudaMemcpyDeviceToDevice,
                                     s)) ||
            !CUDA_OK(cudaEventRecord(t0, s)) || run(arg) ||
            !CUDA_OK(cudaEventRecord(t1, s)) ||
            !CUDA_OK(cudaEventSynchronize(t1)) ||
            !CUDA_OK(cudaEventElapsedTime(&ms, t0, t1)))
            rc = -1;
        else if (i >= 0 && ms * 1e-3 < *best)
            *best = ms * 1e-3;
    }
    cudaEventDestroy(t0);
    cudaEventDestroy(t1);
    return rc;
}

struct potrf_run {
    int n;
    double *dA;
    int *dinfo;
    cublasHandle_t blas;
    cusolverDnHandle_t solver;
    double *work;
    int lwork;
};

// The column-major SPD matrix is also its row-major self: hyla's row-major
// lower factor is cuSOLVER's column-major upper one, and vice versa.
static int run_hyla(void *arg)
{
    struct potrf_run *p = arg;
    return hyla_cuda_dpotrf(p->blas, HYLA_UPPER, p->n, p->dA, p->n, p->dinfo,
                            0);
}

static int run_ref(void *arg)
{
    struct potrf_run *p = arg;
    return cusolverDnDpotrf(p->solver, CUBLAS_FILL_MODE_LOWER, p->n, p->dA,
                            p->n, p->work, p->lwork, p->dinfo) !=
           CUSOLVER_STATUS_SUCCESS;
}

int kernels_dpotrf(int n, int repeat, kernel_result_t *r)
{
    size_t nn = (size_t)n * n, bytes = sizeof(double) * nn;
    double *A = malloc(bytes), *L = malloc(bytes), *dA0 = NULL;
    struct potrf_run p = {.n = n};
    cudaStream_t s = NULL;
    int rc = -1;
    if (!A || !L || !CUDA_OK(cudaStreamCreate(&s)) ||
        cublasCreate(&p.blas) != CUBLAS_STATUS_SUCCESS ||
        cusolverDnCreate(&p.solver) != CUSOLVER_STATUS_SUCCESS ||
        cublasSetStream(p.blas, s) != CUBLAS_STATUS_SUCCESS ||
        cusolverDnSetStream(p.solver, s) != CUSOLVER_STATUS_SUCCESS)
        goto out;
    hyla_check_dgen_spd(n, A, n, 1);
    if (!CUDA_OK(cudaMalloc((void **)&dA0, bytes)) ||
        !CUDA_OK(cudaMalloc((void **)&p.dA, bytes)) ||
        !CUDA_OK(cudaMalloc((void **)&p.dinfo, sizeof(int))) ||
        !CUDA_OK(cudaMemset(p.dinfo, 0, sizeof(int))) ||
        !CUDA_OK(cudaMemcpy(dA0, A, bytes, cudaMemcpyHostToDevice)) ||
        cusolverDnDpotrf_bufferSize(p.solver, CUBLAS_FILL_MODE_LOWER, n, p.dA,
                                    n, &p.lwork) != CUSOLVER_STATUS_SUCCESS ||
        !CUDA_OK(cudaMalloc((void **)&p.work,
                            sizeof(double) * (p.lwork ? p.lwork : 1))))
        goto out;
    if (time_runs(s, repeat, p.dA, dA0, bytes, run_hyla, &p, &r->hyla_s) ||
        !CUDA_OK(cudaMemcpy(&r->hyla_info, p.dinfo, sizeof(int),
                            cudaMemcpyDeviceToHost)) ||
        !CUDA_OK(cudaMemcpy(L, p.dA, bytes, cudaMemcpyDeviceToHost)) ||
        !CUDA_OK(cudaMemset(p.dinfo, 0, sizeof(int))) ||
        time_runs(s, repeat, p.dA, dA0, bytes, run_ref, &p, &r->ref_s) ||
        !CUDA_OK(cudaMemcpy(&r->ref_info, p.dinfo, sizeof(int),
                            cudaMemcpyDeviceToHost)) ||
        !CUDA_OK(cudaMemcpy(A, p.dA, bytes, cudaMemcpyDeviceToHost)))
        goto out;
    // Both factors are the lower triangle in column-major order.
    double dmax = 0, amax = 0;
    for (int j = 0; j < n; j++)
        for (int i = j; i < n; i++) {
            double ref = A[i + (size_t)j * n];
            dmax = fmax(dmax, fabs(L[i + (size_t)j * n] - ref));
            amax = fmax(amax, fabs(ref));
        }
    r->diff = amax > 0 ? dmax / amax : dmax;
    rc = 0;
out:
    if (rc) fprintf(stderr, "hyla-kernels: a CUDA call failed (n = %d)\n", n);
    cudaFree(dA0);
    cudaFree(p.dA);
    cudaFree(p.dinfo);
    cudaFree(p.work);
    if (p.solver) cusolverDnDestroy(p.solver);
    if (p.blas) cublasDestroy(p.blas);
    if (s) cudaStreamDestroy(s);
    free(A);
    free(L);
    return rc;
}

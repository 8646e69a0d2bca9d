// SPDX-License-Identifier: BSD-3-Clause
// hyla-kernels: the diagonal-tile kernels of the LU without pivoting
// (random butterflies) against cuSOLVER.  @precisions d -> s
#include "kernels.h"
#include "check.h"
#include "gpu.h"
#include "gpu_time.h"

#include <cuda_runtime.h>
#include <cusolverDn.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define CUDA_OK(call) ((call) == cudaSuccess)
// The generic cuSOLVER API names the element type.
#define ELEMENT_TYPE (sizeof(double) == 8 ? CUDA_R_64F : CUDA_R_32F)

// An n-by-n matrix with a heavy diagonal (n + |a_ii|): its LU needs no
// pivoting and its triangles are well conditioned.  Column-major in A,
// row-major in T.
static void gen(int n, double *A, double *T)
{
    hyla_check_dgen(n, n, A, n, 1);
    for (int i = 0; i < n; i++)
        A[i + (size_t)i * n] = n + fabs(A[i + (size_t)i * n]);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            T[(size_t)i * n + j] = A[i + (size_t)j * n];
}

struct nopiv_run {
    int n;
    double *dA, *dW; // working copy; trtri's inverse (hyla)
    int *dinfo;
    cublasHandle_t blas;
    cusolverDnHandle_t solver;
    void *dwork, *hwork; // cuSOLVER's workspaces
    size_t dbytes, hbytes;
    int lwork;
};

static int run_hyla_nopiv(void *arg)
{
    struct nopiv_run *p = arg;
    return hyla_cuda_dgetrf_nopiv(p->blas, p->n, p->dA, p->n, p->dinfo, 0);
}

static int run_ref_nopiv(void *arg)
{
    struct nopiv_run *p = arg;
    return cusolverDnDgetrf(p->solver, p->n, p->n, p->dA, p->n, p->dwork, NULL,
                            p->dinfo) != CUSOLVER_STATUS_SUCCESS;
}

// hyla's row-major upper triangle is cuSOLVER's column-major lower one on
// the same memory, and the inverse of the transpose is the transposed
// inverse: one buffer serves both.
static int run_hyla_trtri(void *arg)
{
    struct nopiv_run *p = arg;
    return hyla_cuda_dtrtri(p->blas, HYLA_UPPER, HYLA_NON_UNIT, p->n, p->dA,
                            p->n, p->dW, p->n);
}

static int run_ref_trtri(void *arg)
{
    struct nopiv_run *p = arg;
    return cusolverDnXtrtri(p->solver, CUBLAS_FILL_MODE_LOWER,
                            CUBLAS_DIAG_NON_UNIT, p->n, ELEMENT_TYPE, p->dA,
                            p->n, p->dwork, p->dbytes, p->hwork, p->hbytes,
                            p->dinfo) != CUSOLVER_STATUS_SUCCESS;
}

static void release(struct nopiv_run *p, cudaStream_t s)
{
    cudaFree(p->dA);
    cudaFree(p->dW);
    cudaFree(p->dinfo);
    cudaFree(p->dwork);
    free(p->hwork);
    if (p->solver) cusolverDnDestroy(p->solver);
    if (p->blas) cublasDestroy(p->blas);
    if (s) cudaStreamDestroy(s);
}

// Both kernels on the same matrix: trtri 0 for the LU (hyla on the
// row-major copy, cuSOLVER's getrf without pivots on the column-major
// one), 1 for the inverse of the upper triangle (one buffer, above).
static int compare(int n, int trtri, int repeat, kernel_result_t *r)
{
    size_t nn = (size_t)n * n, bytes = sizeof(double) * nn;
    double *A = malloc(bytes), *T = malloc(bytes), *H = malloc(bytes),
           *X = malloc(bytes), *dR0 = NULL, *dC0 = NULL;
    struct nopiv_run p = {.n = n};
    cudaStream_t s = NULL;
    int rc = -1;
    if (!A || !T || !H || !X || !CUDA_OK(cudaStreamCreate(&s)) ||
        cublasCreate(&p.blas) != CUBLAS_STATUS_SUCCESS ||
        cusolverDnCreate(&p.solver) != CUSOLVER_STATUS_SUCCESS ||
        cublasSetStream(p.blas, s) != CUBLAS_STATUS_SUCCESS ||
        cusolverDnSetStream(p.solver, s) != CUSOLVER_STATUS_SUCCESS)
        goto out;
    gen(n, A, T);
    if (!CUDA_OK(cudaMalloc((void **)&dR0, bytes)) ||
        !CUDA_OK(cudaMalloc((void **)&dC0, bytes)) ||
        !CUDA_OK(cudaMalloc((void **)&p.dA, bytes)) ||
        !CUDA_OK(cudaMalloc((void **)&p.dW, bytes)) ||
        !CUDA_OK(cudaMalloc((void **)&p.dinfo, sizeof(int))) ||
        !CUDA_OK(cudaMemset(p.dinfo, 0, sizeof(int))) ||
        !CUDA_OK(cudaMemcpy(dR0, T, bytes, cudaMemcpyHostToDevice)) ||
        !CUDA_OK(cudaMemcpy(dC0, A, bytes, cudaMemcpyHostToDevice)))
        goto out;
    if (trtri) {
        if (cusolverDnXtrtri_bufferSize(p.solver, CUBLAS_FILL_MODE_LOWER,
                                        CUBLAS_DIAG_NON_UNIT, n, ELEMENT_TYPE,
                                        p.dA, n, &p.dbytes,
                                        &p.hbytes) != CUSOLVER_STATUS_SUCCESS)
            goto out;
    } else if (cusolverDnDgetrf_bufferSize(p.solver, n, n, p.dA, n, &p.lwork) !=
               CUSOLVER_STATUS_SUCCESS) {
        goto out;
    } else {
        p.dbytes = sizeof(double) * (size_t)p.lwork;
    }
    p.hwork = malloc(p.hbytes ? p.hbytes : 1);
    if (!p.hwork || !CUDA_OK(cudaMalloc(&p.dwork, p.dbytes ? p.dbytes : 1)))
        goto out;
    // trtri: both on the row-major copy, hyla's result in dW.
    const double *ref0 = trtri ? dR0 : dC0;
    if (gpu_time_runs(s, repeat, p.dA, dR0, bytes,
                      trtri ? run_hyla_trtri : run_hyla_nopiv, &p,
                      &r->hyla_s) ||
        !CUDA_OK(cudaMemcpy(&r->hyla_info, p.dinfo, sizeof(int),
                            cudaMemcpyDeviceToHost)) ||
        !CUDA_OK(cudaMemcpy(H, trtri ? p.dW : p.dA, bytes,
                            cudaMemcpyDeviceToHost)) ||
        !CUDA_OK(cudaMemset(p.dinfo, 0, sizeof(int))) ||
        gpu_time_runs(s, repeat, p.dA, ref0, bytes,
                      trtri ? run_ref_trtri : run_ref_nopiv, &p, &r->ref_s) ||
        !CUDA_OK(cudaMemcpy(&r->ref_info, p.dinfo, sizeof(int),
                            cudaMemcpyDeviceToHost)) ||
        !CUDA_OK(cudaMemcpy(X, p.dA, bytes, cudaMemcpyDeviceToHost)))
        goto out;
    // Element (i, j): H row-major; X column-major for the LU, row-major
    // (the same memory as hyla's) for the inverse, whose upper triangle
    // alone is compared.
    double dmax = 0, amax = 0;
    for (int i = 0; i < n; i++)
        for (int j = trtri ? i : 0; j < n; j++) {
            double ref = trtri ? X[(size_t)i * n + j] : X[i + (size_t)j * n];
            dmax = fmax(dmax, fabs(H[(size_t)i * n + j] - ref));
            amax = fmax(amax, fabs(ref));
        }
    r->diff = amax > 0 ? dmax / amax : dmax;
    rc = 0;
out:
    if (rc) fprintf(stderr, "hyla-kernels: a CUDA call failed (n = %d)\n", n);
    cudaFree(dR0);
    cudaFree(dC0);
    release(&p, s);
    free(A);
    free(T);
    free(H);
    free(X);
    return rc;
}

int kernels_dgetrf_nopiv(int n, int unused, int repeat, kernel_result_t *r)
{
    (void)unused;
    return compare(n, 0, repeat, r);
}

int kernels_dtrtri(int n, int unused, int repeat, kernel_result_t *r)
{
    (void)unused;
    return compare(n, 1, repeat, r);
}

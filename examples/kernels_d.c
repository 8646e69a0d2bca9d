// SPDX-License-Identifier: BSD-3-Clause
// hyla-kernels, double precision.  @precisions d -> s
#include "kernels.h"
#include "check.h"
#include "gpu.h"
#include "gpu_time.h"

#include <cuda_runtime.h>
#include <cusolverDn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define CUDA_OK(call) ((call) == cudaSuccess)

// Each run on a fresh copy of dA0 in dA (gpu_time.h).
static int time_runs(cudaStream_t s, int repeat, double *dA, const double *dA0,
                     size_t bytes, int (*run)(void *), void *arg,
                     seconds_t *best)
{
    return gpu_time_runs(s, repeat, dA, dA0, bytes, run, arg, best);
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
                            p->n, p->work, p->lwork,
                            p->dinfo) != CUSOLVER_STATUS_SUCCESS;
}

int kernels_dpotrf(int n, int unused, int repeat, kernel_result_t *r)
{
    (void)unused;
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

struct trsm_run {
    int n;
    const double *dT; // row-major lower triangle, well conditioned
    double *dB;
    cublasHandle_t blas;
};

// The Cholesky panel's solve, B = B L^-T with a row-major lower L.
static int run_hyla_trsm(void *arg)
{
    struct trsm_run *p = arg;
    return hyla_cuda_dtrsm(p->blas, HYLA_RIGHT, HYLA_LOWER, HYLA_TRANS,
                           HYLA_NON_UNIT, p->n, p->n, 1.0, p->dT, p->n, p->dB,
                           p->n);
}

// The same on the column-major transposes, by cuBLAS in one call.
static int run_ref_trsm(void *arg)
{
    struct trsm_run *p = arg;
    const double one = 1.0;
    return cublasDtrsm(p->blas, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_UPPER,
                       CUBLAS_OP_T, CUBLAS_DIAG_NON_UNIT, p->n, p->n, &one,
                       p->dT, p->n, p->dB, p->n) != CUBLAS_STATUS_SUCCESS;
}

int kernels_dtrsm(int n, int unused, int repeat, kernel_result_t *r)
{
    (void)unused;
    size_t nn = (size_t)n * n, bytes = sizeof(double) * nn;
    double *T = malloc(bytes), *X = malloc(bytes), *Y = malloc(bytes);
    double *dT = NULL, *dB0 = NULL;
    struct trsm_run p = {.n = n};
    cudaStream_t s = NULL;
    int rc = -1;
    if (!T || !X || !Y || !CUDA_OK(cudaStreamCreate(&s)) ||
        cublasCreate(&p.blas) != CUBLAS_STATUS_SUCCESS ||
        cublasSetStream(p.blas, s) != CUBLAS_STATUS_SUCCESS)
        goto out;
    hyla_check_dgen(n, n, T, n, 1);
    hyla_check_dgen(n, n, X, n, 2);
    for (int i = 0; i < n; i++) // lower, diagonal dominant
        T[(size_t)i * n + i] = fabs(T[(size_t)i * n + i]) + n;
    if (!CUDA_OK(cudaMalloc((void **)&dT, bytes)) ||
        !CUDA_OK(cudaMalloc((void **)&dB0, bytes)) ||
        !CUDA_OK(cudaMalloc((void **)&p.dB, bytes)) ||
        !CUDA_OK(cudaMemcpy(dT, T, bytes, cudaMemcpyHostToDevice)) ||
        !CUDA_OK(cudaMemcpy(dB0, X, bytes, cudaMemcpyHostToDevice)))
        goto out;
    p.dT = dT;
    if (time_runs(s, repeat, p.dB, dB0, bytes, run_hyla_trsm, &p, &r->hyla_s) ||
        !CUDA_OK(cudaMemcpy(X, p.dB, bytes, cudaMemcpyDeviceToHost)) ||
        time_runs(s, repeat, p.dB, dB0, bytes, run_ref_trsm, &p, &r->ref_s) ||
        !CUDA_OK(cudaMemcpy(Y, p.dB, bytes, cudaMemcpyDeviceToHost)))
        goto out;
    double dmax = 0, amax = 0;
    for (size_t i = 0; i < nn; i++) {
        dmax = fmax(dmax, fabs(X[i] - Y[i]));
        amax = fmax(amax, fabs(Y[i]));
    }
    r->diff = amax > 0 ? dmax / amax : dmax;
    r->hyla_info = r->ref_info = 0;
    rc = 0;
out:
    if (rc) fprintf(stderr, "hyla-kernels: a CUDA call failed (n = %d)\n", n);
    cudaFree(dT);
    cudaFree(dB0);
    cudaFree(p.dB);
    if (p.blas) cublasDestroy(p.blas);
    if (s) cudaStreamDestroy(s);
    free(T);
    free(X);
    free(Y);
    return rc;
}

// The m-by-n column-major A also as a row-major copy T (the n-by-n tiles
// of a tile column, one after the other); both uploaded (*dR0 row-major,
// *dC0 column-major), room for a working copy *dA, and the tiles'
// addresses in it.  0, or -1 on a CUDA failure.
static int two_layouts(int m, int n, const double *A, double *T, double **dR0,
                       double **dC0, double **dA, double **tile)
{
    size_t bytes = sizeof(double) * (size_t)m * n;
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++)
            T[(size_t)i * n + j] = A[i + (size_t)j * m];
    if (!CUDA_OK(cudaMalloc((void **)dR0, bytes)) ||
        !CUDA_OK(cudaMalloc((void **)dC0, bytes)) ||
        !CUDA_OK(cudaMalloc((void **)dA, bytes)) ||
        !CUDA_OK(cudaMemcpy(*dR0, T, bytes, cudaMemcpyHostToDevice)) ||
        !CUDA_OK(cudaMemcpy(*dC0, A, bytes, cudaMemcpyHostToDevice)))
        return -1;
    for (int t = 0; t < (m + n - 1) / n; t++)
        tile[t] = *dA + (size_t)t * n * n;
    return 0;
}

struct getrf_run {
    int m, n;
    double *dA;
    int *dipiv, *dinfo;
    double *tile[HYLA_CUDA_LASWP_MAXTILES];
    int ntiles;
    void *dwork;
    cublasHandle_t blas;
    cusolverDnHandle_t solver;
    double *work;
};

// hyla's panel on n-by-n row-major tiles stored one after the other: the
// m-by-n row-major matrix.
static int run_hyla_getrf(void *arg)
{
    struct getrf_run *p = arg;
    return hyla_cuda_dgetrf_panel(p->blas, p->tile, p->ntiles, p->n, p->m, p->n,
                                  p->n, p->dipiv, 0, p->dinfo, p->dwork, 0, 0);
}

static int run_ref_getrf(void *arg)
{
    struct getrf_run *p = arg;
    return cusolverDnDgetrf(p->solver, p->m, p->n, p->dA, p->m, p->work,
                            p->dipiv, p->dinfo) != CUSOLVER_STATUS_SUCCESS;
}

int kernels_dgetrf(int m, int n, int repeat, kernel_result_t *r)
{
    size_t mn = (size_t)m * n, bytes = sizeof(double) * mn;
    double *A = malloc(bytes), *T = malloc(bytes), *X = malloc(bytes);
    int *ph = malloc(sizeof(int) * n), *pr = malloc(sizeof(int) * n);
    double *dR0 = NULL, *dC0 = NULL;
    struct getrf_run p = {.m = m, .n = n, .ntiles = (m + n - 1) / n};
    cudaStream_t s = NULL;
    int rc = -1, lwork = 0;
    if (!A || !T || !X || !ph || !pr || m < n ||
        p.ntiles > HYLA_CUDA_LASWP_MAXTILES || !CUDA_OK(cudaStreamCreate(&s)) ||
        cublasCreate(&p.blas) != CUBLAS_STATUS_SUCCESS ||
        cusolverDnCreate(&p.solver) != CUSOLVER_STATUS_SUCCESS ||
        cublasSetStream(p.blas, s) != CUBLAS_STATUS_SUCCESS ||
        cusolverDnSetStream(p.solver, s) != CUSOLVER_STATUS_SUCCESS)
        goto out;
    hyla_check_dgen(m, n, A, m, 1);
    if (two_layouts(m, n, A, T, &dR0, &dC0, &p.dA, p.tile) ||
        !CUDA_OK(cudaMalloc((void **)&p.dipiv, sizeof(int) * n)) ||
        !CUDA_OK(cudaMalloc((void **)&p.dinfo, sizeof(int))) ||
        !CUDA_OK(cudaMalloc(&p.dwork, HYLA_CUDA_GETRF_PANEL_WORK)) ||
        !CUDA_OK(cudaMemset(p.dwork, 0, HYLA_CUDA_GETRF_PANEL_WORK)) ||
        !CUDA_OK(cudaMemset(p.dinfo, 0, sizeof(int))) ||
        cusolverDnDgetrf_bufferSize(p.solver, m, n, p.dA, m, &lwork) !=
            CUSOLVER_STATUS_SUCCESS ||
        !CUDA_OK(
            cudaMalloc((void **)&p.work, sizeof(double) * (lwork ? lwork : 1))))
        goto out;
    if (time_runs(s, repeat, p.dA, dR0, bytes, run_hyla_getrf, &p,
                  &r->hyla_s) ||
        !CUDA_OK(cudaMemcpy(&r->hyla_info, p.dinfo, sizeof(int),
                            cudaMemcpyDeviceToHost)) ||
        !CUDA_OK(cudaMemcpy(T, p.dA, bytes, cudaMemcpyDeviceToHost)) ||
        !CUDA_OK(
            cudaMemcpy(ph, p.dipiv, sizeof(int) * n, cudaMemcpyDeviceToHost)) ||
        !CUDA_OK(cudaMemset(p.dinfo, 0, sizeof(int))) ||
        time_runs(s, repeat, p.dA, dC0, bytes, run_ref_getrf, &p, &r->ref_s) ||
        !CUDA_OK(cudaMemcpy(&r->ref_info, p.dinfo, sizeof(int),
                            cudaMemcpyDeviceToHost)) ||
        !CUDA_OK(cudaMemcpy(X, p.dA, bytes, cudaMemcpyDeviceToHost)) ||
        !CUDA_OK(
            cudaMemcpy(pr, p.dipiv, sizeof(int) * n, cudaMemcpyDeviceToHost)))
        goto out;
    // The same factors if the pivots agree: compare them, else report 1.
    double dmax = 0, amax = 0;
    int same = 1;
    for (int j = 0; j < n; j++)
        same &= ph[j] == pr[j];
    for (int j = 0; j < n; j++)
        for (int i = 0; i < m; i++) {
            double ref = X[i + (size_t)j * m];
            dmax = fmax(dmax, fabs(T[(size_t)i * n + j] - ref));
            amax = fmax(amax, fabs(ref));
        }
    r->diff = !same ? 1.0 : amax > 0 ? dmax / amax : dmax;
    rc = 0;
out:
    if (rc) fprintf(stderr, "hyla-kernels: a CUDA call failed (m = %d)\n", m);
    cudaFree(dR0);
    cudaFree(dC0);
    cudaFree(p.dA);
    cudaFree(p.dipiv);
    cudaFree(p.dinfo);
    cudaFree(p.dwork);
    cudaFree(p.work);
    if (p.solver) cusolverDnDestroy(p.solver);
    if (p.blas) cublasDestroy(p.blas);
    if (s) cudaStreamDestroy(s);
    free(A);
    free(T);
    free(X);
    free(ph);
    free(pr);
    return rc;
}

struct laswp_run {
    int m, n;
    double *dA;
    const int *dipiv;
    double *tile[HYLA_CUDA_LASWP_MAXTILES];
    int ntiles;
    cudaStream_t s;
    cusolverDnHandle_t solver;
};

static int run_hyla_laswp(void *arg)
{
    struct laswp_run *p = arg;
    return hyla_cuda_dlaswp(p->tile, p->ntiles, p->n, p->m, p->n, p->n,
                            p->dipiv, 0, p->n, 0, 1, p->s);
}

static int run_ref_laswp(void *arg)
{
    struct laswp_run *p = arg;
    return cusolverDnDlaswp(p->solver, p->n, p->dA, p->m, 1, p->n, p->dipiv,
                            1) != CUSOLVER_STATUS_SUCCESS;
}

int kernels_dlaswp(int m, int n, int repeat, kernel_result_t *r)
{
    size_t mn = (size_t)m * n, bytes = sizeof(double) * mn;
    double *A = malloc(bytes), *T = malloc(bytes), *X = malloc(bytes);
    int *ipiv = malloc(sizeof(int) * n), *dipiv = NULL;
    double *dR0 = NULL, *dC0 = NULL;
    struct laswp_run p = {.m = m, .n = n, .ntiles = (m + n - 1) / n};
    int rc = -1;
    if (!A || !T || !X || !ipiv || m < n ||
        p.ntiles > HYLA_CUDA_LASWP_MAXTILES ||
        !CUDA_OK(cudaStreamCreate(&p.s)) ||
        cusolverDnCreate(&p.solver) != CUSOLVER_STATUS_SUCCESS ||
        cusolverDnSetStream(p.solver, p.s) != CUSOLVER_STATUS_SUCCESS)
        goto out;
    hyla_check_dgen(m, n, A, m, 1);
    // Pivots as an LU leaves them: row i goes with a row p >= i.
    unsigned s = 12345u;
    for (int i = 0; i < n; i++) {
        s = s * 1664525u + 1013904223u;
        ipiv[i] = i + 1 + (int)((s >> 8) % (unsigned)(m - i));
    }
    if (two_layouts(m, n, A, T, &dR0, &dC0, &p.dA, p.tile) ||
        !CUDA_OK(cudaMalloc((void **)&dipiv, sizeof(int) * n)) ||
        !CUDA_OK(
            cudaMemcpy(dipiv, ipiv, sizeof(int) * n, cudaMemcpyHostToDevice)))
        goto out;
    p.dipiv = dipiv;
    if (time_runs(p.s, repeat, p.dA, dR0, bytes, run_hyla_laswp, &p,
                  &r->hyla_s) ||
        !CUDA_OK(cudaMemcpy(T, p.dA, bytes, cudaMemcpyDeviceToHost)) ||
        time_runs(p.s, repeat, p.dA, dC0, bytes, run_ref_laswp, &p,
                  &r->ref_s) ||
        !CUDA_OK(cudaMemcpy(X, p.dA, bytes, cudaMemcpyDeviceToHost)))
        goto out;
    double dmax = 0;
    for (int j = 0; j < n; j++)
        for (int i = 0; i < m; i++)
            dmax =
                fmax(dmax, fabs(T[(size_t)i * n + j] - X[i + (size_t)j * m]));
    r->diff = dmax;
    r->hyla_info = r->ref_info = 0;
    rc = 0;
out:
    if (rc) fprintf(stderr, "hyla-kernels: a CUDA call failed (m = %d)\n", m);
    cudaFree(dR0);
    cudaFree(dC0);
    cudaFree(p.dA);
    cudaFree(dipiv);
    if (p.solver) cusolverDnDestroy(p.solver);
    if (p.s) cudaStreamDestroy(p.s);
    free(A);
    free(T);
    free(X);
    free(ipiv);
    return rc;
}

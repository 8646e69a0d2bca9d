// SPDX-License-Identifier: BSD-3-Clause
// hyla-kernels: the product of a tile row by one vector (one kernel over
// every tile) against cuBLAS's GEMV on each tile, as one right-hand
// side's products were done before.  @precisions d -> s
#include "kernels.h"
#include "check.h"
#include "gpu.h"
#include "gpu_time.h"

#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define CUDA_OK(call) ((call) == cudaSuccess)

struct gemv_run {
    int n, count;
    const double **A, **x; // device addresses of the tiles and x's pieces
    int *k, *ld, *inc;
    double *dy;
    cublasHandle_t blas;
};

static int run_hyla(void *arg)
{
    struct gemv_run *p = arg;
    cudaStream_t s;
    return cublasGetStream(p->blas, &s) != CUBLAS_STATUS_SUCCESS ||
           hyla_cuda_dgemv_sum(s, p->n, p->count, p->A, p->k, p->ld, p->x,
                               p->inc, 1.0, 0.0, p->dy, 1);
}

// A row-major n-by-k tile is cuBLAS's column-major k-by-n: y = A x is
// its transposed product.
static int run_ref(void *arg)
{
    struct gemv_run *p = arg;
    const double one = 1, zero = 0;
    for (int j = 0; j < p->count; j++)
        if (cublasDgemv(p->blas, CUBLAS_OP_T, p->k[j], p->n, &one, p->A[j],
                        p->ld[j], p->x[j], 1, j ? &one : &zero, p->dy,
                        1) != CUBLAS_STATUS_SUCCESS)
            return 1;
    return 0;
}

// The n-by-w row as ceil(w / n) row-major tiles of order n (the last
// narrower), stored one after another, times a w-vector.
int kernels_dgemv_sum(int n, int w, int repeat, kernel_result_t *r)
{
    int count = (w + n - 1) / n;
    size_t size = (size_t)n * w, bytes = sizeof(double) * size;
    double *A = malloc(bytes), *x = malloc(sizeof(double) * w);
    double *yh = malloc(sizeof(double) * n), *yr = malloc(sizeof(double) * n);
    struct gemv_run p = {.n = n, .count = count};
    p.A = malloc(sizeof *p.A * count);
    p.x = malloc(sizeof *p.x * count);
    p.k = malloc(sizeof *p.k * count);
    p.ld = p.k; // tiles as wide as their leading dimension
    p.inc = malloc(sizeof *p.inc * count);
    double *dA = NULL, *dx = NULL, *dy0 = NULL;
    cudaStream_t s = NULL;
    int rc = -1;
    if (!A || !x || !yh || !yr || !p.A || !p.x || !p.k || !p.inc ||
        !CUDA_OK(cudaStreamCreate(&s)) ||
        cublasCreate(&p.blas) != CUBLAS_STATUS_SUCCESS ||
        cublasSetStream(p.blas, s) != CUBLAS_STATUS_SUCCESS)
        goto out;
    hyla_check_dgen((int)size, 1, A, (int)size, 1);
    hyla_check_dgen(w, 1, x, w, 2);
    if (!CUDA_OK(cudaMalloc((void **)&dA, bytes)) ||
        !CUDA_OK(cudaMalloc((void **)&dx, sizeof(double) * w)) ||
        !CUDA_OK(cudaMalloc((void **)&p.dy, sizeof(double) * n)) ||
        !CUDA_OK(cudaMalloc((void **)&dy0, sizeof(double) * n)) ||
        !CUDA_OK(cudaMemset(dy0, 0, sizeof(double) * n)) ||
        !CUDA_OK(cudaMemcpy(dA, A, bytes, cudaMemcpyHostToDevice)) ||
        !CUDA_OK(cudaMemcpy(dx, x, sizeof(double) * w, cudaMemcpyHostToDevice)))
        goto out;
    for (int j = 0; j < count; j++) {
        p.k[j] = j < count - 1 ? n : w - (count - 1) * n;
        p.A[j] = dA + (size_t)n * n * j;
        p.x[j] = dx + (size_t)n * j;
        p.inc[j] = 1;
    }
    if (gpu_time_runs(s, repeat, p.dy, dy0, sizeof(double) * n, run_hyla, &p,
                      &r->hyla_s) ||
        !CUDA_OK(
            cudaMemcpy(yh, p.dy, sizeof(double) * n, cudaMemcpyDeviceToHost)) ||
        gpu_time_runs(s, repeat, p.dy, dy0, sizeof(double) * n, run_ref, &p,
                      &r->ref_s) ||
        !CUDA_OK(
            cudaMemcpy(yr, p.dy, sizeof(double) * n, cudaMemcpyDeviceToHost)))
        goto out;
    double dmax = 0, ymax = 0;
    for (int i = 0; i < n; i++) {
        dmax = fmax(dmax, fabs(yh[i] - yr[i]));
        ymax = fmax(ymax, fabs(yr[i]));
    }
    r->diff = ymax > 0 ? dmax / ymax : dmax;
    rc = 0;
out:
    if (rc) fprintf(stderr, "hyla-kernels: a CUDA call failed (n = %d)\n", n);
    cudaFree(dA);
    cudaFree(dx);
    cudaFree(p.dy);
    cudaFree(dy0);
    if (p.blas) cublasDestroy(p.blas);
    if (s) cudaStreamDestroy(s);
    free(A);
    free(x);
    free(yh);
    free(yr);
    free(p.A);
    free(p.x);
    free(p.k);
    free(p.inc);
    return rc;
}

// SPDX-License-Identifier: BSD-3-Clause
// The GPU tile Cholesky kernel alone.  @precisions d -> s
#include "check.h"
#include "gpu.h"
#include "gpu_harness.h"

#include <lapacke.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// Checks hyla_cuda_dpotrf on row-major tiles, both triangles, orders
// around its 64-column steps, 64-row panel blocks and blocks of steps (1 to
// 2048; blocks of 512 columns, the default, of one step and of 192) with a
// leading dimension wider than the tile: the residual ||A - L L^T|| / (||A||
// n eps), the other triangle untouched, and info equal to LAPACKE_dpotrf's
// for a negative or NaN diagonal entry in the first step, in the middle of a
// step, on a step edge, on a block edge and at the end.  Exits 77 (SKIP)
// without a GPU.  Run it under compute-sanitizer.

static cublasHandle_t handle;

// Factor the n-by-n column-major A (lda) on the GPU as a row-major tile
// with leading dimension ld; returns info, or -1 on a CUDA failure.
static int factor(int uplo, int n, double *A, int lda, int ld)
{
    size_t bytes = sizeof(double) * (size_t)n * ld;
    double *T = malloc(bytes ? bytes : 1), *dT;
    int *dinfo, info = -1;
    // Row-major T(i, j) = A(i, j): T[i*ld + j] = A[i + j*lda].
    for (int i = 0; i < n; i++)
        for (int j = 0; j < ld; j++)
            T[(size_t)i * ld + j] = j < n ? A[i + (size_t)j * lda] : 7.0;
    if (cudaMalloc((void **)&dT, bytes ? bytes : 1) ||
        cudaMalloc((void **)&dinfo, sizeof(int)) ||
        cudaMemcpy(dT, T, bytes, cudaMemcpyHostToDevice) ||
        cudaMemset(dinfo, 0, sizeof(int)))
        goto out;
    if (hyla_cuda_dpotrf(handle, uplo, n, dT, ld, dinfo, 0) ||
        cudaDeviceSynchronize() ||
        cudaMemcpy(T, dT, bytes, cudaMemcpyDeviceToHost) ||
        cudaMemcpy(&info, dinfo, sizeof(int), cudaMemcpyDeviceToHost))
        info = -1;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            A[i + (size_t)j * lda] = T[(size_t)i * ld + j];
out:
    cudaFree(dT);
    cudaFree(dinfo);
    free(T);
    return info;
}

// One case: bad_j >= 0 puts `bad` at A(bad_j, bad_j).
static void run(int uplo, int n, int block, int bad_j, double bad, int seed)
{
    hyla_cuda_potrf_tune(block);
    char u = uplo == HYLA_LOWER ? 'L' : 'U';
    int lda = n + 3, ld = n + 5;
    size_t size = (size_t)lda * (n ? n : 1);
    double *A = malloc(sizeof(double) * size),
           *F = malloc(sizeof(double) * size);
    double *R = malloc(sizeof(double) * size);
    hyla_check_dgen_spd(n, A, lda, seed);
    if (bad_j >= 0) A[bad_j + (size_t)bad_j * lda] = bad;
    memcpy(F, A, sizeof(double) * size);
    memcpy(R, A, sizeof(double) * size);

    th_tic();
    int info = factor(uplo, n, F, lda, ld);
    double t = th_toc();
    int rinfo = n ? LAPACKE_dpotrf(LAPACK_COL_MAJOR, u, n, R, lda) : 0;
    if (bad_j >= 0 && isnan(bad)) rinfo = bad_j + 1; // LAPACK's dpotrf2
    double resid =
        info == 0 ? hyla_check_dresid_potrf(u, n, A, lda, F, lda) : 0.0;
    // The other triangle is not referenced: it must come back unchanged.
    int untouched = 1;
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++)
            if (uplo == HYLA_LOWER ? i < j : i > j)
                untouched &= F[i + (size_t)j * lda] == A[i + (size_t)j * lda];
    char note[96];
    snprintf(note, sizeof note, "uplo=%c info=%d/%d%s%s", u, info, rinfo,
             bad_j >= 0 ? (isnan(bad) ? " NaN" : " negative") : "",
             untouched ? "" : " other-triangle-changed");
    th_row("dpotrf_gpu", n, n, block, t, n * (double)n * n / 3.0, resid,
           info == rinfo && resid <= HYLA_CHECK_TOL && untouched, note);
    free(A);
    free(F);
    free(R);
}

int main(void)
{
    th_begin("dpotrf (GPU kernel)");
    if (!th_gpu_start(&handle)) return th_end();
    int seed = 1;
    static const int ns[] = {1,   5,   31,  32,  33,  63,  64,  65,  95,
                             127, 128, 129, 200, 257, 600, 1000, 2048};
    for (int uplo = HYLA_UPPER; uplo <= HYLA_LOWER; uplo++) {
        // The default first, then on the orders with more than one step.
        static const int blocks[] = {HYLA_CUDA_POTRF_BLOCK, 64, 192};
        for (size_t b = 0; b < sizeof blocks / sizeof blocks[0]; b++)
            for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++)
                if (b == 0 || ns[i] > 64)
                    run(uplo, ns[i], blocks[b], -1, 0.0, seed++);
        static const int bad[] = {0,  10,  31,  32,  63,  64,  95,
                                  96, 127, 128, 140, 191, 192, 299};
        static const int bad_blocks[] = {192, HYLA_CUDA_POTRF_BLOCK};
        for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
            for (size_t b = 0; b < 2; b++) {
                run(uplo, 300, bad_blocks[b], bad[i], -1.0, seed++);
                run(uplo, 300, bad_blocks[b], bad[i], NAN, seed++);
            }
    }
    cublasDestroy(handle);
    return th_end();
}

// SPDX-License-Identifier: BSD-3-Clause
// The GPU matrix product alone.  @precisions d -> s
#include "check.h"
#include "gpu.h"
#include "gpu_harness.h"

#include <cblas.h>
#include <lapacke.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

// Checks hyla_cuda_dgemm on row-major matrices for every transpose pair,
// with C one column or one row (cuBLAS's GEMV, x and y strided when the
// leading dimensions say so), k = 0 (C scaled by beta), and general
// shapes, leading dimensions wider than the matrices, beta = 0 with NaN in
// C (C must not be read) and beta != 0: the error against OpenBLAS,
// ||C - C_ref|| / ((|alpha| ||op(A)|| ||op(B)|| + |beta| ||C0||) max(k,1)
// eps), 1-norms.  Exits 77 (SKIP) without a GPU.

static cublasHandle_t handle;

// The 1-norm of the row-major r-by-c X (ld), or of its transpose.
static double norm1(int trans, int r, int c, const double *X, int ld)
{
    double best = 0.0;
    int rows = trans ? c : r, cols = trans ? r : c;
    for (int j = 0; j < cols; j++) {
        double s = 0.0;
        for (int i = 0; i < rows; i++)
            s += fabs(trans ? X[(size_t)j * ld + i] : X[(size_t)i * ld + j]);
        if (s > best) best = s;
    }
    return best;
}

static void run(int ta, int tb, int m, int n, int k, double beta, int seed)
{
    const double alpha = -1.5;
    // op(A) is m-by-k, op(B) k-by-n: A is stored ar-by-ac, B br-by-bc.
    int ar = ta == HYLA_NO_TRANS ? m : k, ac = ta == HYLA_NO_TRANS ? k : m;
    int br = tb == HYLA_NO_TRANS ? k : n, bc = tb == HYLA_NO_TRANS ? n : k;
    int lda = ac + 3, ldb = bc + 5, ldc = n + 7;
    size_t asize = (size_t)(ar ? ar : 1) * lda;
    size_t bsize = (size_t)(br ? br : 1) * ldb, csize = (size_t)m * ldc;
    double *A = malloc(sizeof(double) * asize);
    double *B = malloc(sizeof(double) * bsize);
    double *C = malloc(sizeof(double) * csize);
    double *R = malloc(sizeof(double) * csize);
    double *dA = NULL, *dB = NULL, *dC = NULL;
    hyla_check_dgen((int)asize, 1, A, (int)asize, seed);
    hyla_check_dgen((int)bsize, 1, B, (int)bsize, seed + 1);
    hyla_check_dgen((int)csize, 1, C, (int)csize, seed + 2);
    double cnorm = norm1(0, m, n, C, ldc);
    // With beta = 0 C is written, never read: NaN there must not show.
    if (beta == 0.0)
        for (size_t i = 0; i < csize; i++)
            C[i] = NAN;
    for (size_t i = 0; i < csize; i++)
        R[i] = C[i];
    size_t ab = sizeof(double) * asize, bb = sizeof(double) * bsize,
           cb = sizeof(double) * csize;
    int ok = !cudaMalloc((void **)&dA, ab) && !cudaMalloc((void **)&dB, bb) &&
             !cudaMalloc((void **)&dC, cb) &&
             !cudaMemcpy(dA, A, ab, cudaMemcpyHostToDevice) &&
             !cudaMemcpy(dB, B, bb, cudaMemcpyHostToDevice) &&
             !cudaMemcpy(dC, C, cb, cudaMemcpyHostToDevice);
    th_tic();
    ok = ok &&
         !hyla_cuda_dgemm(handle, ta, tb, m, n, k, alpha, dA, lda, dB, ldb,
                          beta, dC, ldc) &&
         !cudaDeviceSynchronize();
    double t = th_toc();
    ok = ok && !cudaMemcpy(C, dC, cb, cudaMemcpyDeviceToHost);
    double err = INFINITY;
    if (ok) {
        cblas_dgemm(CblasRowMajor,
                    ta == HYLA_NO_TRANS ? CblasNoTrans : CblasTrans,
                    tb == HYLA_NO_TRANS ? CblasNoTrans : CblasTrans, m, n, k,
                    alpha, A, lda, B, ldb, beta, R, ldc);
        // Only C's m-by-n entries count; the gap past n must be untouched.
        double diff = 0.0;
        for (int j = 0; j < n; j++) {
            double s = 0.0;
            for (int i = 0; i < m; i++)
                s += fabs(C[(size_t)i * ldc + j] - R[(size_t)i * ldc + j]);
            if (s > diff || isnan(s)) diff = isnan(s) ? INFINITY : s;
        }
        for (int i = 0; i < m && beta != 0.0; i++)
            for (int j = n; j < ldc; j++)
                if (C[(size_t)i * ldc + j] != R[(size_t)i * ldc + j])
                    diff = INFINITY;
        double scale = fabs(alpha) * norm1(ta, ar, ac, A, lda) *
                           norm1(tb, br, bc, B, ldb) +
                       fabs(beta) * cnorm;
        double eps = LAPACKE_dlamch('E');
        err = scale > 0 ? diff / (scale * (k > 1 ? k : 1) * eps) : diff;
    }
    char note[64];
    snprintf(note, sizeof note, "%c%c k %d beta %g",
             ta == HYLA_NO_TRANS ? 'N' : 'T', tb == HYLA_NO_TRANS ? 'N' : 'T',
             k, beta);
    th_row("dgemm_gpu", m, n, 0, t, 2.0 * m * n * k, err,
           ok && err <= HYLA_CHECK_TOL, note);
    cudaFree(dA);
    cudaFree(dB);
    cudaFree(dC);
    free(A);
    free(B);
    free(C);
    free(R);
}

int main(void)
{
    th_begin("dgemm (GPU)");
    if (!th_gpu_start(&handle)) return th_end();
    int seed = 1;
    // m, n, k: one column, one row, both, k = 0 for each, general.
    static const int shapes[][3] = {
        {300, 1, 257}, {1, 300, 257}, {1, 1, 500},    {300, 1, 0},
        {1, 300, 0},   {129, 77, 65}, {1024, 1, 1024}};
    static const double betas[] = {0.0, 0.5};
    for (int ta = HYLA_NO_TRANS; ta <= HYLA_TRANS; ta++)
        for (int tb = HYLA_NO_TRANS; tb <= HYLA_TRANS; tb++)
            for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++)
                for (int b = 0; b < 2; b++)
                    run(ta, tb, shapes[i][0], shapes[i][1], shapes[i][2],
                        betas[b], seed += 3);
    cublasDestroy(handle);
    return th_end();
}

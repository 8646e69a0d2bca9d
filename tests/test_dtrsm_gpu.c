// SPDX-License-Identifier: BSD-3-Clause
// The GPU triangular solve alone.  @precisions d -> s
#include "check.h"
#include "gpu.h"
#include "gpu_harness.h"

#include <cblas.h>
#include <lapacke.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

// Checks hyla_cuda_dtrsm on row-major tiles for every side, triangle,
// transpose and diagonal, with triangles below and above its recursion
// threshold (cuBLAS leaf of 256, halves joined by GEMMs), one right-hand
// side (cuBLAS's TRSV when alpha = 1), alpha = 1 and not, and leading
// dimensions wider than the tiles: the residual
// ||op(A) X - alpha B|| / (||A|| ||X|| k eps) (or X op(A)), 1-norms, with
// garbage in A's other triangle (and on its diagonal when unit).  Exits 77
// (SKIP) without a GPU.

static cublasHandle_t handle;

// The 1-norm of the row-major m-by-n X (ld).
static double norm1(int m, int n, const double *X, int ld)
{
    double best = 0.0;
    for (int j = 0; j < n; j++) {
        double s = 0.0;
        for (int i = 0; i < m; i++)
            s += fabs(X[(size_t)i * ld + j]);
        if (s > best) best = s;
    }
    return best;
}

static void run(int side, int uplo, int trans, int diag, int m, int n,
                double alpha, int seed)
{
    int k = side == HYLA_LEFT ? m : n, lda = k + 3, ldb = n + 5;
    size_t asize = (size_t)k * lda, bsize = (size_t)m * ldb;
    double *A = malloc(sizeof(double) * asize);
    double *T = calloc(asize, sizeof(double)); // the triangle alone
    double *B = malloc(sizeof(double) * bsize);
    double *X = malloc(sizeof(double) * bsize);
    double *dA = NULL, *dB = NULL;
    // Row-major A (k-by-k, lda) and B (m-by-n, ldb), from the generator's
    // column-major output read as row-major.
    hyla_check_dgen(lda, k, A, lda, seed);
    hyla_check_dgen(ldb, m, B, ldb, seed + 1);
    for (int i = 0; i < k; i++)
        for (int j = 0; j < k; j++) {
            double *a = &A[(size_t)i * lda + j];
            if (i == j && diag == HYLA_NON_UNIT) *a = *a > 0 ? *a + 2 : *a - 2;
            // A unit triangle of random entries has an inverse that grows
            // like 2^k; scaled by 1/k it stays well conditioned (in single
            // precision too).
            if (i != j && diag == HYLA_UNIT) *a /= k;
            if (uplo == HYLA_LOWER ? j < i : j > i)
                T[(size_t)i * lda + j] = *a;
            else if (i == j)
                T[(size_t)i * lda + j] = diag == HYLA_UNIT ? 1.0 : *a;
        }
    size_t abytes = sizeof(double) * asize, bbytes = sizeof(double) * bsize;
    int ok = !cudaMalloc((void **)&dA, abytes) &&
             !cudaMalloc((void **)&dB, bbytes) &&
             !cudaMemcpy(dA, A, abytes, cudaMemcpyHostToDevice) &&
             !cudaMemcpy(dB, B, bbytes, cudaMemcpyHostToDevice);
    th_tic();
    ok = ok &&
         !hyla_cuda_dtrsm(handle, side, uplo, trans, diag, m, n, alpha, dA, lda,
                          dB, ldb) &&
         !cudaDeviceSynchronize();
    double t = th_toc();
    ok = ok && !cudaMemcpy(X, dB, bbytes, cudaMemcpyDeviceToHost);
    double resid = INFINITY;
    if (ok) {
        // R = op(T) X - alpha B (or X op(T) - alpha B), into B.
        CBLAS_TRANSPOSE tt = trans == HYLA_NO_TRANS ? CblasNoTrans : CblasTrans;
        if (side == HYLA_LEFT)
            cblas_dgemm(CblasRowMajor, tt, CblasNoTrans, m, n, k, 1.0, T, lda,
                        X, ldb, -alpha, B, ldb);
        else
            cblas_dgemm(CblasRowMajor, CblasNoTrans, tt, m, n, k, 1.0, X, ldb,
                        T, lda, -alpha, B, ldb);
        double eps = LAPACKE_dlamch('E');
        resid = norm1(m, n, B, ldb) /
                (norm1(k, k, T, lda) * norm1(m, n, X, ldb) * k * eps);
    }
    char note[64];
    snprintf(note, sizeof note, "%s %s %s %s alpha %g",
             side == HYLA_LEFT ? "L" : "R",
             uplo == HYLA_LOWER ? "lower" : "upper",
             trans == HYLA_NO_TRANS ? "N" : "T",
             diag == HYLA_UNIT ? "unit" : "non-unit", alpha);
    th_row("dtrsm_gpu", m, n, 256, t, (double)m * n * k, resid,
           ok && resid <= HYLA_CHECK_TOL, note);
    cudaFree(dA);
    cudaFree(dB);
    free(A);
    free(T);
    free(B);
    free(X);
}

int main(void)
{
    th_begin("dtrsm (GPU)");
    if (!th_gpu_start(&handle)) return th_end();
    int seed = 1;
    static const int sizes[][2] = {{1, 1},      {100, 37}, {300, 257},
                                   {700, 1000}, {700, 1},  {1, 700}};
    static const double alphas[] = {-1.5, 1.0};
    for (int side = HYLA_LEFT; side <= HYLA_RIGHT; side++)
        for (int uplo = HYLA_UPPER; uplo <= HYLA_LOWER; uplo++)
            for (int trans = HYLA_NO_TRANS; trans <= HYLA_TRANS; trans++)
                for (int diag = HYLA_NON_UNIT; diag <= HYLA_UNIT; diag++)
                    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
                        for (int a = 0; a < 2; a++)
                            run(side, uplo, trans, diag, sizes[i][0],
                                sizes[i][1], alphas[a], seed += 2);
    cublasDestroy(handle);
    return th_end();
}

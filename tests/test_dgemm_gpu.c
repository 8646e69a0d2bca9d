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
// eps), 1-norms.  Then hyla_cuda_dgemv_sum (run_sum).  Exits 77 (SKIP)
// without a GPU.

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

// hyla_cuda_dgemv_sum: y = alpha sum_j A_j x_j + beta y over `count`
// row-major m-by-k_j tiles (k_j = k, the last klast), lda_j = k_j + 3,
// x_j two apart, y three apart, against the same sum on the CPU; each
// entry's error in units of eps (K + 1) (|alpha| sum_j |A_j| |x_j| +
// |beta| |y|), K = sum_j k_j.  With beta = 0, NaN in y must not show;
// the entries between y's must stay as they were.  count > 64 takes two
// launches.
static void run_sum(int m, int count, int k, int klast, double beta, int seed)
{
    const double alpha = -1.5;
    const int incx = 2, incy = 3;
    int K = 0;
    size_t asize = 0, xsize = 0, ysize = (size_t)m * incy;
    for (int j = 0; j < count; j++) {
        int kj = j == count - 1 ? klast : k;
        K += kj;
        asize += (size_t)m * (kj + 3);
        xsize += (size_t)kj * incx;
    }
    double *A = malloc(sizeof(double) * (asize + 1));
    double *X = malloc(sizeof(double) * (xsize + 1));
    double *Y = malloc(sizeof(double) * ysize);
    double *R = malloc(sizeof(double) * ysize);
    double *bound = calloc((size_t)m, sizeof(double));
    const double **Ap = malloc(sizeof(double *) * (count + 1));
    const double **xp = malloc(sizeof(double *) * (count + 1));
    int *kk = malloc(sizeof(int) * (count + 1));
    int *lda = malloc(sizeof(int) * (count + 1));
    int *incs = malloc(sizeof(int) * (count + 1));
    double *dA = NULL, *dX = NULL, *dY = NULL;
    hyla_check_dgen((int)asize + 1, 1, A, (int)asize + 1, seed);
    hyla_check_dgen((int)xsize + 1, 1, X, (int)xsize + 1, seed + 1);
    hyla_check_dgen((int)ysize, 1, Y, (int)ysize, seed + 2);
    for (int i = 0; i < m; i++) {
        R[(size_t)i * incy] = beta * Y[(size_t)i * incy];
        bound[i] = fabs(beta * Y[(size_t)i * incy]);
        if (beta == 0.0) Y[(size_t)i * incy] = NAN, R[(size_t)i * incy] = 0.0;
        for (int g = 1; g < incy; g++)
            R[(size_t)i * incy + g] = Y[(size_t)i * incy + g];
    }
    int ok = Ap && xp && kk && lda && incs && A && X && Y && R && bound &&
             !cudaMalloc((void **)&dA, sizeof(double) * (asize + 1)) &&
             !cudaMalloc((void **)&dX, sizeof(double) * (xsize + 1)) &&
             !cudaMalloc((void **)&dY, sizeof(double) * ysize) &&
             !cudaMemcpy(dA, A, sizeof(double) * (asize + 1),
                         cudaMemcpyHostToDevice) &&
             !cudaMemcpy(dX, X, sizeof(double) * (xsize + 1),
                         cudaMemcpyHostToDevice) &&
             !cudaMemcpy(dY, Y, sizeof(double) * ysize, cudaMemcpyHostToDevice);
    size_t ao = 0, xo = 0;
    for (int j = 0; ok && j < count; j++) {
        kk[j] = j == count - 1 ? klast : k;
        lda[j] = kk[j] + 3;
        incs[j] = incx;
        Ap[j] = dA + ao;
        xp[j] = dX + xo;
        for (int i = 0; i < m; i++)
            for (int c = 0; c < kk[j]; c++) {
                double p =
                    A[ao + (size_t)i * lda[j] + c] * X[xo + (size_t)c * incx];
                R[(size_t)i * incy] += alpha * p;
                bound[i] += fabs(alpha * p);
            }
        ao += (size_t)m * lda[j];
        xo += (size_t)kk[j] * incx;
    }
    th_tic();
    ok = ok &&
         !hyla_cuda_dgemv_sum(0, m, count, Ap, kk, lda, xp, incs, alpha, beta,
                              dY, incy) &&
         !cudaDeviceSynchronize() &&
         !cudaMemcpy(Y, dY, sizeof(double) * ysize, cudaMemcpyDeviceToHost);
    double t = th_toc(), err = ok ? 0.0 : INFINITY;
    double eps = LAPACKE_dlamch('E');
    for (int i = 0; ok && i < m; i++) {
        double d = fabs(Y[(size_t)i * incy] - R[(size_t)i * incy]);
        double e = d == 0.0 ? 0.0 : d / (bound[i] * eps * (K + 1));
        if (!(e <= err)) err = isnan(e) ? INFINITY : e;
        for (int g = 1; g < incy; g++)
            if (Y[(size_t)i * incy + g] != R[(size_t)i * incy + g])
                err = INFINITY;
    }
    char note[64];
    snprintf(note, sizeof note, "sum of %d, k %d/%d beta %g", count, k, klast,
             beta);
    th_row("dgemv_sum_gpu", m, 1, 0, t, 2.0 * m * K, err,
           ok && err <= HYLA_CHECK_TOL, note);
    cudaFree(dA);
    cudaFree(dX);
    cudaFree(dY);
    free(A);
    free(X);
    free(Y);
    free(R);
    free(bound);
    free(Ap);
    free(xp);
    free(kk);
    free(lda);
    free(incs);
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
    // m, count, k, the last term's k: one term, an edge tile, a tile row
    // of 16384, rows not a multiple of a block's, no term (beta y), two
    // launches.
    static const int sums[][4] = {{300, 1, 257, 257},     {300, 5, 257, 100},
                                  {1024, 16, 1024, 1024}, {1030, 3, 1024, 6},
                                  {1, 4, 50, 50},         {3, 2, 1, 1},
                                  {300, 0, 0, 0},         {40, 70, 33, 20}};
    for (size_t i = 0; i < sizeof sums / sizeof sums[0]; i++)
        for (int b = 0; b < 2; b++)
            run_sum(sums[i][0], sums[i][1], sums[i][2], sums[i][3], betas[b],
                    seed += 3);
    cublasDestroy(handle);
    return th_end();
}

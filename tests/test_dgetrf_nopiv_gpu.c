// SPDX-License-Identifier: BSD-3-Clause
// The kernels of the LU without pivoting of one tile alone, GPU and CPU.
// @precisions d -> s
#include "check.h"
#include "cpu_d.h"
#include "gpu.h"
#include "gpu_harness.h"

#include <cblas.h>
#include <float.h>
#include <lapacke.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// Checks hyla_cuda_dgetrf_nopiv and hyla_cpu_dgetrf_nopiv on row-major
// tiles: orders around the GPU kernel's 64-column steps and its solve's
// blocks of 16 rows (1 to 2048), a leading dimension wider than the tile
// whose extra columns must stay as they were, diagonally dominant
// matrices (which need no pivoting): LAPACK's residual ||A - L U|| /
// (||A|| n eps) (1-norms) and info 0.  Then exact zero pivots, in integer
// matrices L U whose elimination is exact: info is the column of the
// first (offset by the tile's first column on the GPU) and, on the GPU,
// an info already set is kept.  With the argument "cpu" the CPU kernel,
// else the GPU one (exit 77, SKIP, without a GPU).  Run it under
// compute-sanitizer.

static cublasHandle_t handle;

// Factors the row-major tile A (n-by-n, ld) in place on the GPU with
// columns numbered from col0 and *info as given; returns 0, or -1 on a
// CUDA failure.
static int gpu_factor(int n, double *A, int ld, int col0, int *info)
{
    size_t bytes = sizeof(double) * (size_t)n * ld;
    double *dA = NULL;
    int *dinfo = NULL, rc = -1;
    if (cudaMalloc((void **)&dA, bytes ? bytes : 1) ||
        cudaMalloc((void **)&dinfo, sizeof(int)) ||
        cudaMemcpy(dA, A, bytes, cudaMemcpyHostToDevice) ||
        cudaMemcpy(dinfo, info, sizeof(int), cudaMemcpyHostToDevice))
        goto out;
    if (!hyla_cuda_dgetrf_nopiv(handle, n, dA, ld, dinfo, col0) &&
        !cudaDeviceSynchronize() &&
        !cudaMemcpy(A, dA, bytes, cudaMemcpyDeviceToHost) &&
        !cudaMemcpy(info, dinfo, sizeof(int), cudaMemcpyDeviceToHost))
        rc = 0;
out:
    cudaFree(dA);
    cudaFree(dinfo);
    return rc;
}

// ||A0 - L U|| / (||A0|| n eps) from the factors in F (n-by-n, ld).
static double residual(int n, const double *A0, const double *F, int ld)
{
    double *L = calloc((size_t)n * n + 1, sizeof(double));
    double *U = calloc((size_t)n * n + 1, sizeof(double));
    double *R = malloc(sizeof(double) * ((size_t)n * n + 1));
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            double f = F[(size_t)i * ld + j];
            if (j < i)
                L[(size_t)i * n + j] = f;
            else
                U[(size_t)i * n + j] = f;
            if (j == i) L[(size_t)i * n + j] = 1.0;
            R[(size_t)i * n + j] = A0[(size_t)i * ld + j];
        }
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, -1.0, L, n,
                U, n, 1.0, R, n);
    double r =
        LAPACKE_dlange(LAPACK_ROW_MAJOR, '1', n, n, R, n) /
        (LAPACKE_dlange(LAPACK_ROW_MAJOR, '1', n, n, A0, ld) * n * DBL_EPSILON);
    free(L);
    free(U);
    free(R);
    return r;
}

static int factor(int gpu, int n, double *A, int ld, int col0, int *info)
{
    if (gpu) return gpu_factor(n, A, ld, col0, info);
    int i = hyla_cpu_dgetrf_nopiv(n, A, ld);
    if (i) *info = col0 + i;
    return 0;
}

static void random_case(int gpu, int n, int seed)
{
    int ld = n + 3;
    size_t size = (size_t)n * ld + 1;
    double *A = malloc(sizeof(double) * size),
           *A0 = malloc(sizeof(double) * size);
    hyla_check_dgen(n, ld, A, n, seed); // column-major n-by-ld: any values
    for (int i = 0; i < n; i++)
        A[(size_t)i * ld + i] += 2.0 * n; // diagonally dominant by rows
    memcpy(A0, A, sizeof(double) * size);
    int info = 0;
    th_tic();
    int rc = factor(gpu, n, A, ld, 0, &info);
    double t = th_toc();
    int kept = 1;
    for (int i = 0; i < n; i++)
        for (int j = n; j < ld; j++)
            kept &= A[(size_t)i * ld + j] == A0[(size_t)i * ld + j];
    double resid = n && !rc ? residual(n, A0, A, ld) : 0.0;
    char note[64];
    snprintf(note, sizeof note, "%s info=%d%s", gpu ? "gpu" : "cpu", info,
             kept ? "" : " padding-changed");
    th_row("dgetrf_nopiv", n, n, 64, t, 2.0 * n * (double)n * n / 3.0, resid,
           !rc && !isnan(resid) && resid <= HYLA_CHECK_TOL && !info && kept,
           note);
    free(A);
    free(A0);
}

// A = L U with L unit lower and U upper of small integers, U(p, p) = 0:
// elimination without pivoting meets the exact zero at column p.
static void zero_pivot_case(int gpu, int n, int p, int preset)
{
    double *L = calloc((size_t)n * n, sizeof(double));
    double *U = calloc((size_t)n * n, sizeof(double));
    double *A = malloc(sizeof(double) * (size_t)n * n);
    unsigned r = 12345u + (unsigned)(n * 31 + p);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            r = r * 1103515245u + 12345u;
            int v = (int)((r >> 16) % 3) - 1; // -1, 0 or 1
            if (j < i) L[(size_t)i * n + j] = v;
            if (j > i) U[(size_t)i * n + j] = v;
        }
    for (int i = 0; i < n; i++) {
        L[(size_t)i * n + i] = 1.0;
        U[(size_t)i * n + i] = i == p ? 0.0 : 1.0;
    }
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0, L, n,
                U, n, 0.0, A, n);
    int col0 = gpu ? 7 : 0, info = preset;
    int rc = factor(gpu, n, A, n, col0, &info);
    int want = preset ? preset : col0 + p + 1;
    th_check(!rc && info == want,
             "%s dgetrf_nopiv n=%d zero pivot at %d (preset %d): info %d, "
             "expected %d",
             gpu ? "gpu" : "cpu", n, p, preset, info, want);
    free(L);
    free(U);
    free(A);
}

int main(int argc, char **argv)
{
    // "cpu": the CPU kernel (quick suite); otherwise the GPU kernel.
    int gpu = !(argc > 1 && !strcmp(argv[1], "cpu"));
    th_begin(gpu ? "dgetrf_nopiv (GPU kernel)" : "dgetrf_nopiv (CPU kernel)");
    if (gpu && !th_gpu_start(&handle)) return th_end();
    static const int ns[] = {1,   5,   31,  32,  33,  63,  64,  65,   100, 127,
                             128, 129, 160, 161, 200, 257, 511, 1024, 2048};
    for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++)
        random_case(gpu, ns[i], (int)i + 1);
    static const int zs[][2] = {{1, 0},     {40, 0},   {40, 31},  {64, 32},
                                {100, 39},  {100, 99}, {130, 63}, {130, 64},
                                {161, 150}, {200, 129}};
    for (size_t i = 0; i < sizeof zs / sizeof zs[0]; i++)
        zero_pivot_case(gpu, zs[i][0], zs[i][1], 0);
    if (gpu) zero_pivot_case(gpu, 100, 39, 5);
    if (gpu) cublasDestroy(handle);
    return th_end();
}

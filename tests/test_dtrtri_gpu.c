// SPDX-License-Identifier: BSD-3-Clause
// The triangular inverse kernels alone, GPU and CPU.  @precisions d -> s
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

// Checks hyla_cuda_dtrtri and hyla_cpu_dtrtri on row-major tiles, both
// triangles, orders around the GPU kernel's 64-column leaf and its
// recursion (1 to 1024), unit and non-unit diagonals, a leading dimension
// wider than the tile and garbage in the other triangle of A (and on the
// diagonal of a unit one): LAPACK's residual for an inverse,
// ||W T - I|| / (||T|| ||W|| n eps) (1-norms, T the triangle), the other
// triangle of W exactly zero, and A unchanged.  With the argument "cpu"
// the CPU kernel, else the GPU one (exit 77, SKIP, without a GPU).  Run
// it under compute-sanitizer.

static cublasHandle_t handle;

// The 1-norm of the row-major n-by-n X (ld).
static double norm1(int n, const double *X, int ld)
{
    double best = 0.0;
    for (int j = 0; j < n; j++) {
        double s = 0.0;
        for (int i = 0; i < n; i++)
            s += fabs(X[(size_t)i * ld + j]);
        if (s > best) best = s;
    }
    return best;
}

// Inverts the uplo triangle of the row-major tile A (n-by-n, ld) into W
// (same ld) on the GPU; returns 0 or -1 on a CUDA failure.
static int gpu_inverse(int uplo, int diag, int n, const double *A, double *W,
                       int ld)
{
    size_t bytes = sizeof(double) * (size_t)n * ld;
    double *dA = NULL, *dW = NULL;
    int rc = -1;
    if (!bytes) return 0;
    if (cudaMalloc((void **)&dA, bytes) || cudaMalloc((void **)&dW, bytes) ||
        cudaMemcpy(dA, A, bytes, cudaMemcpyHostToDevice) ||
        cudaMemset(dW, 0xff, bytes)) // NaN everywhere: every entry written
        goto out;
    if (!hyla_cuda_dtrtri(handle, uplo, diag, n, dA, ld, dW, ld) &&
        !cudaDeviceSynchronize() &&
        !cudaMemcpy(W, dW, bytes, cudaMemcpyDeviceToHost))
        rc = 0;
out:
    cudaFree(dA);
    cudaFree(dW);
    return rc;
}

static void run(int gpu, int uplo, int diag, int n, int seed)
{
    int ld = n + 3;
    size_t size = (size_t)n * ld + 1;
    double *S = malloc(sizeof(double) * ((size_t)n * n + 1));
    double *A = malloc(sizeof(double) * size),
           *A0 = malloc(sizeof(double) * size);
    double *T = calloc(size, sizeof(double)),
           *W = malloc(sizeof(double) * size);
    double *R = malloc(sizeof(double) * size);
    // A Cholesky factor: a triangle with a moderate condition number.
    hyla_check_dgen_spd(n, S, n, seed);
    if (n) LAPACKE_dpotrf(LAPACK_COL_MAJOR, 'L', n, S, n);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < ld; j++) {
            int in = j < n && (uplo == HYLA_LOWER ? j <= i : j >= i);
            // Lower: T(i, j) = L(i, j); upper: T(i, j) = L(j, i).
            double v = !in                  ? 1e30
                       : uplo == HYLA_LOWER ? S[i + (size_t)j * n]
                                            : S[j + (size_t)i * n];
            if (in && i == j && diag == HYLA_UNIT) {
                A[(size_t)i * ld + j] = 1e30; // never read
                T[(size_t)i * ld + j] = 1.0;
                continue;
            }
            A[(size_t)i * ld + j] = v;
            if (in) T[(size_t)i * ld + j] = v;
        }
    memcpy(A0, A, sizeof(double) * size);

    th_tic();
    int rc = gpu ? gpu_inverse(uplo, diag, n, A, W, ld)
                 : hyla_cpu_dtrtri(uplo, diag, n, A, ld, W, ld);
    double t = th_toc();

    // R = W T - I; the other triangle of W must be exactly zero.
    int zero = 1;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            if (uplo == HYLA_LOWER ? j > i : j < i)
                zero &= W[(size_t)i * ld + j] == 0.0;
    double resid = 0.0;
    if (n && !rc) {
        cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0, W,
                    ld, T, ld, 0.0, R, ld);
        for (int i = 0; i < n; i++)
            R[(size_t)i * ld + i] -= 1.0;
        resid = norm1(n, R, ld) /
                (norm1(n, T, ld) * norm1(n, W, ld) * n * DBL_EPSILON);
    }
    int same = !memcmp(A, A0, sizeof(double) * size);
    char note[96];
    snprintf(note, sizeof note, "%s uplo=%c diag=%c%s%s", gpu ? "gpu" : "cpu",
             uplo == HYLA_LOWER ? 'L' : 'U', diag == HYLA_UNIT ? 'U' : 'N',
             zero ? "" : " other-triangle!=0", same ? "" : " A-changed");
    th_row("dtrtri", n, n, 64, t, n * (double)n * n / 3.0, resid,
           rc == 0 && !isnan(resid) && resid <= HYLA_CHECK_TOL && zero && same,
           note);
    free(S);
    free(A);
    free(A0);
    free(T);
    free(W);
    free(R);
}

int main(int argc, char **argv)
{
    // "cpu": the CPU kernel (quick suite); otherwise the GPU kernel.
    int gpu = !(argc > 1 && !strcmp(argv[1], "cpu"));
    th_begin(gpu ? "dtrtri (GPU kernel)" : "dtrtri (CPU kernel)");
    if (gpu && !th_gpu_start(&handle)) return th_end();
    static const int ns[] = {1, 5, 63, 64, 65, 128, 200, 511, 1024};
    int seed = 1;
    for (int uplo = HYLA_UPPER; uplo <= HYLA_LOWER; uplo++)
        for (int diag = HYLA_NON_UNIT; diag <= HYLA_UNIT; diag++)
            for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++)
                run(gpu, uplo, diag, ns[i], seed++);
    if (gpu) cublasDestroy(handle);
    return th_end();
}

// SPDX-License-Identifier: BSD-3-Clause
// hyla-bench's multi-GPU reference: cuSolverMg, double precision.
// @precisions d -> s
#include "bench.h"
#include "energy.h"

#include <cuda_runtime.h>
#include <cusolverMg.h>
#include <stdint.h>
#include <stdio.h>

// cuSolverMg marks its whole API deprecated; it is still the multi-GPU
// dense solver the CUDA toolkit ships, and the one to compare with.
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

// Columns are dealt to the GPUs in blocks of this width (1-D block-cyclic,
// as cuSolverMg requires).
enum { MG_BLOCK = 512, MG_MAX_GPUS = 16 };

// The element type, written so that the single-precision copy says float.
#define MG_TYPE (sizeof(double) == 8 ? CUDA_R_64F : CUDA_R_32F)

// Host column block j (of MG_BLOCK columns) lives on GPU j % g as its
// local block j / g.
static void copy_blocks(int to_gpu, int m, int n, int g, double *A, double **dA,
                        int *ipiv, int **dipiv, cudaError_t *err)
{
    for (int j = 0; j * MG_BLOCK < n; j++) {
        int d = j % g, cols = n - j * MG_BLOCK;
        cols = cols < MG_BLOCK ? cols : MG_BLOCK;
        size_t bytes = sizeof(double) * (size_t)m * cols;
        double *host = A + (size_t)j * MG_BLOCK * m;
        double *dev = dA[d] + (size_t)(j / g) * MG_BLOCK * m;
        cudaError_t e = to_gpu
                            ? cudaMemcpy(dev, host, bytes, cudaMemcpyDefault)
                            : cudaMemcpy(host, dev, bytes, cudaMemcpyDefault);
        if (!e && ipiv && !to_gpu && j * MG_BLOCK < (m < n ? m : n)) {
            int k = (m < n ? m : n) - j * MG_BLOCK;
            k = k < cols ? k : cols;
            e = cudaMemcpy(ipiv + (size_t)j * MG_BLOCK,
                           dipiv[d] + (size_t)(j / g) * MG_BLOCK,
                           sizeof(int) * k, cudaMemcpyDefault);
        }
        if (e && !*err) *err = e;
    }
}

// getrf or potrf ('L') of the column-major m-by-n A (lda = m) on ngpus
// GPUs (<= 0: all), the matrix already distributed over them: only the
// factorization is timed.  A and ipiv get the result; returns LAPACK's
// info, or -1000 on a CUDA or cuSolverMg failure.
int bench_dcusolvermg(int potrf, int m, int n, int ngpus, double *A, int *ipiv,
                      seconds_t *seconds)
{
    int count = 0, info = -1000;
    if (cudaGetDeviceCount(&count) || count == 0) return -1000;
    int g = ngpus > 0 && ngpus < count ? ngpus : count;
    g = g < MG_MAX_GPUS ? g : MG_MAX_GPUS;
    int devs[MG_MAX_GPUS];
    double *dA[MG_MAX_GPUS] = {0}, *work[MG_MAX_GPUS] = {0};
    int *dipiv[MG_MAX_GPUS] = {0};
    cusolverMgHandle_t h = NULL;
    cudaLibMgGrid_t grid = NULL;
    cudaLibMgMatrixDesc_t desc = NULL;
    cudaError_t err = cudaSuccess;
    int64_t lwork = 0;
    int nblocks = (n + MG_BLOCK - 1) / MG_BLOCK;

    for (int d = 0; d < g; d++) {
        devs[d] = d;
        cudaSetDevice(d);
        for (int p = 0; p < g; p++)
            if (p != d) cudaDeviceEnablePeerAccess(p, 0); // may be on already
        cudaGetLastError();
        size_t cols = (size_t)((nblocks - d + g - 1) / g) * MG_BLOCK;
        if (cudaMalloc((void **)&dA[d],
                       sizeof(double) * m * (cols ? cols : 1)) ||
            cudaMalloc((void **)&dipiv[d], sizeof(int) * (cols ? cols : 1)))
            goto out;
    }
    if (cusolverMgCreate(&h) || cusolverMgDeviceSelect(h, g, devs) ||
        cusolverMgCreateDeviceGrid(&grid, 1, g, devs,
                                   CUDALIBMG_GRID_MAPPING_COL_MAJOR) ||
        cusolverMgCreateMatrixDesc(&desc, m, n, m, MG_BLOCK, MG_TYPE, grid))
        goto out;
    copy_blocks(1, m, n, g, A, dA, NULL, NULL, &err);
    if (err) goto out;
    if (potrf ? cusolverMgPotrf_bufferSize(h, CUBLAS_FILL_MODE_LOWER, n,
                                           (void **)dA, 1, 1, desc, MG_TYPE,
                                           &lwork)
              : cusolverMgGetrf_bufferSize(h, m, n, (void **)dA, 1, 1, desc,
                                           dipiv, MG_TYPE, &lwork))
        goto out;
    for (int d = 0; d < g; d++) {
        cudaSetDevice(d);
        if (cudaMalloc((void **)&work[d],
                       sizeof(double) * (lwork ? lwork : 1)) ||
            cudaDeviceSynchronize())
            goto out;
    }
    seconds_t t = bench_now();
    int st =
        potrf ? cusolverMgPotrf(h, CUBLAS_FILL_MODE_LOWER, n, (void **)dA, 1, 1,
                                desc, MG_TYPE, (void **)work, lwork, &info)
              : cusolverMgGetrf(h, m, n, (void **)dA, 1, 1, desc, dipiv,
                                MG_TYPE, (void **)work, lwork, &info);
    for (int d = 0; d < g; d++) {
        cudaSetDevice(d);
        if (cudaDeviceSynchronize()) st = 1;
    }
    *seconds = bench_now() - t;
    energy_mark(t, t + *seconds);
    if (st) {
        info = -1000;
        goto out;
    }
    copy_blocks(0, m, n, g, A, dA, potrf ? NULL : ipiv, dipiv, &err);
    if (err) info = -1000;
    // cuSolverMg's pivots index rows of the whole matrix from 1, as LAPACK.
out:
    if (info == -1000)
        fprintf(stderr, "hyla-bench: a cuSolverMg call failed\n");
    for (int d = 0; d < g; d++) {
        cudaSetDevice(d);
        cudaFree(dA[d]);
        cudaFree(dipiv[d]);
        cudaFree(work[d]);
    }
    cudaSetDevice(0);
    if (desc) cusolverMgDestroyMatrixDesc(desc);
    if (grid) cusolverMgDestroyGrid(grid);
    if (h) cusolverMgDestroy(h);
    return info;
}

// SPDX-License-Identifier: BSD-3-Clause
// hyla-bench's GPU reference: cuSOLVER, double precision.
// @precisions d -> s
#include "bench.h"
#include "energy.h"

#include <cuda_runtime.h>
#include <cusolverDn.h>
#include <stdio.h>

// getrf or potrf ('L') of the column-major m-by-n A (lda = m) with the
// matrix already on the GPU: only the factorization (and with B the solve
// of the n-by-nrhs B, ldb = n) is timed; the copies in and out, the
// workspace query and allocation are not.  A, ipiv, B get the result;
// returns LAPACK's info, or -1000 on a CUDA failure.
int bench_dcusolver(int potrf, int m, int n, double *A, int *ipiv, int nrhs,
                    double *B, seconds_t *seconds)
{
    cusolverDnHandle_t h;
    double *dA = NULL, *dB = NULL, *work = NULL;
    int *dipiv = NULL, *dinfo = NULL, lwork = 0, info = -1000;
    size_t bytes = sizeof(double) * (size_t)m * n;
    size_t bbytes = B ? sizeof(double) * (size_t)n * nrhs : 0;
    if (cusolverDnCreate(&h) != CUSOLVER_STATUS_SUCCESS) return -1000;
    if (cudaMalloc((void **)&dA, bytes) ||
        cudaMalloc((void **)&dB, bbytes ? bbytes : 1) ||
        cudaMalloc((void **)&dipiv, sizeof(int) * (m < n ? m : n) + 1) ||
        cudaMalloc((void **)&dinfo, 2 * sizeof(int)) ||
        cudaMemcpy(dA, A, bytes, cudaMemcpyHostToDevice) ||
        (bbytes && cudaMemcpy(dB, B, bbytes, cudaMemcpyHostToDevice)))
        goto out;
    if (potrf)
        cusolverDnDpotrf_bufferSize(h, CUBLAS_FILL_MODE_LOWER, n, dA, m,
                                    &lwork);
    else
        cusolverDnDgetrf_bufferSize(h, m, n, dA, m, &lwork);
    if (cudaMalloc((void **)&work, sizeof(double) * (lwork ? lwork : 1)) ||
        cudaDeviceSynchronize())
        goto out;
    seconds_t t = bench_now();
    if (potrf)
        cusolverDnDpotrf(h, CUBLAS_FILL_MODE_LOWER, n, dA, m, work, lwork,
                         dinfo);
    else
        cusolverDnDgetrf(h, m, n, dA, m, work, dipiv, dinfo);
    // The solve, on the same stream: it needs no info from the host (B
    // holds garbage when A is singular, as from LAPACK); its own info
    // (argument checks) goes to dinfo[1].
    if (bbytes && potrf)
        cusolverDnDpotrs(h, CUBLAS_FILL_MODE_LOWER, n, nrhs, dA, m, dB, n,
                         dinfo + 1);
    else if (bbytes)
        cusolverDnDgetrs(h, CUBLAS_OP_N, n, nrhs, dA, m, dipiv, dB, n,
                         dinfo + 1);
    if (cudaDeviceSynchronize()) goto out;
    *seconds = bench_now() - t;
    energy_mark(t, t + *seconds);
    if (cudaMemcpy(A, dA, bytes, cudaMemcpyDeviceToHost) ||
        (bbytes && cudaMemcpy(B, dB, bbytes, cudaMemcpyDeviceToHost)) ||
        cudaMemcpy(&info, dinfo, sizeof(int), cudaMemcpyDeviceToHost) ||
        (!potrf && cudaMemcpy(ipiv, dipiv, sizeof(int) * (m < n ? m : n),
                              cudaMemcpyDeviceToHost)))
        info = -1000;
out:
    if (info == -1000) fprintf(stderr, "hyla-bench: a CUDA call failed\n");
    cudaFree(dA);
    cudaFree(dB);
    cudaFree(dipiv);
    cudaFree(dinfo);
    cudaFree(work);
    cusolverDnDestroy(h);
    return info;
}

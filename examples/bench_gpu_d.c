// SPDX-License-Identifier: BSD-3-Clause
// hyla-bench's GPU reference: cuSOLVER, double precision.
// @precisions d -> s
#include "bench.h"
#include "energy.h"

#include <cuda_runtime.h>
#include <cusolverDn.h>
#include <stdio.h>

// getrf or potrf ('L') of the column-major m-by-n A (lda = m) with the
// matrix already on the GPU: only the factorization is timed (the copies
// in and out, the workspace query and allocation are not).  A, ipiv get
// the result; returns LAPACK's info, or -1000 on a CUDA failure.
int bench_dcusolver(int potrf, int m, int n, double *A, int *ipiv,
                    seconds_t *seconds)
{
    cusolverDnHandle_t h;
    double *dA = NULL, *work = NULL;
    int *dipiv = NULL, *dinfo = NULL, lwork = 0, info = -1000;
    size_t bytes = sizeof(double) * (size_t)m * n;
    if (cusolverDnCreate(&h) != CUSOLVER_STATUS_SUCCESS) return -1000;
    if (cudaMalloc((void **)&dA, bytes) ||
        cudaMalloc((void **)&dipiv, sizeof(int) * (m < n ? m : n) + 1) ||
        cudaMalloc((void **)&dinfo, sizeof(int)) ||
        cudaMemcpy(dA, A, bytes, cudaMemcpyHostToDevice))
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
    if (cudaDeviceSynchronize()) goto out;
    *seconds = bench_now() - t;
    energy_mark(t, t + *seconds);
    if (cudaMemcpy(A, dA, bytes, cudaMemcpyDeviceToHost) ||
        cudaMemcpy(&info, dinfo, sizeof(int), cudaMemcpyDeviceToHost) ||
        (!potrf && cudaMemcpy(ipiv, dipiv, sizeof(int) * (m < n ? m : n),
                              cudaMemcpyDeviceToHost)))
        info = -1000;
out:
    if (info == -1000) fprintf(stderr, "hyla-bench: a CUDA call failed\n");
    cudaFree(dA);
    cudaFree(dipiv);
    cudaFree(dinfo);
    cudaFree(work);
    cusolverDnDestroy(h);
    return info;
}

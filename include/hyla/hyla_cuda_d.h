// SPDX-License-Identifier: BSD-3-Clause
// hyla: batched routines on GPU-resident matrices, double precision.
// @precisions d -> s
#ifndef HYLA_HYLA_CUDA_D_H
#define HYLA_HYLA_CUDA_D_H

#include <hyla/types.h>

#ifdef __cplusplus
extern "C" {
#endif

// Every pointer is device memory on the current CUDA device; dA_array is
// a device array of batch device pointers, matrix i of a strided call
// starts at dA + i*strideA.  Matrices are column-major, as LAPACK's.  The
// work is queued on `stream` (a cudaStream_t; NULL: the default stream)
// and the call returns at once: results, pivots and info are there when
// the stream reaches that point.  hyla_init() is not needed.  batch may be
// any int (grids are one-dimensional).  Return values: 0, -i (argument i
// is illegal; the device arrays' contents are not checked),
// HYLA_ERR_NOT_SUPPORTED (an order the GPU kernels do not take: 1 to 32 in
// this version; the host-memory routines take up to 512), HYLA_ERR_CUDA
// (a launch failed).

/**
 * LU with partial pivoting of batch n-by-n matrices in place, as
 * hyla_dgetrf_batched().  dipiv: batch*n pivots (1-based), or NULL;
 * dinfo: batch LAPACK infos.  Each matrix is held in registers, one row
 * per thread, read once and written once.
 */
HYLA_EXPORT int hyla_cuda_dgetrf_batched(int n, double *const *dA_array,
                                         int ldda, int *dipiv, int *dinfo,
                                         int batch, void *stream);

/** The same on matrices dA + i*strideA, strideA >= ldda*n. */
HYLA_EXPORT int hyla_cuda_dgetrf_batched_strided(int n, double *dA, int ldda,
                                                 long long strideA, int *dipiv,
                                                 int *dinfo, int batch,
                                                 void *stream);

/**
 * op(A_i) X_i = B_i with the factors and pivots of
 * hyla_cuda_dgetrf_batched() (trans 'N', 'T' or 'C'); any n, B_i n-by-nrhs
 * overwritten by X_i.  The pivots must be getrf's: they are not checked.
 */
HYLA_EXPORT int hyla_cuda_dgetrs_batched(char trans, int n, int nrhs,
                                         double *const *dA_array, int ldda,
                                         const int *dipiv,
                                         double *const *dB_array, int lddb,
                                         int batch, void *stream);

/**
 * C_i = A_i^-1 out of place, A_i only read (not its factors: see
 * hyla_dgetri_batched()).  LU and inversion in one pass: each A_i is read
 * once and each C_i written once, not at all where A_i is singular
 * (dinfo[i] = j > 0: U(j,j) is exactly zero).  dipiv: NULL, or the pivots
 * of A_i's LU.
 */
HYLA_EXPORT int hyla_cuda_dgetri_batched(int n, double *const *dA_array,
                                         int ldda, int *dipiv,
                                         double *const *dC_array, int lddc,
                                         int *dinfo, int batch, void *stream);

/** The same on matrices dA + i*strideA and dC + i*strideC. */
HYLA_EXPORT int hyla_cuda_dgetri_batched_strided(
    int n, double *dA, int ldda, long long strideA, int *dipiv, double *dC,
    int lddc, long long strideC, int *dinfo, int batch, void *stream);

#ifdef __cplusplus
}
#endif

#endif // HYLA_HYLA_CUDA_D_H

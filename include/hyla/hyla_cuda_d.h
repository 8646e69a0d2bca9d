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
// any int (grids are one-dimensional).  Orders 0 to 512.
//
// Up to order 32 one kernel holds each matrix in registers.  Above, the LU
// goes by blocks of 32 to 128 columns, with cuBLAS's batched GEMM for the
// updates: the calling thread gets a cuBLAS handle of its own for the
// current device (created on first use and kept), and workspace comes
// from stream-ordered allocation (cudaMallocAsync) and is freed the same
// way: a list of moved rows (65 to 257 ints a matrix), pivots where
// dipiv is NULL, pointers where the matrices come as an array, and for
// the inverse two copies of a chunk of matrices (2^24 elements each).
//
// Return values: 0, -i (argument i is illegal; the device arrays'
// contents are not checked), HYLA_ERR_CUDA (a launch failed),
// HYLA_ERR_CUBLAS, HYLA_ERR_DEVICE_MEMORY (no workspace).

/**
 * LU with partial pivoting of batch n-by-n matrices in place, as
 * hyla_dgetrf_batched().  dipiv: batch*n pivots (1-based), or NULL;
 * dinfo: batch LAPACK infos.  Up to order 32 each matrix is held in
 * registers, one row per thread, read once and written once.
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
 * hyla_dgetri_batched()).  C_i is not written where A_i is singular
 * (dinfo[i] = j > 0: U(j,j) is exactly zero).  dipiv: NULL, or the pivots
 * of A_i's LU.  Up to order 32, Gauss-Jordan elimination with LU's
 * pivots in one pass: each A_i is read once and each C_i written once.  Above, a copy of A_i is factored
 * and the inverse solved from its factors, then copied to C_i.
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

// SPDX-License-Identifier: BSD-3-Clause
// CUDA kernels and cuBLAS calls, double precision.  @precisions d -> s
// Each returns 0 or a hyla status (HYLA_ERR_CUDA, HYLA_ERR_CUBLAS).
#ifndef HYLA_CUDA_GPU_D_H
#define HYLA_CUDA_GPU_D_H

// C = alpha op(A) op(B) + beta C, row-major m-by-n C.
int hyla_cuda_dgemm(cublasHandle_t handle, int transa, int transb, int m, int n,
                    int k, double alpha, const double *dA, int ldda,
                    const double *dB, int lddb, double beta, double *dC,
                    int lddc);

// y = alpha sum_{j < count} A_j x_j + beta y in one kernel: A_j row-major
// m-by-k[j] (leading dimension lda[j]), x_j k[j] entries incx[j] apart,
// y m entries incy apart (not read when beta = 0); A and x host arrays
// of device pointers; on stream s.  The sum's order is fixed: the same
// input gives the same y.
int hyla_cuda_dgemv_sum(cudaStream_t s, int m, int count,
                        const double *const *A, const int *k, const int *lda,
                        const double *const *x, const int *incx, double alpha,
                        double beta, double *y, int incy);

// B = alpha op(A)^-1 B (side HYLA_LEFT) or alpha B op(A)^-1, row-major
// m-by-n B.
int hyla_cuda_dtrsm(cublasHandle_t handle, int side, int uplo, int trans,
                    int diag, int m, int n, double alpha, const double *dA,
                    int ldda, double *dB, int lddb);

// C = alpha op(A) op(A)^T + beta C on the uplo triangle of the row-major
// n-by-n C; op(A) is n-by-k.
int hyla_cuda_dsyrk(cublasHandle_t handle, int uplo, int trans, int n, int k,
                    double alpha, const double *dA, int ldda, double beta,
                    double *dC, int lddc);

// Cholesky of the row-major n-by-n tile dA on the stream of handle (uplo
// as hyla_cpu_dpotrf).  A failure (a leading minor not positive, or NaN)
// at column j sets *dinfo (device-accessible: device or mapped host
// memory, 0 before) to col0 + j + 1 unless it is already set.
int hyla_cuda_dpotrf(cublasHandle_t handle, int uplo, int n, double *dA,
                     int ldda, int *dinfo, int col0);

// W = A^-1 for the uplo triangle of the row-major n-by-n tile dA, its
// diagonal dA's (diag HYLA_NON_UNIT) or ones (HYLA_UNIT, not read), out of
// place into dW, the other triangle of dW set to zero; on the stream of
// handle.  A zero on the diagonal leaves Inf or NaN in W.
int hyla_cuda_dtrtri(cublasHandle_t handle, int uplo, int diag, int n,
                     const double *dA, int ldda, double *dW, int lddw);

// Row interchanges on a tile column: ntiles row-major tiles of mb rows
// (the last may be shorter; m rows in all) and n columns, leading
// dimension ldd, whose device addresses are in dtile (a host array).
// dipiv (device) holds pivots k1 .. k2-1 as 1-based global rows; row0 is
// the global row of the column's first row.  Applied in order (inc > 0)
// or in reverse (inc < 0).  Whole rows are contiguous: each interchange
// moves two rows, coalesced, and the column blocks of the kernel run in
// parallel, each applying every interchange in order.
int hyla_cuda_dlaswp(double *const *dtile, int ntiles, int mb, int m, int n,
                     int ldd, const int *dipiv, int k1, int k2, int row0,
                     int inc, cudaStream_t stream);

// LU with partial pivoting of a tile column: ntiles row-major tiles of mb
// rows (the last may be shorter; m rows in all) and n columns, leading
// dimension ldd, device addresses in dtile (a host array); the first tile
// holds the diagonal (mb >= n, or one tile).  off is the global index of
// the panel's first row and column: min(m, n) pivots go to dipiv (device)
// as 1-based global rows, and the first zero pivot, at local column j,
// sets *dinfo (device-accessible, 0 before) to off + j + 1 unless it is
// already set.  dwork: HYLA_CUDA_GETRF_PANEL_WORK bytes of device memory,
// zero before the first call, left zero, used by one stream at a time.
// The leaves spread over at most `sms` SMs (0: all of them) where the
// panel fits in their shared memory, else over all, in thread blocks of
// about `rows` rows (0: hyla_cuda_getrf_panel_tune's).  On the stream of
// handle.
int hyla_cuda_dgetrf_panel(cublasHandle_t handle, double *const *dtile,
                           int ntiles, int mb, int m, int n, int ldd,
                           int *dipiv, int off, int *dinfo, void *dwork,
                           int sms, int rows);

// LU without pivoting of the row-major n-by-n tile dA on the stream of
// handle; a zero pivot at column j sets *dinfo (as hyla_cuda_dpotrf) to
// col0 + j + 1 unless it is already set, and leaves the factors after it
// undefined.
int hyla_cuda_dgetrf_nopiv(cublasHandle_t handle, int n, double *dA, int ldda,
                           int *dinfo, int col0);

// The m-by-n column-major matrix Af (host memory, leading dimension lda)
// into the row-major tile dT (device), and back (its uplo part, as
// hyla_cpu_dtile_to_lap), through dwork: device memory of `work` elements
// (at least 1), bit for bit.  On stream s; a copy into pageable host
// memory is done when the call returns.
int hyla_cuda_dlap_to_tile(cudaStream_t s, int m, int n, const double *Af,
                           int lda, double *dT, int ldt, double *dwork,
                           size_t work);
int hyla_cuda_dtile_to_lap(cudaStream_t s, int uplo, int m, int n,
                           const double *dT, int ldt, double *Af, int lda,
                           double *dwork, size_t work);

// A tile of a matrix padded beyond A (cpu_d.h's hyla_cpu_dtile_pad_to_
// tile: the same arguments, device pointers), on stream s.
int hyla_cuda_dtile_pad_to_tile(cudaStream_t s, int m, int n, int mv, int nv,
                                int ident, const double *const S[4],
                                const int lds[4], int ms, int ns, double *A,
                                int lda, double *sums, int add);

// A tile of the random matrix (cpu_d.h's hyla_cpu_dplrnt: the same
// arguments and entries, a device pointer), on stream s.
int hyla_cuda_dplrnt(cudaStream_t s, int m, int n, double *T, int ldt, int i0,
                     int j0, unsigned long long seed, int sym, double bump);

// Random butterflies on row-major tiles (cpu_d.h's hyla_cpu_drbt_*: the
// same arguments, device pointers), on stream s.
int hyla_cuda_drbt_two_sided(cudaStream_t s, int m, int n, double *A11,
                             double *A12, double *A21, double *A22, int ld,
                             const double *r0, const double *r1,
                             const double *c0, const double *c1);
int hyla_cuda_drbt_two_levels(cudaStream_t s, int m, int n, int ld,
                              double *const A[16], const double *const w[16]);
int hyla_cuda_drbt_rows(cudaStream_t s, int trans, int m, int n, double *X1,
                        double *X2, int ld, const double *r0, const double *r1);

//==== batched small matrices (column-major, as LAPACK) ====
// Matrix i is dA_array[i] (a device array of device pointers) or, when
// dA_array is NULL, dA + i*stride; its pivots are dipiv[i*n .. i*n+n-1]
// (1-based), its LAPACK info dinfo[i].  n up to HYLA_CUDA_BATCHED_MAX
// (else HYLA_ERR_NOT_SUPPORTED) for getrf and getri, any n for getrs.  On
// stream s, batch up to INT_MAX; no argument checks.  Orders above
// HYLA_CUDA_TINY_MAX use cuBLAS through handle h, whose stream they set
// to s, and stream-ordered device memory (cudaMallocAsync).

// LU with partial pivoting of each matrix, in place.  dipiv may be NULL.
int hyla_cuda_dbatch_getrf(int n, double *const *dA_array, double *dA,
                           long long stride, int ldda, int *dipiv, int *dinfo,
                           int batch, cublasHandle_t h, cudaStream_t s);
// The inverse of each matrix A into C, A untouched; C is not written
// where A is singular.  dipiv (may be NULL): the pivots of A's LU.
int hyla_cuda_dbatch_getri(int n, double *const *dA_array, double *dA,
                           long long strideA, int ldda, double *const *dC_array,
                           double *dC, long long strideC, int lddc, int *dipiv,
                           int *dinfo, int batch, cublasHandle_t h,
                           cudaStream_t s);
// op(A) X = B (trans HYLA_NO_TRANS or HYLA_TRANS) with the LU factors and
// pivots of each matrix; B is n-by-nrhs.
int hyla_cuda_dbatch_getrs(int trans, int n, int nrhs, double *const *dA_array,
                           double *dA, long long strideA, int ldda,
                           const int *dipiv, double *const *dB_array,
                           double *dB, long long strideB, int lddb, int batch,
                           cudaStream_t s);

#endif // HYLA_CUDA_GPU_D_H
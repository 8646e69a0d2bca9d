// SPDX-License-Identifier: BSD-3-Clause
// hyla-kernels: one GPU kernel of hyla against cuSOLVER on the same input.
#ifndef HYLA_EXAMPLES_KERNELS_H
#define HYLA_EXAMPLES_KERNELS_H

typedef double seconds_t; // not rewritten by the precision generator

typedef struct kernel_result {
    seconds_t hyla_s, ref_s; // best of the timed runs
    double diff;             // max |hyla - ref| / max |ref| over the factor
    int hyla_info, ref_info;
} kernel_result_t;

// The n-by-n tile Cholesky (hyla_cuda_dpotrf, lower) against
// cusolverDnDpotrf on the same SPD matrix in GPU memory, each timed with
// CUDA events over `repeat` runs after a warm-up.  0, or -1 on a CUDA
// failure (a message is printed).
int kernels_dpotrf(int n, int unused, int repeat, kernel_result_t *r);
int kernels_spotrf(int n, int unused, int repeat, kernel_result_t *r);

// The n-by-n solve of a Cholesky panel, B = B L^-T (hyla_cuda_dtrsm:
// recursive, GEMMs between halves) against one cublasDtrsm call on the
// same data; info is 0.
int kernels_dtrsm(int n, int unused, int repeat, kernel_result_t *r);
int kernels_strsm(int n, int unused, int repeat, kernel_result_t *r);

// The LU of an m-by-n panel (hyla_cuda_dgetrf_panel on n-by-n row-major
// tiles) against cusolverDnDgetrf on the same matrix, column-major; diff
// is 1 where the pivots differ.
int kernels_dgetrf(int m, int n, int repeat, kernel_result_t *r);
int kernels_sgetrf(int m, int n, int repeat, kernel_result_t *r);

// The interchanges of an LU step (n pivots, row i with a row p >= i) on
// an m-by-n tile column (hyla_cuda_dlaswp on n-by-n row-major tiles)
// against cusolverDnDlaswp on the same matrix, column-major; diff is the
// largest difference (0: the same result); info is 0.
int kernels_dlaswp(int m, int n, int repeat, kernel_result_t *r);
int kernels_slaswp(int m, int n, int repeat, kernel_result_t *r);

// The LU without pivoting of an n-by-n tile (hyla_cuda_dgetrf_nopiv, row-
// major) against cusolverDnDgetrf without pivots on the same matrix,
// column-major; its diagonal is heavy, so neither needs pivots.
int kernels_dgetrf_nopiv(int n, int unused, int repeat, kernel_result_t *r);
int kernels_sgetrf_nopiv(int n, int unused, int repeat, kernel_result_t *r);

// The inverse of the upper triangle of an n-by-n tile (hyla_cuda_dtrtri,
// out of place) against cusolverDnXtrtri (in place) on the same memory.
int kernels_dtrtri(int n, int unused, int repeat, kernel_result_t *r);
int kernels_strtri(int n, int unused, int repeat, kernel_result_t *r);

// The product of an n-by-w row of tiles of order n by a vector
// (hyla_cuda_dgemv_sum, one kernel) against cublasDgemv on each tile, the
// results summed in y; diff as above; info is 0.
int kernels_dgemv_sum(int n, int w, int repeat, kernel_result_t *r);
int kernels_sgemv_sum(int n, int w, int repeat, kernel_result_t *r);

#endif // HYLA_EXAMPLES_KERNELS_H

// SPDX-License-Identifier: BSD-3-Clause
// hyla: double-precision API.  @precisions d -> s
#ifndef HYLA_HYLA_D_H
#define HYLA_HYLA_D_H

#include <hyla/types.h>

#ifdef __cplusplus
extern "C" {
#endif

//==== layout conversion ====

/**
 * Copy the m-by-n column-major matrix Af (leading dimension lda) into the
 * tile matrix A, whose sizes give m and n.  Done as one task per tile.
 *
 * @retval 0, -1 (Af NULL), -2 (lda < max(1,m)), -3 (A NULL or not double),
 *         or a status <= -100.
 */
HYLA_EXPORT int hyla_dlap_to_desc(const double *Af, int lda, hyla_desc_t *A);

/** The inverse of hyla_dlap_to_desc(): tile matrix A into Af. */
HYLA_EXPORT int hyla_ddesc_to_lap(const hyla_desc_t *A, double *Af, int lda);

/**
 * Copy this process's part of a distributed A (hyla_desc_create_dist())
 * from its local matrix in ScaLAPACK's 2-D block-cyclic layout: blocks of
 * A's nb-by-nb tiles, the first on process (0, 0), processes numbered
 * row by row in A's p-by-q grid (BLACS's default), so that rank r is
 * grid process (r / q, r mod q) and holds tile (i, j) as block
 * (i / p, j / q) of Aloc.  Aloc is column-major, mloc-by-nloc
 * (hyla_desc_local_size()), leading dimension lld.  Collective; no data
 * crosses processes.  For a matrix that is not distributed Aloc is all of
 * A, as in hyla_dlap_to_desc().
 *
 * @retval 0, -1 (Aloc NULL), -2 (lld < max(1, mloc)), -3 (A NULL or not
 *         double), or a status <= -100; every process gets the most
 *         negative of all processes' statuses.
 */
HYLA_EXPORT int hyla_dlocal_to_desc(const double *Aloc, int lld,
                                    hyla_desc_t *A);

/** The inverse of hyla_dlocal_to_desc(): A into this process's Aloc. */
HYLA_EXPORT int hyla_ddesc_to_local(const hyla_desc_t *A, double *Aloc,
                                    int lld);

//==== random test matrices ====

/**
 * Fill the tile matrix A with a block of the random matrix R of `seed`:
 * A(i, j) = R(i0 + i, j0 + j).  The entries of R are uniform in
 * [-0.5, 0.5] and depend only on (seed, row, column): the same whatever
 * A's tile size, workers, processes or GPUs, and in single precision
 * those of double rounded.  One task per tile, on the CPU workers (on
 * the GPUs in native mode, where they leave the tiles), for
 * matrices built where they are factored (no column-major copy: a matrix
 * as large as memory holds), and blocks of the same matrix built again a
 * piece at a time (a residual check of a matrix too large for two
 * copies).  Chameleon's plrnt, with offsets.
 *
 * @param[in,out] A     the tile matrix, distributed or not.
 * @param[in]     i0    first row of R, >= 0, i0 + (rows of A) <= INT_MAX.
 * @param[in]     j0    first column of R, likewise.
 * @param[in]     seed  any value.
 * @retval 0, -1 (A NULL or not double), -2 (i0), -3 (j0), or a status
 *         <= -100.
 */
HYLA_EXPORT int hyla_dplrnt_tile(hyla_desc_t *A, int i0, int j0,
                                 unsigned long long seed);

/**
 * The same block of the symmetric random matrix S of `seed`:
 * S(r, c) = R(max(r, c), min(r, c)), plus bump where r == c.  With
 * bump >= the order of S, S is diagonally dominant and so symmetric
 * positive definite.  Chameleon's plgsy, with offsets.
 *
 * @retval 0, -2 (A NULL or not double), -3 (i0), -4 (j0), or a status
 *         <= -100.
 */
HYLA_EXPORT int hyla_dplgsy_tile(double bump, hyla_desc_t *A, int i0, int j0,
                                 unsigned long long seed);

//==== LU with partial pivoting ====

/**
 * LU factorization with partial pivoting (row interchanges) of an m-by-n
 * matrix:  A = P L U,  L unit lower triangular (lower trapezoidal if m > n),
 * U upper triangular (upper trapezoidal if m < n).  LAPACK's dgetrf.
 *
 * @param[in]     m     rows of A, >= 0.
 * @param[in]     n     columns of A, >= 0.
 * @param[in,out] A     column-major, lda-by-n.  On exit L (without its unit
 *                      diagonal) and U.
 * @param[in]     lda   >= max(1, m).
 * @param[out]    ipiv  min(m, n) pivots, 1-based: row i was interchanged
 *                      with row ipiv[i-1].
 * @retval 0   success.
 * @retval -i  argument i is illegal.
 * @retval i>0 U(i,i) is exactly zero.  The factorization is complete, but U
 *             is singular and a solve with it would divide by zero.
 * @retval <= -100 a library or runtime error (hyla_strerror()).
 *
 * NaN or Inf in A: the factorization completes without hanging and the NaN
 * or Inf spread through the factors; as in LAPACK, only an exactly zero
 * pivot is reported in info.
 */
HYLA_EXPORT int hyla_dgetrf(int m, int n, double *A, int lda, int *ipiv);

/** hyla_dgetrf() on a tile matrix (argument 1: A, 2: ipiv). */
HYLA_EXPORT int hyla_dgetrf_tile(hyla_desc_t *A, int *ipiv);

/**
 * Solve A X = B, A^T X = B or A^H X = B with the LU factors of hyla_dgetrf.
 * LAPACK's dgetrs.
 *
 * @param[in]     trans 'N', 'T' or 'C'.
 * @param[in]     n     order of A, >= 0.
 * @param[in]     nrhs  columns of B, >= 0.
 * @param[in]     A     the factors, lda-by-n.
 * @param[in]     lda   >= max(1, n).
 * @param[in]     ipiv  the pivots from hyla_dgetrf.
 * @param[in,out] B     ldb-by-nrhs; on exit the solution X.
 * @param[in]     ldb   >= max(1, n).
 * @retval 0, -i, or <= -100.
 */
HYLA_EXPORT int hyla_dgetrs(char trans, int n, int nrhs, const double *A,
                            int lda, const int *ipiv, double *B, int ldb);

/** hyla_dgetrs() on tile matrices (arguments: trans, A, ipiv, B). */
HYLA_EXPORT int hyla_dgetrs_tile(char trans, hyla_desc_t *A, const int *ipiv,
                                 hyla_desc_t *B);

/**
 * Solve A X = B by LU with partial pivoting.  LAPACK's dgesv.
 * On exit A holds the factors, ipiv the pivots and B the solution.
 * @retval i>0 U(i,i) is exactly zero: A is singular and X was not computed.
 */
HYLA_EXPORT int hyla_dgesv(int n, int nrhs, double *A, int lda, int *ipiv,
                           double *B, int ldb);

/** hyla_dgesv() on tile matrices (arguments: A, ipiv, B). */
HYLA_EXPORT int hyla_dgesv_tile(hyla_desc_t *A, int *ipiv, hyla_desc_t *B);

//==== random butterflies (RBT): no pivoting, then refinement ====

/**
 * Solve A X = B by LU without pivoting of a randomized A, with iterative
 * refinement, falling back to LU with partial pivoting where that fails
 * (after LAPACK's dsgesv):
 *
 *  1. A_r = U^T A V with random recursive butterflies U, V of depth
 *     opts->depth (n values a level; n is first padded by the identity to
 *     a multiple of 2^depth tiles);
 *  2. A_r = L U without pivoting (no pivot search, no interchanges);
 *  3. X = V U^-1 L^-1 U^T B;
 *  4. refinement against A: R = B - A X, X += the solve of R, until each
 *     column has ||r||_inf <= ||x||_inf ||A||_inf eps n^(1/2), at most
 *     opts->max_iter steps, and no further once a step fails to reduce
 *     max ||r||_inf / ||x||_inf.
 *
 * If LU meets a zero pivot or refinement does not converge, X comes from
 * hyla_dgesv on A instead (report->fallback says which).
 *
 * Memory: a copy of A (for the refinement) and the tile factors, two
 * n-by-n matrices besides A.
 *
 * @param[in]     n      order of A, >= 0.
 * @param[in]     nrhs   columns of B and X, >= 0.
 * @param[in,out] A      lda-by-n.  Unchanged, unless the solve fell back:
 *                       then the LU factors of hyla_dgetrf.
 * @param[in]     lda    >= max(1, n).
 * @param[out]    ipiv   n pivots, set only by a fall back.
 * @param[in]     B      ldb-by-nrhs right-hand sides.
 * @param[in]     ldb    >= max(1, n).
 * @param[out]    X      ldx-by-nrhs solution.
 * @param[in]     ldx    >= max(1, n).
 * @param[in]     opts   NULL or the options (HYLA_RBT_OPTS_DEFAULT).
 * @param[out]    report NULL or what the solve did.
 * @retval 0, -i (argument i), i > 0 (the fall back found U(i,i) exactly
 *         zero: A is singular, X not computed), or <= -100.
 */
HYLA_EXPORT int hyla_dgesv_rbt(int n, int nrhs, double *A, int lda, int *ipiv,
                               const double *B, int ldb, double *X, int ldx,
                               const hyla_rbt_opts_t *opts,
                               hyla_rbt_report_t *report);

/**
 * hyla_dgesv_rbt() on tile matrices: A n-by-n, B and X n-by-nrhs, all in
 * tiles of the same size; the tiles stay where they are (GPU memory
 * included).  A is unchanged unless the solve fell back: then it holds
 * the factors of hyla_dgetrf_tile() and ipiv (n) its pivots.
 * Arguments: A, ipiv, B, X, opts, report.  Memory besides A: one n-by-n
 * tile matrix (the factors) where n is a multiple of 2^depth of A's
 * tiles (A is read in place), else two (a padded copy of A too).
 * Distributed A (hyla_desc_create_dist()): B and X over the same grid,
 * the call collective, rank 0's opts taken by all, the same status and
 * report on every rank.
 */
HYLA_EXPORT int hyla_dgesv_rbt_tile(hyla_desc_t *A, int *ipiv,
                                    const hyla_desc_t *B, hyla_desc_t *X,
                                    const hyla_rbt_opts_t *opts,
                                    hyla_rbt_report_t *report);

/** The factors of hyla_drbt_factor() (opaque), for many solves. */
typedef struct hyla_drbt hyla_drbt_t;

/**
 * Steps 1 and 2 of hyla_dgesv_rbt() on a copy of A (A is not changed).
 * A zero pivot is not an error here: the solves then fall back.
 * @retval 0, -i, or <= -100; *F is NULL on failure.
 */
HYLA_EXPORT int hyla_drbt_factor(int n, const double *A, int lda,
                                 const hyla_rbt_opts_t *opts, hyla_drbt_t **F);

/**
 * Steps 3 and 4 with the factors F; the first solve that falls back
 * factors F's copy of A with partial pivoting, and later solves use those
 * factors.  Arguments: F, nrhs, B, ldb, X, ldx, report.
 * @retval as hyla_dgesv_rbt().
 */
HYLA_EXPORT int hyla_drbt_solve(hyla_drbt_t *F, int nrhs, const double *B,
                                int ldb, double *X, int ldx,
                                hyla_rbt_report_t *report);

/** Free the factors (NULL is allowed). */
HYLA_EXPORT void hyla_drbt_destroy(hyla_drbt_t *F);

//==== Cholesky ====

/**
 * Cholesky factorization of a symmetric positive definite matrix:
 * A = L L^T (uplo 'L') or A = U^T U (uplo 'U').  LAPACK's dpotrf.
 * Only the uplo triangle of A is read and written.
 *
 * @retval i>0 the leading minor of order i is not positive (or is NaN), and
 *             the factorization could not be completed.
 */
HYLA_EXPORT int hyla_dpotrf(char uplo, int n, double *A, int lda);

/** hyla_dpotrf() on a tile matrix (arguments: uplo, A). */
HYLA_EXPORT int hyla_dpotrf_tile(char uplo, hyla_desc_t *A);

/** Solve A X = B with the factor of hyla_dpotrf.  LAPACK's dpotrs. */
HYLA_EXPORT int hyla_dpotrs(char uplo, int n, int nrhs, const double *A,
                            int lda, double *B, int ldb);

/** hyla_dpotrs() on tile matrices (arguments: uplo, A, B). */
HYLA_EXPORT int hyla_dpotrs_tile(char uplo, hyla_desc_t *A, hyla_desc_t *B);

/**
 * Solve A X = B for symmetric positive definite A by Cholesky.  LAPACK's
 * dposv.  @retval i>0 as hyla_dpotrf; X was not computed.
 */
HYLA_EXPORT int hyla_dposv(char uplo, int n, int nrhs, double *A, int lda,
                           double *B, int ldb);

/** hyla_dposv() on tile matrices (arguments: uplo, A, B). */
HYLA_EXPORT int hyla_dposv_tile(char uplo, hyla_desc_t *A, hyla_desc_t *B);

//==== many small matrices at once (batched) ====
//
// Matrix i of a batch is A_array[i] (column-major, leading dimension lda),
// or A + i*strideA in the strided forms; its pivots are ipiv[i*n] ..
// ipiv[i*n + n-1] and its LAPACK info info[i].  Orders up to 512.  The
// matrices are in host memory: hyla splits the batch into tasks, which CPU
// workers run matrix by matrix and GPUs with batched kernels.
// GPU-resident batches: hyla/hyla_cuda.h.
//
// A singular matrix is not an error of the call: its info says so and the
// other matrices are factored as if it were not there.

/**
 * LU factorization with partial pivoting of batch n-by-n matrices, each as
 * hyla_dgetrf() would factor it.
 *
 * @param[in]     n       order of every matrix, 0 <= n <= 512.
 * @param[in,out] A_array batch pointers, none NULL; on exit each matrix
 *                        holds its L (without the unit diagonal) and U.
 * @param[in]     lda     >= max(1, n).
 * @param[out]    ipiv    batch*n pivots, 1-based as LAPACK's.
 * @param[out]    info    batch values: 0, or j > 0 when U(j,j) of that
 *                        matrix is exactly zero.
 * @param[in]     batch   matrices, >= 0.
 * @retval 0, -i (argument i is illegal), or <= -100 (hyla_strerror()).
 */
HYLA_EXPORT int hyla_dgetrf_batched(int n, double *const *A_array, int lda,
                                    int *ipiv, int *info, int batch);

/** hyla_dgetrf_batched() on matrices A + i*strideA, strideA >= lda*n. */
HYLA_EXPORT int hyla_dgetrf_batched_strided(int n, double *A, int lda,
                                            long long strideA, int *ipiv,
                                            int *info, int batch);

/**
 * Solve op(A_i) X_i = B_i for each matrix, with the factors and pivots of
 * hyla_dgetrf_batched().  trans 'N', 'T' or 'C'; B_i is n-by-nrhs with
 * leading dimension ldb and holds X_i on exit; the A_i are only read.
 * @retval 0, -i, or <= -100; -6 when a pivot is not in [1, n].
 */
HYLA_EXPORT int hyla_dgetrs_batched(char trans, int n, int nrhs,
                                    double *const *A_array, int lda,
                                    const int *ipiv, double *const *B_array,
                                    int ldb, int batch);

/**
 * The inverse of each matrix, out of place: C_i = A_i^-1.  Unlike LAPACK's
 * dgetri, A_i is the matrix itself, not its factors, and is only read.
 *
 * @param[out] ipiv  NULL, or batch*n pivots of the LU factorization the
 *                   inverse came from.
 * @param[out] info  0, or j > 0 when U(j,j) of A_i is exactly zero: A_i
 *                   is singular and C_i was not written.
 * @retval 0, -i, or <= -100.
 */
HYLA_EXPORT int hyla_dgetri_batched(int n, double *const *A_array, int lda,
                                    int *ipiv, double *const *C_array, int ldc,
                                    int *info, int batch);

#ifdef __cplusplus
}
#endif

#endif // HYLA_HYLA_D_H

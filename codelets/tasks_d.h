// SPDX-License-Identifier: BSD-3-Clause
// Task insertion, double precision.  @precisions d -> s
//
// Tile arguments are (descriptor, tile row, tile column).  Each function
// inserts one task; sizes come from the tiles, and a task of a failed
// sequence does nothing.
#ifndef HYLA_CODELETS_TASKS_D_H
#define HYLA_CODELETS_TASKS_D_H

#include "runtime.h"

// C(Cm, 0) = alpha sum_j A(Am, j) B(j, 0) + beta C(Cm, 0), j < count.
void hyla_task_dgemm_sum(const hyla_task_opts_t *o, double alpha,
                         const hyla_desc_t *A, int Am, const hyla_desc_t *B,
                         int count, double beta, const hyla_desc_t *C, int Cm);
// B = op(A)^-1 B for B one tile column and A's uplo triangle, the whole
// solve in one task; CUDA only (for one GPU).  W: NULL, or tiles (Wm, k)
// holding the inverses of A's diagonal tiles' triangles, S a scratch tile.
void hyla_task_dtrsm_col(const hyla_task_opts_t *o, int uplo, int trans,
                         int diag, const hyla_desc_t *A, const hyla_desc_t *W,
                         int Wm, void *S, const hyla_desc_t *B);
// The fan-in of distributed solves and products (runtime/partials.c).
// P = sum_j A(m, k_j) B(k_j, n), k_j = k0, k0 + step, ... < A->nt (none:
// no task): P is written whole.
void hyla_task_dpartial_row(const hyla_task_opts_t *o, const hyla_desc_t *A,
                            int m, int k0, int step, const hyla_desc_t *B,
                            int n, void *P);
// P = op(A(am, an)) B(bk, bn), + P when add.
void hyla_task_dpartial_add(const hyla_task_opts_t *o, int trans,
                            const hyla_desc_t *A, int am, int an,
                            const hyla_desc_t *B, int bk, int bn, void *P,
                            int add);
// C(Cm, Cn) = alpha sum_j S_j + beta C(Cm, Cn), j < count (C not read
// when beta = 0).
void hyla_task_dsum(const hyla_task_opts_t *o, double alpha, void *const *S,
                    int count, double beta, const hyla_desc_t *C, int Cm,
                    int Cn);
// C = alpha op(A) op(B) + beta C
void hyla_task_dgemm(const hyla_task_opts_t *o, int transa, int transb,
                     double alpha, const hyla_desc_t *A, int Am, int An,
                     const hyla_desc_t *B, int Bm, int Bn, double beta,
                     const hyla_desc_t *C, int Cm, int Cn);

// B = alpha op(A)^-1 B (side left) or alpha B op(A)^-1 (side right)
void hyla_task_dtrsm(const hyla_task_opts_t *o, int side, int uplo, int trans,
                     int diag, double alpha, const hyla_desc_t *A, int Am,
                     int An, const hyla_desc_t *B, int Bm, int Bn);

// C = alpha op(A) op(A)^T + beta C, the uplo triangle of C
void hyla_task_dsyrk(const hyla_task_opts_t *o, int uplo, int trans,
                     double alpha, const hyla_desc_t *A, int Am, int An,
                     double beta, const hyla_desc_t *C, int Cm, int Cn);

// W = A^-1 for the uplo triangle of A (diag: HYLA_UNIT or HYLA_NON_UNIT),
// the other triangle of W zero; a zero diagonal entry j of A reports info
// col0 + j.
void hyla_task_dtrtri(const hyla_task_opts_t *o, int uplo, int diag, int col0,
                      const hyla_desc_t *A, int Am, int An,
                      const hyla_desc_t *W, int Wm, int Wn);
// B = op(W) B (side left) or B op(W) (side right): a triangular solve
// when W holds an inverse, done by GEMMs through a copy of B in the
// scratch tile S (a runtime handle).  W is triangular (uplo), its other
// triangle zero: the GEMMs skip its zero blocks.
void hyla_task_dtrsm_inv(const hyla_task_opts_t *o, int side, int uplo,
                         int trans, const hyla_desc_t *W, int Wm, int Wn,
                         const hyla_desc_t *B, int Bm, int Bn, void *S);
// Cholesky of the diagonal tile (k, k); info is offset to a global column.
// W not NULL: the same task also writes the inverse of the factor to
// W(Wm, Wn), as hyla_task_dtrtri would.
void hyla_task_dpotrf(const hyla_task_opts_t *o, int uplo, const hyla_desc_t *A,
                      int k, const hyla_desc_t *W, int Wm, int Wn);

// LU of the tile column A(k:mt-1, k); pivots into piece k of P.
void hyla_task_dgetrf_panel(const hyla_task_opts_t *o, const hyla_desc_t *A,
                            int k, const hyla_pivots_t *P);
// The same on a tile column spread over a process column (P->comm): a
// task on each of its processes, on that one's tiles; they agree on the
// pivots by MPI inside the tasks (cpu/dgetrf_panel_part.c).
void hyla_task_dgetrf_panel_dist(const hyla_task_opts_t *o,
                                 const hyla_desc_t *A, int k,
                                 const hyla_pivots_t *P);

// Interchanges of pivot piece k applied to tiles (k:mt-1, n) of A, forward
// (inc > 0) or backward (inc < 0).
void hyla_task_dlaswp(const hyla_task_opts_t *o, const hyla_desc_t *A, int k,
                      int n, const hyla_pivots_t *P, int inc);

// Tile (m, n) of A from / to its block of a column-major matrix (block:
// the block's first element, lda: the matrix's leading dimension); uplo
// selects a triangle of the tile (HYLA_FULL: all of it).
void hyla_task_dlap_to_tile(const hyla_task_opts_t *o, int uplo,
                            const double *block, int lda, const hyla_desc_t *A,
                            int m, int n);
void hyla_task_dtile_to_lap(const hyla_task_opts_t *o, int uplo,
                            const hyla_desc_t *A, int m, int n, double *block,
                            int lda);
// The same for tiles (m, n) .. (m + count - 1, n) in one task, block the
// first one's (tiles of one column are copied in one task where they are
// small, such as a right-hand side's: a task a tile cost more than the
// copies).
void hyla_task_dlap_to_tiles(const hyla_task_opts_t *o, int uplo,
                             const double *block, int lda, const hyla_desc_t *A,
                             int m, int n, int count);
void hyla_task_dtiles_to_lap(const hyla_task_opts_t *o, int uplo,
                             const hyla_desc_t *A, int m, int n, int count,
                             double *block, int lda);
// The same through block (m, n) of the column-major matrix, registered
// as data of its own (hyla_rt_lap_blocks_create), whole tiles.
void hyla_task_dlapblock_to_tile(const hyla_task_opts_t *o, void *block,
                                 const hyla_desc_t *A, int m, int n);
void hyla_task_dtile_to_lapblock(const hyla_task_opts_t *o,
                                 const hyla_desc_t *A, int m, int n,
                                 void *block);
// Tile (m, n) of A, a square matrix padded beyond the na-by-na
// column-major Af by the identity; sums (A's mb(m) rows) gets the sums of
// the absolute values of Af's elements in each of the tile's rows.
void hyla_task_dlap_pad_to_tile(const hyla_task_opts_t *o, int na,
                                const double *Af, int lda, const hyla_desc_t *A,
                                int m, int n, double *sums);
// Tile (m, n) of P, the square A padded by the identity as above, in
// tiles no larger than A's, from the tiles of A; the row sums into the
// runtime vector sums (P->nb values), or added to it when add.
void hyla_task_dtile_pad_to_tile(const hyla_task_opts_t *o,
                                 const hyla_desc_t *A, const hyla_desc_t *P,
                                 int m, int n, void *sums, int add);

// Batched small matrices: a chunk of column-major n-by-n matrices one
// after the other (runtime handle A), their pivots (n apiece) and LAPACK
// info (one apiece, which gives the chunk's count).
// LU of each matrix of A in place.
void hyla_task_dgetrf_batched(const hyla_task_opts_t *o, int n, void *A,
                              void *ipiv, void *info);
// Inverse of each matrix of A into C; where info > 0 C holds garbage.
void hyla_task_dgetri_batched(const hyla_task_opts_t *o, int n, void *A,
                              void *C, void *ipiv, void *info);
// op(A) X = B with the LU factors of each matrix; B: n-by-nrhs matrices.
void hyla_task_dgetrs_batched(const hyla_task_opts_t *o, int trans, int n,
                              int nrhs, void *A, void *ipiv, void *B);

// Random butterflies (RBT), tiles of the same order in partner positions
// (every tile of the matrix full-size).  W: the runtime vector of the
// weights; u, v: the offsets in it of a level's weights, one per row
// (column) of the matrix.
// [A(m1,n1) A(m1,n2); A(m2,n1) A(m2,n2)] = B^T [...] C, B the butterfly
// of weights u on rows m1 | m2, C of weights v on columns n1 | n2.
void hyla_task_drbt_two_sided(const hyla_task_opts_t *o, const hyla_desc_t *A,
                              int m1, int m2, int n1, int n2, void *W, size_t u,
                              size_t v);
// Two levels at once on the 4-by-4 tiles A(rows[k], cols[l]): rows 0 | 1
// and 2 | 3 partners in the inner level (weights ui, vi), 0 | 2 and 1 | 3
// in the outer one (uo, vo).
void hyla_task_drbt_two_levels(const hyla_task_opts_t *o, const hyla_desc_t *A,
                               const int rows[4], const int cols[4], void *W,
                               size_t ui, size_t uo, size_t vi, size_t vo);
// [B(m1,n); B(m2,n)] = B^T [...] (trans HYLA_TRANS) or B [...], weights u.
void hyla_task_drbt_rows(const hyla_task_opts_t *o, int trans,
                         const hyla_desc_t *B, int m1, int m2, int n, void *W,
                         size_t u);
// LU without pivoting of the diagonal tile (k, k); a zero pivot reports
// info at its global column.  With W, also W(0, k) = L_kk^-1 and W(1, k)
// = U_kk^-1 (undefined after a zero pivot).
void hyla_task_dgetrf_nopiv(const hyla_task_opts_t *o, const hyla_desc_t *A,
                            int k, const hyla_desc_t *W);
// B(Bm, Bn) = A(Am, An), tiles of the same size.
void hyla_task_dlacpy(const hyla_task_opts_t *o, const hyla_desc_t *A, int Am,
                      int An, const hyla_desc_t *B, int Bm, int Bn);

// Tile (m, n) of A = rows i0... and columns j0... of the random matrix of
// seed, or with sym of its symmetric version plus bump on the diagonal
// (hyla_cpu_dplrnt).
void hyla_task_dplrnt(const hyla_task_opts_t *o, const hyla_desc_t *A, int m,
                      int n, int i0, int j0, unsigned long long seed, int sym,
                      double bump);

#endif // HYLA_CODELETS_TASKS_D_H

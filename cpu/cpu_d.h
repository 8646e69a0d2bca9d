// SPDX-License-Identifier: BSD-3-Clause
// CPU kernels, double precision.  @precisions d -> s
#ifndef HYLA_CPU_CPU_D_H
#define HYLA_CPU_CPU_D_H

#include "barrier.h"
#include "flags.h"
#include <stddef.h>

// A tile column seen as one m-by-n row-major matrix whose rows are spread
// over tiles of mb rows (the last one may be shorter), each tile with the
// same leading dimension ld >= n.
typedef struct hyla_dpanel {
    double *const *tile;
    int mb, m, n, ld;
} hyla_dpanel_t;

// Row r of a tile column.
static inline double *hyla_dpanel_row(const hyla_dpanel_t *P, int r)
{
    return P->tile[r / P->mb] + (size_t)(r % P->mb) * P->ld;
}

// State shared by the threads that factor one panel together: a barrier,
// and per thread its pivot candidate (|value|, row, and a copy of the
// row) for the current column; the copies of old row j, double-buffered
// by column parity.  One block of hyla_dpanel_shared_size() bytes.
typedef struct hyla_dpanel_shared {
    hyla_barrier_t barrier;
    int nthreads, n;
    double *val;  // [2][nthreads]
    int *idx;     // [2][nthreads]
    double *rows; // [2][nthreads + 1][n]: candidates, then old row j
} hyla_dpanel_shared_t;

size_t hyla_dpanel_shared_size(int nthreads, int n);

// Lay out the shared state in mem (hyla_dpanel_shared_size() bytes).
hyla_dpanel_shared_t *hyla_dpanel_shared_init(void *mem, int nthreads, int n);

// LU with partial pivoting of the tile column P (min(m, n) pivots, rows
// interchanged across its whole width), by S->nthreads threads at once:
// each calls it with its rank.  Thread t owns a contiguous range of tiles,
// tile 0 (with the diagonal block) going to rank 0.  Recursive on columns
// down to leaves of ib columns; inside a leaf each column costs one barrier
// (pivot search reduction), each recursion level one more (after the TRSM).
// ipiv gets 0-based row numbers within P.  Returns 0, or the 1-based first
// column whose pivot is exactly zero (the same in every thread).
int hyla_cpu_dgetrf_panel(const hyla_dpanel_t *P, int *ipiv, int ib, int rank,
                          hyla_dpanel_shared_t *S);

// One process's tiles of a tile column whose tiles lie on several
// processes: tile t holds the rows r0[t] .. r0[t] + rows[t] - 1 (global
// numbers, increasing from tile to tile), n columns, rows ld apart.
typedef struct hyla_dpanel_part {
    double *const *tile;
    const int *r0, *rows;
    int ntiles, n, ld;
} hyla_dpanel_part_t;

// How the processes of such a column exchange (every one calls each in
// the same order): allgather puts every process's len values, in process
// order, into recv; bcast sends buf from the process with the panel's
// diagonal rows to the others.
typedef struct hyla_dpanel_comm {
    void (*allgather)(void *ctx, const double *send, double *recv, int len);
    void (*bcast)(void *ctx, double *buf, int len);
    void *ctx;
    int nprocs;
} hyla_dpanel_comm_t;

// Elements of the workspace of hyla_cpu_dgetrf_panel_part().
size_t hyla_dpanel_part_work(int nprocs, int n, int ib);

// LU with partial pivoting of such a column, its first pivot on global
// row row0 (whose process holds rows row0 .. row0 + npiv - 1), npiv
// pivots, interchanges across the whole width: each process calls it on
// its tiles.  For each column the processes exchange their pivot
// candidates (one allgather); after each block of ib columns, U12 goes
// from the diagonal rows' process to the others (one bcast) for their
// GEMM.  ipiv gets LAPACK's 1-based global rows, on every process.
// Returns 0 or the first column (1-based, in the panel) with a zero pivot.
int hyla_cpu_dgetrf_panel_part(const hyla_dpanel_part_t *P, int row0,
                               int npiv, int ib, int *ipiv,
                               const hyla_dpanel_comm_t *c, double *work);

// Apply the interchanges ipiv[k1 .. k2-1] (1-based global rows; row0 is the
// global number of P's first row, and pivot i concerns P's row i) to the
// whole width of P, in increasing order (inc > 0) or decreasing (inc < 0).
void hyla_cpu_dlaswp_panel(const hyla_dpanel_t *P, int row0, const int *ipiv,
                           int k1, int k2, int inc);

// Cholesky of an n-by-n row-major tile: uplo HYLA_LOWER gives A = L L^T,
// HYLA_UPPER A = U^T U.  Returns LAPACK's info; a NaN on the diagonal of
// the factor also fails, at its column.
int hyla_cpu_dpotrf(int uplo, int n, double *A, int lda);

// W = A^-1 for the uplo triangle of the n-by-n row-major tile A, its
// diagonal A's (diag HYLA_NON_UNIT) or ones (HYLA_UNIT, A's diagonal not
// read), the other triangle of W set to zero.  Returns LAPACK's info:
// j > 0 when A(j, j) is zero (W is then not an inverse).
int hyla_cpu_dtrtri(int uplo, int diag, int n, const double *A, int lda,
                    double *W, int ldw);

// Column-major (Af, lda) <-> row-major tile (T, ldt), m-by-n.  uplo
// HYLA_LOWER or HYLA_UPPER copies one triangle (diagonal included),
// HYLA_FULL everything.
void hyla_cpu_dlap_to_tile(int uplo, int m, int n, const double *Af, int lda,
                           double *T, int ldt);
void hyla_cpu_dtile_to_lap(int uplo, int m, int n, const double *T, int ldt,
                           double *Af, int lda);
// The m-by-n row-major tile T of a matrix padded beyond A: its first mv
// rows and nv columns from the column-major A, the rest zero but for ones
// on the diagonal if ident; sums[i] = sum_j |A(i, j)| over those nv
// columns for i < mv, 0 below.
void hyla_cpu_dlap_pad_to_tile(int m, int n, int mv, int nv, int ident,
                               const double *Af, int lda, double *T, int ldt,
                               double *sums);
// The same from the row-major tiles of A: element (i, j) of the first mv
// rows and nv columns is element (i - ms, j - ns) of S[3] (lds[3]) when
// i >= ms and j >= ns, of S[2] when only i >= ms, of S[1] when only
// j >= ns, and (i, j) of S[0] (S[0] already at the tile's first element);
// the row sums added to sums[i] when add.
void hyla_cpu_dtile_pad_to_tile(int m, int n, int mv, int nv, int ident,
                                const double *const S[4], const int lds[4],
                                int ms, int ns, double *T, int ldt,
                                double *sums, int add);
// B = A for row-major m-by-n A and B.
void hyla_cpu_dlacpy(int m, int n, const double *A, int lda, double *B,
                     int ldb);

//==== batched small matrices ====
// count column-major n-by-n matrices one after the other (leading
// dimension n), their pivots n apiece, their LAPACK info one apiece.

// LU with partial pivoting of each matrix, in place.
void hyla_cpu_dgetrf_batched(int n, int count, double *A, int *ipiv, int *info);
// The inverse of each matrix of A into C: where info > 0, C holds its LU
// factors instead.  0, or -1 when out of memory.
int hyla_cpu_dgetri_batched(int n, int count, const double *A, double *C,
                            int *ipiv, int *info);
// op(A) X = B (trans HYLA_NO_TRANS or HYLA_TRANS) with the LU factors of
// each matrix; B holds count n-by-nrhs matrices one after the other.
void hyla_cpu_dgetrs_batched(int trans, int n, int nrhs, int count,
                             const double *A, const int *ipiv, double *B);

//==== random butterflies (RBT) and LU without pivoting ====

// LU without pivoting of the n-by-n row-major tile A, in place (L unit
// lower, U upper).  Returns 0, or j > 0 when U(j, j) is exactly zero: the
// factorization stops there.
int hyla_cpu_dgetrf_nopiv(int n, double *A, int lda);

// A butterfly of order s is B = [R0 R1; R0 -R1] / s2 (s2 the square
// root of 2) with R0, R1 diagonal.  Two-sided on four m-by-n row-major
// tiles that hold the partners of one another (A11, A12 in the top rows,
// A21, A22 in the bottom rows, A12 and A22 in the right columns):
// [A11 A12; A21 A22] = B^T [A11 A12; A21 A22] C, with r0, r1 the row
// weights of B (m apiece) and c0, c1 the column weights of C (n apiece).
void hyla_cpu_drbt_two_sided(int m, int n, double *A11, double *A12,
                             double *A21, double *A22, int ld, const double *r0,
                             const double *r1, const double *c0,
                             const double *c1);
// Two levels at once, a butterfly level and the level outside it, on the
// 4-by-4 m-by-n row-major tiles of a group of partners: A[4k + l] is the
// tile in row k and column l of the group, its rows (columns) k = 0 | 1
// and 2 | 3 the partners of the inner level, 0 | 2 and 1 | 3 those of the
// outer one.  w[k] and w[4 + k] are the row weights of tile row k in the
// inner and the outer level, w[8 + l] and w[12 + l] the column weights of
// tile column l: A = B_o^T B_i^T A C_i C_o, which is hyla_cpu_drbt_two_sided
// on the inner pairs and then on the outer ones.
void hyla_cpu_drbt_two_levels(int m, int n, int ld, double *const A[16],
                              const double *const w[16]);
// One-sided on two m-by-n row-major tiles of partner rows:
// [X1; X2] = B^T [X1; X2] (trans HYLA_TRANS) or B [X1; X2].
void hyla_cpu_drbt_rows(int trans, int m, int n, double *X1, double *X2, int ld,
                        const double *r0, const double *r1);
// count butterfly weights exp(r / 10), r uniform in [-1/2, 1/2), from the
// seeded generator (the same values for a seed everywhere).
void hyla_cpu_drbt_random(unsigned long long seed, size_t count, double *w);

//==== random matrices ====

// The m-by-n row-major tile T of rows i0... and columns j0... of the
// random matrix of seed (cpu/random.h), or with sym of its symmetric
// version, bump added to the diagonal (row == column).
void hyla_cpu_dplrnt(int m, int n, double *T, int ldt, int i0, int j0,
                     unsigned long long seed, int sym, double bump);

#endif // HYLA_CPU_CPU_D_H

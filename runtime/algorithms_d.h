// SPDX-License-Identifier: BSD-3-Clause
// Tile algorithms, double precision.  @precisions d -> s
// Each inserts the tasks of one operation into seq and returns at once.
#ifndef HYLA_RUNTIME_ALGORITHMS_D_H
#define HYLA_RUNTIME_ALGORITHMS_D_H

#include "runtime.h"

// A = P L U, pivots into P; with a workspace (ws->inv not NULL) the
// solves by the diagonal tiles are GEMMs by their inverses.
void hyla_pdgetrf(const hyla_desc_t *A, const hyla_pivots_t *P, int lookahead,
                  const hyla_trsm_ws_t *ws, hyla_seq_t *seq);

// A = L L^T (uplo HYLA_LOWER) or U^T U (HYLA_UPPER); with a workspace
// (ws->inv not NULL) the solves by the diagonal tiles are GEMMs by their
// inverses.
void hyla_pdpotrf(int uplo, const hyla_desc_t *A, int lookahead,
                  const hyla_trsm_ws_t *ws, hyla_seq_t *seq);

// B = op(A)^-1 B for the uplo triangle of A.  inv: NULL, or a workspace
// whose tiles (Wm, k) hold the inverses of A's diagonal tiles' triangles,
// used where the solve runs as one task.
void hyla_pdtrsm(int uplo, int trans, int diag, const hyla_desc_t *A,
                 const hyla_trsm_ws_t *inv, int Wm, const hyla_desc_t *B,
                 hyla_seq_t *seq);

// The interchanges of P applied to the rows of B, forward (inc > 0) or
// backward (inc < 0).  A distributed B needs the workspaces of
// hyla_rt_pivots_dist for as many columns.
void hyla_pdlaswp(const hyla_desc_t *B, const hyla_pivots_t *P, int inc,
                  hyla_seq_t *seq);
// Those of step k on tile column n of A (rows k*nb on): one task, or
// where the column spans processes tasks that move only the rows that
// change, so that no whole tile crosses processes for an interchange.
void hyla_pdlaswp_step(hyla_task_opts_t *o, const hyla_desc_t *A, int k, int n,
                       const hyla_pivots_t *P, int inc);

// B = op(A)^-1 B with the LU factors and pivots of hyla_pdgetrf.
void hyla_pdgetrs(int trans, const hyla_desc_t *A, const hyla_pivots_t *P,
                  const hyla_desc_t *B, hyla_seq_t *seq);

// B = A^-1 B with the Cholesky factor of hyla_pdpotrf.
void hyla_pdpotrs(int uplo, const hyla_desc_t *A, const hyla_desc_t *B,
                  hyla_seq_t *seq);

// Column-major Af <-> tiles of A; uplo HYLA_LOWER / HYLA_UPPER copies one
// triangle (tiles on its side and that triangle of diagonal tiles).
void hyla_pdlap_to_desc(int uplo, const double *Af, int lda,
                        const hyla_desc_t *A, hyla_seq_t *seq);
void hyla_pddesc_to_lap(int uplo, const hyla_desc_t *A, double *Af, int lda,
                        hyla_seq_t *seq);
// This process's part of a distributed A <-> its column-major local
// matrix in ScaLAPACK's layout (hyla_dlocal_to_desc).
void hyla_pdlocal_to_desc(const double *Aloc, int lld, const hyla_desc_t *A,
                          hyla_seq_t *seq);
void hyla_pddesc_to_local(const hyla_desc_t *A, double *Aloc, int lld,
                          hyla_seq_t *seq);
// The same through blocks of the column-major matrix registered as data
// (hyla_rt_lap_blocks_create), whole tiles; works on distributed matrices.
void hyla_pdlap_blocks_to_desc(void *const *blocks, const hyla_desc_t *A,
                               hyla_seq_t *seq);
void hyla_pddesc_to_lap_blocks(const hyla_desc_t *A, void *const *blocks,
                               hyla_seq_t *seq);
// The square A = [Af 0; 0 I] from the na-by-na column-major Af; sums
// (A->m * A->nt) gets the row sums of |Af| by tile column: element
// n * A->m + i sums row i's over tile column n (0 for i >= na).  The tile
// columns come in groups of `parts` (dividing A->nt) that butterflies of
// that many blocks mix: n, n + q, n + 2q, ... (q = A->nt / parts), so
// that the first group is whole early.
void hyla_pdlap_pad_to_desc(int na, const double *Af, int lda,
                            const hyla_desc_t *A, double *sums, int parts,
                            hyla_seq_t *seq);
// The same from the square tile matrix A, into P (tiles no larger than
// A's); sums[m + c P->mt], runtime vectors of P->nb values, get the row
// sums of tile row m over the tile columns of process column c of P's
// grid (c = 0 when P is not distributed; the tasks of a tile row add to
// it in turn: P->mt vectors to bring back rather than one a tile).  On a
// distributed P, vector (m, c) goes with tile (m, c)
// (hyla_rt_vector_of_tile): each process adds up its own tiles' rows.
void hyla_pdtile_pad_to_desc(const hyla_desc_t *A, const hyla_desc_t *P,
                             void *const *sums, int parts, hyla_seq_t *seq);

// C = alpha A B + beta C.
void hyla_pdgemm(double alpha, const hyla_desc_t *A, const hyla_desc_t *B,
                 double beta, const hyla_desc_t *C, hyla_seq_t *seq);

// B = A, both tiled alike.
void hyla_pdlacpy(const hyla_desc_t *A, const hyla_desc_t *B, hyla_seq_t *seq);

//==== random butterflies (RBT) ====
// W: the runtime vector of the weights; u, v (w): the offsets in it of
// depth levels of A->m weights each (pdrbt.c).  Every half of a butterfly
// is a whole number of full tiles.

// A = U^T A V.
void hyla_pdrbt_two_sided(const hyla_desc_t *A, int depth, void *W, size_t u,
                          size_t v, hyla_seq_t *seq);
// B = U^T B (trans HYLA_TRANS) or B = V B (HYLA_NO_TRANS), w U's or V's.
void hyla_pdrbt_rows(int trans, const hyla_desc_t *B, int depth, void *W,
                     size_t w, hyla_seq_t *seq);
// A = L U without pivoting; a zero pivot gives info at its column (the
// factors after it are garbage).  ws: NULL inv, or room for the inverses
// of the diagonal tiles' L (tile row 0) and U (tile row 1), computed at
// each step; the solves by those triangles are GEMMs by them when inv.
void hyla_pdgetrf_nopiv(const hyla_desc_t *A, int lookahead,
                        const hyla_trsm_ws_t *ws, int inv, hyla_seq_t *seq);

// A = rows i0... and columns j0... of the random matrix of seed, or with
// sym of its symmetric version plus bump on the diagonal.
void hyla_pdplrnt(const hyla_desc_t *A, int i0, int j0, unsigned long long seed,
                  int sym, double bump, hyla_seq_t *seq);

#endif // HYLA_RUNTIME_ALGORITHMS_D_H

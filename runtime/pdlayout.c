// SPDX-License-Identifier: BSD-3-Clause
// Column-major matrix <-> tile matrix, a task per tile (or per group of
// small tiles of a column).
// @precisions d -> s
#include "algorithms_d.h"
#include "tasks_d.h"

// Which part of tile (m, n) a copy of the uplo triangle takes, or -1.
static int tile_part(int uplo, int m, int n)
{
    if (m == n) return uplo;
    if (uplo == HYLA_FULL) return HYLA_FULL;
    return (uplo == HYLA_LOWER) == (m > n) ? HYLA_FULL : -1;
}

// Block (i, j) of nb-by-nb blocks of the column-major Af.
static double *block(const double *Af, int lda, int nb, int i, int j)
{
    return (double *)Af + (size_t)j * nb * lda + (size_t)i * nb;
}

// Tiles a copy task takes: one, or as many of a tile column as make
// GROUP_BYTES, where the tiles are small (a right-hand side's: at n =
// 16384 its 16 tiles of 8 KB took 0.45 ms as 16 tasks, docs/perf).  Only
// whole tiles of a matrix on one process are grouped (uplo HYLA_FULL).
enum { GROUP_BYTES = 1 << 20 };

static int group(int uplo, const hyla_desc_t *A)
{
    if (uplo != HYLA_FULL || A->dist) return 1;
    size_t tile = (size_t)A->nb * hyla_imin(A->nb, A->n) * sizeof(double);
    size_t g = GROUP_BYTES / (tile ? tile : 1);
    return g < 1 ? 1 : g > (size_t)A->mt ? A->mt : (int)g;
}

// The tiles of column n come in before the panel of step n needs them.
void hyla_pdlap_to_desc(int uplo, const double *Af, int lda,
                        const hyla_desc_t *A, hyla_seq_t *seq)
{
    hyla_task_opts_t o = hyla_task_opts(seq);
    int g = group(uplo, A);
    for (int n = 0; n < A->nt; n++) {
        o.priority = hyla_prio_panel(A->nt, n) + 2;
        for (int m = 0; m < A->mt; m += g) {
            int part = tile_part(uplo, m, n), k = hyla_imin(g, A->mt - m);
            if (part >= 0)
                hyla_task_dlap_to_tiles(&o, part, block(Af, lda, A->nb, m, n),
                                        lda, A, m, n, k);
        }
    }
}

void hyla_pddesc_to_lap(int uplo, const hyla_desc_t *A, double *Af, int lda,
                        hyla_seq_t *seq)
{
    hyla_task_opts_t o = hyla_task_opts(seq);
    int g = group(uplo, A);
    for (int n = 0; n < A->nt; n++)
        for (int m = 0; m < A->mt; m += g) {
            int part = tile_part(uplo, m, n), k = hyla_imin(g, A->mt - m);
            if (part >= 0)
                hyla_task_dtiles_to_lap(&o, part, A, m, n, k,
                                        block(Af, lda, A->nb, m, n), lda);
        }
}

// The same through blocks of the column-major matrix registered as data
// (hyla_rt_lap_blocks_create), whole tiles: on a distributed matrix, each
// tile's process gets its block from rank 0, or sends its tile there.
void hyla_pdlap_blocks_to_desc(void *const *blocks, const hyla_desc_t *A,
                               hyla_seq_t *seq)
{
    hyla_task_opts_t o = hyla_task_opts(seq);
    for (int n = 0; n < A->nt; n++)
        for (int m = 0; m < A->mt; m++)
            hyla_task_dlapblock_to_tile(&o, blocks[m + (size_t)n * A->mt], A, m,
                                        n);
}

void hyla_pddesc_to_lap_blocks(const hyla_desc_t *A, void *const *blocks,
                               hyla_seq_t *seq)
{
    hyla_task_opts_t o = hyla_task_opts(seq);
    for (int n = 0; n < A->nt; n++)
        for (int m = 0; m < A->mt; m++)
            hyla_task_dtile_to_lapblock(&o, A, m, n,
                                        blocks[m + (size_t)n * A->mt]);
}

// ScaLAPACK's local matrices: tile (m, n) is block (m / p, n / q) of its
// process's.  Every process inserts every task, so that the copies of
// tiles that others hold in cache are dropped when their tiles change.
// This process's block of tile (m, n) in its local matrix, or NULL.
static double *local_block(const double *Aloc, int lld, const hyla_desc_t *A,
                           int m, int n)
{
    if (hyla_tile_owner(A, m, n) != hyla_rt_rank()) return NULL;
    return block(Aloc, lld, A->nb, m / A->p, n / A->q);
}

void hyla_pdlocal_to_desc(const double *Aloc, int lld, const hyla_desc_t *A,
                          hyla_seq_t *seq)
{
    hyla_task_opts_t o = hyla_task_opts(seq);
    for (int n = 0; n < A->nt; n++)
        for (int m = 0; m < A->mt; m++)
            hyla_task_dlap_to_tile(
                &o, HYLA_FULL, local_block(Aloc, lld, A, m, n), lld, A, m, n);
}

void hyla_pddesc_to_local(const hyla_desc_t *A, double *Aloc, int lld,
                          hyla_seq_t *seq)
{
    hyla_task_opts_t o = hyla_task_opts(seq);
    for (int n = 0; n < A->nt; n++)
        for (int m = 0; m < A->mt; m++)
            hyla_task_dtile_to_lap(&o, HYLA_FULL, A, m, n,
                                   local_block(Aloc, lld, A, m, n), lld);
}

// The i-th tile column of nt to come in, by groups of `parts`.
static int in_group_order(int i, int nt, int parts)
{
    return i / parts + (i % parts) * (nt / parts);
}

void hyla_pdlap_pad_to_desc(int na, const double *Af, int lda,
                            const hyla_desc_t *A, double *sums, int parts,
                            hyla_seq_t *seq)
{
    hyla_task_opts_t o = hyla_task_opts(seq);
    for (int i = 0; i < A->nt; i++) {
        int n = in_group_order(i, A->nt, parts);
        o.priority = hyla_prio_panel(A->nt, i) + 2;
        for (int m = 0; m < A->mt; m++)
            hyla_task_dlap_pad_to_tile(&o, na, Af, lda, A, m, n,
                                       sums + (size_t)n * A->m +
                                           (size_t)m * A->nb);
    }
}

// Whether the i-th tile column to come in has one of its process column
// before it (its tasks add to the sums that an earlier one started).
static int not_first(int i, int nt, int parts, int q)
{
    int c = in_group_order(i, nt, parts) % q;
    for (int e = 0; e < i; e++)
        if (in_group_order(e, nt, parts) % q == c) return 1;
    return 0;
}

void hyla_pdtile_pad_to_desc(const hyla_desc_t *A, const hyla_desc_t *P,
                             void *const *sums, int parts, hyla_seq_t *seq)
{
    hyla_task_opts_t o = hyla_task_opts(seq);
    for (int i = 0; i < P->nt; i++) {
        int n = in_group_order(i, P->nt, parts);
        int add = not_first(i, P->nt, parts, P->q);
        o.priority = hyla_prio_panel(P->nt, i) + 2;
        for (int m = 0; m < P->mt; m++)
            hyla_task_dtile_pad_to_tile(
                &o, A, P, m, n, sums[m + (size_t)(n % P->q) * P->mt], add);
    }
}

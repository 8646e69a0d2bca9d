// SPDX-License-Identifier: BSD-3-Clause
// The row interchanges of one LU step as a permutation, applied one tile
// at a time: for a tile column whose tiles live on several processes,
// each moves only the rows that change.  Rows are row_bytes of any type.
#ifndef HYLA_CPU_ROWPERM_H
#define HYLA_CPU_ROWPERM_H

#include <stddef.h>

// The top block is the npiv rows from global row row0 on.  After the
// interchanges, top row t holds the old global row src[t]; the rows
// below[i] under the top block (nbelow of them) hold the old top rows
// from[i] (0 .. npiv-1); every other row is unchanged.
typedef struct hyla_rowperm {
    int npiv, row0, nbelow;
    int *src, *below, *from;
} hyla_rowperm_t;

// Bytes of memory hyla_rowperm_init needs for npiv pivots.
size_t hyla_rowperm_size(int npiv);

// The permutation of LAPACK's ipiv[0 .. npiv-1] (1-based global rows,
// pivot t for global row row0 + t, applied in order), or with inverse its
// inverse (the interchanges undone, in reverse order), in mem.
void hyla_rowperm_init(hyla_rowperm_t *p, int npiv, const int *ipiv, int row0,
                       int inverse, void *mem);

// Tiles are row-major: rows apart by ld bytes.  A tile T holds the global
// rows r0 .. r0 + rows - 1.

// The rows of T that end in the top block, into the same rows of W as of
// the top block (W: npiv rows or more).
void hyla_rowperm_gather(const hyla_rowperm_t *p, const void *T, int r0,
                         int rows, size_t ldt, void *W, size_t ldw,
                         size_t row_bytes);

// The top rows whose source lies in tile row i with i % nprow == prow
// (tiles of nb rows), from W into Top.
void hyla_rowperm_merge(const hyla_rowperm_t *p, const void *W, size_t ldw,
                        void *Top, size_t ldtop, size_t row_bytes, int nb,
                        int nprow, int prow);

// The old top rows (Old, a copy of the top block before the interchanges)
// into the rows of T that get them.
void hyla_rowperm_scatter(const hyla_rowperm_t *p, const void *Old,
                          size_t ldo, void *T, int r0, int rows, size_t ldt,
                          size_t row_bytes);

#endif // HYLA_CPU_ROWPERM_H

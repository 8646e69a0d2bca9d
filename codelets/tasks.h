// SPDX-License-Identifier: BSD-3-Clause
// Task insertion functions called by the tile algorithms.
#ifndef HYLA_CODELETS_TASKS_H
#define HYLA_CODELETS_TASKS_H

#include "tasks_d.h"
#include "tasks_s.h"

// Row interchanges of LU step k on tile column n of a distributed A, one
// tile at a time (cpu/rowperm.h), any element type; inc < 0 undoes them.
// The workspaces P->W and P->Old have a tile row per process row (A->p of
// them), tile (i, n) on the process of A's tiles (i + j p, n):
//  - save: tile (k, n), the top block, into Old's tile (k mod p, n);
//  - gather: the rows of tile (m, n) that go to the top block, into W's
//    tile (m mod p, n);
//  - scatter: the old top rows that go to tile (m, n), from Old;
//  - merge: the top rows that come from process row prow, from W into
//    tile (k, n).
void hyla_task_rowperm_save(const hyla_task_opts_t *o, const hyla_desc_t *A,
                            int k, int n, const hyla_pivots_t *P);
void hyla_task_rowperm_gather(const hyla_task_opts_t *o, const hyla_desc_t *A,
                              int k, int m, int n, const hyla_pivots_t *P,
                              int inc);
void hyla_task_rowperm_scatter(const hyla_task_opts_t *o, const hyla_desc_t *A,
                               int k, int m, int n, const hyla_pivots_t *P,
                               int inc);
void hyla_task_rowperm_merge(const hyla_task_opts_t *o, const hyla_desc_t *A,
                             int k, int n, const hyla_pivots_t *P, int inc,
                             int prow);

#endif // HYLA_CODELETS_TASKS_H

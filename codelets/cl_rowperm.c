// SPDX-License-Identifier: BSD-3-Clause
// Row interchanges of an LU step on a tile column spread over processes
// (cpu/rowperm.h), any element type: each task moves the rows of one tile.
#include "codelets.h"
#include "rowperm.h"

enum { OP_GATHER, OP_MERGE, OP_SCATTER, OP_SAVE };

struct rowperm_args {
    hyla_seq_t *seq;
    int op;
    int row0;      // global row of the top block (of pivot 0)
    int r0;        // global row of the tile's first row (gather, scatter)
    int nb, nprow; // tile rows and process rows (merge)
    int prow;      // the process row whose rows are merged
    int inverse;   // the interchanges undone (hyla_rowperm_init)
};

// The permutation of the pivots in buffer 0, in memory of its own
// (NULL and the sequence failed when there is none).
static void *perm(hyla_rowperm_t *p, void *buffers[],
                  const struct rowperm_args *a)
{
    int npiv = (int)STARPU_VECTOR_GET_NX(buffers[0]);
    void *mem = malloc(hyla_rowperm_size(npiv));
    if (!mem) {
        hyla_rt_seq_fail(a->seq, HYLA_ERR_OUT_OF_MEMORY);
        return NULL;
    }
    hyla_rowperm_init(p, npiv, (const int *)STARPU_VECTOR_GET_PTR(buffers[0]),
                      a->row0, a->inverse, mem);
    return mem;
}

// Bytes of a tile's row, and between its rows.
static size_t row_bytes(void *tile)
{
    return (size_t)HYLA_TILE_COLS(tile) * STARPU_MATRIX_GET_ELEMSIZE(tile);
}

static size_t ld_bytes(void *tile)
{
    return (size_t)HYLA_TILE_LD(tile) * STARPU_MATRIX_GET_ELEMSIZE(tile);
}

// Buffers: the pivots (R), a source tile (R), a destination tile (RW):
//  - gather: a tile of the column, the process row's workspace tile;
//  - merge: the process row's workspace tile, the top tile;
//  - scatter: the old top tile, a tile of the column.
static void cl_rowperm_cpu(void *buffers[], void *cl_arg)
{
    const struct rowperm_args *a = cl_arg;
    hyla_rowperm_t p;
    void *mem;
    if (hyla_rt_seq_skip(a->seq) || !(mem = perm(&p, buffers, a))) return;
    void *S = buffers[1], *D = buffers[2];
    if (a->op == OP_GATHER)
        hyla_rowperm_gather(&p, HYLA_TILE_PTR(S), a->r0, HYLA_TILE_ROWS(S),
                            ld_bytes(S), HYLA_TILE_PTR(D), ld_bytes(D),
                            row_bytes(S));
    else if (a->op == OP_MERGE)
        hyla_rowperm_merge(&p, HYLA_TILE_PTR(S), ld_bytes(S), HYLA_TILE_PTR(D),
                           ld_bytes(D), row_bytes(D), a->nb, a->nprow, a->prow);
    else
        hyla_rowperm_scatter(&p, HYLA_TILE_PTR(S), ld_bytes(S),
                             HYLA_TILE_PTR(D), a->r0, HYLA_TILE_ROWS(D),
                             ld_bytes(D), row_bytes(D));
    free(mem);
}

// Buffers: a tile (R), its copy (W, as large or larger).
static void cl_rowperm_save_cpu(void *buffers[], void *cl_arg)
{
    const struct rowperm_args *a = cl_arg;
    if (hyla_rt_seq_skip(a->seq)) return;
    void *T = buffers[0], *O = buffers[1];
    for (int r = 0; r < HYLA_TILE_ROWS(T); r++)
        memcpy((char *)HYLA_TILE_PTR(O) + r * ld_bytes(O),
               (const char *)HYLA_TILE_PTR(T) + r * ld_bytes(T), row_bytes(T));
}

// One codelet per operation: a performance model each.
HYLA_CODELET(rowperm_gather, cl_rowperm_cpu, NULL, 3, STARPU_R, STARPU_R,
             STARPU_RW);
HYLA_CODELET(rowperm_merge, cl_rowperm_cpu, NULL, 3, STARPU_R, STARPU_R,
             STARPU_RW);
HYLA_CODELET(rowperm_scatter, cl_rowperm_cpu, NULL, 3, STARPU_R, STARPU_R,
             STARPU_RW);
HYLA_CODELET(rowperm_save, cl_rowperm_save_cpu, NULL, 2, STARPU_R, STARPU_W);

static struct rowperm_args *args(const hyla_task_opts_t *o, int op,
                                 const hyla_desc_t *A, int k, int m)
{
    struct rowperm_args *a = hyla_cl_args(o, sizeof *a);
    if (a)
        *a = (struct rowperm_args){o->seq, op,   k * A->nb, m * A->nb,
                                   A->nb,  A->p, 0,         0};
    return a;
}

// A gather, merge or scatter task of step k on the rows of tile row m:
// pivots, source tile S (R), destination tile D (RW).
static void insert(const hyla_task_opts_t *o, struct starpu_codelet *cl, int op,
                   const hyla_desc_t *A, int k, int m, int prow, int inc,
                   const hyla_pivots_t *P, void *S, void *D)
{
    struct rowperm_args *a = args(o, op, A, k, m);
    if (!a) return;
    a->prow = prow;
    a->inverse = inc < 0;
    HYLA_TASK_INSERT(o, cl, STARPU_CL_ARGS, a, sizeof *a, STARPU_R,
                     hyla_rt_pivot(P, k), STARPU_R, (starpu_data_handle_t)S,
                     STARPU_RW, (starpu_data_handle_t)D);
}

void hyla_task_rowperm_gather(const hyla_task_opts_t *o, const hyla_desc_t *A,
                              int k, int m, int n, const hyla_pivots_t *P,
                              int inc)
{
    insert(o, &cl_rowperm_gather, OP_GATHER, A, k, m, 0, inc, P,
           hyla_rt_tile(A, m, n), hyla_rt_tile(P->W, m % A->p, n));
}

void hyla_task_rowperm_merge(const hyla_task_opts_t *o, const hyla_desc_t *A,
                             int k, int n, const hyla_pivots_t *P, int inc,
                             int prow)
{
    insert(o, &cl_rowperm_merge, OP_MERGE, A, k, k, prow, inc, P,
           hyla_rt_tile(P->W, prow, n), hyla_rt_tile(A, k, n));
}

void hyla_task_rowperm_scatter(const hyla_task_opts_t *o, const hyla_desc_t *A,
                               int k, int m, int n, const hyla_pivots_t *P,
                               int inc)
{
    insert(o, &cl_rowperm_scatter, OP_SCATTER, A, k, m, 0, inc, P,
           hyla_rt_tile(P->Old, k % A->p, n), hyla_rt_tile(A, m, n));
}

void hyla_task_rowperm_save(const hyla_task_opts_t *o, const hyla_desc_t *A,
                            int k, int n, const hyla_pivots_t *P)
{
    struct rowperm_args *a = args(o, OP_SAVE, A, k, k);
    if (a)
        HYLA_TASK_INSERT(o, &cl_rowperm_save, STARPU_CL_ARGS, a, sizeof *a,
                         STARPU_R, hyla_rt_tile(A, k, n), STARPU_W,
                         hyla_rt_tile(P->Old, k % A->p, n));
}

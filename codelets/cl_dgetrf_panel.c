// SPDX-License-Identifier: BSD-3-Clause
// LU panel: one task over a whole tile column.  @precisions d -> s
#include "codelets.h"

struct dgetrf_panel_args {
    hyla_seq_t *seq;
    int row0; // global index of the panel's first row (and column)
};

// The tiles of buffers[first ...] as one tile column.
static hyla_dpanel_t panel_view(void *buffers[], int first, int nbuf,
                                double **tile)
{
    hyla_dpanel_t P = {.tile = tile,
                       .mb = HYLA_TILE_ROWS(buffers[first]),
                       .m = 0,
                       .n = HYLA_TILE_COLS(buffers[first]),
                       .ld = HYLA_TILE_LD(buffers[first])};
    for (int t = first; t < nbuf; t++) {
        tile[t - first] = HYLA_TILE_PTR(buffers[t]);
        P.m += HYLA_TILE_ROWS(buffers[t]);
    }
    return P;
}

// The buffers of a task on tiles (k:mt-1, n): pivot piece k (mode
// piv_mode), then the tiles, read and written.
static void column_buffers(struct starpu_data_descr *d, const hyla_pivots_t *P,
                           int k, enum starpu_data_access_mode piv_mode,
                           const hyla_desc_t *A, int n)
{
    d[0] = (struct starpu_data_descr){hyla_rt_pivot(P, k), piv_mode};
    for (int m = k; m < A->mt; m++)
        d[1 + m - k] =
            (struct starpu_data_descr){hyla_rt_tile(A, m, n), STARPU_RW};
}

static void cl_dgetrf_panel_cpu(void *buffers[], void *cl_arg)
{
    const struct dgetrf_panel_args *a = cl_arg;
    if (hyla_rt_seq_skip(a->seq)) return;
    int nbuf = STARPU_TASK_GET_NBUFFERS(starpu_task_get_current());
    double *tile[nbuf];
    hyla_dpanel_t P = panel_view(buffers, 1, nbuf, tile);
    int *ipiv = (int *)STARPU_VECTOR_GET_PTR(buffers[0]);
    int kb = (int)STARPU_VECTOR_GET_NX(buffers[0]);

    int info = hyla_cpu_dgetrf_panel(&P, ipiv);
    for (int i = 0; i < kb; i++)
        ipiv[i] += a->row0 + 1;
    if (info) hyla_rt_seq_info(a->seq, a->row0 + info);
}

HYLA_CODELET_VARIADIC(dgetrf_panel, cl_dgetrf_panel_cpu);

void hyla_task_dgetrf_panel(const hyla_task_opts_t *o, const hyla_desc_t *A,
                            int k, const hyla_pivots_t *P)
{
    struct dgetrf_panel_args *a = hyla_cl_args(o, sizeof *a);
    if (!a) return;
    *a = (struct dgetrf_panel_args){o->seq, k * A->nb};
    int nbuf = 1 + A->mt - k;
    struct starpu_data_descr d[nbuf];
    column_buffers(d, P, k, STARPU_W, A, k);
    HYLA_TASK_INSERT(o, &cl_dgetrf_panel, STARPU_CL_ARGS, a, sizeof *a,
                     STARPU_DATA_MODE_ARRAY, d, nbuf);
}

//==== row interchanges on a tile column ====

struct dlaswp_args {
    hyla_seq_t *seq;
    int row0; // global index of the first row of the tiles
    int inc;
};

static void cl_dlaswp_cpu(void *buffers[], void *cl_arg)
{
    const struct dlaswp_args *a = cl_arg;
    if (hyla_rt_seq_skip(a->seq)) return;
    int nbuf = STARPU_TASK_GET_NBUFFERS(starpu_task_get_current());
    double *tile[nbuf];
    hyla_dpanel_t P = panel_view(buffers, 1, nbuf, tile);
    const int *ipiv = (const int *)STARPU_VECTOR_GET_PTR(buffers[0]);
    int kb = (int)STARPU_VECTOR_GET_NX(buffers[0]);
    hyla_cpu_dlaswp_panel(&P, a->row0, ipiv, 0, kb, a->inc);
}

HYLA_CODELET_VARIADIC(dlaswp, cl_dlaswp_cpu);

void hyla_task_dlaswp(const hyla_task_opts_t *o, const hyla_desc_t *A, int k,
                      int n, const hyla_pivots_t *P, int inc)
{
    struct dlaswp_args *a = hyla_cl_args(o, sizeof *a);
    if (!a) return;
    *a = (struct dlaswp_args){o->seq, k * A->nb, inc};
    int nbuf = 1 + A->mt - k;
    struct starpu_data_descr d[nbuf];
    column_buffers(d, P, k, STARPU_R, A, n);
    HYLA_TASK_INSERT(o, &cl_dlaswp, STARPU_CL_ARGS, a, sizeof *a,
                     STARPU_DATA_MODE_ARRAY, d, nbuf);
}

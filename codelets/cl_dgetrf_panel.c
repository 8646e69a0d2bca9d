// SPDX-License-Identifier: BSD-3-Clause
// LU panel: one task over a whole tile column.  @precisions d -> s
#include "codelets.h"

#include <limits.h>

// Leaf width of the recursive panel: columns factored one by one, each
// with one barrier, before a GEMM-rich recursion level.
enum { PANEL_IB = 8 };

struct dgetrf_panel_args {
    hyla_seq_t *seq;
    int row0;     // global index of the panel's first row (and column)
    int capacity; // threads the shared state has room for
    int decision; // 0 undecided, 1 run, 2 skip: taken once for all ranks
    hyla_dpanel_shared_t *S;
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

// Runs on one CPU worker, or as one rank of a combined worker (SPMD): every
// rank calls it.  Rank 0 lays out the shared state and decides whether the
// task runs; the others wait for the decision, so all ranks agree even if
// the sequence fails meanwhile.
static void cl_dgetrf_panel_cpu(void *buffers[], void *cl_arg)
{
    struct dgetrf_panel_args *a = cl_arg;
    int rank = starpu_combined_worker_get_rank();
    int size = starpu_combined_worker_get_size();
    if (rank == 0) {
        int skip = hyla_rt_seq_skip(a->seq) || size > a->capacity;
        if (size > a->capacity) hyla_rt_seq_fail(a->seq, HYLA_ERR_RUNTIME);
        a->S = hyla_dpanel_shared_init(a->S, size, a->S->n);
        __atomic_store_n(&a->decision, skip ? 2 : 1, __ATOMIC_RELEASE);
    } else {
        while (!__atomic_load_n(&a->decision, __ATOMIC_ACQUIRE))
            hyla_cpu_relax();
    }
    if (a->decision == 2) return;

    int nbuf = STARPU_TASK_GET_NBUFFERS(starpu_task_get_current());
    double *tile[nbuf];
    hyla_dpanel_t P = panel_view(buffers, 1, nbuf, tile);
    int *ipiv = (int *)STARPU_VECTOR_GET_PTR(buffers[0]);
    int kb = (int)STARPU_VECTOR_GET_NX(buffers[0]);

    int info = hyla_cpu_dgetrf_panel(&P, ipiv, PANEL_IB, rank, a->S);
    if (rank != 0) return;
    for (int i = 0; i < kb; i++)
        ipiv[i] += a->row0 + 1;
    if (info) hyla_rt_seq_info(a->seq, a->row0 + info);
}

#if HYLA_CUDA_CODELETS
// The GPU panel (native mode): the same pivots and info as the CPU's.
static void cl_dgetrf_panel_cuda(void *buffers[], void *cl_arg)
{
    struct dgetrf_panel_args *a = cl_arg;
    if (hyla_rt_seq_skip(a->seq)) return;
    int nbuf = STARPU_TASK_GET_NBUFFERS(starpu_task_get_current());
    double *tile[nbuf];
    hyla_dpanel_t P = panel_view(buffers, 1, nbuf, tile);
    int *dipiv = (int *)STARPU_VECTOR_GET_PTR(buffers[0]);
    int *word = hyla_cl_cuda_info_word(a->seq);
    if (!word) return;
    void *work = hyla_cl_cuda_workspace(HYLA_CUDA_GETRF_PANEL_WORK);
    if (!work) {
        hyla_rt_seq_fail(a->seq, HYLA_ERR_CUDA);
        return;
    }
    hyla_cl_cuda_t c = hyla_cl_cuda_begin();
    int rc = hyla_cuda_dgetrf_panel(c.handle, tile, nbuf - 1, P.mb, P.m, P.n,
                                    P.ld, dipiv, a->row0, word, work,
                                    hyla_rt_config()->gpu_reserved_sms,
                                    hyla_rt_config()->gpu_panel_rows);
    if (!rc) hyla_cl_cuda_gate(&c);
    hyla_cl_cuda_end_info(&c, rc, a->seq, word);
}
#endif

static struct starpu_perfmodel dgetrf_panel_model = {
    .type = STARPU_HISTORY_BASED, .symbol = "hyla_dgetrf_panel"};

static struct starpu_codelet cl_dgetrf_panel = {
    .type = STARPU_SPMD,
    .max_parallelism = INT_MAX,
    .cpu_funcs = {cl_dgetrf_panel_cpu},
    HYLA_CUDA_FIELDS(cl_dgetrf_panel_cuda).nbuffers = STARPU_VARIABLE_NBUFFERS,
    .model = &dgetrf_panel_model,
    .name = "dgetrf_panel"};

void hyla_task_dgetrf_panel(const hyla_task_opts_t *o, const hyla_desc_t *A,
                            int k, const hyla_pivots_t *P)
{
    // The shared state follows the arguments in one block, with room for
    // the largest combined worker that could run the task.
    int n = hyla_tile_nb(A, k), capacity = hyla_rt_cpu_workers();
    size_t head = (sizeof(struct dgetrf_panel_args) + 63) & ~(size_t)63;
    size_t bytes = head + hyla_dpanel_shared_size(capacity, n);
    struct dgetrf_panel_args *a = hyla_cl_args(o, bytes);
    if (!a) return;
    *a = (struct dgetrf_panel_args){o->seq, k * A->nb, capacity, 0, NULL};
    a->S = hyla_dpanel_shared_init((char *)a + head, capacity, n);
    int nbuf = 1 + A->mt - k;
    struct starpu_data_descr d[nbuf];
    column_buffers(d, P, k, STARPU_W, A, k);
    // Its owner's GPU under the cyclic mapping; a CPU panel has none.
    hyla_task_opts_t po = *o;
    if (hyla_rt_panel_where() != STARPU_CUDA) po.owner = -1;
    HYLA_TASK_INSERT(&po, &cl_dgetrf_panel, STARPU_CL_ARGS, a, bytes,
                     STARPU_DATA_MODE_ARRAY, d, nbuf, STARPU_EXECUTE_WHERE,
                     hyla_rt_panel_where(), STARPU_EXECUTE_ON_WORKER,
                     hyla_rt_panel_worker(A->mt - k));
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

#if HYLA_CUDA_CODELETS
static void cl_dlaswp_cuda(void *buffers[], void *cl_arg)
{
    const struct dlaswp_args *a = cl_arg;
    if (hyla_rt_seq_skip(a->seq)) return;
    int nbuf = STARPU_TASK_GET_NBUFFERS(starpu_task_get_current());
    double *tile[nbuf];
    hyla_dpanel_t P = panel_view(buffers, 1, nbuf, tile);
    const int *dipiv = (const int *)STARPU_VECTOR_GET_PTR(buffers[0]);
    int kb = (int)STARPU_VECTOR_GET_NX(buffers[0]);
    hyla_cl_cuda_t g = hyla_cl_cuda_begin();
    int rc = hyla_cuda_dlaswp(tile, nbuf - 1, P.mb, P.m, P.n, P.ld, dipiv, 0,
                              kb, a->row0, a->inc, g.stream);
    rc = hyla_cl_cuda_end(&g, rc);
    if (rc) hyla_rt_seq_fail(a->seq, rc);
}
#endif

HYLA_CODELET_VARIADIC(dlaswp, cl_dlaswp_cpu, cl_dlaswp_cuda);

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

// SPDX-License-Identifier: BSD-3-Clause
// A tile of a random matrix (hyla_dplrnt_tile).  @precisions d -> s
#include "codelets.h"

struct dplrnt_args {
    hyla_seq_t *seq;
    int i0, j0, sym;
    unsigned long long seed;
    double bump;
};

static void cl_dplrnt_cpu(void *buffers[], void *cl_arg)
{
    const struct dplrnt_args *a = cl_arg;
    if (hyla_rt_seq_skip(a->seq)) return;
    void *A = buffers[0];
    hyla_cpu_dplrnt(HYLA_TILE_ROWS(A), HYLA_TILE_COLS(A), HYLA_TILE_PTR(A),
                    HYLA_TILE_LD(A), a->i0, a->j0, a->seed, a->sym, a->bump);
}

#if HYLA_CUDA_CODELETS
static void cl_dplrnt_cuda(void *buffers[], void *cl_arg)
{
    const struct dplrnt_args *a = cl_arg;
    if (hyla_rt_seq_skip(a->seq)) return;
    void *A = buffers[0];
    hyla_cl_cuda_t g = hyla_cl_cuda_begin();
    int rc = hyla_cuda_dplrnt(g.stream, HYLA_TILE_ROWS(A), HYLA_TILE_COLS(A),
                              HYLA_TILE_PTR(A), HYLA_TILE_LD(A), a->i0, a->j0,
                              a->seed, a->sym, a->bump);
    rc = hyla_cl_cuda_end(&g, rc);
    if (rc) hyla_rt_seq_fail(a->seq, rc);
}
#endif

// The tile is written whole: its old contents need not travel.
HYLA_CODELET(dplrnt, cl_dplrnt_cpu, cl_dplrnt_cuda, 1, STARPU_W);

void hyla_task_dplrnt(const hyla_task_opts_t *o, const hyla_desc_t *A, int m,
                      int n, int i0, int j0, unsigned long long seed, int sym,
                      double bump)
{
    struct dplrnt_args *a = hyla_cl_args(o, sizeof *a);
    if (!a) return;
    *a = (struct dplrnt_args){o->seq, i0, j0, sym, seed, bump};
    // In native mode on the GPUs, where the matrix will be factored and
    // whose one CPU worker would generate it alone; elsewhere on the CPUs,
    // so that the tiles start in host memory.
    HYLA_TASK_INSERT(o, &cl_dplrnt, STARPU_CL_ARGS, a, sizeof *a, STARPU_W,
                     hyla_rt_tile(A, m, n), STARPU_EXECUTE_WHERE,
                     hyla_rt_panel_where());
}

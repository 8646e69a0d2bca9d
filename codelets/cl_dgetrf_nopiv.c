// SPDX-License-Identifier: BSD-3-Clause
// LU without pivoting of a diagonal tile.  @precisions d -> s
#include "codelets.h"

struct dgetrf_nopiv_args {
    hyla_seq_t *seq;
    int col0; // global index of the tile's first column
};

static void cl_dgetrf_nopiv_cpu(void *buffers[], void *cl_arg)
{
    const struct dgetrf_nopiv_args *a = cl_arg;
    if (hyla_rt_seq_skip(a->seq)) return;
    int info = hyla_cpu_dgetrf_nopiv(HYLA_TILE_ROWS(buffers[0]),
                                     HYLA_TILE_PTR(buffers[0]),
                                     HYLA_TILE_LD(buffers[0]));
    if (info) hyla_rt_seq_info(a->seq, a->col0 + info);
}

#if HYLA_CUDA_CODELETS
static void cl_dgetrf_nopiv_cuda(void *buffers[], void *cl_arg)
{
    const struct dgetrf_nopiv_args *a = cl_arg;
    if (hyla_rt_seq_skip(a->seq)) return;
    int *word = hyla_cl_cuda_info_word(a->seq);
    if (!word) return;
    hyla_cl_cuda_t c = hyla_cl_cuda_begin();
    int rc = hyla_cuda_dgetrf_nopiv(c.handle, HYLA_TILE_ROWS(buffers[0]),
                                    HYLA_TILE_PTR(buffers[0]),
                                    HYLA_TILE_LD(buffers[0]), word, a->col0);
    hyla_cl_cuda_end_info(&c, rc, a->seq, word);
}
#endif

HYLA_CODELET(dgetrf_nopiv, cl_dgetrf_nopiv_cpu, cl_dgetrf_nopiv_cuda, 1,
             STARPU_RW);

void hyla_task_dgetrf_nopiv(const hyla_task_opts_t *o, const hyla_desc_t *A,
                            int k)
{
    struct dgetrf_nopiv_args *a = hyla_cl_args(o, sizeof *a);
    if (!a) return;
    *a = (struct dgetrf_nopiv_args){o->seq, k * A->nb};
    HYLA_TASK_INSERT(o, &cl_dgetrf_nopiv, STARPU_CL_ARGS, a, sizeof *a,
                     STARPU_RW, hyla_rt_tile(A, k, k));
}

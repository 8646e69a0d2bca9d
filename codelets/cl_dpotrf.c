// SPDX-License-Identifier: BSD-3-Clause
// Cholesky of a diagonal tile.  @precisions d -> s
#include "codelets.h"

struct dpotrf_args {
    hyla_seq_t *seq;
    int uplo;
    int col0; // global index of the tile's first column
};

static void cl_dpotrf_cpu(void *buffers[], void *cl_arg)
{
    const struct dpotrf_args *a = cl_arg;
    if (hyla_rt_seq_skip(a->seq)) return;
    int info =
        hyla_cpu_dpotrf(a->uplo, HYLA_TILE_ROWS(buffers[0]),
                        HYLA_TILE_PTR(buffers[0]), HYLA_TILE_LD(buffers[0]));
    if (info > 0)
        hyla_rt_seq_info(a->seq, a->col0 + info);
    else if (info < 0)
        hyla_rt_seq_fail(a->seq, HYLA_ERR_RUNTIME);
}

#if HYLA_CUDA_CODELETS
static void cl_dpotrf_cuda(void *buffers[], void *cl_arg)
{
    const struct dpotrf_args *a = cl_arg;
    if (hyla_rt_seq_skip(a->seq)) return;
    int *word = hyla_cl_cuda_info_word(a->seq);
    if (!word) return;
    hyla_cl_cuda_t c = hyla_cl_cuda_begin();
    int rc = hyla_cuda_dpotrf(c.handle, a->uplo, HYLA_TILE_ROWS(buffers[0]),
                              HYLA_TILE_PTR(buffers[0]),
                              HYLA_TILE_LD(buffers[0]), word, a->col0);
    hyla_cl_cuda_end_info(&c, rc, a->seq, word);
}
#endif

HYLA_CODELET(dpotrf, cl_dpotrf_cpu, cl_dpotrf_cuda, 1, STARPU_RW);

void hyla_task_dpotrf(const hyla_task_opts_t *o, int uplo, const hyla_desc_t *A,
                      int k)
{
    struct dpotrf_args *a = hyla_cl_args(o, sizeof *a);
    if (!a) return;
    *a = (struct dpotrf_args){o->seq, uplo, k * A->nb};
    HYLA_TASK_INSERT(o, &cl_dpotrf, STARPU_CL_ARGS, a, sizeof *a, STARPU_RW,
                     hyla_rt_tile(A, k, k));
}

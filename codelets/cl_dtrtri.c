// SPDX-License-Identifier: BSD-3-Clause
// Inverse of a triangular tile, out of place.  @precisions d -> s
#include "codelets.h"

struct dtrtri_args {
    hyla_seq_t *seq;
    int uplo, diag;
    int col0; // global index of the tile's first column
};

static void cl_dtrtri_cpu(void *buffers[], void *cl_arg)
{
    const struct dtrtri_args *a = cl_arg;
    if (hyla_rt_seq_skip(a->seq)) return;
    void *A = buffers[0], *W = buffers[1];
    int info =
        hyla_cpu_dtrtri(a->uplo, a->diag, HYLA_TILE_ROWS(A), HYLA_TILE_PTR(A),
                        HYLA_TILE_LD(A), HYLA_TILE_PTR(W), HYLA_TILE_LD(W));
    if (info > 0)
        hyla_rt_seq_info(a->seq, a->col0 + info);
    else if (info < 0)
        hyla_rt_seq_fail(a->seq, HYLA_ERR_RUNTIME);
}

#if HYLA_CUDA_CODELETS
static void cl_dtrtri_cuda(void *buffers[], void *cl_arg)
{
    const struct dtrtri_args *a = cl_arg;
    if (hyla_rt_seq_skip(a->seq)) return;
    void *A = buffers[0], *W = buffers[1];
    hyla_cl_cuda_t g = hyla_cl_cuda_begin();
    int rc = hyla_cuda_dtrtri(g.handle, a->uplo, a->diag, HYLA_TILE_ROWS(A),
                              HYLA_TILE_PTR(A), HYLA_TILE_LD(A),
                              HYLA_TILE_PTR(W), HYLA_TILE_LD(W));
    rc = hyla_cl_cuda_end(&g, rc);
    if (rc) hyla_rt_seq_fail(a->seq, rc);
}
#endif

// W is written whole: its old contents need not travel.
HYLA_CODELET(dtrtri, cl_dtrtri_cpu, cl_dtrtri_cuda, 2, STARPU_R, STARPU_W);

void hyla_task_dtrtri(const hyla_task_opts_t *o, int uplo, int diag, int col0,
                      const hyla_desc_t *A, int Am, int An,
                      const hyla_desc_t *W, int Wm, int Wn)
{
    struct dtrtri_args *a = hyla_cl_args(o, sizeof *a);
    if (!a) return;
    *a = (struct dtrtri_args){o->seq, uplo, diag, col0};
    HYLA_TASK_INSERT(o, &cl_dtrtri, STARPU_CL_ARGS, a, sizeof *a, STARPU_R,
                     hyla_rt_tile(A, Am, An), STARPU_W,
                     hyla_rt_tile(W, Wm, Wn));
}

// SPDX-License-Identifier: BSD-3-Clause
// Copy of a tile into another of the same size.  @precisions d -> s
#include "codelets.h"

struct dlacpy_args {
    hyla_seq_t *seq;
};

static void cl_dlacpy_cpu(void *buffers[], void *cl_arg)
{
    const struct dlacpy_args *a = cl_arg;
    if (hyla_rt_seq_skip(a->seq)) return;
    void *A = buffers[0], *B = buffers[1];
    hyla_cpu_dlacpy(HYLA_TILE_ROWS(A), HYLA_TILE_COLS(A), HYLA_TILE_PTR(A),
                    HYLA_TILE_LD(A), HYLA_TILE_PTR(B), HYLA_TILE_LD(B));
}

#if HYLA_CUDA_CODELETS
static void cl_dlacpy_cuda(void *buffers[], void *cl_arg)
{
    const struct dlacpy_args *a = cl_arg;
    if (hyla_rt_seq_skip(a->seq)) return;
    void *A = buffers[0], *B = buffers[1];
    size_t e = sizeof(double);
    hyla_cl_cuda_t g = hyla_cl_cuda_begin();
    int rc = cudaMemcpy2DAsync(HYLA_TILE_PTR(B), e * HYLA_TILE_LD(B),
                               HYLA_TILE_PTR(A), e * HYLA_TILE_LD(A),
                               e * HYLA_TILE_COLS(A), HYLA_TILE_ROWS(A),
                               cudaMemcpyDeviceToDevice, g.stream)
                 ? HYLA_ERR_CUDA
                 : 0;
    rc = hyla_cl_cuda_end(&g, rc);
    if (rc) hyla_rt_seq_fail(a->seq, rc);
}
#endif

// B is written whole: its old contents need not travel.
HYLA_CODELET(dlacpy, cl_dlacpy_cpu, cl_dlacpy_cuda, 2, STARPU_R, STARPU_W);

void hyla_task_dlacpy(const hyla_task_opts_t *o, const hyla_desc_t *A, int Am,
                      int An, const hyla_desc_t *B, int Bm, int Bn)
{
    struct dlacpy_args *a = hyla_cl_args(o, sizeof *a);
    if (!a) return;
    *a = (struct dlacpy_args){o->seq};
    HYLA_TASK_INSERT(o, &cl_dlacpy, STARPU_CL_ARGS, a, sizeof *a, STARPU_R,
                     hyla_rt_tile(A, Am, An), STARPU_W,
                     hyla_rt_tile(B, Bm, Bn));
}

// SPDX-License-Identifier: BSD-3-Clause
// Cholesky of a diagonal tile.  @precisions d -> s
#include "codelets.h"

struct dpotrf_args {
    hyla_seq_t *seq;
    int uplo;
    int col0;    // global index of the tile's first column
    int inverse; // W = the factor's inverse (a second buffer)
};

// With a second buffer W, the task also inverts the factor into W (the
// solves by GEMMs): the inverse follows on the same worker, without a
// second task's hop through the scheduler on the critical path.
static void cl_dpotrf_cpu(void *buffers[], void *cl_arg)
{
    const struct dpotrf_args *a = cl_arg;
    if (hyla_rt_seq_skip(a->seq)) return;
    void *A = buffers[0];
    int info = hyla_cpu_dpotrf(a->uplo, HYLA_TILE_ROWS(A), HYLA_TILE_PTR(A),
                               HYLA_TILE_LD(A));
    // A positive diagonal has an inverse: trtri reports nothing more.
    if (!info && a->inverse)
        info = hyla_cpu_dtrtri(a->uplo, HYLA_NON_UNIT, HYLA_TILE_ROWS(A),
                               HYLA_TILE_PTR(A), HYLA_TILE_LD(A),
                               HYLA_TILE_PTR(buffers[1]),
                               HYLA_TILE_LD(buffers[1]));
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
    void *A = buffers[0];
    int rc = hyla_cuda_dpotrf(c.handle, a->uplo, HYLA_TILE_ROWS(A),
                              HYLA_TILE_PTR(A), HYLA_TILE_LD(A), word, a->col0);
    // Stream order: the inverse reads the factor.  Where the factorization
    // fails, W holds no inverse, but the failure reaches seq before any
    // task that reads W starts.
    if (!rc && a->inverse)
        rc = hyla_cuda_dtrtri(c.handle, a->uplo, HYLA_NON_UNIT,
                              HYLA_TILE_ROWS(A), HYLA_TILE_PTR(A),
                              HYLA_TILE_LD(A), HYLA_TILE_PTR(buffers[1]),
                              HYLA_TILE_LD(buffers[1]));
    hyla_cl_cuda_end_info(&c, rc, a->seq, word);
}
#endif

HYLA_CODELET(dpotrf, cl_dpotrf_cpu, cl_dpotrf_cuda, 1, STARPU_RW);
// W is written whole: its old contents need not travel.
HYLA_CODELET(dpotrf_inv, cl_dpotrf_cpu, cl_dpotrf_cuda, 2, STARPU_RW,
             STARPU_W);

void hyla_task_dpotrf(const hyla_task_opts_t *o, int uplo, const hyla_desc_t *A,
                      int k, const hyla_desc_t *W, int Wm, int Wn)
{
    struct dpotrf_args *a = hyla_cl_args(o, sizeof *a);
    if (!a) return;
    *a = (struct dpotrf_args){o->seq, uplo, k * A->nb, W != NULL};
    if (W)
        HYLA_TASK_INSERT(o, &cl_dpotrf_inv, STARPU_CL_ARGS, a, sizeof *a,
                         STARPU_RW, hyla_rt_tile(A, k, k), STARPU_W,
                         hyla_rt_tile(W, Wm, Wn));
    else
        HYLA_TASK_INSERT(o, &cl_dpotrf, STARPU_CL_ARGS, a, sizeof *a,
                         STARPU_RW, hyla_rt_tile(A, k, k));
}

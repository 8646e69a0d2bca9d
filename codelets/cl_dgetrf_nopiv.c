// SPDX-License-Identifier: BSD-3-Clause
// LU without pivoting of a diagonal tile, and optionally the inverses of
// its two triangles in the same task.  @precisions d -> s
#include "codelets.h"

struct dgetrf_nopiv_args {
    hyla_seq_t *seq;
    int col0; // global index of the tile's first column
    int inv;  // the inverses too
};

// buffers[0] the tile; with inverses, buffers[1] = L^-1 (unit lower) and
// buffers[2] = U^-1.
static void cl_dgetrf_nopiv_cpu(void *buffers[], void *cl_arg)
{
    const struct dgetrf_nopiv_args *a = cl_arg;
    if (hyla_rt_seq_skip(a->seq)) return;
    void *A = buffers[0];
    int n = HYLA_TILE_ROWS(A), lda = HYLA_TILE_LD(A);
    int info = hyla_cpu_dgetrf_nopiv(n, HYLA_TILE_PTR(A), lda);
    if (info) {
        hyla_rt_seq_info(a->seq, a->col0 + info);
        return; // the inverses are not needed: the solve stops
    }
    if (!a->inv) return;
    void *L = buffers[1], *U = buffers[2];
    if (hyla_cpu_dtrtri(HYLA_LOWER, HYLA_UNIT, n, HYLA_TILE_PTR(A), lda,
                        HYLA_TILE_PTR(L), HYLA_TILE_LD(L)) ||
        hyla_cpu_dtrtri(HYLA_UPPER, HYLA_NON_UNIT, n, HYLA_TILE_PTR(A), lda,
                        HYLA_TILE_PTR(U), HYLA_TILE_LD(U)))
        hyla_rt_seq_fail(a->seq, HYLA_ERR_RUNTIME);
}

#if HYLA_CUDA_CODELETS
// On the GPU the inverses follow on the same stream, whatever the pivots
// (a zero one leaves Inf or NaN in them, and its info stops the solve).
static void cl_dgetrf_nopiv_cuda(void *buffers[], void *cl_arg)
{
    const struct dgetrf_nopiv_args *a = cl_arg;
    if (hyla_rt_seq_skip(a->seq)) return;
    int *word = hyla_cl_cuda_info_word(a->seq);
    if (!word) return;
    void *A = buffers[0];
    int n = HYLA_TILE_ROWS(A), lda = HYLA_TILE_LD(A);
    hyla_cl_cuda_t c = hyla_cl_cuda_begin();
    int rc = hyla_cuda_dgetrf_nopiv(c.handle, n, HYLA_TILE_PTR(A), lda, word,
                                    a->col0);
    if (!rc && a->inv) {
        void *L = buffers[1], *U = buffers[2];
        rc = hyla_cuda_dtrtri(c.handle, HYLA_LOWER, HYLA_UNIT, n,
                              HYLA_TILE_PTR(A), lda, HYLA_TILE_PTR(L),
                              HYLA_TILE_LD(L));
        if (!rc)
            rc = hyla_cuda_dtrtri(c.handle, HYLA_UPPER, HYLA_NON_UNIT, n,
                                  HYLA_TILE_PTR(A), lda, HYLA_TILE_PTR(U),
                                  HYLA_TILE_LD(U));
    }
    hyla_cl_cuda_end_info(&c, rc, a->seq, word);
}
#endif

HYLA_CODELET(dgetrf_nopiv, cl_dgetrf_nopiv_cpu, cl_dgetrf_nopiv_cuda, 1,
             STARPU_RW);
// The inverses are written whole: their old contents need not travel.
HYLA_CODELET(dgetrf_nopiv_inv, cl_dgetrf_nopiv_cpu, cl_dgetrf_nopiv_cuda, 3,
             STARPU_RW, STARPU_W, STARPU_W);

void hyla_task_dgetrf_nopiv(const hyla_task_opts_t *o, const hyla_desc_t *A,
                            int k, const hyla_desc_t *W)
{
    struct dgetrf_nopiv_args *a = hyla_cl_args(o, sizeof *a);
    if (!a) return;
    *a = (struct dgetrf_nopiv_args){o->seq, k * A->nb, W != NULL};
    if (W)
        HYLA_TASK_INSERT(o, &cl_dgetrf_nopiv_inv, STARPU_CL_ARGS, a, sizeof *a,
                         STARPU_RW, hyla_rt_tile(A, k, k), STARPU_W,
                         hyla_rt_tile(W, 0, k), STARPU_W,
                         hyla_rt_tile(W, 1, k));
    else
        HYLA_TASK_INSERT(o, &cl_dgetrf_nopiv, STARPU_CL_ARGS, a, sizeof *a,
                         STARPU_RW, hyla_rt_tile(A, k, k));
}

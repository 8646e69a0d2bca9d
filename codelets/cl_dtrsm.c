// SPDX-License-Identifier: BSD-3-Clause
// TRSM on row-major tiles.  @precisions d -> s
#include "codelets.h"

#include <cblas.h>

struct dtrsm_args {
    hyla_seq_t *seq;
    int side, uplo, trans, diag;
    double alpha;
};

static void cl_dtrsm_cpu(void *buffers[], void *cl_arg)
{
    const struct dtrsm_args *a = cl_arg;
    if (hyla_rt_seq_skip(a->seq)) return;
    void *A = buffers[0], *B = buffers[1];
    cblas_dtrsm(CblasRowMajor, (CBLAS_SIDE)a->side, (CBLAS_UPLO)a->uplo,
                (CBLAS_TRANSPOSE)a->trans, (CBLAS_DIAG)a->diag,
                HYLA_TILE_ROWS(B), HYLA_TILE_COLS(B), a->alpha,
                HYLA_TILE_PTR(A), HYLA_TILE_LD(A), HYLA_TILE_PTR(B),
                HYLA_TILE_LD(B));
}

#if HYLA_CUDA_CODELETS
static void cl_dtrsm_cuda(void *buffers[], void *cl_arg)
{
    const struct dtrsm_args *a = cl_arg;
    if (hyla_rt_seq_skip(a->seq)) return;
    void *A = buffers[0], *B = buffers[1];
    hyla_cl_cuda_t g = hyla_cl_cuda_begin();
    int rc = hyla_cuda_dtrsm(g.handle, a->side, a->uplo, a->trans, a->diag,
                             HYLA_TILE_ROWS(B), HYLA_TILE_COLS(B), a->alpha,
                             HYLA_TILE_PTR(A), HYLA_TILE_LD(A),
                             HYLA_TILE_PTR(B), HYLA_TILE_LD(B));
    rc = hyla_cl_cuda_end(&g, rc);
    if (rc) hyla_rt_seq_fail(a->seq, rc);
}
#endif

HYLA_CODELET(dtrsm, cl_dtrsm_cpu, cl_dtrsm_cuda, 2, STARPU_R, STARPU_RW);

void hyla_task_dtrsm(const hyla_task_opts_t *o, int side, int uplo, int trans,
                     int diag, double alpha, const hyla_desc_t *A, int Am,
                     int An, const hyla_desc_t *B, int Bm, int Bn)
{
    struct dtrsm_args *a = hyla_cl_args(o, sizeof *a);
    if (!a) return;
    *a = (struct dtrsm_args){o->seq, side, uplo, trans, diag, alpha};
    HYLA_TASK_INSERT(o, &cl_dtrsm, STARPU_CL_ARGS, a, sizeof *a, STARPU_R,
                     hyla_rt_tile(A, Am, An), STARPU_RW,
                     hyla_rt_tile(B, Bm, Bn));
}

// SPDX-License-Identifier: BSD-3-Clause
// SYRK on row-major tiles.  @precisions d -> s
#include "codelets.h"

#include <cblas.h>

struct dsyrk_args {
    hyla_seq_t *seq;
    int uplo, trans;
    double alpha, beta;
};

static void cl_dsyrk_cpu(void *buffers[], void *cl_arg)
{
    const struct dsyrk_args *a = cl_arg;
    if (hyla_rt_seq_skip(a->seq)) return;
    void *A = buffers[0], *C = buffers[1];
    int k = a->trans == HYLA_NO_TRANS ? HYLA_TILE_COLS(A) : HYLA_TILE_ROWS(A);
    cblas_dsyrk(CblasRowMajor, (CBLAS_UPLO)a->uplo, (CBLAS_TRANSPOSE)a->trans,
                HYLA_TILE_ROWS(C), k, a->alpha, HYLA_TILE_PTR(A),
                HYLA_TILE_LD(A), a->beta, HYLA_TILE_PTR(C), HYLA_TILE_LD(C));
}

#if HYLA_CUDA_CODELETS
static void cl_dsyrk_cuda(void *buffers[], void *cl_arg)
{
    const struct dsyrk_args *a = cl_arg;
    if (hyla_rt_seq_skip(a->seq)) return;
    void *A = buffers[0], *C = buffers[1];
    int k = a->trans == HYLA_NO_TRANS ? HYLA_TILE_COLS(A) : HYLA_TILE_ROWS(A);
    hyla_cl_cuda_t g = hyla_cl_cuda_begin();
    int rc = hyla_cuda_dsyrk(g.handle, a->uplo, a->trans, HYLA_TILE_ROWS(C), k,
                             a->alpha, HYLA_TILE_PTR(A), HYLA_TILE_LD(A),
                             a->beta, HYLA_TILE_PTR(C), HYLA_TILE_LD(C));
    rc = hyla_cl_cuda_end(&g, rc);
    if (rc) hyla_rt_seq_fail(a->seq, rc);
}
#endif

HYLA_CODELET(dsyrk, cl_dsyrk_cpu, cl_dsyrk_cuda, 2, STARPU_R, STARPU_RW);

void hyla_task_dsyrk(const hyla_task_opts_t *o, int uplo, int trans,
                     double alpha, const hyla_desc_t *A, int Am, int An,
                     double beta, const hyla_desc_t *C, int Cm, int Cn)
{
    struct dsyrk_args *a = hyla_cl_args(o, sizeof *a);
    if (!a) return;
    *a = (struct dsyrk_args){o->seq, uplo, trans, alpha, beta};
    HYLA_TASK_INSERT(o, &cl_dsyrk, STARPU_CL_ARGS, a, sizeof *a, STARPU_R,
                     hyla_rt_tile(A, Am, An), STARPU_RW,
                     hyla_rt_tile(C, Cm, Cn));
}

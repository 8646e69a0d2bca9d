// SPDX-License-Identifier: BSD-3-Clause
// GEMM on row-major tiles.  @precisions d -> s
#include "codelets.h"

#include <cblas.h>

struct dgemm_args {
    hyla_seq_t *seq;
    int transa, transb;
    double alpha, beta;
};

static void cl_dgemm_cpu(void *buffers[], void *cl_arg)
{
    const struct dgemm_args *a = cl_arg;
    if (hyla_rt_seq_skip(a->seq)) return;
    void *A = buffers[0], *B = buffers[1], *C = buffers[2];
    int k = a->transa == HYLA_NO_TRANS ? HYLA_TILE_COLS(A) : HYLA_TILE_ROWS(A);
    cblas_dgemm(CblasRowMajor, (CBLAS_TRANSPOSE)a->transa,
                (CBLAS_TRANSPOSE)a->transb, HYLA_TILE_ROWS(C),
                HYLA_TILE_COLS(C), k, a->alpha, HYLA_TILE_PTR(A),
                HYLA_TILE_LD(A), HYLA_TILE_PTR(B), HYLA_TILE_LD(B), a->beta,
                HYLA_TILE_PTR(C), HYLA_TILE_LD(C));
}

#if HYLA_CUDA_CODELETS
static void cl_dgemm_cuda(void *buffers[], void *cl_arg)
{
    const struct dgemm_args *a = cl_arg;
    if (hyla_rt_seq_skip(a->seq)) return;
    void *A = buffers[0], *B = buffers[1], *C = buffers[2];
    int k = a->transa == HYLA_NO_TRANS ? HYLA_TILE_COLS(A) : HYLA_TILE_ROWS(A);
    hyla_cl_cuda_t g = hyla_cl_cuda_begin();
    int rc = hyla_cuda_dgemm(g.handle, a->transa, a->transb, HYLA_TILE_ROWS(C),
                             HYLA_TILE_COLS(C), k, a->alpha, HYLA_TILE_PTR(A),
                             HYLA_TILE_LD(A), HYLA_TILE_PTR(B), HYLA_TILE_LD(B),
                             a->beta, HYLA_TILE_PTR(C), HYLA_TILE_LD(C));
    rc = hyla_cl_cuda_end(&g, rc);
    if (rc) hyla_rt_seq_fail(a->seq, rc);
}
#endif

HYLA_CODELET(dgemm, cl_dgemm_cpu, cl_dgemm_cuda, 3, STARPU_R, STARPU_R,
             STARPU_RW);

void hyla_task_dgemm(const hyla_task_opts_t *o, int transa, int transb,
                     double alpha, const hyla_desc_t *A, int Am, int An,
                     const hyla_desc_t *B, int Bm, int Bn, double beta,
                     const hyla_desc_t *C, int Cm, int Cn)
{
    struct dgemm_args *a = hyla_cl_args(o, sizeof *a);
    if (!a) return;
    *a = (struct dgemm_args){o->seq, transa, transb, alpha, beta};
    HYLA_TASK_INSERT(o, &cl_dgemm, STARPU_CL_ARGS, a, sizeof *a, STARPU_R,
                     hyla_rt_tile(A, Am, An), STARPU_R, hyla_rt_tile(B, Bm, Bn),
                     STARPU_RW, hyla_rt_tile(C, Cm, Cn));
}

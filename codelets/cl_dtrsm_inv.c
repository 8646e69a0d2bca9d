// SPDX-License-Identifier: BSD-3-Clause
// A triangular solve by a precomputed inverse: B = op(W) B or B op(W),
// one GEMM from a copy of B.  @precisions d -> s
#include "codelets.h"

#include <cblas.h>
#include <string.h>

struct dtrsm_inv_args {
    hyla_seq_t *seq;
    int side, trans;
};

static void cl_dtrsm_inv_cpu(void *buffers[], void *cl_arg)
{
    const struct dtrsm_inv_args *a = cl_arg;
    if (hyla_rt_seq_skip(a->seq)) return;
    void *W = buffers[0], *B = buffers[1];
    const double *pW = HYLA_TILE_PTR(W);
    double *pB = HYLA_TILE_PTR(B), *S = HYLA_TILE_PTR(buffers[2]);
    int m = HYLA_TILE_ROWS(B), n = HYLA_TILE_COLS(B);
    int ldw = HYLA_TILE_LD(W), ldb = HYLA_TILE_LD(B);
    for (int i = 0; i < m; i++)
        memcpy(S + (size_t)i * n, pB + (size_t)i * ldb, sizeof(double) * n);
    // With B m-by-n, W is m-by-m (left) or n-by-n (right).
    if (a->side == HYLA_LEFT)
        cblas_dgemm(CblasRowMajor, (CBLAS_TRANSPOSE)a->trans, CblasNoTrans, m,
                    n, m, 1.0, pW, ldw, S, n, 0.0, pB, ldb);
    else
        cblas_dgemm(CblasRowMajor, CblasNoTrans, (CBLAS_TRANSPOSE)a->trans, m,
                    n, n, 1.0, S, n, pW, ldw, 0.0, pB, ldb);
}

#if HYLA_CUDA_CODELETS
static void cl_dtrsm_inv_cuda(void *buffers[], void *cl_arg)
{
    const struct dtrsm_inv_args *a = cl_arg;
    if (hyla_rt_seq_skip(a->seq)) return;
    void *W = buffers[0], *B = buffers[1];
    const double *pW = HYLA_TILE_PTR(W);
    double *pB = HYLA_TILE_PTR(B), *S = HYLA_TILE_PTR(buffers[2]);
    int m = HYLA_TILE_ROWS(B), n = HYLA_TILE_COLS(B);
    int ldw = HYLA_TILE_LD(W), ldb = HYLA_TILE_LD(B);
    int rc = 0;
    if (cudaMemcpy2DAsync(S, sizeof(double) * n, pB, sizeof(double) * ldb,
                          sizeof(double) * n, m, cudaMemcpyDeviceToDevice,
                          starpu_cuda_get_local_stream()))
        rc = HYLA_ERR_CUDA;
    cublasHandle_t h = starpu_cublas_get_local_handle();
    if (!rc && a->side == HYLA_LEFT)
        rc = hyla_cuda_dgemm(h, a->trans, HYLA_NO_TRANS, m, n, m, 1.0, pW, ldw,
                             S, n, 0.0, pB, ldb);
    else if (!rc)
        rc = hyla_cuda_dgemm(h, HYLA_NO_TRANS, a->trans, m, n, n, 1.0, S, n, pW,
                             ldw, 0.0, pB, ldb);
    if (rc) hyla_rt_seq_fail(a->seq, rc);
}
#endif

HYLA_CODELET(dtrsm_inv, cl_dtrsm_inv_cpu, cl_dtrsm_inv_cuda, 3, STARPU_R,
             STARPU_RW, STARPU_SCRATCH);

void hyla_task_dtrsm_inv(const hyla_task_opts_t *o, int side, int trans,
                         const hyla_desc_t *W, int Wm, int Wn,
                         const hyla_desc_t *B, int Bm, int Bn, void *S)
{
    struct dtrsm_inv_args *a = hyla_cl_args(o, sizeof *a);
    if (!a) return;
    *a = (struct dtrsm_inv_args){o->seq, side, trans};
    HYLA_TASK_INSERT(o, &cl_dtrsm_inv, STARPU_CL_ARGS, a, sizeof *a, STARPU_R,
                     hyla_rt_tile(W, Wm, Wn), STARPU_RW,
                     hyla_rt_tile(B, Bm, Bn), STARPU_SCRATCH,
                     (starpu_data_handle_t)S);
}

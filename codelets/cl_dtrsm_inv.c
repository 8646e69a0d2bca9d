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

// The task's GEMM: C = A B with C the tile B (m-by-n, ldc) and S a
// compact copy of it (leading dimension n): op(W) S (left, W m-by-m) or
// S op(W) (right, W n-by-n).
struct gemm {
    int ta, tb, m, n, k, lda, ldb, ldc;
    const double *A, *B;
    double *C, *S;
};

static struct gemm gemm_of(void *buffers[], const struct dtrsm_inv_args *a)
{
    void *W = buffers[0], *T = buffers[1];
    struct gemm g = {.m = HYLA_TILE_ROWS(T),
                     .n = HYLA_TILE_COLS(T),
                     .ldc = HYLA_TILE_LD(T),
                     .C = HYLA_TILE_PTR(T),
                     .S = HYLA_TILE_PTR(buffers[2])};
    const double *pW = HYLA_TILE_PTR(W);
    int ldw = HYLA_TILE_LD(W);
    if (a->side == HYLA_LEFT) {
        g.ta = a->trans, g.tb = HYLA_NO_TRANS, g.k = g.m;
        g.A = pW, g.lda = ldw, g.B = g.S, g.ldb = g.n;
    } else {
        g.ta = HYLA_NO_TRANS, g.tb = a->trans, g.k = g.n;
        g.A = g.S, g.lda = g.n, g.B = pW, g.ldb = ldw;
    }
    return g;
}

static void cl_dtrsm_inv_cpu(void *buffers[], void *cl_arg)
{
    const struct dtrsm_inv_args *a = cl_arg;
    if (hyla_rt_seq_skip(a->seq)) return;
    struct gemm g = gemm_of(buffers, a);
    for (int i = 0; i < g.m; i++)
        memcpy(g.S + (size_t)i * g.n, g.C + (size_t)i * g.ldc,
               sizeof(double) * g.n);
    cblas_dgemm(CblasRowMajor, (CBLAS_TRANSPOSE)g.ta, (CBLAS_TRANSPOSE)g.tb,
                g.m, g.n, g.k, 1.0, g.A, g.lda, g.B, g.ldb, 0.0, g.C, g.ldc);
}

#if HYLA_CUDA_CODELETS
static void cl_dtrsm_inv_cuda(void *buffers[], void *cl_arg)
{
    const struct dtrsm_inv_args *a = cl_arg;
    if (hyla_rt_seq_skip(a->seq)) return;
    struct gemm g = gemm_of(buffers, a);
    hyla_cl_cuda_t c = hyla_cl_cuda_begin();
    int rc = 0;
    if (cudaMemcpy2DAsync(g.S, sizeof(double) * g.n, g.C,
                          sizeof(double) * g.ldc, sizeof(double) * g.n, g.m,
                          cudaMemcpyDeviceToDevice, c.stream))
        rc = HYLA_ERR_CUDA;
    if (!rc)
        rc = hyla_cuda_dgemm(c.handle, g.ta, g.tb, g.m, g.n, g.k, 1.0, g.A,
                             g.lda, g.B, g.ldb, 0.0, g.C, g.ldc);
    rc = hyla_cl_cuda_end(&c, rc);
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

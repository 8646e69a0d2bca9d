// SPDX-License-Identifier: BSD-3-Clause
// A sum of tile products into one tile: one task where a narrow
// right-hand side (one tile column) would take one small task a product.
// @precisions d -> s
#include "codelets.h"
#include "gemv_tiles_d.h"

#include <cblas.h>

// C = alpha sum_j A_j B_j + beta C.  Buffers: A_0, B_0, ..., C.
struct dgemm_sum_args {
    hyla_seq_t *seq;
    int count;
    double alpha, beta;
};

static void cl_dgemm_sum_cpu(void *buffers[], void *cl_arg)
{
    const struct dgemm_sum_args *a = cl_arg;
    if (hyla_rt_seq_skip(a->seq)) return;
    void *C = buffers[2 * a->count];
    int m = HYLA_TILE_ROWS(C), n = HYLA_TILE_COLS(C);
    for (int j = 0; j < a->count; j++) {
        void *A = buffers[2 * j], *B = buffers[2 * j + 1];
        cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n,
                    HYLA_TILE_COLS(A), a->alpha, HYLA_TILE_PTR(A),
                    HYLA_TILE_LD(A), HYLA_TILE_PTR(B), HYLA_TILE_LD(B),
                    j ? 1.0 : a->beta, HYLA_TILE_PTR(C), HYLA_TILE_LD(C));
    }
}

#if HYLA_CUDA_CODELETS
static void cl_dgemm_sum_cuda(void *buffers[], void *cl_arg)
{
    const struct dgemm_sum_args *a = cl_arg;
    if (hyla_rt_seq_skip(a->seq)) return;
    void *C = buffers[2 * a->count];
    int m = HYLA_TILE_ROWS(C), n = HYLA_TILE_COLS(C), rc = 0;
    hyla_cl_cuda_t g = hyla_cl_cuda_begin();
    if (n == 1) {
        // One column: every product in one kernel (the tiles' GEMVs one by
        // one took most of a product by A in RBT's refinement).
        void *A[a->count], *x[a->count];
        for (int j = 0; j < a->count; j++) {
            A[j] = buffers[2 * j];
            x[j] = buffers[2 * j + 1];
        }
        rc = hyla_cl_dgemv_tiles(g.stream, a->count, A, x, a->alpha, a->beta,
                                 C);
    } else {
        for (int j = 0; !rc && j < a->count; j++) {
            void *A = buffers[2 * j], *B = buffers[2 * j + 1];
            rc = hyla_cuda_dgemm(g.handle, HYLA_NO_TRANS, HYLA_NO_TRANS, m, n,
                                 HYLA_TILE_COLS(A), a->alpha, HYLA_TILE_PTR(A),
                                 HYLA_TILE_LD(A), HYLA_TILE_PTR(B),
                                 HYLA_TILE_LD(B), j ? 1.0 : a->beta,
                                 HYLA_TILE_PTR(C), HYLA_TILE_LD(C));
        }
    }
    rc = hyla_cl_cuda_end(&g, rc);
    if (rc) hyla_rt_seq_fail(a->seq, rc);
}
#endif

HYLA_CODELET_VARIADIC(dgemm_sum, cl_dgemm_sum_cpu, cl_dgemm_sum_cuda);

void hyla_task_dgemm_sum(const hyla_task_opts_t *o, double alpha,
                         const hyla_desc_t *A, int Am, const hyla_desc_t *B,
                         int count, double beta, const hyla_desc_t *C, int Cm)
{
    struct dgemm_sum_args *a = hyla_cl_args(o, sizeof *a);
    if (!a) return;
    *a = (struct dgemm_sum_args){o->seq, count, alpha, beta};
    int nbuf = 2 * count + 1;
    struct starpu_data_descr d[nbuf];
    for (int j = 0; j < count; j++) {
        d[2 * j] = (struct starpu_data_descr){hyla_rt_tile(A, Am, j), STARPU_R};
        d[2 * j + 1] =
            (struct starpu_data_descr){hyla_rt_tile(B, j, 0), STARPU_R};
    }
    d[2 * count] =
        (struct starpu_data_descr){hyla_rt_tile(C, Cm, 0), STARPU_RW};
    HYLA_TASK_INSERT(o, &cl_dgemm_sum, STARPU_CL_ARGS, a, sizeof *a,
                     STARPU_DATA_MODE_ARRAY, d, nbuf);
}

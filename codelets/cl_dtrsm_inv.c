// SPDX-License-Identifier: BSD-3-Clause
// A triangular solve by a precomputed inverse: B = op(W) B or B op(W),
// GEMMs from a copy of B.  @precisions d -> s
#include "codelets.h"

#include <cblas.h>
#include <string.h>

struct dtrsm_inv_args {
    hyla_seq_t *seq;
    int side, uplo, trans;
};

// One GEMM of the task: C = op(A) op(B).
struct gemm {
    int ta, tb, m, n, k, lda, ldb, ldc;
    const double *A, *B;
    double *C;
};

// The product.  W is triangular (uplo), its other triangle zero, so that
// E = op(W) is lower or upper too.  C is the tile B (m-by-n, ldc) and S a
// compact copy of it (leading dimension n); the result is E S (left, E
// m-by-m) or S E (right, E n-by-n).  It goes by blocks of `block` rows
// (left) or columns (right) of C, each one GEMM over E's nonzero blocks
// only: with p blocks, (p + 1) / 2p of a whole GEMM's flops (5/8 for the
// 4 blocks a tile usually gets).
struct prod {
    int side, lower, trans, m, n, dim, ldw, ldc, block, count;
    const double *W;
    double *S, *C;
};

static struct prod prod_of(void *buffers[], const struct dtrsm_inv_args *a)
{
    void *W = buffers[0], *T = buffers[1];
    struct prod p = {.side = a->side,
                     .lower =
                         (a->uplo == HYLA_LOWER) == (a->trans == HYLA_NO_TRANS),
                     .trans = a->trans,
                     .m = HYLA_TILE_ROWS(T),
                     .n = HYLA_TILE_COLS(T),
                     .ldw = HYLA_TILE_LD(W),
                     .ldc = HYLA_TILE_LD(T),
                     .W = HYLA_TILE_PTR(W),
                     .S = HYLA_TILE_PTR(buffers[2]),
                     .C = HYLA_TILE_PTR(T)};
    // E's order; blocks of a quarter of it, in multiples of 8 (512 of a
    // 2048 tile).
    p.dim = p.side == HYLA_LEFT ? p.m : p.n;
    p.block = ((p.dim + 3) / 4 + 7) / 8 * 8;
    p.count = (p.dim + p.block - 1) / p.block;
    return p;
}

// E(r0:r1, c0:c1) as a GEMM operand: W's block, or its transpose's.
static const double *e_block(const struct prod *p, int r0, int c0)
{
    return p->trans == HYLA_NO_TRANS ? p->W + (size_t)r0 * p->ldw + c0
                                     : p->W + (size_t)c0 * p->ldw + r0;
}

// The GEMM of block j (j < p->count).
static struct gemm gemm_of(const struct prod *p, int j)
{
    int b0 = j * p->block, b1 = hyla_imin(p->dim, b0 + p->block);
    // E's nonzero part in the rows (left) or columns (right) b0:b1.
    int k0 = p->lower == (p->side == HYLA_LEFT) ? 0 : b0;
    int k1 = p->lower == (p->side == HYLA_LEFT) ? b1 : p->dim;
    struct gemm g = {.k = k1 - k0, .ldc = p->ldc};
    if (p->side == HYLA_LEFT) {
        // C(b0:b1, :) = E(b0:b1, k0:k1) S(k0:k1, :)
        g.ta = p->trans, g.tb = HYLA_NO_TRANS;
        g.m = b1 - b0, g.n = p->n;
        g.A = e_block(p, b0, k0), g.lda = p->ldw;
        g.B = p->S + (size_t)k0 * p->n, g.ldb = p->n;
        g.C = p->C + (size_t)b0 * p->ldc;
    } else {
        // C(:, b0:b1) = S(:, k0:k1) E(k0:k1, b0:b1)
        g.ta = HYLA_NO_TRANS, g.tb = p->trans;
        g.m = p->m, g.n = b1 - b0;
        g.A = p->S + k0, g.lda = p->n;
        g.B = e_block(p, k0, b0), g.ldb = p->ldw;
        g.C = p->C + b0;
    }
    return g;
}

static void cl_dtrsm_inv_cpu(void *buffers[], void *cl_arg)
{
    const struct dtrsm_inv_args *a = cl_arg;
    if (hyla_rt_seq_skip(a->seq)) return;
    struct prod p = prod_of(buffers, a);
    for (int i = 0; i < p.m; i++)
        memcpy(p.S + (size_t)i * p.n, p.C + (size_t)i * p.ldc,
               sizeof(double) * p.n);
    for (int j = 0; j < p.count; j++) {
        struct gemm g = gemm_of(&p, j);
        cblas_dgemm(CblasRowMajor, (CBLAS_TRANSPOSE)g.ta, (CBLAS_TRANSPOSE)g.tb,
                    g.m, g.n, g.k, 1.0, g.A, g.lda, g.B, g.ldb, 0.0, g.C,
                    g.ldc);
    }
}

#if HYLA_CUDA_CODELETS
static void cl_dtrsm_inv_cuda(void *buffers[], void *cl_arg)
{
    const struct dtrsm_inv_args *a = cl_arg;
    if (hyla_rt_seq_skip(a->seq)) return;
    struct prod p = prod_of(buffers, a);
    hyla_cl_cuda_t c = hyla_cl_cuda_begin();
    int rc = 0;
    if (cudaMemcpy2DAsync(p.S, sizeof(double) * p.n, p.C,
                          sizeof(double) * p.ldc, sizeof(double) * p.n, p.m,
                          cudaMemcpyDeviceToDevice, c.stream))
        rc = HYLA_ERR_CUDA;
    for (int j = 0; !rc && j < p.count; j++) {
        struct gemm g = gemm_of(&p, j);
        rc = hyla_cuda_dgemm(c.handle, g.ta, g.tb, g.m, g.n, g.k, 1.0, g.A,
                             g.lda, g.B, g.ldb, 0.0, g.C, g.ldc);
    }
    rc = hyla_cl_cuda_end(&c, rc);
    if (rc) hyla_rt_seq_fail(a->seq, rc);
}
#endif

HYLA_CODELET(dtrsm_inv, cl_dtrsm_inv_cpu, cl_dtrsm_inv_cuda, 3, STARPU_R,
             STARPU_RW, STARPU_SCRATCH);

void hyla_task_dtrsm_inv(const hyla_task_opts_t *o, int side, int uplo,
                         int trans, const hyla_desc_t *W, int Wm, int Wn,
                         const hyla_desc_t *B, int Bm, int Bn, void *S)
{
    struct dtrsm_inv_args *a = hyla_cl_args(o, sizeof *a);
    if (!a) return;
    *a = (struct dtrsm_inv_args){o->seq, side, uplo, trans};
    HYLA_TASK_INSERT(o, &cl_dtrsm_inv, STARPU_CL_ARGS, a, sizeof *a, STARPU_R,
                     hyla_rt_tile(W, Wm, Wn), STARPU_RW,
                     hyla_rt_tile(B, Bm, Bn), STARPU_SCRATCH,
                     (starpu_data_handle_t)S);
}

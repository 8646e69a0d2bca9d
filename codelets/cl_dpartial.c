// SPDX-License-Identifier: BSD-3-Clause
// The fan-in of distributed solves and products (runtime/partials.c):
// products of a process's own tiles into a partial-sum tile of its own,
// and the sum of those tiles into a tile of the result.
// @precisions d -> s
#include "codelets.h"

#include <cblas.h>

// P = sum_j op(A_j) B_j (+ P when add).  Buffers: A_0, B_0, ..., P.
struct dpartial_args {
    hyla_seq_t *seq;
    int trans, count, add;
};

static void cl_dpartial_cpu(void *buffers[], void *cl_arg)
{
    const struct dpartial_args *a = cl_arg;
    if (hyla_rt_seq_skip(a->seq)) return;
    void *P = buffers[2 * a->count];
    for (int j = 0; j < a->count; j++) {
        void *A = buffers[2 * j], *B = buffers[2 * j + 1];
        int k =
            a->trans == HYLA_NO_TRANS ? HYLA_TILE_COLS(A) : HYLA_TILE_ROWS(A);
        cblas_dgemm(CblasRowMajor, (CBLAS_TRANSPOSE)a->trans, CblasNoTrans,
                    HYLA_TILE_ROWS(P), HYLA_TILE_COLS(P), k, 1.0,
                    HYLA_TILE_PTR(A), HYLA_TILE_LD(A), HYLA_TILE_PTR(B),
                    HYLA_TILE_LD(B), j || a->add ? 1.0 : 0.0, HYLA_TILE_PTR(P),
                    HYLA_TILE_LD(P));
    }
}

#if HYLA_CUDA_CODELETS
static void cl_dpartial_cuda(void *buffers[], void *cl_arg)
{
    const struct dpartial_args *a = cl_arg;
    if (hyla_rt_seq_skip(a->seq)) return;
    void *P = buffers[2 * a->count];
    hyla_cl_cuda_t g = hyla_cl_cuda_begin();
    int rc = 0;
    for (int j = 0; !rc && j < a->count; j++) {
        void *A = buffers[2 * j], *B = buffers[2 * j + 1];
        int k =
            a->trans == HYLA_NO_TRANS ? HYLA_TILE_COLS(A) : HYLA_TILE_ROWS(A);
        rc = hyla_cuda_dgemm(
            g.handle, a->trans, HYLA_NO_TRANS, HYLA_TILE_ROWS(P),
            HYLA_TILE_COLS(P), k, 1.0, HYLA_TILE_PTR(A), HYLA_TILE_LD(A),
            HYLA_TILE_PTR(B), HYLA_TILE_LD(B), j || a->add ? 1.0 : 0.0,
            HYLA_TILE_PTR(P), HYLA_TILE_LD(P));
    }
    rc = hyla_cl_cuda_end(&g, rc);
    if (rc) hyla_rt_seq_fail(a->seq, rc);
}
#endif

HYLA_CODELET_VARIADIC(dpartial, cl_dpartial_cpu, cl_dpartial_cuda);

// count pairs (A(am_j, an_j), B(bk_j, bn)) into P.
static void partial(const hyla_task_opts_t *o, int trans, const hyla_desc_t *A,
                    const int *am, const int *an, const hyla_desc_t *B,
                    const int *bk, int bn, int count, void *P, int add)
{
    struct dpartial_args *a = hyla_cl_args(o, sizeof *a);
    if (!a) return;
    *a = (struct dpartial_args){o->seq, trans, count, add};
    int nbuf = 2 * count + 1;
    struct starpu_data_descr d[nbuf];
    for (int j = 0; j < count; j++) {
        d[2 * j] =
            (struct starpu_data_descr){hyla_rt_tile(A, am[j], an[j]), STARPU_R};
        d[2 * j + 1] =
            (struct starpu_data_descr){hyla_rt_tile(B, bk[j], bn), STARPU_R};
    }
    d[2 * count] = (struct starpu_data_descr){(starpu_data_handle_t)P,
                                              add ? STARPU_RW : STARPU_W};
    HYLA_TASK_INSERT(o, &cl_dpartial, STARPU_CL_ARGS, a, sizeof *a,
                     STARPU_DATA_MODE_ARRAY, d, nbuf);
}

void hyla_task_dpartial_row(const hyla_task_opts_t *o, const hyla_desc_t *A,
                            int m, int k0, int step, const hyla_desc_t *B,
                            int n, void *P)
{
    int count = k0 < A->nt ? (A->nt - 1 - k0) / step + 1 : 0;
    if (count == 0) return;
    int am[count], an[count];
    for (int j = 0; j < count; j++) {
        am[j] = m;
        an[j] = k0 + j * step;
    }
    partial(o, HYLA_NO_TRANS, A, am, an, B, an, n, count, P, 0);
}

void hyla_task_dpartial_add(const hyla_task_opts_t *o, int trans,
                            const hyla_desc_t *A, int am, int an,
                            const hyla_desc_t *B, int bk, int bn, void *P,
                            int add)
{
    partial(o, trans, A, &am, &an, B, &bk, bn, 1, P, add);
}

// C = alpha sum_j S_j + beta C.  Buffers: S_0, ..., C.
struct dsum_args {
    hyla_seq_t *seq;
    int count;
    double alpha, beta;
};

static void cl_dsum_cpu(void *buffers[], void *cl_arg)
{
    const struct dsum_args *a = cl_arg;
    if (hyla_rt_seq_skip(a->seq)) return;
    void *C = buffers[a->count];
    int rows = HYLA_TILE_ROWS(C), cols = HYLA_TILE_COLS(C);
    for (int i = 0; i < rows; i++) {
        double *c = (double *)HYLA_TILE_PTR(C) + (size_t)i * HYLA_TILE_LD(C);
        for (int e = 0; e < cols; e++)
            c[e] = a->beta == 0 ? 0 : a->beta * c[e]; // C is not read
        for (int j = 0; j < a->count; j++) {
            const double *s = (const double *)HYLA_TILE_PTR(buffers[j]) +
                              (size_t)i * HYLA_TILE_LD(buffers[j]);
            cblas_daxpy(cols, a->alpha, s, 1, c, 1);
        }
    }
}

HYLA_CODELET_VARIADIC(dsum, cl_dsum_cpu, NULL);

void hyla_task_dsum(const hyla_task_opts_t *o, double alpha, void *const *S,
                    int count, double beta, const hyla_desc_t *C, int Cm,
                    int Cn)
{
    struct dsum_args *a = hyla_cl_args(o, sizeof *a);
    if (!a) return;
    *a = (struct dsum_args){o->seq, count, alpha, beta};
    struct starpu_data_descr d[count + 1];
    for (int j = 0; j < count; j++)
        d[j] = (struct starpu_data_descr){(starpu_data_handle_t)S[j], STARPU_R};
    d[count] = (struct starpu_data_descr){hyla_rt_tile(C, Cm, Cn),
                                          beta == 0 ? STARPU_W : STARPU_RW};
    HYLA_TASK_INSERT(o, &cl_dsum, STARPU_CL_ARGS, a, sizeof *a,
                     STARPU_DATA_MODE_ARRAY, d, count + 1);
}

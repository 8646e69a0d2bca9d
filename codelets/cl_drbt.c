// SPDX-License-Identifier: BSD-3-Clause
// Random butterfly transforms of tiles.  @precisions d -> s
#include "codelets.h"

// The weights are one runtime vector W, read by every task; a task finds
// its own at offsets into it: r0, r1 for its rows, c0, c1 for its columns
// (two-sided form).
struct drbt_args {
    hyla_seq_t *seq;
    int trans;
    size_t r0, r1, c0, c1;
};

#define WEIGHTS(buf) ((const double *)STARPU_VECTOR_GET_PTR(buf))

// Two levels at once: the offsets in W of the 16 weight pointers of
// hyla_cpu_drbt_two_levels.
struct drbt4_args {
    hyla_seq_t *seq;
    size_t w[16];
};

// The group's tiles (buffers 0 .. 15) and weights (buffer 16).
static void two_levels_view(void *buffers[], const struct drbt4_args *a,
                            double *A[16], const double *w[16])
{
    const double *W = WEIGHTS(buffers[16]);
    for (int k = 0; k < 16; k++) {
        A[k] = HYLA_TILE_PTR(buffers[k]);
        w[k] = W + a->w[k];
    }
}

static void cl_drbt4_cpu(void *buffers[], void *cl_arg)
{
    const struct drbt4_args *a = cl_arg;
    if (hyla_rt_seq_skip(a->seq)) return;
    double *A[16];
    const double *w[16];
    two_levels_view(buffers, a, A, w);
    hyla_cpu_drbt_two_levels(HYLA_TILE_ROWS(buffers[0]),
                             HYLA_TILE_COLS(buffers[0]),
                             HYLA_TILE_LD(buffers[0]), A, w);
}

static void cl_drbt2_cpu(void *buffers[], void *cl_arg)
{
    const struct drbt_args *a = cl_arg;
    if (hyla_rt_seq_skip(a->seq)) return;
    const double *w = WEIGHTS(buffers[4]);
    hyla_cpu_drbt_two_sided(
        HYLA_TILE_ROWS(buffers[0]), HYLA_TILE_COLS(buffers[0]),
        HYLA_TILE_PTR(buffers[0]), HYLA_TILE_PTR(buffers[1]),
        HYLA_TILE_PTR(buffers[2]), HYLA_TILE_PTR(buffers[3]),
        HYLA_TILE_LD(buffers[0]), w + a->r0, w + a->r1, w + a->c0, w + a->c1);
}

static void cl_drbt1_cpu(void *buffers[], void *cl_arg)
{
    const struct drbt_args *a = cl_arg;
    if (hyla_rt_seq_skip(a->seq)) return;
    const double *w = WEIGHTS(buffers[2]);
    hyla_cpu_drbt_rows(a->trans, HYLA_TILE_ROWS(buffers[0]),
                       HYLA_TILE_COLS(buffers[0]), HYLA_TILE_PTR(buffers[0]),
                       HYLA_TILE_PTR(buffers[1]), HYLA_TILE_LD(buffers[0]),
                       w + a->r0, w + a->r1);
}

#if HYLA_CUDA_CODELETS
static void cl_drbt2_cuda(void *buffers[], void *cl_arg)
{
    const struct drbt_args *a = cl_arg;
    if (hyla_rt_seq_skip(a->seq)) return;
    const double *w = WEIGHTS(buffers[4]);
    hyla_cl_cuda_t g = hyla_cl_cuda_begin();
    int rc = hyla_cuda_drbt_two_sided(
        g.stream, HYLA_TILE_ROWS(buffers[0]), HYLA_TILE_COLS(buffers[0]),
        HYLA_TILE_PTR(buffers[0]), HYLA_TILE_PTR(buffers[1]),
        HYLA_TILE_PTR(buffers[2]), HYLA_TILE_PTR(buffers[3]),
        HYLA_TILE_LD(buffers[0]), w + a->r0, w + a->r1, w + a->c0, w + a->c1);
    rc = hyla_cl_cuda_end(&g, rc);
    if (rc) hyla_rt_seq_fail(a->seq, rc);
}

static void cl_drbt4_cuda(void *buffers[], void *cl_arg)
{
    const struct drbt4_args *a = cl_arg;
    if (hyla_rt_seq_skip(a->seq)) return;
    double *A[16];
    const double *w[16];
    two_levels_view(buffers, a, A, w);
    hyla_cl_cuda_t g = hyla_cl_cuda_begin();
    int rc = hyla_cuda_drbt_two_levels(g.stream, HYLA_TILE_ROWS(buffers[0]),
                                       HYLA_TILE_COLS(buffers[0]),
                                       HYLA_TILE_LD(buffers[0]), A, w);
    rc = hyla_cl_cuda_end(&g, rc);
    if (rc) hyla_rt_seq_fail(a->seq, rc);
}

static void cl_drbt1_cuda(void *buffers[], void *cl_arg)
{
    const struct drbt_args *a = cl_arg;
    if (hyla_rt_seq_skip(a->seq)) return;
    const double *w = WEIGHTS(buffers[2]);
    hyla_cl_cuda_t g = hyla_cl_cuda_begin();
    int rc = hyla_cuda_drbt_rows(
        g.stream, a->trans, HYLA_TILE_ROWS(buffers[0]),
        HYLA_TILE_COLS(buffers[0]), HYLA_TILE_PTR(buffers[0]),
        HYLA_TILE_PTR(buffers[1]), HYLA_TILE_LD(buffers[0]), w + a->r0,
        w + a->r1);
    rc = hyla_cl_cuda_end(&g, rc);
    if (rc) hyla_rt_seq_fail(a->seq, rc);
}
#endif

HYLA_CODELET(drbt2, cl_drbt2_cpu, cl_drbt2_cuda, 5, STARPU_RW, STARPU_RW,
             STARPU_RW, STARPU_RW, STARPU_R);
HYLA_CODELET_VARIADIC(drbt4, cl_drbt4_cpu, cl_drbt4_cuda);
HYLA_CODELET(drbt1, cl_drbt1_cpu, cl_drbt1_cuda, 3, STARPU_RW, STARPU_RW,
             STARPU_R);

void hyla_task_drbt_two_sided(const hyla_task_opts_t *o, const hyla_desc_t *A,
                              int m1, int m2, int n1, int n2, void *W, size_t u,
                              size_t v)
{
    struct drbt_args *a = hyla_cl_args(o, sizeof *a);
    if (!a) return;
    size_t nb = (size_t)A->nb;
    *a = (struct drbt_args){o->seq,      0,           u + m1 * nb,
                            u + m2 * nb, v + n1 * nb, v + n2 * nb};
    HYLA_TASK_INSERT(
        o, &cl_drbt2, STARPU_CL_ARGS, a, sizeof *a, STARPU_RW,
        hyla_rt_tile(A, m1, n1), STARPU_RW, hyla_rt_tile(A, m1, n2), STARPU_RW,
        hyla_rt_tile(A, m2, n1), STARPU_RW, hyla_rt_tile(A, m2, n2), STARPU_R,
        (starpu_data_handle_t)W);
}

void hyla_task_drbt_two_levels(const hyla_task_opts_t *o, const hyla_desc_t *A,
                               const int rows[4], const int cols[4], void *W,
                               size_t ui, size_t uo, size_t vi, size_t vo)
{
    struct drbt4_args *a = hyla_cl_args(o, sizeof *a);
    if (!a) return;
    size_t nb = (size_t)A->nb;
    a->seq = o->seq;
    struct starpu_data_descr d[17];
    for (int k = 0; k < 4; k++) {
        a->w[k] = ui + rows[k] * nb;
        a->w[4 + k] = uo + rows[k] * nb;
        a->w[8 + k] = vi + cols[k] * nb;
        a->w[12 + k] = vo + cols[k] * nb;
        for (int l = 0; l < 4; l++)
            d[4 * k + l] = (struct starpu_data_descr){
                hyla_rt_tile(A, rows[k], cols[l]), STARPU_RW};
    }
    d[16] = (struct starpu_data_descr){(starpu_data_handle_t)W, STARPU_R};
    HYLA_TASK_INSERT(o, &cl_drbt4, STARPU_CL_ARGS, a, sizeof *a,
                     STARPU_DATA_MODE_ARRAY, d, 17);
}

void hyla_task_drbt_rows(const hyla_task_opts_t *o, int trans,
                         const hyla_desc_t *B, int m1, int m2, int n, void *W,
                         size_t u)
{
    struct drbt_args *a = hyla_cl_args(o, sizeof *a);
    if (!a) return;
    size_t nb = (size_t)B->nb;
    *a = (struct drbt_args){o->seq, trans, u + m1 * nb, u + m2 * nb, 0, 0};
    HYLA_TASK_INSERT(o, &cl_drbt1, STARPU_CL_ARGS, a, sizeof *a, STARPU_RW,
                     hyla_rt_tile(B, m1, n), STARPU_RW, hyla_rt_tile(B, m2, n),
                     STARPU_R, (starpu_data_handle_t)W);
}

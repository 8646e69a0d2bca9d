// SPDX-License-Identifier: BSD-3-Clause
// Random butterfly transforms of tiles.  @precisions d -> s
#include "codelets.h"

#include <string.h>

// The weights of a task travel with it: w holds r0, r1 (m apiece), then
// c0, c1 (n apiece) for the two-sided form.
struct drbt_args {
    hyla_seq_t *seq;
    int trans, m, n;
    double w[];
};

static void cl_drbt2_cpu(void *buffers[], void *cl_arg)
{
    const struct drbt_args *a = cl_arg;
    if (hyla_rt_seq_skip(a->seq)) return;
    const double *r = a->w, *c = a->w + 2 * a->m;
    hyla_cpu_drbt_two_sided(HYLA_TILE_ROWS(buffers[0]),
                            HYLA_TILE_COLS(buffers[0]),
                            HYLA_TILE_PTR(buffers[0]), HYLA_TILE_PTR(buffers[1]),
                            HYLA_TILE_PTR(buffers[2]), HYLA_TILE_PTR(buffers[3]),
                            HYLA_TILE_LD(buffers[0]), r, r + a->m, c, c + a->n);
}

static void cl_drbt1_cpu(void *buffers[], void *cl_arg)
{
    const struct drbt_args *a = cl_arg;
    if (hyla_rt_seq_skip(a->seq)) return;
    hyla_cpu_drbt_rows(a->trans, HYLA_TILE_ROWS(buffers[0]),
                       HYLA_TILE_COLS(buffers[0]), HYLA_TILE_PTR(buffers[0]),
                       HYLA_TILE_PTR(buffers[1]), HYLA_TILE_LD(buffers[0]),
                       a->w, a->w + a->m);
}

HYLA_CODELET(drbt2, cl_drbt2_cpu, NULL, 4, STARPU_RW, STARPU_RW, STARPU_RW,
             STARPU_RW);
HYLA_CODELET(drbt1, cl_drbt1_cpu, NULL, 2, STARPU_RW, STARPU_RW);

// Arguments with room for count weights; NULL when out of memory.
static struct drbt_args *args(const hyla_task_opts_t *o, int trans, int m,
                              int n, int count, size_t *size)
{
    *size = sizeof(struct drbt_args) + sizeof(double) * (size_t)count;
    struct drbt_args *a = hyla_cl_args(o, *size);
    if (a) *a = (struct drbt_args){o->seq, trans, m, n};
    return a;
}

// The weights of partner tile rows (or columns) i1 and i2, len apiece,
// copied to w; returns the end of the copy.
static double *pair(double *w, const double *u, int i1, int i2, int nb,
                    int len)
{
    memcpy(w, u + (size_t)i1 * nb, sizeof(double) * len);
    memcpy(w + len, u + (size_t)i2 * nb, sizeof(double) * len);
    return w + 2 * len;
}

void hyla_task_drbt_two_sided(const hyla_task_opts_t *o, const hyla_desc_t *A,
                              int m1, int m2, int n1, int n2, const double *u,
                              const double *v)
{
    int m = hyla_tile_mb(A, m1), n = hyla_tile_nb(A, n1);
    size_t size;
    struct drbt_args *a = args(o, 0, m, n, 2 * (m + n), &size);
    if (!a) return;
    pair(pair(a->w, u, m1, m2, A->nb, m), v, n1, n2, A->nb, n);
    HYLA_TASK_INSERT(o, &cl_drbt2, STARPU_CL_ARGS, a, size, STARPU_RW,
                     hyla_rt_tile(A, m1, n1), STARPU_RW,
                     hyla_rt_tile(A, m1, n2), STARPU_RW,
                     hyla_rt_tile(A, m2, n1), STARPU_RW,
                     hyla_rt_tile(A, m2, n2));
}

void hyla_task_drbt_rows(const hyla_task_opts_t *o, int trans,
                         const hyla_desc_t *B, int m1, int m2, int n,
                         const double *u)
{
    int m = hyla_tile_mb(B, m1);
    size_t size;
    struct drbt_args *a = args(o, trans, m, 0, 2 * m, &size);
    if (!a) return;
    pair(a->w, u, m1, m2, B->nb, m);
    HYLA_TASK_INSERT(o, &cl_drbt1, STARPU_CL_ARGS, a, size, STARPU_RW,
                     hyla_rt_tile(B, m1, n), STARPU_RW, hyla_rt_tile(B, m2, n));
}

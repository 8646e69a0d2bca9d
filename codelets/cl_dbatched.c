// SPDX-License-Identifier: BSD-3-Clause
// Batched LU, inverse and solve of small matrices: one task factors a
// chunk of matrices stored one after the other.  @precisions d -> s
#include "codelets.h"

struct dbatched_args {
    hyla_seq_t *seq;
    int n, nrhs, trans;
};

#define HYLA_VEC_PTR(buf) ((void *)STARPU_VECTOR_GET_PTR(buf))
// Matrices of a chunk: its info vector has one entry apiece.
#define HYLA_VEC_LEN(buf) ((int)STARPU_VECTOR_GET_NX(buf))

static void cl_dgetrf_batched_cpu(void *buffers[], void *cl_arg)
{
    const struct dbatched_args *a = cl_arg;
    if (hyla_rt_seq_skip(a->seq)) return;
    hyla_cpu_dgetrf_batched(a->n, HYLA_VEC_LEN(buffers[2]),
                            HYLA_VEC_PTR(buffers[0]), HYLA_VEC_PTR(buffers[1]),
                            HYLA_VEC_PTR(buffers[2]));
}

static void cl_dgetri_batched_cpu(void *buffers[], void *cl_arg)
{
    const struct dbatched_args *a = cl_arg;
    if (hyla_rt_seq_skip(a->seq)) return;
    if (hyla_cpu_dgetri_batched(a->n, HYLA_VEC_LEN(buffers[3]),
                                HYLA_VEC_PTR(buffers[0]),
                                HYLA_VEC_PTR(buffers[1]),
                                HYLA_VEC_PTR(buffers[2]),
                                HYLA_VEC_PTR(buffers[3])))
        hyla_rt_seq_fail(a->seq, HYLA_ERR_OUT_OF_MEMORY);
}

static void cl_dgetrs_batched_cpu(void *buffers[], void *cl_arg)
{
    const struct dbatched_args *a = cl_arg;
    if (hyla_rt_seq_skip(a->seq)) return;
    int count = (int)(STARPU_VECTOR_GET_NX(buffers[1]) / a->n);
    hyla_cpu_dgetrs_batched(a->trans, a->n, a->nrhs, count,
                            HYLA_VEC_PTR(buffers[0]), HYLA_VEC_PTR(buffers[1]),
                            HYLA_VEC_PTR(buffers[2]));
}

#if HYLA_CUDA_CODELETS
static void cl_dgetrf_batched_cuda(void *buffers[], void *cl_arg)
{
    const struct dbatched_args *a = cl_arg;
    if (hyla_rt_seq_skip(a->seq)) return;
    hyla_cl_cuda_t c = hyla_cl_cuda_begin();
    int n = a->n;
    int rc = hyla_cuda_dbatch_getrf(
        n, NULL, HYLA_VEC_PTR(buffers[0]), (long long)n * n, n,
        HYLA_VEC_PTR(buffers[1]), HYLA_VEC_PTR(buffers[2]),
        HYLA_VEC_LEN(buffers[2]), c.handle, c.stream);
    rc = hyla_cl_cuda_end(&c, rc);
    if (rc) hyla_rt_seq_fail(a->seq, rc);
}

static void cl_dgetri_batched_cuda(void *buffers[], void *cl_arg)
{
    const struct dbatched_args *a = cl_arg;
    if (hyla_rt_seq_skip(a->seq)) return;
    hyla_cl_cuda_t c = hyla_cl_cuda_begin();
    int n = a->n;
    long long nn = (long long)n * n;
    int rc = hyla_cuda_dbatch_getri(
        n, NULL, HYLA_VEC_PTR(buffers[0]), nn, n, NULL,
        HYLA_VEC_PTR(buffers[1]), nn, n, HYLA_VEC_PTR(buffers[2]),
        HYLA_VEC_PTR(buffers[3]), HYLA_VEC_LEN(buffers[3]), c.handle,
        c.stream);
    rc = hyla_cl_cuda_end(&c, rc);
    if (rc) hyla_rt_seq_fail(a->seq, rc);
}

static void cl_dgetrs_batched_cuda(void *buffers[], void *cl_arg)
{
    const struct dbatched_args *a = cl_arg;
    if (hyla_rt_seq_skip(a->seq)) return;
    hyla_cl_cuda_t c = hyla_cl_cuda_begin();
    int n = a->n;
    int count = (int)(STARPU_VECTOR_GET_NX(buffers[1]) / n);
    int rc = hyla_cuda_dbatch_getrs(
        a->trans, n, a->nrhs, NULL, HYLA_VEC_PTR(buffers[0]), (long long)n * n,
        n, HYLA_VEC_PTR(buffers[1]), NULL, HYLA_VEC_PTR(buffers[2]),
        (long long)n * a->nrhs, n, count, c.stream);
    rc = hyla_cl_cuda_end(&c, rc);
    if (rc) hyla_rt_seq_fail(a->seq, rc);
}
#endif

HYLA_CODELET(dgetrf_batched, cl_dgetrf_batched_cpu, cl_dgetrf_batched_cuda, 3,
             STARPU_RW, STARPU_W, STARPU_W);
HYLA_CODELET(dgetri_batched, cl_dgetri_batched_cpu, cl_dgetri_batched_cuda, 4,
             STARPU_R, STARPU_W, STARPU_W, STARPU_W);
HYLA_CODELET(dgetrs_batched, cl_dgetrs_batched_cpu, cl_dgetrs_batched_cuda, 3,
             STARPU_R, STARPU_R, STARPU_RW);

static struct dbatched_args *batched_args(const hyla_task_opts_t *o, int n,
                                          int nrhs, int trans)
{
    struct dbatched_args *a = hyla_cl_args(o, sizeof *a);
    if (a) *a = (struct dbatched_args){o->seq, n, nrhs, trans};
    return a;
}

void hyla_task_dgetrf_batched(const hyla_task_opts_t *o, int n, void *A,
                              void *ipiv, void *info)
{
    struct dbatched_args *a = batched_args(o, n, 0, 0);
    if (!a) return;
    HYLA_TASK_INSERT(o, &cl_dgetrf_batched, STARPU_CL_ARGS, a, sizeof *a, STARPU_RW,
                     (starpu_data_handle_t)A, STARPU_W,
                     (starpu_data_handle_t)ipiv, STARPU_W,
                     (starpu_data_handle_t)info);
}

void hyla_task_dgetri_batched(const hyla_task_opts_t *o, int n, void *A,
                              void *C, void *ipiv, void *info)
{
    struct dbatched_args *a = batched_args(o, n, 0, 0);
    if (!a) return;
    HYLA_TASK_INSERT(o, &cl_dgetri_batched, STARPU_CL_ARGS, a, sizeof *a, STARPU_R,
                     (starpu_data_handle_t)A, STARPU_W, (starpu_data_handle_t)C,
                     STARPU_W, (starpu_data_handle_t)ipiv, STARPU_W,
                     (starpu_data_handle_t)info);
}

void hyla_task_dgetrs_batched(const hyla_task_opts_t *o, int trans, int n,
                              int nrhs, void *A, void *ipiv, void *B)
{
    struct dbatched_args *a = batched_args(o, n, nrhs, trans);
    if (!a) return;
    HYLA_TASK_INSERT(o, &cl_dgetrs_batched, STARPU_CL_ARGS, a, sizeof *a,
                     STARPU_R, (starpu_data_handle_t)A, STARPU_R,
                     (starpu_data_handle_t)ipiv, STARPU_RW,
                     (starpu_data_handle_t)B);
}

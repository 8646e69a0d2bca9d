// SPDX-License-Identifier: BSD-3-Clause
// Cholesky of a diagonal tile.  @precisions d -> s
#include "codelets.h"

struct dpotrf_args {
    hyla_seq_t *seq;
    int uplo;
    int col0; // global index of the tile's first column
};

static void cl_dpotrf_cpu(void *buffers[], void *cl_arg)
{
    const struct dpotrf_args *a = cl_arg;
    if (hyla_rt_seq_skip(a->seq)) return;
    int info =
        hyla_cpu_dpotrf(a->uplo, HYLA_TILE_ROWS(buffers[0]),
                        HYLA_TILE_PTR(buffers[0]), HYLA_TILE_LD(buffers[0]));
    if (info > 0)
        hyla_rt_seq_info(a->seq, a->col0 + info);
    else if (info < 0)
        hyla_rt_seq_fail(a->seq, HYLA_ERR_RUNTIME);
}

#if HYLA_CUDA_CODELETS
// A failure is found on the GPU after the codelet has returned (the work
// is asynchronous).  The kernel writes it into a word of mapped host
// memory (one per worker, kept for the process), and a host function
// queued behind it on the stream reports it to the sequence, before the
// task counts as done.
struct dpotrf_gpu_info {
    const struct dpotrf_args *a;
    int *word;
};

static void report_info(void *arg)
{
    struct dpotrf_gpu_info *g = arg;
    int info = __atomic_exchange_n(g->word, 0, __ATOMIC_ACQ_REL);
    if (info) hyla_rt_seq_info(g->a->seq, info);
    free(g);
}

static int *info_word(void)
{
    static int *words[STARPU_NMAXWORKERS];
    int w = starpu_worker_get_id();
    // Zero once: afterwards only the kernels (set) and report_info (reset),
    // in stream order, touch it.
    if (!words[w]) {
        if (cudaHostAlloc((void **)&words[w], sizeof(int),
                          cudaHostAllocMapped | cudaHostAllocPortable))
            words[w] = NULL;
        else
            *words[w] = 0;
    }
    return words[w];
}

static void cl_dpotrf_cuda(void *buffers[], void *cl_arg)
{
    const struct dpotrf_args *a = cl_arg;
    if (hyla_rt_seq_skip(a->seq)) return;
    struct dpotrf_gpu_info *g = malloc(sizeof *g);
    int *word = info_word();
    if (!g || !word) {
        free(g);
        hyla_rt_seq_fail(a->seq, g ? HYLA_ERR_CUDA : HYLA_ERR_OUT_OF_MEMORY);
        return;
    }
    *g = (struct dpotrf_gpu_info){a, word};
    hyla_cl_cuda_t c = hyla_cl_cuda_begin();
    int rc = hyla_cuda_dpotrf(c.handle, a->uplo, HYLA_TILE_ROWS(buffers[0]),
                              HYLA_TILE_PTR(buffers[0]),
                              HYLA_TILE_LD(buffers[0]), word, a->col0);
    rc = hyla_cl_cuda_end(&c, rc);
    // Behind the join: on the StarPU stream, before the task is done.
    if (!rc &&
        cudaLaunchHostFunc(starpu_cuda_get_local_stream(), report_info, g))
        rc = HYLA_ERR_CUDA;
    if (rc) {
        free(g);
        hyla_rt_seq_fail(a->seq, rc);
    }
}
#endif

HYLA_CODELET(dpotrf, cl_dpotrf_cpu, cl_dpotrf_cuda, 1, STARPU_RW);

void hyla_task_dpotrf(const hyla_task_opts_t *o, int uplo, const hyla_desc_t *A,
                      int k)
{
    struct dpotrf_args *a = hyla_cl_args(o, sizeof *a);
    if (!a) return;
    *a = (struct dpotrf_args){o->seq, uplo, k * A->nb};
    HYLA_TASK_INSERT(o, &cl_dpotrf, STARPU_CL_ARGS, a, sizeof *a, STARPU_RW,
                     hyla_rt_tile(A, k, k));
}

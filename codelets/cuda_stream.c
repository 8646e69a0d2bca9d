// SPDX-License-Identifier: BSD-3-Clause
// The CUDA stream of a GPU codelet: the worker's StarPU stream, or for the
// critical path a high-priority stream of the worker joined to it.
#include "codelets.h"

#if HYLA_CUDA_CODELETS

// One high-priority stream per CUDA worker, made on first use in the
// worker's thread (so on its GPU) and kept for the process; `go` orders
// it after the StarPU stream, `done` the StarPU stream after it.
struct urgent {
    int state; // 0: not made yet, 1: ready, -1: could not be made
    cudaStream_t stream;
    cudaEvent_t go, done;
};

static struct urgent urgent[STARPU_NMAXWORKERS];

static struct urgent *urgent_stream(void)
{
    struct urgent *u = &urgent[starpu_worker_get_id()];
    if (u->state == 0) {
        int least, greatest;
        u->state = -1;
        if (!cudaDeviceGetStreamPriorityRange(&least, &greatest) &&
            !cudaStreamCreateWithPriority(&u->stream, cudaStreamNonBlocking,
                                          greatest) &&
            !cudaEventCreateWithFlags(&u->go, cudaEventDisableTiming) &&
            !cudaEventCreateWithFlags(&u->done, cudaEventDisableTiming))
            u->state = 1;
        cudaGetLastError(); // a failure only leaves the StarPU stream
    }
    return u->state == 1 ? u : NULL;
}

hyla_cl_cuda_t hyla_cl_cuda_begin(void)
{
    hyla_cl_cuda_t c = {starpu_cublas_get_local_handle(),
                        starpu_cuda_get_local_stream(), 0};
    const struct starpu_task *task = starpu_task_get_current();
    struct urgent *u = task && task->priority > 0 ? urgent_stream() : NULL;
    if (u && !cudaEventRecord(u->go, c.stream) &&
        !cudaStreamWaitEvent(u->stream, u->go, 0) &&
        cublasSetStream(c.handle, u->stream) == CUBLAS_STATUS_SUCCESS) {
        c.stream = u->stream;
        c.urgent = 1;
    }
    return c;
}

int hyla_cl_cuda_end(const hyla_cl_cuda_t *c)
{
    if (!c->urgent) return 0;
    cudaStream_t local = starpu_cuda_get_local_stream();
    struct urgent *u = &urgent[starpu_worker_get_id()];
    int rc = 0;
    if (cudaEventRecord(u->done, u->stream) ||
        cudaStreamWaitEvent(local, u->done, 0)) {
        // The StarPU stream cannot wait: wait here instead.
        rc = cudaStreamSynchronize(u->stream) ? HYLA_ERR_CUDA : 0;
    }
    if (cublasSetStream(c->handle, local) != CUBLAS_STATUS_SUCCESS)
        rc = HYLA_ERR_CUBLAS;
    return rc;
}

#endif

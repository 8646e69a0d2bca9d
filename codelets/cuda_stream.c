// SPDX-License-Identifier: BSD-3-Clause
// The CUDA stream of a GPU codelet: the worker's StarPU stream, or for the
// critical path a high-priority stream of the worker joined to it; and the
// gate by which an LU panel has its GPU to itself (gpu_gate).
#include "codelets.h"

#if HYLA_CUDA_CODELETS

// Per CUDA worker, set up on first use in the worker's thread (so on its
// GPU) and kept for the process: the GPU's SM count, and a high-priority
// stream with the events that order it after the StarPU stream (`go`) and
// the StarPU stream after it (`done`).
struct gpu_worker {
    int ready;  // set up
    int urgent; // the stream and events exist
    int sms;    // streaming multiprocessors of the GPU, 0 if unknown
    int dev;    // the GPU, as a CUDA device
    cudaStream_t stream;
    cudaEvent_t go, done, gate;
    int *info;       // mapped host word, or NULL
    void *workspace; // device memory, or NULL
    void *staging;   // device memory, or NULL
};

static struct gpu_worker workers[STARPU_NMAXWORKERS];

// Per CUDA device, the gate event of the worker that last queued a panel
// there, NULL before the first.
static cudaEvent_t *gates[STARPU_MAXCUDADEVS];

static struct gpu_worker *gpu_worker(void)
{
    struct gpu_worker *w = &workers[starpu_worker_get_id()];
    if (!w->ready) {
        int dev, least, greatest;
        w->ready = 1;
        if (cudaGetDevice(&dev) ||
            cudaDeviceGetAttribute(&w->sms, cudaDevAttrMultiProcessorCount,
                                   dev))
            w->sms = 0;
        w->dev = dev >= 0 && dev < STARPU_MAXCUDADEVS ? dev : 0;
        w->urgent =
            !cudaDeviceGetStreamPriorityRange(&least, &greatest) &&
            !cudaStreamCreateWithPriority(&w->stream, cudaStreamNonBlocking,
                                          greatest) &&
            !cudaEventCreateWithFlags(&w->go, cudaEventDisableTiming) &&
            !cudaEventCreateWithFlags(&w->done, cudaEventDisableTiming) &&
            !cudaEventCreateWithFlags(&w->gate, cudaEventDisableTiming);
        cudaGetLastError(); // a failure only leaves the StarPU stream
    }
    return w;
}

hyla_cl_cuda_t hyla_cl_cuda_begin(void)
{
    hyla_cl_cuda_t c = {starpu_cublas_get_local_handle(),
                        starpu_cuda_get_local_stream(), 0};
    const struct starpu_task *task = starpu_task_get_current();
    int critical = task && task->priority > 0;
    struct gpu_worker *w = gpu_worker();
    // Off the critical path, cuBLAS sizes its grids for all SMs but the
    // reserved ones (gpu_reserved_sms), so that the critical path's
    // kernels find SMs free; on it, for all of them.
    int reserve = hyla_rt_config()->gpu_reserved_sms;
    if (reserve > 0 && w->sms > 0)
        cublasSetSmCountTarget(
            c.handle, critical || reserve >= w->sms ? 0 : w->sms - reserve);
    // Off the critical path, with the gate, after the last panel queued
    // on this GPU.  The wait is on the GPU: the worker goes on.
    if (!critical && hyla_rt_config()->gpu_gate) {
        cudaEvent_t *gate = __atomic_load_n(&gates[w->dev], __ATOMIC_ACQUIRE);
        if (gate) cudaStreamWaitEvent(c.stream, *gate, 0);
    }
    if (critical && w->urgent && !cudaEventRecord(w->go, c.stream) &&
        !cudaStreamWaitEvent(w->stream, w->go, 0) &&
        cublasSetStream(c.handle, w->stream) == CUBLAS_STATUS_SUCCESS) {
        c.stream = w->stream;
        c.urgent = 1;
    }
    return c;
}

void hyla_cl_cuda_gate(const hyla_cl_cuda_t *c)
{
    struct gpu_worker *w = gpu_worker();
    if (!hyla_rt_config()->gpu_gate || !w->urgent) return;
    if (cudaEventRecord(w->gate, c->stream)) {
        cudaGetLastError(); // no gate this time: the work overlaps
        return;
    }
    __atomic_store_n(&gates[w->dev], &w->gate, __ATOMIC_RELEASE);
}

int *hyla_cl_cuda_info_word(hyla_seq_t *seq)
{
    struct gpu_worker *w = gpu_worker();
    // Zeroed once: afterwards only the kernels (set) and report_info
    // (reset), in stream order, touch it.
    if (!w->info) {
        if (cudaHostAlloc((void **)&w->info, sizeof(int),
                          cudaHostAllocMapped | cudaHostAllocPortable)) {
            w->info = NULL;
            cudaGetLastError();
        } else {
            *w->info = 0;
        }
    }
    if (!w->info) hyla_rt_seq_fail(seq, HYLA_ERR_CUDA);
    return w->info;
}

struct info_report {
    hyla_seq_t *seq;
    int *word;
};

static void report_info(void *arg)
{
    struct info_report *r = arg;
    int info = __atomic_exchange_n(r->word, 0, __ATOMIC_ACQ_REL);
    if (info) hyla_rt_seq_info(r->seq, info);
    free(r);
}

static int report_info_after(hyla_seq_t *seq, int *word)
{
    struct info_report *r = malloc(sizeof *r);
    if (!r) return HYLA_ERR_OUT_OF_MEMORY;
    *r = (struct info_report){seq, word};
    if (cudaLaunchHostFunc(starpu_cuda_get_local_stream(), report_info, r)) {
        free(r);
        return HYLA_ERR_CUDA;
    }
    return 0;
}

enum { WORKSPACE = 1 << 20 };

void *hyla_cl_cuda_workspace(size_t bytes)
{
    struct gpu_worker *w = gpu_worker();
    if (bytes > WORKSPACE) return NULL;
    if (!w->workspace) {
        // Once per worker: waiting for the whole GPU is affordable.
        if (cudaMalloc(&w->workspace, WORKSPACE) ||
            cudaMemset(w->workspace, 0, WORKSPACE) || cudaDeviceSynchronize()) {
            cudaFree(w->workspace);
            w->workspace = NULL;
            cudaGetLastError();
        }
    }
    return w->workspace;
}

void *hyla_cl_cuda_staging(void)
{
    struct gpu_worker *w = gpu_worker();
    if (!w->staging && cudaMalloc(&w->staging, HYLA_CL_CUDA_STAGING)) {
        w->staging = NULL;
        cudaGetLastError();
    }
    return w->staging;
}

int hyla_cl_cuda_end(const hyla_cl_cuda_t *c, int rc)
{
    if (!c->urgent) return rc;
    cudaStream_t local = starpu_cuda_get_local_stream();
    struct gpu_worker *w = gpu_worker();
    int join = 0;
    if (cudaEventRecord(w->done, w->stream) ||
        cudaStreamWaitEvent(local, w->done, 0)) {
        // The StarPU stream cannot wait: wait here instead.
        join = cudaStreamSynchronize(w->stream) ? HYLA_ERR_CUDA : 0;
    }
    if (cublasSetStream(c->handle, local) != CUBLAS_STATUS_SUCCESS)
        join = HYLA_ERR_CUBLAS;
    return rc ? rc : join;
}

void hyla_cl_cuda_end_info(const hyla_cl_cuda_t *c, int rc, hyla_seq_t *seq,
                           int *word)
{
    rc = hyla_cl_cuda_end(c, rc);
    if (!rc) rc = report_info_after(seq, word);
    if (rc) hyla_rt_seq_fail(seq, rc);
}

#endif

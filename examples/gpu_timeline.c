// SPDX-License-Identifier: BSD-3-Clause
// A GPU timeline of any CUDA program, hyla's benchmarks included: every
// kernel, copy and memset as the GPU ran it, each synchronisation, and the
// CUDA runtime calls that kept a host thread 20 us or more, written as a
// Chrome/Perfetto trace (the same format as hyla-bench --trace).
//
// The CUDA driver loads it into the program (CUPTI injection):
//   export CUDA_INJECTION64_PATH=build/examples/libhyla-gpu-timeline.so
//   HYLA_GPU_TIMELINE=gpu.json hyla-bench ...
// Times are microseconds from the first recorded activity.  Kernels show
// per stream; the runtime calls per host thread.
#include <cupti.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { BUFFER = 8 << 20, ALIGN = 8, MIN_CALL_NS = 20000 };

static FILE *out;
static uint64_t t0;
static int first = 1;

static void CUPTIAPI buffer_requested(uint8_t **buffer, size_t *size,
                                      size_t *max_records)
{
    *buffer = aligned_alloc(ALIGN, BUFFER);
    *size = *buffer ? BUFFER : 0;
    *max_records = 0;
}

// One complete event ("X") of the trace; pid 0 the GPU streams, pid 1 the
// host threads.
static void event(const char *name, const char *cat, int pid, uint64_t tid,
                  uint64_t start, uint64_t end)
{
    if (!t0) t0 = start;
    // Names are symbols and API names: no character needs escaping but '"'.
    fprintf(out, "%s\n{\"name\":\"", first ? "" : ",");
    for (const char *c = name; *c; c++)
        if (*c != '"' && *c != '\\') fputc(*c, out);
    fprintf(out,
            "\",\"cat\":\"%s\",\"ph\":\"X\",\"pid\":%d,\"tid\":%" PRIu64
            ",\"ts\":%.3f,\"dur\":%.3f}",
            cat, pid, tid, (double)(int64_t)(start - t0) / 1e3,
            (double)(end - start) / 1e3);
    first = 0;
}

static const char *sync_name(CUpti_ActivitySynchronizationType t)
{
    switch (t) {
    case CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_EVENT_SYNCHRONIZE:
        return "cudaEventSynchronize";
    case CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_WAIT_EVENT:
        return "cudaStreamWaitEvent";
    case CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_SYNCHRONIZE:
        return "cudaStreamSynchronize";
    case CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_CONTEXT_SYNCHRONIZE:
        return "cudaDeviceSynchronize";
    default: return "synchronize";
    }
}

static const char *copy_name(uint8_t kind)
{
    switch (kind) {
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOD: return "HtoD";
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOH: return "DtoH";
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOD: return "DtoD";
    case CUPTI_ACTIVITY_MEMCPY_KIND_PTOP: return "PtoP";
    default: return "other";
    }
}

static void record(CUpti_Activity *r)
{
    switch (r->kind) {
    case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL: {
        CUpti_ActivityKernel10 *k = (CUpti_ActivityKernel10 *)r;
        event(k->name, "kernel", 0, k->streamId, k->start, k->end);
        break;
    }
    case CUPTI_ACTIVITY_KIND_MEMCPY: {
        CUpti_ActivityMemcpy6 *m = (CUpti_ActivityMemcpy6 *)r;
        char name[64];
        snprintf(name, sizeof name, "memcpy %s %" PRIu64 " B",
                 copy_name(m->copyKind), m->bytes);
        event(name, "copy", 0, m->streamId, m->start, m->end);
        break;
    }
    case CUPTI_ACTIVITY_KIND_MEMSET: {
        CUpti_ActivityMemset4 *m = (CUpti_ActivityMemset4 *)r;
        event("memset", "copy", 0, m->streamId, m->start, m->end);
        break;
    }
    case CUPTI_ACTIVITY_KIND_SYNCHRONIZATION: {
        CUpti_ActivitySynchronization2 *s = (CUpti_ActivitySynchronization2 *)r;
        if (s->end - s->start >= MIN_CALL_NS)
            event(sync_name(s->type), "sync", 1, 0, s->start, s->end);
        break;
    }
    case CUPTI_ACTIVITY_KIND_RUNTIME: {
        CUpti_ActivityAPI *a = (CUpti_ActivityAPI *)r;
        const char *name = NULL;
        if (a->end - a->start < MIN_CALL_NS) break;
        cuptiGetCallbackName(CUPTI_CB_DOMAIN_RUNTIME_API, a->cbid, &name);
        event(name ? name : "cuda call", "api", 1, a->threadId, a->start,
              a->end);
        break;
    }
    default: break;
    }
}

static void CUPTIAPI buffer_completed(CUcontext ctx, uint32_t stream,
                                      uint8_t *buffer, size_t size,
                                      size_t valid)
{
    (void)ctx;
    (void)stream;
    (void)size;
    CUpti_Activity *r = NULL;
    while (out &&
           cuptiActivityGetNextRecord(buffer, valid, &r) == CUPTI_SUCCESS)
        record(r);
    free(buffer);
}

static void finish(void)
{
    cuptiActivityFlushAll(1);
    if (out) {
        fputs("\n]}\n", out);
        fclose(out);
        out = NULL;
    }
}

// Called by the CUDA driver when it loads the library.
int InitializeInjection(void)
{
    const char *path = getenv("HYLA_GPU_TIMELINE");
    out = fopen(path && *path ? path : "gpu-timeline.json", "w");
    if (!out) {
        perror("hyla gpu timeline");
        return 1;
    }
    fputs("{\"displayTimeUnit\":\"ms\",\"traceEvents\":[", out);
    const CUpti_ActivityKind kinds[] = {
        CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, CUPTI_ACTIVITY_KIND_MEMCPY,
        CUPTI_ACTIVITY_KIND_MEMSET, CUPTI_ACTIVITY_KIND_SYNCHRONIZATION,
        CUPTI_ACTIVITY_KIND_RUNTIME};
    if (cuptiActivityRegisterCallbacks(buffer_requested, buffer_completed) !=
        CUPTI_SUCCESS) {
        fprintf(stderr, "hyla gpu timeline: CUPTI refused the callbacks\n");
        return 1;
    }
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
        if (cuptiActivityEnable(kinds[i]) != CUPTI_SUCCESS)
            fprintf(stderr, "hyla gpu timeline: activity kind %d not traced\n",
                    (int)kinds[i]);
    atexit(finish);
    return 1;
}

// SPDX-License-Identifier: BSD-3-Clause
// Codelet layer: the one place that knows both StarPU and the kernels.
#ifndef HYLA_CODELETS_CODELETS_H
#define HYLA_CODELETS_CODELETS_H

#include "glue.h"
#include "cpu.h"
#include "tasks.h"

#include <stdlib.h>

#if HYLA_CUDA_CODELETS
#include "gpu.h"
#include <starpu_cublas_v2.h>
#define HYLA_CUDA_FIELDS(fn)                                                   \
    .cuda_funcs = {fn}, .cuda_flags = {STARPU_CUDA_ASYNC},

// The cuBLAS handle and stream a CUDA codelet queues its work on.  Tasks
// on the critical path (priority above zero, runtime.h) get a
// high-priority stream of the worker, ordered after the work before them
// on the worker's StarPU stream, so that their kernels pass ahead of the
// trailing updates already queued on the GPU; hyla_cl_cuda_end() then
// orders the StarPU stream after them (STARPU_CUDA_ASYNC waits for it)
// and gives the handle its stream back.  Other tasks get the StarPU
// stream itself, and with gpu_reserved_sms their cuBLAS calls leave that
// many SMs to the critical path.
typedef struct hyla_cl_cuda {
    cublasHandle_t handle; // bound to stream
    cudaStream_t stream;
    int urgent;
} hyla_cl_cuda_t;

hyla_cl_cuda_t hyla_cl_cuda_begin(void);
// With gpu_gate: the work queued on c so far (an LU panel's) is the gate
// of its GPU.  Until it is done, the GPU's tasks off the critical path
// that begin after this call wait on the GPU (not in the worker) before
// their own work, so that the panel does not share the GPU with the
// trailing updates.  Tasks on the critical path do not wait.
void hyla_cl_cuda_gate(const hyla_cl_cuda_t *c);
// rc, the codelet's status so far, if it is not 0; else 0, or a hyla
// status when the streams could not be joined.
int hyla_cl_cuda_end(const hyla_cl_cuda_t *c, int rc);

// A failure is found on the GPU after the codelet has returned (the work
// is asynchronous).  Kernels write it into a word of mapped host memory,
// one per CUDA worker, 0 between tasks; hyla_cl_cuda_info_word fails seq
// and returns NULL if it cannot be had.
// hyla_cl_cuda_end_info ends the codelet as hyla_cl_cuda_end, then queues
// a host function behind the work on the StarPU stream that reports a
// non-zero word to seq as info and resets it, before the task counts as
// done; rc, or a failure to do so, fails seq.
int *hyla_cl_cuda_info_word(hyla_seq_t *seq);
void hyla_cl_cuda_end_info(const hyla_cl_cuda_t *c, int rc, hyla_seq_t *seq,
                           int *word);

// Device memory of `bytes` (at most 1 MiB) per CUDA worker, zero when
// first given, kept for the process; NULL if it cannot be had.
void *hyla_cl_cuda_workspace(size_t bytes);

// Device memory of HYLA_CL_CUDA_STAGING bytes per CUDA worker, of no
// particular contents, kept for the process (transfers between host
// matrices and tiles go through it); NULL if it cannot be had.
enum { HYLA_CL_CUDA_STAGING = 4 << 20 };
void *hyla_cl_cuda_staging(void);
#else
// Without GPU codelets the CUDA function is never named.
#define HYLA_CUDA_FIELDS(fn)
#endif

// A codelet with a fixed list of buffers and their access modes, and a
// history-based performance model named after it.  cuda_fn is its CUDA
// implementation, or NULL for a CPU-only codelet.
#define HYLA_CODELET(id, cpu_fn, cuda_fn, nbuf, ...)                           \
    static struct starpu_perfmodel id##_model = {.type = STARPU_HISTORY_BASED, \
                                                 .symbol = "hyla_" #id};       \
    static struct starpu_codelet cl_##id = {                                   \
        .cpu_funcs = {cpu_fn},                                                 \
        HYLA_CUDA_FIELDS(cuda_fn).nbuffers = (nbuf),                           \
        .modes = {__VA_ARGS__},                                                \
        .model = &id##_model,                                                  \
        .name = #id}

// A codelet whose buffers and modes are given per task.
#define HYLA_CODELET_VARIADIC(id, cpu_fn, cuda_fn)                             \
    static struct starpu_perfmodel id##_model = {.type = STARPU_HISTORY_BASED, \
                                                 .symbol = "hyla_" #id};       \
    static struct starpu_codelet cl_##id = {                                   \
        .cpu_funcs = {cpu_fn},                                                 \
        HYLA_CUDA_FIELDS(cuda_fn).nbuffers = STARPU_VARIABLE_NBUFFERS,         \
        .model = &id##_model,                                                  \
        .name = #id}

// Arguments of one task, freed by StarPU; NULL (and the sequence failed)
// when out of memory.
static inline void *hyla_cl_args(const hyla_task_opts_t *o, size_t size)
{
    void *a = malloc(size);
    if (!a) hyla_rt_seq_fail(o->seq, HYLA_ERR_OUT_OF_MEMORY);
    return a;
}

// Tile dimensions and pointers inside a codelet.
#define HYLA_TILE_PTR(buf)  ((void *)STARPU_MATRIX_GET_PTR(buf))
#define HYLA_TILE_ROWS(buf) ((int)STARPU_MATRIX_GET_NY(buf))
#define HYLA_TILE_COLS(buf) ((int)STARPU_MATRIX_GET_NX(buf))
#define HYLA_TILE_LD(buf)   ((int)STARPU_MATRIX_GET_LD(buf))

#endif // HYLA_CODELETS_CODELETS_H

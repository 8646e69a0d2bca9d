// SPDX-License-Identifier: BSD-3-Clause
// StarPU side of the runtime: handles, task insertion and accounting.
// Included by the glue files of runtime/ and by codelets/ only.
#ifndef HYLA_RUNTIME_GLUE_H
#define HYLA_RUNTIME_GLUE_H

#include "runtime.h"
#include <starpu.h>
#if HYLA_HAVE_MPI
#include <starpu_mpi.h>
#endif

static inline starpu_data_handle_t hyla_rt_tile(const hyla_desc_t *A, int m,
                                                int n)
{
    return (starpu_data_handle_t)A->handles[m + (size_t)n * A->mt];
}

static inline starpu_data_handle_t hyla_rt_pivot(const hyla_pivots_t *P, int k)
{
    return (starpu_data_handle_t)P->handles[k];
}

// Number of descriptors not yet destroyed.
int hyla_rt_live_descs(void);
// Free the block kept for the next tile matrix.
void hyla_rt_tiles_cache_release(void);

// CPU workers of the running StarPU.
int hyla_rt_cpu_workers(void);

// The worker a panel of ntiles tiles runs on: a combined worker of
// min(panel_threads, ntiles) CPU workers chosen for locality, or -1 (any
// worker, as the scheduler decides) for a single thread.
int hyla_rt_panel_worker(int ntiles);

// Where a task of codelet cl may run (a StarPU where mask): in native mode
// on the GPUs whenever cl has a GPU implementation; else wherever cl can.
unsigned long long hyla_rt_where(const struct starpu_codelet *cl);
// Where an LU panel runs: the GPUs in native mode, else the CPUs.
unsigned long long hyla_rt_panel_where(void);

// Build the combined workers for parallel panels; called by hyla_init.
int hyla_rt_panel_workers_init(int panel_threads);
// Panel threads in force (panel_threads capped by the CPU workers).
int hyla_rt_panel_threads(void);
// One line on the workers and the panel cores.
const char *hyla_rt_topology(void);

// Tracing: whether it is on; record a finished task; free the records.
int hyla_rt_tracing(void);
void hyla_rt_trace_task(struct starpu_task *task);
void hyla_rt_trace_release(void);

// Task accounting: every task carries its sequence, which counts it.
void hyla_rt_seq_task_added(hyla_seq_t *seq);
void hyla_rt_seq_task_done(void *seq);
void hyla_rt_seq_insert_result(hyla_seq_t *seq, int ret);

// GPUs: find them (returns how many) after starpu_init; streams per GPU.
int hyla_rt_gpus_init(void);
int hyla_rt_gpu_streams(void);
// Workers allowed to run a task of codelet cl with options o (its owner,
// its stream role; see hyla_task_opts_t): a bit mask of *len words, or
// NULL and *len = 0 for any worker.
const uint32_t *hyla_rt_owner_mask(const struct starpu_codelet *cl,
                                   const hyla_task_opts_t *o, unsigned *len);

// Clamp a priority into the scheduler's range.
int hyla_rt_priority(int priority);

// StarPU, with StarPU-MPI when hyla_mpi_init() starts it.
int hyla_rt_starpu_start(struct starpu_conf *conf);
void hyla_rt_starpu_stop(void);
// After hyla_finalize (or a failed hyla_mpi_init): no more MPI.
void hyla_rt_mpi_release(void);

// Insert a task of codelet cl for options o, then the task_insert
// arguments, which start with STARPU_CL_ARGS.  The task is counted in
// o->seq and signals it when done.  On a distributed call every process
// inserts it; the one that owns the tiles it writes runs it, the others
// send it the tiles it reads.
#define HYLA_TASK_INSERT_ARGS(o, cl, ...)                                      \
    (cl), STARPU_CALLBACK_WITH_ARG_NFREE, hyla_rt_seq_task_done,               \
        (void *)(o)->seq, STARPU_EXECUTE_WHERE, hyla_rt_where(cl),             \
        STARPU_PRIORITY, hyla_rt_priority((o)->priority),                      \
        STARPU_TASK_WORKERIDS, hyla_len_, (uint32_t *)hyla_mask_, __VA_ARGS__, \
        0

#define HYLA_TASK_INSERT_LOCAL(o, cl, ...)                                     \
    do {                                                                       \
        hyla_rt_seq_task_added((o)->seq);                                      \
        unsigned hyla_len_;                                                    \
        const uint32_t *hyla_mask_ =                                           \
            hyla_rt_owner_mask((cl), (o), &hyla_len_);                         \
        int hyla_ret_ =                                                        \
            starpu_task_insert(HYLA_TASK_INSERT_ARGS(o, cl, __VA_ARGS__));     \
        hyla_rt_seq_insert_result((o)->seq, hyla_ret_);                        \
    } while (0)

#if HYLA_HAVE_MPI
MPI_Comm hyla_rt_mpi_comm(void);
void hyla_rt_mpi_register(starpu_data_handle_t h, long long tag, int owner);
// Frees the STARPU_CL_ARGS block of a task this process does not run.
void hyla_rt_mpi_not_run(int first, ...);

#define HYLA_TASK_INSERT_MPI(o, cl, ...)                                       \
    do {                                                                       \
        unsigned hyla_len_;                                                    \
        const uint32_t *hyla_mask_ =                                           \
            hyla_rt_owner_mask((cl), (o), &hyla_len_);                         \
        struct starpu_task *hyla_task_ = starpu_mpi_task_build(                \
            hyla_rt_mpi_comm(), HYLA_TASK_INSERT_ARGS(o, cl, __VA_ARGS__));    \
        if (hyla_task_) {                                                      \
            hyla_rt_seq_task_added((o)->seq);                                  \
            hyla_rt_seq_insert_result((o)->seq,                                \
                                      starpu_task_submit(hyla_task_));         \
        } else {                                                               \
            hyla_rt_mpi_not_run(__VA_ARGS__);                                  \
        }                                                                      \
        starpu_mpi_task_post_build(hyla_rt_mpi_comm(),                         \
                                   HYLA_TASK_INSERT_ARGS(o, cl, __VA_ARGS__)); \
    } while (0)

#define HYLA_TASK_INSERT(o, cl, ...)                                           \
    do {                                                                       \
        if ((o)->seq->dist)                                                    \
            HYLA_TASK_INSERT_MPI(o, cl, __VA_ARGS__);                          \
        else                                                                   \
            HYLA_TASK_INSERT_LOCAL(o, cl, __VA_ARGS__);                        \
    } while (0)
#else
#define HYLA_TASK_INSERT(o, cl, ...) HYLA_TASK_INSERT_LOCAL(o, cl, __VA_ARGS__)
#endif

#endif // HYLA_RUNTIME_GLUE_H

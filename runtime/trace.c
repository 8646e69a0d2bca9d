// SPDX-License-Identifier: BSD-3-Clause
// Task traces: for each task, its kind, worker, start and end, and the
// time its worker waited for the task's data to arrive ("data wait":
// transfers that were not overlapped), written as Chrome / Perfetto
// trace-event JSON.  Off by default; when off the cost is one relaxed load
// per task.
#include "glue.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const char *name;  // the codelet's name (static storage)
    const char *cat;   // "task" or "transfer"
    int worker;        // a basic or a combined worker
    double start, end; // microseconds since hyla_trace_start()
} event_t;

static struct {
    int on;
    pthread_mutex_t lock;
    event_t *ev;
    size_t n, cap;
    double t0; // microseconds on StarPU's profiling clock
} tr = {.lock = PTHREAD_MUTEX_INITIALIZER};

int hyla_rt_tracing(void)
{
    return __atomic_load_n(&tr.on, __ATOMIC_RELAXED);
}

static void add(const event_t *e)
{
    pthread_mutex_lock(&tr.lock);
    if (tr.n == tr.cap) {
        size_t cap = tr.cap ? 2 * tr.cap : 4096;
        event_t *ev = realloc(tr.ev, cap * sizeof *ev);
        if (!ev) {
            pthread_mutex_unlock(&tr.lock);
            return; // the trace loses this event; the computation goes on
        }
        tr.ev = ev;
        tr.cap = cap;
    }
    tr.ev[tr.n++] = *e;
    pthread_mutex_unlock(&tr.lock);
}

void hyla_rt_trace_task(struct starpu_task *task)
{
    struct starpu_profiling_task_info *info = task ? task->profiling_info : 0;
    if (!info || !task->cl) return;
    // A task sent to a combined worker shows on all of its members.
    int worker = task->execute_on_a_specific_worker ? (int)task->workerid
                                                    : info->workerid;
    struct timespec *a0 = &info->acquire_data_start_time,
                    *a1 = &info->acquire_data_end_time;
    double wait0 = starpu_timing_timespec_to_us(a0) - tr.t0;
    double wait1 = starpu_timing_timespec_to_us(a1) - tr.t0;
    // Waits under 10 us (data already there, bookkeeping) are left out.
    if ((a0->tv_sec || a0->tv_nsec) && wait1 - wait0 >= 10.0)
        add(&(event_t){"data wait", "transfer", worker, wait0, wait1});
    add(&(event_t){task->cl->name ? task->cl->name : "task", "task", worker,
                   starpu_timing_timespec_to_us(&info->start_time) - tr.t0,
                   starpu_timing_timespec_to_us(&info->end_time) - tr.t0});
}

HYLA_EXPORT int hyla_trace_start(void)
{
    int rc = hyla_rt_check_init("hyla_trace_start");
    if (rc) return rc;
    starpu_profiling_status_set(STARPU_PROFILING_ENABLE);
    pthread_mutex_lock(&tr.lock);
    tr.n = 0;
    tr.t0 = starpu_timing_now();
    pthread_mutex_unlock(&tr.lock);
    __atomic_store_n(&tr.on, 1, __ATOMIC_RELAXED);
    return HYLA_SUCCESS;
}

HYLA_EXPORT int hyla_trace_stop(void)
{
    int rc = hyla_rt_check_init("hyla_trace_stop");
    if (rc) return rc;
    __atomic_store_n(&tr.on, 0, __ATOMIC_RELAXED);
    starpu_profiling_status_set(STARPU_PROFILING_DISABLE);
    return HYLA_SUCCESS;
}

// One "X" (complete) event per task and worker: a task of a combined
// worker shows on each of its members.
static void write_event(FILE *f, const event_t *e, int worker, int *first)
{
    fprintf(f,
            "%s\n{\"name\":\"%s\",\"cat\":\"%s\",\"ph\":\"X\",\"pid\":0,"
            "\"tid\":%d,\"ts\":%.3f,\"dur\":%.3f}",
            *first ? "" : ",", e->name, e->cat, worker, e->start,
            e->end - e->start);
    *first = 0;
}

HYLA_EXPORT int hyla_trace_write(const char *path)
{
    int rc = hyla_rt_check_init("hyla_trace_write");
    if (rc) return rc;
    if (!path) return hyla_rt_error(-1, "hyla_trace_write: path is NULL");
    FILE *f = fopen(path, "w");
    if (!f) return hyla_rt_error(-1, "hyla_trace_write: cannot open %s", path);
    int first = 1;
    fprintf(f, "{\"displayTimeUnit\":\"ms\",\"traceEvents\":[");
    unsigned nworkers = starpu_worker_get_count();
    for (unsigned w = 0; w < nworkers; w++) {
        char name[64];
        starpu_worker_get_name((int)w, name, sizeof name);
        fprintf(f,
                "%s\n{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":0,"
                "\"tid\":%u,\"args\":{\"name\":\"%s\"}}",
                first ? "" : ",", w, name);
        first = 0;
    }
    pthread_mutex_lock(&tr.lock);
    for (size_t i = 0; i < tr.n; i++) {
        const event_t *e = &tr.ev[i];
        int size = 1, *members = NULL;
        if (e->worker >= (int)nworkers &&
            !starpu_combined_worker_get_description(e->worker, &size, &members))
            for (int m = 0; m < size; m++)
                write_event(f, e, members[m], &first);
        else
            write_event(f, e, e->worker, &first);
    }
    pthread_mutex_unlock(&tr.lock);
    fprintf(f, "\n]}\n");
    int bad = ferror(f);
    if (fclose(f) || bad)
        return hyla_rt_error(-1, "hyla_trace_write: cannot write %s", path);
    return HYLA_SUCCESS;
}

void hyla_rt_trace_release(void)
{
    pthread_mutex_lock(&tr.lock);
    free(tr.ev);
    tr.ev = NULL;
    tr.n = tr.cap = 0;
    tr.on = 0;
    pthread_mutex_unlock(&tr.lock);
}

// SPDX-License-Identifier: BSD-3-Clause
// Sequences: count the tasks of one call, keep its first error and info.
#include "glue.h"

void hyla_rt_seq_init(hyla_seq_t *seq, int stop_on_info)
{
    pthread_mutex_init(&seq->lock, NULL);
    pthread_cond_init(&seq->done, NULL);
    seq->pending = 0;
    seq->status = 0;
    seq->info = 0;
    seq->stop_on_info = stop_on_info;
    seq->dist = 0;
    seq->partials = NULL;
}

void hyla_rt_seq_init_on(hyla_seq_t *seq, int stop_on_info,
                         const hyla_desc_t *A)
{
    hyla_rt_seq_init(seq, stop_on_info);
    seq->dist = A->dist;
}

int hyla_rt_seq_wait(hyla_seq_t *seq)
{
    pthread_mutex_lock(&seq->lock);
    while (seq->pending > 0)
        pthread_cond_wait(&seq->done, &seq->lock);
    pthread_mutex_unlock(&seq->lock);
    pthread_cond_destroy(&seq->done);
    pthread_mutex_destroy(&seq->lock);
    int status = __atomic_load_n(&seq->status, __ATOMIC_ACQUIRE);
    int info = __atomic_load_n(&seq->info, __ATOMIC_ACQUIRE);
    // A distributed call's transfers are over once the reduction returns.
    int rc = seq->dist ? hyla_rt_mpi_reduce(status, info)
             : status  ? status
                       : info;
    hyla_rt_partials_release(seq);
    return rc;
}

void hyla_rt_seq_fail(hyla_seq_t *seq, int status)
{
    int expected = 0;
    __atomic_compare_exchange_n(&seq->status, &expected, status, 0,
                                __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
}

// info is the smallest positive value reported: the first failing column.
void hyla_rt_seq_info(hyla_seq_t *seq, int info)
{
    int cur = __atomic_load_n(&seq->info, __ATOMIC_ACQUIRE);
    while ((cur == 0 || info < cur) &&
           !__atomic_compare_exchange_n(&seq->info, &cur, info, 0,
                                        __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
        ;
}

int hyla_rt_seq_failed(const hyla_seq_t *seq)
{
    return __atomic_load_n(&seq->status, __ATOMIC_ACQUIRE) != 0;
}

int hyla_rt_seq_skip(const hyla_seq_t *seq)
{
    if (hyla_rt_seq_failed(seq)) return 1;
    return seq->stop_on_info && __atomic_load_n(&seq->info, __ATOMIC_ACQUIRE);
}

void hyla_rt_seq_task_added(hyla_seq_t *seq)
{
    pthread_mutex_lock(&seq->lock);
    seq->pending++;
    pthread_mutex_unlock(&seq->lock);
}

void hyla_rt_seq_task_done(void *arg)
{
    hyla_seq_t *seq = arg;
    if (hyla_rt_tracing()) hyla_rt_trace_task(starpu_task_get_current());
    pthread_mutex_lock(&seq->lock);
    if (--seq->pending == 0) pthread_cond_broadcast(&seq->done);
    pthread_mutex_unlock(&seq->lock);
}

void hyla_rt_seq_insert_result(hyla_seq_t *seq, int ret)
{
    if (ret == 0) return;
    // The task was not submitted: its callback will never run.
    hyla_rt_seq_fail(seq,
                     ret == -ENODEV ? HYLA_ERR_NO_WORKER : HYLA_ERR_RUNTIME);
    hyla_rt_seq_task_done(seq);
}

int hyla_rt_priority(int priority)
{
    int lo = starpu_sched_get_min_priority();
    int hi = starpu_sched_get_max_priority();
    return priority < lo ? lo : priority > hi ? hi : priority;
}

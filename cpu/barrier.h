// SPDX-License-Identifier: BSD-3-Clause
// A spinning barrier for the threads of one parallel kernel: one atomic
// increment per arrival, no mutex, no system call on the fast path.
#ifndef HYLA_CPU_BARRIER_H
#define HYLA_CPU_BARRIER_H

#include <sched.h>

typedef struct hyla_barrier {
    int count;    // arrivals in the current round
    int sense;    // flips when a round completes
    int nthreads; // threads taking part
} hyla_barrier_t;

static inline void hyla_barrier_init(hyla_barrier_t *b, int nthreads)
{
    b->count = 0;
    b->sense = 0;
    b->nthreads = nthreads;
}

static inline void hyla_cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

// Wait until all nthreads threads have arrived.  *local_sense belongs to
// the calling thread and starts at 0.  Stores before the barrier are seen
// by every thread after it (release on arrival, acquire on departure).
static inline void hyla_barrier_wait(hyla_barrier_t *b, int *local_sense)
{
    int s = !*local_sense;
    *local_sense = s;
    if (b->nthreads == 1)
        return;
    if (__atomic_add_fetch(&b->count, 1, __ATOMIC_ACQ_REL) == b->nthreads) {
        __atomic_store_n(&b->count, 0, __ATOMIC_RELAXED);
        __atomic_store_n(&b->sense, s, __ATOMIC_RELEASE);
        return;
    }
    // Spin briefly, then yield: a thread descheduled while the others spin
    // would otherwise stall the whole round.
    for (unsigned spins = 0;
         __atomic_load_n(&b->sense, __ATOMIC_ACQUIRE) != s; spins++) {
        if (spins < 4096)
            hyla_cpu_relax();
        else
            sched_yield();
    }
}

#endif // HYLA_CPU_BARRIER_H

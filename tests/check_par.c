// SPDX-License-Identifier: BSD-3-Clause
// Loops over the machine's cores (check_par.h).
#include "check_par.h"

#include <pthread.h>
#include <string.h>
#include <unistd.h>

enum { MAX_THREADS = 64 };

typedef struct {
    size_t lo, hi;
    void (*f)(size_t, size_t, void *);
    void *arg;
} slice_t;

static void *slice_run(void *p)
{
    slice_t *s = p;
    s->f(s->lo, s->hi, s->arg);
    return NULL;
}

void hyla_check_parallel(size_t n, size_t grain,
                         void (*f)(size_t lo, size_t hi, void *arg), void *arg)
{
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    size_t nt = cores > MAX_THREADS ? MAX_THREADS
                : cores > 1         ? (size_t)cores
                                    : 1;
    if (grain < 1) grain = 1;
    if (nt > n / grain) nt = n / grain;
    if (nt < 2) {
        f(0, n, arg);
        return;
    }
    pthread_t tid[MAX_THREADS];
    slice_t s[MAX_THREADS];
    int started[MAX_THREADS];
    for (size_t t = 0; t < nt; t++) {
        s[t] = (slice_t){n * t / nt, n * (t + 1) / nt, f, arg};
        started[t] = t > 0 && !pthread_create(&tid[t], NULL, slice_run, &s[t]);
    }
    // The first slice here, and any whose thread did not start.
    for (size_t t = 0; t < nt; t++)
        if (!started[t]) slice_run(&s[t]);
    for (size_t t = 1; t < nt; t++)
        if (started[t]) pthread_join(tid[t], NULL);
}

typedef struct {
    char *dst;
    const char *src;
} copy_t;

static void copy_slice(size_t lo, size_t hi, void *arg)
{
    copy_t *c = arg;
    memcpy(c->dst + lo, c->src + lo, hi - lo);
}

void hyla_check_memcpy(void *dst, const void *src, size_t bytes)
{
    copy_t c = {dst, src};
    hyla_check_parallel(bytes, (size_t)64 << 20, copy_slice, &c);
}

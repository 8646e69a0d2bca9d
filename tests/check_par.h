// SPDX-License-Identifier: BSD-3-Clause
// Loops over the machine's cores, for the large matrices that the tests
// and the benchmark driver build and copy (at n = 65536 one thread took
// about a minute to fill one).
#ifndef HYLA_TESTS_CHECK_PAR_H
#define HYLA_TESTS_CHECK_PAR_H

#include <stddef.h>

// Calls f(lo, hi, arg) on slices [lo, hi) that together cover [0, n) once,
// each slice on its own thread, as many as the online cores (at most 64)
// and no slice below `grain` items; a single call on [0, n) when n is
// below 2 grains or no thread starts.  f must be safe to run on disjoint
// slices at once.
void hyla_check_parallel(size_t n, size_t grain,
                         void (*f)(size_t lo, size_t hi, void *arg), void *arg);

// memcpy(dst, src, bytes) over the cores for large copies.
void hyla_check_memcpy(void *dst, const void *src, size_t bytes);

#endif

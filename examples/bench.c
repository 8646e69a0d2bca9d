// SPDX-License-Identifier: BSD-3-Clause
// hyla-bench helpers shared by both precisions.
#include "bench.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

double bench_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + 1e-9 * t.tv_nsec;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

void bench_summarize(seconds_t *t, int count, bench_result_t *r)
{
    qsort(t, count, sizeof *t, cmp);
    r->t_min = t[0];
    r->t_median =
        count % 2 ? t[count / 2] : 0.5 * (t[count / 2 - 1] + t[count / 2]);
}

double bench_flops(const bench_case_t *c)
{
    double n = c->n, solve = 2.0 * n * n * c->nrhs;
    if (!strcmp(c->routine, "getrf")) {
        // LAPACK's count for m x n, k = min(m, n): 2n^3/3 when square
        double m = c->m, k = m < n ? m : n;
        return 2.0 * (m * n * k - (m + n) * k * k / 2.0 + k * k * k / 3.0);
    }
    if (!strcmp(c->routine, "potrf")) return n * n * n / 3.0;
    if (!strcmp(c->routine, "gesv") || !strcmp(c->routine, "gesv_rbt"))
        return 2.0 / 3.0 * n * n * n + solve; // refinement steps not counted
    return n * n * n / 3.0 + solve;
}

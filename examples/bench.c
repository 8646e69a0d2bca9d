// SPDX-License-Identifier: BSD-3-Clause
// hyla-bench helpers shared by both precisions.
#include "bench.h"

#include <hyla.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int bench_is_batched(const char *routine)
{
    size_t len = strlen(routine);
    return len >= 8 && !strcmp(routine + len - 8, "_batched");
}

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

int bench_batch_size(const bench_case_t *c)
{
    if (c->batch > 0) return c->batch;
    long long nn = (long long)c->n * c->n;
    if (nn < 1) nn = 1;
    if (c->ref && !strcmp(c->ref, "cublas"))
        return c->n <= 32 ? 1 << 20 : (int)((1LL << 28) / nn);
    long long b = (1LL << 24) / nn;
    return b < 1 ? 1 : b > 1 << 20 ? 1 << 20 : (int)b;
}

double bench_flops(const bench_case_t *c)
{
    double n = c->n, solve = 2.0 * n * n * c->nrhs;
    // LAPACK's counts per matrix: 2n^3/3 for the LU, 2n^3 for the LU and
    // the inverse after it.
    if (!strcmp(c->routine, "getrf_batched"))
        return bench_batch_size(c) * (2.0 / 3.0 * n * n * n);
    if (!strcmp(c->routine, "getri_batched"))
        return bench_batch_size(c) * (2.0 * n * n * n);
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

void bench_trace_write(const char *files)
{
    char path[4096];
    for (const char *p = files; *p;) {
        size_t len = strcspn(p, ",");
        snprintf(path, sizeof path, "%.*s", (int)len, p);
        if (len && hyla_trace_write(path))
            fprintf(stderr, "hyla-bench: %s\n", hyla_error_detail());
        p += len + (p[len] == ',');
    }
}

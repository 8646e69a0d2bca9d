// SPDX-License-Identifier: BSD-3-Clause
// hyla_init numbers the performance-model architecture of every StarPU
// worker, combined workers included, before any task runs: StarPU 1.4
// otherwise sizes a model's table before it knows the combined workers and
// writes past its end when a combined worker comes after the GPUs
// (runtime/workers.c).  Then an LU whose panels take every combined worker,
// with its residual ||PA - LU|| / (||A|| n eps) and info 0.  In every
// build on 4 CPU workers with panels of up to 4 threads; in the gpu suite
// in hybrid mode on 2 GPUs, every core a worker and panels of up to 8
// threads, where the LU crashed before the numbering.
#include "check.h"
#include "harness.h"

#include <hyla.h>
#include <starpu.h>
#include <stdlib.h>
#include <string.h>

static void numbered(void)
{
    int n = (int)(starpu_worker_get_count() +
                  starpu_combined_worker_get_count());
    int combined = (int)starpu_combined_worker_get_count();
    th_check(combined >= 1, "combined workers: %d, want at least 1",
             combined);
    for (int w = 0; w < n; w++) {
        struct starpu_perfmodel_arch *a =
            starpu_worker_get_perf_archtype(w, STARPU_NMAX_SCHED_CTXS);
        int comb = starpu_perfmodel_arch_comb_get(a->ndevices, a->devices);
        th_check(comb >= 0, "worker %d (%s): architecture not numbered", w,
                 w < (int)starpu_worker_get_count() ? "basic" : "combined");
    }
}

static void lu(int n, int nb, int seed)
{
    double *A = malloc(sizeof(double) * n * n);
    double *F = malloc(sizeof(double) * n * n);
    int *ipiv = malloc(sizeof(int) * n);
    hyla_check_dgen(n, n, A, n, seed);
    memcpy(F, A, sizeof(double) * n * n);
    th_tic();
    int info = hyla_dgetrf(n, n, F, n, ipiv);
    double t = th_toc();
    double resid = info ? 0.0 : hyla_check_dresid_getrf(n, n, A, n, F, n, ipiv);
    th_row("dgetrf", n, n, nb, t, 2.0 * n * n * n / 3.0, resid,
           info == 0 && resid <= HYLA_CHECK_TOL, "panels on combined workers");
    free(A);
    free(F);
    free(ipiv);
}

int main(void)
{
    th_begin("performance-model architectures of the workers");
    int gpus = th_gpus() > 0;
    const int nb = 128, threads = gpus ? 8 : 4;
    th_init_panel(gpus ? -1 : 4, nb, 1, threads);
    numbered();
    // Panels of threads, threads - 1, ..., 2 threads, then one.
    lu(threads * nb + nb / 2, nb, 1);
    lu(3 * threads * nb, nb, 2);
    th_finalize();
    return th_end();
}

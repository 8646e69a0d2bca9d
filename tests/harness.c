// SPDX-License-Identifier: BSD-3-Clause
// Test harness.
#include "harness.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static struct {
    int pass, fail, skip;
    int ncpus, la;
} th;

double th_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + 1e-9 * t.tv_nsec;
}

static double tic;

void th_tic(void)
{
    tic = th_now();
}

double th_toc(void)
{
    return th_now() - tic;
}

int th_gpu_probe(void)
{
    // Once: the MPI tests probe before MPI starts, then call th_begin.
    // In a child: a process that started CUDA cannot use it in the
    // children it forks (the argument tests fork), so the parent must not
    // start it.
    static int probed = -1;
    if (probed >= 0) return probed;
    if (!th_gpus()) return probed = 0;
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        th_init(1, 64, 1);
        hyla_finalize();
        _exit(0);
    }
    int status = 0;
    if (pid < 0 || waitpid(pid, &status, 0) < 0 || !WIFEXITED(status))
        return probed = 1;
    return probed = WEXITSTATUS(status);
}

void th_begin(const char *suite)
{
    // The gpu suite: find out first whether there are GPUs enough, so that
    // no case runs half-way.
    int probe = th_gpu_probe();
    if (probe) exit(probe);
    printf("# %s\n", suite);
    printf("%% %-14s %6s %6s %4s %3s %4s %9s %8s %10s  %s\n", "routine", "m",
           "n", "nb", "la", "ncpu", "seconds", "gflops", "residual", "status");
}

int th_end(void)
{
    printf("%d passed, %d failed, %d skipped\n", th.pass, th.fail, th.skip);
    if (th.fail) return 1;
    return th.pass ? 0 : 77;
}

int th_gpus(void)
{
    const char *s = getenv("HYLA_TEST_GPUS");
    return s ? atoi(s) : 0;
}

void th_init(int ncpus, int nb, int la)
{
    th_init_panel(ncpus, nb, la, 1);
}

void th_config_gpus(hyla_config_t *cfg)
{
    const char *mode = getenv("HYLA_TEST_MODE");
    cfg->ngpus = th_gpus();
    cfg->mode = !cfg->ngpus                       ? HYLA_MODE_CPU
                : mode && !strcmp(mode, "native") ? HYLA_MODE_NATIVE
                                                  : HYLA_MODE_HYBRID;
}

void th_init_panel(int ncpus, int nb, int la, int panel_threads)
{
    hyla_config_t cfg;
    hyla_config_init(&cfg);
    cfg.ncpus = ncpus;
    cfg.nb = nb;
    cfg.lookahead = la;
    cfg.panel_threads = panel_threads;
    // The cpu suite runs on CPU workers on any machine; the gpu suite
    // (HYLA_TEST_GPUS=N, set by meson) on exactly N GPUs, in hybrid mode
    // or in native mode with HYLA_TEST_MODE=native, and is skipped where
    // there are fewer.
    th_config_gpus(&cfg);
    int gpus = cfg.ngpus;
    int rc = hyla_init(&cfg);
    hyla_config_t got;
    if (gpus && (rc == HYLA_ERR_NOT_SUPPORTED ||
                 (rc == 0 && !hyla_config_get(&got) && got.ngpus < gpus))) {
        printf("SKIP %d GPU%s wanted: %s\n", gpus, gpus > 1 ? "s" : "",
               rc ? hyla_error_detail() : "fewer found");
        exit(77);
    }
    if (rc) {
        printf("FAIL hyla_init: %d (%s) %s\n", rc, hyla_strerror(rc),
               hyla_error_detail());
        exit(1);
    }
    th.ncpus = ncpus;
    th.la = la;
}

void th_finalize(void)
{
    int rc = hyla_finalize();
    th_check(rc == 0, "hyla_finalize: %d (%s) %s", rc, hyla_strerror(rc),
             hyla_error_detail());
}

void th_row(const char *routine, int m, int n, int nb, double seconds,
            double flops, double resid, int ok, const char *note)
{
    double gflops = seconds > 0 ? flops / seconds * 1e-9 : 0.0;
    printf("  %-14s %6d %6d %4d %3d %4d %9.4f %8.2f %10.2e  %s%s%s\n", routine,
           m, n, nb, th.la, th.ncpus, seconds, gflops, resid,
           ok ? "ok" : "FAILED", note && *note ? " " : "", note ? note : "");
    if (ok)
        th.pass++;
    else
        th.fail++;
}

int th_check(int ok, const char *fmt, ...)
{
    if (ok) {
        th.pass++;
        return 1;
    }
    th.fail++;
    va_list ap;
    va_start(ap, fmt);
    printf("FAIL ");
    vprintf(fmt, ap);
    printf("\n");
    va_end(ap);
    return 0;
}

int th_status(int got, int want, const char *call, const char *file, int line)
{
    return th_check(got == want, "%s:%d: %s returned %d (%s), expected %d (%s)",
                    file, line, call, got, hyla_strerror(got), want,
                    hyla_strerror(want));
}

void th_counts(int counts[3])
{
    counts[0] = th.pass;
    counts[1] = th.fail;
    counts[2] = th.skip;
}

void th_add_counts(const int counts[3])
{
    th.pass += counts[0];
    th.fail += counts[1];
    th.skip += counts[2];
}

void th_skip(const char *why)
{
    th.skip++;
    printf("SKIP %s\n", why);
}

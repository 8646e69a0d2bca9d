// SPDX-License-Identifier: BSD-3-Clause
// Task traces: what hyla_trace_write() writes, and when it fails.
#include "check.h"
#include "harness.h"

#include <hyla.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

// After hyla_trace_start(), an LU in tiles of 64 on 2 CPU workers: the
// file is a trace-event JSON object with one thread_name row per worker
// and one complete ("X") event per task, at least as many dgemm and
// dgetrf_panel events as the tile loop inserts, events only of the
// categories "task" and "transfer", every task naming its tiles (the
// first step's update of tile (1,1) as "(1,0)R (0,1)R (1,1)RW", the first
// panel as its tile column, three tiles and how many more), and no event
// with a negative start or duration; the same records as an SVG timeline
// (a path ending in .svg): an svg element with a row per worker and a box
// per event; after hyla_trace_stop() a second LU adds nothing; a NULL or
// unwritable path gives -1 with a detail, and calls before hyla_init()
// give HYLA_ERR_NOT_INITIALIZED.

// The file's contents (NUL-terminated), or NULL.
static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    rewind(f);
    char *s = malloc(size + 1);
    if (s && fread(s, 1, size, f) != (size_t)size) {
        free(s);
        s = NULL;
    }
    if (s) s[size] = '\0';
    fclose(f);
    return s;
}

static int count(const char *s, const char *what)
{
    int n = 0;
    for (const char *p = s; (p = strstr(p, what)); p += strlen(what))
        n++;
    return n;
}

// Events with a negative "ts" or "dur".
static int negative_times(const char *s)
{
    int bad = 0;
    for (const char *p = s; (p = strstr(p, "\"ts\":")); p++) {
        double ts = atof(p + 5);
        const char *d = strstr(p, "\"dur\":");
        if (ts < 0 || (d && atof(d + 6) < 0)) bad++;
    }
    return bad;
}

static int factor(int n, int seed)
{
    double *A = malloc(sizeof(double) * n * n);
    int *ipiv = malloc(sizeof(int) * n);
    hyla_check_dgen(n, n, A, n, seed);
    int info = hyla_dgetrf(n, n, A, n, ipiv);
    free(A);
    free(ipiv);
    return info;
}

int main(void)
{
    th_begin("task traces");
    TH_STATUS(hyla_trace_start(), HYLA_ERR_NOT_INITIALIZED);
    TH_STATUS(hyla_trace_write("/dev/null"), HYLA_ERR_NOT_INITIALIZED);

    const int n = 300, nb = 64, nt = (n + nb - 1) / nb;
    th_init(2, nb, 1);
    hyla_config_t got;
    TH_STATUS(hyla_config_get(&got), 0);
    char path[] = "/tmp/hyla-trace-XXXXXX";
    int fd = mkstemp(path);
    th_check(fd >= 0, "mkstemp");
    if (fd >= 0) close(fd);

    TH_STATUS(hyla_trace_start(), 0);
    TH_STATUS(factor(n, 1), 0);
    TH_STATUS(hyla_trace_stop(), 0);
    TH_STATUS(hyla_trace_write(path), 0);
    char *s = slurp(path);
    th_check(s != NULL, "read %s back", path);
    if (s) {
        // Tile LU: nt panels; GEMMs: sum over k of (nt-1-k)^2.
        int gemms = 0;
        for (int k = 0; k < nt; k++)
            gemms += (nt - 1 - k) * (nt - 1 - k);
        int events = count(s, "\"ph\":\"X\"");
        int tasks = count(s, "\"cat\":\"task\"");
        int transfers = count(s, "\"cat\":\"transfer\"");
        th_check(
            !strncmp(s, "{\"displayTimeUnit\":\"ms\",\"traceEvents\":[", 39) &&
                strstr(s, "\n]}\n") != NULL,
            "JSON object with traceEvents");
        // A row a worker: the CPU workers (one in native mode), and with
        // the GPUs of HYLA_TEST_GPUS at least one more a GPU (a stream
        // each).
        int rows = count(s, "\"thread_name\"");
        th_check(th_gpus() ? rows >= got.ncpus + th_gpus() : rows == 2,
                 "worker rows: %d for %d CPU workers and %d GPUs", rows,
                 got.ncpus, th_gpus());
        th_check(count(s, "\"name\":\"dgemm\"") >= gemms,
                 "dgemm events %d >= %d", count(s, "\"name\":\"dgemm\""),
                 gemms);
        th_check(count(s, "\"name\":\"dgetrf_panel\"") >= nt,
                 "panel events %d >= %d", count(s, "\"name\":\"dgetrf_panel\""),
                 nt);
        th_check(events == tasks + transfers && tasks > 0,
                 "%d events: %d tasks + %d transfers", events, tasks,
                 transfers);
        th_check(negative_times(s) == 0, "negative times: %d",
                 negative_times(s));
        th_check(count(s, "\"tiles\":\"(") == tasks,
                 "tasks naming their tiles: %d of %d",
                 count(s, "\"tiles\":\"("), tasks);
        th_check(strstr(s, "\"tiles\":\"(1,0)R (0,1)R (1,1)RW\"") != NULL,
                 "the first step's update of tile (1,1)");
        char panel[64];
        snprintf(panel, sizeof panel,
                 "\"tiles\":\"(0,0)RW (1,0)RW (2,0)RW +%d\"", nt - 3);
        th_check(strstr(s, panel) != NULL, "the first panel: %s", panel);

        // The same records as SVG.
        char svg[sizeof path + 4];
        snprintf(svg, sizeof svg, "%s.svg", path);
        TH_STATUS(hyla_trace_write(svg), 0);
        char *v = slurp(svg);
        th_check(v && !strncmp(v, "<svg ", 5) &&
                     strstr(v, "</svg>\n") == v + strlen(v) - 7,
                 "SVG: one svg element");
        // A background box per worker, a box per event and a legend
        // entry per kind.
        int boxes = v ? count(v, "<rect ") : 0;
        int gemms_svg = v ? count(v, "<title>dgemm ") : -1;
        th_check(v && boxes >= 1 + 2 + events &&
                     gemms_svg == count(s, "\"name\":\"dgemm\""),
                 "SVG: %d boxes for %d events; dgemm %d", boxes, events,
                 gemms_svg);
        free(v);
        remove(svg);
        // Stopped: a second factorization records nothing.
        TH_STATUS(factor(n, 2), 0);
        TH_STATUS(hyla_trace_write(path), 0);
        char *again = slurp(path);
        th_check(again && count(again, "\"ph\":\"X\"") == events,
                 "after stop: %d events, was %d",
                 again ? count(again, "\"ph\":\"X\"") : -1, events);
        free(again);
        free(s);
    }
    remove(path);
    th_check(hyla_trace_write(NULL) == -1 && hyla_error_detail()[0],
             "hyla_trace_write(NULL)");
    th_check(hyla_trace_write("/nonexistent-dir/trace.json") == -1 &&
                 hyla_error_detail()[0],
             "hyla_trace_write(unwritable path)");
    th_finalize();
    return th_end();
}

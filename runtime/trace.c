// SPDX-License-Identifier: BSD-3-Clause
// Task traces: for each task, its kind, worker, tiles, start and end, and
// the time its worker waited for the task's data to arrive ("data wait":
// transfers that were not overlapped), written as Chrome / Perfetto
// trace-event JSON or as an SVG timeline.  Off by default; when off the
// cost is one relaxed load per task.
#include "glue.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// Tiles kept per event: a panel has a tile column; its first tiles say
// which.
enum { TILES_MAX = 3 };

typedef struct {
    const char *name;  // the codelet's name (static storage)
    const char *cat;   // "task" or "transfer"
    int worker;        // a basic or a combined worker
    double start, end; // microseconds since hyla_trace_start()
    int ntiles;        // tiles among the task's data (desc.c's coordinates)
    int tile[TILES_MAX][2];   // the first ones: tile row, tile column
    const char *mode[TILES_MAX]; // "R", "W" or "RW"
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

// The tiles among the data of task, into e.
static void tiles_of(struct starpu_task *task, event_t *e)
{
    int nbuf = STARPU_TASK_GET_NBUFFERS(task);
    for (int i = 0; i < nbuf; i++) {
        starpu_data_handle_t h = STARPU_TASK_GET_HANDLE(task, i);
        int xy[2];
        if (!h || starpu_data_get_coordinates_array(h, 2, xy) != 2) continue;
        if (e->ntiles < TILES_MAX) {
            int m = STARPU_TASK_GET_MODE(task, i) & STARPU_RW;
            e->tile[e->ntiles][0] = xy[0];
            e->tile[e->ntiles][1] = xy[1];
            e->mode[e->ntiles] = m == STARPU_RW  ? "RW"
                                 : m == STARPU_W ? "W"
                                                 : "R";
        }
        e->ntiles++;
    }
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
        add(&(event_t){.name = "data wait", .cat = "transfer",
                       .worker = worker, .start = wait0, .end = wait1});
    event_t e = {
        .name = task->cl->name ? task->cl->name : "task",
        .cat = "task",
        .worker = worker,
        .start = starpu_timing_timespec_to_us(&info->start_time) - tr.t0,
        .end = starpu_timing_timespec_to_us(&info->end_time) - tr.t0};
    tiles_of(task, &e);
    add(&e);
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

// The workers that ran e into w (a task of a combined worker shows on
// each of its members); how many.
static int rows_of(const event_t *e, unsigned nworkers, int *w)
{
    int size = 1, *members = NULL;
    if (e->worker >= (int)nworkers &&
        !starpu_combined_worker_get_description(e->worker, &size, &members)) {
        memcpy(w, members, sizeof *w * (size_t)size);
        return size;
    }
    w[0] = e->worker;
    return 1;
}

// e's tiles as text, "(2,3)RW (2,1)R (1,3)R +4" (4 more not kept).
static void tiles_text(const event_t *e, char *buf, size_t size)
{
    size_t len = 0;
    buf[0] = '\0';
    int kept = e->ntiles < TILES_MAX ? e->ntiles : TILES_MAX;
    for (int i = 0; i < kept && len < size; i++)
        len += (size_t)snprintf(buf + len, size - len, "%s(%d,%d)%s",
                                i ? " " : "", e->tile[i][0], e->tile[i][1],
                                e->mode[i]);
    if (e->ntiles > kept && len < size)
        snprintf(buf + len, size - len, " +%d", e->ntiles - kept);
}

// Writes name with XML's special characters escaped.
static void xml_text(FILE *f, const char *name)
{
    for (; *name; name++)
        if (*name == '<')
            fputs("&lt;", f);
        else if (*name == '>')
            fputs("&gt;", f);
        else if (*name == '&')
            fputs("&amp;", f);
        else
            fputc(*name, f);
}

static void write_json(FILE *f, unsigned nworkers)
{
    int first = 1, w[STARPU_NMAXWORKERS];
    fprintf(f, "{\"displayTimeUnit\":\"ms\",\"traceEvents\":[");
    for (unsigned i = 0; i < nworkers; i++) {
        char name[64];
        starpu_worker_get_name((int)i, name, sizeof name);
        fprintf(f,
                "%s\n{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":0,"
                "\"tid\":%u,\"args\":{\"name\":\"%s\"}}",
                first ? "" : ",", i, name);
        first = 0;
    }
    for (size_t i = 0; i < tr.n; i++) {
        const event_t *e = &tr.ev[i];
        char tiles[96];
        tiles_text(e, tiles, sizeof tiles);
        for (int r = 0, nr = rows_of(e, nworkers, w); r < nr; r++) {
            fprintf(f,
                    "%s\n{\"name\":\"%s\",\"cat\":\"%s\",\"ph\":\"X\","
                    "\"pid\":0,\"tid\":%d,\"ts\":%.3f,\"dur\":%.3f",
                    first ? "" : ",", e->name, e->cat, w[r], e->start,
                    e->end - e->start);
            if (e->ntiles) fprintf(f, ",\"args\":{\"tiles\":\"%s\"}", tiles);
            fputc('}', f);
            first = 0;
        }
    }
    fprintf(f, "\n]}\n");
}

// SVG timeline: one row per worker, a box per task coloured by its kind
// (a hover shows kind, tiles and duration), the waits for data as thin
// red bars under the tasks, a time axis and a legend of the kinds.
enum { SVG_W = 1400, SVG_LEFT = 230, SVG_ROW = 18, SVG_TOP = 26 };

// Task kinds in order of first appearance, each with its colour; the
// waits for data are red.
enum { KINDS_MAX = 64 };

typedef struct {
    int n;
    const char *name[KINDS_MAX];
} kinds_t;

static const char *kind_colour(const kinds_t *k, const char *name)
{
    static const char *const palette[] = {
        "#1f77b4", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2",
        "#7f7f7f", "#bcbd22", "#17becf", "#393b79", "#637939", "#8c6d31"};
    enum { N = sizeof palette / sizeof palette[0] };
    if (!strcmp(name, "data wait")) return "#d62728";
    for (int i = 0; i < k->n; i++)
        if (!strcmp(k->name[i], name)) return palette[i % N];
    return "#000000";
}

static void kinds_of_events(kinds_t *k)
{
    k->n = 0;
    for (size_t i = 0; i < tr.n && k->n < KINDS_MAX; i++) {
        int j = 0;
        while (j < k->n && strcmp(k->name[j], tr.ev[i].name))
            j++;
        if (j == k->n) k->name[k->n++] = tr.ev[i].name;
    }
}

// A tick step of 1, 2 or 5 times a power of ten, at most 10 ticks over
// span microseconds.
static double tick_step(double span)
{
    double base = 1;
    while (span / (base * 10) > 10)
        base *= 10;
    return span / base <= 10 ? base : span / (2 * base) <= 10 ? 2 * base
                                                             : 5 * base;
}

static void write_svg(FILE *f, unsigned nworkers)
{
    // From the first event's start to the last one's end (times since
    // hyla_trace_start()).
    double t0 = tr.n ? tr.ev[0].start : 0, t1 = t0;
    for (size_t i = 0; i < tr.n; i++) {
        if (tr.ev[i].start < t0) t0 = tr.ev[i].start;
        if (tr.ev[i].end > t1) t1 = tr.ev[i].end;
    }
    if (t1 <= t0) t1 = t0 + 1;
    kinds_t kinds;
    kinds_of_events(&kinds);
    int plot = SVG_W - SVG_LEFT - 10, axis = SVG_TOP + SVG_ROW * (int)nworkers;
    double x_us = plot / (t1 - t0);
    fprintf(f,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
            "height=\"%d\" font-family=\"sans-serif\" font-size=\"11\">\n"
            "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n"
            "<text x=\"4\" y=\"16\" font-size=\"13\">hyla trace: %zu "
            "events over %.3f ms</text>\n",
            SVG_W, axis + 60, tr.n, (t1 - t0) / 1000);
    for (unsigned i = 0; i < nworkers; i++) {
        char name[64];
        starpu_worker_get_name((int)i, name, sizeof name);
        int y = SVG_TOP + SVG_ROW * (int)i;
        fprintf(f, "<text x=\"4\" y=\"%d\">", y + SVG_ROW - 5);
        xml_text(f, name);
        fprintf(f,
                "</text><rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" "
                "fill=\"#f4f4f4\"/>\n",
                SVG_LEFT, y + 1, plot, SVG_ROW - 2);
    }
    int w[STARPU_NMAXWORKERS];
    for (size_t i = 0; i < tr.n; i++) {
        const event_t *e = &tr.ev[i];
        int wait = !strcmp(e->cat, "transfer");
        char tiles[96];
        tiles_text(e, tiles, sizeof tiles);
        double x = SVG_LEFT + (e->start - t0) * x_us;
        double width = (e->end - e->start) * x_us;
        for (int r = 0, nr = rows_of(e, nworkers, w); r < nr; r++) {
            if (w[r] < 0 || w[r] >= (int)nworkers) continue;
            int y = SVG_TOP + SVG_ROW * w[r];
            fprintf(f,
                    "<rect x=\"%.2f\" y=\"%d\" width=\"%.2f\" height=\"%d\" "
                    "fill=\"%s\"><title>%s %s %.1f us</title></rect>\n",
                    x, wait ? y + SVG_ROW - 5 : y + 2,
                    width < 0.5 ? 0.5 : width, wait ? 3 : SVG_ROW - 7,
                    kind_colour(&kinds, e->name), e->name, tiles,
                    e->end - e->start);
        }
    }
    double step = tick_step(t1 - t0);
    for (double t = ceil(t0 / step) * step; t <= t1; t += step) {
        double x = SVG_LEFT + (t - t0) * x_us;
        fprintf(f,
                "<line x1=\"%.2f\" y1=\"%d\" x2=\"%.2f\" y2=\"%d\" "
                "stroke=\"#444\"/><text x=\"%.2f\" y=\"%d\" "
                "text-anchor=\"middle\">%g ms</text>\n",
                x, axis, x, axis + 4, x, axis + 16, t / 1000);
    }
    // The legend: each kind once, in order of first appearance.
    int x = SVG_LEFT;
    for (int i = 0; i < kinds.n; i++) {
        const char *name = kinds.name[i];
        if (x + 30 + 7 * (int)strlen(name) > SVG_W) break;
        fprintf(f,
                "<rect x=\"%d\" y=\"%d\" width=\"10\" height=\"10\" "
                "fill=\"%s\"/><text x=\"%d\" y=\"%d\">%s</text>\n",
                x, axis + 30, kind_colour(&kinds, name), x + 14, axis + 39,
                name);
        x += 30 + 7 * (int)strlen(name);
    }
    fprintf(f, "</svg>\n");
}

// Whether path ends in suffix.
static int ends_with(const char *path, const char *suffix)
{
    size_t n = strlen(path), k = strlen(suffix);
    return n >= k && !strcmp(path + n - k, suffix);
}

HYLA_EXPORT int hyla_trace_write(const char *path)
{
    int rc = hyla_rt_check_init("hyla_trace_write");
    if (rc) return rc;
    if (!path) return hyla_rt_error(-1, "hyla_trace_write: path is NULL");
    FILE *f = fopen(path, "w");
    if (!f) return hyla_rt_error(-1, "hyla_trace_write: cannot open %s", path);
    unsigned nworkers = starpu_worker_get_count();
    pthread_mutex_lock(&tr.lock);
    if (ends_with(path, ".svg"))
        write_svg(f, nworkers);
    else
        write_json(f, nworkers);
    pthread_mutex_unlock(&tr.lock);
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

// SPDX-License-Identifier: BSD-3-Clause
// hyla_init / hyla_finalize: configuration, StarPU start and stop.
#include "runtime.h"
#include "glue.h"

#include <cblas.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#if HYLA_HAVE_CUDA
#include <cuda_runtime.h>
#endif

#ifndef PATH_MAX
#define PATH_MAX 4096
#endif

static struct {
    int initialized;
    hyla_config_t cfg;
    char scheduler[64];
    char tuning[PATH_MAX]; // the tuning file in force, "" for none
    int blas_threads;      // OpenBLAS threads before hyla_init, restored after
} ctx;

// Defaults by the number of cores, from measurements (docs/perf): on 2
// cores, tiles of 320 (a tile GEMM near the BLAS's peak, several tiles per
// worker), lookahead 1, one panel thread; from 8 cores on, the panel is the
// critical path: tiles of 512, lookahead 3 and a quarter of the cores on
// the panel (on 16 cores the best of the settings measured at n = 20000).
// With GPUs (hybrid, native), tiles of 1024 and lookahead 1: on an H100 in
// native mode, 2.3x the LU's speed of tiles of 512 at n = 16384, within
// 3 % of the best of the sizes swept (docs/tuning).  A tuning file
// measured on the machine replaces them.
void hyla_rt_machine_defaults(hyla_mode_t mode, int *nb, int *lookahead,
                              int *panel_threads)
{
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    if (cores >= 8) {
        *nb = 512;
        *lookahead = 3;
        *panel_threads = (int)(cores / 4 < 8 ? cores / 4 : 8);
    } else {
        *nb = 320;
        *lookahead = 1;
        *panel_threads = 1;
    }
    if (mode == HYLA_MODE_HYBRID || mode == HYLA_MODE_NATIVE) {
        *nb = 1024;
        *lookahead = 1;
    }
}

static const char *default_scheduler = "lws";
static const char *default_gpu_scheduler = "dmdas";
// Two streams per GPU: +10 to +22 % on the H100 Cholesky over one, and no
// gain from four; in native mode three: -8 % time on the H100 LU at
// n = 16384 over two (docs/perf).
static const int default_gpu_streams = 2;
static const int native_gpu_streams = 3;

//==== environment (read here and nowhere else) ====

static int env_int(const char *name, int lo, int *out)
{
    const char *s = getenv(name);
    if (!s || !*s) return 0;
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || *end || v < lo || v > INT_MAX)
        return hyla_rt_error(HYLA_ERR_ENVIRONMENT,
                             "%s = '%s': expected an integer >= %d", name, s,
                             lo);
    *out = (int)v;
    return 0;
}

// An enumerated variable: its value is the position of its name in names
// (case ignored).  Returns 0 (also when unset), or the status of a bad
// value, whose detail lists the names.
static int env_name(const char *var, const char *const *names, int count,
                    int *out)
{
    const char *s = getenv(var);
    if (!s || !*s) return 0;
    for (int i = 0; i < count; i++)
        if (!strcasecmp(s, names[i])) {
            *out = i;
            return 0;
        }
    char list[128] = "";
    for (int i = 0; i < count; i++)
        snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s",
                 i == 0           ? ""
                 : i == count - 1 ? " or "
                                  : ", ",
                 names[i]);
    return hyla_rt_error(HYLA_ERR_ENVIRONMENT, "%s = '%s': expected %s", var, s,
                         list);
}

// The tuning file hyla reads unless told otherwise:
// $XDG_CONFIG_HOME/hyla/tuning (~/.config/hyla/tuning without it), where
// such a file exists; else NULL.
static const char *default_tuning(void)
{
    static char path[PATH_MAX];
    const char *xdg = getenv("XDG_CONFIG_HOME"), *home = getenv("HOME");
    int len;
    if (xdg && *xdg)
        len = snprintf(path, sizeof path, "%s/hyla/tuning", xdg);
    else if (home && *home)
        len = snprintf(path, sizeof path, "%s/.config/hyla/tuning", home);
    else
        return NULL;
    return len < (int)sizeof path && access(path, F_OK) == 0 ? path : NULL;
}

// HYLA_TUNING: a tuning file's path, or "none" for no file.
static int env_tuning(const char **out)
{
    static char path[PATH_MAX];
    const char *s = getenv("HYLA_TUNING");
    if (!s || !*s) return 0;
    if (!strcmp(s, "none")) {
        *out = NULL;
        return 0;
    }
    if (strlen(s) >= sizeof path)
        return hyla_rt_error(HYLA_ERR_ENVIRONMENT,
                             "HYLA_TUNING: a path of at most %d characters",
                             (int)sizeof path - 1);
    snprintf(path, sizeof path, "%s", s);
    *out = path;
    return 0;
}

// Names of hyla_mode_t and hyla_mapping_t values and of a 0/1 flag, in
// value order.
const char *const hyla_rt_mode_names[4] = {"auto", "cpu", "hybrid", "native"};
static const char *const mapping_names[] = {"scheduler", "cyclic", "auto"};
static const char *const inverse_names[] = {"auto", "0", "1"}; // -1, 0, 1
#define NAMES(a) (a), (int)(sizeof(a) / sizeof((a)[0]))

HYLA_EXPORT int hyla_config_init(hyla_config_t *cfg)
{
    if (!cfg) return hyla_rt_error(-1, "hyla_config_init: cfg is NULL");
    hyla_rt_error_clear();
    cfg->ncpus = -1;
    cfg->ngpus = -1;
    cfg->nb = 0;
    cfg->lookahead = -1;
    cfg->panel_threads = 0;
    cfg->mode = HYLA_MODE_AUTO;
    cfg->scheduler = NULL;
    cfg->gpu_streams = 0;
    cfg->mapping = HYLA_MAP_AUTO;
    cfg->trsm_inverse = -1;
    cfg->gpu_reserved_sms = 0;
    cfg->gpu_panel_rows = 0;
    cfg->gpu_critical_stream = -1;
    cfg->gpu_prefetch = -1;
    cfg->gpu_gate = -1;
    cfg->tuning = default_tuning();

    // Each override is applied on its own: one bad variable does not
    // discard the others.
    int rc = 0, r;
    if ((r = env_int("HYLA_NCPUS", -1, &cfg->ncpus))) rc = r;
    if ((r = env_int("HYLA_NGPUS", -1, &cfg->ngpus))) rc = r;
    if ((r = env_int("HYLA_NB", 1, &cfg->nb))) rc = r;
    if ((r = env_int("HYLA_LOOKAHEAD", 0, &cfg->lookahead))) rc = r;
    if ((r = env_int("HYLA_PANEL_THREADS", 1, &cfg->panel_threads))) rc = r;
    int v = (int)cfg->mode;
    if ((r = env_name("HYLA_MODE", NAMES(hyla_rt_mode_names), &v))) rc = r;
    cfg->mode = (hyla_mode_t)v;
    const char *s = getenv("HYLA_SCHED");
    if (s && *s) cfg->scheduler = s;
    if ((r = env_int("HYLA_GPU_STREAMS", 1, &cfg->gpu_streams))) rc = r;
    v = (int)cfg->mapping;
    if ((r = env_name("HYLA_MAPPING", NAMES(mapping_names), &v))) rc = r;
    cfg->mapping = (hyla_mapping_t)v;
    v = cfg->trsm_inverse + 1;
    if ((r = env_name("HYLA_TRSM_INV", NAMES(inverse_names), &v))) rc = r;
    cfg->trsm_inverse = v - 1;
    if ((r = env_int("HYLA_GPU_RESERVED_SMS", 0, &cfg->gpu_reserved_sms)))
        rc = r;
    if ((r = env_int("HYLA_GPU_PANEL_ROWS", 0, &cfg->gpu_panel_rows))) rc = r;
    v = cfg->gpu_critical_stream + 1;
    if ((r = env_name("HYLA_GPU_CRITICAL_STREAM", NAMES(inverse_names), &v)))
        rc = r;
    cfg->gpu_critical_stream = v - 1;
    v = cfg->gpu_prefetch + 1;
    if ((r = env_name("HYLA_GPU_PREFETCH", NAMES(inverse_names), &v))) rc = r;
    cfg->gpu_prefetch = v - 1;
    v = cfg->gpu_gate + 1;
    if ((r = env_name("HYLA_GPU_GATE", NAMES(inverse_names), &v))) rc = r;
    cfg->gpu_gate = v - 1;
    if ((r = env_tuning(&cfg->tuning))) rc = r;
    return rc;
}

static int check_config(const hyla_config_t *c)
{
    const char *why = NULL;
    if (c->ncpus < -1)
        why = "ncpus must be >= -1";
    else if (c->ngpus < -1)
        why = "ngpus must be >= -1";
    else if (c->nb < 0)
        why = "nb must be >= 1, or 0 (tuned)";
    else if (c->lookahead < -1)
        why = "lookahead must be >= 0, or -1 (tuned)";
    else if (c->panel_threads < 0)
        why = "panel_threads must be >= 1, or 0 (tuned)";
    else if (c->tuning && strlen(c->tuning) >= sizeof ctx.tuning)
        why = "tuning file path too long";
    else if (c->mode < HYLA_MODE_AUTO || c->mode > HYLA_MODE_NATIVE)
        why = "mode is not a hyla_mode_t";
    else if (c->ncpus == 0 && c->ngpus == 0)
        why = "no worker: ncpus and ngpus are both 0";
    else if (c->scheduler && strlen(c->scheduler) >= sizeof ctx.scheduler)
        why = "scheduler name too long";
    else if (c->gpu_streams < 0 || c->gpu_streams > HYLA_MAX_GPU_STREAMS)
        why = "gpu_streams must be in 0 .. HYLA_MAX_GPU_STREAMS (8)";
    else if (c->mapping != HYLA_MAP_SCHEDULER && c->mapping != HYLA_MAP_CYCLIC &&
             c->mapping != HYLA_MAP_AUTO)
        why = "mapping is not a hyla_mapping_t";
    else if (c->trsm_inverse < -1 || c->trsm_inverse > 1)
        why = "trsm_inverse must be -1, 0 or 1";
    else if (c->gpu_reserved_sms < 0)
        why = "gpu_reserved_sms must be >= 0";
    else if (c->gpu_panel_rows < 0)
        why = "gpu_panel_rows must be >= 0";
    else if (c->gpu_critical_stream < -1 || c->gpu_critical_stream > 1)
        why = "gpu_critical_stream must be -1, 0 or 1";
    else if (c->gpu_prefetch < -1 || c->gpu_prefetch > 1)
        why = "gpu_prefetch must be -1, 0 or 1";
    else if (c->gpu_gate < -1 || c->gpu_gate > 1)
        why = "gpu_gate must be -1, 0 or 1";
    if (why) return hyla_rt_error(-1, "hyla_init: %s", why);
    return 0;
}

// StarPU reads some settings only from its environment, at starpu_init:
// set one for that call (NULL: leave it as it is), then restore the
// caller's environment.
typedef struct {
    const char *name;
    char *saved; // the caller's value, NULL where unset
    int set;     // whether it was changed
} env_setting_t;

static void env_set(env_setting_t *e, const char *name, const char *value)
{
    const char *old = getenv(name);
    *e = (env_setting_t){name, old ? strdup(old) : NULL, 0};
    if (!value) return;
    setenv(name, value, 1);
    e->set = 1;
}

static void env_restore(env_setting_t *e)
{
    if (e->set) {
        if (e->saved)
            setenv(e->name, e->saved, 1);
        else
            unsetenv(e->name);
    }
    free(e->saved);
}

// The GPUs StarPU will start when asked for ngpus (-1: all of them).
static int gpus_to_start(int ngpus)
{
    int count = 0;
#if HYLA_HAVE_CUDA
    if (cudaGetDeviceCount(&count) != cudaSuccess) {
        cudaGetLastError();
        count = 0;
    }
#endif
    return ngpus < 0 || ngpus > count ? count : ngpus;
}

// Start StarPU with c's CPU workers and ngpus GPUs.
static int start_starpu(const hyla_config_t *c, int ngpus)
{
    snprintf(ctx.scheduler, sizeof ctx.scheduler, "%s",
             c->scheduler ? c->scheduler
             : ngpus != 0 ? default_gpu_scheduler
                          : default_scheduler);
    struct starpu_conf conf;
    starpu_conf_init(&conf);
    conf.ncpus = c->ncpus;
    conf.ncuda = ngpus;
    conf.nopencl = 0;
    conf.sched_policy_name = ctx.scheduler;
    // hyla's configuration decides; STARPU_NCPU and friends do not.
    conf.precedence_over_environment_variables = 1;
    // Streams per GPU have no starpu_conf field.
    int streams = c->gpu_streams                ? c->gpu_streams
                  : c->mode == HYLA_MODE_NATIVE ? native_gpu_streams
                                                : default_gpu_streams;
    char value[16];
    snprintf(value, sizeof value, "%d", streams);
    env_setting_t nworker, prefetch;
    env_set(&nworker, "STARPU_NWORKER_PER_CUDA", ngpus != 0 ? value : NULL);
    // Prefetch has no starpu_conf field either.  Its default is off in
    // native mode on one GPU: dmdas prefetches the data of every task it
    // queues, and with a matrix larger than the GPU memory those
    // prefetches evict each other's tiles.  An LU of order 65536 under a
    // memory limit 1.14x below its size moved 3.3-4x the matrix to the GPU
    // and took 11-15 s, without prefetch the matrix once and 5.1 s (4.7 s
    // with no limit).  In core, on GPU-resident tiles, the LU loses about
    // 1 % without and the Cholesky 1-3.5 %; on host tiles the LU loses
    // nothing.  Hybrid mode keeps it (its Cholesky loses 15 % without), and
    // so do several GPUs (2 H200: the LU in core 4-8 % slower without;
    // docs/perf).
    int pf = c->gpu_prefetch >= 0
                 ? c->gpu_prefetch
                 : !(c->mode == HYLA_MODE_NATIVE && gpus_to_start(ngpus) == 1);
    env_set(&prefetch, "STARPU_PREFETCH", pf ? "1" : "0");
    int ret = hyla_rt_starpu_start(&conf);
    env_restore(&prefetch);
    env_restore(&nworker);
    return ret;
}

HYLA_EXPORT int hyla_init(const hyla_config_t *cfg)
{
    hyla_rt_error_clear();
    if (ctx.initialized)
        return hyla_rt_error(HYLA_ERR_REINITIALIZED,
                             "hyla_init: called twice without hyla_finalize");
    hyla_config_t c;
    if (cfg) {
        c = *cfg;
    } else {
        int rc = hyla_config_init(&c);
        if (rc) return rc;
    }
    int rc = check_config(&c);
    if (rc) return rc;
    // A tuning file that is named but unreadable or malformed stops here,
    // before anything starts.
    if ((rc = hyla_rt_tuning_load(c.tuning))) return rc;
    snprintf(ctx.tuning, sizeof ctx.tuning, "%s", c.tuning ? c.tuning : "");
    c.tuning = c.tuning ? ctx.tuning : NULL;

    // Modes: cpu never starts GPUs; hybrid needs one (CPU panels, updates
    // wherever the scheduler finds them fastest); native needs one and
    // runs every task that has a GPU implementation on the GPUs, with one
    // CPU worker for the rest (layout conversions); auto is native when
    // this build has GPU codelets and the machine a GPU (on an H100 node
    // its LU is 9.4x hybrid's and its Cholesky as fast, docs/perf), else
    // cpu with the CPU workers asked for.
    int gpu_mode = c.mode == HYLA_MODE_HYBRID || c.mode == HYLA_MODE_NATIVE;
    const char *name = c.mode == HYLA_MODE_NATIVE ? "native" : "hybrid";
    if (gpu_mode && !HYLA_CUDA_CODELETS)
        return hyla_rt_error(HYLA_ERR_NOT_SUPPORTED,
                             "hyla_init: mode %s needs a build with CUDA "
                             "and a StarPU with CUDA",
                             name);
    if (c.mode == HYLA_MODE_CPU || !HYLA_CUDA_CODELETS) c.ngpus = 0;
    if (gpu_mode && c.ngpus == 0)
        return hyla_rt_error(-1, "hyla_init: mode %s needs ngpus != 0", name);
    if (c.ncpus == 0 && c.mode != HYLA_MODE_NATIVE)
        return hyla_rt_error(-1, "hyla_init: LU panels need ncpus != 0");
    const hyla_config_t asked = c;
    if (c.mode == HYLA_MODE_AUTO && c.ngpus != 0) c.mode = HYLA_MODE_NATIVE;
    if (c.mode == HYLA_MODE_NATIVE) c.ncpus = c.panel_threads = 1;

    // dmdas places tasks by their predicted time and honours priorities;
    // without GPUs the cheaper lws does as well (docs/perf).  Whether
    // there are GPUs is known only once StarPU runs: in auto mode, or with
    // the default scheduler, and none found, start again without GPUs
    // (auto: as cpu mode, with the CPU workers asked for).
    int ret = start_starpu(&c, c.ngpus);
    int is_auto = asked.mode == HYLA_MODE_AUTO;
    if (!ret && c.ngpus != 0 && (!c.scheduler || is_auto) &&
        hyla_rt_gpus_init() == 0) {
        hyla_rt_starpu_stop();
        if (is_auto) c = asked;
        ret = start_starpu(&c, 0);
    }
    if (ret) hyla_rt_tuning_free();
    if (ret == -ENODEV)
        return hyla_rt_error(HYLA_ERR_NO_WORKER,
                             "hyla_init: StarPU found no worker");
    if (ret)
        return hyla_rt_error(HYLA_ERR_RUNTIME,
                             "hyla_init: starpu_init failed (%d)", ret);
    int ngpus = hyla_rt_gpus_init();
    if (gpu_mode && ngpus == 0) {
        hyla_rt_starpu_stop();
        hyla_rt_tuning_free();
        return hyla_rt_error(HYLA_ERR_NOT_SUPPORTED,
                             "hyla_init: mode %s, but no GPU was found", name);
    }
    c.mode = !ngpus                       ? HYLA_MODE_CPU
             : c.mode == HYLA_MODE_NATIVE ? HYLA_MODE_NATIVE
                                          : HYLA_MODE_HYBRID;
    c.ngpus = ngpus;
    c.gpu_streams = ngpus ? hyla_rt_gpu_streams() : 0;
    c.gpu_prefetch = starpu_get_prefetch_flag();
    c.gpu_gate = hyla_gate_rule(c.gpu_gate, c.mode, ngpus);
    // Native mode solves by inverses: the GPU's TRSMs are slow on the
    // critical path (docs/perf).  In hybrid mode auto stays: each routine
    // chooses (hyla_rt_trsm_inverse).
    if (c.trsm_inverse < 0 && c.mode != HYLA_MODE_HYBRID)
        c.trsm_inverse = c.mode == HYLA_MODE_NATIVE;
    if (ngpus) starpu_cublas_init();
    starpu_malloc_set_align(64);

    // Parallelism comes from tasks: each CPU kernel calls serial BLAS.
    ctx.blas_threads = openblas_get_num_threads();
    openblas_set_num_threads(1);

    if (c.panel_threads == 0) {
        int nb, la;
        hyla_rt_machine_defaults(c.mode, &nb, &la, &c.panel_threads);
        int tuned = hyla_rt_tuned_panel_threads(c.mode);
        if (tuned) c.panel_threads = tuned;
    }
    if ((rc = hyla_rt_panel_workers_init(c.panel_threads))) {
        if (ngpus) starpu_cublas_shutdown();
        hyla_rt_starpu_stop();
        hyla_rt_tuning_free();
        openblas_set_num_threads(ctx.blas_threads);
        return hyla_rt_error(rc, "hyla_init: cannot build the panel workers");
    }
    c.panel_threads = hyla_rt_panel_threads();
    c.ncpus = (int)starpu_cpu_worker_get_count();
    c.scheduler = ctx.scheduler;
    ctx.cfg = c;
    ctx.initialized = 1;
    return HYLA_SUCCESS;
}

HYLA_EXPORT int hyla_finalize(void)
{
    hyla_rt_error_clear();
    if (!ctx.initialized)
        return hyla_rt_error(HYLA_ERR_NOT_INITIALIZED,
                             "hyla_finalize: hyla is not initialized");
    int live = hyla_rt_live_descs();
    if (live)
        return hyla_rt_error(HYLA_ERR_BUSY,
                             "hyla_finalize: %d tile matrices are still alive; "
                             "destroy them first",
                             live);
    starpu_task_wait_for_all();
    hyla_rt_tiles_cache_release();
    hyla_rt_trace_release();
    hyla_rt_tuning_free();
    hyla_rt_gpus_spares_release();
    if (ctx.cfg.ngpus) starpu_cublas_shutdown();
    hyla_rt_starpu_stop();
    hyla_rt_mpi_release();
    openblas_set_num_threads(ctx.blas_threads);
    ctx.initialized = 0;
    return HYLA_SUCCESS;
}

HYLA_EXPORT int hyla_config_get(hyla_config_t *cfg)
{
    if (!ctx.initialized)
        return hyla_rt_error(HYLA_ERR_NOT_INITIALIZED,
                             "hyla_config_get: hyla is not initialized");
    if (!cfg) return hyla_rt_error(-1, "hyla_config_get: cfg is NULL");
    *cfg = ctx.cfg;
    return HYLA_SUCCESS;
}

HYLA_EXPORT const char *hyla_version(void)
{
    return HYLA_VERSION;
}

HYLA_EXPORT const char *hyla_topology(void)
{
    return ctx.initialized ? hyla_rt_topology() : "";
}

int hyla_rt_trsm_inverse(int lu)
{
    int v = hyla_rt_config()->trsm_inverse;
    return v < 0 ? !lu : v;
}

int hyla_rt_critical_stream(int lu)
{
    const hyla_config_t *c = hyla_rt_config();
    if (c->mode != HYLA_MODE_NATIVE || hyla_rt_gpu_streams() < 2) return 0;
    return c->gpu_critical_stream < 0 ? lu : c->gpu_critical_stream;
}

int hyla_rt_initialized(void)
{
    return ctx.initialized;
}

const hyla_config_t *hyla_rt_config(void)
{
    return &ctx.cfg;
}

// SPDX-License-Identifier: BSD-3-Clause
// Library start, stop, configuration and status strings.
#include "check.h"
#include "harness.h"

#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

// Checks hyla_init, hyla_finalize, hyla_config_init, hyla_config_get,
// hyla_strerror, hyla_error_detail and hyla_version: finalize and
// config_get before init give HYLA_ERR_NOT_INITIALIZED; a second init gives
// HYLA_ERR_REINITIALIZED and keeps the first configuration; each field out
// of range gives -1 and leaves the library stopped (a good init works
// afterwards); modes hybrid and native start where there is a GPU (native
// with one CPU worker) and give HYLA_ERR_NOT_SUPPORTED elsewhere;
// config_get resolves ncpus (-1 included) to the real worker count (and
// caps panel_threads by it) and auto to hybrid or cpu; gpu_prefetch
// resolves to off in native mode on one GPU, else on, and StarPU's
// STARPU_PREFETCH stays as the caller set it; the HYLA_*
// environment overrides apply,
// and an unparsable one gives HYLA_ERR_ENVIRONMENT with a detail naming
// the variable, the defaults for it and the other overrides applied, from
// hyla_config_init and from hyla_init(NULL); finalize with a live tile
// matrix gives HYLA_ERR_BUSY and stops nothing; init and finalize repeat,
// with a factorization in between; the error detail is per thread; every
// status has a non-empty string.

static const char *const env_vars[] = {"HYLA_NCPUS",
                                       "HYLA_NGPUS",
                                       "HYLA_NB",
                                       "HYLA_LOOKAHEAD",
                                       "HYLA_PANEL_THREADS",
                                       "HYLA_MODE",
                                       "HYLA_SCHED",
                                       "HYLA_GPU_STREAMS",
                                       "HYLA_MAPPING",
                                       "HYLA_TRSM_INV",
                                       "HYLA_GPU_RESERVED_SMS",
                                       "HYLA_GPU_PANEL_ROWS",
                                       "HYLA_GPU_CRITICAL_STREAM",
                                       "HYLA_GPU_PREFETCH",
                                       "HYLA_GPU_GATE",
                                       "HYLA_TUNING"};

static void clear_env(void)
{
    for (size_t i = 0; i < sizeof env_vars / sizeof env_vars[0]; i++)
        unsetenv(env_vars[i]);
}

// The detail of the last call, copied (snap()) before the next call
// replaces it.  The checks below take their values first and then report
// them: the arguments of th_check are evaluated in no fixed order.
static char detail[256];

static void snap(void)
{
    snprintf(detail, sizeof detail, "%s", hyla_error_detail());
}

static int detail_has(const char *what)
{
    return strstr(detail, what) != NULL;
}

// The library is stopped: config_get says so.
static int stopped(void)
{
    hyla_config_t c;
    return hyla_config_get(&c) == HYLA_ERR_NOT_INITIALIZED;
}

// A configuration that starts: the defaults with one CPU worker.
static hyla_config_t good(void)
{
    hyla_config_t c;
    hyla_config_init(&c);
    c.ncpus = 1;
    c.nb = 16;
    c.tuning = NULL; // a tuning file of this machine's user stays out
    return c;
}

// A small LU through the library: status 0 and a small residual.
static int factor_ok(int n)
{
    int lda = n + 1;
    double *A = malloc(sizeof(double) * lda * n);
    double *LU = malloc(sizeof(double) * lda * n);
    int *ipiv = malloc(sizeof(int) * n);
    hyla_check_dgen(lda, n, A, lda, n);
    memcpy(LU, A, sizeof(double) * lda * n);
    int rc = hyla_dgetrf(n, n, LU, lda, ipiv);
    double r = rc ? NAN : hyla_check_dresid_getrf(n, n, A, lda, LU, lda, ipiv);
    th_check(rc == 0 && r <= HYLA_CHECK_TOL, "dgetrf(%d): %d, residual %.2e", n,
             rc, r);
    free(A);
    free(LU);
    free(ipiv);
    return rc == 0 && r <= HYLA_CHECK_TOL;
}

static void before_init(void)
{
    hyla_config_t c;
    TH_STATUS(hyla_finalize(), HYLA_ERR_NOT_INITIALIZED);
    snap();
    th_check(detail_has("hyla_finalize"), "finalize: detail '%s'", detail);
    TH_STATUS(hyla_config_get(&c), HYLA_ERR_NOT_INITIALIZED);
    TH_STATUS(hyla_config_init(NULL), -1);
    snap();
    th_check(detail[0] != '\0', "config_init(NULL): no detail");
}

// Sets one field of c to a bad value and says which, in what.
#define BAD(field, value) (c.field = (value), what = #field " = " #value)

// Each field out of range: -1, a detail, and the library still stopped.
static void bad_configs(void)
{
    static const char long_name[] =
        "a-scheduler-name-far-longer-than-any-starpu-policy-name-0123456789";
    for (int k = 0; k < 24; k++) {
        hyla_config_t c = good();
        const char *what = "";
        switch (k) {
        case 0: BAD(nb, -1); break;
        case 1: BAD(nb, -5); break;
        case 2: BAD(lookahead, -2); break;
        case 3: BAD(panel_threads, -1); break;
        case 4: BAD(ncpus, -2); break;
        case 5: BAD(ngpus, -2); break;
        case 6:
            c.ncpus = 0;
            c.ngpus = 0;
            what = "ncpus = ngpus = 0";
            break;
        case 7: BAD(mode, (hyla_mode_t)4); break;
        case 8: BAD(mode, (hyla_mode_t)-1); break;
        case 9:
            c.ncpus = 0;
            what = "ncpus = 0 (no GPU codelets)";
            break;
        case 10: BAD(gpu_streams, -1); break;
        case 11: BAD(gpu_streams, 9); break;
        case 12: BAD(mapping, (hyla_mapping_t)3); break;
        case 13: BAD(trsm_inverse, 2); break;
        case 14: BAD(trsm_inverse, -2); break;
        case 15: BAD(gpu_reserved_sms, -1); break;
        case 17: BAD(gpu_panel_rows, -1); break;
        case 18: BAD(gpu_critical_stream, 2); break;
        case 19: BAD(gpu_critical_stream, -2); break;
        case 20: BAD(gpu_prefetch, 2); break;
        case 21: BAD(gpu_prefetch, -2); break;
        case 22: BAD(gpu_gate, 2); break;
        case 23: BAD(gpu_gate, -2); break;
        default: c.scheduler = long_name; what = "long scheduler name";
        }
        int rc = hyla_init(&c);
        snap();
        int st = stopped();
        th_check(rc == -1 && detail[0] != '\0' && st,
                 "hyla_init(%s): %d (%s), detail '%s', %s", what, rc,
                 hyla_strerror(rc), detail, st ? "stopped" : "STARTED");
        if (rc == 0) hyla_finalize();
    }
    // A good configuration still starts.
    hyla_config_t c = good();
    TH_STATUS(hyla_init(&c), 0);
    TH_STATUS(hyla_finalize(), 0);
}
#undef BAD

// A mode that needs GPUs: it starts where this build has GPU codelets and
// the machine a GPU (with ncpus CPU workers unless ncpus < 0), else gives
// HYLA_ERR_NOT_SUPPORTED with a detail and leaves the library stopped.
// Returns whether it started.
static int gpu_mode(hyla_mode_t mode, const char *name, int ncpus)
{
    hyla_config_t c = good();
    c.mode = mode;
    c.ngpus = -1;
    int rc = hyla_init(&c);
    if (rc == 0) {
        hyla_config_t got;
        TH_STATUS(hyla_config_get(&got), 0);
        // Native mode's defaults: three streams, solves by inverses;
        // hybrid's two streams, and each routine chooses its solves.
        int native = mode == HYLA_MODE_NATIVE;
        th_check(got.mode == mode && got.ngpus >= 1 &&
                     (ncpus < 0 || got.ncpus == ncpus) &&
                     got.gpu_streams == (native ? 3 : 2) &&
                     got.trsm_inverse == (native ? 1 : -1),
                 "mode %s: resolved to mode %d, ngpus %d, ncpus %d, "
                 "gpu_streams %d, trsm_inverse %d",
                 name, (int)got.mode, got.ngpus, got.ncpus, got.gpu_streams,
                 got.trsm_inverse);
        TH_STATUS(hyla_finalize(), 0);
        return 1;
    }
    TH_STATUS(rc, HYLA_ERR_NOT_SUPPORTED);
    snap();
    th_check(detail[0] != '\0' && stopped(),
             "mode %s: library started, or no detail", name);
    return 0;
}

// gpu_prefetch: auto resolves to 0 in native mode on one GPU and to 1
// elsewhere, 0 and 1 stay; the caller's STARPU_PREFETCH is as it was
// once hyla_init returns.  The GPU cases only where gpu says a GPU mode
// starts.
static void prefetch(int gpu)
{
    static const struct {
        hyla_mode_t mode;
        int asked, want;
        const char *env; // the caller's STARPU_PREFETCH, NULL: unset
        int gpu;         // needs a GPU
    } cases[] = {{HYLA_MODE_CPU, -1, 1, NULL, 0},
                 {HYLA_MODE_CPU, 0, 0, "1", 0},
                 {HYLA_MODE_NATIVE, -1, 0, NULL, 1},
                 {HYLA_MODE_NATIVE, 1, 1, "0", 1},
                 {HYLA_MODE_HYBRID, -1, 1, "0", 1}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        if (cases[i].gpu && !gpu) continue;
        hyla_config_t c = good(), got;
        c.mode = cases[i].mode;
        c.ngpus = cases[i].gpu ? 1 : 0;
        c.gpu_prefetch = cases[i].asked;
        const char *env = cases[i].env;
        if (env)
            setenv("STARPU_PREFETCH", env, 1);
        else
            unsetenv("STARPU_PREFETCH");
        TH_STATUS(hyla_init(&c), 0);
        memset(&got, 0xff, sizeof got);
        TH_STATUS(hyla_config_get(&got), 0);
        const char *during = getenv("STARPU_PREFETCH");
        int kept = env ? during && !strcmp(during, env) : !during;
        th_check(got.gpu_prefetch == cases[i].want && kept,
                 "mode %d, gpu_prefetch %d asked, STARPU_PREFETCH '%s': "
                 "resolved to %d (want %d), STARPU_PREFETCH now '%s'",
                 (int)c.mode, c.gpu_prefetch, env ? env : "(unset)",
                 got.gpu_prefetch, cases[i].want, during ? during : "(unset)");
        TH_STATUS(hyla_finalize(), 0);
    }
    unsetenv("STARPU_PREFETCH");
}

static void modes(void)
{
    int gpu = gpu_mode(HYLA_MODE_HYBRID, "hybrid", -1);
    th_check(gpu_mode(HYLA_MODE_NATIVE, "native", 1) == gpu,
             "modes hybrid and native disagree on the GPU");
    hyla_config_t c = good();

    // auto resolves to native (one CPU worker) where the GPU modes start,
    // else to cpu with the CPU workers asked for.
    c.mode = HYLA_MODE_AUTO;
    c.ngpus = -1;
    c.ncpus = sysconf(_SC_NPROCESSORS_ONLN) >= 2 ? 2 : 1;
    TH_STATUS(hyla_init(&c), 0);
    hyla_config_t got;
    TH_STATUS(hyla_config_get(&got), 0);
    th_check(gpu ? got.mode == HYLA_MODE_NATIVE && got.ngpus >= 1 &&
                       got.ncpus == 1
                 : got.mode == HYLA_MODE_CPU && got.ngpus == 0 &&
                       got.ncpus == c.ncpus,
             "mode auto: resolved to mode %d, ngpus %d, ncpus %d (GPU "
             "present: %d, ncpus asked %d)",
             (int)got.mode, got.ngpus, got.ncpus, gpu, c.ncpus);
    TH_STATUS(hyla_finalize(), 0);
    c.mode = HYLA_MODE_CPU;
    TH_STATUS(hyla_init(&c), 0);
    TH_STATUS(hyla_finalize(), 0);
    prefetch(gpu);
}

// config_get gives the configuration in force, with ncpus resolved.
static void worker_counts(void)
{
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    for (int want = -1; want <= 2; want++) {
        if (want == 0) continue;
        hyla_config_t c = good(), got;
        c.mode = HYLA_MODE_CPU; // auto would be native, one CPU worker
        c.ncpus = want;
        c.nb = 24 + want;
        c.lookahead = 2;
        c.panel_threads = 1; // a combined worker under eager leaks in StarPU
        char sched[16] = "eager";
        c.scheduler = sched;
        TH_STATUS(hyla_init(&c), 0);
        strcpy(sched, "junk"); // the library keeps its own copy
        memset(&got, 0xff, sizeof got);
        TH_STATUS(hyla_config_get(&got), 0);
        int ok =
            want > 0 ? got.ncpus == want : got.ncpus >= 1 && got.ncpus <= cores;
        th_check(ok && got.nb == c.nb && got.lookahead == 2 &&
                     got.panel_threads == (c.panel_threads < got.ncpus
                                               ? c.panel_threads
                                               : got.ncpus) &&
                     got.scheduler && !strcmp(got.scheduler, "eager"),
                 "config_get after ncpus = %d: ncpus %d (%ld cores), nb %d, "
                 "lookahead %d, scheduler '%s'",
                 want, got.ncpus, cores, got.nb, got.lookahead,
                 got.scheduler ? got.scheduler : "(null)");
        TH_STATUS(hyla_config_get(NULL), -1);

        // A second init fails and changes nothing.
        hyla_config_t other = good();
        other.ncpus = 2;
        other.nb = 99;
        TH_STATUS(hyla_init(&other), HYLA_ERR_REINITIALIZED);
        TH_STATUS(hyla_init(NULL), HYLA_ERR_REINITIALIZED);
        hyla_config_t again;
        TH_STATUS(hyla_config_get(&again), 0);
        th_check(again.ncpus == got.ncpus && again.nb == got.nb,
                 "init twice changed the configuration: ncpus %d -> %d, "
                 "nb %d -> %d",
                 got.ncpus, again.ncpus, got.nb, again.nb);
        factor_ok(40);
        TH_STATUS(hyla_finalize(), 0);
        TH_STATUS(hyla_finalize(), HYLA_ERR_NOT_INITIALIZED);
    }
}

// One variable set to value: config_init's status, and the configuration.
static int env_case(const char *name, const char *value, hyla_config_t *c)
{
    clear_env();
    setenv(name, value, 1);
    int rc = hyla_config_init(c);
    clear_env();
    return rc;
}

static void environment(void)
{
    hyla_config_t def, c;
    clear_env();
    TH_STATUS(hyla_config_init(&def), 0);

    TH_STATUS(env_case("HYLA_NB", "123", &c), 0);
    th_check(c.nb == 123, "HYLA_NB=123: nb %d", c.nb);
    TH_STATUS(env_case("HYLA_NB", "", &c), 0); // empty is unset
    th_check(c.nb == def.nb, "HYLA_NB='': nb %d, default %d", c.nb, def.nb);
    TH_STATUS(env_case("HYLA_NCPUS", "1", &c), 0);
    th_check(c.ncpus == 1, "HYLA_NCPUS=1: ncpus %d", c.ncpus);
    TH_STATUS(env_case("HYLA_LOOKAHEAD", "4", &c), 0);
    th_check(c.lookahead == 4, "HYLA_LOOKAHEAD=4: lookahead %d", c.lookahead);
    TH_STATUS(env_case("HYLA_PANEL_THREADS", "2", &c), 0);
    th_check(c.panel_threads == 2, "HYLA_PANEL_THREADS=2: %d", c.panel_threads);
    TH_STATUS(env_case("HYLA_MODE", "cpu", &c), 0);
    th_check(c.mode == HYLA_MODE_CPU, "HYLA_MODE=cpu: mode %d", (int)c.mode);
    TH_STATUS(env_case("HYLA_MODE", "hybrid", &c), 0);
    th_check(c.mode == HYLA_MODE_HYBRID, "HYLA_MODE=hybrid: mode %d",
             (int)c.mode);
    TH_STATUS(env_case("HYLA_GPU_STREAMS", "3", &c), 0);
    th_check(c.gpu_streams == 3, "HYLA_GPU_STREAMS=3: %d", c.gpu_streams);
    TH_STATUS(env_case("HYLA_MAPPING", "cyclic", &c), 0);
    th_check(c.mapping == HYLA_MAP_CYCLIC, "HYLA_MAPPING=cyclic: %d",
             (int)c.mapping);
    TH_STATUS(env_case("HYLA_MAPPING", "scheduler", &c), 0);
    th_check(c.mapping == HYLA_MAP_SCHEDULER, "HYLA_MAPPING=scheduler: %d",
             (int)c.mapping);
    TH_STATUS(env_case("HYLA_MAPPING", "auto", &c), 0);
    th_check(c.mapping == HYLA_MAP_AUTO, "HYLA_MAPPING=auto: %d",
             (int)c.mapping);
    TH_STATUS(env_case("HYLA_TRSM_INV", "1", &c), 0);
    th_check(c.trsm_inverse == 1, "HYLA_TRSM_INV=1: %d", c.trsm_inverse);
    TH_STATUS(env_case("HYLA_TRSM_INV", "0", &c), 0);
    th_check(c.trsm_inverse == 0, "HYLA_TRSM_INV=0: %d", c.trsm_inverse);
    TH_STATUS(env_case("HYLA_TRSM_INV", "auto", &c), 0);
    th_check(c.trsm_inverse == -1, "HYLA_TRSM_INV=auto: %d", c.trsm_inverse);
    TH_STATUS(env_case("HYLA_GPU_RESERVED_SMS", "16", &c), 0);
    th_check(c.gpu_reserved_sms == 16, "HYLA_GPU_RESERVED_SMS=16: %d",
             c.gpu_reserved_sms);
    TH_STATUS(env_case("HYLA_GPU_PANEL_ROWS", "512", &c), 0);
    th_check(c.gpu_panel_rows == 512, "HYLA_GPU_PANEL_ROWS=512: %d",
             c.gpu_panel_rows);
    TH_STATUS(env_case("HYLA_GPU_CRITICAL_STREAM", "0", &c), 0);
    th_check(c.gpu_critical_stream == 0, "HYLA_GPU_CRITICAL_STREAM=0: %d",
             c.gpu_critical_stream);
    TH_STATUS(env_case("HYLA_GPU_CRITICAL_STREAM", "1", &c), 0);
    th_check(c.gpu_critical_stream == 1, "HYLA_GPU_CRITICAL_STREAM=1: %d",
             c.gpu_critical_stream);
    TH_STATUS(env_case("HYLA_GPU_PREFETCH", "0", &c), 0);
    th_check(c.gpu_prefetch == 0, "HYLA_GPU_PREFETCH=0: %d", c.gpu_prefetch);
    TH_STATUS(env_case("HYLA_GPU_PREFETCH", "AUTO", &c), 0);
    th_check(c.gpu_prefetch == -1, "HYLA_GPU_PREFETCH=AUTO: %d",
             c.gpu_prefetch);
    TH_STATUS(env_case("HYLA_GPU_GATE", "0", &c), 0);
    th_check(c.gpu_gate == 0, "HYLA_GPU_GATE=0: %d", c.gpu_gate);
    TH_STATUS(env_case("HYLA_GPU_GATE", "1", &c), 0);
    th_check(c.gpu_gate == 1, "HYLA_GPU_GATE=1: %d", c.gpu_gate);
    th_check(def.gpu_streams == 0 && def.mapping == HYLA_MAP_AUTO &&
                 def.trsm_inverse == -1 && def.gpu_reserved_sms == 0 &&
                 def.gpu_panel_rows == 0 && def.gpu_critical_stream == -1 &&
                 def.gpu_prefetch == -1 && def.gpu_gate == -1,
             "defaults: gpu_streams %d, mapping %d, trsm_inverse %d, "
             "gpu_reserved_sms %d, gpu_panel_rows %d, gpu_critical_stream "
             "%d, gpu_prefetch %d, gpu_gate %d",
             def.gpu_streams, (int)def.mapping, def.trsm_inverse,
             def.gpu_reserved_sms, def.gpu_panel_rows, def.gpu_critical_stream,
             def.gpu_prefetch, def.gpu_gate);
    clear_env();
    setenv("HYLA_SCHED", "eager", 1);
    TH_STATUS(hyla_config_init(&c), 0);
    th_check(c.scheduler && !strcmp(c.scheduler, "eager"),
             "HYLA_SCHED=eager: scheduler '%s'",
             c.scheduler ? c.scheduler : "(null)");
    clear_env();

    static const char *const bad[][2] = {{"HYLA_NB", "abc"},
                                         {"HYLA_NB", "0"},
                                         {"HYLA_NB", "-3"},
                                         {"HYLA_NB", "12x"},
                                         {"HYLA_NB", "99999999999"},
                                         {"HYLA_NCPUS", "-2"},
                                         {"HYLA_NCPUS", "two"},
                                         {"HYLA_NGPUS", "x"},
                                         {"HYLA_LOOKAHEAD", "-1"},
                                         {"HYLA_PANEL_THREADS", "0"},
                                         {"HYLA_MODE", "bogus"},
                                         {"HYLA_MODE", "cpu "},
                                         {"HYLA_GPU_STREAMS", "0"},
                                         {"HYLA_MAPPING", "round"},
                                         {"HYLA_TRSM_INV", "2"},
                                         {"HYLA_TRSM_INV", "yes"},
                                         {"HYLA_GPU_RESERVED_SMS", "-1"},
                                         {"HYLA_GPU_RESERVED_SMS", "many"},
                                         {"HYLA_GPU_CRITICAL_STREAM", "2"},
                                         {"HYLA_GPU_CRITICAL_STREAM", "on"},
                                         {"HYLA_GPU_PREFETCH", "-1"}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        int rc = env_case(bad[i][0], bad[i][1], &c);
        snap();
        th_check(rc == HYLA_ERR_ENVIRONMENT && detail_has(bad[i][0]),
                 "%s=%s: %d (%s), detail '%s'", bad[i][0], bad[i][1], rc,
                 hyla_strerror(rc), detail);
    }

    // A bad variable keeps its default; the good ones still apply.
    clear_env();
    setenv("HYLA_NB", "abc", 1);
    setenv("HYLA_LOOKAHEAD", "3", 1);
    setenv("HYLA_NCPUS", "1", 1);
    int rc = hyla_config_init(&c);
    th_check(rc == HYLA_ERR_ENVIRONMENT && c.nb == def.nb && c.lookahead == 3 &&
                 c.ncpus == 1,
             "HYLA_NB=abc HYLA_LOOKAHEAD=3 HYLA_NCPUS=1: %d, nb %d "
             "(default %d), lookahead %d, ncpus %d",
             rc, c.nb, def.nb, c.lookahead, c.ncpus);

    // hyla_init(NULL) reads the environment.
    TH_STATUS(hyla_init(NULL), HYLA_ERR_ENVIRONMENT);
    snap();
    int st = stopped();
    th_check(detail_has("HYLA_NB") && st,
             "hyla_init(NULL) with HYLA_NB=abc: detail '%s', %s", detail,
             st ? "stopped" : "STARTED");
    clear_env();
    setenv("HYLA_MODE", "bogus", 1);
    TH_STATUS(hyla_init(NULL), HYLA_ERR_ENVIRONMENT);
    snap();
    st = stopped();
    th_check(detail_has("HYLA_MODE") && st,
             "hyla_init(NULL) with HYLA_MODE=bogus: detail '%s', %s", detail,
             st ? "stopped" : "STARTED");
    clear_env();
    setenv("HYLA_NCPUS", "1", 1);
    setenv("HYLA_NB", "17", 1);
    setenv("HYLA_MODE", "cpu", 1);
    TH_STATUS(hyla_init(NULL), 0);
    hyla_config_t got;
    TH_STATUS(hyla_config_get(&got), 0);
    th_check(got.ncpus == 1 && got.nb == 17 && got.mode == HYLA_MODE_CPU,
             "hyla_init(NULL) with HYLA_NCPUS=1 HYLA_NB=17: ncpus %d, nb %d",
             got.ncpus, got.nb);
    factor_ok(35);
    TH_STATUS(hyla_finalize(), 0);
    clear_env();
}

// finalize with live tile matrices stops nothing.
static void busy(void)
{
    th_init(2, 8, 1);
    hyla_desc_t *A = NULL, *B = NULL;
    TH_STATUS(hyla_desc_create(&A, HYLA_DOUBLE, 20, 20, 0), 0);
    TH_STATUS(hyla_desc_create(&B, HYLA_FLOAT, 5, 7, 3), 0);
    TH_STATUS(hyla_finalize(), HYLA_ERR_BUSY);
    snap();
    int st = stopped();
    th_check(detail_has("hyla_finalize") && !st,
             "finalize while busy: detail '%s', %s", detail,
             st ? "STOPPED" : "running");
    factor_ok(30);
    hyla_desc_destroy(&A);
    TH_STATUS(hyla_finalize(), HYLA_ERR_BUSY);
    hyla_desc_destroy(&B);
    TH_STATUS(hyla_finalize(), 0);
    th_check(stopped(), "finalize after destroy: still running");
}

static void reinit(void)
{
    for (int round = 0; round < 4; round++) {
        int ncpus = 1 + round % 2;
        th_init(ncpus, 8 + round, round % 3);
        hyla_config_t got;
        TH_STATUS(hyla_config_get(&got), 0);
        // Native mode drives the GPUs from one CPU worker.
        int want = got.mode == HYLA_MODE_NATIVE ? 1 : ncpus;
        th_check(got.ncpus == want, "round %d: ncpus %d, expected %d", round,
                 got.ncpus, want);
        factor_ok(50 + round);
        th_finalize();
    }
}

// Copies the calling thread's detail into arg.
static void *other_thread(void *arg)
{
    snprintf(arg, 256, "%s", hyla_error_detail());
    return NULL;
}

static void strings(void)
{
    static const int codes[] = {
#define HYLA_X(name, value, text) value,
        HYLA_STATUS_MAP(HYLA_X)
#undef HYLA_X
    };
    size_t ncodes = sizeof codes / sizeof codes[0];
    for (size_t i = 0; i < ncodes; i++) {
        const char *s = hyla_strerror(codes[i]);
        th_check(s && *s, "hyla_strerror(%d) is empty", codes[i]);
        for (size_t k = 0; k < i; k++)
            th_check(strcmp(s, hyla_strerror(codes[k])) != 0,
                     "hyla_strerror(%d) == hyla_strerror(%d): '%s'", codes[i],
                     codes[k], s);
    }
    static const int others[] = {-3,   5,    -1,      -99,    1,
                                 -100, -999, INT_MIN, INT_MAX};
    for (size_t i = 0; i < sizeof others / sizeof others[0]; i++) {
        const char *s = hyla_strerror(others[i]);
        th_check(s && *s, "hyla_strerror(%d) is empty", others[i]);
    }

    const char *v = hyla_version();
    int major, minor, patch, end = 0;
    th_check(v && sscanf(v, "%d.%d.%d%n", &major, &minor, &patch, &end) == 3 &&
                 v[end] == '\0',
             "hyla_version() = '%s', expected major.minor.patch",
             v ? v : "(null)");

    // The detail of an error belongs to the thread that raised it.
    TH_STATUS(hyla_finalize(), HYLA_ERR_NOT_INITIALIZED);
    pthread_t t;
    char seen[256] = "(thread not run)";
    if (!pthread_create(&t, NULL, other_thread, seen)) pthread_join(t, NULL);
    th_check(seen[0] == '\0', "another thread sees the detail '%s'", seen);
    snap();
    th_check(detail_has("hyla_finalize"), "this thread lost its detail: '%s'",
             detail);
}

// hyla_desc_place: its argument checks, and the contents of a tile matrix
// unchanged by a trip to the GPUs (if any) and back.
static void place(void)
{
    TH_STATUS(hyla_desc_place(NULL, HYLA_PLACE_HOST), HYLA_ERR_NOT_INITIALIZED);
    hyla_config_t c = good();
    TH_STATUS(hyla_init(&c), 0);
    enum { N = 37 };
    double A[N * N], B[N * N];
    for (int i = 0; i < N * N; i++) {
        A[i] = i * 0.25 - 3.0;
        B[i] = 0.0;
    }
    hyla_desc_t *T = NULL;
    TH_STATUS(hyla_desc_create(&T, HYLA_DOUBLE, N, N, 8), 0);
    TH_STATUS(hyla_desc_place(NULL, HYLA_PLACE_GPUS), -1);
    TH_STATUS(hyla_desc_place(T, (hyla_place_t)7), -2);
    TH_STATUS(hyla_dlap_to_desc(A, N, T), 0);
    TH_STATUS(hyla_desc_place(T, HYLA_PLACE_GPUS), 0);
    TH_STATUS(hyla_desc_place(T, HYLA_PLACE_HOST), 0);
    TH_STATUS(hyla_ddesc_to_lap(T, B, N), 0);
    th_check(!memcmp(A, B, sizeof A), "hyla_desc_place changed the matrix");
    TH_STATUS(hyla_desc_destroy(&T), 0);
    TH_STATUS(hyla_finalize(), 0);
}

int main(void)
{
    th_begin("init");
    clear_env();
    before_init();
    bad_configs();
    modes();
    worker_counts();
    environment();
    busy();
    reinit();
    strings();
    place();
    return th_end();
}

// SPDX-License-Identifier: BSD-3-Clause
// Energy counters sampled in a thread: NVML's total energy of each GPU
// (loaded at run time, so that machines without a GPU driver run the
// benchmark as well) and RAPL's energy of each CPU package, or where RAPL
// is not readable an estimate of the CPUs' from their busy time.
#include "energy.h"
#include "bench.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

enum { MAX_GPUS = 16, MAX_PACKAGES = 8 };

// The NVML entry points used, declared here (no nvml.h needed).
typedef void *nvml_device_t;
static struct {
    int (*init)(void);
    int (*count)(unsigned *);
    int (*handle)(unsigned, nvml_device_t *);
    int (*energy)(nvml_device_t, unsigned long long *); // mJ since load
    int (*shutdown)(void);
    void *lib;
    nvml_device_t dev[MAX_GPUS];
    unsigned ndev;
} nv;

// RAPL: /sys/class/powercap/intel-rapl:P/energy_uj, which wraps at
// max_energy_range_uj.
static struct {
    int fd[MAX_PACKAGES];
    double range[MAX_PACKAGES], last[MAX_PACKAGES];
    int n;
} rapl;

// Without RAPL, the estimate: the busy time of every CPU of the machine
// (/proc/stat's first line, in USER_HZ ticks: user, nice, system, irq and
// softirq; not idle, iowait or steal) times `watts` per busy CPU.
static struct {
    int fd; // -1: no estimate
    double watts, tick, last;
} est = {.fd = -1};

// The start of a kernel file read afresh (pread from offset 0: a stdio
// stream would serve its buffered copy again), as a string.
static int read_text(int fd, char *buf, size_t size)
{
    ssize_t got = pread(fd, buf, size - 1, 0);
    if (got <= 0) return 0;
    buf[got] = '\0';
    return 1;
}

static int estimate_read(double *joules)
{
    char buf[256];
    unsigned long long v[7];
    if (!read_text(est.fd, buf, sizeof buf) ||
        sscanf(buf, "cpu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1],
               &v[2], &v[3], &v[4], &v[5], &v[6]) != 7)
        return 0;
    *joules = (double)(v[0] + v[1] + v[2] + v[5] + v[6]) * est.tick * est.watts;
    return 1;
}

static int estimate_open(double watts)
{
    long hz = sysconf(_SC_CLK_TCK);
    if (!(watts > 0) || hz <= 0 || (est.fd = open("/proc/stat", O_RDONLY)) < 0)
        return 0;
    est.watts = watts;
    est.tick = 1.0 / (double)hz;
    if (estimate_read(&est.last)) return 1;
    close(est.fd);
    est.fd = -1;
    return 0;
}

// One reading: time, and the counters made monotonic, in joules.
typedef struct sample {
    double t, gpu, cpu;
} sample_t;

static struct {
    pthread_t thread;
    pthread_mutex_t lock;
    int running;
    sample_t *s;
    size_t n, cap;
    double gpu_sum, cpu_sum; // over the marked calls
    int calls;
    double cpu_total; // RAPL's deltas accumulated
} m = {.lock = PTHREAD_MUTEX_INITIALIZER};

static int nvml_open(void)
{
    nv.lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!nv.lib) return 0;
    *(void **)&nv.init = dlsym(nv.lib, "nvmlInit_v2");
    *(void **)&nv.count = dlsym(nv.lib, "nvmlDeviceGetCount_v2");
    *(void **)&nv.handle = dlsym(nv.lib, "nvmlDeviceGetHandleByIndex_v2");
    *(void **)&nv.energy = dlsym(nv.lib, "nvmlDeviceGetTotalEnergyConsumption");
    *(void **)&nv.shutdown = dlsym(nv.lib, "nvmlShutdown");
    unsigned count = 0;
    if (!nv.init || !nv.count || !nv.handle || !nv.energy || !nv.shutdown ||
        nv.init() != 0)
        goto fail;
    if (nv.count(&count) != 0) goto fail_init;
    for (unsigned i = 0; i < count && nv.ndev < MAX_GPUS; i++) {
        unsigned long long mj;
        if (nv.handle(i, &nv.dev[nv.ndev]) == 0 &&
            nv.energy(nv.dev[nv.ndev], &mj) == 0)
            nv.ndev++;
    }
    if (nv.ndev) return (int)nv.ndev;
fail_init:
    nv.shutdown();
fail:
    dlclose(nv.lib);
    nv.lib = NULL;
    return 0;
}

static int rapl_read(int p, double *uj)
{
    char buf[64];
    return read_text(rapl.fd[p], buf, sizeof buf) &&
           sscanf(buf, "%lf", uj) == 1;
}

static int rapl_open(void)
{
    for (int p = 0; p < MAX_PACKAGES; p++) {
        char path[96];
        double range = 0, uj;
        snprintf(path, sizeof path,
                 "/sys/class/powercap/intel-rapl:%d/max_energy_range_uj", p);
        FILE *r = fopen(path, "r");
        if (!r) break;
        int ok = fscanf(r, "%lf", &range) == 1;
        fclose(r);
        snprintf(path, sizeof path,
                 "/sys/class/powercap/intel-rapl:%d/energy_uj", p);
        int fd = ok ? open(path, O_RDONLY) : -1;
        if (fd < 0) break;
        rapl.fd[rapl.n] = fd;
        if (!rapl_read(rapl.n, &uj)) {
            close(fd);
            break;
        }
        rapl.range[rapl.n] = range;
        rapl.last[rapl.n++] = uj;
    }
    return rapl.n;
}

static sample_t read_now(void)
{
    sample_t s = {bench_now(), -1.0, -1.0};
    if (nv.ndev) {
        s.gpu = 0.0;
        for (unsigned i = 0; i < nv.ndev; i++) {
            unsigned long long mj = 0;
            nv.energy(nv.dev[i], &mj);
            s.gpu += (double)mj * 1e-3;
        }
    }
    if (rapl.n) {
        for (int p = 0; p < rapl.n; p++) {
            double uj;
            if (!rapl_read(p, &uj)) continue;
            double d = uj - rapl.last[p];
            if (d < 0) d += rapl.range[p]; // the counter wrapped
            m.cpu_total += d * 1e-6;
            rapl.last[p] = uj;
        }
        s.cpu = m.cpu_total;
    } else if (est.fd >= 0) {
        double j;
        if (estimate_read(&j)) est.last = j;
        s.cpu = est.last;
    }
    return s;
}

static void *sampler(void *arg)
{
    (void)arg;
    struct timespec pause = {0, 1000000};
    for (;;) {
        pthread_mutex_lock(&m.lock);
        if (!m.running) {
            pthread_mutex_unlock(&m.lock);
            return NULL;
        }
        sample_t s = read_now();
        if (m.n == m.cap) {
            size_t cap = m.cap ? 2 * m.cap : 4096;
            sample_t *p = realloc(m.s, cap * sizeof *p);
            if (p) m.s = p, m.cap = cap;
        }
        if (m.n < m.cap) m.s[m.n++] = s;
        pthread_mutex_unlock(&m.lock);
        nanosleep(&pause, NULL);
    }
}

int energy_start(double cpu_watts)
{
    int g = nvml_open(), c = rapl_open();
    int e = !c && estimate_open(cpu_watts);
    printf("# energy: %d GPU meter(s) (NVML)%s, %d CPU package meter(s) "
           "(RAPL)%s\n",
           g, g ? "" : ", GPU energy not measured", c,
           c   ? ""
           : e ? ", CPU energy estimated: busy CPU time (/proc/stat) times "
                 "--cpu-watts"
               : ", CPU energy not measured");
    if (e) printf("# energy: CPU estimate at %.2f W per busy CPU\n", cpu_watts);
    if (!g && !c && !e) return -1;
    m.running = 1;
    if (pthread_create(&m.thread, NULL, sampler, NULL)) {
        m.running = 0;
        return -1;
    }
    return 0;
}

void energy_stop(void)
{
    pthread_mutex_lock(&m.lock);
    int was = m.running;
    m.running = 0;
    pthread_mutex_unlock(&m.lock);
    if (was) pthread_join(m.thread, NULL);
    if (nv.lib) {
        nv.shutdown();
        dlclose(nv.lib);
        nv.lib = NULL;
        nv.ndev = 0;
    }
    for (int p = 0; p < rapl.n; p++)
        close(rapl.fd[p]);
    rapl.n = 0;
    if (est.fd >= 0) close(est.fd);
    est.fd = -1;
    free(m.s);
    m.s = NULL;
    m.n = m.cap = 0;
}

void energy_reset(void)
{
    pthread_mutex_lock(&m.lock);
    m.gpu_sum = m.cpu_sum = 0.0;
    m.calls = 0;
    pthread_mutex_unlock(&m.lock);
}

// A counter at time t, between the samples around it.
static double at(double t, int gpu)
{
    size_t lo = 0, hi = m.n - 1;
    while (hi - lo > 1) {
        size_t mid = (lo + hi) / 2;
        if (m.s[mid].t <= t)
            lo = mid;
        else
            hi = mid;
    }
    const sample_t *a = &m.s[lo], *b = &m.s[hi];
    double va = gpu ? a->gpu : a->cpu, vb = gpu ? b->gpu : b->cpu;
    if (b->t <= a->t) return vb;
    double f = (t - a->t) / (b->t - a->t);
    f = f < 0 ? 0 : f > 1 ? 1 : f;
    return va + f * (vb - va);
}

void energy_mark(double t0, double t1)
{
    if (!m.running) return;
    // Wait for a sample after the call (the sampler runs every ms).
    for (int tries = 0; tries < 100; tries++) {
        pthread_mutex_lock(&m.lock);
        int ready = m.n >= 2 && m.s[m.n - 1].t >= t1 && m.s[0].t <= t0;
        int missed = m.n && m.s[0].t > t0; // sampling began after t0
        if (ready) {
            m.gpu_sum += at(t1, 1) - at(t0, 1);
            m.cpu_sum += at(t1, 0) - at(t0, 0);
            m.calls++;
            // Later calls start after t1: keep the last sample only.
            m.s[0] = m.s[m.n - 1];
            m.n = 1;
        }
        pthread_mutex_unlock(&m.lock);
        if (ready || missed) return;
        struct timespec pause = {0, 1000000};
        nanosleep(&pause, NULL);
    }
}

void energy_per_call(double *gpu_j, double *cpu_j)
{
    pthread_mutex_lock(&m.lock);
    int ok = m.running && m.calls > 0;
    *gpu_j = ok && nv.ndev ? m.gpu_sum / m.calls : -1.0;
    *cpu_j = ok && (rapl.n || est.fd >= 0) ? m.cpu_sum / m.calls : -1.0;
    pthread_mutex_unlock(&m.lock);
}

const char *energy_cpu_source(void)
{
    return rapl.n ? "rapl" : est.fd >= 0 ? "estimate" : "none";
}

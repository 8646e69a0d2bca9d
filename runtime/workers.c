// SPDX-License-Identifier: BSD-3-Clause
// Panel cores: which CPU workers factor an LU panel together.
//
// A parallel panel runs as one task on a combined worker (StarPU's SPMD
// tasks).  Its members are chosen with hwloc: CPU workers whose cores share
// an L3 cache (the panel stays in that cache while every thread sweeps it
// once per column), the largest such group first (with GPUs, in the
// package nearest the first one), then the rest of the same package, then
// the other packages.  Combined workers of every size
// from 2 to panel_threads share the same first members, so a short panel
// near the end of the factorization uses fewer, still close, cores.
#include "glue.h"

#include <hwloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct {
    int nthreads;                     // panel threads in force
    int combined[STARPU_MAXCPUS + 1]; // combined worker of size s, or -1
    char text[512];
} panel;

int hyla_rt_cpu_workers(void)
{
    return (int)starpu_cpu_worker_get_count();
}

int hyla_rt_panel_worker(int ntiles)
{
    int s = hyla_imin(panel.nthreads, ntiles);
    return s >= 2 ? panel.combined[s] : -1;
}

unsigned long long hyla_rt_where(const struct starpu_codelet *cl)
{
    if (hyla_rt_config()->mode == HYLA_MODE_NATIVE && cl->cuda_funcs[0])
        return STARPU_CUDA;
    return (unsigned long long)-1; // the codelet's own (task->where unset)
}

unsigned long long hyla_rt_panel_where(void)
{
    return hyla_rt_config()->mode == HYLA_MODE_NATIVE ? STARPU_CUDA
                                                      : STARPU_CPU;
}

const char *hyla_rt_topology(void)
{
    return panel.text;
}

typedef struct {
    int worker, pu, l3, package;
} place_t;

static int ancestor_index(hwloc_obj_t o, hwloc_obj_type_t type)
{
    for (; o; o = o->parent)
        if (o->type == type) return (int)o->logical_index;
    return -1;
}

static int group_size(const place_t *p, int n, int l3, int package)
{
    int c = 0;
    for (int i = 0; i < n; i++)
        c += p[i].l3 == l3 && p[i].package == package;
    return c;
}

static int group_size_in(const place_t *p, int n, int package)
{
    int c = 0;
    for (int i = 0; i < n; i++)
        c += p[i].package == package;
    return c;
}

// Order: the chosen L3 group, then its package, then the rest, each by PU.
static int best_l3, best_package;

static int rank_of(const place_t *p)
{
    if (p->l3 == best_l3 && p->package == best_package) return 0;
    return p->package == best_package ? 1 : 2;
}

static int by_locality(const void *x, const void *y)
{
    const place_t *a = x, *b = y;
    int ra = rank_of(a), rb = rank_of(b);
    if (ra != rb) return ra - rb;
    return a->pu - b->pu;
}

// StarPU 1.4 sizes a performance model's per-architecture table when the
// model is first used, for the architecture combinations it knows of then
// (2 (1 + GPUs) before any task has run), and later grows the table by the
// number of combinations that model has met, not by the index of the one
// it records.  A combined worker whose combination was numbered after the
// GPUs' then records past the end of the panel model's table: with panels
// of 8 threads on 2 GPUs, heap corruption and a crash (docs/perf).  Every
// worker's combination numbered here, before any task, makes StarPU's list
// large enough at the start, and every model's table with it.
static void number_arch_combs(void)
{
    int n = (int)(starpu_worker_get_count() +
                  starpu_combined_worker_get_count());
    for (int w = 0; w < n; w++) {
        struct starpu_perfmodel_arch *a =
            starpu_worker_get_perf_archtype(w, STARPU_NMAX_SCHED_CTXS);
        if (starpu_perfmodel_arch_comb_get(a->ndevices, a->devices) < 0)
            starpu_perfmodel_arch_comb_add(a->ndevices, a->devices);
    }
}

int hyla_rt_panel_workers_init(int panel_threads)
{
    int ids[STARPU_MAXCPUS];
    int n =
        starpu_worker_get_ids_by_type(STARPU_CPU_WORKER, ids, STARPU_MAXCPUS);
    place_t place[STARPU_MAXCPUS];
    for (int i = 0; i < n; i++) {
        hwloc_obj_t o = starpu_worker_get_hwloc_obj(ids[i]);
        place[i] = (place_t){ids[i], o ? (int)o->os_index : ids[i],
                             ancestor_index(o, HWLOC_OBJ_L3CACHE),
                             ancestor_index(o, HWLOC_OBJ_PACKAGE)};
    }
    // With GPUs, the panel's rows travel to and from them: stay in the
    // package of the core that drives the first GPU (StarPU binds it near
    // its GPU), when CPU workers are there.
    int gpu_package = -1, gpu[1];
    if (starpu_worker_get_ids_by_type(STARPU_CUDA_WORKER, gpu, 1) == 1)
        gpu_package = ancestor_index(starpu_worker_get_hwloc_obj(gpu[0]),
                                     HWLOC_OBJ_PACKAGE);
    if (group_size_in(place, n, gpu_package) == 0) gpu_package = -1;
    best_l3 = best_package = -1;
    for (int i = 0; i < n; i++) {
        if (gpu_package >= 0 && place[i].package != gpu_package) continue;
        if ((best_l3 < 0 && best_package < 0) ||
            group_size(place, n, place[i].l3, place[i].package) >
                group_size(place, n, best_l3, best_package)) {
            best_l3 = place[i].l3;
            best_package = place[i].package;
        }
    }
    qsort(place, n, sizeof place[0], by_locality);

    panel.nthreads = hyla_imax(1, hyla_imin(panel_threads, n));
    for (int s = 0; s <= STARPU_MAXCPUS; s++)
        panel.combined[s] = -1;
    for (int s = 2; s <= panel.nthreads; s++) {
        int members[STARPU_MAXCPUS];
        for (int i = 0; i < s; i++)
            members[i] = place[i].worker;
        int id = starpu_combined_worker_assign_workerid(s, members);
        if (id < 0) return HYLA_ERR_RUNTIME;
        panel.combined[s] = id;
    }
    number_arch_combs();

    int len = snprintf(panel.text, sizeof panel.text,
                       "%d CPU workers; LU panel on %d thread%s", n,
                       panel.nthreads, panel.nthreads > 1 ? "s" : "");
    if (panel.nthreads > 1) {
        len +=
            snprintf(panel.text + len, sizeof panel.text - len,
                     " (L3 #%d of package #%d), cores", best_l3, best_package);
        for (int i = 0; i < panel.nthreads && len < (int)sizeof panel.text; i++)
            len += snprintf(panel.text + len, sizeof panel.text - len, " %d",
                            place[i].pu);
    }
    return HYLA_SUCCESS;
}

int hyla_rt_panel_threads(void)
{
    return panel.nthreads;
}

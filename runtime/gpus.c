// SPDX-License-Identifier: BSD-3-Clause
// The GPUs as the runtime sees them: the workers (one per stream) and the
// memory node of each, the owner-computes mapping of tile columns and when
// a call takes it, and hyla_desc_place().  The workers of a GPU can have
// roles: its first one the critical path, the others the rest
// (hyla_rt_critical_stream).
#include "glue.h"

#include <pthread.h>
#include <string.h>

enum { MASK_WORDS = (STARPU_NMAXWORKERS + 31) / 32 };

static struct {
    int n;       // GPUs
    int streams; // workers per GPU
    int devid[STARPU_MAXCUDADEVS];
    unsigned node[STARPU_MAXCUDADEVS];
    uint32_t mask[STARPU_MAXCUDADEVS][MASK_WORDS]; // its workers, as bits
    // Its first worker (role 0: the critical path), its others (role 1:
    // the rest); and the same over all GPUs.
    uint32_t role[STARPU_MAXCUDADEVS][2][MASK_WORDS];
    uint32_t role_all[2][MASK_WORDS];
} gpus;

int hyla_rt_gpus_init(void)
{
    memset(&gpus, 0, sizeof gpus);
    int ids[STARPU_NMAXWORKERS];
    int nw = starpu_worker_get_ids_by_type(STARPU_CUDA_WORKER, ids,
                                           STARPU_NMAXWORKERS);
    for (int i = 0; i < nw; i++) {
        int w = ids[i], dev = starpu_worker_get_devid(w), g = 0, r = 1;
        while (g < gpus.n && gpus.devid[g] != dev)
            g++;
        if (g == gpus.n) {
            if (g == STARPU_MAXCUDADEVS) continue;
            gpus.n++;
            gpus.devid[g] = dev;
            gpus.node[g] = starpu_worker_get_memory_node(w);
            r = 0; // the GPU's first worker
        }
        uint32_t bit = UINT32_C(1) << (w % 32);
        gpus.mask[g][w / 32] |= bit;
        gpus.role[g][r][w / 32] |= bit;
        gpus.role_all[r][w / 32] |= bit;
    }
    gpus.streams = gpus.n ? nw / gpus.n : 0;
    return gpus.n;
}

int hyla_rt_gpus(void)
{
    return gpus.n;
}

int hyla_rt_gpu_fits(size_t bytes)
{
    if (gpus.n == 0) return 0;
    starpu_ssize_t total = starpu_memory_get_total(gpus.node[0]);
    return total < 0 || bytes <= (size_t)total / 2;
}

// Spare clean buffers (hyla_rt_gpus_spares): one-word variables at home
// in host memory, prefetched read-only to every GPU.
enum { SPARES_MAX = 512 };
static struct {
    pthread_mutex_t lock;
    int count;
    double word[SPARES_MAX];
    starpu_data_handle_t h[SPARES_MAX];
} spares = {.lock = PTHREAD_MUTEX_INITIALIZER};

int hyla_rt_gpus_spares(const hyla_desc_t *A)
{
    if (gpus.n == 0 || hyla_rt_config()->mode != HYLA_MODE_NATIVE) return 0;
    if (!hyla_rt_gpu_fits(A->bytes)) {
        hyla_rt_gpus_spares_release();
        return 0;
    }
    // 1 clean buffer in 20 (StarPU's default STARPU_MINIMUM_CLEAN_BUFFERS)
    // stops the write-back; one per 8 tiles, and some for the workspaces,
    // leave room.
    size_t want = (size_t)A->mt * A->nt / 8 + 16;
    if (want > SPARES_MAX) want = SPARES_MAX;
    pthread_mutex_lock(&spares.lock);
    while ((size_t)spares.count < want) {
        int i = spares.count++;
        starpu_variable_data_register(&spares.h[i], STARPU_MAIN_RAM,
                                      (uintptr_t)&spares.word[i],
                                      sizeof(double));
    }
    for (size_t i = 0; i < want; i++)
        for (int g = 0; g < gpus.n; g++)
            starpu_data_prefetch_on_node(spares.h[i], gpus.node[g], 1);
    pthread_mutex_unlock(&spares.lock);
    return (int)want;
}

void hyla_rt_gpus_spares_release(void)
{
    pthread_mutex_lock(&spares.lock);
    for (int i = 0; i < spares.count; i++)
        starpu_data_unregister(spares.h[i]);
    spares.count = 0;
    pthread_mutex_unlock(&spares.lock);
}

// Out of core on several GPUs the scheduler's placement moved tiles from
// GPU to GPU over and over (an LU of 34 GB on 2 GPUs under a 1.2x memory
// limit: 1.2-1.7 TB between them in one call), and the cyclic mapping,
// which keeps a tile column on one GPU, ran 1.3-1.8x faster (n = 32768 and
// 65536; the hybrid LU 1.06x).  In core the native LU takes it too
// (hyla_cyclic_rule); the others keep the scheduler's (docs/perf).
int hyla_rt_cyclic(size_t bytes, int lu)
{
    size_t total = 0;
    for (int g = 0; g < gpus.n; g++) {
        starpu_ssize_t t = starpu_memory_get_total(gpus.node[g]);
        if (t < 0) { // not known
            total = 0;
            break;
        }
        total += (size_t)t;
    }
    const hyla_config_t *c = hyla_rt_config();
    return hyla_cyclic_rule(c->mapping, gpus.n,
                            lu && c->mode == HYLA_MODE_NATIVE, bytes, total);
}

int hyla_rt_gpu_streams(void)
{
    return gpus.streams;
}

const uint32_t *hyla_rt_owner_mask(const struct starpu_codelet *cl,
                                   const hyla_task_opts_t *o, unsigned *len)
{
    int cyclic = o->owner >= 0 && o->cyclic && gpus.n > 0;
    int roles = o->critical_stream && gpus.n > 0 && cl->cuda_funcs[0];
    *len = cyclic || roles ? MASK_WORDS : 0;
    int r = o->priority > 0 ? 0 : 1;
    if (roles)
        return cyclic ? gpus.role[o->owner % gpus.n][r] : gpus.role_all[r];
    return cyclic ? gpus.mask[o->owner % gpus.n] : NULL;
}

HYLA_EXPORT int hyla_desc_place(hyla_desc_t *A, hyla_place_t where)
{
    const char *r = "hyla_desc_place";
    int rc = hyla_rt_check_init(r);
    if (rc) return rc;
    if (!A) return hyla_rt_error(-1, "%s: A is NULL", r);
    if (where != HYLA_PLACE_HOST && where != HYLA_PLACE_GPUS)
        return hyla_rt_error(-2, "%s: where is not a hyla_place_t", r);
    if (where == HYLA_PLACE_GPUS && gpus.n == 0) return HYLA_SUCCESS;

    // Start every copy, then wait for each: the transfers overlap.  A
    // read-only acquisition waits for the tasks that write the tile.  Of a
    // distributed matrix, this process's tiles.
    size_t ntiles = (size_t)A->mt * A->nt;
    for (int pass = 0; pass < 2; pass++)
        for (size_t i = 0; i < ntiles; i++) {
            starpu_data_handle_t h = A->handles[i];
            int col = (int)(i / (size_t)A->mt);
            if (A->dist && hyla_tile_owner(A, (int)(i % (size_t)A->mt), col) !=
                               hyla_rt_rank())
                continue;
            int node = where == HYLA_PLACE_HOST ? STARPU_MAIN_RAM
                                                : (int)gpus.node[col % gpus.n];
            if (pass == 0) {
                starpu_data_prefetch_on_node(h, (unsigned)node, 1);
            } else if (starpu_data_acquire_on_node(h, node, STARPU_R) == 0) {
                starpu_data_release_on_node(h, node);
            } else {
                return hyla_rt_error(HYLA_ERR_RUNTIME,
                                     "%s: cannot bring tile %zu to node %d", r,
                                     i, node);
            }
        }
    return HYLA_SUCCESS;
}

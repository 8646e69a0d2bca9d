// SPDX-License-Identifier: BSD-3-Clause
// The GPUs as the runtime sees them: the workers (one per stream) and the
// memory node of each, the owner-computes mapping of tile columns, and
// hyla_desc_place().
#include "glue.h"

#include <string.h>

enum { MASK_WORDS = (STARPU_NMAXWORKERS + 31) / 32 };

static struct {
    int n;       // GPUs
    int streams; // workers per GPU
    int devid[STARPU_MAXCUDADEVS];
    unsigned node[STARPU_MAXCUDADEVS];
    uint32_t mask[STARPU_MAXCUDADEVS][MASK_WORDS]; // its workers, as bits
} gpus;

int hyla_rt_gpus_init(void)
{
    memset(&gpus, 0, sizeof gpus);
    int ids[STARPU_NMAXWORKERS];
    int nw = starpu_worker_get_ids_by_type(STARPU_CUDA_WORKER, ids,
                                           STARPU_NMAXWORKERS);
    for (int i = 0; i < nw; i++) {
        int w = ids[i], dev = starpu_worker_get_devid(w), g = 0;
        while (g < gpus.n && gpus.devid[g] != dev)
            g++;
        if (g == gpus.n) {
            if (g == STARPU_MAXCUDADEVS) continue;
            gpus.n++;
            gpus.devid[g] = dev;
            gpus.node[g] = starpu_worker_get_memory_node(w);
        }
        gpus.mask[g][w / 32] |= UINT32_C(1) << (w % 32);
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

int hyla_rt_gpu_streams(void)
{
    return gpus.streams;
}

const uint32_t *hyla_rt_owner_mask(int owner, unsigned *len)
{
    if (owner < 0 || gpus.n == 0 ||
        hyla_rt_config()->mapping != HYLA_MAP_CYCLIC) {
        *len = 0;
        return NULL;
    }
    *len = MASK_WORDS;
    return gpus.mask[owner % gpus.n];
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

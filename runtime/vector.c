// SPDX-License-Identifier: BSD-3-Clause
// Plain blocks of host memory as runtime handles, and staging memory.
#include "glue.h"

#include <stdlib.h>

int hyla_rt_vector_create(void **h, void *p, size_t count, size_t elemsize)
{
    starpu_data_handle_t d;
    starpu_vector_data_register(&d, STARPU_MAIN_RAM, (uintptr_t)p, count,
                                elemsize);
    *h = d;
    return 0;
}

void hyla_rt_vector_destroy(void *h)
{
    if (h) starpu_data_unregister((starpu_data_handle_t)h);
}

void hyla_rt_vectors_destroy(void **h, size_t count)
{
    // Every copy back starts before the first unregistration waits.
    for (size_t i = 0; i < count; i++)
        if (h[i])
            starpu_data_fetch_on_node((starpu_data_handle_t)h[i],
                                      STARPU_MAIN_RAM, 1);
    for (size_t i = 0; i < count; i++)
        hyla_rt_vector_destroy(h[i]);
}

void *hyla_rt_staging_alloc(size_t bytes)
{
    void *p = NULL;
    if (posix_memalign(&p, 64, bytes ? bytes : 1)) return NULL;
    if (hyla_rt_config()->ngpus > 0) starpu_memory_pin(p, bytes);
    return p;
}

void hyla_rt_staging_free(void *p, size_t bytes)
{
    if (!p) return;
    if (hyla_rt_config()->ngpus > 0) starpu_memory_unpin(p, bytes);
    free(p);
}

int hyla_rt_workers(void)
{
    return (int)starpu_worker_get_count();
}

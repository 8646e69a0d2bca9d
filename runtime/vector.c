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
    // Every copy back starts before the first unregistration waits (those
    // with no memory here, another process's, have nothing to bring).
    for (size_t i = 0; i < count; i++)
        if (h[i] && starpu_data_get_home_node(h[i]) == STARPU_MAIN_RAM)
            starpu_data_fetch_on_node((starpu_data_handle_t)h[i],
                                      STARPU_MAIN_RAM, 1);
    for (size_t i = 0; i < count; i++)
        hyla_rt_vector_destroy(h[i]);
}

int hyla_rt_vector_of_tile(void **h, void *p, size_t count, size_t elemsize,
                           const hyla_desc_t *A, int m, int n)
{
    if (!A->dist) return hyla_rt_vector_create(h, p, count, elemsize);
#if HYLA_HAVE_MPI
    int owner = hyla_tile_owner(A, m, n);
    starpu_data_handle_t d;
    if (owner == hyla_rt_rank())
        starpu_vector_data_register(&d, STARPU_MAIN_RAM, (uintptr_t)p, count,
                                    elemsize);
    else
        starpu_vector_data_register(&d, -1, 0, count, elemsize);
    hyla_rt_mpi_register(d, hyla_rt_mpi_tags(1), owner);
    *h = d;
#else
    (void)m;
    (void)n;
#endif
    return 0;
}

int hyla_rt_vector_everywhere(void **h, void *p, size_t count, size_t elemsize,
                              const hyla_desc_t *A)
{
    int rc = hyla_rt_vector_create(h, p, count, elemsize);
#if HYLA_HAVE_MPI
    if (A->dist)
        hyla_rt_mpi_register(*h, hyla_rt_mpi_tags(1), STARPU_MPI_PER_NODE);
#endif
    return rc;
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

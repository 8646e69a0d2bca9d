// SPDX-License-Identifier: BSD-3-Clause
// Partial sums by process for the fan-in of distributed solves and
// products: each process adds its own tiles' products into tiles of its
// own, and only those small tiles travel to the process that sums them.
#include "glue.h"

#include <stdlib.h>

struct hyla_partials {
    int mt, nt, nprocs;
    void **h; // tile (m, n) of process r: h[m + mt (n + nt r)]
    struct hyla_partials *next;
};

hyla_partials_t *hyla_rt_partials(hyla_seq_t *seq, const hyla_desc_t *B)
{
    int np = hyla_rt_nprocs();
    size_t count = (size_t)B->mt * B->nt * np;
    hyla_partials_t *W = calloc(1, sizeof *W);
    void **h = W ? calloc(count ? count : 1, sizeof *h) : NULL;
    if (!h) {
        free(W);
        hyla_rt_seq_fail(seq, HYLA_ERR_OUT_OF_MEMORY);
        return NULL;
    }
    *W = (hyla_partials_t){B->mt, B->nt, np, h, seq->partials};
    long long tags = hyla_rt_mpi_tags((long long)count);
    for (size_t i = 0; i < count; i++) {
        int m = (int)(i % B->mt), n = (int)(i / B->mt % B->nt);
        int ld = hyla_tile_nb(B, n);
        starpu_data_handle_t d;
        // No memory until the first task that writes it, on its process.
        starpu_matrix_data_register(&d, -1, 0, ld, ld, hyla_tile_mb(B, m),
                                    B->elemsize);
#if HYLA_HAVE_MPI
        if (B->dist)
            hyla_rt_mpi_register(d, tags + (long long)i,
                                 (int)(i / ((size_t)B->mt * B->nt)));
#endif
        h[i] = d;
    }
    (void)tags;
    seq->partials = W;
    return W;
}

void *hyla_rt_partial(const hyla_partials_t *W, int m, int n, int r)
{
    return W->h[m + (size_t)W->mt * (n + (size_t)W->nt * r)];
}

void hyla_rt_partials_release(hyla_seq_t *seq)
{
    while (seq->partials) {
        hyla_partials_t *W = seq->partials;
        size_t count = (size_t)W->mt * W->nt * W->nprocs;
        for (size_t i = 0; i < count; i++)
            starpu_data_unregister_no_coherency(W->h[i]);
        seq->partials = W->next;
        free(W->h);
        free(W);
    }
}

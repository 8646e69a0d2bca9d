// SPDX-License-Identifier: BSD-3-Clause
// A sum of tile-by-vector products in one kernel, from the codelets'
// tile buffers.  @precisions d -> s
#ifndef HYLA_CODELETS_GEMV_TILES_D_H
#define HYLA_CODELETS_GEMV_TILES_D_H

#include "codelets.h"

#if HYLA_CUDA_CODELETS
// y = alpha sum_{j < count} A[j] x[j] + beta y on stream s, where A[j]
// are tiles with y's rows and x[j] one-column tiles: the pointer lists
// hyla_cuda_dgemv_sum takes, gathered from the tiles.
static inline int hyla_cl_dgemv_tiles(cudaStream_t s, int count,
                                      void *const A[], void *const x[],
                                      double alpha, double beta, void *y)
{
    if (count == 0) return 0;
    const double *Ap[count], *xp[count];
    int k[count], lda[count], incx[count];
    for (int j = 0; j < count; j++) {
        Ap[j] = HYLA_TILE_PTR(A[j]);
        k[j] = HYLA_TILE_COLS(A[j]);
        lda[j] = HYLA_TILE_LD(A[j]);
        xp[j] = HYLA_TILE_PTR(x[j]);
        incx[j] = HYLA_TILE_LD(x[j]);
    }
    return hyla_cuda_dgemv_sum(s, HYLA_TILE_ROWS(y), count, Ap, k, lda, xp,
                               incx, alpha, beta, HYLA_TILE_PTR(y),
                               HYLA_TILE_LD(y));
}
#endif

#endif // HYLA_CODELETS_GEMV_TILES_D_H

// SPDX-License-Identifier: BSD-3-Clause
// A tile column as the kernels take it: the device addresses of its
// row-major tiles, passed to a kernel by value.
#ifndef HYLA_CUDA_TILES_T_H
#define HYLA_CUDA_TILES_T_H

#include "gpu.h"

namespace hyla
{

// GPUs whose per-device kernel settings the launchers cache.
constexpr int max_gpus = 64;

template <typename T> struct tiles {
    T *tile[HYLA_CUDA_LASWP_MAXTILES];

    // From the host array of ntiles (<= HYLA_CUDA_LASWP_MAXTILES) addresses.
    static tiles from(T *const *dtile, int ntiles)
    {
        tiles t;
        for (int i = 0; i < ntiles; i++)
            t.tile[i] = dtile[i];
        return t;
    }
    // Row r of the column: tiles of mb rows, leading dimension ldd.
    __device__ T *row(int r, int mb, int ldd) const
    {
        return tile[r / mb] + (size_t)(r % mb) * ldd;
    }
};

} // namespace hyla

#endif // HYLA_CUDA_TILES_T_H

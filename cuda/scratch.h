// SPDX-License-Identifier: BSD-3-Clause
// Stream-ordered device memory (cudaMallocAsync) for the length of one
// call, freed on its stream when the object goes.
#ifndef HYLA_CUDA_SCRATCH_H
#define HYLA_CUDA_SCRATCH_H

#include <cuda_runtime.h>

#include <cstddef>

namespace hyla
{

// Up to four buffers on stream s; get() returns null (the CUDA error
// cleared) when the memory cannot be had, and the caller chooses a way
// that needs none or fails.
struct scratch {
    cudaStream_t s;
    void *p[4] = {};
    int used = 0;
    explicit scratch(cudaStream_t st) : s(st) {}
    scratch(const scratch &) = delete;
    scratch &operator=(const scratch &) = delete;
    ~scratch()
    {
        for (int i = 0; i < used; i++)
            if (p[i]) cudaFreeAsync(p[i], s);
    }
    template <typename U> U *get(size_t count)
    {
        void *q = nullptr;
        if (used == 4) return nullptr;
        if (cudaMallocAsync(&q, count * sizeof(U), s) != cudaSuccess) {
            cudaGetLastError();
            return nullptr;
        }
        p[used++] = q;
        return static_cast<U *>(q);
    }
};

} // namespace hyla

#endif // HYLA_CUDA_SCRATCH_H

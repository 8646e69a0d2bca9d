// SPDX-License-Identifier: BSD-3-Clause
// Stream-ordered device memory (cudaMallocAsync) for the length of one
// call, freed on its stream when the object goes.
#ifndef HYLA_CUDA_SCRATCH_H
#define HYLA_CUDA_SCRATCH_H

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

namespace hyla
{

// The current device's default pool keeps the memory freed into it.  By
// default CUDA gives it back to the system at each synchronisation, and
// the next cudaMallocAsync maps it again: 0.4-0.7 ms on the GPUs' driver
// thread, before the kernels of a Cholesky tile on the critical path.  The
// pool keeps no more than the largest set of buffers in use at once.
inline void keep_freed_memory()
{
    static bool done[64];
    int dev;
    if (cudaGetDevice(&dev) != cudaSuccess || dev < 0 || dev >= 64) {
        cudaGetLastError();
        return;
    }
    if (done[dev]) return;
    cudaMemPool_t pool;
    std::uint64_t keep = UINT64_MAX; // the attribute is 64 bits wide
    if (cudaDeviceGetDefaultMemPool(&pool, dev) != cudaSuccess ||
        cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep) !=
            cudaSuccess)
        cudaGetLastError();
    done[dev] = true;
}

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
        keep_freed_memory();
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

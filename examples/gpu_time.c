// SPDX-License-Identifier: BSD-3-Clause
// Timing GPU work by CUDA events.
#include "gpu_time.h"

#include <math.h>

#define CUDA_OK(call) ((call) == cudaSuccess)

int gpu_time_runs(cudaStream_t s, int repeat, void *dst, const void *src,
                  size_t bytes, int (*run)(void *), void *arg, double *best)
{
    cudaEvent_t t0, t1;
    if (!CUDA_OK(cudaEventCreate(&t0)) || !CUDA_OK(cudaEventCreate(&t1)))
        return -1;
    int rc = 0;
    *best = INFINITY;
    for (int i = -1; i < repeat && !rc; i++) {
        float ms;
        if (!CUDA_OK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice,
                                     s)) ||
            !CUDA_OK(cudaEventRecord(t0, s)) || run(arg) ||
            !CUDA_OK(cudaEventRecord(t1, s)) ||
            !CUDA_OK(cudaEventSynchronize(t1)) ||
            !CUDA_OK(cudaEventElapsedTime(&ms, t0, t1)))
            rc = -1;
        else if (i >= 0 && ms * 1e-3 < *best)
            *best = ms * 1e-3;
    }
    cudaEventDestroy(t0);
    cudaEventDestroy(t1);
    return rc;
}

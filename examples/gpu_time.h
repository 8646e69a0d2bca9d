// SPDX-License-Identifier: BSD-3-Clause
// Timing GPU work by CUDA events, for the GPU benchmark drivers.
#ifndef HYLA_EXAMPLES_GPU_TIME_H
#define HYLA_EXAMPLES_GPU_TIME_H

#include <cuda_runtime.h>
#include <stddef.h>

// Seconds of the work run(arg) queues on stream s, best of repeat runs
// after one warm-up, each on a fresh copy of the bytes at src in dst
// (device memory; the copy is not timed).  0, or -1 on a CUDA failure or
// when run returns non-zero.
int gpu_time_runs(cudaStream_t s, int repeat, void *dst, const void *src,
                  size_t bytes, int (*run)(void *), void *arg, double *best);

#endif // HYLA_EXAMPLES_GPU_TIME_H

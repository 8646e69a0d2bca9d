// SPDX-License-Identifier: BSD-3-Clause
// cuBLAS handles for calls made outside StarPU's workers (the
// GPU-resident batched routines): one per thread and device, created on
// first use and kept for the thread's life (creating one costs far more
// than a call).
#include "gpu.h"

extern "C" int hyla_cuda_device_below(int max)
{
    int dev;
    if (cudaGetDevice(&dev) != cudaSuccess || dev < 0 || dev >= max) {
        cudaGetLastError();
        return -1;
    }
    return dev;
}

extern "C" cublasHandle_t hyla_cuda_thread_handle(void)
{
    constexpr int max_devices = 64;
    static thread_local cublasHandle_t handles[max_devices];
    int dev = hyla_cuda_device_below(max_devices);
    if (dev < 0) return nullptr;
    if (!handles[dev] && cublasCreate(&handles[dev]) != CUBLAS_STATUS_SUCCESS)
        handles[dev] = nullptr;
    return handles[dev];
}

// SPDX-License-Identifier: BSD-3-Clause
// The start shared by the GPU kernel tests.
#ifndef HYLA_TESTS_GPU_HARNESS_H
#define HYLA_TESTS_GPU_HARNESS_H

#include "harness.h"

#include <cublas_v2.h>
#include <cuda_runtime.h>

// 1 when a GPU is there (and *handle, unless NULL, a new cuBLAS handle);
// 0 after counting the test skipped (no GPU) or failed (no handle).
static inline int th_gpu_start(cublasHandle_t *handle)
{
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
        th_skip("no GPU");
        return 0;
    }
    if (handle && cublasCreate(handle) != CUBLAS_STATUS_SUCCESS) {
        th_check(0, "cublasCreate failed");
        return 0;
    }
    return 1;
}

#endif // HYLA_TESTS_GPU_HARNESS_H

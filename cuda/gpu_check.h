// SPDX-License-Identifier: BSD-3-Clause
// CUDA and cuBLAS results as hyla statuses (never assert on them).
#ifndef HYLA_CUDA_GPU_CHECK_H
#define HYLA_CUDA_GPU_CHECK_H

#include <hyla/types.h>

#define HYLA_CUDA_CHECK(call)                                                  \
    do {                                                                       \
        if ((call) != cudaSuccess) return HYLA_ERR_CUDA;                       \
    } while (0)

#define HYLA_CUBLAS_CHECK(call)                                                \
    do {                                                                       \
        if ((call) != CUBLAS_STATUS_SUCCESS) return HYLA_ERR_CUBLAS;           \
    } while (0)

#endif // HYLA_CUDA_GPU_CHECK_H

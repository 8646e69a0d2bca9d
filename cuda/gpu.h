// SPDX-License-Identifier: BSD-3-Clause
// CUDA kernels and cuBLAS calls: device pointers, sizes, leading
// dimensions, a stream or a handle; no StarPU, no descriptors.
//
// Unlike cuBLAS, matrices here are row-major tiles (element (i, j) of a
// tile at T[i*ld + j]), with the meaning the CPU kernels give them; the
// wrappers translate through the transpose identities, without copies.
#ifndef HYLA_CUDA_GPU_H
#define HYLA_CUDA_GPU_H

#include "hyla_config.h"
#if !HYLA_HAVE_CUDA
#error "cuda/gpu.h is for CUDA builds only"
#endif

#include "flags.h"
#include <cublas_v2.h>
#include <cuda_runtime.h>

#ifdef __cplusplus
extern "C" {
#endif

// The most tiles one hyla_cuda_*laswp call takes.
enum { HYLA_CUDA_LASWP_MAXTILES = 1024 };
// Device workspace of one hyla_cuda_*getrf_panel call, in bytes.
enum { HYLA_CUDA_GETRF_PANEL_WORK = 1 << 20 };

// D2 leaf variants for hyla_cuda_getrf_panel_tune: no thread block
// cluster; the rows in registers where they fit rather than in shared
// memory; grid-barrier leaf blocks alone on their SMs (each asks for all
// the shared memory of one), or sharing them with other kernels' blocks.
// By default a cluster where the rows fit in its shared memory, else the
// rows in shared memory and a grid barrier, alone in single precision and
// shared in double.
enum {
    HYLA_CUDA_LEAF_NO_CLUSTER = 1,
    HYLA_CUDA_LEAF_REG = 2,
    HYLA_CUDA_LEAF_ALONE = 4,
    HYLA_CUDA_LEAF_SHARED = 8
};

// Process-wide tunables of hyla_cuda_*getrf_panel (for benchmarks and
// tests): the widest leaf, 1 to 32 columns, the rows a grid-barrier D2
// leaf block aims at, the height from which leaves use design D1, and the
// D2 variants (HYLA_CUDA_LEAF_*, or-ed).  0: the defaults, 32, 256, D1
// only where a leaf's rows do not fit in shared memory, the default
// variants.
void hyla_cuda_getrf_panel_tune(int leaf, int rows, int d1_height,
                                int variants);

// Blocks of a cluster leaf on the current GPU (single: of the float
// panel), 0 where the GPU has none, -1 on a CUDA error.
int hyla_cuda_getrf_panel_cluster(int single);

// Columns of a block of steps of hyla_cuda_*potrf (for benchmarks and
// tests): a step's update covers the rest of its block, the columns right
// of it wait for one update after the block.  Rounded up to a multiple of
// the 64-column step; 0: the default, HYLA_CUDA_POTRF_BLOCK.
enum { HYLA_CUDA_POTRF_BLOCK = 512 };
void hyla_cuda_potrf_tune(int block);

// The largest order of the batched kernels that hold a matrix in
// registers (hyla_cuda_*batch_getrf, *batch_getri), and of the batched
// kernels at all.
enum { HYLA_CUDA_TINY_MAX = 32, HYLA_CUDA_BATCHED_MAX = 512 };

// Threads per block of the tiny batched kernels for order n (several
// matrices a block; for benchmarks); 0: the default, by order.
void hyla_cuda_batched_tune(int n, int threads);

// LU of orders 17 to 31 on the kernel of order 32, the matrices extended
// by the identity (for benchmarks): 1 every order, 0 or -1 none (the
// default: each order's own kernel measured faster, docs/perf).
void hyla_cuda_batched_pad_tune(int pad);

// Orders 33 to 512 (for benchmarks): block (32, 64 or 128 columns; 0:
// by order) and the side streams of the trailing GEMMs of matrices at a
// stride (1 to 8: a cuBLAS call a matrix on that many streams; 0: one
// batched call; -1: the default, batched).
void hyla_cuda_batched_large_tune(int block, int streams);

// A cuBLAS handle of the calling thread on the current device, created on
// first use and kept; NULL when none can be had.
cublasHandle_t hyla_cuda_thread_handle(void);

// The current device, if it is below max (for per-device tables of the
// calling thread); else -1, the CUDA error cleared.
int hyla_cuda_device_below(int max);

#include "gpu_d.h"
#include "gpu_s.h"

#ifdef __cplusplus
}
#endif

#endif // HYLA_CUDA_GPU_H

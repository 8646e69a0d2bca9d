// SPDX-License-Identifier: BSD-3-Clause
// Cholesky of one tile on the GPU: recursive, TRSM (trsm_t.h) and cuBLAS
// SYRK between levels, a leaf of up to 128 columns factored by one thread block
// in shared memory.
#include "gpu.h"
#include "blas_t.h"
#include "gpu_check.h"
#include "trsm_t.h"

#include <atomic>

namespace
{

using hyla::blas;

constexpr int leaf_n = 128;       // columns of a leaf
constexpr int ib = 32;            // columns of a block inside the leaf
constexpr int leaf_threads = 512; // threads of the leaf's block (16 warps)
constexpr int warps = leaf_threads / 32;
constexpr int max_gpus = 64; // GPUs whose leaf attribute is cached
// Trailing-update tile of one thread: rows ty, ty+16, ... and columns
// tx, tx+32, ... of at most leaf_n - ib.
constexpr int up_rows = (leaf_n - ib) / warps, up_cols = (leaf_n - ib) / 32;

// Column-major view of the row-major tile (the same memory): a row-major
// lower L is a column-major upper U = L^T with A = U^T U, and a row-major
// upper one a column-major lower L with A = L L^T.  `upper` below is the
// column-major triangle.
//
// The leaf holds the upper triangle of its block in shared memory,
// s[r*ls + c] = a(r, c) for r <= c (a lower block is loaded transposed:
// the same code then serves both), and factors it by blocks of ib
// columns: warp 0 factors the diagonal block in registers (lane l holds
// column l, rows travel by shuffles) and keeps the reciprocals of its
// diagonal; then one thread per column solves U11^T U12 = A12; then the whole
// block updates A22 -= U12^T U12, each thread a register tile.  A pivot that is
// not positive (NaN too, as in LAPACK's dpotrf2) stops the leaf, its column
// (offset by col0) going to *info unless it holds one already (leaves run in
// column order on one stream).
template <typename T, bool upper>
__global__ void __launch_bounds__(leaf_threads)
    potrf_leaf_kernel(T *A, int lda, int n, int *info, int col0)
{
    extern __shared__ unsigned char leaf_smem[];
    __shared__ int failed;
    __shared__ T rdiag[ib]; // 1 / U(j, j) of the diagonal block
    T *s = reinterpret_cast<T *>(leaf_smem);
    const int ls = n + 1, t = threadIdx.x, lane = t % 32, warp = t / 32;
    // Loads and stores run along the memory's contiguous index.
    for (int i = t; i < n * n; i += leaf_threads) {
        int fast = i % n, slow = i / n;
        int r = upper ? fast : slow, c = upper ? slow : fast;
        if (r <= c) s[r * ls + c] = A[fast + (size_t)slow * lda];
    }
    if (t == 0) failed = 0;
    __syncthreads();
    for (int kb = 0; kb < n; kb += ib) {
        const int w = min(ib, n - kb), c0 = kb + w, m = n - c0;
        T *D = s + kb * ls + kb; // the diagonal block, D[r*ls + c]
        if (warp == 0) {
            T d[ib]; // column `lane` of D
#pragma unroll
            for (int r = 0; r < ib; r++)
                d[r] = r <= lane && lane < w ? D[r * ls + lane] : T(0);
            int bad = 0; // failing column + 1; the same in every lane
#pragma unroll
            for (int j = 0; j < ib; j++) {
                if (j >= w || bad) continue;
                T p = __shfl_sync(0xffffffffu, d[j], j);
                if (!(p > T(0))) {
                    bad = j + 1;
                    continue;
                }
                // One reciprocal square root, then products: divisions and
                // square roots in FP64 are long on the critical chain.
                T rp = rsqrt(p);
                if (lane == j) {
                    d[j] = p * rp;
                    rdiag[j] = rp;
                }
                if (lane > j) d[j] *= rp;
#pragma unroll
                for (int r = j + 1; r < ib; r++) {
                    T ujr = __shfl_sync(0xffffffffu, d[j], r);
                    if (lane >= r) d[r] -= ujr * d[j];
                }
            }
            if (bad) {
                // Plain store: *info may be host memory, where device
                // atomics may not work.
                if (lane == 0) {
                    failed = 1;
                    if (*info == 0) *info = col0 + kb + bad;
                }
            } else {
#pragma unroll
                for (int r = 0; r < ib; r++)
                    if (r <= lane && lane < w) D[r * ls + lane] = d[r];
            }
        }
        __syncthreads();
        if (failed || m <= 0) break;
        // U12 = U11^-T A12, column c by thread c - c0.
        for (int c = c0 + t; c < n; c += leaf_threads) {
            T x[ib];
#pragma unroll
            for (int i = 0; i < ib; i++) {
                if (i >= w) break;
                T v = s[(kb + i) * ls + c];
#pragma unroll
                for (int k = 0; k < i; k++)
                    v -= D[k * ls + i] * x[k];
                x[i] = v * rdiag[i];
                s[(kb + i) * ls + c] = x[i];
            }
        }
        __syncthreads();
        // A22 -= U12^T U12 on the upper triangle: rows c0 + warp + 16 p,
        // columns c0 + lane + 32 q.
        T acc[up_rows][up_cols] = {};
        for (int k = 0; k < w; k++) {
            const T *u = s + (kb + k) * ls + c0;
            T a[up_rows], b[up_cols];
#pragma unroll
            for (int p = 0; p < up_rows; p++) {
                int r = warp + warps * p;
                a[p] = r < m ? u[r] : T(0);
            }
#pragma unroll
            for (int q = 0; q < up_cols; q++) {
                int c = lane + 32 * q;
                b[q] = c < m ? u[c] : T(0);
            }
#pragma unroll
            for (int p = 0; p < up_rows; p++)
#pragma unroll
                for (int q = 0; q < up_cols; q++)
                    acc[p][q] += a[p] * b[q];
        }
#pragma unroll
        for (int p = 0; p < up_rows; p++)
#pragma unroll
            for (int q = 0; q < up_cols; q++) {
                int r = warp + warps * p, c = lane + 32 * q;
                if (r <= c && c < m) s[(c0 + r) * ls + c0 + c] -= acc[p][q];
            }
        __syncthreads();
    }
    if (failed) return;
    for (int i = t; i < n * n; i += leaf_threads) {
        int fast = i % n, slow = i / n;
        int r = upper ? fast : slow, c = upper ? slow : fast;
        if (r <= c) A[fast + (size_t)slow * lda] = s[r * ls + c];
    }
}

template <typename T, bool upper>
int leaf(cudaStream_t stream, T *A, int lda, int n, int *info, int col0)
{
    size_t bytes = sizeof(T) * (size_t)n * (n + 1);
    auto kernel = potrf_leaf_kernel<T, upper>;
    // Above 48 KiB a block must ask for its shared memory: for the largest
    // leaf, once per GPU.
    constexpr size_t most = sizeof(T) * leaf_n * (leaf_n + 1);
    static std::atomic<bool> asked[max_gpus];
    if (bytes > 48 * 1024) {
        int dev;
        HYLA_CUDA_CHECK(cudaGetDevice(&dev));
        if (dev >= max_gpus || !asked[dev]) {
            HYLA_CUDA_CHECK(cudaFuncSetAttribute(
                kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                (int)most));
            if (dev < max_gpus) asked[dev] = true;
        }
    }
    kernel<<<1, leaf_threads, bytes, stream>>>(A, lda, n, info, col0);
    HYLA_CUDA_CHECK(cudaGetLastError());
    return 0;
}

// Column-major A (n x n, lda), its `upper` triangle: A11 first, then
//   upper: A12 = U11^-T A12, A22 -= A12^T A12;
//   lower: A21 = A21 L11^-T, A22 -= A21 A21^T;
// then A22.
template <typename T, bool upper>
int rec(cublasHandle_t h, cudaStream_t stream, T *A, int lda, int n, int *info,
        int col0)
{
    if (n <= leaf_n) return leaf<T, upper>(stream, A, lda, n, info, col0);
    int n1 = (n / 2 + leaf_n - 1) / leaf_n * leaf_n, n2 = n - n1;
    int rc = rec<T, upper>(h, stream, A, lda, n1, info, col0);
    if (rc) return rc;
    const T one = 1, minus_one = -1;
    T *A22 = A + n1 + (size_t)n1 * lda;
    if (upper) {
        T *A12 = A + (size_t)n1 * lda;
        HYLA_CUBLAS_CHECK(hyla::trsm<T>(
            h, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_T,
            CUBLAS_DIAG_NON_UNIT, n1, n2, one, A, lda, A12, lda));
        HYLA_CUBLAS_CHECK(blas<T>::syrk(h, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_T,
                                        n2, n1, &minus_one, A12, lda, &one, A22,
                                        lda));
    } else {
        T *A21 = A + n1;
        HYLA_CUBLAS_CHECK(hyla::trsm<T>(
            h, CUBLAS_SIDE_RIGHT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_T,
            CUBLAS_DIAG_NON_UNIT, n2, n1, one, A, lda, A21, lda));
        HYLA_CUBLAS_CHECK(blas<T>::syrk(h, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N,
                                        n2, n1, &minus_one, A21, lda, &one, A22,
                                        lda));
    }
    return rec<T, upper>(h, stream, A22, lda, n2, info, col0 + n1);
}

template <typename T>
int potrf(cublasHandle_t h, int uplo, int n, T *dA, int ldda, int *dinfo,
          int col0)
{
    cudaStream_t stream;
    HYLA_CUBLAS_CHECK(cublasGetStream(h, &stream));
    if (n <= 0) return 0;
    // A row-major lower triangle is the column-major upper one.
    return uplo == HYLA_LOWER
               ? rec<T, true>(h, stream, dA, ldda, n, dinfo, col0)
               : rec<T, false>(h, stream, dA, ldda, n, dinfo, col0);
}

} // namespace

extern "C" int hyla_cuda_dpotrf(cublasHandle_t handle, int uplo, int n,
                                double *dA, int ldda, int *dinfo, int col0)
{
    return potrf(handle, uplo, n, dA, ldda, dinfo, col0);
}

extern "C" int hyla_cuda_spotrf(cublasHandle_t handle, int uplo, int n,
                                float *dA, int ldda, int *dinfo, int col0)
{
    return potrf(handle, uplo, n, dA, ldda, dinfo, col0);
}

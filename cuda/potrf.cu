// SPDX-License-Identifier: BSD-3-Clause
// Cholesky of one tile on the GPU, blocked by 64 columns: kernels for the
// diagonal block and the panel below it, cuBLAS GEMMs for the rest.
//
// The code sees the row-major tile as the column-major matrix of the same
// memory: a row-major lower L is a column-major upper U = L^T with
// A = U^T U, and a row-major upper one a column-major lower L with
// A = L L^T.  `upper` below is the column-major triangle.
#include "gpu.h"
#include "blas_t.h"
#include "gpu_check.h"
#include "scratch.h"

#include <atomic>

namespace
{

using hyla::blas;

constexpr int max_gpus = 64; // GPUs whose shared-memory attribute is set

// Blocked by steps of sb columns, three launches a step: the diagonal
// block, the panel below it by that block, and a cuBLAS GEMM for the rest.
// (A recursion on halves with 128-column leaves launched about 140 kernels
// for a 2048 tile, half of them cuBLAS TRSMs of 22 us each, Nsight Compute
// on an H100; it took 2.55 ms there, this 1.74 ms.)
constexpr int sb = 64;            // columns of a step
constexpr int sr = 32;            // rows of the panel a block solves
constexpr int step_threads = 256; // lane c = t % sb owns column c
constexpr int groups = step_threads / sb;
constexpr int dq = sb / groups, pq = sr / groups; // rows a thread holds

// Offset of the lower factor's L(i, j), i >= j, in the column-major tile:
// A(i, j) of a lower one, A(j, i) of an upper one (U = L^T).
template <bool upper>
__device__ __forceinline__ size_t at(int i, int j, int lda)
{
    return upper ? j + (size_t)i * lda : i + (size_t)j * lda;
}

// One step at column c0, in two launches.  diag: one block factors the
// w-by-w diagonal block D in shared memory and stores it.  Else each block
// solves sr rows P of the panel below D (block b: rows c0 + w + b sr on)
// by the factored D.  (One launch where every block factored D for itself
// raced: a block that started late read the D that block 0 had stored.)
// Thread (g, c) holds column c of the rows g, g + groups, ... it updates
// (D's or P's) in registers.  In column j the threads of columns c > j
// update them by the unscaled column j, read from shared memory, where the
// threads of column j + 1 then publish theirs: one barrier a column.  Each
// column is scaled by its pivot's 1/sqrt (1/L(c, c) for P) on the way
// out.  A pivot that is not positive (or NaN) stops the diagonal block,
// which sets *info to col0 + c0 + its column + 1 unless *info holds a
// failure already (the steps run in column order on one stream), and
// stores nothing.
template <typename T, bool upper, bool diag>
__global__ void __launch_bounds__(step_threads)
    potrf_step_kernel(T *A, int lda, int n, int c0, int *info, int col0)
{
    extern __shared__ unsigned char step_smem[];
    T(*D)[sb + 1] = reinterpret_cast<T(*)[sb + 1]>(step_smem);
    T(*P)[sb + 1] = D + sb;
    const int t = threadIdx.x, c = t % sb, g = t / sb;
    const int w = min(sb, n - c0), row0 = c0 + w + blockIdx.x * sr;
    const int rows = diag ? 0 : max(0, min(sr, n - row0));
    // Loads and stores run along the memory's contiguous index; each
    // thread issues all its loads before it waits for one.
    constexpr int dl = sb * sb / step_threads, pl = sr * sb / step_threads;
    {
        T v[dl];
#pragma unroll
        for (int u = 0; u < dl; u++) {
            int e = t + u * step_threads, f = e % w, s = e / w;
            int i = upper ? s : f, j = upper ? f : s;
            v[u] = e < w * w && i >= j ? A[at<upper>(c0 + i, c0 + j, lda)]
                                       : T(0);
        }
#pragma unroll
        for (int u = 0; u < dl; u++) {
            int e = t + u * step_threads, f = e % w, s = e / w;
            if (e < w * w) D[upper ? s : f][upper ? f : s] = v[u];
        }
    }
    const int nf = upper ? w : rows;
    if constexpr (!diag) {
        T v[pl];
#pragma unroll
        for (int u = 0; u < pl; u++) {
            int e = t + u * step_threads, f = e % nf, s = e / nf;
            int r = upper ? s : f, j = upper ? f : s;
            v[u] = e < rows * w ? A[at<upper>(row0 + r, c0 + j, lda)] : T(0);
        }
#pragma unroll
        for (int u = 0; u < pl; u++) {
            int e = t + u * step_threads, f = e % nf, s = e / nf;
            if (e < rows * w) P[upper ? s : f][upper ? f : s] = v[u];
        }
    }
    __shared__ T inv[sb]; // solve: 1 / L(j, j), off the column loop's chain
    if (!diag) {
        __syncthreads();
        if (t < w) inv[t] = T(1) / D[t][t];
    }
    __syncthreads();
    constexpr int nq = diag ? dq : pq;
    T(*X)[sb + 1] = diag ? D : P; // the rows this block updates
    const int xrows = diag ? w : rows;
    T x_[nq];
#pragma unroll
    for (int q = 0; q < nq; q++) {
        int i = g + groups * q;
        x_[q] = i < xrows && c < w && (!diag || i >= c) ? X[i][c] : T(0);
    }
    int bad = 0; // failing column + 1, the same in every thread
    T my_rs = 0; // the scale of column c
    for (int j = 0; j < w; j++) {
        T rs, scale; // D(c, j) scale = L(c, j) / L(j, j)
        if (diag) {
            const T d = D[j][j];
            if (!(d > T(0))) {
                bad = j + 1;
                break;
            }
            rs = rsqrt(d);
            scale = rs * rs;
        } else {
            rs = inv[j];
            scale = rs;
        }
        if (c == j) my_rs = rs;
        if (c > j && c < w) {
            const T dcj = D[c][j] * scale;
#pragma unroll
            for (int q = 0; q < nq; q++) {
                int i = g + groups * q;
                if (i < xrows && (!diag || i >= c)) x_[q] -= X[i][j] * dcj;
            }
            if (c == j + 1) {
#pragma unroll
                for (int q = 0; q < nq; q++) {
                    int i = g + groups * q;
                    if (i < xrows && (!diag || i >= c)) X[i][c] = x_[q];
                }
            }
        }
        __syncthreads();
    }
    if (bad) {
        // Plain store: *info may be host memory.
        if (t == 0 && *info == 0) *info = col0 + c0 + bad;
        return;
    }
    if (c < w) {
#pragma unroll
        for (int q = 0; q < nq; q++) {
            int i = g + groups * q;
            if (i < xrows && (!diag || i >= c)) X[i][c] = x_[q] * my_rs;
        }
    }
    __syncthreads();
    if constexpr (diag)
        for (int e = t; e < w * w; e += step_threads) {
            int f = e % w, s = e / w, i = upper ? s : f, j = upper ? f : s;
            if (i >= j) A[at<upper>(c0 + i, c0 + j, lda)] = D[i][j];
        }
    else
        for (int e = t; e < rows * w; e += step_threads) {
            int f = e % nf, s = e / nf, r = upper ? s : f, j = upper ? f : s;
            A[at<upper>(row0 + r, c0 + j, lda)] = P[r][j];
        }
}

// The other triangle of the column-major n-by-n A (the strictly lower one
// when `upper`) back from its copy S (leading dimension n).
template <typename T, bool upper>
__global__ void restore_kernel(T *A, int lda, int n, const T *S)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x,
        j = blockIdx.y * blockDim.y + threadIdx.y;
    if (i < n && j < n && (upper ? i > j : i < j))
        A[i + (size_t)j * lda] = S[i + (size_t)j * n];
}

// Above 48 KiB a kernel must ask for its shared memory: once per GPU.
template <typename K>
int ask_smem(K kernel, size_t bytes, std::atomic<bool> *asked)
{
    if (bytes <= 48 * 1024) return 0;
    int dev;
    HYLA_CUDA_CHECK(cudaGetDevice(&dev));
    if (dev >= max_gpus || !asked[dev]) {
        HYLA_CUDA_CHECK(cudaFuncSetAttribute(
            kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)bytes));
        if (dev < max_gpus) asked[dev] = true;
    }
    return 0;
}

template <typename T, bool upper>
int blocked(cublasHandle_t h, cudaStream_t stream, T *A, int lda, int n,
            int *info, int col0)
{
    auto factor = potrf_step_kernel<T, upper, true>;
    auto solve = potrf_step_kernel<T, upper, false>;
    constexpr size_t bytes = sizeof(T) * (sb + sr) * (sb + 1);
    static std::atomic<bool> asked[2][max_gpus];
    if (int rc = ask_smem(factor, bytes, asked[0])) return rc;
    if (int rc = ask_smem(solve, bytes, asked[1])) return rc;
    // The trailing updates as GEMMs over the whole square: cuBLAS's SYRK
    // of rank 64 took 78 us for 1984 rows on an H100, 31 of them 0.97 ms
    // of a 2048 tile.  A GEMM writes the other triangle too, which must
    // come back unchanged: it is copied first and put back at the end.
    // Without the memory for the copy, SYRKs.
    hyla::scratch mem(stream);
    T *saved = n > sb ? mem.get<T>((size_t)n * n) : nullptr;
    if (saved)
        HYLA_CUDA_CHECK(cudaMemcpy2DAsync(
            saved, sizeof(T) * n, A, sizeof(T) * lda, sizeof(T) * n, n,
            cudaMemcpyDeviceToDevice, stream));
    const T one = 1, minus_one = -1;
    for (int c0 = 0; c0 < n; c0 += sb) {
        int w = min(sb, n - c0), below = n - c0 - w;
        factor<<<1, step_threads, bytes, stream>>>(A, lda, n, c0, info, col0);
        HYLA_CUDA_CHECK(cudaGetLastError());
        if (below == 0) break;
        solve<<<(below + sr - 1) / sr, step_threads, bytes, stream>>>(
            A, lda, n, c0, info, col0);
        HYLA_CUDA_CHECK(cudaGetLastError());
        T *A22 = A + (c0 + w) + (size_t)(c0 + w) * lda;
        // The step's panel: L21 (lower) or U12 (upper).
        const T *X = upper ? A + c0 + (size_t)(c0 + w) * lda
                           : A + (c0 + w) + (size_t)c0 * lda;
        cublasOperation_t ta = upper ? CUBLAS_OP_T : CUBLAS_OP_N,
                          tb = upper ? CUBLAS_OP_N : CUBLAS_OP_T;
        cublasFillMode_t fill =
            upper ? CUBLAS_FILL_MODE_UPPER : CUBLAS_FILL_MODE_LOWER;
        if (saved)
            HYLA_CUBLAS_CHECK(blas<T>::gemm(h, ta, tb, below, below, w,
                                            &minus_one, X, lda, X, lda, &one,
                                            A22, lda));
        else
            HYLA_CUBLAS_CHECK(blas<T>::syrk(h, fill, ta, below, w, &minus_one,
                                            X, lda, &one, A22, lda));
    }
    if (saved) {
        dim3 threads(32, 8), grid((n + 31) / 32, (n + 7) / 8);
        restore_kernel<T, upper><<<grid, threads, 0, stream>>>(A, lda, n,
                                                               saved);
        HYLA_CUDA_CHECK(cudaGetLastError());
    }
    return 0;
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
               ? blocked<T, true>(h, stream, dA, ldda, n, dinfo, col0)
               : blocked<T, false>(h, stream, dA, ldda, n, dinfo, col0);
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

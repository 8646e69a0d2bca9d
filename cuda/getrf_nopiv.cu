// SPDX-License-Identifier: BSD-3-Clause
// LU without pivoting of one row-major tile on the GPU, blocked
// right-looking by steps of `step` columns: one kernel factors the step's
// diagonal block and solves the blocks right of it and below it, then one
// cuBLAS GEMM updates the rest: two launches a step, 1.1 ms for a 1024
// tile on an H100, where the recursion on halves (TRSMs and a GEMM a
// level, a one-block leaf of 64 columns) took 1.8 ms on the LU's
// critical path.
#include "gpu.h"
#include "blas_t.h"
#include "gpu_check.h"

namespace
{

using hyla::blas;

constexpr int step = 32;     // a warp's width: one lane a column of D
constexpr int threads = 128; // rows (or columns) of A one block solves

// The step's diagonal block D (bs-by-bs at A, row-major, lda) factored
// by warp 0 as L U without pivoting, into d: lane c holds column c in
// registers, and step j broadcasts each multiplier of column j from lane
// j.  With `report`, a zero pivot's column (from col0) goes to *info
// unless it holds one already (a plain store: *info may be mapped host
// memory); the factors after it are then undefined.  With `write`, D
// gets its factors back; with d, rdiag gets the reciprocals of U's
// diagonal.
template <typename T>
__device__ void factor_diag(T *A, int lda, int bs, T (*d)[step + 1], T *rdiag,
                            bool report, bool write, int *info, int col0)
{
    const int lane = threadIdx.x;
    T c[step];
#pragma unroll
    for (int r = 0; r < step; r++)
        c[r] = r < bs && lane < bs ? A[(size_t)r * lda + lane] : T(0);
#pragma unroll
    for (int j = 0; j < step; j++) {
        if (j >= bs) break;
        T piv = __shfl_sync(0xffffffffu, c[j], j);
        if (piv == T(0) && report && lane == 0 && *info == 0)
            *info = col0 + j + 1;
        if (lane == j) {
            // One division a step: a double division is a long sequence
            // of instructions, and 31 of them a step, lane j alone, made
            // this the slowest part of a step.
            T rp = T(1) / piv;
#pragma unroll
            for (int r = j + 1; r < step; r++)
                c[r] *= rp;
        }
        T u = c[j]; // row j of this lane's column
#pragma unroll
        for (int r = j + 1; r < step; r++) {
            T l = __shfl_sync(0xffffffffu, c[r], j);
            if (lane > j) c[r] -= l * u;
        }
    }
#pragma unroll
    for (int r = 0; r < step; r++) {
        if (d) d[r][lane] = c[r];
        if (write && r < bs && lane < bs) A[(size_t)r * lda + lane] = c[r];
    }
    if (rdiag) {
        __syncwarp();
        rdiag[lane] = lane < bs ? T(1) / d[lane][lane] : T(0);
    }
}

// One step at column o of the n-by-n tile.  Every block factors D =
// A(o:o+bs, o:o+bs) for itself (a few us, in parallel), so that no block
// waits for another; blocks 1 .. rb then solve `threads` rows each of A21
// = A21 U^-1 (below D), the others `threads` columns each of A12 = L^-1
// A12 (right of D), L unit lower and U upper in D.  As the other blocks
// read D, block 0 leaves it as it is, and writes the factors of the
// previous step's D instead (untouched since, and read by no block of
// this launch); it writes this D's where no other block runs.
template <typename T>
__global__ void __launch_bounds__(threads)
    step_kernel(T *A, int lda, int n, int o, int rb, int *info, int col0)
{
    __shared__ T d[step][step + 1];
    __shared__ T rdiag[step];
    __shared__ T s[threads][step + 1];
    const int bs = min(step, n - o), t = threadIdx.x;
    const bool first = blockIdx.x == 0;
    if (t < 32) {
        if (first && o > 0)
            factor_diag<T>(A + (size_t)(o - step) * (lda + 1), lda, step,
                           nullptr, nullptr, false, true, info, 0);
        factor_diag(A + (size_t)o * (lda + 1), lda, bs, d, rdiag, first,
                    first && rb == 0, info, col0);
    }
    __syncthreads();
    if (first) return;
    const int rest = n - o - bs;
    T x[step];
    if ((int)blockIdx.x <= rb) {
        // Rows of A21, through shared memory so that the loads and stores
        // run along the rows: x U = a, x(c) = (a(c) - x(0:c) U(0:c, c)) /
        // U(c, c), the division by U(c, c) a product by its reciprocal.
        const int i0 = (blockIdx.x - 1) * threads,
                  rows = min(threads, rest - i0);
        T *a = A + (size_t)(o + bs + i0) * lda + o;
        for (int e = t; e < rows * step; e += threads)
            if (e % step < bs)
                s[e / step][e % step] = a[(size_t)(e / step) * lda + e % step];
        __syncthreads();
        if (t < rows) {
#pragma unroll
            for (int c = 0; c < step; c++) {
                if (c >= bs) break;
                T v = s[t][c];
#pragma unroll
                for (int k = 0; k < c; k++)
                    v -= x[k] * d[k][c];
                x[c] = v * rdiag[c];
                s[t][c] = x[c];
            }
        }
        __syncthreads();
        for (int e = t; e < rows * step; e += threads)
            if (e % step < bs)
                a[(size_t)(e / step) * lda + e % step] = s[e / step][e % step];
    } else {
        // Columns of A12, one a thread (loads along rows): L y = a, y(r) =
        // a(r) - L(r, 0:r) y(0:r).
        const int j = (blockIdx.x - 1 - rb) * threads + t;
        if (j >= rest) return;
        T *a = A + (size_t)o * lda + o + bs + j;
#pragma unroll
        for (int r = 0; r < step; r++) {
            if (r >= bs) break;
            T v = a[(size_t)r * lda];
#pragma unroll
            for (int k = 0; k < r; k++)
                v -= d[r][k] * x[k];
            x[r] = v;
            a[(size_t)r * lda] = v;
        }
    }
}

template <typename T>
int getrf_nopiv(cublasHandle_t h, int n, T *A, int lda, int *info, int col0)
{
    cudaStream_t stream;
    HYLA_CUBLAS_CHECK(cublasGetStream(h, &stream));
    const T one = 1, minus_one = -1;
    for (int o = 0; o < n; o += step) {
        int bs = n - o < step ? n - o : step, rest = n - o - bs;
        int rb = (rest + threads - 1) / threads;
        step_kernel<T><<<1 + 2 * rb, threads, 0, stream>>>(A, lda, n, o, rb,
                                                           info, col0 + o);
        HYLA_CUDA_CHECK(cudaGetLastError());
        if (!rest) break;
        // A22 -= A21 A12; cuBLAS sees the column-major transposes:
        // A22^T -= A12^T A21^T.
        T *A12 = A + (size_t)o * lda + o + bs,
          *A21 = A12 - bs + (size_t)bs * lda;
        HYLA_CUBLAS_CHECK(blas<T>::gemm(h, CUBLAS_OP_N, CUBLAS_OP_N, rest, rest,
                                        bs, &minus_one, A12, lda, A21, lda,
                                        &one, A21 + bs, lda));
    }
    return 0;
}

} // namespace

extern "C" int hyla_cuda_dgetrf_nopiv(cublasHandle_t handle, int n, double *dA,
                                      int ldda, int *dinfo, int col0)
{
    return getrf_nopiv(handle, n, dA, ldda, dinfo, col0);
}

extern "C" int hyla_cuda_sgetrf_nopiv(cublasHandle_t handle, int n, float *dA,
                                      int ldda, int *dinfo, int col0)
{
    return getrf_nopiv(handle, n, dA, ldda, dinfo, col0);
}

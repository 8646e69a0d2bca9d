// SPDX-License-Identifier: BSD-3-Clause
// LU without pivoting of one row-major tile on the GPU, blocked
// right-looking by steps of `nb` columns, three launches a step: one block
// factors the step's nb-by-nb diagonal block D in shared memory, a second
// kernel solves the rows below D and the columns right of it against D's
// triangles (a few rows a warp, in registers), and one cuBLAS GEMM
// updates the rest.  A 2048 tile takes 1.48 ms on an H200 (a step's D 24
// us, its solves 10 us and its GEMM 9 us on average), where 32-column
// steps of one kernel (a warp factoring D, a thread a row or column
// solving) and a GEMM took 2.54 ms, and cuSOLVER's LU without pivots
// 0.76 ms (docs/perf/README.md, "RBT: the diagonal tiles' LU").
#include "gpu.h"
#include "blas_t.h"
#include "gpu_check.h"

namespace
{

using hyla::blas;

constexpr int nb = 64;       // columns a step: two warps' width (solve_kernel)
constexpr int per = 4;       // rows (and columns) of D a thread updates
constexpr int tx = nb / per; // D's threads form a tx-by-tx grid
constexpr int diag_threads = tx * tx;
constexpr int rows_w = 4; // rows of the solve a warp holds
constexpr int solve_warps = 4;
constexpr int rows_b = rows_w * solve_warps; // rows of the solve a block
static_assert(nb == 64, "solve_kernel's lanes hold columns t and t + 32");

// D = A(0:bs, 0:bs) (row-major, lda, bs <= nb) = L U in place, L unit
// lower, by one block in shared memory (the identity pads it to nb-by-nb).
// Thread (y, x) updates the elements (y + tx r, x + tx c).  Step j reads
// row j and column j and writes only right of and below them, so one
// barrier a step suffices; the multipliers stay unscaled until the end,
// each step scaling its column's copy as it reads it, by the reciprocal
// of the pivot that thread 0 also keeps for the final scaling.  A zero
// pivot's column (from col0) goes to *info unless it holds one already (a
// plain store: *info may be mapped host memory); the factors after it are
// then undefined.
template <typename T>
__global__ void __launch_bounds__(diag_threads)
    diag_kernel(T *A, int lda, int bs, int *info, int col0)
{
    __shared__ T s[nb][nb + 1];
    __shared__ T rdiag[nb];
    const int t = threadIdx.x, x = t % tx, y = t / tx;
    for (int e = t; e < nb * nb; e += diag_threads) {
        const int i = e / nb, k = e % nb;
        s[i][k] = i < bs && k < bs ? A[(size_t)i * lda + k] : T(i == k);
    }
    __syncthreads();
    for (int j = 0; j < bs; j++) {
        const T piv = s[j][j], rp = T(1) / piv;
        if (t == 0) {
            rdiag[j] = rp;
            if (piv == T(0) && *info == 0) *info = col0 + j + 1;
        }
        T l[per], u[per];
#pragma unroll
        for (int r = 0; r < per; r++)
            l[r] = s[y + tx * r][j] * rp;
#pragma unroll
        for (int c = 0; c < per; c++)
            u[c] = s[j][x + tx * c];
#pragma unroll
        for (int r = 0; r < per; r++)
#pragma unroll
            for (int c = 0; c < per; c++)
                if (y + tx * r > j && x + tx * c > j)
                    s[y + tx * r][x + tx * c] -= l[r] * u[c];
        __syncthreads();
    }
    for (int e = t; e < bs * bs; e += diag_threads) {
        const int i = e / bs, k = e % bs;
        A[(size_t)i * lda + k] = i > k ? s[i][k] * rdiag[k] : s[i][k];
    }
}

// With D = A(o:o+nb, o:o+nb) factored, the `rest` rows below it become
// A21 U^-1 (blocks 0 .. rb-1) and the `rest` columns right of it
// L^-1 A12 (the other blocks), rows_b of them a block.  Both are x M = a
// for the rows x of a block: M = U, or M = L^T for the columns (the rows
// of A12^T).  A block's piece of the right-hand sides passes through
// shared memory (so that loads and stores run along memory rows), and
// each warp solves rows_w of its rows in registers, lane t holding columns
// t and t + 32: step c takes x(c) from the lane holding column c by a
// shuffle and eliminates it from the columns after c.
template <typename T>
__global__ void __launch_bounds__(32 * solve_warps)
    solve_kernel(T *A, int lda, int o, int rest, int rb)
{
    __shared__ T d[nb][nb + 1];
    __shared__ T s[rows_b][nb + 1];
    const int t = threadIdx.x, lane = t % 32, w = t / 32;
    const T *D = A + (size_t)o * (lda + 1);
    for (int e = t; e < nb * nb; e += 32 * solve_warps)
        d[e / nb][e % nb] = D[(size_t)(e / nb) * lda + e % nb];
    const bool rows = (int)blockIdx.x < rb;
    const int first = ((int)blockIdx.x - (rows ? 0 : rb)) * rows_b;
    const int count = rest - first < rows_b ? rest - first : rows_b;
    // Element (i, c) of the block's right-hand sides: row-major rows of
    // A21, or columns of A12.
    T *X = rows ? A + (size_t)(o + nb + first) * lda + o
                : A + (size_t)o * lda + o + nb + first;
    for (int e = t; e < rows_b * nb; e += 32 * solve_warps) {
        // Rows: e runs along memory rows (c fastest); columns: along i.
        const int i = rows ? e / nb : e % rows_b,
                  c = rows ? e % nb : e / rows_b;
        s[i][c] = i < count
                      ? X[rows ? (size_t)i * lda + c : (size_t)c * lda + i]
                      : T(0);
    }
    __syncthreads();
    // M(c, k) for k = lane, lane + 32, and 1 / M(c, c) from lane c % 32.
    auto m = [&](int c, int kk) { return rows ? d[c][kk] : d[kk][c]; };
    const T rd0 = rows ? T(1) / d[lane][lane] : T(1),
            rd1 = rows ? T(1) / d[lane + 32][lane + 32] : T(1);
    T v[rows_w][2];
#pragma unroll
    for (int r = 0; r < rows_w; r++) {
        v[r][0] = s[w * rows_w + r][lane];
        v[r][1] = s[w * rows_w + r][lane + 32];
    }
    // Column c = 32 h + q, of half h: x(c) from lane q's element of that
    // half; the first half's columns also update the second's.
#pragma unroll
    for (int h = 0; h < 2; h++)
        for (int q = 0; q < 32; q++) {
            const int c = 32 * h + q;
            const T rd = __shfl_sync(0xffffffffu, h ? rd1 : rd0, q),
                    mh = m(c, 32 * h + lane), m1 = m(c, lane + 32);
#pragma unroll
            for (int r = 0; r < rows_w; r++) {
                const T x = __shfl_sync(0xffffffffu, v[r][h], q) * rd;
                if (lane == q) v[r][h] = x;
                if (lane > q) v[r][h] -= x * mh;
                if (!h) v[r][1] -= x * m1;
            }
        }
#pragma unroll
    for (int r = 0; r < rows_w; r++) {
        s[w * rows_w + r][lane] = v[r][0];
        s[w * rows_w + r][lane + 32] = v[r][1];
    }
    __syncthreads();
    for (int e = t; e < rows_b * nb; e += 32 * solve_warps) {
        const int i = rows ? e / nb : e % rows_b,
                  c = rows ? e % nb : e / rows_b;
        if (i < count)
            X[rows ? (size_t)i * lda + c : (size_t)c * lda + i] = s[i][c];
    }
}

template <typename T>
int getrf_nopiv(cublasHandle_t h, int n, T *A, int lda, int *info, int col0)
{
    cudaStream_t stream;
    HYLA_CUBLAS_CHECK(cublasGetStream(h, &stream));
    const T one = 1, minus_one = -1;
    for (int o = 0; o < n; o += nb) {
        const int bs = n - o < nb ? n - o : nb, rest = n - o - bs;
        diag_kernel<T><<<1, diag_threads, 0, stream>>>(
            A + (size_t)o * (lda + 1), lda, bs, info, col0 + o);
        HYLA_CUDA_CHECK(cudaGetLastError());
        if (!rest) break;
        const int rb = (rest + rows_b - 1) / rows_b;
        solve_kernel<T>
            <<<2 * rb, 32 * solve_warps, 0, stream>>>(A, lda, o, rest, rb);
        HYLA_CUDA_CHECK(cudaGetLastError());
        // A22 -= A21 A12; cuBLAS sees the column-major transposes:
        // A22^T -= A12^T A21^T.
        T *A12 = A + (size_t)o * lda + o + nb,
          *A21 = A12 - nb + (size_t)nb * lda;
        HYLA_CUBLAS_CHECK(blas<T>::gemm(h, CUBLAS_OP_N, CUBLAS_OP_N, rest, rest,
                                        nb, &minus_one, A12, lda, A21, lda,
                                        &one, A21 + nb, lda));
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

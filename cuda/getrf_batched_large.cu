// SPDX-License-Identifier: BSD-3-Clause
// Batched LU of orders 33 to 512 by blocks of columns, and the inverse
// through LU and triangular solves.
//
// The matrix is factored by blocks of kb = 32, 64 or 128 columns (chosen
// by order, see block_of).  A block is factored recursively: its left
// half, the half's interchanges and solve in its right half and the
// right half's update, then its right half, down to leaves of 32 columns.
// Right of the block the update waits for the whole block (two levels:
// leaves within it, the block beyond it), so that the trailing GEMM,
// which does most of the work, has depth kb rather than 32.
//
// Kernels:
//  - the leaf (panel kernel) gives each matrix a thread block, one thread
//    per row of the n-j rows at and below the diagonal, holding that row
//    of the leaf's w <= 32 columns in registers.  Pivot search,
//    elimination and lazy swaps as the register kernels
//    (getrf_batched.cu): rows never move, each is written once to its
//    final place.  The block's warps agree on a pivot through shared
//    memory, once a column: each warp posts its best candidate and that
//    candidate's row.  It lists the rows that moved;
//  - the rows that the interchanges of h <= 128 columns move are listed
//    by the leaf kernel (h <= 32) or composed from the pivots: their
//    places before and after (two vectors: at most h rows come up as
//    pivots, at most h go down in their place);
//  - the swap kernel applies such a list to a range of columns, all rows
//    at once, then solves U12 = L11^-1 A12 there, in shared memory.  Many
//    blocks a matrix;
//  - GEMMs update the rows below, A22 -= A21 U12: one batched cuBLAS
//    call, or when asked (hyla_cuda_batched_large_tune) one cuBLAS call
//    a matrix spread over side streams (see streams_of).
// Left of each block the interchanges wait for the end (inside a block a
// right half's interchanges reach its left half at once, by whole
// columns, so that the block's L is whole for the update right of it):
// then one kernel permutes each column of L once, by all the later
// interchanges together, through shared memory.  In column-major storage
// a row interchange touches one sector of memory per element, which makes
// the step-by-step swaps as costly as the GEMMs.
#include "batched_t.h"
#include "blas_t.h"
#include "gpu.h"
#include "gpu_check.h"
#include "scratch.h"

#include <algorithm>

namespace hyla
{
namespace
{

// Matrices per cuBLAS batched call (the grids of some kernels stop at
// 65535 in y and z).
constexpr int max_chunk = 65535;

// Leaf width, the widest block, and the most threads of a leaf block (a
// row each).
constexpr int NB = 32, KMAX = 128, max_rows = HYLA_CUDA_BATCHED_MAX;

// Words a matrix of a list of the rows that the interchanges of h columns
// move: a count, and at most 2h (from, to) pairs, from | to << 16, counted
// from the block's first row.
inline int move_words(int h) { return 2 * h + 1; }

// Step j of the LU of each matrix of order n: its rows j..n-1 of columns
// j..j+w-1 (the panel), w <= NB, a thread per row.
template <typename T>
__global__ void __launch_bounds__(max_rows)
    panel_kernel(mats<T> A, int lda, int n, int j, int w, int *ipiv,
                 int *info, int *moves, int mw)
{
    using K = typename pivot_key<T>::type;
    constexpr int W = max_rows / 32;
    // Each warp's candidate: key, position, reciprocal, row (two steps'
    // worth, so that one barrier a column is enough).
    __shared__ K wkey[2][W];
    __shared__ int wpos[2][W];
    __shared__ T wrcp[2][W];
    __shared__ T wrow[2][W][NB];
    __shared__ int nmoves;
    const long long mat = blockIdx.x;
    const int m = n - j, t = threadIdx.x, warp = t / 32, nw = blockDim.x / 32;
    const bool have = t < m;
    T *p0 = A(mat) + j + (size_t)j * lda; // the panel's top-left
    T r[NB];
#pragma unroll
    for (int c = 0; c < NB; c++)
        r[c] = have && c < w ? p0[t + (size_t)c * lda] : T(0);
    int pos = t, zero = 0, mypiv = 0;
    bool pivoted = !have;
    if (t == 0) nmoves = 0; // the loop's first barrier publishes it

#pragma unroll
    for (int k = 0; k < NB; k++) {
        if (k >= w) break;
        const int b = k & 1;
        K key = pivot_key<T>::of(pivoted, magnitude(r[k]));
        K best = warp_max(key);
        int first = warp_first(key, best, pos);
        if (key == best && pos == first) { // one lane a warp
            wkey[b][warp] = best;
            wpos[b][warp] = first;
            wrcp[b][warp] = T(1) / r[k]; // off the path after the barrier
#pragma unroll
            for (int c = k; c < NB; c++)
                wrow[b][warp][c] = r[c];
        }
        __syncthreads();
        K bk = wkey[b][0];
        int p = wpos[b][0], from = 0;
        for (int q = 1; q < nw; q++) {
            K kq = wkey[b][q];
            int pq = wpos[b][q];
            if (kq > bk || (kq == bk && pq < p)) {
                bk = kq;
                p = pq;
                from = q;
            }
        }
        const T *u = wrow[b][from], rcp = wrcp[b][from];
        bool mine = !pivoted && pos == p;
        if (t == k) mypiv = p + 1;
        // The row at position k moves to p, the pivot row to k.
        if (mine)
            pos = k;
        else if (!pivoted && pos == k)
            pos = p;
        const T piv = u[k];
        if (piv == T(0)) {
            if (!zero) zero = k + 1; // nothing to eliminate
        } else if (!pivoted && !mine) {
            // LAPACK's getf2: a reciprocal unless it would overflow.
            T l = fabs(piv) >= sfmin<T>() ? r[k] * rcp : r[k] / piv;
            r[k] = l;
#pragma unroll
            for (int c = k + 1; c < NB; c++)
                r[c] -= l * u[c];
        }
        if (mine) pivoted = true;
    }

    // Each row once to its final place; pivots as global 1-based rows; the
    // first zero pivot of the whole matrix.
    if (have) {
#pragma unroll
        for (int c = 0; c < NB; c++)
            if (c < w) p0[pos + (size_t)c * lda] = r[c];
    }
    if (t < w) ipiv[mat * n + j + t] = j + mypiv;
    if (t == 0) {
        int prior = j ? info[mat] : 0;
        info[mat] = prior ? prior : zero ? j + zero : 0;
    }
    // The rows that moved, for the swap kernel: count, then (from, to)
    // pairs counted from row j.
    int *mv = moves + mat * mw;
    if (have && pos != t) mv[1 + atomicAdd(&nmoves, 1)] = t | pos << 16;
    __syncthreads();
    if (t == 0) mv[0] = nmoves;
}

// Threads of a block of the swap kernel.
constexpr int swap_threads = 64;

// Columns a block of the swap kernel takes for interchanges of up to KW
// rows (its shared rows fit in 48 KiB).
template <int KW> __host__ __device__ constexpr int swap_cols()
{
    return KW <= 64 ? 64 : 32;
}

// Rows j..n-1 of columns c0..c1-1: the interchanges of the h <= KW
// columns at j (list moves, mw words a matrix), then there U12 =
// L11^-1 A12, L11 the unit lower h-by-h triangle at (j, j).  The block's
// rows j..j+h-1 (the ones solved) pass through shared memory, read and
// written coalesced; the rows that move below them are accessed in
// place.  The solve goes by blocks of NB rows, a column per thread, L11
// through shared memory a NB-by-NB block at a time.
template <typename T, int KW>
__global__ void __launch_bounds__(swap_threads)
    swap_kernel(mats<T> A, int lda, int j, int h, int c0, int c1,
                const int *moves, int mw)
{
    constexpr int CB = swap_cols<KW>();
    constexpr int per = 2 * KW / swap_threads; // moves a thread, at most
    constexpr int step = 16 / per;              // columns a round
    __shared__ T L[NB][NB + 1];
    __shared__ T X[KW][CB + 1]; // rows j..j+h-1 of the block's columns
    const long long mat = blockIdx.x;
    const int t = threadIdx.x;
    const int cb = c0 + blockIdx.y * CB, nc = min(CB, c1 - cb);
    T *a0 = A(mat);
    T *a = a0 + j + (size_t)cb * lda; // row j of the block's first column
    const int *mv = moves + mat * mw;
    const int count = mv[0]; // <= 2h <= per * blockDim.x
    int from[per], to[per];
#pragma unroll
    for (int q = 0; q < per; q++) {
        const int e = t + q * swap_threads,
                  pair = e < count ? mv[1 + e] : 0;
        from[q] = pair & 0xffff;
        to[q] = pair >> 16;
    }
    // L11's block (r0, k0) of NB rows (wb of them) by NB columns; its
    // columns from h on as zeros.
    const T *l0 = a0 + j + (size_t)j * lda;
    auto load_l = [&](int r0, int k0, int wb) {
        for (int e = t; e < wb * NB; e += swap_threads)
            L[e % wb][e / wb] =
                k0 + e / wb < h ? l0[r0 + e % wb + (size_t)(k0 + e / wb) * lda]
                                : T(0);
    };
    for (int e = t; e < h * nc; e += swap_threads)
        X[e % h][e / h] = a[e % h + (size_t)(e / h) * lda];
    load_l(0, 0, min(NB, h)); // with X, off the path after the swaps
    __syncthreads();

    // A few columns at a time: every moving row read before any written.
    for (int c = 0; c < nc; c += step) {
        T v[per][step];
#pragma unroll
        for (int q = 0; q < per; q++) {
            if (t + q * swap_threads >= count) continue;
#pragma unroll
            for (int u = 0; u < step; u++)
                if (c + u < nc)
                    v[q][u] = from[q] < h ? X[from[q]][c + u]
                                          : a[from[q] + (size_t)(c + u) * lda];
        }
        __syncthreads();
#pragma unroll
        for (int q = 0; q < per; q++) {
            if (t + q * swap_threads >= count) continue;
#pragma unroll
            for (int u = 0; u < step; u++) {
                if (c + u >= nc) continue;
                if (to[q] < h)
                    X[to[q]][c + u] = v[q][u];
                else
                    a[to[q] + (size_t)(c + u) * lda] = v[q][u];
            }
        }
    }

    // U12 = L11^-1 A12 by blocks of NB rows: the block at r0 less L11's
    // blocks left of its diagonal block times the solved blocks above it,
    // then solved by the diagonal block.
    for (int r0 = 0; r0 < h; r0 += NB) {
        const int wb = min(NB, h - r0);
        T v[NB];
        __syncthreads(); // X's rows in place, L free
#pragma unroll
        for (int i = 0; i < NB; i++)
            v[i] = t < nc && i < wb ? X[r0 + i][t] : T(0);
        for (int k0 = 0; k0 <= r0; k0 += NB) {
            if (r0) { // block (0, 0) came with X
                if (k0) __syncthreads(); // L free
                load_l(r0, k0, wb);
                __syncthreads();
            }
            if (t >= nc) continue;
            if (k0 < r0) { // a block left of the diagonal
#pragma unroll 2
                for (int q = 0; q < NB; q++) {
                    const T x = X[k0 + q][t];
#pragma unroll
                    for (int i = 0; i < NB; i++)
                        v[i] -= L[i][q] * x;
                }
                continue;
            }
#pragma unroll
            for (int i = 1; i < NB; i++) {
                if (i < wb) {
#pragma unroll
                    for (int q = 0; q < i; q++)
                        v[i] -= L[i][q] * v[q];
                }
            }
#pragma unroll
            for (int i = 0; i < NB; i++)
                if (i < wb) X[r0 + i][t] = v[i];
        }
        if (KW == NB) break; // h <= NB: one block, known when compiled
    }
    __syncthreads();
    for (int e = t; e < h * nc; e += swap_threads)
        a[e % h + (size_t)(e / h) * lda] = X[e % h][e / h];
}

// perm[f] for f < m: the row (counted from r0) that LAPACK's interchanges
// ipiv[r0 .. r0+k-1] (1-based, of one matrix; k <= m) bring to position
// r0 + f; piv: k ints of scratch.  Shared memory, the whole block; the
// interchanges are sequential, so one thread applies them, from piv
// rather than from global memory.
__device__ void perm_of_pivots(int *perm, int *piv, const int *ipiv, int r0,
                               int m, int k)
{
    for (int f = threadIdx.x; f < m; f += blockDim.x) {
        perm[f] = f;
        if (f < k) piv[f] = ipiv[r0 + f] - 1 - r0;
    }
    __syncthreads();
    if (threadIdx.x == 0)
        for (int f = 0; f < k; f++) {
            int q = piv[f], v = perm[f];
            perm[f] = perm[q];
            perm[q] = v;
        }
    __syncthreads();
}

// The list of moved rows (mw words a matrix) of the interchanges of the h
// columns at j: each row of j..n-1 whose place changes, with its place
// after them.
__global__ void __launch_bounds__(256)
    compose_kernel(int n, int j, int h, const int *ipiv, int *moves, int mw)
{
    __shared__ int perm[max_rows], piv[KMAX], count;
    const long long mat = blockIdx.x;
    const int m = n - j;
    if (threadIdx.x == 0) count = 0; // published by the barriers below
    perm_of_pivots(perm, piv, ipiv + mat * n, j, m, h);
    int *mv = moves + mat * mw;
    for (int f = threadIdx.x; f < m; f += blockDim.x)
        if (perm[f] != f) mv[1 + atomicAdd(&count, 1)] = perm[f] | f << 16;
    __syncthreads();
    if (threadIdx.x == 0) mv[0] = count;
}

// Interchanges left of the columns that made them: block (mat, y)
// permutes columns J = c0 + y*NB .. J+NB-1, of the block of kb columns
// from c0 that ends at r0, by the interchanges of at most kmax columns
// from r0, rows r0 .. n-1, through shared memory: as many columns at a
// time as the block's threads cover (a thread an element), or one column
// in several rounds.  Whole columns are read and written, coalesced.
template <typename T>
__global__ void __launch_bounds__(256)
    left_swap_kernel(mats<T> A, int lda, int n, int c0, int kb, int kmax,
                     const int *ipiv)
{
    __shared__ int perm[max_rows], piv[max_rows];
    __shared__ T col[max_rows];
    const long long mat = blockIdx.x;
    const int J = c0 + blockIdx.y * NB, r0 = c0 + ((J - c0) / kb + 1) * kb;
    const int m = n - r0;
    const int t = threadIdx.x, nt = blockDim.x;
    perm_of_pivots(perm, piv, ipiv + mat * n, r0, m, min(kmax, m));
    // Columns a round; this thread's column u of the round, first row and
    // stride.
    const int per = m < nt ? nt / m : 1;
    const int u = per > 1 ? t / m : 0, first = per > 1 ? t % m : t;
    const int stride = per > 1 ? m : nt;
    T *a = A(mat) + r0 + (size_t)J * lda, *buf = col + u * m;
    for (int c = 0; c < NB; c += per) {
        T *x = a + (size_t)(c + u) * lda;
        const bool here = u < per && c + u < NB;
        for (int f = first; here && f < m; f += stride)
            buf[f] = x[f];
        __syncthreads();
        for (int f = first; here && f < m; f += stride)
            x[f] = buf[perm[f]];
        __syncthreads();
    }
}

// The matrices first .. first+count-1 of A at offsets o21, o12 and o22
// into p[0..count), p[count..2count), p[2count..3count).
template <typename T>
__global__ void offsets_kernel(mats<T> A, long long first, int count,
                               size_t o21, size_t o12, size_t o22, T **p)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= count) return;
    T *a = A(first + i);
    p[i] = a + o21;
    p[count + i] = a + o12;
    p[2 * count + i] = a + o22;
}

// Side streams of the calling thread on the current device, kept for the
// thread's life, and events to fork work off a stream onto them and join
// it back.
struct side_streams {
    static constexpr int max = 8;
    cudaStream_t st[max];
    cudaEvent_t fork, join[max];
    int state = 0; // 0: not made yet, 1: made, -1: could not be made
};

side_streams *sides()
{
    constexpr int max_devices = 64;
    static thread_local side_streams all[max_devices];
    int dev = hyla_cuda_device_below(max_devices);
    if (dev < 0) return nullptr;
    side_streams &x = all[dev];
    if (x.state == 0) {
        bool ok = cudaEventCreateWithFlags(&x.fork, cudaEventDisableTiming) ==
                  cudaSuccess;
        for (int k = 0; ok && k < side_streams::max; k++)
            ok = cudaStreamCreateWithFlags(&x.st[k], cudaStreamNonBlocking) ==
                     cudaSuccess &&
                 cudaEventCreateWithFlags(&x.join[k],
                                          cudaEventDisableTiming) ==
                     cudaSuccess;
        x.state = ok ? 1 : -1;
        if (!ok) cudaGetLastError();
    }
    return x.state == 1 ? &x : nullptr;
}

// One LU of a batch: the matrices, their pivots, infos, the list of moved
// rows (mw words a matrix), pointers for the batched GEMMs (3*max_chunk
// of device memory, where the matrices come as an array), the cuBLAS
// handle and the stream, and the side streams of the GEMMs (0: batched).
template <typename T> struct lu {
    int n;
    mats<T> A;
    int lda, *ipiv, *info, *moves, mw, batch;
    T **p;
    cublasHandle_t h;
    cudaStream_t s;
    int streams;

    // Columns j..j+k-1, rows j..n-1: left half, its interchanges, solve
    // and update in the right half, then the right half, and its
    // interchanges in the left half (so that the block's L is whole for
    // the update right of it); a leaf kernel at 32 columns or fewer.
    int factor(int j, int k)
    {
        if (k <= NB) {
            int threads = (n - j + 31) / 32 * 32;
            panel_kernel<T><<<batch, threads, 0, s>>>(A, lda, n, j, k, ipiv,
                                                      info, moves, mw);
            HYLA_CUDA_CHECK(cudaGetLastError());
            return 0;
        }
        int half = (k / 2 + NB - 1) / NB * NB, rc;
        if ((rc = factor(j, half)) || (rc = apply(j, half, j + half, j + k)) ||
            (rc = factor(j + half, k - half)))
            return rc;
        return left_swaps(j, half, 1, k - half);
    }

    // The interchanges of the w columns at j in columns c0..c1-1, the
    // solve of their rows j..j+w-1 and the update of the rows below.
    int apply(int j, int w, int c0, int c1)
    {
        int rc = swap(j, w, c0, c1);
        return rc ? rc : gemm(j, w, c0, c1);
    }

    // The interchanges of the w columns at j in columns c0..c1-1, and the
    // solve of their rows j..j+w-1.  The list of the moved rows is the
    // leaf's when w <= NB, else composed here.
    int swap(int j, int w, int c0, int c1)
    {
        if (c0 >= c1) return 0;
        if (w > NB) {
            compose_kernel<<<batch, 256, 0, s>>>(n, j, w, ipiv, moves, mw);
            HYLA_CUDA_CHECK(cudaGetLastError());
        }
        return w <= NB   ? launch_swap<NB>(j, w, c0, c1)
               : w <= 64 ? launch_swap<64>(j, w, c0, c1)
                         : launch_swap<KMAX>(j, w, c0, c1);
    }

    template <int KW> int launch_swap(int j, int w, int c0, int c1)
    {
        int blocks = (c1 - c0 + swap_cols<KW>() - 1) / swap_cols<KW>();
        swap_kernel<T, KW><<<dim3(batch, blocks), swap_threads, 0, s>>>(
            A, lda, j, w, c0, c1, moves, mw);
        HYLA_CUDA_CHECK(cudaGetLastError());
        return 0;
    }

    // Rows j+w..n-1 of columns c0..c1-1 -= A21 U12, A21 their rows of
    // the w columns at j, U12 rows j..j+w-1 of columns c0..c1-1.
    int gemm(int j, int w, int c0, int c1)
    {
        const int mm = n - j - w, nn = c1 - c0;
        if (mm <= 0 || nn <= 0) return 0;
        const size_t o21 = (size_t)(j + w) + (size_t)j * lda;
        const size_t o12 = (size_t)j + (size_t)c0 * lda;
        const size_t o22 = (size_t)(j + w) + (size_t)c0 * lda;
        const T one = 1, minus_one = -1;
        const cublasOperation_t N = CUBLAS_OP_N;
        if (streams && !A.array) return gemm_streamed(mm, nn, w, o21, o12, o22);
        for (long long first = 0; first < batch; first += max_chunk) {
            int cnt = (int)std::min<long long>(max_chunk, batch - first);
            if (!A.array) {
                T *b = A.base + first * A.stride;
                HYLA_CUBLAS_CHECK(blas<T>::gemm_strided(
                    h, N, N, mm, nn, w, &minus_one, b + o21, lda, A.stride,
                    b + o12, lda, A.stride, &one, b + o22, lda, A.stride, cnt));
                continue;
            }
            offsets_kernel<T><<<(cnt + 255) / 256, 256, 0, s>>>(
                A, first, cnt, o21, o12, o22, p);
            HYLA_CUDA_CHECK(cudaGetLastError());
            HYLA_CUBLAS_CHECK(blas<T>::gemm_batched(
                h, N, N, mm, nn, w, &minus_one, p, lda, p + cnt, lda, &one,
                p + 2 * cnt, lda, cnt));
        }
        return 0;
    }

    // The same GEMMs a cuBLAS call each (matrices at a stride), spread
    // over the side streams, after the work queued on s and before what
    // follows it.
    int gemm_streamed(int mm, int nn, int w, size_t o21, size_t o12,
                      size_t o22)
    {
        side_streams *x = sides();
        if (!x) return HYLA_ERR_CUDA;
        const int ns = (int)std::min<long long>(
            {(long long)streams, side_streams::max, batch});
        const T one = 1, minus_one = -1;
        const cublasOperation_t N = CUBLAS_OP_N;
        HYLA_CUDA_CHECK(cudaEventRecord(x->fork, s));
        for (int k = 0; k < ns; k++)
            HYLA_CUDA_CHECK(cudaStreamWaitEvent(x->st[k], x->fork, 0));
        int rc = 0;
        for (long long i = 0; i < batch && !rc; i++) {
            T *b = A.base + i * A.stride;
            if (cublasSetStream(h, x->st[i % ns]) != CUBLAS_STATUS_SUCCESS ||
                blas<T>::gemm(h, N, N, mm, nn, w, &minus_one, b + o21, lda,
                              b + o12, lda, &one, b + o22, lda) !=
                    CUBLAS_STATUS_SUCCESS)
                rc = HYLA_ERR_CUBLAS;
        }
        for (int k = 0; k < ns; k++)
            if (cudaEventRecord(x->join[k], x->st[k]) != cudaSuccess ||
                cudaStreamWaitEvent(s, x->join[k], 0) != cudaSuccess)
                rc = rc ? rc : HYLA_ERR_CUDA;
        HYLA_CUBLAS_CHECK(cublasSetStream(h, s));
        return rc;
    }

    // In each of nblocks blocks of kb columns from c0, the interchanges
    // of at most kmax columns after it.
    int left_swaps(int c0, int kb, int nblocks, int kmax)
    {
        int groups = nblocks * (kb / NB);
        if (!groups) return 0;
        left_swap_kernel<T><<<dim3(batch, groups), 256, 0, s>>>(
            A, lda, n, c0, kb, kmax, ipiv);
        HYLA_CUDA_CHECK(cudaGetLastError());
        return 0;
    }
};

// Block width (32, 64 or 128) and side streams of the GEMMs (0: batched)
// for a batch of order n; tune_block, tune_streams: set by
// hyla_cuda_batched_large_tune (0 and -1: these defaults).
int tune_block = 0, tune_streams = -1;

// The fastest width measured on an H100 (docs/perf): 32 up to order 128
// in double and 96 in single, where a block's extra passes cost what its
// deeper GEMMs save; then 128, but 64 for single up to 192.  At 512 in
// double: 22.7, 19.2 and 17.2 ms for 1024 matrices in blocks of 32, 64
// and 128.
template <typename T> int block_of(int n)
{
    if (tune_block) return tune_block;
    if (n <= (sizeof(T) == 4 ? 96 : 128)) return NB;
    return sizeof(T) == 4 && n <= 192 ? 64 : KMAX;
}

// A cuBLAS call a matrix on side streams gave no consistent gain over
// one batched call on an H100 (orders 128-512, batches of 1-64, 1-8
// streams; docs/perf): 0.94-1.10 of its time at one matrix, slower from
// four on (up to 12.5x at 64).  Batched it is.
int streams_of()
{
    return tune_streams >= 0 ? tune_streams : 0;
}

// cuBLAS on stream s, scalars from the host.
int bind(cublasHandle_t h, cudaStream_t s)
{
    HYLA_CUBLAS_CHECK(cublasSetStream(h, s));
    HYLA_CUBLAS_CHECK(cublasSetPointerMode(h, CUBLAS_POINTER_MODE_HOST));
    return 0;
}

// Matrix first + blockIdx.x of S (leading dimension lds) into the packed
// n-by-n D + blockIdx.x*n*n.
template <typename T>
__global__ void pack_kernel(mats<T> S, int lds, long long first, int n, T *D)
{
    const T *src = S(first + blockIdx.x);
    T *dst = D + (size_t)blockIdx.x * n * n;
    for (int e = threadIdx.x; e < n * n; e += blockDim.x)
        dst[e] = src[e % n + (size_t)(e / n) * lds];
}

// The packed X + blockIdx.x*n*n into matrix first + blockIdx.x of C
// (leading dimension ldc), unless that matrix is singular.
template <typename T>
__global__ void unpack_kernel(const T *X, int n, const int *info,
                              mats<T> C, int ldc, long long first)
{
    if (info[blockIdx.x]) return;
    const T *src = X + (size_t)blockIdx.x * n * n;
    T *dst = C(first + blockIdx.x);
    for (int e = threadIdx.x; e < n * n; e += blockDim.x)
        dst[e % n + (size_t)(e / n) * ldc] = src[e];
}

// X_i = P_i, the row interchanges of pivots ipiv[i*n ..] applied to the
// identity (so that A^-1 = U^-1 L^-1 P), packed n-by-n.
template <typename T>
__global__ void permutation_kernel(const int *ipiv, int n, T *X)
{
    __shared__ int perm[max_rows], piv[max_rows];
    perm_of_pivots(perm, piv, ipiv + (size_t)blockIdx.x * n, 0, n, n);
    T *x = X + (size_t)blockIdx.x * n * n;
    for (int e = threadIdx.x; e < n * n; e += blockDim.x)
        x[e] = perm[e % n] == e / n ? T(1) : T(0);
}

template <typename T>
__global__ void pointers_kernel(T *W, T *X, long long nn, int count, T **p)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= count) return;
    p[i] = W + i * nn;
    p[count + i] = X + i * nn;
}

} // namespace

extern "C" void hyla_cuda_batched_large_tune(int block, int streams)
{
    hyla::tune_block = block == 32 || block == 64 || block == 128 ? block : 0;
    hyla::tune_streams =
        streams >= 0 && streams <= side_streams::max ? streams : -1;
}

template <typename T>
int getrf_large(int n, mats<T> A, int lda, int *ipiv, int *info, int batch,
                cublasHandle_t h, cudaStream_t s)
{
    int rc;
    scratch mem(s);
    T **p = nullptr;
    if ((rc = bind(h, s))) return rc;
    if (A.array && !(p = mem.get<T *>(3 * (size_t)std::min(batch, max_chunk))))
        return HYLA_ERR_DEVICE_MEMORY;
    // The last pass reads the pivots.
    const int kb = block_of<T>(n), mw = move_words(kb);
    int *moves = mem.get<int>((size_t)batch * mw);
    if (!moves || (!ipiv && !(ipiv = mem.get<int>((size_t)batch * n))))
        return HYLA_ERR_DEVICE_MEMORY;
    lu<T> f{n, A, lda, ipiv, info, moves, mw, batch, p, h, s,
            streams_of()};
    for (int j = 0; j < n; j += kb) {
        int w = std::min(kb, n - j);
        if ((rc = f.factor(j, w)) || (rc = f.apply(j, w, j + w, n)))
            return rc;
    }
    return f.left_swaps(0, kb, (n - 1) / kb, n); // blocks with rows below
}

template <typename T>
int getri_large(int n, mats<T> A, int lda, mats<T> C, int ldc, int *ipiv,
                int *info, int batch, cublasHandle_t h, cudaStream_t s)
{
    // A copy of a chunk of matrices is factored (A stays as it is), the
    // permuted identity solved with its factors, and the result copied to
    // C where the matrix is not singular.  About 2^24 elements a chunk.
    long long nn = (long long)n * n;
    int cb = (int)std::min<long long>(
        {(long long)batch, std::max(1LL, (1LL << 24) / nn), max_chunk});
    int rc = 0;
    scratch mem(s);
    T *W = mem.get<T>(cb * nn), *X = mem.get<T>(cb * nn);
    T **p = mem.get<T *>(2 * (size_t)cb);
    int *piv = ipiv ? nullptr : mem.get<int>((size_t)cb * n);
    if (!W || !X || !p || (!ipiv && !piv)) return HYLA_ERR_DEVICE_MEMORY;
    const T one = 1;
    for (long long first = 0; first < batch && !rc; first += cb) {
        int cnt = (int)std::min<long long>(cb, batch - first);
        int *pv = ipiv ? ipiv + first * n : piv;
        pack_kernel<T><<<cnt, 256, 0, s>>>(A, lda, first, n, W);
        HYLA_CUDA_CHECK(cudaGetLastError());
        if ((rc = getrf_large<T>(n, mats<T>{nullptr, W, nn}, n, pv,
                                 info + first, cnt, h, s)) ||
            (rc = bind(h, s)))
            break;
        permutation_kernel<T><<<cnt, 256, 0, s>>>(pv, n, X);
        pointers_kernel<T><<<(cnt + 255) / 256, 256, 0, s>>>(W, X, nn, cnt, p);
        HYLA_CUDA_CHECK(cudaGetLastError());
        HYLA_CUBLAS_CHECK(blas<T>::trsm_batched(
            h, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N,
            CUBLAS_DIAG_UNIT, n, n, &one, p, n, p + cnt, n, cnt));
        HYLA_CUBLAS_CHECK(blas<T>::trsm_batched(
            h, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_N,
            CUBLAS_DIAG_NON_UNIT, n, n, &one, p, n, p + cnt, n, cnt));
        unpack_kernel<T><<<cnt, 256, 0, s>>>(X, n, info + first, C, ldc, first);
        HYLA_CUDA_CHECK(cudaGetLastError());
    }
    return rc;
}

template int getrf_large<double>(int, mats<double>, int, int *, int *, int,
                                 cublasHandle_t, cudaStream_t);
template int getrf_large<float>(int, mats<float>, int, int *, int *, int,
                                cublasHandle_t, cudaStream_t);
template int getri_large<double>(int, mats<double>, int, mats<double>, int,
                                 int *, int *, int, cublasHandle_t,
                                 cudaStream_t);
template int getri_large<float>(int, mats<float>, int, mats<float>, int,
                                int *, int *, int, cublasHandle_t,
                                cudaStream_t);

} // namespace hyla

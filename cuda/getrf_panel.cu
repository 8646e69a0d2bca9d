// SPDX-License-Identifier: BSD-3-Clause
// LU with partial pivoting of a tile column on the GPU.
//
// Recursive on the columns (left half, TRSM and GEMM, right half) down to
// a leaf of at most 32 columns.  Two designs of leaf: D2, for leaves whose
// rows fit in the shared memory of the SMs, is one fused kernel: its blocks
// each keep a slice of the leaf's rows in shared memory for the whole
// leaf and meet at a grid barrier once per column, where each publishes
// its pivot candidate with a copy of that row.  The leaf also applies its
// interchanges to the rest of the panel, so the recursion needs no row
// swaps of its own.  D1, for any height, takes two kernels per column: the
// interchange of two whole panel rows, then the scaling and update of the
// leaf's rows fused with the search for the next pivot (each block's best,
// then the last block to finish picks the pivot).
#include "gpu.h"
#include "gpu_check.h"
#include "tiles_t.h"
#include "trsm_t.h"

#include <algorithm>
#include <atomic>
#include <cuda/atomic>
#include <cfloat>

namespace
{

using hyla::max_gpus;
using hyla::tiles;

constexpr int leaf_threads = 256;
constexpr int max_leaf = 32; // widest leaf
constexpr int max_blocks = 1024;
constexpr int min_rows = 16; // fewest rows a leaf block takes

// Tunables (hyla_cuda_getrf_panel_tune): the widest leaf, and the rows a
// leaf block takes when the GPU has more SMs than the leaf needs: fewer
// blocks make the grid barrier cheaper, more make each column's update
// shorter.
std::atomic<int> leaf_width{max_leaf};
std::atomic<int> block_rows{256};
// Leaves at least this tall use D1 (0: only those whose rows do not fit in
// shared memory).
std::atomic<int> d1_height{0};

// The workspace, carved from the caller's HYLA_CUDA_GETRF_PANEL_WORK
// bytes: the barrier's counters (zero between leaves), the candidates of
// the blocks for two columns (a block may be one column ahead of another,
// never two), and the pointer arrays of the batched GEMM.
template <typename T> struct board {
    unsigned *arrive, *leave;
    double2 *cand; // [2][max_blocks]  |candidate| and its row (-1: none),
                   //   one word that a block reads in one load
    T *copy;       // [2][max_blocks + 1][max_leaf]   the candidate rows;
                   //   the last one: the diagonal row
    const T **a;   // [HYLA_CUDA_LASWP_MAXTILES]
    const T **b;
    T **c;

    // D1: the blocks that have finished a column, and its pivot row.
    unsigned *done;
    int *pivot;

    explicit board(void *work)
    {
        char *p = static_cast<char *>(work);
        arrive = reinterpret_cast<unsigned *>(p);
        leave = arrive + 1;
        done = arrive + 2;
        pivot = reinterpret_cast<int *>(arrive + 3);
        p += 256;
        cand = reinterpret_cast<double2 *>(p);
        p += sizeof(double2) * 2 * max_blocks;
        copy = reinterpret_cast<T *>(p);
        p += sizeof(T) * 2 * (max_blocks + 1) * max_leaf;
        a = reinterpret_cast<const T **>(p);
        p += sizeof(T *) * HYLA_CUDA_LASWP_MAXTILES;
        b = reinterpret_cast<const T **>(p);
        p += sizeof(T *) * HYLA_CUDA_LASWP_MAXTILES;
        c = reinterpret_cast<T **>(p);
    }
};

static_assert(256 + sizeof(double2) * 2 * max_blocks +
                      sizeof(double) * 2 * (max_blocks + 1) * max_leaf +
                      3 * sizeof(void *) * HYLA_CUDA_LASWP_MAXTILES <=
                  (size_t)HYLA_CUDA_GETRF_PANEL_WORK,
              "board needs more workspace");

// Is (v, r) a better pivot than (bv, br)?  The largest |value|, the first
// row on a tie (LAPACK's idamax); r < 0 is no candidate.
template <typename T> __device__ bool better(T v, int r, T bv, int br)
{
    return r >= 0 && (br < 0 || v > bv || (v == bv && r < br));
}

template <typename T> __device__ void warp_best(T &v, int &r, int &s)
{
    for (int o = 16; o > 0; o >>= 1) {
        T v2 = __shfl_down_sync(0xffffffffu, v, o);
        int r2 = __shfl_down_sync(0xffffffffu, r, o);
        int s2 = __shfl_down_sync(0xffffffffu, s, o);
        if (better(v2, r2, v, r)) {
            v = v2;
            r = r2;
            s = s2;
        }
    }
}

// The block's best (v, r) over its threads, in every thread; s goes
// along with the winner.
template <typename T> __device__ void block_best(T &v, int &r, int &s)
{
    __shared__ T bv[32];
    __shared__ int br[32], bs[32];
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    warp_best(v, r, s);
    if (lane == 0) bv[warp] = v, br[warp] = r, bs[warp] = s;
    __syncthreads();
    if (warp == 0) {
        bool in = lane < (int)(blockDim.x >> 5);
        v = in ? bv[lane] : T(-1);
        r = in ? br[lane] : -1;
        s = in ? bs[lane] : -1;
        warp_best(v, r, s);
        if (lane == 0) bv[0] = v, br[0] = r, bs[0] = s;
    }
    __syncthreads();
    v = bv[0], r = br[0], s = bs[0];
    __syncthreads(); // before another call overwrites them
}

// Every block arrives, then waits for all of them to have arrived `round`
// times.  The fences make each block's writes before the barrier visible
// to all after it.
__device__ void grid_barrier(unsigned *arrive, unsigned round)
{
    __syncthreads();
    if (threadIdx.x == 0) {
        cuda::atomic_ref<unsigned, cuda::thread_scope_device> a(*arrive);
        a.fetch_add(1u, cuda::memory_order_release);
        unsigned want = round * gridDim.x;
        while (a.load(cuda::memory_order_acquire) < want)
            ;
    }
    __syncthreads();
}

// Leaf: columns [j0, j0 + w) of rows [j0, m), w <= max_leaf.  Block b
// holds rows [j0 + b R, j0 + (b + 1) R) in shared memory (block 0 thus
// the diagonal rows, as R >= w).  Column j:
//  1. each block's best candidate below the diagonal is published with a
//     copy of its row, and block 0 publishes row j; grid barrier;
//  2. every block picks the same pivot p among the candidates;
//  3. block 0 writes the pivot row into row j, the owner of row p the old
//     row j into row p (both from the published copies: no race);
//  4. each block scales its rows below j, updates them within the leaf,
//     and finds its candidate for column j + 1 on the way.
// Then the interchanges are applied to the panel's other columns.
template <typename T>
__global__ void __launch_bounds__(leaf_threads)
    leaf_kernel(tiles<T> t, int mb, int m, int n, int ldd, int j0, int w, int R,
                int *ipiv, int off, int *info, board<T> g)
{
    extern __shared__ __align__(16) unsigned char raw[];
    T *S = reinterpret_cast<T *>(raw);
    const int ws = w + 1;
    __shared__ T sv[leaf_threads / 32];
    __shared__ int sr[leaf_threads / 32];
    __shared__ T prow[max_leaf], diag[max_leaf];
    __shared__ int piv[max_leaf];
    __shared__ int s_p;
    const int nblk = gridDim.x, b = blockIdx.x, tid = threadIdx.x;
    const int lane = tid & 31, warp = tid >> 5;
    const int r0 = j0 + b * R, nr = max(min(r0 + R, m) - r0, 0);
    const T sfmin = sizeof(T) == sizeof(double) ? T(DBL_MIN) : T(FLT_MIN);
    auto row_at = [&](int r) { return t.row(r, mb, ldd); };

    for (int e = tid; e < nr * w; e += leaf_threads) {
        int r = e / w, c = e - r * w;
        S[r * ws + c] = row_at(r0 + r)[j0 + c];
    }
    __syncthreads();
    T best = -1;
    int arg = -1;
    for (int r = tid; r < nr; r += leaf_threads) {
        T v = fabs(S[r * ws]);
        if (better(v, r0 + r, best, arg)) best = v, arg = r0 + r;
    }

    for (int j = 0; j < w; j++) {
        const int gj = j0 + j, buf = j & 1;
        // 1. this block's candidate, published
        int slot = b;
        warp_best(best, arg, slot);
        if (lane == 0) sv[warp] = best, sr[warp] = arg;
        __syncthreads();
        if (warp == 0) {
            best = lane < leaf_threads / 32 ? sv[lane] : T(-1);
            arg = lane < leaf_threads / 32 ? sr[lane] : -1;
            warp_best(best, arg, slot);
            if (lane == 0) s_p = arg;
        }
        __syncthreads();
        arg = s_p;
        T *copies = g.copy + (size_t)buf * (max_blocks + 1) * max_leaf;
        if (arg >= 0 && tid < w)
            copies[(size_t)b * max_leaf + tid] = S[(arg - r0) * ws + tid];
        if (b == 0 && tid < w)
            copies[(size_t)max_blocks * max_leaf + tid] = S[j * ws + tid];
        if (tid == 0) {
            g.cand[buf * max_blocks + b] =
                make_double2(best, __longlong_as_double(arg));
        }
        grid_barrier(g.arrive, j + 1);

        // 2. the pivot, the same in every block, and the rows of the
        // interchange (the diagonal row's load overlaps the search)
        if (warp == 0) {
            T dj = lane < w
                       ? __ldcg(&copies[(size_t)max_blocks * max_leaf + lane])
                       : T(0);
            T v = -1;
            int r = -1, s = -1;
            for (int i = lane; i < nblk; i += 32) {
                double2 c = __ldcg(&g.cand[buf * max_blocks + i]);
                T v2 = T(c.x);
                int r2 = (int)__double_as_longlong(c.y);
                if (better(v2, r2, v, r)) v = v2, r = r2, s = i;
            }
            warp_best(v, r, s);
            r = __shfl_sync(0xffffffffu, r, 0);
            s = __shfl_sync(0xffffffffu, s, 0);
            if (lane < w) {
                prow[lane] = __ldcg(&copies[(size_t)s * max_leaf + lane]);
                diag[lane] = dj;
            }
            if (lane == 0) s_p = piv[j] = r;
        }
        __syncthreads();
        const int p = s_p;
        const T pv = prow[j];
        if (b == 0 && tid == 0) {
            ipiv[gj] = off + p + 1;
            if (pv == T(0)) atomicCAS(info, 0, off + gj + 1);
        }

        // 3. the interchange
        if (p != gj && tid < w) {
            if (b == 0) S[j * ws + tid] = prow[tid];
            if (p >= r0 && p < r0 + nr) S[(p - r0) * ws + tid] = diag[tid];
        }
        __syncthreads();

        // 4. scale, update, next candidate
        best = -1;
        arg = -1;
        const T inv = pv != T(0) ? T(1) / pv : T(0);
        const bool small = fabs(pv) < sfmin;
        for (int r = max(gj + 1 - r0, 0) + tid; r < nr; r += leaf_threads) {
            T *x = S + r * ws;
            if (pv != T(0)) {
                T l = small ? x[j] / pv : x[j] * inv;
                x[j] = l;
                for (int c = j + 1; c < w; c++)
                    x[c] -= l * prow[c];
            }
            if (j + 1 < w) {
                T v = fabs(x[j + 1]);
                if (better(v, r0 + r, best, arg)) best = v, arg = r0 + r;
            }
        }
    }
    __syncthreads();
    for (int e = tid; e < nr * w; e += leaf_threads) {
        int r = e / w, c = e - r * w;
        row_at(r0 + r)[j0 + c] = S[r * ws + c];
    }

    // The leaf's interchanges on columns [0, j0) and [j0 + w, n): as one
    // permutation of at most 2w rows, which row `dst[i]` gets the old
    // row `src[i]`, then each column read whole and written back.
    __shared__ int dst[2 * max_leaf], src[2 * max_leaf];
    __shared__ int count;
    if (warp == 0) {
        if (lane < w) dst[lane] = src[lane] = j0 + lane;
        int cnt = w;
        __syncwarp();
        for (int j = 0; j < w; j++) {
            int p = piv[j], at = p - j0;
            if (p == j0 + j) continue;
            if (at >= w) {
                at = -1;
                for (int base = w; base < cnt && at < 0; base += 32) {
                    unsigned hit =
                        __ballot_sync(0xffffffffu, base + lane < cnt &&
                                                       dst[base + lane] == p);
                    if (hit) at = base + __ffs(hit) - 1;
                }
                if (at < 0) {
                    at = cnt++;
                    if (lane == 0) dst[at] = src[at] = p;
                }
            }
            __syncwarp();
            if (lane == 0) {
                int s = src[j];
                src[j] = src[at];
                src[at] = s;
            }
            __syncwarp();
        }
        if (lane == 0) count = cnt;
    }
    __syncthreads();
    const int cnt = count, others = n - w;
    for (int q = b * leaf_threads + tid; q < others; q += nblk * leaf_threads) {
        int c = q < j0 ? q : q + w;
        T v[2 * max_leaf];
#pragma unroll
        for (int i = 0; i < 2 * max_leaf; i++)
            if (i < cnt) v[i] = row_at(src[i])[c];
#pragma unroll
        for (int i = 0; i < 2 * max_leaf; i++)
            if (i < cnt) row_at(dst[i])[c] = v[i];
    }

    // The last block out leaves the counters zero for the next leaf.
    __syncthreads();
    if (tid == 0) {
        __threadfence();
        if (atomicAdd(g.leave, 1u) == (unsigned)nblk - 1) {
            *g.arrive = 0;
            *g.leave = 0;
            __threadfence();
        }
    }
}

// D1.  Threads of a D1 kernel; blocks of the search kernel.
constexpr int d1_threads = 256;

// D1 step 2 of column gj (and step 0: search only, update = false): rows
// i > gj of the leaf's columns (gj, j0 + w) get l_i = A(i, gj) / A(gj, gj)
// and A(i, k) -= l_i A(gj, k); each thread then offers |A(i, c)| of its
// rows i >= c for column c = gj + 1 (c = gj without update).  Each block
// publishes its best; the last block to finish picks the pivot of column
// c (largest, first row on a tie), writes ipiv and info, and leaves the
// counter zero.
template <typename T>
__global__ void __launch_bounds__(d1_threads)
    d1_kernel(tiles<T> t, int mb, int m, int ldd, int gj, int end, bool update,
              int *ipiv, int off, int *info, board<T> g)
{
    __shared__ T prow[max_leaf];
    __shared__ bool last;
    const int tid = threadIdx.x, c = update ? gj + 1 : gj;
    auto row_at = [&](int r) { return t.row(r, mb, ldd); };
    T pv = 0;
    if (update) {
        if (tid < end - gj) prow[tid] = row_at(gj)[gj + tid];
        __syncthreads();
        pv = prow[0];
    }
    const T sfmin = sizeof(T) == sizeof(double) ? T(DBL_MIN) : T(FLT_MIN);
    const bool small = fabs(pv) < sfmin;
    const T inv = pv != T(0) ? T(1) / pv : T(0);
    T best = -1;
    int arg = -1;
    for (int i = c + blockIdx.x * d1_threads + tid; i < m;
         i += gridDim.x * d1_threads) {
        T *x = row_at(i);
        if (update && pv != T(0)) {
            T l = small ? x[gj] / pv : x[gj] * inv;
            x[gj] = l;
            for (int k = 1; k < end - gj; k++)
                x[gj + k] -= l * prow[k];
        }
        if (c < end) {
            T v = fabs(x[c]);
            if (better(v, i, best, arg)) best = v, arg = i;
        }
    }
    if (c >= end) return;
    int slot = 0;
    block_best(best, arg, slot);
    if (tid == 0) {
        g.cand[blockIdx.x] = make_double2(best, __longlong_as_double(arg));
        __threadfence();
        last = atomicAdd(g.done, 1u) == gridDim.x - 1;
    }
    __syncthreads();
    if (!last) return;
    T v = -1;
    int r = -1;
    for (int b = tid; b < (int)gridDim.x; b += d1_threads) {
        double2 cb = __ldcg(&g.cand[b]);
        T v2 = T(cb.x);
        int r2 = (int)__double_as_longlong(cb.y);
        if (better(v2, r2, v, r)) v = v2, r = r2;
    }
    block_best(v, r, slot);
    if (tid == 0) {
        *g.pivot = r;
        ipiv[c] = off + r + 1;
        if (v == T(0)) atomicCAS(info, 0, off + c + 1);
        *g.done = 0;
    }
}

// D1 step 1 of column gj: rows gj and the pivot row trade places across
// the whole panel (columns [0, n)).
template <typename T>
__global__ void d1_swap_kernel(tiles<T> t, int mb, int n, int ldd, int gj,
                               board<T> g)
{
    int p = *g.pivot, k = blockIdx.x * d1_threads + threadIdx.x;
    if (p == gj || k >= n) return;
    T *a = t.row(gj, mb, ldd) + k, *b = t.row(p, mb, ldd) + k;
    T x = *a;
    *a = *b;
    *b = x;
}

// Pointer arrays of the batched GEMM on tiles [1, 1 + count).
template <typename T>
__global__ void gemm_pointers(tiles<T> t, int count, int ldd, int j0, int n1,
                              board<T> g)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= count) return;
    g.a[i] = t.tile[0] + (size_t)j0 * ldd + j0 + n1;
    g.b[i] = t.tile[1 + i] + j0;
    g.c[i] = t.tile[1 + i] + j0 + n1;
}

// Per GPU, set up once: SM count, shared memory a block may ask for.
struct device_info {
    int sms, smem;
};

template <typename T> int device(device_info *d)
{
    static std::atomic<bool> ready[max_gpus];
    static device_info info[max_gpus];
    int dev;
    HYLA_CUDA_CHECK(cudaGetDevice(&dev));
    if (dev < max_gpus && ready[dev]) {
        *d = info[dev];
        return 0;
    }
    HYLA_CUDA_CHECK(
        cudaDeviceGetAttribute(&d->sms, cudaDevAttrMultiProcessorCount, dev));
    HYLA_CUDA_CHECK(cudaDeviceGetAttribute(
        &d->smem, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
    // The kernel's static shared memory comes out of the same budget.
    d->smem -= 2048;
    HYLA_CUDA_CHECK(cudaFuncSetAttribute(
        leaf_kernel<T>, cudaFuncAttributeMaxDynamicSharedMemorySize, d->smem));
    if (dev < max_gpus) {
        info[dev] = *d;
        ready[dev] = true;
    }
    return 0;
}

template <typename T> struct panel {
    cublasHandle_t h;
    cudaStream_t stream;
    device_info dev;
    tiles<T> t;
    int ntiles, mb, m, n, ldd, ib, off, rows, d1_rows;
    int *ipiv, *info;
    board<T> g;

    // Rows per block of a leaf starting at row j0 and width w.
    int rows_per_block(int j0, int w) const
    {
        int rows = m - j0;
        int fit = dev.smem / (int)((w + 1) * sizeof(T));
        return std::max({w, min_rows, std::min(this->rows, fit),
                         (rows + dev.sms - 1) / dev.sms});
    }

    // D1 for leaves at least d1_rows tall (if set) and for those whose
    // rows do not fit in the SMs' shared memory.
    bool use_d1(int j0, int w) const
    {
        int rows = m - j0;
        if (d1_rows > 0 && rows >= d1_rows) return true;
        return sizeof(T) * (size_t)rows_per_block(j0, w) * (w + 1) >
               (size_t)dev.smem;
    }

    int leaf_d1(int j0, int w)
    {
        int end = j0 + w;
        auto grid = [&](int c) {
            int b = (m - c + d1_threads - 1) / d1_threads;
            return std::max(1, std::min({b, 2 * dev.sms, max_blocks}));
        };
        d1_kernel<T><<<grid(j0), d1_threads, 0, stream>>>(
            t, mb, m, ldd, j0, end, false, ipiv, off, info, g);
        for (int gj = j0; gj < end; gj++) {
            d1_swap_kernel<T>
                <<<(n + d1_threads - 1) / d1_threads, d1_threads, 0, stream>>>(
                    t, mb, n, ldd, gj, g);
            d1_kernel<T><<<grid(gj + 1), d1_threads, 0, stream>>>(
                t, mb, m, ldd, gj, end, true, ipiv, off, info, g);
        }
        HYLA_CUDA_CHECK(cudaGetLastError());
        return 0;
    }

    int leaf(int j0, int w)
    {
        if (use_d1(j0, w)) return leaf_d1(j0, w);
        int R = rows_per_block(j0, w);
        int nblk = (m - j0 + R - 1) / R;
        size_t smem = sizeof(T) * (size_t)R * (w + 1);
        void *args[] = {&t, &mb, &m,    &n,   &ldd,  &j0,
                        &w, &R,  &ipiv, &off, &info, &g};
        HYLA_CUDA_CHECK(cudaLaunchCooperativeKernel(
            (const void *)leaf_kernel<T>, dim3(nblk), dim3(leaf_threads), args,
            smem, stream));
        return 0;
    }

    // A12 = L11^-1 A12 for rows [j0, j0 + n1) and columns
    // [j0 + n1, j0 + n1 + n2).  Row-major, so cuBLAS solves the transpose
    // from the right with the (column-major) upper triangle L11^T.
    int trsm(int j0, int n1, int n2)
    {
        const T *l11 = t.tile[0] + (size_t)j0 * ldd + j0;
        T *a12 = t.tile[0] + (size_t)j0 * ldd + j0 + n1;
        HYLA_CUBLAS_CHECK(hyla::trsm<T>(
            h, CUBLAS_SIDE_RIGHT, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_N,
            CUBLAS_DIAG_UNIT, n2, n1, T(1), l11, ldd, a12, ldd));
        return 0;
    }

    // A22 -= A21 A12 for rows [j0 + n1, m): the rest of tile 0, the full
    // tiles after it in one batched call, the short last tile.  As
    // column-major transposes: A22^T -= A12^T A21^T.
    int gemm(int j0, int n1, int n2)
    {
        const T one = 1, minus_one = -1;
        const T *a12 = t.tile[0] + (size_t)j0 * ldd + j0 + n1;
        int top = std::min(mb, m), r = j0 + n1;
        if (top > r) {
            T *a = t.tile[0] + (size_t)r * ldd;
            HYLA_CUBLAS_CHECK(hyla::blas<T>::gemm(
                h, CUBLAS_OP_N, CUBLAS_OP_N, n2, top - r, n1, &minus_one, a12,
                ldd, a + j0, ldd, &one, a + j0 + n1, ldd));
        }
        if (ntiles == 1) return 0;
        int last = m - (ntiles - 1) * mb;
        int full = ntiles - 1 - (last < mb);
        if (full > 0) {
            gemm_pointers<T><<<(full + 127) / 128, 128, 0, stream>>>(
                t, full, ldd, j0, n1, g);
            HYLA_CUDA_CHECK(cudaGetLastError());
            HYLA_CUBLAS_CHECK(hyla::blas<T>::gemm_batched(
                h, CUBLAS_OP_N, CUBLAS_OP_N, n2, mb, n1, &minus_one, g.a, ldd,
                g.b, ldd, &one, g.c, ldd, full));
        }
        if (last < mb) {
            T *a = t.tile[ntiles - 1];
            HYLA_CUBLAS_CHECK(hyla::blas<T>::gemm(
                h, CUBLAS_OP_N, CUBLAS_OP_N, n2, last, n1, &minus_one, a12, ldd,
                a + j0, ldd, &one, a + j0 + n1, ldd));
        }
        return 0;
    }

    // Columns [j0, j0 + w) of rows [j0, m), the columns on their left
    // already factored.
    int rec(int j0, int w)
    {
        if (w <= ib) return leaf(j0, w);
        int n1 = (w / 2 + ib - 1) / ib * ib, n2 = w - n1, rc;
        if ((rc = rec(j0, n1)) || (rc = trsm(j0, n1, n2)) ||
            (rc = gemm(j0, n1, n2)))
            return rc;
        return rec(j0 + n1, n2);
    }
};

template <typename T>
int getrf_panel(cublasHandle_t h, T *const *dtile, int ntiles, int mb, int m,
                int n, int ldd, int *dipiv, int off, int *dinfo, void *dwork,
                int sms, int rows)
{
    if (m <= 0 || n <= 0) return 0;
    if (ntiles < 1 || ntiles > HYLA_CUDA_LASWP_MAXTILES ||
        (ntiles > 1 && mb < n))
        return HYLA_ERR_NOT_SUPPORTED;
    panel<T> P{h,
               nullptr,
               {},
               {},
               ntiles,
               mb,
               m,
               n,
               ldd,
               0,
               off,
               rows > 0 ? rows : block_rows.load(),
               d1_height.load(),
               dipiv,
               dinfo,
               board<T>(dwork)};
    HYLA_CUBLAS_CHECK(cublasGetStream(h, &P.stream));
    int rc = device<T>(&P.dev);
    if (rc) return rc;
    P.t = tiles<T>::from(dtile, ntiles);
    // The widest leaf whose rows fit in the blocks' shared memory (D2), on
    // at most `sms` SMs if the panel fits there, else on all of them.
    int all = P.dev.sms;
    for (int pass = 0; pass < 2; pass++) {
        P.dev.sms = pass == 0 && sms > 0 && sms < all ? sms : all;
        for (P.ib = leaf_width; P.ib > 0; P.ib /= 2)
            if (sizeof(T) * (size_t)P.rows_per_block(0, P.ib) * (P.ib + 1) <=
                (size_t)P.dev.smem)
                break;
        if (P.ib > 0) break;
    }
    // None fits: D1 leaves (use_d1).
    if (P.ib == 0) {
        P.dev.sms = all;
        P.ib = leaf_width;
    }
    int kb = std::min(m, n);
    if ((rc = P.rec(0, kb))) return rc;
    // A panel wider than tall: the columns right of the square part.
    return n > kb ? P.trsm(0, kb, n - kb) : 0;
}

} // namespace

extern "C" void hyla_cuda_getrf_panel_tune(int leaf, int rows, int d1)
{
    d1_height = d1 > 0 ? d1 : 0;
    leaf_width = leaf > 0 && leaf <= max_leaf ? leaf : max_leaf;
    block_rows = rows > 0 ? rows : 256;
}

extern "C" int hyla_cuda_dgetrf_panel(cublasHandle_t handle,
                                      double *const *dtile, int ntiles, int mb,
                                      int m, int n, int ldd, int *dipiv,
                                      int off, int *dinfo, void *dwork, int sms,
                                      int rows)
{
    return getrf_panel(handle, dtile, ntiles, mb, m, n, ldd, dipiv, off, dinfo,
                       dwork, sms, rows);
}

extern "C" int hyla_cuda_sgetrf_panel(cublasHandle_t handle,
                                      float *const *dtile, int ntiles, int mb,
                                      int m, int n, int ldd, int *dipiv,
                                      int off, int *dinfo, void *dwork, int sms,
                                      int rows)
{
    return getrf_panel(handle, dtile, ntiles, mb, m, n, ldd, dipiv, off, dinfo,
                       dwork, sms, rows);
}

// SPDX-License-Identifier: BSD-3-Clause
// LU with partial pivoting of a tile column on the GPU.
//
// Recursive on the columns (left half, TRSM and GEMM, right half) down to
// a leaf of at most 32 columns.  Two designs of leaf: D2, for leaves whose
// rows fit in the shared memory of the SMs, is one fused kernel: its blocks
// each keep a slice of the leaf's rows in shared memory for the whole
// leaf and meet at a grid barrier once per column, where each publishes
// its pivot candidate with a copy of that row (leaf_kernel); on request,
// where the leaf's blocks can all be resident with one row per thread,
// each thread keeps its row in registers instead (leaf_reg_kernel): inside
// a panel it is slower than shared memory (docs/perf).  The leaf also applies
// its interchanges to the rest of the panel, so the recursion needs no row
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
#include <cooperative_groups.h>
#include <cuda/atomic>
#include <cfloat>
#include <climits>

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
// D2 variants (HYLA_CUDA_LEAF_*).
std::atomic<int> variants{0};

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

// A pivot candidate as three words that order like (|value|, -row): the
// bits of the value (non-negative, so they order as unsigned integers) and
// the row, UINT_MAX for no candidate.  The warp's best is then three
// hardware reductions instead of a tree of shuffles.
struct cand_key {
    unsigned hi, lo, row;
};

template <typename T> __device__ cand_key make_key(T v, int r)
{
    if (r < 0) return {0u, 0u, UINT_MAX};
    if constexpr (sizeof(T) == sizeof(double)) {
        unsigned long long bits = __double_as_longlong(v);
        return {(unsigned)(bits >> 32), (unsigned)bits, (unsigned)r};
    } else {
        return {__float_as_uint(v), 0u, (unsigned)r};
    }
}

template <typename T> __device__ T key_value(cand_key k)
{
    if constexpr (sizeof(T) == sizeof(double))
        return __longlong_as_double(((long long)k.hi << 32) | k.lo);
    else
        return __uint_as_float(k.hi);
}

__device__ bool key_better(cand_key a, cand_key b)
{
    return a.hi != b.hi   ? a.hi > b.hi
           : a.lo != b.lo ? a.lo > b.lo
                          : a.row < b.row;
}

__device__ cand_key warp_max(cand_key k)
{
    const unsigned all = 0xffffffffu;
    unsigned hi = __reduce_max_sync(all, k.hi);
    unsigned lo = __reduce_max_sync(all, k.hi == hi ? k.lo : 0u);
    unsigned row =
        __reduce_min_sync(all, k.hi == hi && k.lo == lo ? k.row : UINT_MAX);
    return {hi, lo, row};
}

// The block's best key, in every thread: each warp's best through `red`
// (one key per warp), which the caller must not write again before a
// __syncthreads.
__device__ cand_key block_max(cand_key k, cand_key *red)
{
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    k = warp_max(k);
    if (lane == 0) red[warp] = k;
    __syncthreads();
    k = lane < (int)(blockDim.x >> 5) ? red[lane] : cand_key{0u, 0u, UINT_MAX};
    return warp_max(k);
}

// x[c] -= l prow[c] for c in [c0, w), both in shared memory: eight loads
// of each before the eight stores, as the compiler has to assume that a
// store to x may change prow and would otherwise wait for each one.
template <typename T>
__device__ void row_update(T *x, const T *prow, T l, int c0, int w)
{
    int c = c0;
    for (; c + 8 <= w; c += 8) {
        T v[8], q[8];
#pragma unroll
        for (int i = 0; i < 8; i++)
            v[i] = x[c + i], q[i] = prow[c + i];
#pragma unroll
        for (int i = 0; i < 8; i++)
            x[c + i] = v[i] - l * q[i];
    }
    if (c + 4 <= w) {
        T v[4], q[4];
#pragma unroll
        for (int i = 0; i < 4; i++)
            v[i] = x[c + i], q[i] = prow[c + i];
#pragma unroll
        for (int i = 0; i < 4; i++)
            x[c + i] = v[i] - l * q[i];
        c += 4;
    }
    for (; c < w; c++)
        x[c] -= l * prow[c];
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

// The end of a D2 leaf, in all its blocks: the leaf's interchanges (piv,
// in shared memory) on the panel's columns [0, j0) and [j0 + w, n), as one
// permutation of at most 2w rows, which row `dst[i]` gets the old row
// `src[i]` (found by the lanes of a warp at once: built one interchange
// after another it took 7 of a leaf's 118 us, docs/perf); the last block out
// leaves the barrier's counters zero for the next leaf.  Every block moves a
// chunk of columns through its shared memory `stage` (`cap` elements, at least
// 2w), eight loads in flight a thread.  A column a thread, its rows in
// registers, took 128 registers and left the work to the few blocks whose
// threads got a column: 6-8 % slower panels (docs/perf).
template <typename T>
__device__ void leaf_end(const tiles<T> &t, int mb, int n, int ldd, int j0,
                         int w, const int *piv, const board<T> &g, T *stage,
                         int cap)
{
    const int nblk = gridDim.x, b = blockIdx.x, tid = threadIdx.x;
    const int lane = tid & 31, warp = tid >> 5, nthr = blockDim.x;
    auto row_at = [&](int r) { return t.row(r, mb, ldd); };
    __shared__ int dst[2 * max_leaf], src[2 * max_leaf];
    __shared__ int count;
    if (warp == 0) {
        // The rows the interchanges move: j0 + lane, and each pivot row
        // below the leaf once (its first lane); where each gets its row
        // from, traced back through the interchanges, the last first.
        // Rows that end where they began are left out.
        const int pl = lane < w ? piv[lane] : -1;
        bool lead = pl >= j0 + w;
        for (int i = 0; i < lane && i < w; i++)
            if (piv[i] == pl) lead = false;
        const int da = j0 + lane;
        int sa = da, sb = pl;
        for (int j = w - 1; j >= 0; j--) {
            const int a = j0 + j, p = piv[j];
            sa = sa == a ? p : sa == p ? a : sa;
            sb = sb == a ? p : sb == p ? a : sb;
        }
        const bool ka = lane < w && sa != da, kb = lead && sb != pl;
        const unsigned ba = __ballot_sync(0xffffffffu, ka);
        const unsigned bb = __ballot_sync(0xffffffffu, kb);
        const unsigned below = (1u << lane) - 1u;
        if (ka) {
            int i = __popc(ba & below);
            dst[i] = da;
            src[i] = sa;
        }
        if (kb) {
            int i = __popc(ba) + __popc(bb & below);
            dst[i] = pl;
            src[i] = sb;
        }
        if (lane == 0) count = __popc(ba) + __popc(bb);
    }
    __syncthreads();
    // Columns a chunk: the blocks' share, as many as the stage holds.
    const int cnt = count, others = cnt > 0 ? n - w : 0;
    const int C = min(cap / max(cnt, 1), max((others + nblk - 1) / nblk, 1));
    const int size = cnt * C;
    constexpr int U = 8; // loads a thread keeps in flight
    for (int q0 = b * C; q0 < others; q0 += nblk * C) {
        for (int e0 = tid; e0 < size; e0 += U * nthr) {
            T v[U];
#pragma unroll
            for (int u = 0; u < U; u++) {
                int e = e0 + u * nthr, i = e / C, q = q0 + e - i * C;
                if (e < size && q < others)
                    v[u] = row_at(src[i])[q < j0 ? q : q + w];
            }
#pragma unroll
            for (int u = 0; u < U; u++)
                if (e0 + u * nthr < size) stage[e0 + u * nthr] = v[u];
        }
        __syncthreads();
        for (int e = tid; e < size; e += nthr) {
            int i = e / C, q = q0 + e - i * C;
            if (q < others) row_at(dst[i])[q < j0 ? q : q + w] = stage[e];
        }
        __syncthreads();
    }

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

// Rows [r0, r0 + nr) of the leaf's columns [j0, j0 + w) between the tile
// column and a block's shared memory S (row stride w + 1), coalesced, with
// eight accesses in flight a thread: one at a time, a block's load of its
// rows waited for memory 32 times (cluster leaves 3-5 % faster, docs/perf).
template <typename T, bool load>
__device__ void smem_rows(const tiles<T> &t, int mb, int ldd, T *S, int r0,
                          int nr, int j0, int w)
{
    constexpr int U = 8;
    const int size = nr * w, nthr = blockDim.x;
    for (int e0 = threadIdx.x; e0 < size; e0 += U * nthr) {
        T v[U];
#pragma unroll
        for (int u = 0; u < U; u++) {
            int e = e0 + u * nthr, r = e / w, c = e - r * w;
            if (e < size)
                v[u] =
                    load ? t.row(r0 + r, mb, ldd)[j0 + c] : S[r * (w + 1) + c];
        }
#pragma unroll
        for (int u = 0; u < U; u++) {
            int e = e0 + u * nthr, r = e / w, c = e - r * w;
            if (e < size) {
                if (load)
                    S[r * (w + 1) + c] = v[u];
                else
                    t.row(r0 + r, mb, ldd)[j0 + c] = v[u];
            }
        }
    }
}

// The thread's candidate for the leaf's first column among the block's
// rows in shared memory.
template <typename T>
__device__ cand_key smem_first(const T *S, int w, int r0, int nr)
{
    cand_key k{0u, 0u, UINT_MAX};
    for (int r = threadIdx.x; r < nr; r += blockDim.x) {
        cand_key kr = make_key(fabs(S[r * (w + 1)]), r0 + r);
        if (key_better(kr, k)) k = kr;
    }
    return k;
}

// Steps 3 and 4 of column j (global gj) of a leaf whose block rows are in
// shared memory: rows gj and p trade places (the pivot row prow into row
// gj in the first block, the old row gj, diag, into row p where it lies),
// then the rows below gj are scaled and updated; returns the thread's
// candidate for column j + 1, found on the way.
template <typename T>
__device__ cand_key smem_column(T *S, int w, int r0, int nr, int j, int gj,
                                bool first, int p, const T *prow, const T *diag)
{
    const int tid = threadIdx.x, ws = w + 1;
    if (p != gj && tid < w) {
        if (first) S[j * ws + tid] = prow[tid];
        if (p >= r0 && p < r0 + nr) S[(p - r0) * ws + tid] = diag[tid];
    }
    __syncthreads();
    const T pv = prow[j];
    const T sfmin = sizeof(T) == sizeof(double) ? T(DBL_MIN) : T(FLT_MIN);
    const T inv = pv != T(0) ? T(1) / pv : T(0);
    const bool small = fabs(pv) < sfmin;
    cand_key k{0u, 0u, UINT_MAX};
    for (int r = max(gj + 1 - r0, 0) + tid; r < nr; r += blockDim.x) {
        T *x = S + r * ws;
        if (pv != T(0)) {
            T l = small ? x[j] / pv : x[j] * inv;
            x[j] = l;
            row_update(x, prow, l, j + 1, w);
        }
        if (j + 1 < w) {
            cand_key kr = make_key(fabs(x[j + 1]), r0 + r);
            if (key_better(kr, k)) k = kr;
        }
    }
    return k;
}

// Step 2 of column j in the grid-barrier leaves, by warp 0 of each block:
// the best of the blocks' published candidates (loaded four at a time),
// the block holding it (R rows each from row j0), the copy of its row
// into prow and, in that block only (the one that needs it), the copy of
// row j0 + j into diag, the pivot into piv[j] and *pivot.
template <typename T>
__device__ void pick_pivot(const board<T> &g, int buf, int nblk, int j0, int R,
                           int w, int j, T *prow, T *diag, int *piv, int *pivot)
{
    const int lane = threadIdx.x & 31;
    const T *copies = g.copy + (size_t)buf * (max_blocks + 1) * max_leaf;
    cand_key best{0u, 0u, UINT_MAX};
    for (int i0 = 0; i0 < nblk; i0 += 4 * 32) {
        double2 c[4];
#pragma unroll
        for (int q = 0; q < 4; q++) {
            int i = i0 + q * 32 + lane;
            c[q] = i < nblk ? __ldcg(&g.cand[buf * max_blocks + i])
                            : make_double2(0.0, __longlong_as_double(-1));
        }
#pragma unroll
        for (int q = 0; q < 4; q++) {
            cand_key kq =
                make_key(T(c[q].x), (int)__double_as_longlong(c[q].y));
            if (key_better(kq, best)) best = kq;
        }
    }
    best = warp_max(best);
    const int p = (int)best.row, s = (p - j0) / R;
    if (lane < w) {
        prow[lane] = __ldcg(&copies[(size_t)s * max_leaf + lane]);
        if (s == (int)blockIdx.x)
            diag[lane] = __ldcg(&copies[(size_t)max_blocks * max_leaf + lane]);
    }
    if (lane == 0) *pivot = piv[j] = p;
}

// The block's candidate k (its value and row) on the board for column
// parity buf.
template <typename T>
__device__ void post_candidate(const board<T> &g, int buf, cand_key k)
{
    g.cand[buf * max_blocks + blockIdx.x] =
        make_double2(key_value<T>(k), __longlong_as_double((int)k.row));
}

// The 1-based pivot of column gj, and info at the first zero pivot.
template <typename T>
__device__ void note_pivot(int *ipiv, int *info, int off, int gj, int p, T pv)
{
    ipiv[gj] = off + p + 1;
    if (pv == T(0)) atomicCAS(info, 0, off + gj + 1);
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
    __shared__ cand_key red[leaf_threads / 32];
    __shared__ T prow[max_leaf], diag[max_leaf];
    __shared__ int piv[max_leaf];
    __shared__ int s_p;
    const int nblk = gridDim.x, b = blockIdx.x, tid = threadIdx.x;
    const int r0 = j0 + b * R, nr = max(min(r0 + R, m) - r0, 0);

    smem_rows<T, true>(t, mb, ldd, S, r0, nr, j0, w);
    __syncthreads();
    cand_key k = smem_first(S, w, r0, nr);
    for (int j = 0; j < w; j++) {
        const int gj = j0 + j, buf = j & 1;
        // 1. this block's candidate, published
        k = block_max(k, red);
        T *copies = g.copy + (size_t)buf * (max_blocks + 1) * max_leaf;
        if (k.row != UINT_MAX && tid < w)
            copies[(size_t)b * max_leaf + tid] =
                S[((int)k.row - r0) * ws + tid];
        if (b == 0 && tid < w)
            copies[(size_t)max_blocks * max_leaf + tid] = S[j * ws + tid];
        if (tid == 0) post_candidate(g, buf, k);
        grid_barrier(g.arrive, j + 1);
        // 2. the pivot, the same in every block
        if (tid < 32)
            pick_pivot(g, buf, nblk, j0, R, w, j, prow, diag, piv, &s_p);
        __syncthreads();
        const int p = s_p;
        if (b == 0 && tid == 0) note_pivot(ipiv, info, off, gj, p, prow[j]);
        // 3. and 4.
        k = smem_column(S, w, r0, nr, j, gj, b == 0, p, prow, diag);
    }
    __syncthreads();
    smem_rows<T, false>(t, mb, ldd, S, r0, nr, j0, w);
    leaf_end(t, mb, n, ldd, j0, w, piv, g, S, R * ws);
}

// Threads of a register leaf block, one row each.
constexpr int reg_threads = 256;

// The same leaf with the rows in registers: thread i of block b holds row
// j0 + b reg_threads + i, columns [j0, j0 + w) in a[], w <= W (8, 16 or
// 32); the column loop is unrolled so that a[] stays in registers.
template <typename T, int W>
__global__ void __launch_bounds__(reg_threads, 2)
    leaf_reg_kernel(tiles<T> t, int mb, int m, int n, int ldd, int j0, int w,
                    int *ipiv, int off, int *info, board<T> g)
{
    __shared__ cand_key red[reg_threads / 32];
    __shared__ T prow[max_leaf], diag[max_leaf];
    __shared__ int piv[max_leaf];
    __shared__ int s_p;
    const int nblk = gridDim.x, b = blockIdx.x, tid = threadIdx.x;
    const int r = j0 + b * reg_threads + tid;
    const bool mine = r < m;
    const T sfmin = sizeof(T) == sizeof(double) ? T(DBL_MIN) : T(FLT_MIN);
    T a[W];
#pragma unroll
    for (int c = 0; c < W; c++)
        a[c] = mine && c < w ? t.row(r, mb, ldd)[j0 + c] : T(0);

#pragma unroll
    for (int j = 0; j < W; j++) {
        if (j >= w) break;
        const int gj = j0 + j, buf = j & 1;
        // 1. this block's candidate, published by the thread holding it;
        // thread j of block 0 holds row gj and publishes it too
        cand_key k =
            block_max(make_key(fabs(a[j]), mine && r >= gj ? r : -1), red);
        T *copies = g.copy + (size_t)buf * (max_blocks + 1) * max_leaf;
        if (k.row == (unsigned)r) {
#pragma unroll
            for (int c = 0; c < W; c++)
                if (c < w) copies[(size_t)b * max_leaf + c] = a[c];
        }
        if (b == 0 && tid == j) {
#pragma unroll
            for (int c = 0; c < W; c++)
                if (c < w) copies[(size_t)max_blocks * max_leaf + c] = a[c];
        }
        if (tid == 0) post_candidate(g, buf, k);
        grid_barrier(g.arrive, j + 1);
        // 2. the pivot
        if (tid < 32)
            pick_pivot(g, buf, nblk, j0, reg_threads, w, j, prow, diag, piv,
                       &s_p);
        __syncthreads();
        const int p = s_p;
        const T pv = prow[j];
        if (b == 0 && tid == 0) note_pivot(ipiv, info, off, gj, p, pv);
        // 3. the interchange
        if (p != gj && (r == gj || r == p)) {
            const T *from = r == gj ? prow : diag;
#pragma unroll
            for (int c = 0; c < W; c++)
                if (c < w) a[c] = from[c];
        }
        // 4. scale and update the rows below the diagonal
        if (mine && r > gj && pv != T(0)) {
            T l = fabs(pv) < sfmin ? a[j] / pv : a[j] * (T(1) / pv);
            a[j] = l;
#pragma unroll
            for (int c = j + 1; c < W; c++)
                if (c < w) a[c] -= l * prow[c];
        }
    }
    if (mine) {
        T *x = t.row(r, mb, ldd) + j0;
#pragma unroll
        for (int c = 0; c < W; c++)
            if (c < w) x[c] = a[c];
    }
    constexpr int staged = 2 * max_leaf * 16; // 16 columns or more a chunk
    __shared__ T stage[staged];
    leaf_end(t, mb, n, ldd, j0, w, piv, g, stage, staged);
}

// Threads of a cluster leaf block.
constexpr int cl_threads = 512;
// The tallest cluster leaf: beyond, the 16 SMs of a cluster update their
// rows more slowly than all the SMs in shared memory with a grid barrier
// (16384-row float panels on the H100: 6.5 against 5.5 ms, docs/perf).
constexpr int cl_max_rows = 8192;

// The same leaf on one thread block cluster (up to 16 blocks, one per SM
// of a GPC), its rows in shared memory as in leaf_kernel, where they fit:
// the blocks publish their candidates and rows in their own shared
// memory, meet at the cluster's hardware barrier and read each other's
// through distributed shared memory, so that a column costs no round trip
// to L2.
template <typename T>
__global__ void __launch_bounds__(cl_threads)
    leaf_cluster_kernel(tiles<T> t, int mb, int m, int n, int ldd, int j0,
                        int w, int R, int *ipiv, int off, int *info, board<T> g)
{
    namespace cg = cooperative_groups;
    cg::cluster_group cl = cg::this_cluster();
    extern __shared__ __align__(16) unsigned char raw[];
    T *S = reinterpret_cast<T *>(raw);
    const int ws = w + 1;
    __shared__ cand_key red[cl_threads / 32];
    __shared__ uint4 pub[2]; // per column parity: this block's key (one
                             // 16-byte word) and row, and row gj
    __shared__ T pubrow[2][max_leaf], pubdiag[2][max_leaf];
    __shared__ T prow[max_leaf], diag[max_leaf];
    __shared__ int piv[max_leaf];
    __shared__ int s_p;
    const int nblk = (int)cl.num_blocks(), b = (int)cl.block_rank();
    const int tid = threadIdx.x, lane = tid & 31;
    const int r0 = j0 + b * R, nr = max(min(r0 + R, m) - r0, 0);
    const cand_key none{0u, 0u, UINT_MAX};

    smem_rows<T, true>(t, mb, ldd, S, r0, nr, j0, w);
    __syncthreads();
    cand_key k = smem_first(S, w, r0, nr);
    for (int j = 0; j < w; j++) {
        const int gj = j0 + j, buf = j & 1;
        // 1. this block's candidate and its row, and row gj (block 0), in
        // this block's shared memory; cluster barrier
        k = block_max(k, red);
        if (tid < w) {
            if (k.row != UINT_MAX)
                pubrow[buf][tid] = S[((int)k.row - r0) * ws + tid];
            if (b == 0) pubdiag[buf][tid] = S[j * ws + tid];
        }
        if (tid == 0) pub[buf] = make_uint4(k.hi, k.lo, k.row, 0u);
        cl.sync();
        // 2. the pivot, from the blocks' candidates; its row, and row gj
        // where the pivot row lies (the only block that needs it)
        if (tid < 32) {
            cand_key c = none;
            if (lane < nblk) {
                uint4 q = *cl.map_shared_rank(&pub[buf], lane);
                c = {q.x, q.y, q.z};
            }
            c = warp_max(c);
            const int p = (int)c.row, s = (p - j0) / R;
            if (lane < w) {
                prow[lane] = *cl.map_shared_rank(&pubrow[buf][lane], s);
                if (s == b)
                    diag[lane] = *cl.map_shared_rank(&pubdiag[buf][lane], 0);
            }
            if (lane == 0) s_p = piv[j] = p;
        }
        __syncthreads();
        const int p = s_p;
        if (b == 0 && tid == 0) note_pivot(ipiv, info, off, gj, p, prow[j]);
        // 3. and 4.
        k = smem_column(S, w, r0, nr, j, gj, b == 0, p, prow, diag);
    }
    __syncthreads();
    smem_rows<T, false>(t, mb, ldd, S, r0, nr, j0, w);
    // No block leaves while another may still read its shared memory.
    cl.sync();
    leaf_end(t, mb, n, ldd, j0, w, piv, g, S, R * ws);
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
    __shared__ cand_key red[d1_threads / 32];
    cand_key k{0u, 0u, UINT_MAX};
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
            cand_key ki = make_key(fabs(x[c]), i);
            if (key_better(ki, k)) k = ki;
        }
    }
    if (c >= end) return;
    k = block_max(k, red);
    if (tid == 0) {
        post_candidate(g, 0, k);
        __threadfence();
        last = atomicAdd(g.done, 1u) == gridDim.x - 1;
    }
    __syncthreads();
    if (!last) return;
    k = {0u, 0u, UINT_MAX};
    for (int b = tid; b < (int)gridDim.x; b += d1_threads) {
        double2 cb = __ldcg(&g.cand[b]);
        cand_key kb = make_key(T(cb.x), (int)__double_as_longlong(cb.y));
        if (key_better(kb, k)) k = kb;
    }
    __syncthreads(); // red is read by all before it is written again
    k = block_max(k, red);
    if (tid == 0) {
        *g.pivot = (int)k.row;
        note_pivot(ipiv, info, off, c, (int)k.row, key_value<T>(k));
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

// leaf_reg_kernel<T, 8 << i>, for i = 0, 1, 2.
template <typename T> const void *reg_kernel(int i)
{
    return i == 0   ? (const void *)leaf_reg_kernel<T, 8>
           : i == 1 ? (const void *)leaf_reg_kernel<T, 16>
                    : (const void *)leaf_reg_kernel<T, 32>;
}

// Per GPU, set up once: SM count, shared memory a block may ask for.
struct device_info {
    int sms, smem;
    int reg_blocks[3];    // blocks of leaf_reg_kernel<T, 8 << i> per SM
    int cl_size, cl_smem; // blocks of a cluster leaf (0: none), their
                          // shared memory
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
    for (int i = 0; i < 3; i++)
        HYLA_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
            &d->reg_blocks[i], reg_kernel<T>(i), reg_threads, 0));
    // The largest cluster (16, else 8) whose blocks can each have all the
    // shared memory of an SM; none before compute capability 9.0.
    int cc;
    HYLA_CUDA_CHECK(
        cudaDeviceGetAttribute(&cc, cudaDevAttrComputeCapabilityMajor, dev));
    d->cl_size = 0;
    d->cl_smem = d->smem + 2048 - 4096;
    const void *ck = (const void *)leaf_cluster_kernel<T>;
    if (cc >= 9 &&
        cudaFuncSetAttribute(ck, cudaFuncAttributeMaxDynamicSharedMemorySize,
                             d->cl_smem) == cudaSuccess &&
        cudaFuncSetAttribute(ck, cudaFuncAttributeNonPortableClusterSizeAllowed,
                             1) == cudaSuccess) {
        for (int size = 16; size >= 8 && !d->cl_size; size /= 2) {
            cudaLaunchAttribute at{};
            at.id = cudaLaunchAttributeClusterDimension;
            at.val.clusterDim.x = size;
            at.val.clusterDim.y = at.val.clusterDim.z = 1;
            cudaLaunchConfig_t cfg{};
            cfg.gridDim = dim3(size);
            cfg.blockDim = dim3(cl_threads);
            cfg.dynamicSmemBytes = d->cl_smem;
            cfg.attrs = &at;
            cfg.numAttrs = 1;
            int clusters = 0;
            if (cudaOccupancyMaxActiveClusters(&clusters, ck, &cfg) ==
                    cudaSuccess &&
                clusters > 0)
                d->cl_size = size;
        }
    }
    (void)cudaGetLastError(); // a refused size is not an error here
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

    // A register leaf if its blocks, one row per thread, can all be
    // resident on the SMs the panel may use; 1 if launched, 0 if not.
    int leaf_reg(int j0, int w, int *rc)
    {
        int i = w <= 8 ? 0 : w <= 16 ? 1 : 2;
        int nblk = (m - j0 + reg_threads - 1) / reg_threads;
        if (!(variants & HYLA_CUDA_LEAF_REG) ||
            nblk > dev.reg_blocks[i] * dev.sms || nblk > max_blocks)
            return 0;
        void *args[] = {&t, &mb, &m, &n, &ldd, &j0, &w, &ipiv, &off, &info, &g};
        cudaError_t e = cudaLaunchCooperativeKernel(
            reg_kernel<T>(i), dim3(nblk), dim3(reg_threads), args, 0, stream);
        *rc = e == cudaSuccess ? 0 : HYLA_ERR_CUDA;
        return 1;
    }

    // Rows per block of a cluster leaf, 0 if its rows do not fit or are
    // more than cl_max_rows.
    int cluster_rows(int j0, int w) const
    {
        if (!dev.cl_size || (variants & HYLA_CUDA_LEAF_NO_CLUSTER) ||
            m - j0 > cl_max_rows)
            return 0;
        int R = std::max(w, (m - j0 + dev.cl_size - 1) / dev.cl_size);
        return sizeof(T) * (size_t)R * (w + 1) <= (size_t)dev.cl_smem ? R : 0;
    }

    int leaf_cluster(int j0, int w, int R)
    {
        int nblk = (m - j0 + R - 1) / R;
        cudaLaunchAttribute at{};
        at.id = cudaLaunchAttributeClusterDimension;
        at.val.clusterDim.x = nblk;
        at.val.clusterDim.y = at.val.clusterDim.z = 1;
        cudaLaunchConfig_t cfg{};
        cfg.gridDim = dim3(nblk);
        cfg.blockDim = dim3(cl_threads);
        cfg.dynamicSmemBytes = sizeof(T) * (size_t)R * (w + 1);
        cfg.stream = stream;
        cfg.attrs = &at;
        cfg.numAttrs = 1;
        HYLA_CUDA_CHECK(cudaLaunchKernelEx(&cfg, leaf_cluster_kernel<T>, t, mb,
                                           m, n, ldd, j0, w, R, ipiv, off, info,
                                           g));
        return 0;
    }

    int leaf(int j0, int w)
    {
        if (use_d1(j0, w)) return leaf_d1(j0, w);
        int rc, cr = cluster_rows(j0, w);
        if (cr) return leaf_cluster(j0, w, cr);
        if (leaf_reg(j0, w, &rc)) return rc;
        int R = rows_per_block(j0, w);
        int nblk = (m - j0 + R - 1) / R;
        // Alone on its SM, a block waits for one that no other kernel
        // uses; beside the single-precision GEMMs (FFMA, no tensor cores)
        // it waited less but then ran up to 10 times slower (docs/perf).
        bool alone = (variants & HYLA_CUDA_LEAF_ALONE) ||
                     (!(variants & HYLA_CUDA_LEAF_SHARED) && sizeof(T) == 4);
        size_t smem =
            alone ? (size_t)dev.smem : sizeof(T) * (size_t)R * (w + 1);
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
        // A leaf too tall for a cluster is not split into narrower ones
        // that fit: a cluster leaf of 16 columns takes as long as a
        // registers leaf of 32, and the split adds a recursion level
        // (docs/perf).
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

extern "C" int hyla_cuda_getrf_panel_cluster(int single)
{
    device_info d;
    int rc = single ? device<float>(&d) : device<double>(&d);
    return rc ? -1 : d.cl_size;
}

extern "C" void hyla_cuda_getrf_panel_tune(int leaf, int rows, int d1,
                                           int leaf_variants)
{
    d1_height = d1 > 0 ? d1 : 0;
    variants = leaf_variants;
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

// SPDX-License-Identifier: BSD-3-Clause
// Row interchanges on a tile column of row-major tiles.
#include "gpu_check.h"
#include "gpu.h"
#include "scratch.h"
#include "tiles_t.h"

#include <atomic>
#include <cstdint>

namespace
{

using hyla::max_gpus;
using hyla::scratch;
using hyla::tiles;

constexpr int threads = 128;

// Serial: each block owns `threads` consecutive columns and applies every
// interchange to them in order (for calls the permutation cannot take);
// consecutive threads touch consecutive elements of a row (coalesced).  Blocks
// need no synchronisation: they share no column.
template <typename T>
__global__ void laswp_kernel(tiles<T> t, int mb, int n, int ldd,
                             const int *ipiv, int k1, int k2, int row0, int inc)
{
    int c = blockIdx.x * threads + threadIdx.x;
    if (c >= n) return;
    int count = k2 - k1;
    for (int s = 0; s < count; s++) {
        int i = inc > 0 ? k1 + s : k2 - 1 - s;
        int p = ipiv[i] - 1 - row0;
        if (p == i) continue;
        T *a = t.row(i, mb, ldd) + c;
        T *b = t.row(p, mb, ldd) + c;
        T x = *a;
        *a = *b;
        *b = x;
    }
}

// The interchanges as one permutation: a plan worked out once by one
// block, then applied by many blocks, each moving the touched rows of a
// few columns.
//
// Interchange j (rows counted from k1) swaps rows j and p_j >= j, in
// order.  Call step j, when p_j = x != j, a visit of row x.  Before its
// own step, row j holds B(j): its original content if no step visited
// it, else B(l) for its last visit l (l < j).  After all steps:
//  - row j < count holds B(j) if p_j = j, else what row x = p_j held just
//    before step j: B(v) for the visit v of x just before j, or the
//    original row x if there is none;
//  - a row r >= count that was visited holds B(l) for its last visit l.
// The visits of each row come from sorting the keys (x, j); B(j) from
// following the last-visit links down to their roots (pointer jumping).
// A row r >= count moves only into a row j < count, at step j, and row j
// is final from then on: so a row below the first count gets the content
// of one of the first count, never of another row below.
constexpr int plan_threads = 1024;
constexpr int perm_threads = 256;
constexpr int row_bytes = 32;   // of each touched row, a block of the moves
constexpr int max_swaps = 2048; // interchanges of one call
constexpr int key_bits = 11;    // j < max_swaps
constexpr unsigned no_key = 0xffffffffu;

struct plan_layout {
    unsigned *key; // [n2] (x << key_bits) | j, sorted; n2: a power of 2
    int *piv;      // [count] p_j
    int *pred;     // [count] the visit of p_j before j, or -1
    int *root;     // [count] the last visit of row j, then B(j)

    static size_t bytes(int count, int n2)
    {
        return sizeof(unsigned) * n2 + sizeof(int) * 3 * count;
    }
    __device__ plan_layout(unsigned char *p, int count, int n2)
    {
        key = reinterpret_cast<unsigned *>(p);
        piv = reinterpret_cast<int *>(p + sizeof(unsigned) * n2);
        pred = piv + count;
        root = pred + count;
    }
};

// The plan, in global memory: dst[2 count] then src[2 count].  Row dst[x]
// gets old row src[x] (relative to k1); dst[x] = src[x] or dst[x] < 0:
// nothing moves.  Entries x < count are row x's own; entries count + j
// name the row below the first count whose last visit is j.
__global__ void __launch_bounds__(plan_threads)
    perm_plan_kernel(int m, const int *ipiv, int k1, int k2, int row0, int n2,
                     int *plan)
{
    extern __shared__ __align__(16) unsigned char raw[];
    const int count = k2 - k1, tid = threadIdx.x;
    plan_layout P(raw, count, n2);
    int *dst = plan, *src = plan + 2 * count;

    // The pivots (one out of range, never made, counts as p_j = j) and
    // the keys of the visits.
    for (int j = tid; j < n2; j += plan_threads) {
        unsigned key = no_key;
        if (j < count) {
            int p = ipiv[k1 + j] - 1 - row0 - k1;
            if (p < j || p >= m - k1) p = j;
            P.piv[j] = p;
            P.root[j] = j;
            dst[count + j] = -1;
            if (p != j) key = ((unsigned)p << key_bits) | (unsigned)j;
        }
        P.key[j] = key;
    }
    __syncthreads();
    for (int size = 2; size <= n2; size <<= 1)
        for (int stride = size >> 1; stride > 0; stride >>= 1) {
            for (int h = tid; h < n2 / 2; h += plan_threads) {
                int lo = 2 * stride * (h / stride) + h % stride;
                int hi = lo + stride;
                unsigned a = P.key[lo], b = P.key[hi];
                if ((a > b) == ((lo & size) == 0)) {
                    P.key[lo] = b;
                    P.key[hi] = a;
                }
            }
            __syncthreads();
        }

    // Each visit's predecessor on its row; each row's last visit.
    for (int q = tid; q < n2; q += plan_threads) {
        unsigned key = P.key[q];
        if (key == no_key) continue;
        int x = (int)(key >> key_bits), j = (int)(key & (max_swaps - 1));
        bool first = q == 0 || (P.key[q - 1] >> key_bits) != (unsigned)x;
        bool last = q + 1 == n2 || (P.key[q + 1] >> key_bits) != (unsigned)x;
        P.pred[j] = first ? -1 : (int)(P.key[q - 1] & (max_swaps - 1));
        if (last && x < count) P.root[x] = j;
        if (last && x >= count) dst[count + j] = x; // j: one row's last
    }
    __syncthreads();
    // B(j): the links go to smaller j and roots link to themselves.  Each
    // round reads every link before any is overwritten.
    constexpr int per_thread = max_swaps / plan_threads;
    for (int span = 1; span < count; span <<= 1) {
        int next[per_thread];
#pragma unroll
        for (int i = 0; i < per_thread; i++) {
            int j = tid + i * plan_threads;
            if (j < count) next[i] = P.root[P.root[j]];
        }
        __syncthreads();
#pragma unroll
        for (int i = 0; i < per_thread; i++) {
            int j = tid + i * plan_threads;
            if (j < count) P.root[j] = next[i];
        }
        __syncthreads();
    }
    for (int j = tid; j < count; j += plan_threads) {
        int p = P.piv[j];
        dst[j] = j;
        src[j] = p == j ? P.root[j] : P.pred[j] >= 0 ? P.root[P.pred[j]] : p;
        // dst[count + j] was written above, before the barrier
        if (dst[count + j] >= 0) src[count + j] = P.root[j];
    }
}

// The plan applied to 32 bytes of columns a block: the first count rows
// of those columns staged in shared memory; then the moves into the
// first count rows (from there or from rows below, which no move of this
// phase writes); then, after a barrier, the moves into rows below, which
// all come from the first count.  Backward interchanges (inc < 0) are the
// inverse permutation: dst and src trade places, and the argument holds.
// A thread moves a V at once: T, or 16 bytes where rows allow.
template <typename T, typename V>
__global__ void __launch_bounds__(perm_threads)
    perm_apply_kernel(tiles<T> t, int mb, int m, int n, int ldd, int k1, int k2,
                      int inc, const int *plan)
{
    constexpr int w = sizeof(V) / sizeof(T);       // elements of a V
    constexpr int per_row = row_bytes / sizeof(V); // Vs of a row, a block
    extern __shared__ __align__(16) unsigned char raw[];
    V *buf = reinterpret_cast<V *>(raw); // [count][per_row]
    const int count = k2 - k1, tid = threadIdx.x;
    const int top = min(count, m - k1); // rows that exist
    const int *dst = plan, *src = plan + 2 * count;
    const int c0 = blockIdx.x * per_row * w;
    auto at = [&](int r, int i) {
        return reinterpret_cast<V *>(t.row(k1 + r, mb, ldd) + c0 + i * w);
    };

    for (int e = tid; e < top * per_row; e += perm_threads) {
        int r = e / per_row, i = e % per_row;
        if (c0 + i * w < n) buf[e] = *at(r, i);
    }
    __syncthreads();
    for (int below = 0; below < 2; below++) {
        for (int e = tid; e < 2 * count * per_row; e += perm_threads) {
            int x = e / per_row, i = e % per_row;
            int d = dst[x], s = src[x];
            if (d < 0 || d == s || c0 + i * w >= n) continue;
            int to = inc > 0 ? d : s, from = inc > 0 ? s : d;
            if ((to >= count) != (below == 1)) continue;
            *at(to, i) = from < count ? buf[from * per_row + i] : *at(from, i);
        }
        __syncthreads();
    }
}

template <typename T>
int laswp(T *const *dtile, int ntiles, int mb, int m, int n, int ldd,
          const int *dipiv, int k1, int k2, int row0, int inc,
          cudaStream_t stream)
{
    if (n <= 0 || k2 <= k1) return 0;
    if (ntiles > HYLA_CUDA_LASWP_MAXTILES) return HYLA_ERR_NOT_SUPPORTED;
    tiles<T> t = tiles<T>::from(dtile, ntiles);
    // Shared memory a block may have, asked for once per GPU.
    static std::atomic<int> most[max_gpus];
    int dev, smem_max = 0;
    HYLA_CUDA_CHECK(cudaGetDevice(&dev));
    if (dev < max_gpus) smem_max = most[dev];
    if (!smem_max) {
        HYLA_CUDA_CHECK(cudaDeviceGetAttribute(
            &smem_max, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
        HYLA_CUDA_CHECK(cudaFuncSetAttribute(
            perm_apply_kernel<T, T>,
            cudaFuncAttributeMaxDynamicSharedMemorySize, smem_max));
        HYLA_CUDA_CHECK(cudaFuncSetAttribute(
            perm_apply_kernel<T, int4>,
            cudaFuncAttributeMaxDynamicSharedMemorySize, smem_max));
        if (dev < max_gpus) most[dev] = smem_max;
    }
    // The permutation takes up to max_swaps interchanges on up to 2^21
    // rows, given its plan's memory; the serial kernel the rest.  A block
    // moves 32 bytes of each touched row.
    constexpr int cols = row_bytes / sizeof(T);
    int count = k2 - k1, n2 = 2;
    while (n2 < count)
        n2 <<= 1;
    size_t smem = sizeof(T) * cols * count;
    scratch mem(stream);
    int *plan = nullptr;
    if (count > 1 && count <= max_swaps && m - k1 < (1 << (32 - key_bits)) &&
        smem <= (size_t)smem_max)
        plan = mem.get<int>(4 * (size_t)count);
    if (plan) {
        perm_plan_kernel<<<1, plan_threads, plan_layout::bytes(count, n2),
                           stream>>>(m, dipiv, k1, k2, row0, n2, plan);
        HYLA_CUDA_CHECK(cudaGetLastError());
        // 16 bytes a thread where every row starts on a 16-byte boundary
        // and holds whole vectors.
        constexpr int w = sizeof(int4) / sizeof(T);
        bool vec = n % w == 0 && ldd % w == 0;
        for (int i = 0; i < ntiles; i++)
            vec = vec && (uintptr_t)dtile[i] % sizeof(int4) == 0;
        int grid = (n + cols - 1) / cols;
        if (vec)
            perm_apply_kernel<T, int4><<<grid, perm_threads, smem, stream>>>(
                t, mb, m, n, ldd, k1, k2, inc, plan);
        else
            perm_apply_kernel<T, T><<<grid, perm_threads, smem, stream>>>(
                t, mb, m, n, ldd, k1, k2, inc, plan);
    } else {
        dim3 grid((n + threads - 1) / threads);
        laswp_kernel<T><<<grid, threads, 0, stream>>>(t, mb, n, ldd, dipiv, k1,
                                                      k2, row0, inc);
    }
    HYLA_CUDA_CHECK(cudaGetLastError());
    return 0;
}

} // namespace

extern "C" int hyla_cuda_dlaswp(double *const *dtile, int ntiles, int mb, int m,
                                int n, int ldd, const int *dipiv, int k1,
                                int k2, int row0, int inc, cudaStream_t stream)
{
    return laswp(dtile, ntiles, mb, m, n, ldd, dipiv, k1, k2, row0, inc,
                 stream);
}

extern "C" int hyla_cuda_slaswp(float *const *dtile, int ntiles, int mb, int m,
                                int n, int ldd, const int *dipiv, int k1,
                                int k2, int row0, int inc, cudaStream_t stream)
{
    return laswp(dtile, ntiles, mb, m, n, ldd, dipiv, k1, k2, row0, inc,
                 stream);
}

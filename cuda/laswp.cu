// SPDX-License-Identifier: BSD-3-Clause
// Row interchanges on a tile column of row-major tiles.
#include "gpu_check.h"
#include "gpu.h"
#include "tiles_t.h"

#include <atomic>

namespace
{

using hyla::max_gpus;
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

// The interchanges as one permutation, worked out in parallel in each
// block's shared memory, then applied by gathering the touched rows of
// the block's few columns and scattering them to their places.
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
constexpr int perm_threads = 256;
constexpr int perm_cols = 4;    // columns per block
constexpr int max_swaps = 2048; // interchanges of one call
constexpr int key_bits = 11;    // j < max_swaps
constexpr unsigned no_key = 0xffffffffu;

template <typename T> struct perm_layout {
    T *buf;         // [2 count][perm_cols] the gathered rows
    unsigned *key;  // [n2] (x << key_bits) | j, sorted; n2: a power of 2
    int *piv;       // [count] p_j
    int *pred;      // [count] the visit of p_j before j, or -1
    int *root;      // [count] the last visit of row j, then B(j)
    int *dst, *src; // [2 count] row dst gets old row src; dst < 0: unused

    static size_t bytes(int count, int n2)
    {
        return sizeof(T) * 2 * count * perm_cols + sizeof(unsigned) * n2 +
               sizeof(int) * 7 * count;
    }
    __device__ perm_layout(unsigned char *p, int count, int n2)
    {
        buf = reinterpret_cast<T *>(p);
        p += sizeof(T) * 2 * count * perm_cols;
        key = reinterpret_cast<unsigned *>(p);
        p += sizeof(unsigned) * n2;
        piv = reinterpret_cast<int *>(p);
        pred = piv + count;
        root = pred + count;
        dst = root + count;
        src = dst + 2 * count;
    }
};

template <typename T>
__global__ void __launch_bounds__(perm_threads)
    perm_kernel(tiles<T> t, int mb, int m, int n, int ldd, const int *ipiv,
                int k1, int k2, int row0, int inc, int n2)
{
    extern __shared__ __align__(16) unsigned char raw[];
    const int count = k2 - k1, tid = threadIdx.x;
    perm_layout<T> P(raw, count, n2);

    // The pivots (one out of range, never made, counts as p_j = j) and
    // the keys of the visits.
    for (int j = tid; j < n2; j += perm_threads) {
        unsigned key = no_key;
        if (j < count) {
            int p = ipiv[k1 + j] - 1 - row0 - k1;
            if (p < j || p >= m - k1) p = j;
            P.piv[j] = p;
            P.root[j] = j;
            P.dst[count + j] = -1;
            if (p != j) key = ((unsigned)p << key_bits) | (unsigned)j;
        }
        P.key[j] = key;
    }
    __syncthreads();
    for (int size = 2; size <= n2; size <<= 1)
        for (int stride = size >> 1; stride > 0; stride >>= 1) {
            for (int h = tid; h < n2 / 2; h += perm_threads) {
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
    for (int q = tid; q < n2; q += perm_threads) {
        unsigned key = P.key[q];
        if (key == no_key) continue;
        int x = (int)(key >> key_bits), j = (int)(key & (max_swaps - 1));
        bool first = q == 0 || (P.key[q - 1] >> key_bits) != (unsigned)x;
        bool last = q + 1 == n2 || (P.key[q + 1] >> key_bits) != (unsigned)x;
        P.pred[j] = first ? -1 : (int)(P.key[q - 1] & (max_swaps - 1));
        if (last && x < count) P.root[x] = j;
        if (last && x >= count) P.dst[count + j] = x; // j: one row's last
    }
    __syncthreads();
    // B(j): the links go to smaller j and roots link to themselves.  Each
    // round reads every link before any is overwritten.
    constexpr int per_thread = max_swaps / perm_threads;
    for (int span = 1; span < count; span <<= 1) {
        int next[per_thread];
#pragma unroll
        for (int i = 0; i < per_thread; i++) {
            int j = tid + i * perm_threads;
            if (j < count) next[i] = P.root[P.root[j]];
        }
        __syncthreads();
#pragma unroll
        for (int i = 0; i < per_thread; i++) {
            int j = tid + i * perm_threads;
            if (j < count) P.root[j] = next[i];
        }
        __syncthreads();
    }
    for (int j = tid; j < count; j += perm_threads) {
        int p = P.piv[j];
        P.dst[j] = j;
        P.src[j] = p == j ? P.root[j] : P.pred[j] >= 0 ? P.root[P.pred[j]] : p;
        if (P.dst[count + j] >= 0) P.src[count + j] = P.root[j];
    }
    __syncthreads();

    // Gather the touched rows of this block's columns, then scatter them;
    // backward interchanges (inc < 0) are the inverse permutation.
    const int c0 = blockIdx.x * perm_cols, total = 2 * count * perm_cols;
    auto at = [&](int r, int c) { return t.row(r, mb, ldd) + c; };
    for (int e = tid; e < total; e += perm_threads) {
        int x = e / perm_cols, c = c0 + e % perm_cols;
        int d = P.dst[x], s = P.src[x];
        if (d >= 0 && d != s && c < n)
            P.buf[e] = *at(k1 + (inc > 0 ? s : d), c);
    }
    __syncthreads();
    for (int e = tid; e < total; e += perm_threads) {
        int x = e / perm_cols, c = c0 + e % perm_cols;
        int d = P.dst[x], s = P.src[x];
        if (d >= 0 && d != s && c < n)
            *at(k1 + (inc > 0 ? d : s), c) = P.buf[e];
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
            perm_kernel<T>, cudaFuncAttributeMaxDynamicSharedMemorySize,
            smem_max));
        if (dev < max_gpus) most[dev] = smem_max;
    }
    // The permutation takes up to max_swaps interchanges on up to 2^21
    // rows; the serial kernel the rest.
    int count = k2 - k1, n2 = 2;
    while (n2 < count)
        n2 <<= 1;
    size_t smem = perm_layout<T>::bytes(count, n2);
    if (count > 1 && count <= max_swaps && m - k1 < (1 << (32 - key_bits)) &&
        smem <= (size_t)smem_max) {
        dim3 grid((n + perm_cols - 1) / perm_cols);
        perm_kernel<T><<<grid, perm_threads, smem, stream>>>(
            t, mb, m, n, ldd, dipiv, k1, k2, row0, inc, n2);
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

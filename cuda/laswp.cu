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

// The interchanges as one permutation, applied in parallel.  Every block
// first works out, in shared memory, which rows the interchanges touch
// (`slot` of each row, -1 if untouched) and, for each touched row dst[x],
// the row src[x] whose old content it receives; it lists the touched rows
// by the cycles of that permutation, and cuts the list into groups: whole
// cycles of at most `batch` rows in all, or one longer cycle.  Then each
// thread moves the groups of its blockIdx.y in one column: a group of
// whole cycles is read into registers and written back permuted (its loads
// are independent, so they overlap); a long cycle goes in batches along
// it, its first row's old value kept aside.
constexpr int perm_threads = 128;
constexpr int batch = 16;
constexpr int max_swaps = 2048; // interchanges of one call
constexpr int max_touched = 2 * max_swaps;
constexpr int max_row_blocks = 16;

struct perm_smem {
    int dst[max_touched], src[max_touched];
    int order[max_touched];     // touched rows (slots) by cycles
    int group[max_touched + 1]; // first place in order[] of each group,
                                // -1 - that for a long cycle; then total
    int ngroups;
    short slot[1]; // [rows], the rest of the dynamic shared memory
};

template <typename T>
__global__ void __launch_bounds__(perm_threads)
    perm_kernel(tiles<T> t, int mb, int m, int n, int ldd, const int *ipiv,
                int k1, int k2, int row0, int inc)
{
    extern __shared__ __align__(16) unsigned char raw[];
    perm_smem &P = *reinterpret_cast<perm_smem *>(raw);
    const int rows = m - k1; // rows k1 .. m-1 may be touched
    const int count = k2 - k1;
    // Slots in parallel: row k1 + i gets slot i; a row p >= k2 that pivots
    // pick gets slot count + i for the first i to claim it (unclaimed
    // slots keep dst = -1).  The pivots are read once, by all threads,
    // into order[] (free until the cycles): thread 0 alone would wait for
    // each load in turn.
    for (int r = threadIdx.x; r < rows; r += perm_threads)
        P.slot[r] = -1;
    for (int i = threadIdx.x; i < count; i += perm_threads) {
        int p = ipiv[k1 + i] - 1 - row0;
        P.order[i] = p >= k1 && p < m ? p : -1; // (never out of range)
        P.dst[i] = P.src[i] = k1 + i;
        P.dst[count + i] = -1;
    }
    __syncthreads();
    for (int i = threadIdx.x; i < count; i += perm_threads)
        P.slot[i] = (short)i;
    for (int i = threadIdx.x; i < count; i += perm_threads) {
        int p = P.order[i];
        unsigned short none = 0xffff;
        if (p >= k2 &&
            atomicCAS(reinterpret_cast<unsigned short *>(&P.slot[p - k1]), none,
                      (unsigned short)(count + i)) == none)
            P.dst[count + i] = P.src[count + i] = p;
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        const int cnt = 2 * count;
        for (int s = 0; s < count; s++) {
            int i = inc > 0 ? s : count - 1 - s;
            int p = P.order[i];
            if (p < 0 || p == k1 + i) continue;
            int b = P.slot[p - k1];
            int x = P.src[i];
            P.src[i] = P.src[b];
            P.src[b] = x;
        }
        // Cycles (a visited slot's slot entry becomes -2), then groups.
        int total = 0, ngroups = 0, open = -1; // open: the group filling
        for (int x = 0; x < cnt; x++) {
            if (P.dst[x] < 0 || P.slot[P.dst[x] - k1] == -2 ||
                P.src[x] == P.dst[x])
                continue;
            int q0 = total;
            // Following src from x comes back to x, the one visited row.
            for (int y = x; y >= 0;) {
                P.order[total++] = y;
                P.slot[P.dst[y] - k1] = -2;
                y = P.slot[P.src[y] - k1];
            }
            if (total - q0 > batch) {
                P.group[ngroups++] = -1 - q0;
                open = -1;
            } else if (open < 0 || total - open > batch) {
                P.group[ngroups++] = open = q0;
            }
        }
        P.group[ngroups] = total;
        P.ngroups = ngroups;
    }
    __syncthreads();
    const int c = blockIdx.x * perm_threads + threadIdx.x;
    if (c >= n) return;
    auto at = [&](int r) { return t.row(r, mb, ldd) + c; };
    for (int g = blockIdx.y; g < P.ngroups; g += gridDim.y) {
        int q0 = P.group[g], q1 = P.group[g + 1];
        if (q1 < 0) q1 = -1 - q1;
        if (q0 >= 0) { // whole cycles, at most `batch` rows
            int cnt = q1 - q0;
            T v[batch];
#pragma unroll
            for (int i = 0; i < batch; i++)
                if (i < cnt) v[i] = *at(P.src[P.order[q0 + i]]);
#pragma unroll
            for (int i = 0; i < batch; i++)
                if (i < cnt) *at(P.dst[P.order[q0 + i]]) = v[i];
            continue;
        }
        // one long cycle: row dst[y_j] gets the old row dst[y_j+1], the
        // last one the old first row
        q0 = -1 - q0;
        int len = q1 - q0;
        T first = *at(P.dst[P.order[q0]]);
        for (int j = 0; j < len; j += batch) {
            T v[batch];
#pragma unroll
            for (int i = 0; i < batch; i++)
                if (j + i < len - 1)
                    v[i] = *at(P.src[P.order[q0 + j + i]]);
                else if (j + i == len - 1)
                    v[i] = first;
#pragma unroll
            for (int i = 0; i < batch; i++)
                if (j + i < len) *at(P.dst[P.order[q0 + j + i]]) = v[i];
        }
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
    // Shared memory a block may have, asked for once per GPU: the
    // permutation needs a short per row that may be touched.
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
    size_t smem = sizeof(perm_smem) + sizeof(short) * (size_t)(m - k1);
    if (k2 - k1 > 1 && k2 - k1 <= max_swaps && smem <= (size_t)smem_max) {
        // Row groups spread over up to max_row_blocks blocks per columns.
        int groups = (2 * (k2 - k1) + batch - 1) / batch;
        dim3 grid((n + perm_threads - 1) / perm_threads,
                  groups < max_row_blocks ? groups : max_row_blocks);
        perm_kernel<T><<<grid, perm_threads, smem, stream>>>(
            t, mb, m, n, ldd, dipiv, k1, k2, row0, inc);
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

// SPDX-License-Identifier: BSD-3-Clause
// Batched LU and inverse of tiny matrices (n <= 32) in registers, a
// batched solve with LU factors, and the entry points for every order
// (larger ones: getrf_batched_large.cu).
//
// Unlike the tile kernels, the matrices here are column-major, as LAPACK
// and cuBLAS's batched routines store them.
#include "batched_t.h"
#include "gpu_check.h"
#include "gpu.h"

#include <climits>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <utility>

namespace hyla
{
namespace
{

// Lanes that hold one matrix of order n: the power of two >= n (shuffles
// work on segments of a warp of such widths).
constexpr int group_lanes(int n)
{
    return n <= 1 ? 1 : n <= 2 ? 2 : n <= 4 ? 4 : n <= 8 ? 8 : n <= 16 ? 16 : 32;
}

// The position of the largest v over a whole warp's lanes that are not
// pivoted, ties to the smallest position.
template <typename T> __device__ int argmax_warp(bool pivoted, T v, int pos)
{
    auto key = pivot_key<T>::of(pivoted, v);
    return warp_first(key, warp_max(key), pos);
}

// The largest key of each half of a warp (groups of 16 lanes), in each
// lane for its own half: two reductions over the lanes `live`, the other
// half offering 0, "none" (independent, against four dependent levels of
// a butterfly; the single order-16 LU kernel: 3808 -> 2536 instructions).
template <typename K> __device__ K half_max(K key, unsigned live)
{
    bool hi = threadIdx.x & 16;
    K m0 = warp_max(hi ? K(0) : key, live);
    K m1 = warp_max(hi ? key : K(0), live);
    return hi ? m1 : m0;
}

// The rows of one matrix, R per lane of a group of G lanes (row lane +
// q G in slot q), in registers, and the state of a factorization by lazy
// swaps: rows never move; each lane knows the position pos its rows have
// in LAPACK's interchanged order, and whether they are already pivots.
// The pivot row reaches the other lanes through shared memory: the
// pivot lane writes it, and every lane of the group reads the same
// address at once (a broadcast), which costs less than a shuffle per
// element (two in double): at orders 2-16 on the H100, 1.2-1.8x faster
// inverses and up to 1.5x faster LU.  (Explicit 16-byte vector reads
// were no faster; aligned buffers let the compiler use them, see NP.)
// With two rows a lane (rows_per_lane), a group holds half as
// many lanes: a shorter pivot search and twice the matrices a warp.
template <typename T, int N, int R, bool Inv = false> struct tiny_rows {
    static constexpr int G = group_lanes((N + R - 1) / R);
    // A row buffer's length: from order 9 on, N rounded up to 16 bytes,
    // so that every buffer starts 16-byte aligned and the compiler reads
    // it by vectors.  Registers of the double inverse at order 27: 144 ->
    // 104; 1.36x faster there, 1.52x at 29, 1.1-1.3x at most odd orders
    // of single (H100, docs/perf).  Below 9 it measured up to 8% slower.
    static constexpr int V = 16 / sizeof(T);
    static constexpr int NP = N < 9 ? N : (N + V - 1) / V * V;
    // Whether the lanes learn the pivot's position from the pivot lane,
    // through shared memory (choose): in double, for groups of 16 lanes
    // and for the LU's groups of 32.  One reduction on the critical path
    // of a step instead of three: LU 1.04-1.23x faster at orders 11-32,
    // inverses 1.02-1.14x at 10-16 but 14 (0.99x), H200, docs/perf.  Not
    // in single (two reductions before: 0.92-0.97x at orders 13-31), not
    // for the double inverses of 17-32 (0.92-0.95x), and not for groups
    // of 8 lanes or fewer, whose search is a butterfly (0.47-0.89x).
    static constexpr bool told =
        sizeof(T) == 8 && R == 1 && (G == 16 || (G == 32 && !Inv));
    // Shared memory of a block of `threads` threads: two row buffers (a
    // step writes one while the last may still be read), N pivot rows
    // and, with `told`, two pivot positions (alike) for each group.
    static constexpr int NI = N + (told ? 2 : 0);
    static constexpr size_t smem(int threads)
    {
        return (size_t)threads / G * (2 * NP * sizeof(T) + NI * sizeof(int));
    }
    T r[R][N];
    int lane;        // 0 .. G-1
    unsigned mask;   // the lanes of this group in the warp
    unsigned live;   // the lanes of the warp whose group has a matrix
    int pos[R];      // position of each row; rows >= N: past N
    bool pivoted[R]; // chosen as a pivot (or padding)
    int info;        // first zero pivot, 1-based, the same in all lanes
    int ipiv[R];     // pivot of step lane + q G, 1-based
    T scale[R];      // Gauss-Jordan: the pivot each row is still times
    T *buf;          // this group's two rows of shared memory
    int *order;      // order[k]: the row of the pivot of step k
    int *told_pos;   // the pivot's position, at step k in told_pos[k & 1]

    // Whether slot q of a lane holds a row (not padding).
    __device__ static constexpr bool inside(int lane, int q)
    {
        return lane + q * G < N;
    }

    // With Pad, rows and columns from n on (a matrix of order n < N on the
    // kernel of order N) are the identity's.
    template <bool Pad = false>
    __device__ void load(const T *a, int lda, unsigned char *smem, int batch,
                         int n = N)
    {
        lane = threadIdx.x % G;
        mask = G == 32 ? 0xffffffffu : ((1u << G) - 1) << (threadIdx.x % 32 / G * G);
        // The groups of this warp from its first matrix on (blocks hold
        // whole groups; a group past the batch has left).
        long long first = ((long long)blockIdx.x * blockDim.x +
                           threadIdx.x / 32 * 32) / G;
        long long groups_live = batch - first;
        live = groups_live >= 32 / G ? 0xffffffffu
                                     : (1u << (groups_live * G)) - 1;
        info = 0;
        int group = threadIdx.x / G, groups = blockDim.x / G;
        buf = reinterpret_cast<T *>(smem) + (size_t)group * 2 * NP;
        int *orders = reinterpret_cast<int *>(reinterpret_cast<T *>(smem) +
                                              (size_t)groups * 2 * NP);
        order = orders + group * NI;
        told_pos = order + N;
#pragma unroll
        for (int q = 0; q < R; q++) {
            pos[q] = lane + q * G;
            pivoted[q] = !inside(lane, q);
            ipiv[q] = 0;
            // Every lane loads a row without a branch: a padding lane
            // (pivoted from the start, so its row is never read) the last
            // one, the identity's columns of Pad column n - 1.  Loads and
            // stores name the global space: from generic pointers and in
            // branches, the loads of orders 26-31 waited on each other's
            // address registers (Nsight Compute: 4.2 long-scoreboard
            // stalls an instruction at single 26 against 0.7 at 25); now
            // the order-26 kernel is 1.5x faster and orders 17-31 no
            // longer gain from the kernel of order 32 (H200, docs/perf).
            int i = pos[q] < n ? pos[q] : n - 1;
#pragma unroll
            for (int j = 0; j < N; j++) {
                T v = __ldca(a + i + (size_t)(j < n ? j : n - 1) * lda);
                r[q][j] = !Pad || (pos[q] < n && j < n) ? v : T(pos[q] == j);
            }
        }
    }

    // Step k's pivot: the largest |r[k]| of the rows not yet pivots, ties
    // to the first position, as idamax.  Returns the slot of this lane's
    // pivot row, or -1, and sets p to the pivot's position, or to -1 where
    // the pivot lane tells it (publish).
    //
    // With `told`, the group first reduces the top 32 bits of the keys
    // (pivot_key).  Where one lane alone holds the largest, its row is
    // the pivot, and only that lane needs to know: it tells the others
    // the position with the row.  The whole search runs only on a tie in
    // the top word, which random matrices rarely have.
    template <int k> __device__ int choose(int &p)
    {
        if constexpr (told) {
            using K = typename pivot_key<T>::type;
            K key = pivot_key<T>::of(pivoted[0], magnitude(r[0][k]));
            unsigned top = (unsigned)(key >> 32), best, tied;
            if constexpr (G == 32) {
                best = __reduce_max_sync(0xffffffffu, top);
                tied = __ballot_sync(0xffffffffu, top == best);
            } else {
                best = half_max(top, live);
                tied = __ballot_sync(live, top == best);
            }
            // One lane at the best in each group of the warp (both halves
            // take the same path: their whole search reduces over it).
            unsigned t0 = G == 16 ? tied & 0xffffu : tied;
            unsigned t1 = G == 16 ? tied >> 16 : 0u;
            if (!(t0 & (t0 - 1)) && !(t1 & (t1 - 1))) {
                p = -1;
                return top == best ? 0 : -1;
            }
        }
        p = search<k>();
        int mine = -1;
#pragma unroll
        for (int q = 0; q < R; q++)
            if (!pivoted[q] && pos[q] == p) mine = q;
        return mine;
    }

    // The whole search of step k's pivot: returns its position.  Groups
    // of 32 and 16 lanes reduce integer keys that order as |x| by the
    // warp's reductions (16 lanes: once for each half of the warp,
    // 1.01-1.29x faster LU and inverses at the orders they hold, H200,
    // docs/perf); smaller groups reduce by a butterfly of shuffles, faster
    // there than the reductions restricted to a group's lanes.
    template <int k> __device__ int search()
    {
        int p;
        if constexpr (G == 32) {
            static_assert(R == 1, "a whole warp holds one row a lane");
            p = argmax_warp(pivoted[0], magnitude(r[0][k]), pos[0]);
        } else if constexpr (G == 16 && R == 1) {
            // Two groups a warp: each half's largest by the whole warp's
            // reductions.  Spelled out: two argmax_warp calls over `live`,
            // each half offering "none" in the other's, measured 9 %
            // slower at double LU 16 and 7 % at the double inverse of 11
            // (H200).
            using K = typename pivot_key<T>::type;
            K key = pivot_key<T>::of(pivoted[0], magnitude(r[0][k]));
            bool hi = threadIdx.x & 16;
            unsigned at = key == half_max(key, live) ? (unsigned)pos[0] : ~0u;
            unsigned p0 = __reduce_min_sync(live, hi ? ~0u : at);
            unsigned p1 = __reduce_min_sync(live, hi ? at : ~0u);
            p = (int)(hi ? p1 : p0);
        } else if constexpr (sizeof(T) == 4 && (G >= 8 || R > 1)) {
            // Single: key and position in one 64-bit word that orders as
            // the search does (larger key, then smaller position), so a
            // level of the butterfly is one comparison (LU 1.05-1.17x at
            // orders 7-12, H200; order 3, four lanes of one row, was
            // 0.90x and keeps the pair).
            unsigned long long best = 0;
#pragma unroll
            for (int q = 0; q < R; q++) {
                unsigned long long c =
                    (unsigned long long)pivot_key<T>::of(pivoted[q],
                                                         magnitude(r[q][k]))
                        << 32 |
                    (unsigned)~pos[q];
                best = c > best ? c : best;
            }
#pragma unroll
            for (int off = G / 2; off > 0; off /= 2) {
                unsigned long long o = __shfl_xor_sync(mask, best, off, G);
                best = o > best ? o : best;
            }
            p = (int)~(unsigned)best;
        } else {
            // This lane's candidate first (-1: none), then the group's.
            T v = pivoted[0] ? T(-1) : magnitude(r[0][k]);
            p = pivoted[0] ? INT_MAX : pos[0];
#pragma unroll
            for (int q = 1; q < R; q++) {
                T m = magnitude(r[q][k]);
                if (!pivoted[q] && (m > v || (m == v && pos[q] < p))) {
                    v = m;
                    p = pos[q];
                }
            }
#pragma unroll
            for (int off = G / 2; off > 0; off /= 2) {
                T v2 = __shfl_xor_sync(mask, v, off, G);
                int p2 = __shfl_xor_sync(mask, p, off, G);
                if (v2 > v || (v2 == v && p2 < p)) {
                    v = v2;
                    p = p2;
                }
            }
        }
        return p;
    }

    // The pivot row's entries from J0 on to the buffer of step k, seen by
    // the group on return, and with `told`, the pivot's position to p.
    template <int k, int J0> __device__ const T *publish(int mine, int &p)
    {
        T *u = buf + (k & 1) * NP;
#pragma unroll
        for (int q = 0; q < R; q++) {
            if (mine != q) continue;
            order[k] = lane + q * G;
            if (told) told_pos[k & 1] = pos[q];
#pragma unroll
            for (int j = J0; j < N; j++)
                u[j] = r[q][j];
        }
        __syncwarp(mask);
        if (told) p = told_pos[k & 1];
        return u;
    }

    // Records step k's pivot at position p and moves the positions: the
    // row at position k to p, the pivot row to k.
    template <int k> __device__ void settle(int mine, int p)
    {
        if (lane == k % G) ipiv[k / G] = p + 1;
#pragma unroll
        for (int q = 0; q < R; q++) {
            if (mine == q)
                pos[q] = k;
            else if (!pivoted[q] && pos[q] == k)
                pos[q] = p;
        }
    }

    // Step k of LU: eliminate below the pivot (the reciprocal as LAPACK's
    // getf2, unless it would overflow).
    template <int k> __device__ void lu_step()
    {
        int p;
        int mine = choose<k>(p);
        // Without `told`, p is known here, and the positions move before
        // the publish, as they did before `told` existed.
        if (!told) settle<k>(mine, p);
        const T *u = publish<k, k>(mine, p);
        if (told) settle<k>(mine, p);
        T piv = u[k];
        if (piv == T(0)) {
            // The whole column is zero: nothing to eliminate.
            if (!info) info = k + 1;
        } else {
#pragma unroll
            for (int q = 0; q < R; q++) {
                if (pivoted[q] || mine == q) continue;
                T l = fabs(piv) >= sfmin<T>() ? r[q][k] * (T(1) / piv)
                                              : divide(r[q][k], piv);
                r[q][k] = l;
#pragma unroll
                for (int j = k + 1; j < N; j++)
                    r[q][j] -= l * u[j];
            }
        }
#pragma unroll
        for (int q = 0; q < R; q++)
            if (mine == q) pivoted[q] = true;
    }

    // Step k of Gauss-Jordan inversion in place: the rows other than the
    // pivot's (above it too) lose their column k as in LU, and column k
    // becomes column `order[k]` of the accumulated transformation M
    // (M A = the permutation with ones at (order[k], k)).  The pivot row
    // is not divided by its pivot here: it keeps 1 in column k and the
    // pivot in `scale`, and later steps, linear in each row, keep it that
    // multiple of its true value; finish() divides once at the end.  So
    // a step is one multiply-add per element of the other rows, and the
    // warp does not also run the pivot lane's scaling loop.
    template <int k> __device__ void gj_step()
    {
        int p;
        int mine = choose<k>(p);
        if (!told) settle<k>(mine, p);
        const T *u = publish<k, 0>(mine, p);
        if (told) settle<k>(mine, p);
        T piv = u[k];
        if (piv == T(0)) {
            if (!info) info = k + 1;
        } else {
            bool recip = fabs(piv) >= sfmin<T>();
            T d = T(1) / piv;
#pragma unroll
            for (int q = 0; q < R; q++) {
                if (mine == q) {
                    scale[q] = piv;
                    r[q][k] = T(1);
                } else {
                    T l = recip ? r[q][k] * d : r[q][k] / piv;
#pragma unroll
                    for (int j = 0; j < N; j++)
                        if (j != k) r[q][j] -= l * u[j];
                    r[q][k] = -l;
                }
            }
        }
#pragma unroll
        for (int q = 0; q < R; q++)
            if (mine == q) pivoted[q] = true;
    }

    // The rows of the inverse: each row divided by its pivot, the scaling
    // the steps left out (by the reciprocal unless it would overflow, as
    // LAPACK's getf2).
    __device__ void finish()
    {
#pragma unroll
        for (int q = 0; q < R; q++) {
            if (!inside(lane, q)) continue;
            T s = scale[q];
            if (fabs(s) >= sfmin<T>()) {
                T d = T(1) / s;
#pragma unroll
                for (int j = 0; j < N; j++)
                    r[q][j] *= d;
            } else {
#pragma unroll
                for (int j = 0; j < N; j++)
                    r[q][j] /= s;
            }
        }
    }
};

// Unrolled loop over compile-time k = 0 .. N-1.
template <int... k, typename F>
__device__ void unroll(std::integer_sequence<int, k...>, F &&f)
{
    (f(std::integral_constant<int, k>{}), ...);
}

// LU of batch matrices of order N: group g of the block's lanes factors
// matrix blockIdx.x * (blockDim.x / G) + g and writes each row once, to
// its final place.  With Pad, the matrices are of order n < N, factored
// as the order-N matrix with the identity below and right of them: the
// steps of the identity's columns pivot on their own rows, and those of
// the matrix never pick an identity row (it holds zeros there, and ties
// go to the first position), so the pivots and info are the order-n
// matrix's (hyla_cuda_batched_pad_tune; no longer faster than the
// kernels of orders 17 to 31, docs/perf).
template <typename T, int N, int R, bool Pad>
__device__ void getrf_tiny_body(mats<T> A, int lda, int *ipiv, int *info,
                                int batch, int order)
{
    const int n = Pad ? order : N;
    extern __shared__ __align__(16) unsigned char smem[];
    using rows = tiny_rows<T, N, R>;
    long long mat = (long long)blockIdx.x * (blockDim.x / rows::G) +
                    threadIdx.x / rows::G;
    if (mat >= batch) return; // a whole group leaves
    T *a = A(mat);
    rows x;
    x.template load<Pad>(a, lda, smem, batch, n);
    unroll(std::make_integer_sequence<int, N>{},
           [&](auto k) { x.template lu_step<decltype(k)::value>(); });
#pragma unroll
    for (int q = 0; q < R; q++) {
        // The rows of the matrix keep their positions below n.
        if (x.lane + q * rows::G >= n) continue;
#pragma unroll
        for (int j = 0; j < N; j++)
            if (j < n) __stwb(a + x.pos[q] + (size_t)j * lda, x.r[q][j]);
        if (ipiv) ipiv[mat * n + x.lane + q * rows::G] = x.ipiv[q];
    }
    if (x.lane == 0) info[mat] = x.info;
}

template <typename T, int N, int R, bool Pad = false>
__global__ void getrf_tiny_kernel(mats<T> A, int lda, int *ipiv, int *info,
                                  int batch, int n)
{
    getrf_tiny_body<T, N, R, Pad>(A, lda, ipiv, info, batch, n);
}

// The same with at most 85 registers (blocks of up to 128 threads, 6 an
// SM): for double at n = 24 ... 31 but 30, where it measured faster on
// the H100 (n = 31: 12.9 -> 8.9 ms for 2^20 matrices, 16 -> 24 warps an
// SM; n = 30: 7.7 -> 8.6).  A cap, even one that binds no register,
// changes the code of the other orders, slower for most; so they keep
// the kernel without one.
constexpr int capped_threads = 128;
template <typename T, int N, int R>
__global__ void __launch_bounds__(capped_threads, 6)
    getrf_tiny_capped_kernel(mats<T> A, int lda, int *ipiv, int *info,
                             int batch)
{
    getrf_tiny_body<T, N, R, false>(A, lda, ipiv, info, batch, N);
}

template <typename T> constexpr bool capped(int n)
{
    return sizeof(T) == 8 && n >= 24 && n <= 31 && n != 30;
}

// Inverse of batch matrices of order N, out of place, by Gauss-Jordan
// elimination in registers: row i of M ends in the lane of the row at
// position i, its column k belongs to column order[k] of A^-1 (the
// column interchanges at the end).  A is read once and C written once;
// where A is singular C is not written.  The pivots are those of LU.
template <typename T, int N, int R>
__global__ void getri_tiny_kernel(mats<T> A, int lda, mats<T> C, int ldc,
                                  int *ipiv, int *info, int batch)
{
    extern __shared__ __align__(16) unsigned char smem[];
    using rows = tiny_rows<T, N, R, true>;
    long long mat = (long long)blockIdx.x * (blockDim.x / rows::G) +
                    threadIdx.x / rows::G;
    if (mat >= batch) return;
    rows x;
    x.load(A(mat), lda, smem, batch);
    unroll(std::make_integer_sequence<int, N>{},
           [&](auto k) { x.template gj_step<decltype(k)::value>(); });
    if (x.lane == 0) info[mat] = x.info;
    if (!x.info) x.finish();
    T *c = C(mat);
#pragma unroll
    for (int q = 0; q < R; q++) {
        if (!rows::inside(x.lane, q)) continue;
        if (ipiv) ipiv[mat * N + x.lane + q * rows::G] = x.ipiv[q];
        if (x.info) continue;
#pragma unroll
        for (int j = 0; j < N; j++)
            __stwb(c + x.pos[q] + (size_t)x.order[j] * ldc, x.r[q][j]);
    }
}

// Threads per block of the tiny kernels, by order (several matrices per
// block): set by hyla_cuda_batched_tune (0: by_order's).
int tiny_threads[33];
constexpr int default_tiny_threads = 128;

// The threads of the register kernels of order n (LU or inverse): 128,
// but where another count measured at least 4% faster on the H100 (same
// run, every count of 32-256, docs/perf; two runs of one count differed
// by 1% at most orders, up to 6% at a few).  The inverses were measured
// again with the delayed scaling of gj_step, which holds more registers:
// 128 in double (the 256 and 192 of before were 13-17% slower at 14, 31, 32),
// 256 in single from order 22 (4-7% faster at 22-25, 28, 30, 31; within
// 1% at the others).
template <typename T> int by_order(bool inverse, int n)
{
    constexpr int t = default_tiny_threads;
    if (sizeof(T) == 8 && !inverse) {
        if (n == 31) return 64;
        return n == 5 || n == 10 || (n >= 17 && n <= 21) ? 32 : t;
    }
    if (sizeof(T) == 8) return t;
    if (inverse) return n >= 22 ? 256 : t;
    return n == 32 ? 256 : t;
}

template <typename T> int threads_for(bool inverse, int n, int g)
{
    int t = tiny_threads[n] ? tiny_threads[n] : by_order<T>(inverse, n);
    return t < g ? g : t / g * g;
}

// Grid of blocks for batch matrices, t threads a block, g lanes a matrix.
dim3 grid_for(int g, int batch, int t)
{
    long long per = t / g;
    return dim3((unsigned)((batch + per - 1) / per));
}

// Orders up to thread_max: a thread a matrix, the whole of it in the
// thread's registers, LAPACK's getf2 unrolled (the same pivots, info and
// NaN ranking as the lane groups).  At order 2 a matrix is one sector of
// memory, and a pair of lanes costs more in exchanging rows than the
// matrix in traffic: 0.40 -> 0.96 of cuBLAS's speed on the H100 (double
// LU, against lanes that shuffled; 1.60 -> 2.04 for the inverse, against
// lanes sharing the row in shared memory).  From order 3 each thread's
// loads spread over more sectors than a warp's lanes share: 0.98 -> 0.78
// at 3, 1.00 -> 0.48 at 4 (LU; the inverse alike, 2.62 -> 1.75 at 3).
constexpr int thread_max = 2;

// Single order 4 with lda = 4 as well: a matrix is then four 16-byte
// vectors (thread_mat), and a thread a matrix beats the lane groups (LU
// 1.16x, inverse 1.29x faster on the H200).  It lost in double (eight
// vectors: 0.65x, 0.74x) and at single orders 6 and 8 (0.73-0.92x).
template <typename T> constexpr bool by_thread(int n, int lda)
{
    return n <= thread_max || (sizeof(T) == 4 && n == 4 && lda == 4);
}

// A matrix of order N in one thread's registers, r[i][j] = A(i, j).
template <typename T, int N> struct thread_mat {
    T r[N][N];

    // A matrix stored without gaps (lda = N) at a 16-byte boundary moves
    // by 16-byte vectors: at order 2 in single, one load a thread instead
    // of four whose requests each spanned the warp's 32 matrices (LU
    // 1.08-1.10x faster, double 1.01-1.03x, the inverse within 3 %; H200).
    using vec = typename std::conditional<sizeof(T) == 4, float4,
                                          double2>::type;
    static constexpr int V = 16 / sizeof(T);
    __device__ static bool packed(const T *a, int lda)
    {
        return N * N % V == 0 && lda == N &&
               reinterpret_cast<uintptr_t>(a) % 16 == 0;
    }

    __device__ void load(const T *a, int lda)
    {
        if (packed(a, lda)) {
            T e[N * N];
#pragma unroll
            for (int v = 0; v < N * N / V; v++) {
                vec w = __ldca(reinterpret_cast<const vec *>(a) + v);
                memcpy(e + v * V, &w, sizeof w);
            }
#pragma unroll
            for (int j = 0; j < N; j++)
#pragma unroll
                for (int i = 0; i < N; i++)
                    r[i][j] = e[i + j * N];
            return;
        }
#pragma unroll
        for (int j = 0; j < N; j++)
#pragma unroll
            for (int i = 0; i < N; i++)
                r[i][j] = a[i + (size_t)j * lda];
    }

    // Stores the matrix, column j to column to[j] (a permutation).
    __device__ void store(T *a, int lda, const int (&to)[N]) const
    {
        T e[N][N]; // e[i][j] = the result's A(i, j)
#pragma unroll
        for (int j = 0; j < N; j++)
#pragma unroll
            for (int i = 0; i < N; i++) {
                T x = r[i][0];
#pragma unroll
                for (int k = 1; k < N; k++)
                    x = to[k] == j ? r[i][k] : x;
                e[i][j] = x;
            }
        if (packed(a, lda)) {
#pragma unroll
            for (int v = 0; v < N * N / V; v++) {
                T f[V];
#pragma unroll
                for (int x = 0; x < V; x++)
                    f[x] = e[(v * V + x) % N][(v * V + x) / N];
                vec w;
                memcpy(&w, f, sizeof w);
                __stwb(reinterpret_cast<vec *>(a) + v, w);
            }
            return;
        }
#pragma unroll
        for (int j = 0; j < N; j++)
#pragma unroll
            for (int i = 0; i < N; i++)
                a[i + (size_t)j * lda] = e[i][j];
    }

    // Step k's pivot (idamax over rows k..N-1), swapped into row k;
    // returns its row.
    __device__ int pivot(int k)
    {
        int p = k;
        T best = magnitude(r[k][k]);
#pragma unroll
        for (int i = k + 1; i < N; i++) {
            T v = magnitude(r[i][k]);
            if (v > best) {
                best = v;
                p = i;
            }
        }
#pragma unroll
        for (int i = k + 1; i < N; i++) {
            if (i != p) continue;
#pragma unroll
            for (int j = 0; j < N; j++) {
                T x = r[k][j];
                r[k][j] = r[i][j];
                r[i][j] = x;
            }
        }
        return p;
    }
};

template <typename T, int N>
__global__ void getrf_thread_kernel(mats<T> A, int lda, int *ipiv, int *info,
                                    int batch)
{
    long long mat = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (mat >= batch) return;
    T *a = A(mat);
    thread_mat<T, N> m;
    m.load(a, lda);
    auto &r = m.r;
    int zero = 0;
#pragma unroll
    for (int k = 0; k < N; k++) {
        int p = m.pivot(k);
        if (ipiv) ipiv[mat * N + k] = p + 1;
        const T piv = r[k][k];
        if (piv == T(0)) {
            if (!zero) zero = k + 1;
            continue;
        }
        const bool recip = fabs(piv) >= sfmin<T>();
        const T rcp = T(1) / piv;
#pragma unroll
        for (int i = k + 1; i < N; i++) {
            T l = recip ? r[i][k] * rcp : r[i][k] / piv;
            r[i][k] = l;
#pragma unroll
            for (int j = k + 1; j < N; j++)
                r[i][j] -= l * r[k][j];
        }
    }
    int same[N];
#pragma unroll
    for (int j = 0; j < N; j++)
        same[j] = j;
    m.store(a, lda, same);
    info[mat] = zero;
}

// The inverse a thread a matrix: Gauss-Jordan as gj_step (but the pivot
// row scaled at its step: the thread runs no other lane's loop), with the
// rows interchanged in registers (so row k is the k-th pivot's) and the
// columns at the store.
template <typename T, int N>
__global__ void getri_thread_kernel(mats<T> A, int lda, mats<T> C, int ldc,
                                    int *ipiv, int *info, int batch)
{
    long long mat = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (mat >= batch) return;
    thread_mat<T, N> m;
    m.load(A(mat), lda);
    auto &r = m.r;
    int order[N]; // order[k]: the row of A that is the k-th pivot
#pragma unroll
    for (int k = 0; k < N; k++)
        order[k] = k;
    int zero = 0;
#pragma unroll
    for (int k = 0; k < N; k++) {
        int p = m.pivot(k);
        if (ipiv) ipiv[mat * N + k] = p + 1;
#pragma unroll
        for (int i = k + 1; i < N; i++) {
            if (i != p) continue;
            int x = order[k];
            order[k] = order[i];
            order[i] = x;
        }
        const T piv = r[k][k];
        if (piv == T(0)) {
            if (!zero) zero = k + 1;
            continue;
        }
        const bool recip = fabs(piv) >= sfmin<T>();
        const T d = T(1) / piv;
#pragma unroll
        for (int i = 0; i < N; i++) {
            if (i == k) continue;
            T l = recip ? r[i][k] * d : r[i][k] / piv;
#pragma unroll
            for (int j = 0; j < N; j++)
                if (j != k) r[i][j] -= l * r[k][j];
            r[i][k] = -l;
        }
#pragma unroll
        for (int j = 0; j < N; j++)
            r[k][j] = j == k ? d : recip ? r[k][j] * d : r[k][j] / piv;
    }
    info[mat] = zero;
    if (zero) return;
    m.store(C(mat), ldc, order);
}

// Rows a lane of the register kernels: two where that halves the group
// of lanes a matrix takes and it measured faster on the H100 (single LU
// at n = 9: 0.62 -> 0.43 ms for 2^20 matrices; from n = 11 in double,
// two rows cost more in registers than they save in lanes).  The double
// inverse at 10 holds one row since gj_step's delayed scaling (1.25 ->
// 1.19 ms); single LU at 13-14 and single inverses at 10-12 since the
// 16-lane groups' pivot search by reductions (1.12-1.22x, H200); double
// order 9 (LU 1.08x, inverse 1.18x) and LU 10 (1.01x) since those
// groups' search by the top word (choose).
template <typename T> constexpr int rows_per_lane(bool inverse, int n)
{
    if (sizeof(T) == 4)
        return n == 5 || n == 6 || (n >= 9 && n <= (inverse ? 9 : 12)) ? 2 : 1;
    return n == 5 || (n == 6 && !inverse) ? 2 : 1;
}

// One launch of the register kernels for order N, R rows a lane, on
// matrices of order n (n < N with Pad, else N).
template <typename T, int N, int R, bool Pad = false>
void launch_getrf(int n, mats<T> A, int lda, int *ipiv, int *info, int batch,
                  cudaStream_t s)
{
    using rows = tiny_rows<T, N, R>;
    int t = threads_for<T>(false, N, rows::G);
    if constexpr (capped<T>(N) && !Pad) {
        t = t > capped_threads ? capped_threads : t;
        getrf_tiny_capped_kernel<T, N, R><<<grid_for(rows::G, batch, t), t,
                                            rows::smem(t), s>>>(
            A, lda, ipiv, info, batch);
    } else {
        getrf_tiny_kernel<T, N, R, Pad><<<grid_for(rows::G, batch, t), t,
                                          rows::smem(t), s>>>(
            A, lda, ipiv, info, batch, n);
    }
}

// Whether the LU of orders 17-31 runs on the kernel of order 32
// (hyla_cuda_batched_pad_tune; none by default).
int tiny_pad = 0;

template <typename T> bool pad32(int n)
{
    return tiny_pad && n > 16 && n < 32; // a group of 32 lanes from 17 on
}

template <typename T, int N, int R>
void launch_getri(mats<T> A, int lda, mats<T> C, int ldc, int *ipiv,
                  int *info, int batch, cudaStream_t s)
{
    using rows = tiny_rows<T, N, R, true>;
    int t = threads_for<T>(true, N, rows::G);
    getri_tiny_kernel<T, N, R><<<grid_for(rows::G, batch, t), t,
                                 rows::smem(t), s>>>(A, lda, C, ldc, ipiv,
                                                     info, batch);
}

// Launch kernel<N> for the runtime n through a table of instantiations.
template <typename T, int... N>
int getrf_tiny(std::integer_sequence<int, N...>, int n, mats<T> A, int lda,
               int *ipiv, int *info, int batch, cudaStream_t stream)
{
    using fn = void (*)(mats<T>, int, int *, int *, int);
    if (by_thread<T>(n, lda)) {
        fn f = n == 1   ? getrf_thread_kernel<T, 1>
               : n == 2 ? getrf_thread_kernel<T, 2>
                        : getrf_thread_kernel<T, 4>;
        int t = default_tiny_threads;
        f<<<(unsigned)((batch + t - 1) / t), t, 0, stream>>>(
            A, lda, ipiv, info, batch);
        HYLA_CUDA_CHECK(cudaGetLastError());
        return 0;
    }
    using lf = void (*)(int, mats<T>, int, int *, int *, int, cudaStream_t);
    static constexpr lf table[] = {
        launch_getrf<T, N + 1, rows_per_lane<T>(false, N + 1)>...};
    constexpr int top = HYLA_CUDA_TINY_MAX;
    lf launch = pad32<T>(n)
                    ? launch_getrf<T, top, rows_per_lane<T>(false, top), true>
                    : table[n - 1];
    launch(n, A, lda, ipiv, info, batch, stream);
    HYLA_CUDA_CHECK(cudaGetLastError());
    return 0;
}

template <typename T, int... N>
int getri_tiny(std::integer_sequence<int, N...>, int n, mats<T> A, int lda,
               mats<T> C, int ldc, int *ipiv, int *info, int batch,
               cudaStream_t stream)
{
    using fn = void (*)(mats<T>, int, mats<T>, int, int *, int *, int);
    if (by_thread<T>(n, lda)) {
        fn f = n == 1   ? getri_thread_kernel<T, 1>
               : n == 2 ? getri_thread_kernel<T, 2>
                        : getri_thread_kernel<T, 4>;
        int t = default_tiny_threads;
        f<<<(unsigned)((batch + t - 1) / t), t, 0, stream>>>(
            A, lda, C, ldc, ipiv, info, batch);
        HYLA_CUDA_CHECK(cudaGetLastError());
        return 0;
    }
    using lf = void (*)(mats<T>, int, mats<T>, int, int *, int *, int,
                        cudaStream_t);
    static constexpr lf table[] = {
        launch_getri<T, N + 1, rows_per_lane<T>(true, N + 1)>...};
    table[n - 1](A, lda, C, ldc, ipiv, info, batch, stream);
    HYLA_CUDA_CHECK(cudaGetLastError());
    return 0;
}

using orders = std::make_integer_sequence<int, HYLA_CUDA_TINY_MAX>;

// Solve op(A) X = B with the LU factors of each matrix: one block per
// matrix, one right-hand side at a time in shared memory, a
// column-oriented substitution (threads over rows).
template <typename T>
__global__ void getrs_kernel(int trans, int n, int nrhs, mats<T> A, int lda,
                             const int *ipiv, mats<T> B, int ldb)
{
    extern __shared__ unsigned char smem[];
    T *x = reinterpret_cast<T *>(smem);
    long long mat = blockIdx.x;
    const T *a = A(mat);
    T *bm = B(mat);
    const int *p = ipiv + mat * n;
    int t = threadIdx.x, nt = blockDim.x;
    auto at = [&](int i, int j) { return a[i + (size_t)j * lda]; };
    for (int c = 0; c < nrhs; c++) {
        T *b = bm + (size_t)c * ldb;
        for (int i = t; i < n; i += nt)
            x[i] = b[i];
        __syncthreads();
        if (trans == HYLA_NO_TRANS) {
            if (t == 0)
                for (int i = 0; i < n; i++) {
                    int q = p[i] - 1;
                    T s = x[i];
                    x[i] = x[q];
                    x[q] = s;
                }
            __syncthreads();
            for (int j = 0; j < n; j++) { // L y = P b, unit diagonal
                T xj = x[j];
                for (int i = j + 1 + t; i < n; i += nt)
                    x[i] -= at(i, j) * xj;
                __syncthreads();
            }
            for (int j = n - 1; j >= 0; j--) { // U x = y
                T xj = x[j] / at(j, j);
                for (int i = t; i < j; i += nt)
                    x[i] -= at(i, j) * xj;
                __syncthreads();
                if (t == 0) x[j] = xj;
                __syncthreads();
            }
        } else {
            for (int j = 0; j < n; j++) { // U^T y = b
                T xj = x[j] / at(j, j);
                for (int i = j + 1 + t; i < n; i += nt)
                    x[i] -= at(j, i) * xj;
                __syncthreads();
                if (t == 0) x[j] = xj;
                __syncthreads();
            }
            for (int j = n - 1; j >= 0; j--) { // L^T z = y
                T xj = x[j];
                for (int i = t; i < j; i += nt)
                    x[i] -= at(j, i) * xj;
                __syncthreads();
            }
            if (t == 0)
                for (int i = n - 1; i >= 0; i--) {
                    int q = p[i] - 1;
                    T s = x[i];
                    x[i] = x[q];
                    x[q] = s;
                }
            __syncthreads();
        }
        for (int i = t; i < n; i += nt)
            b[i] = x[i];
        __syncthreads();
    }
}

template <typename T>
int getrs(int trans, int n, int nrhs, mats<T> A, int lda, const int *ipiv,
          mats<T> B, int ldb, int batch, cudaStream_t stream)
{
    if (n == 0 || nrhs == 0 || batch == 0) return 0;
    int t = n >= 256 ? 256 : (n + 31) / 32 * 32;
    getrs_kernel<T><<<batch, t, n * sizeof(T), stream>>>(trans, n, nrhs, A, lda,
                                                         ipiv, B, ldb);
    HYLA_CUDA_CHECK(cudaGetLastError());
    return 0;
}

// info = 0 for every matrix of order 0.
int zero_info(int *info, int batch, cudaStream_t stream)
{
    if (batch) HYLA_CUDA_CHECK(cudaMemsetAsync(info, 0, sizeof(int) * batch, stream));
    return 0;
}

template <typename T>
int getrf_batched(int n, mats<T> A, int lda, int *ipiv, int *info, int batch,
                  cublasHandle_t h, cudaStream_t stream)
{
    if (n == 0 || batch == 0) return zero_info(info, batch, stream);
    if (n > HYLA_CUDA_BATCHED_MAX) return HYLA_ERR_NOT_SUPPORTED;
    if (n > HYLA_CUDA_TINY_MAX)
        return getrf_large<T>(n, A, lda, ipiv, info, batch, h, stream);
    return getrf_tiny<T>(orders{}, n, A, lda, ipiv, info, batch, stream);
}

template <typename T>
int getri_batched(int n, mats<T> A, int lda, mats<T> C, int ldc, int *ipiv,
                  int *info, int batch, cublasHandle_t h, cudaStream_t stream)
{
    if (n == 0 || batch == 0) return zero_info(info, batch, stream);
    if (n > HYLA_CUDA_BATCHED_MAX) return HYLA_ERR_NOT_SUPPORTED;
    if (n > HYLA_CUDA_TINY_MAX)
        return getri_large<T>(n, A, lda, C, ldc, ipiv, info, batch, h, stream);
    return getri_tiny<T>(orders{}, n, A, lda, C, ldc, ipiv, info, batch,
                         stream);
}

} // namespace
} // namespace hyla

using hyla::mats;

extern "C" void hyla_cuda_batched_tune(int n, int threads)
{
    if (n >= 1 && n <= HYLA_CUDA_TINY_MAX) hyla::tiny_threads[n] = threads;
}

extern "C" void hyla_cuda_batched_pad_tune(int pad)
{
    hyla::tiny_pad = pad > 0;
}

// The extern "C" launchers, one per precision: dA_array, or when it is
// NULL dA at a stride.
#define HYLA_BATCHED_LAUNCHERS(T, x)                                           \
    extern "C" int hyla_cuda_##x##batch_getrf(                                 \
        int n, T *const *dA_array, T *dA, long long stride, int ldda,          \
        int *dipiv, int *dinfo, int batch, cublasHandle_t h, cudaStream_t s)   \
    {                                                                          \
        return hyla::getrf_batched<T>(n, mats<T>{dA_array, dA, stride}, ldda,  \
                                      dipiv, dinfo, batch, h, s);              \
    }                                                                          \
    extern "C" int hyla_cuda_##x##batch_getri(                                 \
        int n, T *const *dA_array, T *dA, long long strideA, int ldda,         \
        T *const *dC_array, T *dC, long long strideC, int lddc, int *dipiv,    \
        int *dinfo, int batch, cublasHandle_t h, cudaStream_t s)               \
    {                                                                          \
        return hyla::getri_batched<T>(n, mats<T>{dA_array, dA, strideA}, ldda, \
                                      mats<T>{dC_array, dC, strideC}, lddc,    \
                                      dipiv, dinfo, batch, h, s);              \
    }                                                                          \
    extern "C" int hyla_cuda_##x##batch_getrs(                                 \
        int trans, int n, int nrhs, T *const *dA_array, T *dA,                 \
        long long strideA, int ldda, const int *dipiv, T *const *dB_array,     \
        T *dB, long long strideB, int lddb, int batch, cudaStream_t s)         \
    {                                                                          \
        return hyla::getrs<T>(trans, n, nrhs, mats<T>{dA_array, dA, strideA},  \
                              ldda, dipiv, mats<T>{dB_array, dB, strideB},     \
                              lddb, batch, s);                                 \
    }

HYLA_BATCHED_LAUNCHERS(double, d)
HYLA_BATCHED_LAUNCHERS(float, s)

// SPDX-License-Identifier: BSD-3-Clause
// Batched LU of orders 33 to 512 by blocks of 32 columns, and the
// inverse through LU and triangular solves.
//
// Step j of the LU of every matrix is three kernels:
//  - the panel kernel gives each matrix a thread block, one thread per
//    row of the n-j rows at and below the diagonal, holding that row of
//    the panel's w <= 32 columns in registers.  Pivot search, elimination
//    and lazy swaps as the register kernels (getrf_batched.cu): rows never
//    move, each is written once to its final place.  The block's warps
//    agree on a pivot through shared memory, once a column: each warp
//    posts its best candidate and that candidate's row;
//  - the swap kernel applies the panel's interchanges right of the panel,
//    all at once: the rows that move (at most 2w, listed by the panel
//    kernel) are read, then written to their places; it then solves
//    U12 = L11^-1 A12, a column per thread, in shared memory.  Many blocks
//    a matrix, 64 columns each;
//  - one batched GEMM (cuBLAS) updates the trailing matrix,
//    A22 -= A21 U12.
// Left of the panel the interchanges wait for the end: then one kernel
// permutes each column of L once, by all the later steps' interchanges
// together, through shared memory.  In column-major storage a row
// interchange touches one sector of memory per element, which makes the
// step-by-step swaps as costly as the GEMMs.
#include "batched_t.h"
#include "blas_t.h"
#include "gpu.h"
#include "gpu_check.h"

#include <algorithm>

namespace hyla
{
namespace
{

// Matrices per cuBLAS batched call (the grids of some kernels stop at
// 65535 in y and z).
constexpr int max_chunk = 65535;

// Panel width, and the most threads of a panel block (a row each).
constexpr int NB = 32, max_rows = HYLA_CUDA_BATCHED_MAX;

// Words a matrix of the list of rows a panel moved: a count, and at most
// 2*NB rows (NB come up as pivots, at most NB go down in their place).
constexpr int move_words = 2 * NB + 1;

// Step j of the LU of each matrix of order n: its rows j..n-1 of columns
// j..j+w-1 (the panel), w <= NB, a thread per row.
template <typename T>
__global__ void __launch_bounds__(max_rows)
    panel_kernel(mats<T> A, int lda, int n, int j, int w, int *ipiv,
                 int *info, int *moves)
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
    int *mv = moves + mat * move_words;
    if (have && pos != t) mv[1 + atomicAdd(&nmoves, 1)] = t | pos << 16;
    __syncthreads();
    if (t == 0) mv[0] = nmoves;
}

// Columns a block of the swap kernel takes (a thread each in the solve).
constexpr int swap_cols = 64;

// After the panel of step j (width w): its interchanges in the columns
// right of it, and there U12 = L11^-1 A12.  The block's rows j..j+w-1
// (the ones solved) pass through shared memory, read and written
// coalesced; only the rows that move below them are accessed in place.
template <typename T>
__global__ void __launch_bounds__(swap_cols)
    swap_kernel(mats<T> A, int lda, int n, int j, int w, const int *moves)
{
    __shared__ T L[NB][NB + 1];
    __shared__ T X[NB][swap_cols + 1]; // rows j..j+w-1 of the block's columns
    const long long mat = blockIdx.x;
    const int t = threadIdx.x;
    const int c0 = j + w + blockIdx.y * swap_cols, nc = min(swap_cols, n - c0);
    T *a0 = A(mat);
    T *a = a0 + j + (size_t)c0 * lda; // row j of the block's first column
    const int *mv = moves + mat * move_words;
    const int count = mv[0]; // <= 2w <= blockDim.x
    const int pair = t < count ? mv[1 + t] : 0;
    const int from = pair & 0xffff, to = pair >> 16;
    for (int e = t; e < w * nc; e += swap_cols)
        X[e % w][e / w] = a[e % w + (size_t)(e / w) * lda];
    for (int e = t; e < w * w; e += swap_cols)
        L[e % w][e / w] = a0[j + e % w + (size_t)(j + e / w) * lda];
    __syncthreads();

    // A few columns at a time: every moving row read before any written.
    constexpr int step = 16;
    for (int c = 0; c < nc; c += step) {
        T v[step];
        if (t < count) {
#pragma unroll
            for (int u = 0; u < step; u++)
                if (c + u < nc)
                    v[u] = from < w ? X[from][c + u]
                                    : a[from + (size_t)(c + u) * lda];
        }
        __syncthreads();
        if (t < count) {
#pragma unroll
            for (int u = 0; u < step; u++) {
                if (c + u >= nc) continue;
                if (to < w)
                    X[to][c + u] = v[u];
                else
                    a[to + (size_t)(c + u) * lda] = v[u];
            }
        }
    }
    __syncthreads();

    // U12 = L11^-1 A12, L11 unit lower: a column per thread.
    if (t < nc) {
        T v[NB];
#pragma unroll
        for (int i = 0; i < NB; i++)
            v[i] = i < w ? X[i][t] : T(0);
#pragma unroll
        for (int i = 1; i < NB; i++) {
            if (i < w) {
#pragma unroll
                for (int q = 0; q < i; q++)
                    v[i] -= L[i][q] * v[q];
            }
        }
#pragma unroll
        for (int i = 0; i < NB; i++)
            if (i < w) X[i][t] = v[i];
    }
    __syncthreads();
    for (int e = t; e < w * nc; e += swap_cols)
        a[e % w + (size_t)(e / w) * lda] = X[e % w][e / w];
}

// perm[f] for f < m: the row (counted from r0) that LAPACK's interchanges
// ipiv[r0 .. r0+m-1] (1-based, of one matrix) bring to position r0 + f;
// piv: m ints of scratch.  Shared memory, the whole block; the
// interchanges are sequential, so one thread applies them, from piv
// rather than from global memory.
__device__ void perm_of_pivots(int *perm, int *piv, const int *ipiv, int r0,
                               int m)
{
    for (int f = threadIdx.x; f < m; f += blockDim.x) {
        perm[f] = f;
        piv[f] = ipiv[r0 + f] - 1 - r0;
    }
    __syncthreads();
    if (threadIdx.x == 0)
        for (int k = 0; k < m; k++) {
            int q = piv[k], v = perm[k];
            perm[k] = perm[q];
            perm[q] = v;
        }
    __syncthreads();
}

// At the end: block (mat, y) permutes the columns of panel J = y*NB by the
// interchanges of every later step, rows J+NB .. n-1, through shared
// memory: as many columns at a time as the block's threads cover (a
// thread an element), or one column in several rounds.
template <typename T>
__global__ void __launch_bounds__(256)
    left_swap_kernel(mats<T> A, int lda, int n, const int *ipiv)
{
    __shared__ int perm[max_rows], piv[max_rows];
    __shared__ T col[max_rows];
    const long long mat = blockIdx.x;
    const int J = blockIdx.y * NB, r0 = J + NB, m = n - r0;
    const int t = threadIdx.x, nt = blockDim.x;
    perm_of_pivots(perm, piv, ipiv + mat * n, r0, m);
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

// Step j: the panel, then its interchanges right of it and the solve.
template <typename T>
int panel(int n, mats<T> A, int lda, int j, int *ipiv, int *info, int *moves,
          int batch, cudaStream_t s)
{
    int w = std::min(NB, n - j), threads = (n - j + 31) / 32 * 32;
    panel_kernel<T>
        <<<batch, threads, 0, s>>>(A, lda, n, j, w, ipiv, info, moves);
    HYLA_CUDA_CHECK(cudaGetLastError());
    int blocks = (n - j - w + swap_cols - 1) / swap_cols;
    if (blocks)
        swap_kernel<T><<<dim3(batch, blocks), swap_cols, 0, s>>>(A, lda, n, j,
                                                                 w, moves);
    HYLA_CUDA_CHECK(cudaGetLastError());
    return 0;
}

// The deferred interchanges left of each panel.
template <typename T>
int left_swaps(int n, mats<T> A, int lda, const int *ipiv, int batch,
               cudaStream_t s)
{
    int panels = (n - 1) / NB; // those with rows below them
    int threads = 256;
    left_swap_kernel<T><<<dim3(batch, panels), threads, 0, s>>>(A, lda, n, ipiv);
    HYLA_CUDA_CHECK(cudaGetLastError());
    return 0;
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

// A22 -= A21 U12 after the panel at column j of width w; p: 3*max_chunk
// pointers of device memory, for the pointer-array form.
template <typename T>
int update(int n, mats<T> A, int lda, int j, int w, int batch, T **p,
           cublasHandle_t h, cudaStream_t s)
{
    int mm = n - j - w;
    size_t o21 = (size_t)(j + w) + (size_t)j * lda;
    size_t o12 = (size_t)j + (size_t)(j + w) * lda;
    size_t o22 = (size_t)(j + w) + (size_t)(j + w) * lda;
    const T one = 1, minus_one = -1;
    const cublasOperation_t N = CUBLAS_OP_N;
    for (long long first = 0; first < batch; first += max_chunk) {
        int cnt = (int)std::min<long long>(max_chunk, batch - first);
        if (!A.array) {
            T *b = A.base + first * A.stride;
            HYLA_CUBLAS_CHECK(blas<T>::gemm_strided(
                h, N, N, mm, mm, w, &minus_one, b + o21, lda, A.stride, b + o12,
                lda, A.stride, &one, b + o22, lda, A.stride, cnt));
            continue;
        }
        offsets_kernel<T>
            <<<(cnt + 255) / 256, 256, 0, s>>>(A, first, cnt, o21, o12, o22, p);
        HYLA_CUDA_CHECK(cudaGetLastError());
        HYLA_CUBLAS_CHECK(blas<T>::gemm_batched(
            h, N, N, mm, mm, w, &minus_one, p, lda, p + cnt, lda, &one,
            p + 2 * cnt, lda, cnt));
    }
    return 0;
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
    perm_of_pivots(perm, piv, ipiv + (size_t)blockIdx.x * n, 0, n);
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

// Stream-ordered device memory, freed with the object on stream s.
struct scratch {
    cudaStream_t s;
    void *p[4] = {};
    int used = 0;
    explicit scratch(cudaStream_t st) : s(st) {}
    ~scratch()
    {
        for (int i = 0; i < used; i++)
            if (p[i]) cudaFreeAsync(p[i], s);
    }
    template <typename U> U *get(size_t count)
    {
        void *q = nullptr;
        if (used == 4) return nullptr;
        if (cudaMallocAsync(&q, count * sizeof(U), s) != cudaSuccess) {
            cudaGetLastError();
            return nullptr;
        }
        p[used++] = q;
        return static_cast<U *>(q);
    }
};

} // namespace

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
    int *moves = mem.get<int>((size_t)batch * move_words);
    if (!moves || (!ipiv && !(ipiv = mem.get<int>((size_t)batch * n))))
        return HYLA_ERR_DEVICE_MEMORY;
    for (int j = 0; j < n; j += NB) {
        if ((rc = panel<T>(n, A, lda, j, ipiv, info, moves, batch, s)) ||
            (j + NB < n && (rc = update<T>(n, A, lda, j, NB, batch, p, h, s))))
            return rc;
    }
    return left_swaps<T>(n, A, lda, ipiv, batch, s);
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

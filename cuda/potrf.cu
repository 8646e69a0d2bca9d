// SPDX-License-Identifier: BSD-3-Clause
// Cholesky of one tile on the GPU, blocked by 64 columns: kernels for the
// diagonal block and the panel below it, cuBLAS GEMMs for the rest.
//
// The code sees the row-major tile as the column-major matrix of the same
// memory: a row-major lower L is a column-major upper U = L^T with
// A = U^T U, and a row-major upper one a column-major lower L with
// A = L L^T.  `upper` below is the column-major triangle.
#include "gpu.h"
#include "blas_t.h"
#include "gpu_check.h"
#include "scratch.h"

#include <type_traits>

namespace
{

using hyla::blas;

// Blocked by steps of sb columns, two launches a step: the step's panel
// (diagonal block and the rows below it) and a cuBLAS GEMM.  Steps come in
// blocks of `block_cols` columns: a step's GEMM updates only the rest of
// its block, and the columns right of the block take one GEMM of rank
// block_cols after its last step, so that the trailing matrix is read
// and written once a block rather than once a step.  (A recursion on
// halves with 128-column leaves launched about 140 kernels for a 2048
// tile, half of them cuBLAS TRSMs of 22 us each, Nsight Compute on an
// H100; it took 2.55 ms there.)
constexpr int sb = 64;                 // columns of a step
constexpr int sr = 64;                 // rows below D a block factors
constexpr int panel_threads = sb + sr; // one row of the panel each
// Columns of a block of steps (hyla_cuda_potrf_tune), a multiple of sb.
int block_cols = HYLA_CUDA_POTRF_BLOCK;

// Offset of the lower factor's L(i, j), i >= j, in the column-major tile:
// A(i, j) of a lower one, A(j, i) of an upper one (U = L^T).
template <bool upper>
__device__ __forceinline__ size_t at(int i, int j, int lda)
{
    return upper ? j + (size_t)i * lda : i + (size_t)j * lda;
}

// One step at column c0.  The panel of the step is the w-by-w diagonal
// block D and the rows below it.  With `panel`, each block factors D
// together with sr rows P below it (block b: rows c0 + w + b sr on), as
// one (w + sr)-row panel, and stores its P; every block factors the same
// D the same way.  A block that starts late must still read D unfactored,
// so D goes to slot (block 0; the last kernel puts it into place) and
// ok[step] says it is there; without a slot the diagonal kernel (!panel,
// sb threads) factors D again in place afterwards.
// Thread t holds row t of the panel (D's rows first) in registers, from
// the current column j on: x[0] is column j, and each column's update
// shifts the row by one, so that a loop over j indexes registers by
// constants.  Column j is stored as soon as it is final, times its
// pivot's 1/sqrt.  The update of the columns right of j needs column j of
// D, which D's threads publish in shared memory (two buffers, one barrier
// a column); each of them updates and publishes its next column before the
// rest of its row.  The row shrinks by 16 registers every 16 columns.
// (Threads holding a column each, rows spread over them, took 33 us a step
// for D alone and 19 us more for the rows below; the loops over j unrolled
// took 38 us a step, missing the instruction cache: Nsight Compute, H100.
// A step by 2 x 2 blocks of 32 columns, each diagonal block factored by one
// warp with warp barriers and the other rows solved against it with none,
// took 29 us a step against 21 for this one: with one warp a scheduler,
// the chain of dependent instructions sets the pace, not the barriers.)
// A pivot that is not positive (or NaN) stops the factorization, leaving
// the columns before it stored, and sets *info to col0 + c0 + its column
// + 1 unless *info holds a failure already (the steps run in column order
// on one stream).
template <typename T, bool upper, bool panel>
__global__ void __launch_bounds__(panel_threads)
    potrf_step_kernel(T *A, int lda, int n, int c0, int *info, int col0,
                      T *slot, int *ok)
{
    // Column j of D, rows i >= j: col[j % 2][o + i - j].  Rebased at
    // every column so that the rows below the pivot start at a 16-byte
    // boundary, V elements in: the loop below reads them by vectors.
    // (Read at a fixed place, as 63 - j scalar loads a column, they were
    // 31 % of a step's instructions, Nsight Compute on an H100; by vectors
    // a 2048 tile took 9 % less time in single, 2 % in double.)  Entries
    // past row 63 are zero or stale; they only reach registers past the
    // row's end.
    constexpr int V = 16 / sizeof(T), o = V - 1;
    __shared__ __align__(16) T col[2][2 * sb];
    const int t = threadIdx.x;
    const int w = min(sb, n - c0);
    const bool in_d = t < sb;
    // The tile row this thread holds, if any.
    const int row = in_d ? c0 + t : c0 + w + blockIdx.x * sr + (t - sb);
    const bool holds = in_d ? t < w : panel && row < n;
    T x[sb];
#pragma unroll
    for (int c = 0; c < sb; c++)
        x[c] = holds && c < w && (!in_d || c <= t)
                   ? A[at<upper>(row, c0 + c, lda)]
                   : T(0);
    for (int e = t; e < 2 * sb; e += blockDim.x)
        col[0][e] = col[1][e] = T(0);
    __syncthreads();
    if (in_d) col[0][o + t] = x[0];
    __syncthreads();
    // Where column j of this row goes: D into its slot (block 0) or in
    // place, P in place.
    T *to = A;
    int ld = lda, r = row, cb = c0;
    bool store = holds;
    if (in_d && panel) {
        store = holds && slot && blockIdx.x == 0;
        if (store) {
            to = slot + (size_t)(c0 / sb) * sb * sb;
            ld = sb, r = t, cb = 0;
        }
    }
    int bad = 0; // failing column + 1, the same in every thread
    // Columns j0 <= j < j0 + 16 with the row's first W registers live.
    auto columns = [&](int j0, auto width) {
        constexpr int W = decltype(width)::value;
        for (int j = j0; j < min(w, j0 + 16); j++) {
            const T d = col[j % 2][o];
            if (!(d > T(0))) {
                bad = j + 1;
                return;
            }
            const T rs = rsqrt(d);
            if (store && (!in_d || j <= t))
                to[at<upper>(r, cb + j, ld)] = x[0] * rs;
            const T a = x[0] * (rs * rs); // L(t, j) / L(j, j)
            const T *cj = &col[j % 2][V]; // rows j + 1 on
            x[0] = fma(-a, cj[0], x[1]);
            if (in_d && t > j) col[(j + 1) % 2][o + t - j - 1] = x[0];
#pragma unroll
            for (int c = 1; c < W - 1; c++)
                x[c] = fma(-a, cj[c], x[c + 1]);
            __syncthreads();
        }
    };
    columns(0, std::integral_constant<int, sb>());
    if (!bad) columns(16, std::integral_constant<int, sb - 16>());
    if (!bad) columns(32, std::integral_constant<int, sb - 32>());
    if (!bad) columns(48, std::integral_constant<int, sb - 48>());
    if (t == 0 && blockIdx.x == 0) {
        if (ok) ok[c0 / sb] = panel && slot && !bad;
        // Plain store: *info may be host memory.
        if (bad && *info == 0) *info = col0 + c0 + bad;
    }
}

// The last launch: the other triangle of the column-major n-by-n A (the
// strictly lower one when `upper`) back from its copy S (leading
// dimension n), and the diagonal blocks whose ok is set from their slots.
template <typename T, bool upper>
__global__ void restore_kernel(T *A, int lda, int n, const T *S,
                               const T *slot, const int *ok)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x,
        j = blockIdx.y * blockDim.y + threadIdx.y;
    if (i >= n || j >= n) return;
    if (upper ? i > j : i < j)
        A[i + (size_t)j * lda] = S[i + (size_t)j * n];
    else if (slot && i / sb == j / sb && ok[i / sb])
        A[i + (size_t)j * lda] =
            slot[(size_t)(i / sb) * sb * sb + i % sb + (j % sb) * sb];
}

template <typename T, bool upper>
int blocked(cublasHandle_t h, cudaStream_t stream, T *A, int lda, int n,
            int *info, int col0)
{
    auto factor = potrf_step_kernel<T, upper, false>;
    auto panel = potrf_step_kernel<T, upper, true>;
    // The trailing updates as GEMMs over the whole square: cuBLAS's SYRK
    // of rank 64 took 78 us for 1984 rows on an H100, 31 of them 0.97 ms
    // of a 2048 tile.  A GEMM writes the other triangle too, which must
    // come back unchanged: it is copied first and put back at the end,
    // with the diagonal blocks from their slots.  Without the memory for
    // the copy, SYRKs; without slots, a second diagonal kernel a step.
    hyla::scratch mem(stream);
    const int steps = (n + sb - 1) / sb;
    T *saved = n > sb ? mem.get<T>((size_t)n * n) : nullptr;
    T *slot = saved ? mem.get<T>((size_t)steps * sb * sb) : nullptr;
    int *ok = slot ? mem.get<int>(steps) : nullptr;
    if (!ok) slot = nullptr;
    if (saved)
        HYLA_CUDA_CHECK(cudaMemcpy2DAsync(
            saved, sizeof(T) * n, A, sizeof(T) * lda, sizeof(T) * n, n,
            cudaMemcpyDeviceToDevice, stream));
    const T one = 1, minus_one = -1;
    cublasOperation_t ta = upper ? CUBLAS_OP_T : CUBLAS_OP_N,
                      tb = upper ? CUBLAS_OP_N : CUBLAS_OP_T;
    // C -= X X^T of the lower factor: rows r0.. of C against columns
    // c0..c0+k of L, C's rows r0..n and columns r0..r0+cols (in the upper
    // one, the transposed blocks).  Without the copy of the other
    // triangle, a SYRK of the whole trailing matrix (cols = its rows).
    auto update = [&](int r0, int cols, int c0, int k) -> int {
        int rows = n - r0;
        const T *X = upper ? A + c0 + (size_t)r0 * lda
                           : A + r0 + (size_t)c0 * lda;
        T *C = A + r0 + (size_t)r0 * lda;
        cublasFillMode_t fill =
            upper ? CUBLAS_FILL_MODE_UPPER : CUBLAS_FILL_MODE_LOWER;
        HYLA_CUBLAS_CHECK(
            !saved  ? blas<T>::syrk(h, fill, ta, rows, k, &minus_one, X, lda,
                                    &one, C, lda)
            : upper ? blas<T>::gemm(h, ta, tb, cols, rows, k, &minus_one, X,
                                    lda, X, lda, &one, C, lda)
                    : blas<T>::gemm(h, ta, tb, rows, cols, k, &minus_one, X,
                                    lda, X, lda, &one, C, lda));
        return 0;
    };
    // Without the copy, blocks of one step: each updates the whole
    // trailing matrix.
    const int bc = saved ? block_cols : sb;
    for (int c0 = 0; c0 < n; c0 += sb) {
        int w = min(sb, n - c0), below = n - c0 - w;
        if (below > 0) {
            panel<<<(below + sr - 1) / sr, panel_threads, 0, stream>>>(
                A, lda, n, c0, info, col0, slot, ok);
            HYLA_CUDA_CHECK(cudaGetLastError());
        }
        if (below == 0 || !slot) {
            factor<<<1, sb, 0, stream>>>(A, lda, n, c0, info, col0, nullptr,
                                         ok);
            HYLA_CUDA_CHECK(cudaGetLastError());
        }
        if (below == 0) break;
        // The rest of the step's block, or after its last step the columns
        // right of the block.
        const int b0 = c0 / bc * bc, be = min(n, b0 + bc);
        if (int rc = c0 + w < be ? update(c0 + w, be - c0 - w, c0, w)
                                 : update(be, n - be, b0, be - b0))
            return rc;
    }
    if (saved) {
        dim3 threads(32, 8), grid((n + 31) / 32, (n + 7) / 8);
        restore_kernel<T, upper><<<grid, threads, 0, stream>>>(A, lda, n,
                                                               saved, slot, ok);
        HYLA_CUDA_CHECK(cudaGetLastError());
    }
    return 0;
}

template <typename T>
int potrf(cublasHandle_t h, int uplo, int n, T *dA, int ldda, int *dinfo,
          int col0)
{
    cudaStream_t stream;
    HYLA_CUBLAS_CHECK(cublasGetStream(h, &stream));
    if (n <= 0) return 0;
    // A row-major lower triangle is the column-major upper one.
    return uplo == HYLA_LOWER
               ? blocked<T, true>(h, stream, dA, ldda, n, dinfo, col0)
               : blocked<T, false>(h, stream, dA, ldda, n, dinfo, col0);
}

} // namespace

extern "C" void hyla_cuda_potrf_tune(int block)
{
    block_cols = block > 0 ? (block + sb - 1) / sb * sb : HYLA_CUDA_POTRF_BLOCK;
}

extern "C" int hyla_cuda_dpotrf(cublasHandle_t handle, int uplo, int n,
                                double *dA, int ldda, int *dinfo, int col0)
{
    return potrf(handle, uplo, n, dA, ldda, dinfo, col0);
}

extern "C" int hyla_cuda_spotrf(cublasHandle_t handle, int uplo, int n,
                                float *dA, int ldda, int *dinfo, int col0)
{
    return potrf(handle, uplo, n, dA, ldda, dinfo, col0);
}

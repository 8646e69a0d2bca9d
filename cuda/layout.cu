// SPDX-License-Identifier: BSD-3-Clause
// Column-major matrix in host memory <-> row-major tile in device memory
// (gpu_d.h's hyla_cuda_dlap_to_tile, hyla_cuda_dtile_to_lap).
//
// A rectangle of the host matrix crosses the bus column-major into dwork
// (cudaMemcpy2DAsync, one call), and a kernel transposes between dwork and
// the tile: a column-major r-by-c block is the row-major c-by-r one.  The
// tile goes in rectangles of at most `work` elements.  Elements are moved,
// never computed on: the copy is exact (NaN payloads, -0, subnormals).
#include "gpu.h"
#include "gpu_check.h"

namespace
{

constexpr int side = 32, rows_per_pass = 8;

// Whether element (i, j) of a tile is in its uplo part.
__device__ bool kept(int uplo, int i, int j)
{
    return uplo == HYLA_LOWER ? i >= j : uplo == HYLA_UPPER ? i <= j : true;
}

// b[j*ldb + i] = a[i*lda + j] for i < m, j < n where (r0 + i, c0 + j) is
// in the uplo part of the tile: 32-by-32 blocks through shared memory
// (one column of padding against bank conflicts), reads and writes
// coalesced.
template <typename T>
__global__ void __launch_bounds__(side * rows_per_pass)
    transpose(int m, int n, const T *a, int lda, T *b, int ldb, int uplo,
              int r0, int c0)
{
    __shared__ T s[side][side + 1];
    int i0 = blockIdx.y * side, j0 = blockIdx.x * side;
    int tx = threadIdx.x, ty = threadIdx.y;
    for (int r = ty; r < side; r += rows_per_pass) {
        int i = i0 + r, j = j0 + tx;
        if (i < m && j < n) s[r][tx] = a[(size_t)i * lda + j];
    }
    __syncthreads();
    for (int r = ty; r < side; r += rows_per_pass) {
        int j = j0 + r, i = i0 + tx;
        if (i < m && j < n && kept(uplo, r0 + i, c0 + j))
            b[(size_t)j * ldb + i] = s[tx][r];
    }
}

template <typename T>
int launch(cudaStream_t st, int m, int n, const T *a, int lda, T *b, int ldb,
           int uplo, int r0, int c0)
{
    dim3 grid((n + side - 1) / side, (m + side - 1) / side);
    transpose<T><<<grid, dim3(side, rows_per_pass), 0, st>>>(
        m, n, a, lda, b, ldb, uplo, r0, c0);
    HYLA_CUDA_CHECK(cudaGetLastError());
    return 0;
}

int imin(int a, int b)
{
    return a < b ? a : b;
}

// Rows and columns of the rectangles of an m-by-n tile.
void pieces(int m, int n, size_t work, int *r, int *c)
{
    *r = (size_t)m < work ? m : (int)work;
    size_t cols = work / (size_t)*r;
    *c = cols < (size_t)n ? (int)cols : n;
}

// The r-by-c column-major block at Af (leading dimension lda) into or out
// of dwork (leading dimension r).
template <typename T>
int bus(cudaStream_t st, int r, int c, T *Af, int lda, T *dwork, int in)
{
    size_t row = sizeof(T) * r, pitch = sizeof(T) * lda;
    HYLA_CUDA_CHECK(in ? cudaMemcpy2DAsync(dwork, row, Af, pitch, row, c,
                                           cudaMemcpyHostToDevice, st)
                       : cudaMemcpy2DAsync(Af, pitch, dwork, row, row, c,
                                           cudaMemcpyDeviceToHost, st));
    return 0;
}

template <typename T>
int to_tile(cudaStream_t st, int m, int n, const T *Af, int lda, T *dT,
            int ldt, T *dwork, size_t work)
{
    if (m <= 0 || n <= 0) return 0;
    if (work == 0) return HYLA_ERR_CUDA;
    int r, c, rc;
    pieces(m, n, work, &r, &c);
    for (int j = 0; j < n; j += c)
        for (int i = 0; i < m; i += r) {
            int nr = imin(r, m - i), nc = imin(c, n - j);
            // dwork is row-major nc-by-nr; its transpose is the block.
            if ((rc = bus(st, nr, nc, (T *)Af + (size_t)j * lda + i, lda,
                          dwork, 1)) ||
                (rc = launch(st, nc, nr, dwork, nr, dT + (size_t)i * ldt + j,
                             ldt, HYLA_FULL, 0, 0)))
                return rc;
        }
    return 0;
}

// The other triangle of a block of Af stays as it is: the block comes in
// first, the triangle is written over it, and the block goes back.
template <typename T>
int to_lap(cudaStream_t st, int uplo, int m, int n, const T *dT, int ldt,
           T *Af, int lda, T *dwork, size_t work)
{
    if (m <= 0 || n <= 0) return 0;
    if (work == 0) return HYLA_ERR_CUDA;
    int r, c, rc;
    pieces(m, n, work, &r, &c);
    for (int j = 0; j < n; j += c)
        for (int i = 0; i < m; i += r) {
            int nr = imin(r, m - i), nc = imin(c, n - j);
            T *a = Af + (size_t)j * lda + i;
            // In stream order after the kernel; into pageable memory it
            // returns once done.
            if ((uplo != HYLA_FULL &&
                 (rc = bus(st, nr, nc, a, lda, dwork, 1))) ||
                (rc = launch(st, nr, nc, dT + (size_t)i * ldt + j, ldt, dwork,
                             nr, uplo, i, j)) ||
                (rc = bus(st, nr, nc, a, lda, dwork, 0)))
                return rc;
        }
    return 0;
}

} // namespace

extern "C" int hyla_cuda_dlap_to_tile(cudaStream_t s, int m, int n,
                                      const double *Af, int lda, double *dT,
                                      int ldt, double *dwork, size_t work)
{
    return to_tile(s, m, n, Af, lda, dT, ldt, dwork, work);
}

extern "C" int hyla_cuda_slap_to_tile(cudaStream_t s, int m, int n,
                                      const float *Af, int lda, float *dT,
                                      int ldt, float *dwork, size_t work)
{
    return to_tile(s, m, n, Af, lda, dT, ldt, dwork, work);
}

extern "C" int hyla_cuda_dtile_to_lap(cudaStream_t s, int uplo, int m, int n,
                                      const double *dT, int ldt, double *Af,
                                      int lda, double *dwork, size_t work)
{
    return to_lap(s, uplo, m, n, dT, ldt, Af, lda, dwork, work);
}

extern "C" int hyla_cuda_stile_to_lap(cudaStream_t s, int uplo, int m, int n,
                                      const float *dT, int ldt, float *Af,
                                      int lda, float *dwork, size_t work)
{
    return to_lap(s, uplo, m, n, dT, ldt, Af, lda, dwork, work);
}

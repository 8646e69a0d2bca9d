// SPDX-License-Identifier: BSD-3-Clause
// The GPU row-interchange kernel alone.  @precisions d -> s
#include "check.h"
#include "cpu_d.h"
#include "gpu.h"
#include "gpu_harness.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// Checks hyla_cuda_dlaswp against the CPU kernel hyla_cpu_dlaswp_panel,
// bit for bit: tile columns of 1 to 20 tiles (a short last one), widths
// below, at and above the kernels' 128- and 256-column blocks, forward and
// backward interchanges, pivots anywhere below their row (other tiles
// included, a row picked twice), a first row other than 0, rows on and off
// 16-byte boundaries; one interchange and 2000 rows per column (serial
// kernel), 2 to 2048 interchanges (permutation kernel; 2048, its most, also
// on a column only a little taller), a column too tall for the
// permutation's table (serial again); and a column of too many tiles is
// refused.
// Exits 77 (SKIP) without a GPU.  Run it under compute-sanitizer
// (memcheck, racecheck) on a GPU machine.

static int run(int ntiles, int mb, int m, int n, int kb, int row0, int inc,
               int pad, int seed)
{
    int ld = n + pad; // pad 3: rows off 16-byte boundaries
    size_t tile_elems = (size_t)mb * ld;
    double *host = malloc(sizeof(double) * tile_elems * ntiles);
    double *want = malloc(sizeof(double) * tile_elems * ntiles);
    hyla_check_dgen((int)tile_elems, ntiles, host, (int)tile_elems, seed);
    memcpy(want, host, sizeof(double) * tile_elems * ntiles);

    // Pivots as getrf leaves them: row i goes with a row p >= i.
    int *ipiv = malloc(sizeof(int) * kb);
    unsigned s = 12345u * (unsigned)seed + 1;
    for (int i = 0; i < kb; i++) {
        s = s * 1664525u + 1013904223u;
        int p = i + (int)((s >> 8) % (unsigned)(m - i));
        ipiv[i] = row0 + p + 1;
    }

    double *tile[ntiles], *dtile[ntiles];
    for (int t = 0; t < ntiles; t++) {
        tile[t] = want + t * tile_elems;
        if (cudaMalloc((void **)&dtile[t], sizeof(double) * tile_elems) ||
            cudaMemcpy(dtile[t], host + t * tile_elems,
                       sizeof(double) * tile_elems, cudaMemcpyHostToDevice))
            return th_check(0, "cudaMalloc/cudaMemcpy failed");
    }
    int *dipiv;
    cudaMalloc((void **)&dipiv, sizeof(int) * kb);
    cudaMemcpy(dipiv, ipiv, sizeof(int) * kb, cudaMemcpyHostToDevice);

    hyla_dpanel_t P = {.tile = tile, .mb = mb, .m = m, .n = n, .ld = ld};
    hyla_cpu_dlaswp_panel(&P, row0, ipiv, 0, kb, inc);
    int rc = hyla_cuda_dlaswp(dtile, ntiles, mb, m, n, ld, dipiv, 0, kb, row0,
                              inc, 0);
    int sync = cudaDeviceSynchronize();
    for (int t = 0; t < ntiles; t++) {
        cudaMemcpy(host + t * tile_elems, dtile[t], sizeof(double) * tile_elems,
                   cudaMemcpyDeviceToHost);
        cudaFree(dtile[t]);
    }
    cudaFree(dipiv);
    // Rows beyond m in the last tile are padding: compare the m rows only,
    // the padding columns included (they must not move either).
    int same = 1;
    for (int r = 0; r < m; r++)
        same &= !memcmp(
            host + (size_t)(r / mb) * tile_elems + (size_t)(r % mb) * ld,
            want + (size_t)(r / mb) * tile_elems + (size_t)(r % mb) * ld,
            sizeof(double) * ld);
    char note[80];
    snprintf(note, sizeof note, "tiles=%d mb=%d kb=%d row0=%d inc=%d ld=%d",
             ntiles, mb, kb, row0, inc, ld);
    th_row("dlaswp_gpu", m, n, mb, 0.0, 0.0, 0.0, rc == 0 && sync == 0 && same,
           note);
    free(host);
    free(want);
    free(ipiv);
    return 0;
}

int main(void)
{
    th_begin("dlaswp (GPU kernel)");
    if (!th_gpu_start(NULL)) return th_end();
    int seed = 1;
    // Rows off 16-byte boundaries (pad 3), then on them (pad 0): the
    // kernel moves 16 bytes a thread where it can.
    for (int pad = 3; pad >= 0; pad -= 3) {
        for (int inc = 1; inc >= -1; inc -= 2) {
            run(1, 8, 8, 8, 8, 0, inc, pad, seed++);
            run(3, 16, 40, 16, 16, 32, inc, pad, seed++);
            run(4, 100, 350, 257, 100, 500, inc, pad, seed++);
            run(10, 64, 600, 64, 64, 0, inc, pad, seed++);
            run(12, 32, 380, 128, 32, 64, inc, pad, seed++);
            run(2, 256, 300, 300, 256, 1024, inc, pad, seed++);
            run(8, 256, 2000, 40, 1, 0, inc, pad, seed++);
            run(8, 512, 4000, 513, 512, 512, inc, pad, seed++);
            run(20, 1024, 20000, 1024, 1024, 0, inc, pad, seed++);
            run(1, 100000, 100000, 8, 64, 0, inc, pad, seed++);
            run(16, 2048, 32768, 70, 2048, 0, inc, pad, seed++);
            run(2, 2048, 2100, 33, 2048, 4096, inc, pad, seed++);
            run(5, 40, 200, 9, 2, 0, inc, pad, seed++);
        }
    }
    // A column of more tiles than one call takes is refused, untouched.
    double *dummy[HYLA_CUDA_LASWP_MAXTILES + 1] = {0};
    th_check(hyla_cuda_dlaswp(dummy, HYLA_CUDA_LASWP_MAXTILES + 1, 1,
                              HYLA_CUDA_LASWP_MAXTILES + 1, 4, 4, NULL, 0, 1, 0,
                              1, 0) == HYLA_ERR_NOT_SUPPORTED,
             "too many tiles: not refused");
    return th_end();
}

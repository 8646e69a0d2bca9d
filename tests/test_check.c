// SPDX-License-Identifier: BSD-3-Clause
// The test matrices themselves: built over threads, they hold the same
// entries as one thread's (a matrix's entries are those of its columns
// laid end to end, generated as one column); the SPD matrix is symmetric
// with its diagonal shifted by n; the threaded copy equals memcpy.
#include "check.h"
#include "check_par.h"
#include "harness.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// m x n (lda m) against the m*n x 1 column of the same seed, which is one
// slice: every entry equal, bit for bit.
static void same_as_one_column(int m, int n, int seed)
{
    size_t count = (size_t)m * n;
    double *A = malloc(sizeof(double) * count);
    double *v = malloc(sizeof(double) * count);
    float *As = malloc(sizeof(float) * count);
    float *vs = malloc(sizeof(float) * count);
    if (!th_check(A && v && As && vs, "out of memory")) goto done;
    hyla_check_dgen(m, n, A, m, seed);
    hyla_check_dgen((int)count, 1, v, (int)count, seed);
    hyla_check_sgen(m, n, As, m, seed);
    hyla_check_sgen((int)count, 1, vs, (int)count, seed);
    int ok = !memcmp(A, v, sizeof(double) * count) &&
             !memcmp(As, vs, sizeof(float) * count);
    char note[64];
    snprintf(note, sizeof note, "seed %d", seed);
    th_row("gen", m, n, 0, 0, 0, ok ? 0.0 : 1.0, ok, note);
done:
    free(A), free(v), free(As), free(vs);
}

// Symmetric to the bit, diagonal |a| + n, entries off it in [-1, 1).
static void spd(int n, int seed)
{
    double *A = malloc(sizeof(double) * n * n);
    if (!th_check(A != NULL, "out of memory")) return;
    hyla_check_dgen_spd(n, A, n, seed);
    int ok = 1;
    for (int j = 0; j < n && ok; j++)
        for (int i = 0; i < n && ok; i++) {
            double a = A[(size_t)j * n + i];
            ok = a == A[(size_t)i * n + j] &&
                 (i == j ? a >= n && a <= n + 1 : a >= -1 && a < 1);
        }
    th_row("gen_spd", n, n, 0, 0, 0, ok ? 0.0 : 1.0, ok, "");
    free(A);
}

// Bytes not a multiple of the slices, odd offsets.
static void copy(size_t bytes)
{
    unsigned char *src = malloc(bytes + 1), *dst = malloc(bytes + 3);
    if (!th_check(src && dst, "out of memory")) goto done;
    for (size_t i = 0; i <= bytes; i++)
        src[i] = (unsigned char)(i * 2654435761u >> 13);
    memset(dst, 0xa5, bytes + 3);
    hyla_check_memcpy(dst + 1, src + 1, bytes - 1);
    int ok = !memcmp(dst + 1, src + 1, bytes - 1) && dst[0] == 0xa5 &&
             dst[bytes] == 0xa5;
    th_row("memcpy", (int)(bytes >> 20), 1, 0, 0, 0, ok ? 0.0 : 1.0, ok, "MiB");
done:
    free(src), free(dst);
}

int main(void)
{
    th_begin("check");
    same_as_one_column(1000, 1000, 1); // below the threads' grain
    same_as_one_column(3001, 1777, 7); // several slices
    same_as_one_column(1, 3000000, 3); // a slice of many columns
    spd(300, 2);
    spd(2500, 5); // threaded
    copy((size_t)1 << 20);
    copy(((size_t)300 << 20) + 12345); // several slices
    return th_end();
}

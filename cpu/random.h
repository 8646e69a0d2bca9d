// SPDX-License-Identifier: BSD-3-Clause
// Counter-based random numbers (splitmix64's finalizer of a counter): a
// value depends on its seed and index only, so a seed gives the same
// numbers on every machine, whatever the tiles, the workers or the order
// of the tasks.  The GPU kernel (cuda/plrnt.cu) compiles the same
// functions, so both give the same bits.
#ifndef HYLA_CPU_RANDOM_H
#define HYLA_CPU_RANDOM_H

#include <stdint.h>

#ifdef __CUDACC__
#define HYLA_RANDOM_FN static inline __host__ __device__
#else
#define HYLA_RANDOM_FN static inline
#endif

enum { HYLA_RANDOM_ROW_SHIFT = 32 };

// Output of splitmix64 for the state x: a bijective mix of its bits.
HYLA_RANDOM_FN uint64_t hyla_splitmix64(uint64_t x)
{
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9u;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebu;
    return x ^ (x >> 31);
}

// Value k (k >= 1) of the stream that starts at state seed.
HYLA_RANDOM_FN uint64_t hyla_random_bits(uint64_t seed, uint64_t k)
{
    return hyla_splitmix64(seed + k * 0x9e3779b97f4a7c15u);
}

// The top 53 bits of z as a double uniform in [-0.5, 0.5).
HYLA_RANDOM_FN double hyla_random_half(uint64_t z)
{
    return (double)(z >> 11) * 0x1p-53 - 0.5;
}

// Entry (row, col) of the random matrix of seed (hyla_dplrnt_tile): value
// row * 2^32 + col + 1 of the seed's own stream.
HYLA_RANDOM_FN double hyla_random_entry(uint64_t seed, int row, int col)
{
    uint64_t k =
        (uint64_t)(uint32_t)row << HYLA_RANDOM_ROW_SHIFT | (uint32_t)col;
    return hyla_random_half(
        hyla_random_bits(hyla_splitmix64(seed ^ 0xd1b54a32d192ed03u), k + 1));
}

#endif // HYLA_CPU_RANDOM_H

// SPDX-License-Identifier: BSD-3-Clause
// Operation flags and small helpers shared by every layer, with CBLAS's values
// so that a cast translates them.
#ifndef HYLA_CPU_FLAGS_H
#define HYLA_CPU_FLAGS_H

enum {
    HYLA_FULL = 0, // a whole tile, in copies that may take one triangle
    HYLA_NO_TRANS = 111,
    HYLA_TRANS = 112,
    HYLA_UPPER = 121,
    HYLA_LOWER = 122,
    HYLA_NON_UNIT = 131,
    HYLA_UNIT = 132,
    HYLA_LEFT = 141,
    HYLA_RIGHT = 142
};

static inline int hyla_imin(int a, int b)
{
    return a < b ? a : b;
}
static inline int hyla_imax(int a, int b)
{
    return a > b ? a : b;
}

#endif // HYLA_CPU_FLAGS_H

// SPDX-License-Identifier: BSD-3-Clause
// hyla_dplrnt_tile, hyla_dplgsy_tile: entry points.  @precisions d -> s
#include "algorithms_d.h"

#include <limits.h>

static int generate(const char *r, int pos, hyla_desc_t *A, int i0, int j0,
                    unsigned long long seed, int sym, double bump)
{
    int rc;
    if ((rc = hyla_rt_check_init(r)) ||
        (rc = hyla_rt_check_desc_any(r, pos, A, HYLA_DOUBLE)))
        return rc;
    // Row and column indices are ints: i0 + m and j0 + n too.
    if (i0 < 0 || i0 > INT_MAX - A->m)
        return hyla_rt_error(-(pos + 1),
                             "%s: i0 = %d is negative, or i0 + %d rows "
                             "exceeds INT_MAX",
                             r, i0, A->m);
    if (j0 < 0 || j0 > INT_MAX - A->n)
        return hyla_rt_error(-(pos + 2),
                             "%s: j0 = %d is negative, or j0 + %d columns "
                             "exceeds INT_MAX",
                             r, j0, A->n);
    hyla_seq_t seq;
    hyla_rt_seq_init_on(&seq, 0, A);
    hyla_pdplrnt(A, i0, j0, seed, sym, bump, &seq);
    return hyla_rt_seq_wait(&seq);
}

HYLA_EXPORT int hyla_dplrnt_tile(hyla_desc_t *A, int i0, int j0,
                                 unsigned long long seed)
{
    return generate("hyla_dplrnt_tile", 1, A, i0, j0, seed, 0, 0.0);
}

HYLA_EXPORT int hyla_dplgsy_tile(double bump, hyla_desc_t *A, int i0, int j0,
                                 unsigned long long seed)
{
    return generate("hyla_dplgsy_tile", 2, A, i0, j0, seed, 1, bump);
}

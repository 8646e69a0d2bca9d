// SPDX-License-Identifier: BSD-3-Clause
// A tile of a random matrix.  @precisions d -> s
#include "cpu_d.h"
#include "random.h"

void hyla_cpu_dplrnt(int m, int n, double *T, int ldt, int i0, int j0,
                     unsigned long long seed, int sym, double bump)
{
    for (int i = 0; i < m; i++) {
        int r = i0 + i;
        double *t = T + (size_t)i * ldt;
        // The symmetric matrix takes the entries above its diagonal from
        // below it.
        for (int j = 0; j < n; j++) {
            int c = j0 + j;
            t[j] = (double)(sym && c > r ? hyla_random_entry(seed, c, r)
                                         : hyla_random_entry(seed, r, c));
        }
        if (sym && r >= j0 && r - j0 < n) t[r - j0] += bump;
    }
}

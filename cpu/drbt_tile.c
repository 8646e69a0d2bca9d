// SPDX-License-Identifier: BSD-3-Clause
// Random butterfly transforms on row-major tiles.  @precisions d -> s
#include "cpu_d.h"
#include "random.h"

#include <math.h>
#include <stdint.h>

// A butterfly of order s: B = [R0 R1; R0 -R1] / s2 (s2 the square root
// of 2), R0 and R1 diagonal of order s/2.  Element i of the top half
// pairs with element i of the bottom half; r0, r1 (c0, c1) are their
// weights.

void hyla_cpu_drbt_two_sided(int m, int n, double *A11, double *A12,
                             double *A21, double *A22, int ld, const double *r0,
                             const double *r1, const double *c0,
                             const double *c1)
{
    // B^T [a b; c d] C: the product of the two 1/s2 is 1/2.
    for (int i = 0; i < m; i++) {
        size_t o = (size_t)i * ld;
        double *p = A11 + o, *q = A12 + o, *s = A21 + o, *t = A22 + o;
        double h0 = 0.5 * r0[i], h1 = 0.5 * r1[i];
        for (int j = 0; j < n; j++) {
            double sp = p[j] + q[j], sm = p[j] - q[j];
            double tp = s[j] + t[j], tm = s[j] - t[j];
            p[j] = h0 * c0[j] * (sp + tp);
            q[j] = h0 * c1[j] * (sm + tm);
            s[j] = h1 * c0[j] * (sp - tp);
            t[j] = h1 * c1[j] * (sm - tm);
        }
    }
}

void hyla_cpu_drbt_two_levels(int m, int n, int ld, double *const A[16],
                              const double *const w[16])
{
    const double *const *ri = w, *const *ro = w + 4, *const *ci = w + 8,
                        *const *co = w + 12;
    for (int i = 0; i < m; i++) {
        size_t o = (size_t)i * ld;
        // Row weights of tile row k, inner and outer; the four 1/s2 of
        // the levels' B and C go into the inner ones.
        double a[4][2];
        for (int k = 0; k < 4; k++) {
            a[k][0] = 0.25 * ri[k][i];
            a[k][1] = ro[k][i];
        }
        for (int j = 0; j < n; j++) {
            double x[4][4];
            for (int k = 0; k < 4; k++)
                for (int l = 0; l < 4; l++)
                    x[k][l] = A[4 * k + l][o + j];
            // A C_inner C_outer on each tile row, then B_inner^T and
            // B_outer^T on each tile column.
            for (int k = 0; k < 4; k++) {
                double p = ci[0][j] * (x[k][0] + x[k][1]);
                double q = ci[1][j] * (x[k][0] - x[k][1]);
                double r = ci[2][j] * (x[k][2] + x[k][3]);
                double s = ci[3][j] * (x[k][2] - x[k][3]);
                x[k][0] = co[0][j] * (p + r);
                x[k][2] = co[2][j] * (p - r);
                x[k][1] = co[1][j] * (q + s);
                x[k][3] = co[3][j] * (q - s);
            }
            for (int l = 0; l < 4; l++) {
                double p = a[0][0] * (x[0][l] + x[1][l]);
                double q = a[1][0] * (x[0][l] - x[1][l]);
                double r = a[2][0] * (x[2][l] + x[3][l]);
                double s = a[3][0] * (x[2][l] - x[3][l]);
                A[l][o + j] = a[0][1] * (p + r);
                A[8 + l][o + j] = a[2][1] * (p - r);
                A[4 + l][o + j] = a[1][1] * (q + s);
                A[12 + l][o + j] = a[3][1] * (q - s);
            }
        }
    }
}

void hyla_cpu_drbt_rows(int trans, int m, int n, double *X1, double *X2, int ld,
                        const double *r0, const double *r1)
{
    const double h = sqrt(0.5);
    for (int i = 0; i < m; i++) {
        double *x = X1 + (size_t)i * ld, *y = X2 + (size_t)i * ld;
        double a = h * r0[i], b = h * r1[i];
        if (trans == HYLA_TRANS) {
            // B^T [x; y] = [R0 (x + y); R1 (x - y)] / s2
            for (int j = 0; j < n; j++) {
                double u = x[j], v = y[j];
                x[j] = a * (u + v);
                y[j] = b * (u - v);
            }
        } else {
            // B [x; y] = [R0 x + R1 y; R0 x - R1 y] / s2
            for (int j = 0; j < n; j++) {
                double u = a * x[j], v = b * y[j];
                x[j] = u + v;
                y[j] = u - v;
            }
        }
    }
}

void hyla_cpu_drbt_random(unsigned long long seed, size_t count, double *w)
{
    for (size_t i = 0; i < count; i++)
        w[i] = exp(hyla_random_half(hyla_random_bits(seed, i + 1)) / 10);
}

// SPDX-License-Identifier: BSD-3-Clause
// The tile size of a call that neither the configuration nor a tuning file
// sets (hyla_nb_rule, runtime.h): in native mode 2048 for the Cholesky from
// order 4096, for the RBT solve from 8192 and for the LU from 32768; the
// machine's default below those orders and in every other mode.  That
// hyla_tuned takes the configured nb and the tuning file's entries first is
// checked by test_tuning.
#include "harness.h"
#include "runtime.h"

int main(void)
{
    th_begin("tile size rule");
    static const struct {
        hyla_tune_t r;
        hyla_mode_t mode;
        int n, dnb, want;
    } cases[] = {
        {HYLA_TUNE_POTRF, HYLA_MODE_NATIVE, 4095, 1024, 1024},
        {HYLA_TUNE_POTRF, HYLA_MODE_NATIVE, 4096, 1024, 2048},
        {HYLA_TUNE_POTRF, HYLA_MODE_NATIVE, 118784, 1024, 2048},
        {HYLA_TUNE_GETRF, HYLA_MODE_NATIVE, 16384, 1024, 1024},
        {HYLA_TUNE_GETRF, HYLA_MODE_NATIVE, 32767, 1024, 1024},
        {HYLA_TUNE_GETRF, HYLA_MODE_NATIVE, 32768, 1024, 2048},
        {HYLA_TUNE_GETRF, HYLA_MODE_NATIVE, 65536, 1024, 2048},
        {HYLA_TUNE_RBT, HYLA_MODE_NATIVE, 8191, 1024, 1024},
        {HYLA_TUNE_RBT, HYLA_MODE_NATIVE, 8192, 1024, 2048},
        {HYLA_TUNE_RBT, HYLA_MODE_NATIVE, 32768, 1024, 2048},
        {HYLA_TUNE_GETRF, HYLA_MODE_NATIVE, 0, 1024, 1024},
        // the CPU panel of hybrid mode would take twice the work per step
        {HYLA_TUNE_GETRF, HYLA_MODE_HYBRID, 65536, 1024, 1024},
        {HYLA_TUNE_POTRF, HYLA_MODE_HYBRID, 65536, 1024, 1024},
        {HYLA_TUNE_GETRF, HYLA_MODE_CPU, 65536, 320, 320},
        {HYLA_TUNE_POTRF, HYLA_MODE_CPU, 65536, 512, 512},
        {HYLA_TUNE_RBT, HYLA_MODE_AUTO, 65536, 512, 512},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int got =
            hyla_nb_rule(cases[i].r, cases[i].mode, cases[i].n, cases[i].dnb);
        th_check(got == cases[i].want,
                 "routine %d, mode %d, n %d, default %d: nb %d, want %d",
                 (int)cases[i].r, (int)cases[i].mode, cases[i].n, cases[i].dnb,
                 got, cases[i].want);
    }
    return th_end();
}

// SPDX-License-Identifier: BSD-3-Clause
// Which calls place their GPU tasks by the cyclic mapping
// (hyla_cyclic_rule, runtime.h): scheduler never; cyclic whenever there is
// a GPU; auto only on two GPUs or more, and only for tiles larger than the
// GPUs' memory together, never where that memory is not known.  The
// out-of-core factorizations that take it are checked by test_evict on 2
// GPUs (gpu suite).
#include "harness.h"
#include "runtime.h"

#include <stdint.h>

int main(void)
{
    th_begin("mapping rule");
    const size_t G = (size_t)80 << 30; // one GPU's memory
    static const struct {
        hyla_mapping_t m;
        int ngpus;
        size_t bytes, gpu_bytes;
        int want;
    } cases[] = {
        {HYLA_MAP_SCHEDULER, 2, 4 * G, 2 * G, 0},
        {HYLA_MAP_SCHEDULER, 0, 1, 0, 0},
        {HYLA_MAP_CYCLIC, 0, 4 * G, 0, 0},
        {HYLA_MAP_CYCLIC, 1, 1, G, 1},
        {HYLA_MAP_CYCLIC, 4, 1, 4 * G, 1},
        {HYLA_MAP_AUTO, 0, 4 * G, 0, 0},
        {HYLA_MAP_AUTO, 1, 4 * G, G, 0},   // one GPU: nothing to map
        {HYLA_MAP_AUTO, 2, G, 2 * G, 0},   // in core
        {HYLA_MAP_AUTO, 2, 2 * G, 2 * G, 0}, // exactly the memory
        {HYLA_MAP_AUTO, 2, 2 * G + 1, 2 * G, 1},
        {HYLA_MAP_AUTO, 4, SIZE_MAX, 4 * G, 1},
        {HYLA_MAP_AUTO, 2, 4 * G, 0, 0}, // memory not known
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int got = hyla_cyclic_rule(cases[i].m, cases[i].ngpus, cases[i].bytes,
                                   cases[i].gpu_bytes);
        th_check(got == cases[i].want,
                 "mapping %d, %d GPUs, %zu bytes, GPU memory %zu: cyclic %d, "
                 "want %d",
                 (int)cases[i].m, cases[i].ngpus, cases[i].bytes,
                 cases[i].gpu_bytes, got, cases[i].want);
    }
    return th_end();
}

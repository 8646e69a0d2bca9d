// SPDX-License-Identifier: BSD-3-Clause
// Which calls place their GPU tasks by the cyclic mapping
// (hyla_cyclic_rule, runtime.h): scheduler never; cyclic whenever there is
// a GPU; auto only on two GPUs or more, and there for an LU with GPU
// panels (native mode), or for tiles larger than the GPUs' memory
// together, never where that memory is not known.  The out-of-core
// factorizations that take it are checked by test_evict on 2 GPUs, the
// native LU by test_dgetrf_gpu2 (gpu suite).  And when the GPU panels gate
// their GPU (hyla_gate_rule): as asked, else in native mode on four GPUs
// or more.
#include "harness.h"
#include "runtime.h"

#include <stdint.h>

int main(void)
{
    th_begin("mapping rule");
    const size_t G = (size_t)80 << 30; // one GPU's memory
    static const struct {
        hyla_mapping_t m;
        int ngpus, gpu_panel;
        size_t bytes, gpu_bytes;
        int want;
    } cases[] = {
        {HYLA_MAP_SCHEDULER, 2, 0, 4 * G, 2 * G, 0},
        {HYLA_MAP_SCHEDULER, 4, 1, G, 4 * G, 0},
        {HYLA_MAP_SCHEDULER, 0, 0, 1, 0, 0},
        {HYLA_MAP_CYCLIC, 0, 0, 4 * G, 0, 0},
        {HYLA_MAP_CYCLIC, 0, 1, 1, 0, 0},
        {HYLA_MAP_CYCLIC, 1, 0, 1, G, 1},
        {HYLA_MAP_CYCLIC, 4, 0, 1, 4 * G, 1},
        {HYLA_MAP_AUTO, 0, 0, 4 * G, 0, 0},
        {HYLA_MAP_AUTO, 0, 1, 1, 0, 0},
        {HYLA_MAP_AUTO, 1, 0, 4 * G, G, 0}, // one GPU: nothing to map
        {HYLA_MAP_AUTO, 1, 1, G, G, 0},
        {HYLA_MAP_AUTO, 2, 0, G, 2 * G, 0},     // in core, CPU panels
        {HYLA_MAP_AUTO, 2, 1, G, 2 * G, 1},     // in core, GPU panels
        {HYLA_MAP_AUTO, 4, 1, 1, 0, 1},         // memory not known
        {HYLA_MAP_AUTO, 2, 0, 2 * G, 2 * G, 0}, // exactly the memory
        {HYLA_MAP_AUTO, 2, 0, 2 * G + 1, 2 * G, 1},
        {HYLA_MAP_AUTO, 4, 0, SIZE_MAX, 4 * G, 1},
        {HYLA_MAP_AUTO, 2, 0, 4 * G, 0, 0}, // memory not known
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int got =
            hyla_cyclic_rule(cases[i].m, cases[i].ngpus, cases[i].gpu_panel,
                             cases[i].bytes, cases[i].gpu_bytes);
        th_check(got == cases[i].want,
                 "mapping %d, %d GPUs, GPU panels %d, %zu bytes, GPU memory "
                 "%zu: cyclic %d, want %d",
                 (int)cases[i].m, cases[i].ngpus, cases[i].gpu_panel,
                 cases[i].bytes, cases[i].gpu_bytes, got, cases[i].want);
    }

    static const struct {
        int gate;
        hyla_mode_t mode;
        int ngpus, want;
    } gates[] = {
        {-1, HYLA_MODE_NATIVE, 1, 0}, // one GPU: the updates set the pace
        {-1, HYLA_MODE_NATIVE, 2, 0}, {-1, HYLA_MODE_NATIVE, 3, 0},
        {-1, HYLA_MODE_NATIVE, 4, 1}, {-1, HYLA_MODE_NATIVE, 8, 1},
        {-1, HYLA_MODE_HYBRID, 4, 0}, // CPU panels
        {-1, HYLA_MODE_CPU, 0, 0},    {0, HYLA_MODE_NATIVE, 4, 0},
        {1, HYLA_MODE_NATIVE, 1, 1},
    };
    for (size_t i = 0; i < sizeof gates / sizeof gates[0]; i++) {
        int got = hyla_gate_rule(gates[i].gate, gates[i].mode, gates[i].ngpus);
        th_check(got == gates[i].want,
                 "gpu_gate %d, mode %d, %d GPUs: %d, want %d", gates[i].gate,
                 (int)gates[i].mode, gates[i].ngpus, got, gates[i].want);
    }
    return th_end();
}

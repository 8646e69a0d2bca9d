// SPDX-License-Identifier: BSD-3-Clause
// hyla-bench --energy: the energy the GPUs (NVML) and the CPU packages
// (RAPL, /sys/class/powercap) used during the timed calls; without RAPL,
// and given a power per busy CPU, an estimate of the CPUs'.
#ifndef HYLA_EXAMPLES_ENERGY_H
#define HYLA_EXAMPLES_ENERGY_H

// Starts a thread that reads the energy counters every millisecond, with
// bench_now() times.  Where RAPL is not readable and cpu_watts > 0, the
// CPU figure is an estimate: the machine's busy CPU time (/proc/stat)
// times cpu_watts.  Returns 0, or -1 when no counter is readable (then
// every figure below is -1).  Prints which meters it found.
int energy_start(double cpu_watts);
// Where the CPU figures come from: "rapl", "estimate" or "none".
const char *energy_cpu_source(void);
void energy_stop(void);

// Starts the sum for one measurement: the timed calls marked from now on.
void energy_reset(void);
// The call that ran from t0 to t1 (bench_now() seconds) is counted.
void energy_mark(double t0, double t1);
// Joules of all GPUs of the node and of all CPU packages over the marked
// calls, divided by their count: the energy of one call; -1 if not
// measured.
void energy_per_call(double *gpu_j, double *cpu_j);

#endif // HYLA_EXAMPLES_ENERGY_H

// SPDX-License-Identifier: BSD-3-Clause
// CPU kernels: pointers, sizes and leading dimensions; no StarPU, no
// descriptors.  Tiles are row-major.
#ifndef HYLA_CPU_CPU_H
#define HYLA_CPU_CPU_H

#include "cpu_d.h"
#include "cpu_s.h"

#endif // HYLA_CPU_CPU_H

// SPDX-License-Identifier: BSD-3-Clause
// hyla: routines on GPU-resident data (installed with CUDA builds only).
// Include it besides <hyla.h>; it needs no CUDA header.
#ifndef HYLA_HYLA_CUDA_H
#define HYLA_HYLA_CUDA_H

#include <hyla/hyla_cuda_d.h>
#include <hyla/hyla_cuda_s.h>

#endif // HYLA_HYLA_CUDA_H

// SPDX-License-Identifier: BSD-3-Clause
// Tile algorithms, every precision.
#ifndef HYLA_RUNTIME_ALGORITHMS_H
#define HYLA_RUNTIME_ALGORITHMS_H

#include "algorithms_d.h"
#include "algorithms_s.h"

#endif // HYLA_RUNTIME_ALGORITHMS_H

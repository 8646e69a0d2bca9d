// SPDX-License-Identifier: BSD-3-Clause
// Test matrices and residuals, every precision.
#ifndef HYLA_TESTS_CHECK_H
#define HYLA_TESTS_CHECK_H

// Residuals at or below this pass (LAPACK's test programs use 30 to 60).
#define HYLA_CHECK_TOL 60.0

#include "check_d.h"
#include "check_s.h"

#endif // HYLA_TESTS_CHECK_H

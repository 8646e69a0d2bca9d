// SPDX-License-Identifier: BSD-3-Clause
// Task insertion functions called by the tile algorithms.
#ifndef HYLA_CODELETS_TASKS_H
#define HYLA_CODELETS_TASKS_H

#include "tasks_d.h"
#include "tasks_s.h"

#endif // HYLA_CODELETS_TASKS_H

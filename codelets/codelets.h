// SPDX-License-Identifier: BSD-3-Clause
// Codelet layer: the one place that knows both StarPU and the kernels.
#ifndef HYLA_CODELETS_CODELETS_H
#define HYLA_CODELETS_CODELETS_H

#include "glue.h"
#include "cpu.h"
#include "tasks.h"

#include <stdlib.h>

// A codelet with a fixed list of buffers and their access modes, and a
// history-based performance model named after it.
#define HYLA_CODELET(id, cpu_fn, nbuf, ...)                                    \
    static struct starpu_perfmodel id##_model = {.type = STARPU_HISTORY_BASED, \
                                                 .symbol = "hyla_" #id};       \
    static struct starpu_codelet cl_##id = {.cpu_funcs = {cpu_fn},             \
                                            .nbuffers = (nbuf),                \
                                            .modes = {__VA_ARGS__},            \
                                            .model = &id##_model,              \
                                            .name = #id}

// A codelet whose buffers and modes are given per task.
#define HYLA_CODELET_VARIADIC(id, cpu_fn)                                      \
    static struct starpu_perfmodel id##_model = {.type = STARPU_HISTORY_BASED, \
                                                 .symbol = "hyla_" #id};       \
    static struct starpu_codelet cl_##id = {.cpu_funcs = {cpu_fn},             \
                                            .nbuffers =                        \
                                                STARPU_VARIABLE_NBUFFERS,      \
                                            .model = &id##_model,              \
                                            .name = #id}

// Arguments of one task, freed by StarPU; NULL (and the sequence failed)
// when out of memory.
static inline void *hyla_cl_args(const hyla_task_opts_t *o, size_t size)
{
    void *a = malloc(size);
    if (!a) hyla_rt_seq_fail(o->seq, HYLA_ERR_OUT_OF_MEMORY);
    return a;
}

// Tile dimensions and pointers inside a codelet.
#define HYLA_TILE_PTR(buf)  ((void *)STARPU_MATRIX_GET_PTR(buf))
#define HYLA_TILE_ROWS(buf) ((int)STARPU_MATRIX_GET_NY(buf))
#define HYLA_TILE_COLS(buf) ((int)STARPU_MATRIX_GET_NX(buf))
#define HYLA_TILE_LD(buf)   ((int)STARPU_MATRIX_GET_LD(buf))

#endif // HYLA_CODELETS_CODELETS_H

// SPDX-License-Identifier: BSD-3-Clause
// hyla-bench's result rows, written as CSV and as JSON.
#ifndef HYLA_EXAMPLES_RESULTS_H
#define HYLA_EXAMPLES_RESULTS_H

#include <stdio.h>

enum { RESULT_COLUMNS = 39, RESULT_WIDTH = 48 };

// The columns, in order: names, and whether a column holds text (quoted
// in JSON) rather than a number.
extern const char *const result_names[RESULT_COLUMNS];

// One row: each column's value as text.
typedef struct {
    char v[RESULT_COLUMNS][RESULT_WIDTH];
} result_row_t;

// The files of a run (NULL: not asked for); each written row is flushed,
// so that a sweep stopped part way keeps what it finished (the JSON array
// closes in results_close).
typedef struct {
    FILE *csv, *json;
    int rows;
} results_t;

// 0, or 2 after a message when a file cannot be opened.
int results_open(results_t *r, const char *csv, const char *json);
void results_write(results_t *r, const result_row_t *row);
void results_close(results_t *r);

#endif // HYLA_EXAMPLES_RESULTS_H

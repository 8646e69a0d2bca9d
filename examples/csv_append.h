// SPDX-License-Identifier: BSD-3-Clause
// The benchmark tools' CSV files: appended to, so that several runs can
// gather their rows in one file.
#ifndef HYLA_EXAMPLES_CSV_APPEND_H
#define HYLA_EXAMPLES_CSV_APPEND_H

#include <stdio.h>

// path opened for appending, with the line `header` (and a newline)
// written first where the file is new or empty; NULL after perror.
FILE *csv_append(const char *path, const char *header);

#endif // HYLA_EXAMPLES_CSV_APPEND_H

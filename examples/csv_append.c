// SPDX-License-Identifier: BSD-3-Clause
// The benchmark tools' CSV files (csv_append.h).
#include "csv_append.h"

FILE *csv_append(const char *path, const char *header)
{
    FILE *f = fopen(path, "a");
    if (!f) {
        perror(path);
        return NULL;
    }
    // "a" leaves the position unspecified until the first write.
    if (fseek(f, 0, SEEK_END) == 0 && ftell(f) == 0) fprintf(f, "%s\n", header);
    return f;
}

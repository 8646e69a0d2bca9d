// SPDX-License-Identifier: BSD-3-Clause
// hyla-bench's result rows, written as CSV and as JSON.
#include "results.h"

#include "csv_append.h"

#include <string.h>

const char *const result_names[RESULT_COLUMNS] = {"routine",
                                                  "prec",
                                                  "m",
                                                  "n",
                                                  "nrhs",
                                                  "nb",
                                                  "lookahead",
                                                  "panel_threads",
                                                  "mode",
                                                  "ncpu",
                                                  "ngpu",
                                                  "scheduler",
                                                  "api",
                                                  "hyla_s_min",
                                                  "hyla_s_median",
                                                  "hyla_gflops",
                                                  "ref",
                                                  "ref_s_min",
                                                  "ref_s_median",
                                                  "ref_gflops",
                                                  "ratio",
                                                  "residual",
                                                  "status",
                                                  "gpu_streams",
                                                  "mapping",
                                                  "trsm_inv",
                                                  "reserved_sms",
                                                  "panel_rows",
                                                  "hyla_gpu_j",
                                                  "hyla_cpu_j",
                                                  "ref_gpu_j",
                                                  "ref_cpu_j",
                                                  "rbt_depth",
                                                  "rbt_iter",
                                                  "seed",
                                                  "rbt_fallback",
                                                  "cpu_j_source",
                                                  "mode_asked",
                                                  "gpu_gate"};

static int is_text(int c)
{
    static const char *const text[] = {
        "routine", "prec",   "mode",    "scheduler",    "api",
        "ref",     "status", "mapping", "cpu_j_source", "mode_asked"};
    for (size_t i = 0; i < sizeof text / sizeof text[0]; i++)
        if (!strcmp(result_names[c], text[i])) return 1;
    return 0;
}

// The CSV is appended to (csv_append.h); the JSON array is written anew.
int results_open(results_t *r, const char *csv, const char *json)
{
    *r = (results_t){NULL, NULL, 0};
    char header[RESULT_COLUMNS * RESULT_WIDTH];
    size_t len = 0;
    for (int c = 0; c < RESULT_COLUMNS; c++)
        len += (size_t)snprintf(header + len, sizeof header - len, "%s%s",
                                c ? "," : "", result_names[c]);
    if (csv && !(r->csv = csv_append(csv, header))) return 2;
    if (json && !(r->json = fopen(json, "w"))) {
        perror(json);
        results_close(r);
        return 2;
    }
    if (r->json) fputs("[", r->json);
    return 0;
}

// A JSON string: the values are names and numbers, but quotes and
// backslashes are escaped all the same.
static void json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"' || *s == '\\') fputc('\\', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

void results_write(results_t *r, const result_row_t *row)
{
    for (int c = 0; r->csv && c < RESULT_COLUMNS; c++)
        fprintf(r->csv, "%s%c", row->v[c], c + 1 < RESULT_COLUMNS ? ',' : '\n');
    if (r->json) {
        fputs(r->rows ? ",\n {" : "\n {", r->json);
        for (int c = 0; c < RESULT_COLUMNS; c++) {
            fprintf(r->json, "%s\"%s\": ", c ? ", " : "", result_names[c]);
            const char *v = row->v[c];
            if (is_text(c))
                json_string(r->json, v);
            else if (strspn(v, "+-") < strlen(v) &&
                     strchr("ni", v[strspn(v, "+-")]))
                fputs("null", r->json); // nan, inf: not JSON numbers
            else
                fputs(v, r->json);
        }
        fputc('}', r->json);
    }
    r->rows++;
    if (r->csv) fflush(r->csv);
    if (r->json) fflush(r->json);
}

void results_close(results_t *r)
{
    if (r->csv) fclose(r->csv);
    if (r->json) {
        fputs("\n]\n", r->json);
        fclose(r->json);
    }
    r->csv = r->json = NULL;
}

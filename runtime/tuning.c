// SPDX-License-Identifier: BSD-3-Clause
// The tuning file: for each routine, precision, mode and order that
// `hyla-bench tune` measured, the tile size, lookahead and panel threads
// it found fastest.  hyla_init reads it; a call whose tile size or
// lookahead is left to hyla (nb 0, lookahead -1) takes them from the entry
// of the nearest order, or from the machine's defaults when the file has
// none for it.
//
// The format, one entry a line, '#' to the end of a line a comment:
//
//     routine prec mode n nb lookahead panel_threads [seconds]
//     getrf   d    cpu  4000 320 1 1 0.8123
//
// routine: getrf, potrf or gesv_rbt; prec: d or s; mode: cpu, hybrid or
// native; seconds (the measured time) is informative.
#include "runtime.h"
#include "glue.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    hyla_tune_t routine;
    hyla_dtype_t dtype;
    hyla_mode_t mode;
    int n, nb, lookahead, panel_threads;
} entry_t;

static struct {
    entry_t *e;
    int count, cap;
} table;

static const char *const routine_names[] = {"getrf", "potrf", "gesv_rbt"};

static int lookup(const char *s, const char *const *names, int count)
{
    for (int i = 0; i < count; i++)
        if (!strcmp(s, names[i])) return i;
    return -1;
}

static int to_int(const char *s, int lo, int *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || *end || v < lo || v > INT_MAX) return -1;
    *out = (int)v;
    return 0;
}

// One line's fields into *e: NULL, or what is wrong with them.
static const char *parse_entry(char **f, int nf, entry_t *e)
{
    if (nf < 7 || nf > 8)
        return "expected: routine prec mode n nb lookahead panel_threads "
               "[seconds]";
    int v = lookup(f[0], routine_names, 3);
    if (v < 0) return "routine must be getrf, potrf or gesv_rbt";
    e->routine = (hyla_tune_t)v;
    if (strcmp(f[1], "d") && strcmp(f[1], "s")) return "prec must be d or s";
    e->dtype = *f[1] == 'd' ? HYLA_DOUBLE : HYLA_FLOAT;
    v = lookup(f[2], hyla_rt_mode_names, 4);
    if (v < 1) return "mode must be cpu, hybrid or native";
    e->mode = (hyla_mode_t)v;
    if (to_int(f[3], 1, &e->n)) return "n must be an integer >= 1";
    if (to_int(f[4], 1, &e->nb)) return "nb must be an integer >= 1";
    if (to_int(f[5], 0, &e->lookahead))
        return "lookahead must be an integer >= 0";
    if (to_int(f[6], 1, &e->panel_threads))
        return "panel_threads must be an integer >= 1";
    char *end;
    if (nf == 8 && (strtod(f[7], &end) < 0 || *end))
        return "seconds must be a number >= 0";
    return NULL;
}

void hyla_rt_tuning_free(void)
{
    free(table.e);
    table.e = NULL;
    table.count = table.cap = 0;
}

int hyla_rt_tuning_load(const char *path)
{
    hyla_rt_tuning_free();
    if (!path) return 0;
    FILE *f = fopen(path, "r");
    if (!f)
        return hyla_rt_error(HYLA_ERR_TUNING, "hyla_init: tuning file %s: %s",
                             path, strerror(errno));
    char line[1024];
    int lineno = 0, rc = 0;
    while (!rc && fgets(line, sizeof line, f)) {
        lineno++;
        if (!strchr(line, '\n') && !feof(f)) {
            rc = hyla_rt_error(HYLA_ERR_TUNING,
                               "hyla_init: tuning file %s, line %d: longer "
                               "than %d characters",
                               path, lineno, (int)sizeof line - 2);
            break;
        }
        line[strcspn(line, "#")] = '\0';
        char *field[9], *save;
        int nf = 0;
        for (char *t = strtok_r(line, " \t\r\n", &save); t && nf < 9;
             t = strtok_r(NULL, " \t\r\n", &save))
            field[nf++] = t;
        if (!nf) continue;
        entry_t e;
        const char *why = parse_entry(field, nf, &e);
        if (why) {
            rc = hyla_rt_error(HYLA_ERR_TUNING,
                               "hyla_init: tuning file %s, line %d: %s", path,
                               lineno, why);
            break;
        }
        if (table.count == table.cap) {
            int cap = table.cap ? 2 * table.cap : 32;
            entry_t *grown = realloc(table.e, sizeof *grown * (size_t)cap);
            if (!grown) {
                rc =
                    hyla_rt_error(HYLA_ERR_OUT_OF_MEMORY,
                                  "hyla_init: tuning file %s: no memory", path);
                break;
            }
            table.e = grown;
            table.cap = cap;
        }
        table.e[table.count++] = e;
    }
    if (!rc && ferror(f))
        rc = hyla_rt_error(HYLA_ERR_TUNING,
                           "hyla_init: tuning file %s: read error", path);
    fclose(f);
    if (rc) hyla_rt_tuning_free();
    return rc;
}

// The entry of routine r, type t and mode mode whose order is nearest n
// (by ratio; the larger on a tie), or NULL.  Without an entry in type t,
// those of the other type; RBT's LU without pivoting without entries of
// its own, getrf's.
static const entry_t *nearest(hyla_tune_t r, hyla_dtype_t t, hyla_mode_t mode,
                              int n)
{
    for (int pass = 0; pass < 4; pass++) {
        hyla_tune_t rr = pass < 2 ? r : HYLA_TUNE_GETRF;
        hyla_dtype_t tt =
            pass % 2 ? (t == HYLA_DOUBLE ? HYLA_FLOAT : HYLA_DOUBLE) : t;
        const entry_t *best = NULL;
        double dist = 0.0;
        for (int i = 0; i < table.count; i++) {
            const entry_t *e = &table.e[i];
            if (e->routine != rr || e->dtype != tt || e->mode != mode) continue;
            double d = fabs(log((double)e->n / (n > 0 ? n : 1)));
            if (!best || d < dist || (d == dist && e->n > best->n)) {
                best = e;
                dist = d;
            }
        }
        if (best) return best;
    }
    return NULL;
}

void hyla_rt_tuned(hyla_tune_t r, hyla_dtype_t t, int n, int *nb,
                   int *lookahead)
{
    const hyla_config_t *c = hyla_rt_config();
    const entry_t *e = nearest(r, t, c->mode, n);
    int dnb, dla, dpt;
    hyla_rt_machine_defaults(c->mode, &dnb, &dla, &dpt);
    if (nb)
        *nb = c->nb > 0 ? c->nb : e ? e->nb : hyla_nb_rule(r, c->mode, n, dnb);
    if (lookahead)
        *lookahead = c->lookahead >= 0 ? c->lookahead : e ? e->lookahead : dla;
}

int hyla_rt_tuned_panel_threads(hyla_mode_t mode)
{
    // The panel is the critical path at large orders: the LU entry of the
    // largest order decides.
    const entry_t *best = NULL;
    for (int i = 0; i < table.count; i++) {
        const entry_t *e = &table.e[i];
        if (e->routine == HYLA_TUNE_GETRF && e->mode == mode &&
            (!best || e->n > best->n ||
             (e->n == best->n && e->dtype == HYLA_DOUBLE)))
            best = e;
    }
    return best ? best->panel_threads : 0;
}

HYLA_EXPORT int hyla_tuned(const char *routine, char prec, int n, int *nb,
                           int *lookahead)
{
    const char *r = "hyla_tuned";
    int rc;
    if ((rc = hyla_rt_check_init(r))) return rc;
    static const char *const names[] = {"getrf", "gesv", "potrf", "posv",
                                        "gesv_rbt"};
    static const hyla_tune_t ids[] = {HYLA_TUNE_GETRF, HYLA_TUNE_GETRF,
                                      HYLA_TUNE_POTRF, HYLA_TUNE_POTRF,
                                      HYLA_TUNE_RBT};
    int k = routine ? lookup(routine, names, 5) : -1;
    if (k < 0)
        return hyla_rt_error(-1,
                             "%s: routine '%s': expected getrf, gesv, potrf, "
                             "posv or gesv_rbt",
                             r, routine ? routine : "(null)");
    if (prec != 'd' && prec != 's')
        return hyla_rt_error(-2, "%s: prec must be 'd' or 's'", r);
    if ((rc = hyla_rt_check_dim(r, 3, "n", n))) return rc;
    hyla_rt_tuned(ids[k], prec == 'd' ? HYLA_DOUBLE : HYLA_FLOAT, n, nb,
                  lookahead);
    return HYLA_SUCCESS;
}

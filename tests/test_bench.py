#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""The benchmark driver's interface: a small run of every routine in both
precisions passes its residual checks and writes a CSV with the documented
columns, the same rows as JSON, and a loadable trace as JSON and as SVG
from one --trace; sweeps of nb,
lookahead, panel threads and CPU workers give a row per combination; the
batched routines run against LAPACK; --in-tiles factors matrices generated
in tiles and checks them by a solve; `tune` writes a tuning file with the
fastest run of each routine and order, keeps the entries it did not
measure again, and a run reading the file takes its tile sizes; the
tuning tables shipped in docs/tuning are well-formed; --help
exits 0; bad arguments exit 2 with a message on stderr.

Usage: test_bench.py HYLA-BENCH   (run from a scratch directory)
"""
import csv
import json
import os
import subprocess
import sys
import tempfile
from xml.etree import ElementTree

COLUMNS = ("routine,prec,m,n,nrhs,nb,lookahead,panel_threads,mode,ncpu,ngpu,"
           "scheduler,api,hyla_s_min,hyla_s_median,hyla_gflops,ref,ref_s_min,"
           "ref_s_median,ref_gflops,ratio,residual,status,gpu_streams,mapping,"
           "trsm_inv,reserved_sms,panel_rows,hyla_gpu_j,hyla_cpu_j,ref_gpu_j,"
           "ref_cpu_j,rbt_depth,rbt_iter,seed,rbt_fallback,cpu_j_source,"
           "mode_asked,gpu_gate").split(",")
ROUTINES = ["getrf", "potrf", "gesv", "posv", "gesv_rbt"]

failures = 0


def check(ok, what):
    global failures
    print(("ok   " if ok else "FAIL ") + what)
    failures += not ok


def fresh(path):
    """Removes path: --csv appends, and each check wants its rows only."""
    if os.path.exists(path):
        os.remove(path)


def run(bench, *args):
    return subprocess.run([bench, *args], capture_output=True, text=True,
                          timeout=600)


def main(bench):
    with tempfile.TemporaryDirectory() as tmp:
        out_csv = os.path.join(tmp, "out.csv")
        out_json = os.path.join(tmp, "trace.json")
        out_svg = os.path.join(tmp, "trace.svg")
        out_res = os.path.join(tmp, "out.json")
        r = run(bench, "-r", ",".join(ROUTINES), "-p", "d,s", "-n", "70",
                "--nb", "16", "--ncpus", "2", "--mode", "cpu", "--repeat",
                "2", "--csv", out_csv, "--json", out_res, "--trace", out_json + "," + out_svg)
        check(r.returncode == 0, "small run of every routine exits 0 "
              "(stderr: %s)" % r.stderr.strip()[-200:])
        with open(out_csv) as f:
            rows = list(csv.reader(f))
        check(rows and rows[0] == COLUMNS, "CSV header: the documented columns")
        body = [dict(zip(rows[0], row)) for row in rows[1:]]
        check(len(body) == 2 * len(ROUTINES),
              "CSV: one row per routine and precision (%d)" % len(body))
        check(all(len(row) == len(COLUMNS) for row in rows[1:]),
              "CSV: every row has every column")
        check(all(b["status"] == "ok" for b in body),
              "CSV: every residual passes")
        check(all(b["mode"] == "cpu" and b["mode_asked"] == "cpu" and
                  b["nb"] == "16" and b["n"] == "70"
                  for b in body), "CSV: the configuration asked for")
        check(all(b["gpu_gate"] == "0" for b in body),
              "CSV: no gate in cpu mode (gpu_gate in force)")
        check(all(0 < float(b["hyla_s_min"]) <= float(b["hyla_s_median"])
                  for b in body), "CSV: 0 < min <= median time")
        check(all(float(b["ref_s_min"]) > 0 and b["ref"] == "openblas"
                  for b in body), "CSV: the reference ran")
        with open(out_res) as f:
            res = json.load(f)
        check(isinstance(res, list) and len(res) == len(body) and
              all(list(x.keys()) == COLUMNS for x in res),
              "JSON: an array of the CSV's rows, the same keys")
        check(all(str(x["routine"]) == b["routine"] and
                  float(x["hyla_s_min"]) == float(b["hyla_s_min"]) and
                  x["n"] == int(b["n"]) for x, b in zip(res, body)),
              "JSON: the CSV's values")
        with open(out_json) as f:
            trace = json.load(f)
        events = trace.get("traceEvents", [])
        tasks = [e for e in events if e.get("cat") == "task"]
        check(tasks and all("tiles" in e.get("args", {}) for e in tasks),
              "trace: Chrome JSON with task events naming their tiles")
        svg = ElementTree.parse(out_svg).getroot()
        boxes = svg.findall("{http://www.w3.org/2000/svg}rect")
        check(svg.tag == "{http://www.w3.org/2000/svg}svg" and
              len(boxes) > len(tasks),
              "trace: the same run as an SVG timeline (%d boxes, %d tasks)"
              % (len(boxes), len(tasks)))

        fresh(out_csv)
        r = run(bench, "-r", "getrf", "-n", "70", "--nb", "16,32",
                "--lookahead", "1,2", "--ncpus", "2", "--mode", "cpu",
                "--repeat", "1", "--csv", out_csv)
        with open(out_csv) as f:
            sweep = list(csv.DictReader(f))
        check(r.returncode == 0 and
              [(b["nb"], b["lookahead"]) for b in sweep] ==
              [("16", "1"), ("16", "2"), ("32", "1"), ("32", "2")],
              "a sweep of nb and lookahead: one row per pair, in order")
        check(len({b["ref_s_min"] for b in sweep}) == 1,
              "a sweep: the reference measured once")
        fresh(out_csv)
        r = run(bench, "-r", "getrf", "-n", "70", "--nb", "16",
                "--panel-threads", "1,2", "--ncpus", "2", "--mode", "cpu",
                "--repeat", "1", "--no-ref", "--csv", out_csv)
        with open(out_csv) as f:
            sweep = list(csv.DictReader(f))
        check(r.returncode == 0 and
              [b["panel_threads"] for b in sweep] == ["1", "2"],
              "a sweep of panel threads: one row each")

        fresh(out_csv)
        r = run(bench, "-r", "getrf", "-n", "70", "--nb", "16",
                "--ncpus", "1,2", "--mode", "cpu", "--repeat", "1",
                "--csv", out_csv)
        with open(out_csv) as f:
            sweep = list(csv.DictReader(f))
        check(r.returncode == 0 and [b["ncpu"] for b in sweep] == ["1", "2"]
              and len({b["ref_s_min"] for b in sweep}) == 1,
              "a sweep of CPU workers: one row each, one reference")
        r = run(bench, "-r", "getrf", "-n", "70", "--nb", "16",
                "--ncpus", "2", "--mode", "cpu", "--repeat", "1", "--no-ref",
                "--csv", out_csv)
        with open(out_csv) as f:
            lines = f.read().splitlines()
        check(r.returncode == 0 and len(lines) == 4 and
              lines[0] == ",".join(COLUMNS) and
              lines.count(",".join(COLUMNS)) == 1,
              "--csv appends to a file: one header, the rows of both runs")

        fresh(out_csv)
        r = run(bench, "-r", "getrf_batched,getri_batched", "-p", "d,s",
                "-n", "1,7,40", "--batch", "9", "--ncpus", "2", "--mode",
                "cpu", "--repeat", "1", "--csv", out_csv)
        with open(out_csv) as f:
            rows = list(csv.DictReader(f))
        check(r.returncode == 0 and len(rows) == 12 and
              all(b["status"] == "ok" and float(b["ref_s_min"]) > 0 and
                  float(b["hyla_s_min"]) > 0 for b in rows),
              "batched routines: every residual passes, against LAPACK "
              "(rc %d, stderr: %s)" % (r.returncode, r.stderr.strip()[-200:]))

        fresh(out_csv)
        r = run(bench, "-r", "getrf", "-n", "70", "--nb", "16", "--ncpus",
                "2", "--mode", "auto", "--repeat", "1", "--no-ref", "--csv",
                out_csv)
        with open(out_csv) as f:
            rows = list(csv.DictReader(f))
        check(r.returncode == 0 and len(rows) == 1 and
              rows[0]["mode_asked"] == "auto" and rows[0]["mode"] == "cpu",
              "--mode auto: mode_asked auto, mode what it came to (cpu here)")

        fresh(out_csv)
        r = run(bench, "-r", "getrf,potrf", "-p", "d,s", "-n", "70,101",
                "--nb", "16", "--ncpus", "2", "--mode", "cpu", "--repeat",
                "1", "--in-tiles", "--no-ref", "--csv", out_csv)
        with open(out_csv) as f:
            rows = list(csv.DictReader(f))
        check(r.returncode == 0 and len(rows) == 8 and
              all(b["status"] == "ok" and b["api"] == "tile-gen" and
                  b["nb"] == "16" and float(b["hyla_s_min"]) > 0 and
                  0 <= float(b["residual"]) <= 60 for b in rows),
              "--in-tiles: getrf and potrf of generated tiles, checked by "
              "a solve (rc %d, stderr: %s)"
              % (r.returncode, r.stderr.strip()[-200:]))

        # Tile rows of 160 and 140: the check's products split over
        # threads (up to one per 64 rows and core).
        fresh(out_csv)
        r = run(bench, "-r", "getrf,potrf", "-p", "d,s", "-n", "300", "--nb",
                "160", "--ncpus", "2", "--mode", "cpu", "--repeat", "1",
                "--in-tiles", "--no-ref", "--csv", out_csv)
        with open(out_csv) as f:
            rows = list(csv.DictReader(f))
        check(r.returncode == 0 and len(rows) == 4 and
              all(b["status"] == "ok" and 0 <= float(b["residual"]) <= 60
                  for b in rows) and
              r.stdout.count("# --in-tiles n=300 residual: ") == 4 and
              all(r.stdout.count("# --in-tiles n=300: %s in " % phase) == 4
                  for phase in ("tiles allocated", "untimed run",
                                "timed run", "residual")),
              "--in-tiles: the check split over threads passes and says "
              "where its time went, phase by phase (rc %d)" % r.returncode)

        # The CPU energy estimate where RAPL is not readable: the busy CPU
        # time of the machine times --cpu-watts, so at most every CPU busy
        # for the call (plus a tick of slack) at that power.
        rapl = os.path.exists("/sys/class/powercap/intel-rapl:0/energy_uj")
        for watts in (None, "10"):
            fresh(out_csv)
            r = run(bench, "-r", "getrf", "-n", "1500", "--ncpus", "2",
                    "--mode", "cpu", "--repeat", "3", "--no-ref",
                    "--no-check", "--energy", "--csv", out_csv,
                    *(["--cpu-watts", watts] if watts else []))
            with open(out_csv) as f:
                row = list(csv.DictReader(f))[0]
            joules, t = float(row["hyla_cpu_j"]), float(row["hyla_s_median"])
            if rapl:
                ok = row["cpu_j_source"] == "rapl" and joules > 0
            elif watts:
                bound = 10.0 * os.cpu_count() * (3 * t + 0.05)
                ok = row["cpu_j_source"] == "estimate" and 0 < joules <= bound
            else:
                ok = row["cpu_j_source"] == "none" and joules == -1
            check(r.returncode == 0 and ok,
                  "--energy%s: CPU joules %.3g from %s (rc %d)"
                  % (" --cpu-watts " + watts if watts else "", joules,
                     row["cpu_j_source"], r.returncode))

        tuning = os.path.join(tmp, "tuning")
        with open(tuning, "w") as f:
            f.write("# an earlier entry, of another order\n"
                    "getrf d cpu 5000 48 1 1 1.0\n"
                    "getrf d cpu 70 99 1 1 1.0\n")
        fresh(out_csv)
        r = run(bench, "tune", "-r", "getrf,potrf", "-n", "40,70", "--nb",
                "8,16", "--lookahead", "1,2", "--ncpus", "2", "--mode", "cpu",
                "--repeat", "1", "--out", tuning, "--csv", out_csv)
        with open(out_csv) as f:
            rows = list(csv.DictReader(f))
        with open(tuning) as f:
            lines = [l.split() for l in f if not l.startswith("#")]
        check(r.returncode == 0 and len(rows) == 2 * 2 * 2 * 2,
              "tune: a run per routine, order, nb and lookahead (rc %d, "
              "stderr: %s)" % (r.returncode, r.stderr.strip()[-200:]))
        # The CSV rounds times, so runs may tie at the printed minimum:
        # the tool may keep any one of them.
        fastest = {}
        for b in rows:
            key = (b["routine"], b["n"])
            t = float(b["hyla_s_min"])
            if key not in fastest or t < fastest[key][0]:
                fastest[key] = (t, [])
            if t == fastest[key][0]:
                fastest[key][1].append([b["routine"], "d", "cpu", b["n"],
                                        b["nb"], b["lookahead"],
                                        b["panel_threads"]])
        kept = [l for l in lines if l[3] == "5000"]
        chosen = {(l[0], l[3]): l[:7] for l in lines if l[3] != "5000"}
        check(kept == [["getrf", "d", "cpu", "5000", "48", "1", "1", "1.0"]]
              and len(lines) == 1 + len(fastest) and
              sorted(chosen) == sorted(fastest) and
              all(chosen[k] in fastest[k][1] for k in fastest),
              "tune: the fastest run of each routine and order, the entry "
              "not measured again kept (%s)" % lines)
        fresh(out_csv)
        env_run = subprocess.run(
            [bench, "-r", "potrf", "-n", "69", "--ncpus", "2", "--mode",
             "cpu", "--repeat", "1", "--no-ref", "--csv", out_csv],
            capture_output=True, text=True, timeout=600,
            env=dict(os.environ, HYLA_TUNING=tuning))
        with open(out_csv) as f:
            rows = list(csv.DictReader(f))
        check(env_run.returncode == 0 and
              ("potrf", "70") in chosen and
              rows[0]["nb"] == chosen[("potrf", "70")][4] and
              rows[0]["lookahead"] == chosen[("potrf", "70")][5],
              "a run with HYLA_TUNING takes the nearest order's tile size "
              "and lookahead (%s)" % [(b["nb"], b["lookahead"]) for b in rows])
        with open(tuning, "a") as f:
            f.write("getrf d cpu 100 0 1 1\n")
        env_run = subprocess.run(
            [bench, "-r", "getrf", "-n", "50", "--no-ref"],
            capture_output=True, text=True, timeout=600,
            env=dict(os.environ, HYLA_TUNING=tuning))
        check(env_run.returncode != 0 and tuning in env_run.stderr,
              "a malformed tuning file: an error naming it (rc %d)"
              % env_run.returncode)

        shipped = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                               "..", "docs", "tuning")
        for name in sorted(os.listdir(shipped)):
            if name.endswith(".md"):
                continue
            env_run = subprocess.run(
                [bench, "-r", "getrf", "-n", "50", "--ncpus", "2", "--mode",
                 "cpu", "--repeat", "1", "--no-ref"],
                capture_output=True, text=True, timeout=600,
                env=dict(os.environ,
                         HYLA_TUNING=os.path.join(shipped, name)))
            check(env_run.returncode == 0,
                  "the shipped tuning table %s is read (stderr: %s)"
                  % (name, env_run.stderr.strip()[-200:]))

        r = run(bench, "--help")
        check(r.returncode == 0 and "Usage" in r.stdout, "--help exits 0")
        for args, what in [(["--bogus"], "an unknown flag"),
                           (["--mode", "fast"], "an unknown mode"),
                           (["--mode", "cpu,fast"], "a mode list with a bad one"),
                           (["-n", "abc"], "a size that is not a number"),
                           (["--nb", "0"], "a tile size below 1"),
                           (["--nb", "16,x"], "a list with a bad value"),
                           (["-p", "q", "-n", "8"], "an unknown precision"),
                           (["-r", "lu", "-n", "8", "--no-ref"],
                            "an unknown routine"),
                           (["--ref", "mkl"], "an unknown reference"),
                           (["--json"], "--json without a file"),
                           (["--out", "x"], "--out without tune"),
                           (["tune", "-r", "gesv", "-n", "8"],
                            "tune of a routine without entries"),
                           (["tune", "--mode", "cpu,hybrid", "-n", "8"],
                            "tune of two modes"),
                           (["--batch", "-1"], "a negative batch"),
                           (["--cpu-watts", "0"], "a power of 0 W"),
                           (["--in-tiles", "-n", "8"],
                            "--in-tiles with a reference"),
                           (["--in-tiles", "-r", "gesv", "--no-ref"],
                            "--in-tiles of a solve"),
                           (["extra"], "a stray argument")]:
            r = run(bench, *args)
            check(r.returncode == 2 and r.stderr.strip() != "",
                  "%s exits 2 with a message (rc %d)" % (what, r.returncode))
    print("%d failed" % failures)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))

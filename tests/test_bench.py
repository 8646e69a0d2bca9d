#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""The benchmark driver's interface: a small run of every routine in both
precisions passes its residual checks and writes a CSV with the documented
columns, the same rows as JSON, and a loadable trace; sweeps of nb,
lookahead and panel threads give a row per combination; --help exits 0; bad arguments exit 2 with a
message on stderr.

Usage: test_bench.py HYLA-BENCH   (run from a scratch directory)
"""
import csv
import json
import os
import subprocess
import sys
import tempfile

COLUMNS = ("routine,prec,m,n,nrhs,nb,lookahead,panel_threads,mode,ncpu,ngpu,"
           "scheduler,api,hyla_s_min,hyla_s_median,hyla_gflops,ref,ref_s_min,"
           "ref_s_median,ref_gflops,ratio,residual,status,gpu_streams,mapping,"
           "trsm_inv,reserved_sms,panel_rows,hyla_gpu_j,hyla_cpu_j,ref_gpu_j,"
           "ref_cpu_j,rbt_depth,rbt_iter,seed,rbt_fallback").split(",")
ROUTINES = ["getrf", "potrf", "gesv", "posv", "gesv_rbt"]

failures = 0


def check(ok, what):
    global failures
    print(("ok   " if ok else "FAIL ") + what)
    failures += not ok


def run(bench, *args):
    return subprocess.run([bench, *args], capture_output=True, text=True,
                          timeout=600)


def main(bench):
    with tempfile.TemporaryDirectory() as tmp:
        out_csv = os.path.join(tmp, "out.csv")
        out_json = os.path.join(tmp, "trace.json")
        out_res = os.path.join(tmp, "out.json")
        r = run(bench, "-r", ",".join(ROUTINES), "-p", "d,s", "-n", "70",
                "--nb", "16", "--ncpus", "2", "--mode", "cpu", "--repeat",
                "2", "--csv", out_csv, "--json", out_res, "--trace", out_json)
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
        check(all(b["mode"] == "cpu" and b["nb"] == "16" and b["n"] == "70"
                  for b in body), "CSV: the configuration asked for")
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
        check(any(e.get("ph") == "X" for e in events),
              "trace: Chrome JSON with task events")

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
        r = run(bench, "-r", "getrf", "-n", "70", "--nb", "16",
                "--panel-threads", "1,2", "--ncpus", "2", "--mode", "cpu",
                "--repeat", "1", "--no-ref", "--csv", out_csv)
        with open(out_csv) as f:
            sweep = list(csv.DictReader(f))
        check(r.returncode == 0 and
              [b["panel_threads"] for b in sweep] == ["1", "2"],
              "a sweep of panel threads: one row each")

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
                           (["extra"], "a stray argument")]:
            r = run(bench, *args)
            check(r.returncode == 2 and r.stderr.strip() != "",
                  "%s exits 2 with a message (rc %d)" % (what, r.returncode))
    print("%d failed" % failures)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))

#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Draw a hyla task trace (Chrome/Perfetto JSON from hyla_trace_write or
hyla-bench --trace) as an SVG timeline: one row per worker, one box per
task, coloured by kind.  Standard library only.

Usage: trace_svg.py TRACE.json OUT.svg [--title TEXT] [--width PX]
                    [--from MS] [--to MS]     (a window of the run)
"""
import json
import sys

import flags  # scripts/flags.py

COLOURS = {
    "dgetrf_panel": "#d62728", "sgetrf_panel": "#d62728",
    "dlaswp": "#ff7f0e", "slaswp": "#ff7f0e",
    "dtrsm": "#2ca02c", "strsm": "#2ca02c",
    "dgemm": "#1f77b4", "sgemm": "#1f77b4",
    "dsyrk": "#9467bd", "ssyrk": "#9467bd",
    "dpotrf": "#d62728", "spotrf": "#d62728",
    "dlap_to_tile": "#bbbbbb", "slap_to_tile": "#bbbbbb",
    "dtile_to_lap": "#888888", "stile_to_lap": "#888888",
}


def main(argv):
    opts = flags.take(argv, {
        "--title": None,
        "--width": "1400",
        "--from": None,
        "--to": None,
    })
    title, width = opts["--title"], int(opts["--width"])
    if len(argv) != 3:
        sys.exit(__doc__)
    with open(argv[1]) as f:
        trace = json.load(f)
    names, tasks = {}, []
    for e in trace["traceEvents"]:
        if e.get("ph") == "M" and e.get("name") == "thread_name":
            names[e["tid"]] = e["args"]["name"]
        elif e.get("ph") == "X":
            tasks.append(e)
    if not tasks:
        sys.exit("trace_svg.py: no task in " + argv[1])
    rows = sorted({t["tid"] for t in tasks} | set(names))
    base = t0 = min(t["ts"] for t in tasks)
    t1 = max(t["ts"] + t["dur"] for t in tasks)
    if opts["--to"] is not None:
        t1 = t0 + 1000 * float(opts["--to"])
    if opts["--from"] is not None:
        t0 = t0 + 1000 * float(opts["--from"])
    tasks = [t for t in tasks if t["ts"] + t["dur"] > t0 and t["ts"] < t1]
    left, top, row_h, legend_h = 110, 30 if title else 10, 18, 40
    plot_w = width - left - 10
    scale = plot_w / max(t1 - t0, 1e-9)
    height = top + row_h * len(rows) + legend_h
    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" '
           'font-family="sans-serif" font-size="11">' % (width, height),
           '<rect width="100%" height="100%" fill="white"/>']
    if title:
        out.append('<text x="%d" y="18" font-size="13">%s</text>'
                   % (left, escape(title)))
    for i, r in enumerate(rows):
        y = top + i * row_h
        out.append('<text x="4" y="%d">%s</text>'
                   % (y + row_h - 5, escape(names.get(r, "worker %d" % r))))
        out.append('<rect x="%d" y="%d" width="%d" height="%d" fill="#f4f4f4"/>'
                   % (left, y + 1, plot_w, row_h - 2))
    index = {r: i for i, r in enumerate(rows)}
    for t in tasks:
        y = top + index[t["tid"]] * row_h
        start, end = max(t["ts"], t0), min(t["ts"] + t["dur"], t1)
        x = left + (start - t0) * scale
        w = max((end - start) * scale, 0.5)
        colour = COLOURS.get(t["name"], "#17becf")
        out.append('<rect x="%.2f" y="%d" width="%.2f" height="%d" fill="%s">'
                   '<title>%s %.0f us</title></rect>'
                   % (x, y + 2, w, row_h - 4, colour, escape(t["name"]),
                      t["dur"]))
    # time axis and legend
    y = top + row_h * len(rows) + 14
    out.append('<text x="%d" y="%d">%.1f ms</text>'
               % (left, y, (t0 - base) / 1000))
    out.append('<text x="%d" y="%d" text-anchor="end">%.1f ms</text>'
               % (left + plot_w, y, (t1 - base) / 1000))
    x = left + 60
    for kind in sorted({t["name"] for t in tasks}):
        out.append('<rect x="%d" y="%d" width="10" height="10" fill="%s"/>'
                   % (x, y + 8, COLOURS.get(kind, "#17becf")))
        out.append('<text x="%d" y="%d">%s</text>' % (x + 14, y + 17,
                                                     escape(kind)))
        x += 14 + 7 * len(kind) + 16
    out.append("</svg>")
    with open(argv[2], "w") as f:
        f.write("\n".join(out) + "\n")
    return 0


def escape(s):
    return (str(s).replace("&", "&amp;").replace("<", "&lt;")
            .replace(">", "&gt;"))


if __name__ == "__main__":
    sys.exit(main(sys.argv))

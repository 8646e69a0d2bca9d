#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Generate a single-precision source from its double-precision template.

A template carries the tag '@precisions d -> s' in its first lines.  The
substitution is a fixed, word-based rewrite (PLASMA's codegen idea):

  * the type 'double' becomes 'float';
  * an identifier whose precision letter 'd' stands at the start of a word or
    right after an underscore and is followed by a known operation name
    (dgemm, hyla_task_dgetrf, LAPACKE_dpotrf_work, hyla_ddesc_to_lap, ...)
    gets 's' instead;
  * a few spelled-out names (DBL_ constants, idamax, HYLA_DOUBLE, "_d.h"
    includes) have explicit replacements.

Usage:
  precision.py INPUT OUTPUT     write the single-precision file
  precision.py --name INPUT     print the generated file's base name
"""
import os
import re
import sys

# Operation names that follow the precision letter.  A new precision-dependent
# routine or kernel name is added here.
OPS = """
    asum axpy batch copy desc dot gecon gemm gemv geqrf ger gesv getf2 getrf getri getrs lacpy
    lamch lange lansy lap laswp larnv laset lauum nrm2 potf2 potrf potrs posv
    scal swap syrk tile trmm trsm trsv trtri plrnt plgsy layout check resid
    panel gen solve symv trmv ref hyla blas cusolver rbt local partial sum
""".split()

OPS_RE = "|".join(sorted(OPS, key=len, reverse=True))
# 'd' at a word start, or after an underscore, followed by an operation name.
# The tile algorithms add a 'p' in front (hyla_pdgetrf).
IDENT = re.compile(r"(?<![A-Za-z0-9])((?:[A-Za-z0-9]*_)?p?)d(%s)" % OPS_RE)

EXPLICIT = [
    (re.compile(r"\bdouble\b"), "float"),
    (re.compile(r"\bDBL_"), "FLT_"),
    (re.compile(r"\bidamax\b"), "isamax"),
    (re.compile(r"\bcblas_idamax\b"), "cblas_isamax"),
    (re.compile(r"\bHYLA_DOUBLE\b"), "HYLA_FLOAT"),
    (re.compile(r"\bfabs\b"), "fabsf"),
    (re.compile(r"\bsqrt\b"), "sqrtf"),
    (re.compile(r"(\w)_d\.([ch])\b"), r"\1_s.\2"),
    (re.compile(r"\bHYLA_(\w+)_D_H\b"), r"HYLA_\1_S_H"),
    (re.compile(r"@precisions d -> s"), "generated from the double-precision template"),
]


# cuBLAS and cuSOLVER spell the precision in capitals: cublasDgemm.
CAPS = re.compile(r"\b(cublas|cusolverDn)D(%s)" % OPS_RE)


def convert(text):
    for pattern, repl in EXPLICIT:
        text = pattern.sub(repl, text)
    text = CAPS.sub(lambda m: m.group(1) + "S" + m.group(2), text)
    return IDENT.sub(lambda m: m.group(1) + "s" + m.group(2), text)


def out_name(path):
    base = os.path.basename(path)
    stem, dot, ext = base.rpartition(".")
    if stem.endswith("_d"):
        return stem[:-2] + "_s" + dot + ext
    new = IDENT.sub(lambda m: m.group(1) + "s" + m.group(2), base, count=1)
    if new == base:
        sys.exit("precision.py: cannot derive a single-precision name from " + base)
    return new


def main(argv):
    if len(argv) == 3 and argv[1] == "--name":
        print(out_name(argv[2]))
        return 0
    if len(argv) != 3:
        sys.exit(__doc__)
    src, dst = argv[1], argv[2]
    with open(src, encoding="utf-8") as f:
        text = f.read()
    if "@precisions d -> s" not in text[:400]:
        sys.exit("precision.py: %s has no '@precisions d -> s' tag" % src)
    with open(dst, "w", encoding="utf-8") as f:
        f.write(convert(text))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

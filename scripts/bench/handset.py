#!/usr/bin/env python3
"""Compiles a workload under a hand-set plan into a kernel bundle.

The searched IR (`ff-opt --dsm-fuse --dsm-search`) of a paper workload
(scripts/bench/workloads.py) or of an FFN shape has its `#dsm.schedule`
fields replaced by the ones given, then `--lower-to-nvvm="format=bin
emit-bundle=OUT"` builds the bundle: the measurements that check the cost
model's ranking or a kernel change on plans the search does not choose.

  handset.py OUT (--workload NAME | --ffn M,N,K,L[,ACT]) [FIELD=VALUE ...]
             [--weight-layout nk|kn] [--search-options S] [--lower-options S]

FIELD is a `#dsm.schedule` parameter: `cluster=1,1,1,1`,
`block=64,128,64,64`, `grid=98,1,1,1`, `stages=4`, `order=m,n,k,l`,
`spatial=m`, `residency=smem`, `collectives=` (empty) or
`deterministic=true`. A block without a grid keeps the searched grid but
for its m extent, `ceil(M / blk_m)`. Exits 1 with ff-opt's first
diagnostic when the plan does not lower.
"""

import argparse
import importlib.util
import math
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

FIELDS = ("cluster", "block", "grid", "order", "spatial", "residency",
          "collectives", "stages", "deterministic")
SCHEDULE = re.compile(r"#dsm\.schedule<([^>]*)>")


def load_compile_workloads():
    spec = importlib.util.spec_from_file_location(
        "compile_workloads", os.path.join(ROOT, "scripts",
                                          "compile-workloads.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def source_text(args):
    """(linalg text, M) of the workload or FFN shape."""
    cw = load_compile_workloads()
    if args.workload:
        byname = {w.name: w for w in cw.selected()}
        if args.workload not in byname:
            sys.exit("handset: unknown workload " + args.workload)
        w = byname[args.workload]
        return cw.linalg_text(w, weight_layout=args.weight_layout), w.m
    parts = args.ffn.split(",")
    m, n, k, l = (int(p) for p in parts[:4])
    act = parts[4] if len(parts) > 4 else "relu"
    sys.path.insert(0, os.path.join(ROOT, "python"))
    from flashfuser.mlirgen import generate_mlir
    return generate_mlir({"kind": "ffn", "m": m, "n": n, "k": k, "l": l,
                          "activation": act, "dtype": "bf16",
                          "weight_layout": args.weight_layout}), m


def parse_fields(text):
    """`key = value` pairs of a #dsm.schedule body, in order."""
    out, depth, cur = [], 0, ""
    for ch in text:
        if ch == "[":
            depth += 1
        elif ch == "]":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur)
            cur = ""
        else:
            cur += ch
    out.append(cur)
    return [tuple(s.strip() for s in f.split("=", 1)) for f in out if f]


def replace_schedule(body, overrides, m):
    fields = dict(parse_fields(body))
    for key, value in overrides.items():
        if key in ("cluster", "block", "grid", "order", "spatial",
                   "residency", "collectives"):
            fields[key] = "[" + ", ".join(v for v in value.split(",")
                                          if v) + "]"
        else:
            fields[key] = value
    if "block" in overrides and "grid" not in overrides:
        bm = int(overrides["block"].split(",")[0])
        grid = fields["grid"].strip("[]").split(",")
        grid[0] = str(math.ceil(m / bm))
        fields["grid"] = "[" + ", ".join(g.strip() for g in grid) + "]"
    order = [f for f in ("cluster", "block", "grid", "order", "spatial",
                         "residency", "collectives", "stages",
                         "deterministic", "cost_ns") if f in fields]
    return ", ".join("%s = %s" % (f, fields[f]) for f in order)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("out")
    src = ap.add_mutually_exclusive_group(required=True)
    src.add_argument("--workload")
    src.add_argument("--ffn", help="M,N,K,L[,activation]")
    ap.add_argument("fields", nargs="*", metavar="FIELD=VALUE")
    ap.add_argument("--weight-layout", default="nk", choices=("nk", "kn"))
    ap.add_argument("--ff-opt", default=os.path.join(ROOT, "build", "bin",
                                                     "ff-opt"))
    ap.add_argument("--search-options", default="")
    ap.add_argument("--lower-options", default="")
    args = ap.parse_intermixed_args()

    overrides = {}
    for f in args.fields:
        key, _, value = f.partition("=")
        if key not in FIELDS:
            sys.exit("handset: unknown schedule field " + key)
        overrides[key] = value

    text, m = source_text(args)
    search = "--dsm-search" + ('=%s' % args.search_options
                               if args.search_options else "")
    searched = subprocess.run(
        [args.ff_opt, "-", "--dsm-fuse", search], input=text,
        capture_output=True, text=True)
    if searched.returncode:
        sys.exit(searched.stderr)
    schedules = SCHEDULE.findall(searched.stdout)
    if len(set(schedules)) != 1:
        sys.exit("handset: expected one schedule, found %d" %
                 len(set(schedules)))
    new = replace_schedule(schedules[0], overrides, m)
    ir = searched.stdout.replace(schedules[0], new)
    lower = "format=bin emit-bundle=" + args.out
    if args.lower_options:
        lower += " " + args.lower_options
    with tempfile.NamedTemporaryFile("w", suffix=".mlir") as f:
        f.write(ir)
        f.flush()
        lowered = subprocess.run(
            [args.ff_opt, f.name, '--lower-to-nvvm=%s' % lower, "-o",
             os.devnull], capture_output=True, text=True)
    if lowered.returncode:
        first = next((ln for ln in lowered.stderr.splitlines()
                      if "error:" in ln), lowered.stderr.strip())
        sys.exit("handset: #dsm.schedule<%s>: %s" % (new, first))
    print("%s: #dsm.schedule<%s>" % (args.out, new))


if __name__ == "__main__":
    main()

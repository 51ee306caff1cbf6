#!/usr/bin/env python3
"""Which plans and kernels a compiler change (or a search option) changes.

Compiles the paper workloads' bundle sets with two ff-opt binaries (or one
binary under two sets of --dsm-search options) through compile-workloads.py
and compares every kernel of every bundle: its manifest plan (schedule,
cost) and its PTX, byte for byte. A session lands a search rule knowing
exactly which chains it moves, and a lowering change knowing that no plan
moved (docs/validation.md runs it before each A/B).

  plan-diff.py OLD_FF_OPT NEW_FF_OPT [--only NAMES] [--sets sweep,dyn]
               [--old-search-options O] [--new-search-options O]

Sets: `sweep` (every static workload, the dynamic-M sweep compiled for each
M, the single GEMMs and the anchors: compile-workloads.py --dynamic-sweep
--single-gemms --anchors) and `dyn` (the dynamic-M bundles with the single
GEMMs: --dynamic-m --single-gemms); weights as PyTorch passes them (nk).
Prints one line per changed kernel and a closing summary; exits 1 when a
compile fails, else 0.
"""

import argparse
import filecmp
import json
import os
import subprocess
import sys
import tempfile

SETS = {
    "sweep": ["--dynamic-sweep", "--single-gemms", "--anchors"],
    "dyn": ["--dynamic-m", "--single-gemms"],
}


def compile_set(root, ff_opt, flags, out, args, search_options):
    cmd = [sys.executable, os.path.join(root, "scripts/compile-workloads.py"),
           out, "--ff-opt", ff_opt, "--weight-layout", "nk",
           "--jobs", str(args.jobs)] + flags
    if args.only:
        cmd += ["--only", args.only]
    if args.ptxas:
        cmd += ["--ptxas", args.ptxas]
    if search_options:
        cmd += ["--search-options", search_options]
    r = subprocess.run(cmd, cwd=root, capture_output=True, text=True)
    if r.returncode != 0:
        sys.stderr.write(r.stdout[-2000:] + r.stderr[-2000:])
        sys.exit(f"plan-diff: {' '.join(cmd)} failed")


def kernels(bundle):
    with open(os.path.join(bundle, "manifest.json")) as f:
        return json.load(f)["kernels"]


def brief(plan):
    if not plan:
        return "-"
    keys = ("cluster", "block", "grid", "stages")
    s = " ".join(f"{k}={plan[k]}" for k in keys if k in plan)
    return s + (" swap_ab" if plan.get("swap_ab") else "")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("old_ff_opt")
    ap.add_argument("new_ff_opt")
    ap.add_argument("--only", default="",
                    help="compile-workloads.py --only (bundle names)")
    ap.add_argument("--sets", default="sweep,dyn")
    ap.add_argument("--old-search-options", default="")
    ap.add_argument("--new-search-options", default="")
    ap.add_argument("--ptxas", default="")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--out", help="keep the bundles here (default: a "
                    "temporary directory)")
    args = ap.parse_args()
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    sets = [s for s in args.sets.split(",") if s]
    for s in sets:
        if s not in SETS:
            sys.exit(f"plan-diff: unknown set {s!r} (sweep, dyn)")

    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.abspath(args.out) if args.out else tmp
        compared = plans = ptx = 0
        for s in sets:
            dirs = {}
            for side, ff, opts in (("old", args.old_ff_opt,
                                    args.old_search_options),
                                   ("new", args.new_ff_opt,
                                    args.new_search_options)):
                dirs[side] = os.path.join(out, side, s)
                compile_set(root, os.path.abspath(ff), SETS[s], dirs[side],
                            args, opts)
            for name in sorted(os.listdir(dirs["old"])):
                old_b = os.path.join(dirs["old"], name)
                new_b = os.path.join(dirs["new"], name)
                if not os.path.isfile(os.path.join(old_b, "manifest.json")):
                    continue
                if not os.path.isdir(new_b):
                    print(f"MISSING {s}/{name}: no new bundle")
                    continue
                for ko, kn in zip(kernels(old_b), kernels(new_b)):
                    compared += 1
                    where = f"{s}/{name} {ko['name']}"
                    po, pn = ko.get("plan"), kn.get("plan")
                    if po != pn:
                        plans += 1
                        print(f"PLAN {where}: {brief(po)} -> {brief(pn)}")
                    if not filecmp.cmp(os.path.join(old_b, ko["ptx"]),
                                       os.path.join(new_b, kn["ptx"]),
                                       shallow=False):
                        ptx += 1
                        print(f"PTX {where}")
        print(f"{compared} kernels compared: {plans} plans differ, "
              f"{ptx} PTX differ")


if __name__ == "__main__":
    main()

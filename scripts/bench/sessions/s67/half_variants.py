#!/usr/bin/env python3
"""Sixty-seventh session: bundles whose kernel sequence keeps one half as
the search chose it and runs the other half (HALF: 0 the up GEMM, 1 the
down GEMM) with each of the search's next-ranked lowerable plans of
another shape (cluster, block), the best-priced of each shape, up to
COUNT shapes. The schedule attribute --dsm-search wrote is edited by hand,
as the lowering's tests write theirs; W-base is the unedited plan, W-vI
the I-th shape by the model's price.

  python3 half_variants.py OUTDIR HALF COUNT W...      (needs build/bin/ff-opt)
"""
import importlib.util
import json
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.dirname(os.path.abspath(__file__))))))
FF_OPT = os.path.join(ROOT, "build", "bin", "ff-opt")
spec = importlib.util.spec_from_file_location(
    "cw", os.path.join(ROOT, "scripts", "compile-workloads.py"))
cw = importlib.util.module_from_spec(spec)
spec.loader.exec_module(cw)


def attr(c, collectives):
    swap = ", swap_ab = true" if c.get("swap_ab") else ""
    return ("#dsm.schedule<cluster = [%s], block = [%s], grid = [%s], "
            "order = [%s], spatial = [%s], residency = [], collectives = "
            "[%s], stages = %d, cost_ns = %d%s>" % (
                ", ".join(map(str, c["cluster"])),
                ", ".join(map(str, c["block"])),
                ", ".join(map(str, c["grid"])), ", ".join(c["order"]),
                ", ".join(c["spatial"]), collectives, c["stages"],
                c["cost_ns"], swap))


def shape(c):
    return (tuple(c["cluster"]), tuple(c["block"][:3]), bool(c["swap_ab"]))


def main():
    out, half_index, count, names = (sys.argv[1], int(sys.argv[2]),
                                     int(sys.argv[3]), sys.argv[4:])
    tmp = os.path.join(out, ".src")
    os.makedirs(tmp, exist_ok=True)
    ws = {w.name: w for w in cw.selected()}
    for name in names:
        w = ws[name]
        src = os.path.join(tmp, name + ".mlir")
        with open(src, "w") as f:
            f.write(cw.linalg_text(w, weight_layout="nk"))
        dump = os.path.join(tmp, name + ".json")
        searched = os.path.join(tmp, name + "-searched.mlir")
        subprocess.run([FF_OPT, src, cw.fuse_flag(w),
                        "--dsm-search=target=h200 dump=" + dump,
                        "-o", searched], check=True)
        text = open(searched).read()
        half = json.load(open(dump))["chains"][0]["halves"][half_index]
        seq = re.search(r"sequence = \[(#dsm\.schedule<[^>]*>), "
                        r"(#dsm\.schedule<[^>]*>)\]", text)
        assert seq, name
        old = seq.group(half_index + 1)
        coll = re.search(r"collectives = \[([^\]]*)\]", old).group(1)
        seen = {shape(half["chosen"])}
        variants = {"base": old}
        for c in sorted(half["lowerable_candidates"],
                        key=lambda c: c["cost_ns"]):
            if len(variants) > count or shape(c) in seen:
                continue
            seen.add(shape(c))
            # A split K's collective is the reduce-scatter; an unsplit
            # plan's none.
            ccoll = coll if c["cluster"][2] > 1 else ""
            if c["cluster"][2] > 1 and not coll:
                ccoll = "all_exchange"
            variants["v%d" % (len(variants) - 1)] = attr(c, ccoll)
        for v, a in variants.items():
            edited = text.replace(old, a)
            s = os.path.join(tmp, "%s-%s.mlir" % (name, v))
            open(s, "w").write(edited)
            bundle = os.path.join(out, "%s-%s" % (name, v))
            p = subprocess.run([FF_OPT, s, "--lower-to-nvvm=format=bin "
                                "emit-bundle=" + bundle, "-o", os.devnull],
                               capture_output=True, text=True)
            print(name, v, a if v != "base" else "(search's) " + a,
                  "ok" if p.returncode == 0 else p.stderr.strip()[:300])


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Sixty-sixth session: bundles whose kernel sequence keeps the search's
first kernel but runs the down GEMM with another of the search's lowerable
plans for it: the same n tile split twice as far along K (twice the CTAs),
and half the n tile at the same split (twice the CTAs). The schedule
attribute --dsm-search wrote is edited by hand, as the lowering's tests
write theirs; W-base is the unedited plan.

  python3 down_variants.py OUTDIR W...      (needs build/bin/ff-opt)
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
    return ("#dsm.schedule<cluster = [%s], block = [%s], grid = [%s], "
            "order = [%s], spatial = [%s], residency = [], collectives = "
            "[%s], stages = %d, cost_ns = %d>" % (
                ", ".join(map(str, c["cluster"])),
                ", ".join(map(str, c["block"])),
                ", ".join(map(str, c["grid"])), ", ".join(c["order"]),
                ", ".join(c["spatial"]), collectives, c["stages"],
                c["cost_ns"]))


def main():
    out, names = sys.argv[1], sys.argv[2:]
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
        half = json.load(open(dump))["chains"][0]["halves"][1]
        chosen = half["chosen"]
        seq = re.search(r"sequence = \[(#dsm\.schedule<[^>]*>), "
                        r"(#dsm\.schedule<[^>]*>)\]", text)
        assert seq, name
        coll = re.search(r"collectives = \[([^\]]*)\]", seq.group(2)).group(1)
        bm, bn, bk, _ = chosen["block"]
        split = chosen["cluster"][2]
        want = {
            "split2x": lambda c: c["block"][:2] == [bm, bn] and
            c["cluster"][2] == 2 * split,
            "nhalf": lambda c: c["block"][:3] == [bm, bn // 2, bk] and
            c["cluster"][2] == split,
        }
        variants = {"base": seq.group(2)}
        for v, ok in want.items():
            cands = [c for c in half["lowerable_candidates"] if ok(c)]
            if cands:
                best = min(cands, key=lambda c: c["cost_ns"])
                variants[v] = attr(best, coll)
        for v, a in variants.items():
            edited = text.replace(seq.group(2), a)
            s = os.path.join(tmp, "%s-%s.mlir" % (name, v))
            open(s, "w").write(edited)
            bundle = os.path.join(out, "%s-%s" % (name, v))
            p = subprocess.run([FF_OPT, s, "--lower-to-nvvm=format=bin "
                                "emit-bundle=" + bundle, "-o", os.devnull],
                               capture_output=True, text=True)
            print(name, v, a if v != "base" else "(search's)",
                  "ok" if p.returncode == 0 else p.stderr.strip()[:300])


if __name__ == "__main__":
    main()

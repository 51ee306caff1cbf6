#!/usr/bin/env python3
"""Sixty-seventh session: bundles whose kernel sequence keeps the search's
up GEMM and runs the down GEMM split over a k group of C (4 or 8) on
128-row tiles of the narrowest width (a multiple of 8 C) whose clusters
fit the H200's cluster slots at once (30 of 4, 15 of 8: its GPCs of
18 x 5, 16 x 2 and 10 SMs), the last n tile partial, on the deepest ring
that lowers. The schedule attribute --dsm-search wrote is edited by hand,
as the lowering's tests write theirs; W-base is the unedited plan, W-cCnN
the fitted one.

  python3 fit_variants.py OUTDIR W...      (needs build/bin/ff-opt)
"""
import importlib.util
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
SLOTS = {4: 30, 8: 15}


def cdiv(a, b):
    return -(-a // b)


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
        searched = os.path.join(tmp, name + "-searched.mlir")
        subprocess.run([FF_OPT, src, cw.fuse_flag(w), "--dsm-search=target=h200",
                        "-o", searched], check=True)
        text = open(searched).read()
        seq = re.search(r"sequence = \[(#dsm\.schedule<[^>]*>), "
                        r"(#dsm\.schedule<[^>]*>)\]", text)
        assert seq, name
        old = seq.group(2)
        # The down GEMM: M x L x N of the chain (its n is L, its k is N).
        n, k = w.l, w.n
        variants = {"base": [old]}
        for c, slots in SLOTS.items():
            bn = cdiv(cdiv(n, slots), 8 * c) * 8 * c
            if bn > 256 or "cluster = [1, 1, %d, 1], block = [128, %d," % (
                    c, bn) in old:
                continue
            tiles = cdiv(n, bn)
            bk = cdiv(cdiv(k, c), 16) * 16
            variants["c%dn%d" % (c, bn)] = [
                "#dsm.schedule<cluster = [1, 1, %d, 1], block = [128, %d, %d, "
                "16], grid = [1, %d, 1, 1], order = [m, n, k, l], spatial = "
                "[m, n, k], residency = [], collectives = [all_exchange], "
                "stages = %d, cost_ns = 0>" % (c, bn, bk, tiles, s)
                for s in range(8, 1, -1)]
        for v, attrs in variants.items():
            for a in attrs:
                s = os.path.join(tmp, "%s-%s.mlir" % (name, v))
                open(s, "w").write(text.replace(old, a))
                bundle = os.path.join(out, "%s-%s" % (name, v))
                p = subprocess.run([FF_OPT, s, "--lower-to-nvvm=format=bin "
                                    "emit-bundle=" + bundle, "-o", os.devnull],
                                   capture_output=True, text=True)
                if p.returncode == 0:
                    print(name, v, a)
                    break
            else:
                print(name, v, "not lowered:", p.stderr.strip()[:200])


if __name__ == "__main__":
    main()

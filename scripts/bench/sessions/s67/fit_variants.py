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
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", ".."))
from handset import load_compile_workloads  # noqa: E402
from rankplans import SEQUENCE, lower, searched_chain  # noqa: E402

SLOTS = {4: 30, 8: 15}


def cdiv(a, b):
    return -(-a // b)


def main():
    out, names = sys.argv[1], sys.argv[2:]
    tmp = os.path.join(out, ".src")
    cw = load_compile_workloads()
    ws = {w.name: w for w in cw.selected()}
    for name in names:
        w = ws[name]
        text, _ = searched_chain(cw, name, tmp, options="target=h200")
        old = SEQUENCE.search(text).group(2)
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
                err = lower(text.replace(old, a),
                            os.path.join(out, "%s-%s" % (name, v)))
                if not err:
                    print(name, v, a)
                    break
            else:
                print(name, v, "not lowered:", err.strip()[:200])


if __name__ == "__main__":
    main()

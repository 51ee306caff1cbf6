#!/usr/bin/env python3
"""Sixty-sixth session: bundles whose kernel sequence keeps the search's
first kernel but runs the down GEMM with another of the search's lowerable
plans for it: the same n tile split twice as far along K (twice the CTAs),
and half the n tile at the same split (twice the CTAs). The schedule
attribute --dsm-search wrote is edited by hand, as the lowering's tests
write theirs; W-base is the unedited plan.

  python3 down_variants.py OUTDIR W...      (needs build/bin/ff-opt)
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", ".."))
from handset import load_compile_workloads  # noqa: E402
from rankplans import candidate_schedule, lower, searched_half  # noqa: E402


def main():
    out, names = sys.argv[1], sys.argv[2:]
    tmp = os.path.join(out, ".src")
    cw = load_compile_workloads()
    for name in names:
        text, half, down = searched_half(cw, name, tmp, 1)
        chosen = half["chosen"]
        bm, bn, bk, _ = chosen["block"]
        split = chosen["cluster"][2]
        want = {
            "split2x": lambda c: c["block"][:2] == [bm, bn] and
            c["cluster"][2] == 2 * split,
            "nhalf": lambda c: c["block"][:3] == [bm, bn // 2, bk] and
            c["cluster"][2] == split,
        }
        variants = {"base": down}
        for v, ok in want.items():
            cands = [c for c in half["lowerable_candidates"] if ok(c)]
            if cands:
                variants[v] = candidate_schedule(
                    min(cands, key=lambda c: c["cost_ns"]))
        for v, a in variants.items():
            err = lower(text.replace(down, a),
                        os.path.join(out, "%s-%s" % (name, v)))
            print(name, v, a if v != "base" else "(search's)", err or "ok")


if __name__ == "__main__":
    main()

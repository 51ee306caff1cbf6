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
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", ".."))
from handset import load_compile_workloads  # noqa: E402
from rankplans import candidate_schedule, lower, searched_half  # noqa: E402


def shape(c):
    return (tuple(c["cluster"]), tuple(c["block"][:3]), bool(c["swap_ab"]))


def main():
    out, half_index, count, names = (sys.argv[1], int(sys.argv[2]),
                                     int(sys.argv[3]), sys.argv[4:])
    tmp = os.path.join(out, ".src")
    cw = load_compile_workloads()
    for name in names:
        text, half, old = searched_half(cw, name, tmp, half_index)
        seen = {shape(half["chosen"])}
        variants = {"base": old}
        for c in sorted(half["lowerable_candidates"],
                        key=lambda c: c["cost_ns"]):
            if len(variants) > count or shape(c) in seen:
                continue
            seen.add(shape(c))
            variants["v%d" % (len(variants) - 1)] = candidate_schedule(c)
        for v, a in variants.items():
            err = lower(text.replace(old, a),
                        os.path.join(out, "%s-%s" % (name, v)))
            print(name, v, a if v != "base" else "(search's) " + a,
                  err or "ok")


if __name__ == "__main__":
    main()

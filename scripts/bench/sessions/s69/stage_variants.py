#!/usr/bin/env python3
"""Sixty-ninth session: the down GEMM (sequence half 1) of small G chains
on split-K shapes and ring depths the search does not offer, the up GEMM
as chosen. Each VARIANT is CLS_K:BLK_M:BLK_N:STAGES; bundles OUTDIR/W-base
(the search's plan) and OUTDIR/W-kCbMxNsS. The schedule attribute
--dsm-search wrote is edited by hand, as the lowering's tests write theirs.

  python3 stage_variants.py OUTDIR W=VARIANT[,VARIANT...]...
                                                 (needs build/bin/ff-opt)
"""
import math
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", ".."))
from handset import load_compile_workloads  # noqa: E402
from rankplans import candidate_schedule, lower, searched_half  # noqa: E402


def main():
    out, specs = sys.argv[1], sys.argv[2:]
    tmp = os.path.join(out, ".src")
    cw = load_compile_workloads()
    for spec in specs:
        name, _, variants = spec.partition("=")
        text, half, old = searched_half(cw, name, tmp, 1)
        print(name, "base", old, lower(text, os.path.join(out, name + "-base"))
              or "ok")
        for v in variants.split(","):
            ck, bm, bn, stages = (int(x) for x in v.split(":"))
            c = dict(half["chosen"])
            c["cluster"] = [1, 1, ck, 1]
            c["block"] = [bm, bn, half["k"] // ck, 16]
            c["grid"] = [math.ceil(half["m"] / bm), half["n"] // bn, 1, 1]
            c["stages"] = stages
            c["swap_ab"] = False
            sched = candidate_schedule(c)
            tag = "k%db%dx%ds%d" % (ck, bm, bn, stages)
            print(name, tag, sched,
                  lower(text.replace(old, sched),
                        os.path.join(out, "%s-%s" % (name, tag))) or "ok")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Seventieth session: racecheck stand-ins for G5 and S3 at M = 16 and 64.

Their bundles (256 and 270 MB of weights) have not finished one
compute-sanitizer racecheck in a 560 s device call. A stand-in keeps the
chain's M, activation, kernel sequence and both halves' plans (tile
shapes, clusters, split K, ring stages, persistence) and shrinks N, K and
L, so every code path of the kernels (ring wrap-around, split-K
reduce-scatter over DSM, a partial last n tile where the original has one)
runs with about 1/50 of the shared-memory traffic. The searched module
of the stand-in shape gets the original's `sequence` attribute with the
grid's n extents and the down GEMM's K slice rescaled.

  python3 race_standins.py OUTDIR [NAME=N,K,L ...]   (needs build/bin/ff-opt)

Without NAME=N,K,L the four DEFAULT stand-ins. FF_LOWER_OPTIONS="..."
adds --lower-to-nvvm options and FF_TAG=SUFFIX a suffix to the names. OUTDIR/NAME-orig is the
original bundle (as compile-workloads.py builds it), OUTDIR/NAME-nNkKlL
the stand-in; each prints both plans.
"""
import dataclasses
import math
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", ".."))
from handset import load_compile_workloads  # noqa: E402
from rankplans import lower  # noqa: E402
import rankplans  # noqa: E402

# N' keeps the down GEMM's slices whole k steps (N' / 4 a multiple of 64);
# S3's 2304 leaves the up GEMM's 88-wide tiles a partial last tile, as
# 11008 does.
DEFAULT = {"G5-m16": (2048, 512, 512), "G5-m64": (2048, 512, 512),
           "S3-m16": (2304, 512, 512), "S3-m64": (2304, 512, 512)}
SEQ = re.compile(r"sequence = \[(#dsm\.schedule<[^>]*>), "
                 r"(#dsm\.schedule<[^>]*>)\]")
FIELD = r"(%s = \[)([^\]]*)(\])"


def set_field(sched, name, values):
    return re.sub(FIELD % name,
                  lambda mt: mt.group(1) + ", ".join(map(str, values)) +
                  mt.group(3), sched, count=1)


def get_field(sched, name):
    return [int(v) for v in re.search(FIELD % name, sched).group(2)
            .split(",")]


def searched(w, tmp):
    os.makedirs(tmp, exist_ok=True)
    src = os.path.join(tmp, w.name + ".mlir")
    cw = load_compile_workloads()
    with open(src, "w") as f:
        f.write(cw.linalg_text(w, False, "nk"))
    import subprocess
    res = subprocess.run([rankplans.FF_OPT, src, "--dsm-fuse",
                          "--dsm-search=target=h200"], capture_output=True,
                         text=True, check=True)
    return res.stdout


def main():
    out = sys.argv[1]
    opts = os.environ.get("FF_LOWER_OPTIONS", "")
    suffix = os.environ.get("FF_TAG", "")
    shapes = [(name, nkl) for name, nkl in DEFAULT.items()]
    if sys.argv[2:]:
        shapes = [(spec.partition("=")[0],
                   tuple(int(v) for v in spec.partition("=")[2].split(",")))
                  for spec in sys.argv[2:]]
    tmp = os.path.join(out, ".src")
    byname = {w.name: w for w in load_compile_workloads().selected()}
    for name, (n, k, l) in shapes:
        w = byname[name]
        text = searched(w, tmp)
        seq = SEQ.search(text)
        if not seq:
            sys.exit(f"{name}: the search chose no kernel sequence")
        up, down = seq.group(1), seq.group(2)
        print(name, "orig", lower(text, os.path.join(out, name + "-orig" +
                                                     suffix), options=opts)
              or "ok")
        print("  up  ", up)
        print("  down", down)
        # The stand-in: same plans, n extents and the K slice rescaled.
        ugrid, dgrid = get_field(up, "grid"), get_field(down, "grid")
        ublk, dblk = get_field(up, "block"), get_field(down, "block")
        ck = get_field(down, "cluster")[2]
        if n % (64 * ck) or k % 64 or l % dblk[1]:
            sys.exit(f"{name}: N' / {ck}, K' must be whole k steps and L' "
                     f"whole {dblk[1]}-wide tiles")
        ugrid[1] = math.ceil(n / ublk[1])
        dgrid[1] = l // dblk[1]
        dblk[2] = n // ck
        up2 = set_field(up, "grid", ugrid)
        down2 = set_field(set_field(down, "grid", dgrid), "block", dblk)
        tag = f"{name}-n{n}k{k}l{l}{suffix}"
        sw = dataclasses.replace(w, name=tag, n=n, k=k, l=l)
        stext = searched(sw, tmp)
        new = f"sequence = [{up2}, {down2}]"
        old = SEQ.search(stext)
        if old:
            stext = stext.replace(old.group(0), new)
        else:
            stext = re.sub(r"(schedule = #dsm\.schedule<[^>]*>)",
                           lambda mt: mt.group(1) + ", " + new, stext,
                           count=1)
        print(tag, lower(stext, os.path.join(out, tag), options=opts) or "ok")
        print("  up  ", up2)
        print("  down", down2)


if __name__ == "__main__":
    main()

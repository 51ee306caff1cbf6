"""Helpers of the ranked-plan sweeps (scripts/bench/sessions/*): the search
at a given rank over a single-GEMM module, the fields of the schedule it
records, and lowering the searched module into a kernel bundle."""
import dataclasses
import json
import os
import re
import subprocess

# FF_OPT (env) may name a test build of ff-opt.
FF_OPT = os.environ.get("FF_OPT", "build/bin/ff-opt")
FUSE = "--dsm-fuse=fuse-single-gemms=true"
# cls_m, cls_n, cls_k, blk_m, blk_n, grid_m, grid_n, stages, cost_ns, and
# whether the plan runs swapped (swap_ab: blk_m is then its token rows).
SCHED = re.compile(r"#dsm\.schedule<cluster = \[(\d+), (\d+), (\d+), 1\], "
                   r"block = \[(\d+), (\d+),[^>]*grid = \[(\d+), (\d+),"
                   r"[^>]*stages = (\d+), cost_ns = (\d+)(, swap_ab = true)?>")

ANY_SCHED = re.compile(r"#dsm\.schedule<[^>]*>")
# A searched chain's kernel sequence: the up GEMM's schedule, the down's.
SEQUENCE = re.compile(r"sequence = \[(#dsm\.schedule<[^>]*>), "
                      r"(#dsm\.schedule<[^>]*>)\]")


def search_rank(src, rank):
    """(searched module text, SCHED match or None, stderr) of `src` with
    the plan of rank `rank` recorded."""
    res = subprocess.run([FF_OPT, src, FUSE, f"--dsm-search=rank={rank}"],
                         capture_output=True, text=True)
    return res.stdout, SCHED.search(res.stdout), res.stderr


def lower(text, bundle, ff_opt=None, options=""):
    """Lowers a searched module into `bundle` with `ff_opt` (FF_OPT by
    default) and more --lower-to-nvvm `options`: "" or ff-opt's error."""
    low = subprocess.run([ff_opt or FF_OPT, "-", "--lower-to-nvvm=format=bin "
                          + (options + " " if options else "") +
                          "emit-bundle=" + bundle, "-o", "/dev/null"],
                         input=text, capture_output=True, text=True)
    return "" if low.returncode == 0 else low.stderr[:300]


def searched_chain(cw, name, tmp, m=None, options=""):
    """(searched module text, its last `#dsm.schedule`: a sequence's down
    GEMM) of paper workload `name` at its M (or at `m`), PyTorch weight
    layout, with more --dsm-search `options` (e.g. "target=h200
    dump=PATH"); `cw` is compile-workloads.py as a module
    (handset.load_compile_workloads)."""
    w = {w.name: w for w in cw.selected()}[name]
    if m is not None:
        w = dataclasses.replace(w, m=m)
    os.makedirs(tmp, exist_ok=True)
    src = os.path.join(tmp, f"{name}-m{w.m}-chain.mlir")
    with open(src, "w") as f:
        f.write(cw.linalg_text(w, False, "nk"))
    search = "--dsm-search" + ("=" + options if options else "")
    res = subprocess.run([FF_OPT, src, "--dsm-fuse", search],
                         capture_output=True, text=True, check=True)
    return res.stdout, ANY_SCHED.findall(res.stdout)[-1]


def searched_half(cw, name, tmp, index, options="target=h200"):
    """(searched module text, the search dump's entry of sequence half
    `index` (0 the up GEMM, 1 the down GEMM), that half's `#dsm.schedule`
    in the text) of paper workload `name` (searched_chain with `options`
    and a dump in `tmp`)."""
    dump = os.path.join(tmp, name + ".json")
    text, _ = searched_chain(cw, name, tmp, options=f"{options} dump={dump}")
    half = json.load(open(dump))["chains"][0]["halves"][index]
    return text, half, SEQUENCE.search(text).group(index + 1)


def candidate_schedule(c):
    """The `#dsm.schedule` of a single-GEMM candidate of the search's dump
    (`--dsm-search=dump=PATH`: a chain half's `lowerable_candidates`): a
    split K's collective is its reduce-scatter (`all_exchange`)."""
    return ("#dsm.schedule<cluster = [%s], block = [%s], grid = [%s], "
            "order = [%s], spatial = [%s], residency = [], collectives = "
            "[%s], stages = %d, cost_ns = %d%s>" % (
                ", ".join(map(str, c["cluster"])),
                ", ".join(map(str, c["block"])),
                ", ".join(map(str, c["grid"])), ", ".join(c["order"]),
                ", ".join(c["spatial"]),
                "all_exchange" if c["cluster"][2] > 1 else "", c["stages"],
                c["cost_ns"], ", swap_ab = true" if c.get("swap_ab") else ""))


def shape_of(mt):
    """<blk_m>x<blk_n>c<cluster size> of a SCHED match."""
    return f"{mt[4]}x{mt[5]}c{int(mt[2]) * int(mt[3])}"


def lower_each_shape(src, out, name, ranks, shape_of=shape_of):
    """Lowers the best-ranked plan of every tile shape and cluster among
    the search's first `ranks` for `src` into OUT/<name>-<shape>, printing
    a line per bundle (its rank, stages, cost and any lowering error);
    returns the first plan's (module text, SCHED match), or None.
    `shape_of` names a SCHED match's shape."""
    seen, first = set(), None
    for r in range(ranks):
        text, mt, err = search_rank(src, r)
        if not mt:
            print(name, r, err[:200])
            continue
        first = first or (text, mt)
        shape = shape_of(mt)
        if shape in seen:
            continue
        seen.add(shape)
        print(f"{out}/{name}-{shape}", "rank", r, "stages", mt[8],
              "cost_ns", mt[9], lower(text, f"{out}/{name}-{shape}"))
    return first

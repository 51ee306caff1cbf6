"""Sixty-second session, call 1 (on the machine with the compiler, from the
repository root): split-K GEMMs of the G/S chains and GEMM-4096/8192 at
M = 150-210 (static M, target=h200) whose split CTAs also share a
multicast operand: the searched bundle (-base) beside hand-written
variants of its split GEMM (usage: THIS OUT [NAME:M ...])

  mc    a swapped split over 2 on two token tiles: both token tiles in one
        cluster [2, 1, 2, 1] (the weight k tile multicast to the pair);
  mc2   a swapped split over 2 on one token tile: two tiles of half the
        tokens in a cluster [2, 1, 2, 1];
  mcn   an unswapped split over 2: two weight tiles in a cluster
        [1, 2, 2, 1] (the token k tile multicast to the pair);
  sw2   an unswapped split over 2 at M <= 224: swapped, two token tiles
        over 2 along k in a cluster [2, 1, 2, 1];
  sw4   the same over 4 along k in a cluster [2, 1, 4, 1] (token tiles a
        multiple of 32);
  su2, su4  as sw2 and sw4 with each token tile its own cluster ([1, 1, 2,
        1] or [1, 1, 4, 1]: no multicast).
Each variant keeps the searched ring depth (fewer stages where its shared
memory does not hold them); a suffix sN (sw4s6) asks for N stages. Call 2
takes `--only V,...` (before the points) to build only those variants."""
import dataclasses
import importlib.util
import re
import subprocess
import sys

sys.path.insert(0, "scripts/bench")
spec = importlib.util.spec_from_file_location("cw", "scripts/compile-workloads.py")
cw = importlib.util.module_from_spec(spec)
spec.loader.exec_module(cw)
import rankplans  # noqa: E402
import workloads  # noqa: E402

out = sys.argv[1]
args = sys.argv[2:]
only = None
if args[:1] == ["--only"]:
    only = args[1].split(",")
    args = args[2:]
ws = {x.name: x for x in workloads.gemm_chains() + workloads.gated_chains() +
      workloads.single_gemms()}
points = args or [f"{n}:{m}" for n in ("G5", "S3", "GEMM-4096")
                          for m in (150, 180, 210)] + \
    ["GEMM-8192:150", "GEMM-8192:210"] + \
    [f"{n}:210" for n in ("G8", "S2", "S4", "S5")]


def field(sched, name):
    return [int(x) for x in re.search(name + r" = \[([^\]]*)\]", sched)
            .group(1).split(",")]


def with_fields(sched, **kw):
    for k, v in kw.items():
        sched = re.sub(k + r" = \[[^\]]*\]", f"{k} = [{', '.join(map(str, v))}]",
                       sched)
    return sched


def variants(sched, m):
    cl, blk, grid = field(sched, "cluster"), field(sched, "block"), field(sched, "grid")
    swapped = "swap_ab = true" in sched
    if cl != [1, 1, 2, 1]:
        return
    if swapped and grid[0] == 2:
        yield "mc", with_fields(sched, cluster=[2, 1, 2, 1], grid=[1] + grid[1:])
    if swapped and grid[0] == 1:
        half = -(-m // 32) * 16
        yield "mc2", with_fields(sched, cluster=[2, 1, 2, 1],
                                 block=[half] + blk[1:])
    if not swapped and grid[1] % 2 == 0:
        yield "mcn", with_fields(sched, cluster=[1, 2, 2, 1],
                                 grid=[grid[0], grid[1] // 2] + grid[2:])
    if not swapped and m <= 224:
        k = blk[2] * 2
        for v, c, unit in (("sw2", 2, 16), ("sw4", 4, 32)):
            tokens = -(-m // (2 * unit)) * unit
            s = with_fields(sched, cluster=[2, 1, c, 1],
                            block=[tokens, 128, k // c, blk[3]],
                            grid=[1, grid[1] * blk[1] // 128, 1, 1])
            s = s.replace(", cost_ns", ", swap_ab = true, cost_ns")
            yield v, s
            yield v.replace("sw", "su"), with_fields(
                s, cluster=[1, 1, c, 1], grid=[2, grid[1] * blk[1] // 128, 1, 1])


def staged(vs):
    for v, sched in vs:
        yield v, sched
        for st in (6, 8):
            yield f"{v}s{st}", re.sub(r"stages = \d+", f"stages = {st}", sched)


for point in points:
    name, m = point.split(":")
    m = int(m)
    w = dataclasses.replace(ws[name], m=m)
    fuse = "--dsm-fuse=fuse-single-gemms=true" if w.kind == "gemm" else "--dsm-fuse"
    s = subprocess.run(["build/bin/ff-opt", "-", fuse, "--dsm-search=target=h200"],
                       input=cw.linalg_text(w, weight_layout="nk"),
                       capture_output=True, text=True, check=True).stdout
    tag = f"{name}m{m}"
    print(tag, "base", rankplans.lower(s, f"{out}/{tag}-base") or "ok")
    split = list(rankplans.ANY_SCHED.finditer(s))[-1]
    print("  searched:", split.group(0))
    for v, new in staged(variants(split.group(0), m)):
        if (only is None and re.search(r"s\d$", v)) or (only and v not in only):
            continue
        for st in range(int(re.search(r"stages = (\d+)", new).group(1)), 1, -1):
            cand = re.sub(r"stages = \d+", f"stages = {st}", new)
            err = rankplans.lower(s[:split.start()] + cand + s[split.end():],
                                  f"{out}/{tag}-{v}")
            if not err:
                print(" ", v, "stages", st, cand)
                break
        else:
            print(" ", v, "failed", err)

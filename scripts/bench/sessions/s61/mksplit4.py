"""Sixty-first session, call 3 (on the machine with the compiler, from the
repository root): G5 at M = 200 (static) with its down GEMM as a swapped
split K over 4 along k on one token tile (224 or 208 tokens, 32 x 4 =
128 CTAs: each weight slice read by one CTA), beside the searched bundle
(-base: 2 token tiles of 112 over 2). (usage: THIS OUT)"""
import dataclasses
import importlib.util
import re
import subprocess
import sys

sys.path.insert(0, "scripts/bench")
spec = importlib.util.spec_from_file_location("cw", "scripts/compile-workloads.py")
cw = importlib.util.module_from_spec(spec)
spec.loader.exec_module(cw)
import workloads  # noqa: E402

out = sys.argv[1]
ws = {x.name: x for x in workloads.gemm_chains()}


def lower(src, d):
    return subprocess.run(
        ["build/bin/ff-opt", "-", f"--lower-to-nvvm=format=bin emit-bundle={d}",
         "-o", "/dev/null"], input=src, capture_output=True, text=True)


for name, m in (("G5", 200),):
    w = dataclasses.replace(ws[name], m=m)
    s = subprocess.run(["build/bin/ff-opt", "-", "--dsm-fuse", "--dsm-search"],
                       input=cw.linalg_text(w, weight_layout="nk"),
                       capture_output=True, text=True, check=True).stdout
    r = lower(s, f"{out}/{name}m{m}-base")
    print(name, "base", r.returncode, r.stderr[:200])
    down = list(re.finditer(r"#dsm.schedule<[^>]*>", s))[2]
    print("searched down:", down.group(0))
    n, k = w.l, w.n
    for c, tokens in ((4, 224), (4, 208)):
        for st in (8, 7, 6, 5, 4, 3):
            new = (f"#dsm.schedule<cluster = [1, 1, {c}, 1], block = [{tokens}, 128, {k // c}, 16], "
                   f"grid = [1, {n // 128}, 1, 1], order = [m, n, k, l], spatial = [m, n, k], "
                   f"residency = [], collectives = [all_exchange], stages = {st}, "
                   f"cost_ns = 0, swap_ab = true>")
            r = lower(s[:down.start()] + new + s[down.end():],
                      f"{out}/{name}m{m}-k{c}t{tokens}")
            if r.returncode == 0:
                print(name, c, tokens, "stages", st)
                break
        else:
            print(name, c, tokens, "failed", r.stderr[:300])

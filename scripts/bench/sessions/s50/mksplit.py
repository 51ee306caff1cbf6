# (fiftieth session, call 6) Run from the repository root with the compiler
# built. mksplit.py OUT: the down GEMM (second sequence kernel) of G5, G8,
# S1, S3 and S7 at M = 300 as a swapped split K (token tiles of 160 rows,
# 128 weight rows, clusters of c = 2 or 4 along k, the deepest ring that
# fits), beside the searched bundle (-base).
import dataclasses, importlib.util, re, subprocess, sys
sys.path.insert(0, "scripts/bench")
spec = importlib.util.spec_from_file_location("cw", "scripts/compile-workloads.py")
cw = importlib.util.module_from_spec(spec); spec.loader.exec_module(cw)
import workloads
out = sys.argv[1]
ws = {x.name: x for x in workloads.gemm_chains() + workloads.gated_chains()}
m = 300
def lower(src, d):
    return subprocess.run(["build/bin/ff-opt", "-", f"--lower-to-nvvm=format=bin emit-bundle={d}",
                           "-o", "/dev/null"], input=src, capture_output=True, text=True)
for name in ("G5", "G8", "S1", "S3", "S7"):
    w = dataclasses.replace(ws[name], m=m)
    s = subprocess.run(["build/bin/ff-opt", "-", "--dsm-fuse", "--dsm-search"],
                       input=cw.linalg_text(w, weight_layout="nk"), capture_output=True,
                       text=True, check=True).stdout
    r = lower(s, f"{out}/{name}-m{m}-base"); print(name, "base", r.returncode, r.stderr[:200])
    sch = list(re.finditer(r"#dsm.schedule<[^>]*>", s))
    down = sch[2]
    n = w.l  # the down GEMM's N (the chain's L)
    k = w.n
    for c in (2, 4):
        for st in (6, 5, 4, 3):
            new = (f"#dsm.schedule<cluster = [1, 1, {c}, 1], block = [160, 128, {k // c}, 16], "
                   f"grid = [2, {n // 128}, 1, 1], order = [m, n, k, l], spatial = [m, n, k], residency = [], "
                   f"collectives = [all_exchange], stages = {st}, cost_ns = 0, swap_ab = true>")
            t = s[:down.start()] + new + s[down.end():]
            r = lower(t, f"{out}/{name}-m{m}-k{c}")
            if r.returncode == 0:
                print(name, c, "stages", st); break
        else:
            print(name, c, "failed", r.stderr[:300])

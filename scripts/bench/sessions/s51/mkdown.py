# (fifty-first session, call 6) Run from the repository root with the
# compiler built. mkdown.py OUT: the down GEMM of exact-M chains swapped
# onto cuBLAS's narrow tiles (ncu, call 5): 64 weight rows (one consumer
# warpgroup) against 80 or 104 tokens on an 8-stage ring at M = 300
# (-d64x80, -d64x104; cuBLAS tst_64x80_64x11, tst_64x104_64x10), 256
# weight rows against 64 tokens at M = 800 (-d256x64; cuBLAS
# tst_256x64), against the searched bundle (-base).
import dataclasses, importlib.util, math, re, subprocess, sys
sys.path.insert(0, "scripts/bench")
spec = importlib.util.spec_from_file_location("cw", "scripts/compile-workloads.py")
cw = importlib.util.module_from_spec(spec); spec.loader.exec_module(cw)
import workloads
out = sys.argv[1]
ws = {x.name: x for x in workloads.gemm_chains() + workloads.gated_chains()}
todo = {("S1", 300): ["d64x80", "d64x104"], ("S2", 300): ["d64x80", "d64x104"],
        ("S4", 300): ["d64x80", "d64x104"], ("S7", 300): ["d64x80", "d64x104"],
        ("G8", 300): ["d64x80", "d64x104"], ("S7", 800): ["d256x64"],
        ("S1", 800): ["d256x64"]}
def sched(m, l, rows, toks, stages):
    return (f"#dsm.schedule<cluster = [1, 1, 1, 1], block = [{toks}, {rows}, 64, 16], "
            f"grid = [{math.ceil(m / toks)}, {l // rows}, 1, 1], order = [m, n, k, l], "
            f"spatial = [m, n], residency = [], collectives = [], stages = {stages}, "
            f"cost_ns = 0, swap_ab = true>")
for (name, m), vs in todo.items():
    w = ws[name]
    src = cw.linalg_text(dataclasses.replace(w, m=m), weight_layout="nk")
    s = subprocess.run(["build/bin/ff-opt", "-", "--dsm-fuse", "--dsm-search"],
                       input=src, capture_output=True, text=True, check=True).stdout
    t = list(re.finditer(r"#dsm.schedule<[^>]*>", s))[2]
    variants = {"base": s}
    for v in vs:
        rows, toks = map(int, v[1:].split("x"))
        stages = min(8, (227 * 1024 - 1024) // ((rows + toks) * 128))
        variants[v] = s[:t.start()] + sched(m, w.l, rows, toks, stages) + s[t.end():]
    for v, ir in variants.items():
        d = f"{out}/{name}-m{m}-{v}"
        r = subprocess.run(["build/bin/ff-opt", "-", f"--lower-to-nvvm=format=bin emit-bundle={d}",
                            "-o", "/dev/null"], input=ir, capture_output=True, text=True)
        print(d, "rc", r.returncode, r.stderr[:300], re.findall(r"#dsm.schedule<[^>]*>", ir)[2][:110])

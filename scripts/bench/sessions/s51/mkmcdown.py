# (fifty-first session, call 10) Run from the repository root with the
# compiler built (and swapped clusters of 4 along n allowed in planKernel).
# mkmcdown.py OUT: the M = 300 down GEMMs of S2, S4, S7, G8 on 64 weight
# rows against 80 or 104 tokens (8 stages) in clusters of 2 or 4 along n
# (the token tile multicast to the cluster's weight tiles, as cuBLAS's
# tst_64x104 with clusters 4 x 1: -d64x<W>c<C>), and alone (-d64x<W>c1),
# against the searched bundle (-base).
import dataclasses, importlib.util, math, re, subprocess, sys
sys.path.insert(0, "scripts/bench")
spec = importlib.util.spec_from_file_location("cw", "scripts/compile-workloads.py")
cw = importlib.util.module_from_spec(spec); spec.loader.exec_module(cw)
import workloads
out = sys.argv[1]
ws = {x.name: x for x in workloads.gemm_chains() + workloads.gated_chains()}
todo = {"S2": [80], "S4": [104], "S7": [104], "G8": [104]}
m = 300
for name, widths in todo.items():
    w = ws[name]
    src = cw.linalg_text(dataclasses.replace(w, m=m), weight_layout="nk")
    s = subprocess.run(["build/bin/ff-opt", "-", "--dsm-fuse", "--dsm-search"],
                       input=src, capture_output=True, text=True, check=True).stdout
    t = list(re.finditer(r"#dsm.schedule<[^>]*>", s))[2]
    variants = {"base": s}
    for tw in widths:
        for c in (1, 2, 4):
            g = (f"#dsm.schedule<cluster = [1, {c}, 1, 1], block = [{tw}, 64, 64, 16], "
                 f"grid = [{math.ceil(m / tw)}, {w.l // 64 // c}, 1, 1], order = [m, n, k, l], "
                 f"spatial = [m, n], residency = [], collectives = [], stages = 8, "
                 f"cost_ns = 0, swap_ab = true>")
            variants[f"d64x{tw}c{c}"] = s[:t.start()] + g + s[t.end():]
    for v, ir in variants.items():
        d = f"{out}/{name}-m{m}-{v}"
        r = subprocess.run(["build/bin/ff-opt", "-", f"--lower-to-nvvm=format=bin emit-bundle={d}",
                            "-o", "/dev/null"], input=ir, capture_output=True, text=True)
        print(d, "rc", r.returncode, r.stderr[:300])

# (fiftieth session, calls 2-3) Run from the repository root with the compiler built.
# mkrow.py OUT: the swapped kernels of the nine exact-M chains and the lone
# GEMM as 256-row weight tiles (two accumulators per consumer warpgroup),
# one CTA per cluster (-r1) and in pairs along M (-r2, even token-tile
# counts only); -c1: the landed kernels.
import dataclasses, importlib.util, math, re, subprocess, sys
sys.path.insert(0, "scripts/bench")
spec = importlib.util.spec_from_file_location("cw", "scripts/compile-workloads.py")
cw = importlib.util.module_from_spec(spec); spec.loader.exec_module(cw)
import workloads
out = sys.argv[1]
ws = {x.name: x for x in workloads.gemm_chains() + workloads.gated_chains()}
todo = [("G4", 800), ("G5", 300), ("G5", 800), ("G6", 800), ("G8", 300), ("G8", 800),
        ("S1", 800), ("S3", 800), ("S7", 800), ("GEMM", 300)]
def ir(name, m):
    if name == "GEMM":
        w = workloads.Workload("g", "gemm", m, 16384, 4096, 0, act="identity")
        fuse = "--dsm-fuse=fuse-single-gemms=true"
    else:
        w = dataclasses.replace(ws[name], m=m); fuse = "--dsm-fuse"
    r = subprocess.run(["build/bin/ff-opt", "-", fuse, "--dsm-search=swap-operands=true"],
                       input=cw.linalg_text(w, weight_layout="nk"), capture_output=True, text=True, check=True)
    return r.stdout
def fit(m):
    ws = []
    for t in range(math.ceil(m / 256), math.ceil(m / 128) + 1):
        w = (math.ceil(m / t) + 7) // 8 * 8
        if 128 <= w <= 184 and w not in ws: ws.append(w)
    return ws
def rewrite(s, m, mode):
    ok = [True]
    def f(mo):
        t = mo.group(0)
        if "swap_ab = true" not in t or "sequence" in t: return t
        b0, b1 = map(int, re.search(r"block = \[(\d+), (\d+)", t).groups())
        g1 = int(re.search(r"grid = \[\d+, (\d+)", t).group(1))
        n = b1 * g1
        w = b0 if b0 <= 184 else max(fit(m))
        if mode == "r2" and math.ceil(m / w) % 2:
            even = [x for x in fit(m) if math.ceil(m / x) % 2 == 0]
            w = max(even) if even else w
        tiles = math.ceil(m / w)
        if mode == "c1":
            cls, bn, st = 1, b1, int(re.search(r"stages = (\d+)", t).group(1))
            w = b0
        else:
            cls, bn, st = int(mode[1]), 256, 4
            if n % 256 or (cls == 2 and tiles % 2): ok[0] = False
        g0 = math.ceil(m / (w * cls))
        return (f"#dsm.schedule<cluster = [{cls}, 1, 1, 1], block = [{w}, {bn}, 64, 16], grid = [{g0}, {n // bn}, 1, 1], "
                f"order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [], stages = {st}, cost_ns = 0, swap_ab = true>")
    r = re.sub(r"#dsm.schedule<[^>]*>", f, s)
    return r if ok[0] else None
for name, m in todo:
    s = ir(name, m)
    for mode in ("c1", "r1", "r2"):
        v = rewrite(s, m, mode)
        if v is None: print(name, m, mode, "skipped"); continue
        d = f"{out}/{name}-m{m}-{mode}"
        r = subprocess.run(["build/bin/ff-opt", "-", f"--lower-to-nvvm=format=bin emit-bundle={d}",
                            "-o", "/dev/null"], input=v, capture_output=True, text=True)
        print(d, "rc", r.returncode, r.stderr[:300])

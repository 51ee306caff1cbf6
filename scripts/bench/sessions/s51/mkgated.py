# (fifty-first session, call 1) Run from the repository root with the
# compiler built. mkgated.py OUT: the S chains at M = 300, 800 and 1500,
# searched (-base), and with the gated GEMM swapped (-g<W>: gate's and up's
# 128-row weight tiles against a W-row token tile, no cluster): W the
# widest fitted token width <= 184 and the one of the best wave fill over
# 132 SMs, or the widths WIDTHS lists (comma-separated; fifty-second
# session). mkgated.py OUT NAMES builds only the named chains (S2-m300,...).
import dataclasses, importlib.util, math, os, re, subprocess, sys
sys.path.insert(0, "scripts/bench")
spec = importlib.util.spec_from_file_location("cw", "scripts/compile-workloads.py")
cw = importlib.util.module_from_spec(spec); spec.loader.exec_module(cw)
import workloads
out = sys.argv[1]
only = sys.argv[2].split(",") if len(sys.argv) > 2 else None
SMS = 132
def widths(m):
    ws = []
    for t in range(math.ceil(m / 184), math.ceil(m / 64) + 1):
        w = (math.ceil(m / t) + 7) // 8 * 8
        if 64 <= w <= 184 and w not in ws:
            ws.append(w)
    return ws
def pick(m, n):
    ws = widths(m)
    fill = lambda w: (lambda t: t / (math.ceil(t / SMS) * SMS))(n // 128 * math.ceil(m / w))
    best = max(ws, key=lambda w: (round(fill(w), 2), w))
    return sorted({max(ws), best}, reverse=True)
# STORE_RESERVE (bytes, default 0): shared memory kept off the ring, from
# the fifty-second session the staged stores' buffers (8 x 512 bytes).
RESERVE = int(os.environ.get("STORE_RESERVE", "0"))
def stages(w):
    return min(6, (227 * 1024 - 1024 - RESERVE) // (32768 + w * 128))
for w in workloads.gated_chains():
    for m in (300, 800, 1500):
        name = f"{w.name}-m{m}"
        if only and name not in only:
            continue
        src = cw.linalg_text(dataclasses.replace(w, m=m), weight_layout="nk")
        s = subprocess.run(["build/bin/ff-opt", "-", "--dsm-fuse", "--dsm-search"],
                           input=src, capture_output=True, text=True, check=True).stdout
        scheds = list(re.finditer(r"#dsm.schedule<[^>]*>", s))
        variants = {"base": s}
        # WIDTHS (comma-separated token widths) replaces the two picked.
        picked = [int(x) for x in os.environ["WIDTHS"].split(",")] if os.environ.get("WIDTHS") else pick(m, w.n)
        for tw in picked:
            g = f"#dsm.schedule<cluster = [1, 1, 1, 1], block = [{tw}, 128, 64, 16], grid = [{math.ceil(m / tw)}, {w.n // 128}, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [], stages = {stages(tw)}, cost_ns = 0, swap_ab = true>"
            t = scheds[1]
            variants[f"g{tw}"] = s[:t.start()] + g + s[t.end():]
        for v, ir in variants.items():
            d = f"{out}/{name}-{v}"
            r = subprocess.run(["build/bin/ff-opt", "-", f"--lower-to-nvvm=format=bin emit-bundle={d}",
                                "-o", "/dev/null"], input=ir, capture_output=True, text=True)
            print(d, "rc", r.returncode, r.stderr[:300])

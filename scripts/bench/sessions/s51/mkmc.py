# (fifty-first session, call 3) Run from the repository root with the
# compiler built. mkmc.py OUT: exact-M chains whose swapped plain GEMMs
# (one CTA per cluster, an even count of weight tiles) take a cluster of 2
# along n instead (-mc: two weight tiles share each token k tile by TMA
# multicast, the product's B), against the searched bundle (-base); G5's up
# GEMM at M = 800 also on 160-token tiles alone (-w160c1) and in pairs
# (-w160c2), as cuBLAS's tst_128x160 with clusters 2 x 1.
import dataclasses, importlib.util, re, subprocess, sys
sys.path.insert(0, "scripts/bench")
spec = importlib.util.spec_from_file_location("cw", "scripts/compile-workloads.py")
cw = importlib.util.module_from_spec(spec); spec.loader.exec_module(cw)
import workloads
out = sys.argv[1]
ws = {x.name: x for x in workloads.gemm_chains() + workloads.gated_chains()}
todo = [("G4", 800), ("G5", 800), ("G6", 800), ("G8", 300), ("G8", 800),
        ("S1", 800), ("S3", 800), ("S7", 800)]
def rewrite(s, which, f):
    scheds = list(re.finditer(r"#dsm.schedule<[^>]*>", s))
    for i in reversed(which):
        t = scheds[i]
        s = s[:t.start()] + f(t.group(0)) + s[t.end():]
    return s
def pair(t):
    if "swap_ab = true" not in t or "cluster = [1, 1, 1, 1]" not in t:
        return t
    g0, g1 = map(int, re.search(r"grid = \[(\d+), (\d+)", t).groups())
    if g1 % 2:
        return t
    return (t.replace("cluster = [1, 1, 1, 1]", "cluster = [1, 2, 1, 1]")
             .replace(f"grid = [{g0}, {g1},", f"grid = [{g0}, {g1 // 2},"))
def w160(cls):
    def f(t):
        st = 6
        return re.sub(r"cluster = \[[^\]]*\], block = \[\d+, 128, 64, 16\], grid = \[\d+, (\d+),",
                      lambda mo: f"cluster = [1, {cls}, 1, 1], block = [160, 128, 64, 16], grid = [5, {128 // cls},",
                      re.sub(r"stages = \d+", f"stages = {st}", t))
    return f
for name, m in todo:
    src = cw.linalg_text(dataclasses.replace(ws[name], m=m), weight_layout="nk")
    s = subprocess.run(["build/bin/ff-opt", "-", "--dsm-fuse", "--dsm-search"],
                       input=src, capture_output=True, text=True, check=True).stdout
    # (A swapped gated GEMM takes no cluster: only the S chains' down GEMM.)
    variants = {"base": s, "mc": rewrite(s, [2] if name[0] == "S" else [1, 2], pair)}
    if (name, m) == ("G5", 800):
        variants["w160c1"] = rewrite(s, [1], w160(1))
        variants["w160c2"] = rewrite(s, [1], w160(2))
    for v, ir in variants.items():
        d = f"{out}/{name}-m{m}-{v}"
        r = subprocess.run(["build/bin/ff-opt", "-", f"--lower-to-nvvm=format=bin emit-bundle={d}",
                            "-o", "/dev/null"], input=ir, capture_output=True, text=True)
        plans = re.findall(r"#dsm.schedule<cluster = (\[[^\]]*\]), block = (\[[^\]]*\]), grid = (\[[^\]]*\])", ir)
        print(d, "rc", r.returncode, r.stderr[:300], plans[1:])

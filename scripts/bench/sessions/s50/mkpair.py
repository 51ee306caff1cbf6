# (fiftieth session, call 1) Run from the repository root with the compiler built.
# mkpair.py OUT: for the nine exact-M chains the search swaps and the lone
# 300 x 16384 x 4096 GEMM, the searched IR's swapped schedules rewritten as
# one CTA per cluster (-c1) and as pairs along M (-c2), lowered to bundles.
import dataclasses, importlib.util, math, re, subprocess, sys
sys.path.insert(0, "scripts/bench")
spec = importlib.util.spec_from_file_location("cw", "scripts/compile-workloads.py")
cw = importlib.util.module_from_spec(spec); spec.loader.exec_module(cw)
import workloads
out = sys.argv[1]
ws = {x.name: x for x in workloads.gemm_chains() + workloads.gated_chains()}
todo = [(n, m) for n, m in [("G4", 800), ("G5", 300), ("G5", 800), ("G6", 800), ("G8", 300),
                            ("G8", 800), ("S1", 800), ("S3", 800), ("S7", 800)]]
def ir(name, m):
    if name == "GEMM":
        w = workloads.Workload("g", "gemm", m, 16384, 4096, 0, act="identity")
        fuse = "--dsm-fuse=fuse-single-gemms=true"
    else:
        w = dataclasses.replace(ws[name], m=m); fuse = "--dsm-fuse"
    src = cw.linalg_text(w, weight_layout="nk")
    r = subprocess.run(["build/bin/ff-opt", "-", fuse, "--dsm-search"], input=src,
                       capture_output=True, text=True, check=True)
    return r.stdout
def rewrite(s, m, cls):
    def f(mo):
        t = mo.group(0)
        if "swap_ab = true" not in t: return t
        b0 = int(re.search(r"block = \[(\d+),", t).group(1))
        g0 = math.ceil(m / (b0 * cls))
        t = re.sub(r"cluster = \[\d+, ", f"cluster = [{cls}, ", t)
        return re.sub(r"grid = \[\d+, ", f"grid = [{g0}, ", t)
    return re.sub(r"#dsm.schedule<[^>]*>", f, s)
for name, m in todo + [("GEMM", 300)]:
    s = ir(name, m)
    if "swap_ab = true" not in s:
        print(name, m, "no swapped kernel"); continue
    for cls in (1, 2):
        d = f"{out}/{name}-m{m}-c{cls}"
        r = subprocess.run(["build/bin/ff-opt", "-", f"--lower-to-nvvm=format=bin emit-bundle={d}",
                            "-o", "/dev/null"], input=rewrite(s, m, cls), capture_output=True, text=True)
        print(d, "rc", r.returncode, r.stderr[:300])

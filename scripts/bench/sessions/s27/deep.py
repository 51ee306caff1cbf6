# Hand-set GEMM-4096 rings of 8-13 stages (s27b's .device/s27h; needs the
# stage limit raised to 16, not landed). Usage: python3 THIS OUT_DIR
import sys, re, subprocess
sys.path.insert(0, "python")
from flashfuser.mlirgen import generate_mlir
import os
os.makedirs("/tmp/s27", exist_ok=True)  # scratch MLIR
out = sys.argv[1]
base = "order = [m, n, k, l], spatial = [m, n], residency = [], collectives = []"
def build(m, n, k, name, cl, blk, grid, st):
    src = generate_mlir({"kind": "gemm", "m": m, "n": n, "k": k, "l": 0, "activation": "identity", "dtype": "bf16", "weight_layout": "nk"})
    open("/tmp/s27/g.mlir", "w").write(src)
    searched = subprocess.run(["build/bin/ff-opt", "/tmp/s27/g.mlir", "--dsm-fuse=fuse-single-gemms=true", "--dsm-search"], capture_output=True, text=True).stdout
    sched = "cluster = [%s], block = [%s], grid = [%s], %s, stages = %d, cost_ns = 1" % (cl, blk, grid, base, st)
    text = re.sub(r"#dsm\.schedule<[^>]*>", "#dsm.schedule<" + sched + ">", searched)
    p = "/tmp/s27/h-%s.mlir" % name
    open(p, "w").write(text)
    r = subprocess.run(["build/bin/ff-opt", p, "--lower-to-nvvm=format=bin emit-bundle=%s/%s" % (out, name), "-o", "/dev/null"], capture_output=True, text=True)
    print(name, r.returncode, r.stderr.strip()[:300])
for m in (16, 64, 128):
    for st in (8, 10, 12, 13):
        build(m, 4096, 4096, "GEMM-4096-m%d-m64n64s%d" % (m, st), "1, 1, 1, 1", "64, 64, 64, 16", "%d, 64, 1, 1" % ((m + 63) // 64), st)
for st in (8, 9):
    build(256, 4096, 4096, "GEMM-4096-m256-m64n128s%d" % st, "1, 1, 1, 1", "64, 128, 64, 16", "4, 32, 1, 1", st)
    build(256, 4096, 4096, "GEMM-4096-m256-m128n64s%d" % st, "1, 1, 1, 1", "128, 64, 64, 16", "2, 64, 1, 1", st)

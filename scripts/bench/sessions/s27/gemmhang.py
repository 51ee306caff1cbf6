# GEMM-4096-m128 clusters of 2 along n under hand-set plans (s27a's
# .device/s27b; run gemmhand.py first). Usage: python3 THIS OUT_DIR
import sys, re, subprocess
import os
os.makedirs("/tmp/s27", exist_ok=True)  # scratch MLIR
searched = subprocess.run(["build/bin/ff-opt", "/tmp/s27/g.mlir", "--dsm-fuse=fuse-single-gemms=true", "--dsm-search"], capture_output=True, text=True).stdout
out = sys.argv[1]
base = "order = [m, n, k, l], spatial = [m, n], residency = [], collectives = []"
for name, cl, blk, grid, st, extra in [
    ("c2m64n64s4", "1, 2, 1, 1", "64, 64, 64, 16", "2, 32, 1, 1", 4, ""),
    ("c2m128n64s8", "1, 2, 1, 1", "128, 64, 64, 16", "1, 32, 1, 1", 8, ""),
    ("c2m64n128s8", "1, 2, 1, 1", "64, 128, 64, 16", "2, 16, 1, 1", 8, ""),
    ("c2m64n64s8np", "1, 2, 1, 1", "64, 64, 64, 16", "2, 32, 1, 1", 8, "persistent-gemm=false"),
    ("c2m128n256s4", "1, 2, 1, 1", "128, 256, 64, 16", "1, 8, 1, 1", 4, ""),
]:
    sched = "cluster = [%s], block = [%s], grid = [%s], %s, stages = %d, cost_ns = 1" % (cl, blk, grid, base, st)
    text = re.sub(r"#dsm\.schedule<[^>]*>", "#dsm.schedule<" + sched + ">", searched)
    p = "/tmp/s27/h-%s.mlir" % name
    open(p, "w").write(text)
    r = subprocess.run(["build/bin/ff-opt", p, "--lower-to-nvvm=format=bin emit-bundle=%s/GEMM-4096-m128-%s %s" % (out, name, extra), "-o", "/dev/null"], capture_output=True, text=True)
    print(name, r.returncode, r.stderr.strip()[:200])

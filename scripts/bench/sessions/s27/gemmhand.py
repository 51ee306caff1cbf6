# GEMM-4096-m128 under hand-set plans (s27a's .device/s27b; run before
# gemmhang.py, which reads its searched IR). Usage: python3 THIS OUT_DIR
import sys, re, subprocess, os
sys.path.insert(0, "python")
from flashfuser.mlirgen import generate_mlir
import os
os.makedirs("/tmp/s27", exist_ok=True)  # scratch MLIR
src = generate_mlir({"kind": "gemm", "m": 128, "n": 4096, "k": 4096, "l": 0, "activation": "identity", "dtype": "bf16", "weight_layout": "nk"})
open("/tmp/s27/g.mlir", "w").write(src)
r = subprocess.run(["build/bin/ff-opt", "/tmp/s27/g.mlir", "--dsm-fuse=fuse-single-gemms=true", "--dsm-search"], capture_output=True, text=True)
searched = r.stdout
print(re.search(r"#dsm\.schedule<[^>]*>", searched).group(0))
out = sys.argv[1]
for name, sched in [
    ("m64n64s8", "cluster = [1, 1, 1, 1], block = [64, 64, 64, 16], grid = [2, 64, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [], stages = 8"),
    ("m64n64c2s8", "cluster = [1, 2, 1, 1], block = [64, 64, 64, 16], grid = [2, 32, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [], stages = 8"),
    ("m128n64s8", "cluster = [1, 1, 1, 1], block = [128, 64, 64, 16], grid = [1, 64, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [], stages = 8"),
    ("m64n128s8", "cluster = [1, 1, 1, 1], block = [64, 128, 64, 16], grid = [2, 32, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [], stages = 8"),
]:
    text = re.sub(r"#dsm\.schedule<[^>]*>", "#dsm.schedule<" + sched + ", cost_ns = 1>", searched)
    p = "/tmp/s27/g-%s.mlir" % name
    open(p, "w").write(text)
    r = subprocess.run(["build/bin/ff-opt", p, "--lower-to-nvvm=format=bin emit-bundle=%s/GEMM-4096-m128-%s" % (out, name), "-o", "/dev/null"], capture_output=True, text=True)
    print(name, r.returncode, r.stderr.strip()[:300])

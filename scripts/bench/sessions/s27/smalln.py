# N = 256 GEMMs with and without the wide tiles (s27b's .device/s27i).
# Usage: python3 THIS OUT_DIR
import sys, subprocess
sys.path.insert(0, "python")
from flashfuser.mlirgen import generate_mlir
import os
os.makedirs("/tmp/s27", exist_ok=True)  # scratch MLIR
out = sys.argv[1]
for m, n, k in ((8192, 256, 1024), (4096, 256, 4096)):
    src = generate_mlir({"kind": "gemm", "m": m, "n": n, "k": k, "l": 0, "activation": "identity", "dtype": "bf16", "weight_layout": "nk"})
    open("/tmp/s27/sn.mlir", "w").write(src)
    for v, opt in (("new", ""), ("old", "=wide-gemm-tiles=false")):
        name = "GEMMSN-%dx%dx%d-%s" % (m, n, k, v)
        r = subprocess.run(["build/bin/ff-opt", "/tmp/s27/sn.mlir", "--dsm-fuse=fuse-single-gemms=true", "--dsm-search" + opt,
                            "--lower-to-nvvm=format=bin emit-bundle=%s/%s" % (out, name), "-o", "/dev/null"], capture_output=True, text=True)
        print(name, r.returncode, r.stderr.strip()[:200])

# The two GEMMs of an FFN chain as single-GEMM bundles (usage: THIS OUT [ACT]): act(A.B) (bf16) and
# C.D, each at the search's ranks 0-2.
import sys, subprocess
sys.path.insert(0, "python")
from flashfuser.mlirgen import generate_mlir
import os
os.makedirs("/tmp/s27", exist_ok=True)  # scratch MLIR
out = sys.argv[1]
# s27c.sh ran gelu_erf; the G chains (and s27e.sh) use gelu_tanh.
act = sys.argv[2] if len(sys.argv) > 2 else "gelu_tanh"
G = {"G4": (128, 3072, 768, 768), "G5": (128, 16384, 4096, 4096),
     "G6": (128, 4096, 1024, 1024), "G8": (128, 8192, 2048, 2048)}
for name, (m, n, k, l) in G.items():
    for part, spec in (("k0", {"m": m, "n": n, "k": k, "activation": act}),
                       ("k1", {"m": m, "n": l, "k": n, "activation": "identity"})):
        spec.update({"kind": "gemm", "l": 0, "dtype": "bf16", "out_dtype": "bf16", "weight_layout": "nk"})
        src = generate_mlir(spec)
        p = "/tmp/s27/twok-%s-%s.mlir" % (name, part)
        open(p, "w").write(src)
        for r in range(3):
            b = "%s/%s%s-r%d" % (out, name, part, r)
            res = subprocess.run(["build/bin/ff-opt", p, "--dsm-fuse=fuse-single-gemms=true", "--dsm-search=rank=%d" % r,
                                  "--lower-to-nvvm=format=bin emit-bundle=" + b, "-o", "/dev/null"], capture_output=True, text=True)
            import json
            try:
                pl = json.load(open(b + "/manifest.json"))["plan"]
                print(b, pl["block"], pl["cluster"], pl["stages"], pl["cost_ns"])
            except Exception:
                print(b, res.returncode, res.stderr[:200])

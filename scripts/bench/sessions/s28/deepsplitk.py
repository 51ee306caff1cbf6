"""Split-K GEMM clusters with deeper rings than the search offers (it caps
non-wide plans at 4 stages): the down GEMMs of S1-S8 at M = 128 with the
search's 128 x 128 (cls_k 4 and 8) and 64 x 256 (cls_k 4) plans re-staged
by hand (usage: THIS OUT): OUT/<S>DN-<blk_m>x<blk_n>c<cls>s<stages>, the
4-stage plan beside each."""
import os, re, subprocess, sys

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(os.path.dirname(here)))  # scripts/bench
sys.path.insert(0, os.path.join(here, "..", "..", "..", "..", "python"))
from workloads import S  # noqa: E402
from flashfuser.mlirgen import generate_mlir  # noqa: E402

out = sys.argv[1]
os.makedirs("/tmp/s28", exist_ok=True)
# (blk_m, blk_n, cls_k) -> stages to try: what fits 227 KB beside the
# reduced slice.
SHAPES = {(128, 128, 4): (4, 5, 6), (128, 128, 8): (4, 6), (64, 256, 4): (4, 5)}
for name, m, n, k, l in S:
    src = f"/tmp/s28/{name}DN.mlir"
    open(src, "w").write(generate_mlir({
        "kind": "gemm", "m": m, "n": l, "k": n, "l": 0,
        "activation": "identity", "dtype": "bf16", "out_dtype": "bf16",
        "weight_layout": "nk"}))
    seen = set()
    for r in range(16):
        res = subprocess.run(["build/bin/ff-opt", src,
                              "--dsm-fuse=fuse-single-gemms=true",
                              f"--dsm-search=rank={r}"],
                             capture_output=True, text=True)
        mt = re.search(r"cluster = \[1, 1, (\d+), 1\], block = \[(\d+), (\d+),",
                       res.stdout)
        if not mt:
            continue
        key = (int(mt[2]), int(mt[3]), int(mt[1]))
        if key not in SHAPES or key in seen:
            continue
        seen.add(key)
        for st in SHAPES[key]:
            text = re.sub(r"stages = \d+", f"stages = {st}", res.stdout)
            b = f"{out}/{name}DN-{key[0]}x{key[1]}c{key[2]}s{st}"
            low = subprocess.run(["build/bin/ff-opt", "-",
                                  "--lower-to-nvvm=format=bin emit-bundle=" + b,
                                  "-o", "/dev/null"], input=text,
                                 capture_output=True, text=True)
            print(b, "rank", r, "ok" if low.returncode == 0 else low.stderr[:300])

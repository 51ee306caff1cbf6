"""Forty-first session, on the machine with the compiler: S3's down GEMM
(M x 11008 -> 4096) at M = 256 and 512 alone. ncu (call 2) timed ours at
43.1 / 72.5 us against cuBLAS's 40.4 (128 x 64, 8 stages) / 60.6 (128 x
128, 6 stages) with the tensor pipe 56-71 % busy against 60-86 %. Bundles:
the best-ranked plan of every tile shape and cluster among the search's
first 16, the first unsplit 128 x 128 and 128 x 64 plans at 4 to 8 stages,
and those in clusters of 2 along m (B multicast, hand-set):
OUT/S3DN<M>-<blk_m>x<blk_n>c<cls>[s<stages>|mcm] (usage: THIS OUT)."""
import os, sys

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", "..", "..", "..", "python"))
sys.path.insert(0, os.path.join(here, "..", ".."))
from flashfuser.mlirgen import generate_mlir  # noqa: E402
from rankplans import lower, search_rank  # noqa: E402

out = sys.argv[1]
os.makedirs("/tmp/s41", exist_ok=True)


for m in (256, 512):
    w = f"S3DN{m}"
    src = f"/tmp/s41/{w}.mlir"
    open(src, "w").write(generate_mlir({
        "kind": "gemm", "m": m, "n": 4096, "k": 11008,
        "activation": "identity", "dtype": "bf16", "out_dtype": "bf16",
        "weight_layout": "nk"}))
    seen, unsplit = set(), {}
    for r in range(16):
        text, mt, err = search_rank(src, r)
        if not mt:
            print(w, r, err[:200])
            continue
        shape = f"{mt[4]}x{mt[5]}c{int(mt[2]) * int(mt[3])}"
        if mt.group(1, 2, 3) == ("1", "1", "1") and mt[5] in ("64", "128") \
                and mt[4] == "128":
            unsplit.setdefault(mt[5], (text, mt))
        if shape in seen:
            continue
        seen.add(shape)
        print(f"{out}/{w}-{shape}", "rank", r, "stages", mt[8], "cost_ns",
              mt[9], lower(text, f"{out}/{w}-{shape}") or "ok")
    for blk_n, (text, mt) in sorted(unsplit.items()):
        base = f"{out}/{w}-128x{blk_n}c1"
        for st in (4, 6, 8):
            if str(st) == mt[8]:
                continue
            s = mt[0].replace(f"stages = {mt[8]},", f"stages = {st},")
            print(f"{base}s{st}", "hand-set",
                  lower(text.replace(mt[0], s), f"{base}s{st}") or "ok")
        s = mt[0].replace("cluster = [1, 1, 1, 1]", "cluster = [2, 1, 1, 1]"
                          ).replace(f"grid = [{mt[6]}, {mt[7]},",
                                    f"grid = [{(int(mt[6]) + 1) // 2}, {mt[7]},")
        print(f"{base}mcm", "hand-set",
              lower(text.replace(mt[0], s), f"{base}mcm") or "ok")

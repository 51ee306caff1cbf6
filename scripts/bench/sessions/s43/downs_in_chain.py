"""Forty-third session, on the machine with the compiler: S2, S4, S5, S7,
S8 and G8 at M = 128 (PyTorch weight layout) with their down GEMM set to
the plan that ran fastest alone (call 4, gemm-sweep-h200-s43-down.csv),
against the search's plan: OUT/<W>-search and OUT/<W>-<shape> (usage:
THIS OUT). The down GEMM's schedule is the standalone GEMM's at the rank
that gave that shape; the gate|up (or up) GEMM keeps the search's."""
import os, re, subprocess, sys

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", "..", "..", "..", "python"))
sys.path.insert(0, os.path.join(here, "..", ".."))
from flashfuser.mlirgen import generate_mlir  # noqa: E402
from handset import load_compile_workloads  # noqa: E402
from rankplans import FF_OPT, lower, search_rank, shape_of  # noqa: E402

cw = load_compile_workloads()
out = sys.argv[1]
os.makedirs("/tmp/s43h", exist_ok=True)
SCHED = re.compile(r"#dsm\.schedule<[^>]*>")
# chain, down GEMM (N, K), shapes that ran faster alone than the choice.
CHAINS = [("S2", 2048, 5632, ["64x64c2", "64x256c4"]),
          ("S4", 2048, 8192, ["64x256c4"]), ("S5", 2048, 11008, ["128x128c4"]),
          ("S7", 2560, 9728, ["128x64c2"]), ("S8", 1024, 3072, ["64x128c4"]),
          ("G8", 2048, 8192, ["64x256c4"])]
work = {w.name: w for w in cw.selected()}
for name, n, k, shapes in CHAINS:
    src = f"/tmp/s43h/{name}-chain.mlir"
    open(src, "w").write(cw.linalg_text(work[name], False, "nk"))
    res = subprocess.run([FF_OPT, src, "--dsm-fuse", "--dsm-search"],
                         capture_output=True, text=True, check=True)
    down = SCHED.findall(res.stdout)[-1]
    print(f"{out}/{name}-search", down, lower(res.stdout, f"{out}/{name}-search"))
    dsrc = f"/tmp/s43h/{name}-down.mlir"
    open(dsrc, "w").write(generate_mlir({
        "kind": "gemm", "m": 128, "n": n, "k": k, "activation": "identity",
        "dtype": "bf16", "out_dtype": "bf16", "weight_layout": "nk"}))
    for r in range(16):
        _, mt, _ = search_rank(dsrc, r)
        if not mt:
            continue
        shape = shape_of(mt)
        if shape in shapes:
            shapes.remove(shape)
            text = res.stdout.replace(down, mt[0])
            print(f"{out}/{name}-{shape}", mt[0],
                  lower(text, f"{out}/{name}-{shape}"))
    for s in shapes:
        print(name, s, "not among the first 16 ranks")

"""The two kernels of S1-S8's sequences at M = 128 on their own, with
PyTorch-layout weights ([N, K]): the gated GEMM (a `dsm.fused_chain
gated_gemm`, silu(x wg) * (x wu) -> bf16) and the down GEMM (c wd, a
`gemm` chain through --dsm-fuse=fuse-single-gemms=true), compiled at the
search's ranks (usage: THIS OUT [RANKS]): the best-ranked plan of each
tile shape (and, for the down GEMM, cluster) among the first RANKS
(default 16), OUT/<S>GG-<blk_m>x<blk_n> and OUT/<S>DN-<blk_m>x<blk_n>c<cls>."""
import os, re, subprocess, sys

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(os.path.dirname(here)))  # scripts/bench
sys.path.insert(0, os.path.join(here, "..", "..", "..", "..", "python"))
from workloads import S  # noqa: E402
from flashfuser.mlirgen import generate_mlir  # noqa: E402

out = sys.argv[1]
ranks = int(sys.argv[2]) if len(sys.argv) > 2 else 16
os.makedirs("/tmp/s28", exist_ok=True)


def chain(m, k, n):
    a, w = f"tensor<{m}x{k}xbf16>", f"tensor<{n}x{k}xbf16>"
    f, o = f"tensor<{m}x{n}xf32>", f"tensor<{m}x{n}xbf16>"
    nk = ("indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, "
          "affine_map<(d0, d1, d2) -> (d1, d2)>, "
          "affine_map<(d0, d1, d2) -> (d0, d1)>]")
    ew = ("indexing_maps = [affine_map<(i, j) -> (i, j)>, "
          "affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], "
          'iterator_types = ["parallel", "parallel"]')
    return f"""func.func @ff_gated_gemm(%a: {a}, %wg: {w}, %wu: {w}) -> {o} {{
  %r = dsm.fused_chain gated_gemm (%a, %wg, %wu) : ({a}, {w}, {w}) -> {o} {{
  ^bb0(%x: {a}, %g: {w}, %u: {w}):
    %z = arith.constant 0.0 : f32
    %one = arith.constant 1.0 : f32
    %e0 = tensor.empty() : {f}
    %f0 = linalg.fill ins(%z : f32) outs(%e0 : {f}) -> {f}
    %cg = linalg.matmul {nk} ins(%x, %g : {a}, {w}) outs(%f0 : {f}) -> {f}
    %e1 = tensor.empty() : {f}
    %f1 = linalg.fill ins(%z : f32) outs(%e1 : {f}) -> {f}
    %cu = linalg.matmul {nk} ins(%x, %u : {a}, {w}) outs(%f1 : {f}) -> {f}
    %hb = tensor.empty() : {o}
    %h = linalg.generic {{{ew}}} ins(%cg, %cu : {f}, {f}) outs(%hb : {o}) {{
    ^bb0(%gv: f32, %uv: f32, %out: bf16):
      %ng = arith.negf %gv : f32
      %ex = math.exp %ng : f32
      %den = arith.addf %ex, %one : f32
      %s = arith.divf %gv, %den : f32
      %p = arith.mulf %s, %uv : f32
      %t = arith.truncf %p : f32 to bf16
      linalg.yield %t : bf16
    }} -> {o}
    dsm.yield %h : {o}
  }}
  return %r : {o}
}}
"""


def ranked(name, src, fuse):
    """Lowers the best-ranked plan of each shape among the first ranks."""
    seen = set()
    for r in range(ranks):
        res = subprocess.run(["build/bin/ff-opt", src] + fuse +
                             [f"--dsm-search=rank={r}"],
                             capture_output=True, text=True)
        mt = re.search(r"cluster = \[1, (\d+), (\d+), 1\], block = \[(\d+), "
                       r"(\d+),.*stages = (\d+), cost_ns = (\d+)", res.stdout)
        if not mt:
            print(name, r, res.returncode, res.stderr[:300])
            continue
        shape = f"{mt[3]}x{mt[4]}"
        if fuse:  # the down GEMM: its cluster (split K or multicast) too
            shape += f"c{int(mt[1]) * int(mt[2])}"
        if shape in seen:
            continue
        seen.add(shape)
        b = f"{out}/{name}-{shape}"
        low = subprocess.run(["build/bin/ff-opt", "-",
                              "--lower-to-nvvm=format=bin emit-bundle=" + b,
                              "-o", "/dev/null"], input=res.stdout,
                             capture_output=True, text=True)
        print(b, "rank", r, "stages", mt[5], "cost_ns", mt[6],
              "" if low.returncode == 0 else low.stderr[:300])


for name, m, n, k, l in S:
    src = f"/tmp/s28/{name}GG.mlir"
    open(src, "w").write(chain(m, k, n))
    ranked(name + "GG", src, [])
    src = f"/tmp/s28/{name}DN.mlir"
    open(src, "w").write(generate_mlir({
        "kind": "gemm", "m": m, "n": l, "k": n, "l": 0,
        "activation": "identity", "dtype": "bf16", "out_dtype": "bf16",
        "weight_layout": "nk"}))
    ranked(name + "DN", src, ["--dsm-fuse=fuse-single-gemms=true"])

// RUN: ff-opt %s --dsm-search | FileCheck %s --check-prefix=TOP
// RUN: ff-opt %s --dsm-search=rank=2 | FileCheck %s
// RUN: ff-opt %s --dsm-search="rank=2 calibration=%S/Inputs/search-no-gemm-l2.json" | FileCheck %s --check-prefix=NOL2

// A single GEMM's k step is bounded by the L2's aggregate rate shared by
// every active CTA (KernelFit::gemmL2Gbps). S3's gated GEMM at M = 256: a
// wave of 132 CTAs of 64 x 128 tiles draws 40 KB per k step each, more
// than L2 serves while their wgmmas run, so the 128-row tile ranks above
// it (on an H200 121 us for 64 x 128, 100 for 128 x 64:
// docs/benchmarks/gemm-sweep-h200-s38.csv). A calibration that makes L2
// unbounded (and drops the gated 64-row tiles' factor past one wave,
// KernelFit::gemmGatedLoneWaveFactor, which ranks them below too) brings
// back the pick the term corrected. Both rank below one
// wave of 128 x 192 tiles (2 x 58, the last partial; 81.7 us measured,
// passesWideGatedRule), first on 3 stages and then on 2, so the L2 term
// shows at rank 2.
// TOP-LABEL: func.func @s3_gate_up_m256(
// TOP: schedule = #dsm.schedule<cluster = [1, 1, 1, 1], block = [128, 192, 64, 16], grid = [2, 58, 1, 1], {{.*}}stages = 3
// CHECK-LABEL: func.func @s3_gate_up_m256(
// CHECK: schedule = #dsm.schedule<cluster = [1, 1, 1, 1], block = [128, 64, 64, 16], grid = [2, 172, 1, 1]
// NOL2-LABEL: func.func @s3_gate_up_m256(
// NOL2: schedule = #dsm.schedule<cluster = [1, 1, 1, 1], block = [64, 128, 64, 16], grid = [4, 86, 1, 1]
func.func @s3_gate_up_m256(%a: tensor<256x4096xbf16>, %wg: tensor<4096x11008xbf16>, %wu: tensor<4096x11008xbf16>) -> tensor<256x11008xbf16> {
  %r = dsm.fused_chain gated_gemm (%a, %wg, %wu)
      : (tensor<256x4096xbf16>, tensor<4096x11008xbf16>, tensor<4096x11008xbf16>) -> tensor<256x11008xbf16> {
  ^bb0(%x: tensor<256x4096xbf16>, %g: tensor<4096x11008xbf16>, %u: tensor<4096x11008xbf16>):
    %z = arith.constant 0.0 : f32
    %one = arith.constant 1.0 : f32
    %e0 = tensor.empty() : tensor<256x11008xf32>
    %f0 = linalg.fill ins(%z : f32) outs(%e0 : tensor<256x11008xf32>) -> tensor<256x11008xf32>
    %cg = linalg.matmul ins(%x, %g : tensor<256x4096xbf16>, tensor<4096x11008xbf16>) outs(%f0 : tensor<256x11008xf32>) -> tensor<256x11008xf32>
    %e1 = tensor.empty() : tensor<256x11008xf32>
    %f1 = linalg.fill ins(%z : f32) outs(%e1 : tensor<256x11008xf32>) -> tensor<256x11008xf32>
    %cu = linalg.matmul ins(%x, %u : tensor<256x4096xbf16>, tensor<4096x11008xbf16>) outs(%f1 : tensor<256x11008xf32>) -> tensor<256x11008xf32>
    %hb = tensor.empty() : tensor<256x11008xbf16>
    %h = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%cg, %cu : tensor<256x11008xf32>, tensor<256x11008xf32>) outs(%hb : tensor<256x11008xbf16>) {
    ^bb0(%gv: f32, %uv: f32, %out: bf16):
      %n = arith.negf %gv : f32
      %ex = math.exp %n : f32
      %den = arith.addf %ex, %one : f32
      %s = arith.divf %gv, %den : f32
      %p = arith.mulf %s, %uv : f32
      %t = arith.truncf %p : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<256x11008xbf16>
    dsm.yield %h : tensor<256x11008xbf16>
  }
  return %r : tensor<256x11008xbf16>
}

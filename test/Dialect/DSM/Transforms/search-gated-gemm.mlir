// RUN: ff-opt %s --dsm-search | FileCheck %s

// A gated GEMM chain (silu(x wg) * (x wu), the first kernel of a gated
// FFN's sequence) searched on its own: its two fp32 accumulators keep
// blk_n at 128 or less and the CTA alone (no multicast or split-K
// cluster), with up to 8 stages like the wide single-GEMM tiles.
// CHECK-LABEL: func.func @s3_gate_up(
// CHECK: dsm.fused_chain gated_gemm{{.*}}schedule = #dsm.schedule<cluster = [1, 1, 1, 1], block = [{{64|128}}, {{64|128}}, 64, 16], {{.*}}collectives = []
func.func @s3_gate_up(%a: tensor<128x4096xbf16>, %wg: tensor<4096x11008xbf16>, %wu: tensor<4096x11008xbf16>) -> tensor<128x11008xbf16> {
  %r = dsm.fused_chain gated_gemm (%a, %wg, %wu)
      : (tensor<128x4096xbf16>, tensor<4096x11008xbf16>, tensor<4096x11008xbf16>) -> tensor<128x11008xbf16> {
  ^bb0(%x: tensor<128x4096xbf16>, %g: tensor<4096x11008xbf16>, %u: tensor<4096x11008xbf16>):
    %z = arith.constant 0.0 : f32
    %one = arith.constant 1.0 : f32
    %e0 = tensor.empty() : tensor<128x11008xf32>
    %f0 = linalg.fill ins(%z : f32) outs(%e0 : tensor<128x11008xf32>) -> tensor<128x11008xf32>
    %cg = linalg.matmul ins(%x, %g : tensor<128x4096xbf16>, tensor<4096x11008xbf16>) outs(%f0 : tensor<128x11008xf32>) -> tensor<128x11008xf32>
    %e1 = tensor.empty() : tensor<128x11008xf32>
    %f1 = linalg.fill ins(%z : f32) outs(%e1 : tensor<128x11008xf32>) -> tensor<128x11008xf32>
    %cu = linalg.matmul ins(%x, %u : tensor<128x4096xbf16>, tensor<4096x11008xbf16>) outs(%f1 : tensor<128x11008xf32>) -> tensor<128x11008xf32>
    %hb = tensor.empty() : tensor<128x11008xbf16>
    %h = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%cg, %cu : tensor<128x11008xf32>, tensor<128x11008xf32>) outs(%hb : tensor<128x11008xbf16>) {
    ^bb0(%gv: f32, %uv: f32, %out: bf16):
      %n = arith.negf %gv : f32
      %ex = math.exp %n : f32
      %den = arith.addf %ex, %one : f32
      %s = arith.divf %gv, %den : f32
      %p = arith.mulf %s, %uv : f32
      %t = arith.truncf %p : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<128x11008xbf16>
    dsm.yield %h : tensor<128x11008xbf16>
  }
  return %r : tensor<128x11008xbf16>
}

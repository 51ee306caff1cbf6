// RUN: ff-opt %s --dsm-materialize | FileCheck %s

// A chain whose `sequence` (hand-written here; --dsm-search writes it)
// runs as two GEMM kernels of one bundle: act(A B) into the intermediate
// "c" (128 x 256 bf16), then c D. Both kernels serve the one M bin; the
// second reads c through a tensor map, the first writes it through a raw
// pointer. The fused `schedule` beside it is only the record.
// CHECK: dsm.bundles = [{chain = {activation = "identity"
// CHECK-SAME: kind = "ffn"
// CHECK-SAME: intermediates = [{dtype = "bf16", name = "c", shape = array<i64: 128, 256>}]
// CHECK-SAME: grid_m_tile = 64 : i64, m_hi = 128 : i64, m_lo = 1 : i64, module = "seq_0_s0_module", name = "seq_0_s0", params = [{{[^}]*}}tensor = "in0"}, {{[^}]*}}tensor = "in1"}, {kind = "ptr", tensor = "c"}
// CHECK-SAME: grid_m_tile = 128 : i64, m_hi = 128 : i64, m_lo = 1 : i64, module = "seq_0_s1_module", name = "seq_0_s1", params = [{{[^}]*}}tensor = "c"}, {{[^}]*}}tensor = "in2"}, {kind = "ptr", tensor = "out"}
// CHECK-SAME: plan = {sequence = [{block = array<i64: 64, 64, 64, 16>{{.*}}cost_ns = 3000{{.*}}}, {block = array<i64: 128, 256, 64, 16>{{.*}}cost_ns = 4000
// CHECK: gpu.module @seq_0_s0_module
// CHECK: gpu.func @seq_0_s0(
// CHECK: gpu.module @seq_0_s1_module
// CHECK: gpu.func @seq_0_s1(
// CHECK-NOT: dsm.fused_chain
func.func @seq(%a: tensor<128x128xbf16>, %b: tensor<128x256xbf16>, %d: tensor<256x256xbf16>) -> tensor<128x256xf32> {
  %r = dsm.fused_chain ffn(%a, %b, %d) {schedule = #dsm.schedule<cluster = [1, 4, 1, 4], block = [64, 64, 64, 64], grid = [2, 1, 1, 1], order = [m, n, l, k], spatial = [m, n, l], residency = [dsm], collectives = [shuffle], stages = 4, cost_ns = 5139>, sequence = [#dsm.schedule<cluster = [1, 1, 1, 1], block = [64, 64, 64, 16], grid = [2, 4, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [], stages = 2, cost_ns = 3000>, #dsm.schedule<cluster = [1, 1, 1, 1], block = [128, 256, 64, 16], grid = [1, 1, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [], stages = 4, cost_ns = 4000>]} : (tensor<128x128xbf16>, tensor<128x256xbf16>, tensor<256x256xbf16>) -> tensor<128x256xf32> {
  ^bb0(%x: tensor<128x128xbf16>, %w1: tensor<128x256xbf16>, %w2: tensor<256x256xbf16>):
    %z = arith.constant 0.0 : f32
    %e0 = tensor.empty() : tensor<128x256xf32>
    %f0 = linalg.fill ins(%z : f32) outs(%e0 : tensor<128x256xf32>) -> tensor<128x256xf32>
    %c = linalg.matmul ins(%x, %w1 : tensor<128x128xbf16>, tensor<128x256xbf16>) outs(%f0 : tensor<128x256xf32>) -> tensor<128x256xf32>
    %hb = tensor.empty() : tensor<128x256xbf16>
    %h = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%c : tensor<128x256xf32>) outs(%hb : tensor<128x256xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %t = arith.truncf %in : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<128x256xbf16>
    %e1 = tensor.empty() : tensor<128x256xf32>
    %f1 = linalg.fill ins(%z : f32) outs(%e1 : tensor<128x256xf32>) -> tensor<128x256xf32>
    %o = linalg.matmul ins(%h, %w2 : tensor<128x256xbf16>, tensor<256x256xbf16>) outs(%f1 : tensor<128x256xf32>) -> tensor<128x256xf32>
    dsm.yield %o : tensor<128x256xf32>
  }
  return %r : tensor<128x256xf32>
}

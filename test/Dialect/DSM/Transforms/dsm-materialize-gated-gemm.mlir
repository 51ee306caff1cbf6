// RUN: ff-opt %s --dsm-materialize | FileCheck %s

// A gated GEMM chain on its own (the first kernel of a gated FFN's
// sequence; --dsm-search writes the schedule, hand-written here): one
// kernel reading x, wg and wu through three tensor maps and writing
// silu(x wg) * (x wu). The bundle's chain says gated_gemm, which the
// runtime checks against act(x wg) * (x wu).
// CHECK: dsm.bundles = [{chain = {activation = "silu"
// CHECK-SAME: inputs = [{dtype = "bf16", name = "in0", shape = array<i64: 256, 512>}, {dtype = "bf16", name = "in1", shape = array<i64: 512, 256>}, {dtype = "bf16", name = "in2", shape = array<i64: 512, 256>}]
// CHECK-SAME: kind = "gated_gemm", l = 0 : i64, m = 256 : i64, n = 256 : i64
// CHECK-SAME: grid = array<i64: 4, 1, 1>, grid_m_tile = 64 : i64
// CHECK-SAME: params = [{box = array<i64: 64, 64>{{[^}]*}}tensor = "in0"}, {box = array<i64: 64, 64>{{[^}]*}}tensor = "in1"}, {box = array<i64: 64, 64>{{[^}]*}}tensor = "in2"}, {kind = "ptr", tensor = "out"}, {kind = "i64", value = "M"}]
// One consumer warpgroup: gate then up, eight k16 steps of 64 x 64 per
// k tile each.
// CHECK-LABEL: gpu.func @gated_0(
// CHECK-SAME: dsm.tensormap_args = array<i32: 0, 1, 2>, known_block_size = array<i32: 256, 1, 1>
// CHECK: nvgpu.mbarrier.arrive.expect_tx %{{.*}}[%{{.*}}], %c24576
// CHECK-COUNT-8: nvvm.wgmma.mma_async {{.*}}<m = 64, n = 64, k = 16>
// CHECK: scf.for
// CHECK-COUNT-8: nvvm.wgmma.mma_async {{.*}}<m = 64, n = 64, k = 16>
// CHECK-NOT: nvvm.wgmma.mma_async
// CHECK: math.exp
// CHECK: arith.mulf
// CHECK-NOT: dsm.fused_chain
func.func @gated(%a: tensor<256x512xbf16>, %wg: tensor<512x256xbf16>, %wu: tensor<512x256xbf16>) -> tensor<256x256xbf16> {
  %r = dsm.fused_chain gated_gemm (%a, %wg, %wu) {schedule = #dsm.schedule<cluster = [1, 1, 1, 1], block = [64, 64, 64, 16], grid = [4, 4, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [], stages = 8, cost_ns = 3000>}
      : (tensor<256x512xbf16>, tensor<512x256xbf16>, tensor<512x256xbf16>) -> tensor<256x256xbf16> {
  ^bb0(%x: tensor<256x512xbf16>, %g: tensor<512x256xbf16>, %u: tensor<512x256xbf16>):
    %z = arith.constant 0.0 : f32
    %one = arith.constant 1.0 : f32
    %e0 = tensor.empty() : tensor<256x256xf32>
    %f0 = linalg.fill ins(%z : f32) outs(%e0 : tensor<256x256xf32>) -> tensor<256x256xf32>
    %cg = linalg.matmul ins(%x, %g : tensor<256x512xbf16>, tensor<512x256xbf16>) outs(%f0 : tensor<256x256xf32>) -> tensor<256x256xf32>
    %e1 = tensor.empty() : tensor<256x256xf32>
    %f1 = linalg.fill ins(%z : f32) outs(%e1 : tensor<256x256xf32>) -> tensor<256x256xf32>
    %cu = linalg.matmul ins(%x, %u : tensor<256x512xbf16>, tensor<512x256xbf16>) outs(%f1 : tensor<256x256xf32>) -> tensor<256x256xf32>
    %hb = tensor.empty() : tensor<256x256xbf16>
    %h = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%cg, %cu : tensor<256x256xf32>, tensor<256x256xf32>) outs(%hb : tensor<256x256xbf16>) {
    ^bb0(%gv: f32, %uv: f32, %out: bf16):
      %n = arith.negf %gv : f32
      %ex = math.exp %n : f32
      %den = arith.addf %ex, %one : f32
      %s = arith.divf %gv, %den : f32
      %p = arith.mulf %s, %uv : f32
      %t = arith.truncf %p : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<256x256xbf16>
    dsm.yield %h : tensor<256x256xbf16>
  }
  return %r : tensor<256x256xbf16>
}

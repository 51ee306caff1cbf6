// RUN: ff-opt %s --dsm-materialize | FileCheck %s

// Which kernel sequences launch their second kernel programmatically
// (PDL): a second kernel split over K in clusters of up to 4 CTAs does
// (`cluster4`), one in clusters of 8 does not (`cluster8`: measured slower
// launched early on an H100, docs/lowering.md); without it neither kernel
// holds a griddepcontrol instruction.
// CHECK: name = "cluster4_0_s0"
// CHECK-NOT: programmatic_launch
// CHECK-SAME: cluster = array<i64: 4, 1, 1>{{.*}} name = "cluster4_0_s1", params = {{.*}}, programmatic_launch = true}]
// CHECK-SAME: name = "cluster8_1_s0"
// CHECK-NOT: programmatic_launch
// CHECK-SAME: cluster = array<i64: 8, 1, 1>{{.*}} name = "cluster8_1_s1"
// CHECK-NOT: programmatic_launch
// CHECK-LABEL: gpu.func @cluster4_0_s0(
// CHECK-NEXT: nvvm.griddepcontrol launch_dependents
// CHECK-LABEL: gpu.func @cluster4_0_s1(
// The weight's first k tiles (a ring's worth: 2 of the rank's 4, two
// 64-column boxes each, from the rank's first k tile) go to L2 before the
// wait; c only after it.
// CHECK: %[[KR:.*]] = arith.remui %{{.*}}, %c4
// CHECK: %[[KOFF:.*]] = arith.muli %[[KR]], %c4
// CHECK: nvvm.fence.mbarrier.init
// CHECK: dsm.cluster_wait
// CHECK: %[[K:.*]] = arith.addi %c0{{.*}}, %[[KOFF]] : index
// CHECK: %[[K0:.*]] = arith.muli %[[K]], %c64
// CHECK: %[[COL:.*]] = arith.index_cast %{{.*}} : index to i32
// CHECK-NEXT: %[[K0I:.*]] = arith.index_cast %[[K0]] : index to i32
// CHECK-NEXT: nvvm.cp.async.bulk.tensor.prefetch %arg1, box[%[[COL]], %[[K0I]]]
// CHECK: nvvm.cp.async.bulk.tensor.prefetch %arg1
// CHECK: nvvm.cp.async.bulk.tensor.prefetch %arg1
// CHECK: nvvm.cp.async.bulk.tensor.prefetch %arg1
// CHECK-NOT: nvvm.cp.async.bulk.tensor.prefetch
// CHECK: nvvm.griddepcontrol wait
// CHECK-NOT: griddepcontrol
// CHECK: nvgpu.tma.async.load
// CHECK-LABEL: gpu.func @cluster8_1_s0(
// CHECK-NOT: griddepcontrol
// CHECK-NOT: bulk.tensor.prefetch
// CHECK: gpu.return
// CHECK-LABEL: gpu.func @cluster8_1_s1(
// CHECK-NOT: griddepcontrol
// CHECK-NOT: bulk.tensor.prefetch
// CHECK: gpu.return

func.func @cluster4(%a: tensor<128x128xbf16>, %b: tensor<128x1024xbf16>, %d: tensor<1024x256xbf16>) -> tensor<128x256xf32> {
  %r = dsm.fused_chain ffn(%a, %b, %d) {schedule = #dsm.schedule<cluster = [1, 4, 1, 4], block = [64, 256, 64, 64], grid = [2, 1, 1, 1], order = [m, n, l, k], spatial = [m, n, l], residency = [dsm], collectives = [shuffle], stages = 2, cost_ns = 9000>, sequence = [#dsm.schedule<cluster = [1, 1, 1, 1], block = [128, 128, 64, 16], grid = [1, 8, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [], stages = 2, cost_ns = 3000>, #dsm.schedule<cluster = [1, 1, 4, 1], block = [128, 128, 256, 16], grid = [1, 2, 1, 1], order = [m, n, k, l], spatial = [m, n, k], residency = [], collectives = [all_exchange], stages = 2, cost_ns = 4000>]} : (tensor<128x128xbf16>, tensor<128x1024xbf16>, tensor<1024x256xbf16>) -> tensor<128x256xf32> {
  ^bb0(%x: tensor<128x128xbf16>, %w1: tensor<128x1024xbf16>, %w2: tensor<1024x256xbf16>):
    %z = arith.constant 0.0 : f32
    %e0 = tensor.empty() : tensor<128x1024xf32>
    %f0 = linalg.fill ins(%z : f32) outs(%e0 : tensor<128x1024xf32>) -> tensor<128x1024xf32>
    %c = linalg.matmul ins(%x, %w1 : tensor<128x128xbf16>, tensor<128x1024xbf16>) outs(%f0 : tensor<128x1024xf32>) -> tensor<128x1024xf32>
    %hb = tensor.empty() : tensor<128x1024xbf16>
    %h = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%c : tensor<128x1024xf32>) outs(%hb : tensor<128x1024xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %t = arith.truncf %in : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<128x1024xbf16>
    %e1 = tensor.empty() : tensor<128x256xf32>
    %f1 = linalg.fill ins(%z : f32) outs(%e1 : tensor<128x256xf32>) -> tensor<128x256xf32>
    %o = linalg.matmul ins(%h, %w2 : tensor<128x1024xbf16>, tensor<1024x256xbf16>) outs(%f1 : tensor<128x256xf32>) -> tensor<128x256xf32>
    dsm.yield %o : tensor<128x256xf32>
  }
  return %r : tensor<128x256xf32>
}

func.func @cluster8(%a: tensor<128x128xbf16>, %b: tensor<128x1024xbf16>, %d: tensor<1024x256xbf16>) -> tensor<128x256xf32> {
  %r = dsm.fused_chain ffn(%a, %b, %d) {schedule = #dsm.schedule<cluster = [1, 4, 1, 4], block = [64, 256, 64, 64], grid = [2, 1, 1, 1], order = [m, n, l, k], spatial = [m, n, l], residency = [dsm], collectives = [shuffle], stages = 2, cost_ns = 9000>, sequence = [#dsm.schedule<cluster = [1, 1, 1, 1], block = [128, 128, 64, 16], grid = [1, 8, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [], stages = 2, cost_ns = 3000>, #dsm.schedule<cluster = [1, 1, 8, 1], block = [128, 128, 128, 16], grid = [1, 2, 1, 1], order = [m, n, k, l], spatial = [m, n, k], residency = [], collectives = [all_exchange], stages = 2, cost_ns = 4000>]} : (tensor<128x128xbf16>, tensor<128x1024xbf16>, tensor<1024x256xbf16>) -> tensor<128x256xf32> {
  ^bb0(%x: tensor<128x128xbf16>, %w1: tensor<128x1024xbf16>, %w2: tensor<1024x256xbf16>):
    %z = arith.constant 0.0 : f32
    %e0 = tensor.empty() : tensor<128x1024xf32>
    %f0 = linalg.fill ins(%z : f32) outs(%e0 : tensor<128x1024xf32>) -> tensor<128x1024xf32>
    %c = linalg.matmul ins(%x, %w1 : tensor<128x128xbf16>, tensor<128x1024xbf16>) outs(%f0 : tensor<128x1024xf32>) -> tensor<128x1024xf32>
    %hb = tensor.empty() : tensor<128x1024xbf16>
    %h = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%c : tensor<128x1024xf32>) outs(%hb : tensor<128x1024xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %t = arith.truncf %in : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<128x1024xbf16>
    %e1 = tensor.empty() : tensor<128x256xf32>
    %f1 = linalg.fill ins(%z : f32) outs(%e1 : tensor<128x256xf32>) -> tensor<128x256xf32>
    %o = linalg.matmul ins(%h, %w2 : tensor<128x1024xbf16>, tensor<1024x256xbf16>) outs(%f1 : tensor<128x256xf32>) -> tensor<128x256xf32>
    dsm.yield %o : tensor<128x256xf32>
  }
  return %r : tensor<128x256xf32>
}

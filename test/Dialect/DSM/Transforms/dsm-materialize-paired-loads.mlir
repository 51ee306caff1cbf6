// RUN: ff-opt %s --dsm-materialize=paired-loads-min-stages=3 | FileCheck %s
// RUN: ff-opt %s --dsm-materialize | FileCheck %s --check-prefix=OFF

// Paired loads (paired-loads-min-stages=N; 0, the default, pairs none): a
// kernel with a K-major B and a ring of N or more stages loads ring steps
// in pairs once both slots are free, B box by B box with the two steps'
// boxes of a weight row back to back (its 256 contiguous bytes), then both
// A boxes; an odd last step loads alone. Each step keeps its own slot and
// barrier. `paired` (K-major, 4 stages, 5 k tiles) pairs; `shallow` (2
// stages: the consumer frees a slot only once the next step landed, which
// a pairing producer would not issue) and `rowmajor` (B [K, N]: a box's
// next k tile is not the rest of its rows) do not.
// CHECK-LABEL: gpu.func @paired_0(
// CHECK: scf.for %{{.*}} = %{{.*}} to %c4{{.*}} step %c2
// CHECK: nvgpu.mbarrier.try_wait.parity %[[EMPTY:[0-9]+]][%[[S0:[0-9]+]]],
// CHECK: nvgpu.mbarrier.try_wait.parity %[[EMPTY]][%[[S1:[0-9]+]]],
// CHECK: nvgpu.mbarrier.arrive.expect_tx %[[FULL:[0-9]+]][%[[S0]]], %c32768
// CHECK: nvgpu.mbarrier.arrive.expect_tx %[[FULL]][%[[S1]]], %c32768
// CHECK: nvgpu.tma.async.load %1[{{.*}}], %[[FULL]][%[[S0]]]
// CHECK-NOT: nvgpu.tma.async.load %0[
// CHECK: nvgpu.tma.async.load %1[{{.*}}], %[[FULL]][%[[S1]]]
// CHECK-NOT: nvgpu.tma.async.load %0[
// CHECK: nvgpu.tma.async.load %1[{{.*}}], %[[FULL]][%[[S0]]]
// CHECK-NOT: nvgpu.tma.async.load %0[
// CHECK: nvgpu.tma.async.load %1[{{.*}}], %[[FULL]][%[[S1]]]
// CHECK: nvgpu.tma.async.load %0[{{.*}}], %[[FULL]][%[[S0]]]
// CHECK: nvgpu.tma.async.load %0[{{.*}}], %[[FULL]][%[[S1]]]
// The fifth k tile alone.
// CHECK: nvgpu.mbarrier.try_wait.parity %[[EMPTY]]
// CHECK-NOT: try_wait
// CHECK: nvgpu.mbarrier.arrive.expect_tx
// CHECK-NOT: expect_tx
// CHECK: nvgpu.tma.async.load %1[
// CHECK: nvgpu.tma.async.load %1[
// CHECK: nvgpu.tma.async.load %0[
// CHECK-LABEL: gpu.func @shallow_1(
// CHECK-NOT: step %c2
// CHECK: scf.for %{{.*}} = %{{.*}} to %c5{{.*}} step %c1
// CHECK-LABEL: gpu.func @rowmajor_2(
// CHECK-NOT: step %c2
// CHECK: scf.for %{{.*}} = %{{.*}} to %c5{{.*}} step %c1

// OFF-LABEL: gpu.func @paired_0(
// OFF-NOT: step %c2
// OFF: scf.for %{{.*}} = %{{.*}} to %c5{{.*}} step %c1

#mk = affine_map<(d0, d1, d2) -> (d0, d2)>
#nk = affine_map<(d0, d1, d2) -> (d1, d2)>
#mn = affine_map<(d0, d1, d2) -> (d0, d1)>
module attributes {dsm.target = #dsm.target<name = "h100-sxm", chip = "sm_90a", sms = 132, smem_per_sm = 233472, smem_per_block = 232448, regs_per_sm = 65536, max_cluster = 8, max_cluster_nonportable = 16, clock_mhz = 1830, hbm_gbps = 3350, l2_bytes = 52428800, dsm_gbps = [3300, 3100, 3000, 2900], dsm_latency = [190, 200, 240, 280], tflops_bf16 = 989, tflops_f16 = 989, tflops_f32 = 494>} {
  func.func @paired(%a: tensor<128x320xbf16>, %b: tensor<1024x320xbf16>) -> tensor<128x1024xf32> {
    %r = dsm.fused_chain gemm (%a, %b) {schedule = #dsm.schedule<cluster = [1, 1, 1, 1], block = [128, 128, 64, 16], grid = [1, 8, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [], stages = 4, cost_ns = 1000>}
        : (tensor<128x320xbf16>, tensor<1024x320xbf16>) -> tensor<128x1024xf32> {
    ^bb0(%x: tensor<128x320xbf16>, %w: tensor<1024x320xbf16>):
      %cst = arith.constant 0.0 : f32
      %e = tensor.empty() : tensor<128x1024xf32>
      %f = linalg.fill ins(%cst : f32) outs(%e : tensor<128x1024xf32>) -> tensor<128x1024xf32>
      %mm = linalg.matmul indexing_maps = [#mk, #nk, #mn] ins(%x, %w : tensor<128x320xbf16>, tensor<1024x320xbf16>) outs(%f : tensor<128x1024xf32>) -> tensor<128x1024xf32>
      dsm.yield %mm : tensor<128x1024xf32>
    }
    return %r : tensor<128x1024xf32>
  }

  func.func @shallow(%a: tensor<128x320xbf16>, %b: tensor<1024x320xbf16>) -> tensor<128x1024xf32> {
    %r = dsm.fused_chain gemm (%a, %b) {schedule = #dsm.schedule<cluster = [1, 1, 1, 1], block = [128, 128, 64, 16], grid = [1, 8, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [], stages = 2, cost_ns = 1000>}
        : (tensor<128x320xbf16>, tensor<1024x320xbf16>) -> tensor<128x1024xf32> {
    ^bb0(%x: tensor<128x320xbf16>, %w: tensor<1024x320xbf16>):
      %cst = arith.constant 0.0 : f32
      %e = tensor.empty() : tensor<128x1024xf32>
      %f = linalg.fill ins(%cst : f32) outs(%e : tensor<128x1024xf32>) -> tensor<128x1024xf32>
      %mm = linalg.matmul indexing_maps = [#mk, #nk, #mn] ins(%x, %w : tensor<128x320xbf16>, tensor<1024x320xbf16>) outs(%f : tensor<128x1024xf32>) -> tensor<128x1024xf32>
      dsm.yield %mm : tensor<128x1024xf32>
    }
    return %r : tensor<128x1024xf32>
  }

  func.func @rowmajor(%a: tensor<128x320xbf16>, %b: tensor<320x1024xbf16>) -> tensor<128x1024xf32> {
    %r = dsm.fused_chain gemm (%a, %b) {schedule = #dsm.schedule<cluster = [1, 1, 1, 1], block = [128, 128, 64, 16], grid = [1, 8, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [], stages = 4, cost_ns = 1000>}
        : (tensor<128x320xbf16>, tensor<320x1024xbf16>) -> tensor<128x1024xf32> {
    ^bb0(%x: tensor<128x320xbf16>, %w: tensor<320x1024xbf16>):
      %cst = arith.constant 0.0 : f32
      %e = tensor.empty() : tensor<128x1024xf32>
      %f = linalg.fill ins(%cst : f32) outs(%e : tensor<128x1024xf32>) -> tensor<128x1024xf32>
      %mm = linalg.matmul ins(%x, %w : tensor<128x320xbf16>, tensor<320x1024xbf16>) outs(%f : tensor<128x1024xf32>) -> tensor<128x1024xf32>
      dsm.yield %mm : tensor<128x1024xf32>
    }
    return %r : tensor<128x1024xf32>
  }

}

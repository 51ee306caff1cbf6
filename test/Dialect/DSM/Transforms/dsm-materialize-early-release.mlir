// RUN: ff-opt %s --dsm-materialize | FileCheck %s
// RUN: ff-opt %s --dsm-materialize=early-release=false | FileCheck %s --check-prefix=OFF

// Early release (early-release, on by default): a kernel with one m
// tile for any M (a weight stream) waits for each k step's wgmmas and
// releases that step's own ring stage, so the producer can fill every
// stage but the one being read; by default a consumer releases stage k - 1
// once it issued step k, keeping one wgmma group in flight. `one` (M = 128)
// releases early, the first step's stage too; `two` (two m tiles: the
// wgmma overlap pays) does not.
// CHECK-LABEL: gpu.func @one_0(
// CHECK: nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK: nvgpu.mbarrier.arrive
// CHECK: scf.for %{{.*}} = %{{.*}} to %c5 step %{{.*}} iter_args
// CHECK-NEXT: %[[IT:[0-9]+]] = arith.addi
// CHECK: nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK-NEXT: arith.constant 4 : i32
// CHECK-NEXT: %[[IT32:[0-9]+]] = arith.index_castui %[[IT]] : index to i32
// CHECK-NEXT: %[[SLOT32:[0-9]+]] = arith.remui %[[IT32]], %
// CHECK-NEXT: %[[SLOT:[0-9]+]] = arith.index_castui %[[SLOT32]] : i32 to index
// CHECK-NEXT: scf.if
// CHECK-NEXT: nvgpu.mbarrier.arrive %{{[0-9]+}}[%[[SLOT]]]
// CHECK-LABEL: gpu.func @two_1(
// CHECK-NOT: wait.group.sync.aligned 0
// CHECK: nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 1

// OFF-LABEL: gpu.func @one_0(
// OFF: nvvm.wgmma.commit.group.sync.aligned
// OFF-NEXT: nvvm.wgmma.wait.group.sync.aligned 1
// OFF: scf.for %{{.*}} = %{{.*}} to %c5 step %{{.*}} iter_args
// OFF-NEXT: %[[IT:[0-9]+]] = arith.addi
// OFF: nvvm.wgmma.commit.group.sync.aligned
// OFF-NEXT: nvvm.wgmma.wait.group.sync.aligned 1
// OFF-NEXT: arith.constant 3 : index
// OFF-NEXT: arith.addi %[[IT]], %c3

#mk = affine_map<(d0, d1, d2) -> (d0, d2)>
#nk = affine_map<(d0, d1, d2) -> (d1, d2)>
#mn = affine_map<(d0, d1, d2) -> (d0, d1)>
module attributes {dsm.target = #dsm.target<name = "h100-sxm", chip = "sm_90a", sms = 132, smem_per_sm = 233472, smem_per_block = 232448, regs_per_sm = 65536, max_cluster = 8, max_cluster_nonportable = 16, clock_mhz = 1830, hbm_gbps = 3350, l2_bytes = 52428800, dsm_gbps = [3300, 3100, 3000, 2900], dsm_latency = [190, 200, 240, 280], tflops_bf16 = 989, tflops_f16 = 989, tflops_f32 = 494>} {
  func.func @one(%a: tensor<128x320xbf16>, %b: tensor<1024x320xbf16>) -> tensor<128x1024xf32> {
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

  func.func @two(%a: tensor<256x320xbf16>, %b: tensor<1024x320xbf16>) -> tensor<256x1024xf32> {
    %r = dsm.fused_chain gemm (%a, %b) {schedule = #dsm.schedule<cluster = [1, 1, 1, 1], block = [128, 128, 64, 16], grid = [2, 8, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [], stages = 4, cost_ns = 1000>}
        : (tensor<256x320xbf16>, tensor<1024x320xbf16>) -> tensor<256x1024xf32> {
    ^bb0(%x: tensor<256x320xbf16>, %w: tensor<1024x320xbf16>):
      %cst = arith.constant 0.0 : f32
      %e = tensor.empty() : tensor<256x1024xf32>
      %f = linalg.fill ins(%cst : f32) outs(%e : tensor<256x1024xf32>) -> tensor<256x1024xf32>
      %mm = linalg.matmul indexing_maps = [#mk, #nk, #mn] ins(%x, %w : tensor<256x320xbf16>, tensor<1024x320xbf16>) outs(%f : tensor<256x1024xf32>) -> tensor<256x1024xf32>
      dsm.yield %mm : tensor<256x1024xf32>
    }
    return %r : tensor<256x1024xf32>
  }

}

// RUN: ff-opt %s --dsm-materialize | FileCheck %s
// RUN: ff-opt %s --dsm-materialize=fit-a-box=false | FileCheck %s --check-prefix=OFF

// A fitted to M (fit-a-box, on by default): a kernel with one m tile for
// any M loads only the rows M has instead of a whole tile's box, whose rows
// past M TMA would zero-fill (slowly). @small (M = 16 on a 128-row tile):
// the manifest's box and the load have 16 rows and each stage expects
// 16 * 128 + 8192 bytes. @dyn's first bin (M <= 64 on 64-row tiles): the
// runtime clamps the box to the launch's M (box_fits_m) and the producer
// expects min(M, 64) * 128 + 8192 bytes. @full (M = 128 fills the tile)
// keeps the whole box. Kernels with several m tiles load the last one
// through a second map of A (after A's, before B's) whose box holds the
// rows past the full tiles: @two (M = 200) 72 rows; @dyn's second bin a
// whole tile the runtime cuts to the launch's last tile (box_tail_m). Each
// tile selects its map and expects min(128, M - m0) * 128 + 8192 bytes.
// CHECK-LABEL: dsm.bundles
// CHECK-SAME: name = "small_0", params = [{box = array<i64: 64, 16>, interleave
// CHECK-SAME: name = "dyn_1_m0", params = [{box = array<i64: 64, 64>, box_fits_m = true, interleave
// CHECK-SAME: name = "dyn_1_m1", params = [{box = array<i64: 64, 128>, interleave{{[^}]*}}tensor = "in0"}, {box = array<i64: 64, 128>, box_tail_m = true, interleave{{[^}]*}}tensor = "in0"}, {box = array<i64: 64, 64>,{{[^}]*}}tensor = "in1"}
// CHECK-SAME: name = "full_2", params = [{box = array<i64: 64, 128>, interleave{{[^}]*}}tensor = "in0"}, {box = array<i64: 64, 64>,{{[^}]*}}tensor = "in1"}
// CHECK-SAME: name = "two_3", params = [{box = array<i64: 64, 128>, interleave{{[^}]*}}tensor = "in0"}, {box = array<i64: 64, 72>, interleave{{[^}]*}}tensor = "in0"}, {box = array<i64: 64, 64>,{{[^}]*}}tensor = "in1"}
// CHECK-LABEL: gpu.func @small_0(
// CHECK: nvgpu.mbarrier.arrive.expect_tx %{{[0-9]+}}[%{{[0-9]+}}], %c10240
// CHECK: nvgpu.tma.async.load %0[{{.*}}] to %{{.*}} : <tensor = memref<16x64xbf16, 3>{{.*}}-> memref<16x64xbf16, #gpu.address_space<workgroup>>
// CHECK-LABEL: gpu.func @dyn_1_m0(
// CHECK: %[[M:[0-9]+]] = arith.index_castui %arg3 : i64 to index
// CHECK: %[[ROWS:[0-9]+]] = arith.minui %[[M]], %c64{{.*}} : index
// CHECK: %[[A:[0-9]+]] = arith.muli %[[ROWS]], %c128{{.*}} : index
// CHECK: %[[BYTES:[0-9]+]] = arith.addi %[[A]], %c8192 : index
// CHECK: nvgpu.mbarrier.arrive.expect_tx %{{[0-9]+}}[%{{[0-9]+}}], %[[BYTES]]
// CHECK-LABEL: gpu.func @dyn_1_m1(
// CHECK: %[[M1:[0-9]+]] = arith.index_castui %arg4 : i64 to index
// CHECK: nvgpu.tma.prefetch.descriptor %1,
// CHECK: %[[LEFT:[0-9]+]] = arith.subi %[[M1]], %[[M0:[0-9]+]] : index
// CHECK: %[[HERE:[0-9]+]] = arith.minui %[[LEFT]], %c128{{.*}} : index
// CHECK: %[[AB:[0-9]+]] = arith.muli %[[HERE]], %c128{{.*}} : index
// CHECK: %[[BYTES1:[0-9]+]] = arith.addi %[[AB]], %c8192{{.*}} : index
// CHECK: %[[TAIL:[0-9]+]] = arith.cmpi ult, %[[HERE]], %c128{{.*}} : index
// CHECK: %[[MAP:[0-9]+]] = llvm.select %[[TAIL]], %arg1, %arg0 : i1, !llvm.ptr
// CHECK: %[[DESC:[0-9]+]] = builtin.unrealized_conversion_cast %[[MAP]]
// CHECK: nvgpu.mbarrier.arrive.expect_tx %{{[0-9]+}}[%{{[0-9]+}}], %[[BYTES1]]
// CHECK: nvgpu.tma.async.load %[[DESC]][%{{[0-9]+}}, %[[M0]]]
// CHECK-LABEL: gpu.func @full_2(
// CHECK-NOT: llvm.select
// CHECK: nvgpu.mbarrier.arrive.expect_tx %{{[0-9]+}}[%{{[0-9]+}}], %c24576
// CHECK-LABEL: gpu.func @two_3(
// CHECK: builtin.unrealized_conversion_cast %arg1 : !llvm.ptr to !nvgpu.tensormap.descriptor<tensor = memref<72x64xbf16, 3>
// CHECK: llvm.select %{{[0-9]+}}, %arg1, %arg0 : i1, !llvm.ptr

// OFF-NOT: box_fits_m
// OFF-NOT: box_tail_m
// OFF: name = "small_0", params = [{box = array<i64: 64, 128>, interleave
// OFF-LABEL: gpu.func @small_0(
// OFF: nvgpu.mbarrier.arrive.expect_tx %{{[0-9]+}}[%{{[0-9]+}}], %c24576

#mk = affine_map<(d0, d1, d2) -> (d0, d2)>
#nk = affine_map<(d0, d1, d2) -> (d1, d2)>
#mn = affine_map<(d0, d1, d2) -> (d0, d1)>
module {
  func.func @small(%a: tensor<16x320xbf16>, %b: tensor<1024x320xbf16>) -> tensor<16x1024xf32> {
    %r = dsm.fused_chain gemm (%a, %b) {schedule = #dsm.schedule<cluster = [1, 1, 1, 1], block = [128, 64, 64, 16], grid = [1, 16, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [], stages = 4, cost_ns = 1000>}
        : (tensor<16x320xbf16>, tensor<1024x320xbf16>) -> tensor<16x1024xf32> {
    ^bb0(%x: tensor<16x320xbf16>, %w: tensor<1024x320xbf16>):
      %cst = arith.constant 0.0 : f32
      %e = tensor.empty() : tensor<16x1024xf32>
      %f = linalg.fill ins(%cst : f32) outs(%e : tensor<16x1024xf32>) -> tensor<16x1024xf32>
      %mm = linalg.matmul indexing_maps = [#mk, #nk, #mn] ins(%x, %w : tensor<16x320xbf16>, tensor<1024x320xbf16>) outs(%f : tensor<16x1024xf32>) -> tensor<16x1024xf32>
      dsm.yield %mm : tensor<16x1024xf32>
    }
    return %r : tensor<16x1024xf32>
  }

  func.func @dyn(%a: tensor<?x320xbf16>, %b: tensor<1024x320xbf16>) -> tensor<?x1024xf32> {
    %r = dsm.fused_chain gemm (%a, %b) {schedule = #dsm.schedule_table<[#dsm.schedule<cluster = [1, 1, 1, 1], block = [64, 64, 64, 16], grid = [1, 16, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [], stages = 4, cost_ns = 1000, m_lo = 1, m_hi = 64>, #dsm.schedule<cluster = [1, 1, 1, 1], block = [128, 64, 64, 16], grid = [1, 16, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [], stages = 4, cost_ns = 2000, m_lo = 65, m_hi = 1048576>]>}
        : (tensor<?x320xbf16>, tensor<1024x320xbf16>) -> tensor<?x1024xf32> {
    ^bb0(%x: tensor<?x320xbf16>, %w: tensor<1024x320xbf16>):
      %cst = arith.constant 0.0 : f32
      %c0 = arith.constant 0 : index
      %d0 = tensor.dim %x, %c0 : tensor<?x320xbf16>
      %e = tensor.empty(%d0) : tensor<?x1024xf32>
      %f = linalg.fill ins(%cst : f32) outs(%e : tensor<?x1024xf32>) -> tensor<?x1024xf32>
      %mm = linalg.matmul indexing_maps = [#mk, #nk, #mn] ins(%x, %w : tensor<?x320xbf16>, tensor<1024x320xbf16>) outs(%f : tensor<?x1024xf32>) -> tensor<?x1024xf32>
      dsm.yield %mm : tensor<?x1024xf32>
    }
    return %r : tensor<?x1024xf32>
  }

  func.func @full(%a: tensor<128x320xbf16>, %b: tensor<1024x320xbf16>) -> tensor<128x1024xf32> {
    %r = dsm.fused_chain gemm (%a, %b) {schedule = #dsm.schedule<cluster = [1, 1, 1, 1], block = [128, 64, 64, 16], grid = [1, 16, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [], stages = 4, cost_ns = 1000>}
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

  func.func @two(%a: tensor<200x320xbf16>, %b: tensor<1024x320xbf16>) -> tensor<200x1024xf32> {
    %r = dsm.fused_chain gemm (%a, %b) {schedule = #dsm.schedule<cluster = [1, 1, 1, 1], block = [128, 64, 64, 16], grid = [2, 16, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [], stages = 4, cost_ns = 1000>}
        : (tensor<200x320xbf16>, tensor<1024x320xbf16>) -> tensor<200x1024xf32> {
    ^bb0(%x: tensor<200x320xbf16>, %w: tensor<1024x320xbf16>):
      %cst = arith.constant 0.0 : f32
      %e = tensor.empty() : tensor<200x1024xf32>
      %f = linalg.fill ins(%cst : f32) outs(%e : tensor<200x1024xf32>) -> tensor<200x1024xf32>
      %mm = linalg.matmul indexing_maps = [#mk, #nk, #mn] ins(%x, %w : tensor<200x320xbf16>, tensor<1024x320xbf16>) outs(%f : tensor<200x1024xf32>) -> tensor<200x1024xf32>
      dsm.yield %mm : tensor<200x1024xf32>
    }
    return %r : tensor<200x1024xf32>
  }
}

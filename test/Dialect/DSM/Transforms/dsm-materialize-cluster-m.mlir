// RUN: ff-opt %s --dsm-materialize --split-input-file -verify-diagnostics | FileCheck %s

// A GEMM cluster along m: two consecutive m tiles of one n tile share B.
// The launch unit is a pair of 128-row m tiles (grid_m_tile 256, 4 n tiles
// x 2 CTAs = 8 CTAs per unit; where M leaves the last unit's second tile
// empty, as a kernel sequence's or a dynamic M's may, that CTA loads zero
// A rows and stores nothing, but still shares its B boxes). Block b: cluster
// c = b / 2, n tile c mod 4, m tile (c / 4) * 2 + b mod 2. Each CTA loads
// B's boxes j with j mod 2 = its rank (boxes 0, 2 or 1, 3 of the four
// 64-wide boxes) into both CTAs (mask 0b11) and expects the whole stage;
// a stage is free once the 2 consumers of both CTAs released it (empty
// count 4), each arriving in both CTAs (mapa + remote arrive). Not
// persistent: one tile per CTA.
// CHECK: dsm.bundles = [{{.*}}cluster = array<i64: 2, 1, 1>, {{.*}}grid = array<i64: 8, 1, 1>, grid_m_tile = 256
// CHECK-NOT: persistent = true
// CHECK-LABEL: gpu.func @gemm_cluster_m_0
// CHECK-NOT: gpu.grid_dim
// CHECK: %[[BID:.*]] = gpu.block_id x
// CHECK: %[[CID:.*]] = arith.divui %[[BID]], %c2{{[_0-9]*}} : index
// CHECK: %[[N:.*]] = arith.remui %[[CID]], %c4{{[_0-9]*}} : index
// CHECK: %[[R:.*]] = arith.remui %[[BID]], %c2{{[_0-9]*}} : index
// CHECK: %[[MC:.*]] = arith.divui %[[CID]], %c4{{[_0-9]*}} : index
// CHECK: %[[MC2:.*]] = arith.muli %[[MC]], %c2{{[_0-9]*}} : index
// CHECK: %[[MT:.*]] = arith.addi %[[MC2]], %[[R]] : index
// CHECK: arith.muli %[[MT]], %c128{{[_0-9]*}} : index
// CHECK: arith.muli %[[N]], %c256{{[_0-9]*}} : index
// CHECK: %[[RANK:.*]] = dsm.cluster_rank : index
// CHECK: nvgpu.mbarrier.init %{{.*}}[%{{.*}}], %c4{{[_0-9]*}}, predicate
// CHECK: nvgpu.mbarrier.arrive.expect_tx %{{.*}}, %c49152
// CHECK: %[[B0:.*]] = arith.cmpi eq, %[[RANK]], %c0{{[_0-9]*}} : index
// CHECK: scf.if %[[B0]] {
// CHECK: nvgpu.tma.async.load {{.*}} multicast_mask = %c3_i16
// CHECK: %[[B1:.*]] = arith.cmpi eq, %[[RANK]], %c1{{[_0-9]*}} : index
// CHECK: scf.if %[[B1]] {
// CHECK: nvgpu.tma.async.load {{.*}} multicast_mask = %c3_i16
// CHECK: nvvm.mapa %{{.*}}, %c0_i32{{[_0-9]*}} : !llvm.ptr<3> -> !llvm.ptr<7>
// CHECK: nvvm.mapa %{{.*}}, %c1_i32{{[_0-9]*}} : !llvm.ptr<3> -> !llvm.ptr<7>
// CHECK: dsm.cluster_wait
// CHECK-LABEL: func.func @gemm_cluster_m_0_launch(
// CHECK: %[[UNITS:.*]] = arith.ceildivui %{{.*}}, %c256 : index
// CHECK: %[[GX:.*]] = arith.muli %[[UNITS]], %c8 : index
// CHECK: gpu.launch_func @gemm_cluster_m_0_module::@gemm_cluster_m_0 clusters in (%c2, %c1, %c1) blocks in (%[[GX]],
func.func @gemm_cluster_m(%a: tensor<512x512xbf16>, %b: tensor<512x1024xbf16>) -> tensor<512x1024xbf16> {
  %r = dsm.fused_chain gemm (%a, %b) {schedule = #dsm.schedule<cluster = [2, 1, 1, 1], block = [128, 256, 64, 16], grid = [2, 4, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [], stages = 3, cost_ns = 1000>}
      : (tensor<512x512xbf16>, tensor<512x1024xbf16>) -> tensor<512x1024xbf16> {
  ^bb0(%x: tensor<512x512xbf16>, %w: tensor<512x1024xbf16>):
    %cst = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<512x1024xf32>
    %f = linalg.fill ins(%cst : f32) outs(%e : tensor<512x1024xf32>) -> tensor<512x1024xf32>
    %mm = linalg.matmul ins(%x, %w : tensor<512x512xbf16>, tensor<512x1024xbf16>) outs(%f : tensor<512x1024xf32>) -> tensor<512x1024xf32>
    %e2 = tensor.empty() : tensor<512x1024xbf16>
    %t = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%mm : tensor<512x1024xf32>) outs(%e2 : tensor<512x1024xbf16>) {
    ^bb0(%in: f32, %o: bf16):
      %v = arith.truncf %in : f32 to bf16
      linalg.yield %v : bf16
    }  -> tensor<512x1024xbf16>
    dsm.yield %t : tensor<512x1024xbf16>
  }
  return %r : tensor<512x1024xbf16>
}

// -----

// One 64-wide B box per k tile: the two CTAs take turns by k tile, rank
// k mod 2 loading k tile k's box into both.
// CHECK-LABEL: gpu.func @gemm_cluster_m_one_box_0
// CHECK: %[[RANK:.*]] = dsm.cluster_rank : index
// CHECK: scf.for %[[K:.*]] = %c0{{[_0-9]*}} to %c8{{[_0-9]*}} step %c1
// CHECK: nvgpu.mbarrier.arrive.expect_tx %{{.*}}, %c24576
// CHECK: %[[OWNER:.*]] = arith.remui %[[K]], %c2{{[_0-9]*}} : index
// CHECK: %[[MINE:.*]] = arith.cmpi eq, %[[RANK]], %[[OWNER]] : index
// CHECK: scf.if %[[MINE]] {
// CHECK: nvgpu.tma.async.load {{.*}} multicast_mask = %c3_i16
func.func @gemm_cluster_m_one_box(%a: tensor<512x512xbf16>, %b: tensor<512x1024xbf16>) -> tensor<512x1024xbf16> {
  %r = dsm.fused_chain gemm (%a, %b) {schedule = #dsm.schedule<cluster = [2, 1, 1, 1], block = [128, 64, 64, 16], grid = [2, 16, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [], stages = 3, cost_ns = 1000>}
      : (tensor<512x512xbf16>, tensor<512x1024xbf16>) -> tensor<512x1024xbf16> {
  ^bb0(%x: tensor<512x512xbf16>, %w: tensor<512x1024xbf16>):
    %cst = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<512x1024xf32>
    %f = linalg.fill ins(%cst : f32) outs(%e : tensor<512x1024xf32>) -> tensor<512x1024xf32>
    %mm = linalg.matmul ins(%x, %w : tensor<512x512xbf16>, tensor<512x1024xbf16>) outs(%f : tensor<512x1024xf32>) -> tensor<512x1024xf32>
    %e2 = tensor.empty() : tensor<512x1024xbf16>
    %t = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%mm : tensor<512x1024xf32>) outs(%e2 : tensor<512x1024xbf16>) {
    ^bb0(%in: f32, %o: bf16):
      %v = arith.truncf %in : f32 to bf16
      linalg.yield %v : bf16
    }  -> tensor<512x1024xbf16>
    dsm.yield %t : tensor<512x1024xbf16>
  }
  return %r : tensor<512x1024xbf16>
}

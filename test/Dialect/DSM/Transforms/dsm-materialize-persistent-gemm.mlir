// RUN: ff-opt %s --dsm-materialize=raster-group-m=0 | FileCheck %s
// RUN: ff-opt %s --dsm-materialize="raster-group-m=0 persistent-gemm=false" | FileCheck %s --check-prefix=OFF

// Persistent GEMM kernels: producer and consumers each walk the tiles
// t = cluster index, + clusters in the grid, ... of the 2 x 4 tiles at
// M = 256 (ceil(M / 128) * 4), the tile's block index being t * cls_n +
// rank; the operand ring's iteration continues across tiles (base + k,
// base += 8 k tiles per tile), and the consumers release the last stage of
// each tile, which the next tile's loads reuse.
// The bundle marks both kernels persistent for the runtime.
// CHECK: dsm.bundles = [{{.*}}name = "gemm_0", params = {{.*}}persistent = true{{.*}}name = "gemm_cluster_1", params = {{.*}}persistent = true
// CHECK-LABEL: gpu.func @gemm_0
// CHECK: %[[BID:.*]] = gpu.block_id x
// CHECK: %[[CTAS:.*]] = gpu.grid_dim x
// CHECK: %[[MT:.*]] = arith.ceildivui %{{.*}}, %c128{{.*}} : index
// CHECK: %[[TILES:.*]] = arith.muli %[[MT]], %c4{{.*}} : index
// CHECK: scf.for %[[T:.*]] = %[[BID]] to %[[TILES]] step %[[CTAS]] iter_args(%[[BASE:.*]] = %c0{{.*}}) -> (index)
// CHECK: %[[N:.*]] = arith.remui %[[T]], %c4
// CHECK: %[[M:.*]] = arith.divui %[[T]], %c4
// CHECK: scf.for %[[K:.*]] = %c0{{.*}} to %c8
// CHECK: %[[IT:.*]] = arith.addi %[[BASE]], %[[K]] : index
// CHECK: %[[IT32:.*]] = arith.index_castui %[[IT]] : index to i32
// CHECK: arith.remui %[[IT32]], %c3_i32{{.*}} : i32
// CHECK: nvgpu.tma.async.load
// CHECK: %[[NEXT:.*]] = arith.addi %[[BASE]], %c8{{.*}} : index
// CHECK: scf.yield %[[NEXT]] : index
// The consumers.
// CHECK: scf.for %[[CT:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[CBASE:.*]] = %c0{{.*}}) -> (index)
// CHECK: arith.addi %[[CBASE]], %{{.*}} : index
// CHECK: nvvm.wgmma.wait.group.sync.aligned 1
// CHECK: nvgpu.mbarrier.arrive
// CHECK: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK-NEXT: scf.if
// CHECK-NEXT: %[[C7:.*]] = arith.constant 7 : index
// CHECK-NEXT: %[[LAST:.*]] = arith.addi %[[CBASE]], %[[C7]] : index
// CHECK-NEXT: arith.constant 3 : i32
// CHECK-NEXT: %[[LAST32:.*]] = arith.index_castui %[[LAST]] : index to i32
// CHECK-NEXT: %[[S32:.*]] = arith.remui %[[LAST32]], %{{.*}} : i32
// CHECK-NEXT: %[[S:.*]] = arith.index_castui %[[S32]] : i32 to index
// CHECK-NEXT: nvgpu.mbarrier.arrive %{{.*}}[%[[S]]]
// CHECK: llvm.store
// CHECK: scf.yield %{{.*}} : index

// A cluster of 2 along n (A multicast): tiles are counted in clusters and
// the stage is released in both CTAs.
// CHECK-LABEL: gpu.func @gemm_cluster_1
// CHECK: %[[BID2:.*]] = gpu.block_id x
// CHECK: %[[CTAS2:.*]] = gpu.grid_dim x
// CHECK: %[[MT2:.*]] = arith.ceildivui %{{.*}}, %c128{{.*}} : index
// CHECK: %[[TILES2:.*]] = arith.muli %[[MT2]], %c2{{.*}} : index
// CHECK: %[[RANK:.*]] = arith.remui %[[BID2]], %c2
// CHECK: %[[FIRST:.*]] = arith.divui %[[BID2]], %c2
// CHECK: %[[STRIDE:.*]] = arith.divui %[[CTAS2]], %c2
// CHECK: scf.for %[[T2:.*]] = %[[FIRST]] to %[[TILES2]] step %[[STRIDE]]
// CHECK: %[[TB:.*]] = arith.muli %[[T2]], %c2
// CHECK: arith.addi %[[TB]], %[[RANK]] : index
// CHECK: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK-NEXT: scf.if
// CHECK: nvvm.mapa
// CHECK: nvvm.mapa
// CHECK: }

// OFF-LABEL: gpu.func @gemm_0
// OFF-NOT: gpu.grid_dim
// OFF: gpu.return
// OFF-NOT: persistent
func.func @gemm(%a: tensor<256x512xbf16>, %b: tensor<512x1024xbf16>) -> tensor<256x1024xbf16> {
  %r = dsm.fused_chain gemm (%a, %b) {schedule = #dsm.schedule<cluster = [1, 1, 1, 1], block = [128, 256, 64, 16], grid = [2, 4, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [], stages = 3, cost_ns = 1000>}
      : (tensor<256x512xbf16>, tensor<512x1024xbf16>) -> tensor<256x1024xbf16> {
  ^bb0(%x: tensor<256x512xbf16>, %w: tensor<512x1024xbf16>):
    %cst = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<256x1024xf32>
    %f = linalg.fill ins(%cst : f32) outs(%e : tensor<256x1024xf32>) -> tensor<256x1024xf32>
    %mm = linalg.matmul ins(%x, %w : tensor<256x512xbf16>, tensor<512x1024xbf16>) outs(%f : tensor<256x1024xf32>) -> tensor<256x1024xf32>
    %e2 = tensor.empty() : tensor<256x1024xbf16>
    %t = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%mm : tensor<256x1024xf32>) outs(%e2 : tensor<256x1024xbf16>) {
    ^bb0(%in: f32, %o: bf16):
      %v = arith.truncf %in : f32 to bf16
      linalg.yield %v : bf16
    }  -> tensor<256x1024xbf16>
    dsm.yield %t : tensor<256x1024xbf16>
  }
  return %r : tensor<256x1024xbf16>
}

func.func @gemm_cluster(%a: tensor<256x512xbf16>, %b: tensor<512x1024xbf16>) -> tensor<256x1024xbf16> {
  %r = dsm.fused_chain gemm (%a, %b) {schedule = #dsm.schedule<cluster = [1, 2, 1, 1], block = [128, 256, 64, 16], grid = [2, 2, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [], stages = 3, cost_ns = 1000>}
      : (tensor<256x512xbf16>, tensor<512x1024xbf16>) -> tensor<256x1024xbf16> {
  ^bb0(%x: tensor<256x512xbf16>, %w: tensor<512x1024xbf16>):
    %cst = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<256x1024xf32>
    %f = linalg.fill ins(%cst : f32) outs(%e : tensor<256x1024xf32>) -> tensor<256x1024xf32>
    %mm = linalg.matmul ins(%x, %w : tensor<256x512xbf16>, tensor<512x1024xbf16>) outs(%f : tensor<256x1024xf32>) -> tensor<256x1024xf32>
    %e2 = tensor.empty() : tensor<256x1024xbf16>
    %t = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%mm : tensor<256x1024xf32>) outs(%e2 : tensor<256x1024xbf16>) {
    ^bb0(%in: f32, %o: bf16):
      %v = arith.truncf %in : f32 to bf16
      linalg.yield %v : bf16
    }  -> tensor<256x1024xbf16>
    dsm.yield %t : tensor<256x1024xbf16>
  }
  return %r : tensor<256x1024xbf16>
}

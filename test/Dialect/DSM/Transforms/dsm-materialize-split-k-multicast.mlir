// RUN: ff-opt %s --dsm-materialize -split-input-file | FileCheck %s

// A swapped split K whose two token tiles share one cluster ([2, 1, 2, 1]:
// the product's cls_n = 2 token tiles x cls_k = 2 k slices). Ranks n * 2 +
// k: rank r runs k slice r mod 2 and loads weight rows [64 (r div 2), +64)
// of the 128-row tile, multicast to the two ranks of its k place (mask
// 0b0101 << r mod 2); every CTA receives the whole weight tile (16384 B)
// and its 112-token tile (14336 B). A stage is free once both consumer
// warpgroups of both CTAs that write it released it (empty count 4, a
// remote arrive on ranks r mod 2 and r mod 2 + 2). Each k place pair
// reduce-scatters its tile (group(2, 1)), 56 token columns each. The launch
// is 4 weight tiles x 2 token tiles x 2 k slices in clusters of 4.
// CHECK: cluster = array<i64: 4, 1, 1>
// CHECK-SAME: grid = array<i64: 16, 1, 1>
// CHECK-LABEL: gpu.func @gemm_0
// CHECK-SAME: known_cluster_size = array<i32: 4, 1, 1>
// CHECK: %[[RANK:.*]] = dsm.cluster_rank : index
// CHECK: %[[KR:.*]] = arith.remui %[[RANK]], %c2
// CHECK: %[[FOUR:.*]] = arith.constant 4 : index
// CHECK: nvgpu.mbarrier.init %{{.*}}[%{{.*}}], %[[FOUR]]
// CHECK: nvgpu.mbarrier.arrive.expect_tx %{{.*}}, %c30720
// CHECK: %[[NR:.*]] = arith.divui %[[RANK]], %c2
// CHECK: %[[ROWS:.*]] = arith.muli %[[NR]], %c64
// CHECK: %[[ROW:.*]] = arith.addi %{{.*}}, %[[ROWS]] : index
// CHECK: %[[FIVE:.*]] = arith.constant 5 : i16
// CHECK: %[[SHIFT:.*]] = arith.index_castui %[[KR]] : index to i16
// CHECK: %[[MASK:.*]] = arith.shli %[[FIVE]], %[[SHIFT]] : i16
// CHECK: nvgpu.tma.async.load %{{.*}}[%{{.*}}, %[[ROW]]], %{{.*}} to %{{.*}} multicast_mask = %[[MASK]] : <tensor = memref<64x64xbf16, 3>
// CHECK: %[[P0:.*]] = arith.index_castui %[[KR]] : index to i32
// CHECK: nvvm.mapa %{{.*}}, %[[P0]]
// CHECK: %[[P1I:.*]] = arith.addi %[[KR]], %c2
// CHECK: %[[P1:.*]] = arith.index_castui %[[P1I]] : index to i32
// CHECK: nvvm.mapa %{{.*}}, %[[P1]]
// CHECK-NOT: nvvm.mapa
// CHECK: dsm.reduce reduce_scatter add %{{.*}} axis = 0 group(2, 1) push({{.*}} : !dsm.buffer<128x56xf32, split = [1, 1]>
// The consumers release stages on the peers' barriers, so the exit
// barrier's arrive keeps its release semantics (not relaxed).
// CHECK: dsm.cluster_arrive{{$}}
// CHECK-NEXT: dsm.cluster_wait
// CHECK-NEXT: gpu.return
func.func @gemm(%a: tensor<200x4096xbf16>, %b: tensor<512x4096xbf16>) -> tensor<200x512xbf16> {
  %r = dsm.fused_chain gemm (%a, %b) {schedule = #dsm.schedule<cluster = [2, 1, 2, 1], block = [112, 128, 2048, 16], grid = [1, 4, 1, 1], order = [m, n, k, l], spatial = [m, n, k], residency = [], collectives = [all_exchange], stages = 6, cost_ns = 1000, swap_ab = true>}
      : (tensor<200x4096xbf16>, tensor<512x4096xbf16>) -> tensor<200x512xbf16> {
  ^bb0(%x: tensor<200x4096xbf16>, %w: tensor<512x4096xbf16>):
    %cst = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<200x512xf32>
    %f = linalg.fill ins(%cst : f32) outs(%e : tensor<200x512xf32>) -> tensor<200x512xf32>
    %mm = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%x, %w : tensor<200x4096xbf16>, tensor<512x4096xbf16>) outs(%f : tensor<200x512xf32>) -> tensor<200x512xf32>
    %e2 = tensor.empty() : tensor<200x512xbf16>
    %t = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%mm : tensor<200x512xf32>) outs(%e2 : tensor<200x512xbf16>) {
    ^bb0(%in: f32, %o: bf16):
      %v = arith.truncf %in : f32 to bf16
      linalg.yield %v : bf16
    }  -> tensor<200x512xbf16>
    dsm.yield %t : tensor<200x512xbf16>
  }
  return %r : tensor<200x512xbf16>
}

// -----

// Unswapped, the same cluster is [1, 2, 2, 1]: two weight tiles of one
// 64-row token tile share its k tiles, each rank of a k place loading 32
// of the 64 token rows into both (box 32 rows, mask 0b0101 << k); one
// consumer warpgroup per CTA, so a stage is free after 2 releases, and a
// stage holds the whole token tile (8192 B) and a 128 x 64 weight tile.
// CHECK: cluster = array<i64: 4, 1, 1>
// CHECK-SAME: params = [{box = array<i64: 64, 32>
// CHECK-LABEL: gpu.func @pair_0
// CHECK: %[[KR:.*]] = arith.remui %{{.*}}, %c2
// CHECK: %[[TWO:.*]] = arith.constant 2 : index
// CHECK: nvgpu.mbarrier.init %{{.*}}[%{{.*}}], %[[TWO]]
// CHECK: nvgpu.mbarrier.arrive.expect_tx %{{.*}}, %c24576
// CHECK: %[[FIVE:.*]] = arith.constant 5 : i16
// CHECK: %[[SHIFT:.*]] = arith.index_castui %[[KR]] : index to i16
// CHECK: %[[MASK:.*]] = arith.shli %[[FIVE]], %[[SHIFT]] : i16
// CHECK: nvgpu.tma.async.load {{.*}} multicast_mask = %[[MASK]] : <tensor = memref<32x64xbf16, 3>
// CHECK: dsm.reduce reduce_scatter add %{{.*}} axis = 0 group(2, 1)
// CHECK: dsm.cluster_arrive{{$}}
// CHECK-NEXT: dsm.cluster_wait
// CHECK-NEXT: gpu.return
func.func @pair(%a: tensor<256x4096xbf16>, %b: tensor<4096x512xbf16>) -> tensor<256x512xbf16> {
  %r = dsm.fused_chain gemm (%a, %b) {schedule = #dsm.schedule<cluster = [1, 2, 2, 1], block = [64, 128, 2048, 16], grid = [4, 2, 1, 1], order = [m, n, k, l], spatial = [m, n, k], residency = [], collectives = [all_exchange], stages = 4, cost_ns = 1000>}
      : (tensor<256x4096xbf16>, tensor<4096x512xbf16>) -> tensor<256x512xbf16> {
  ^bb0(%x: tensor<256x4096xbf16>, %w: tensor<4096x512xbf16>):
    %cst = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<256x512xf32>
    %f = linalg.fill ins(%cst : f32) outs(%e : tensor<256x512xf32>) -> tensor<256x512xf32>
    %mm = linalg.matmul ins(%x, %w : tensor<256x4096xbf16>, tensor<4096x512xbf16>) outs(%f : tensor<256x512xf32>) -> tensor<256x512xf32>
    %e2 = tensor.empty() : tensor<256x512xbf16>
    %t = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%mm : tensor<256x512xf32>) outs(%e2 : tensor<256x512xbf16>) {
    ^bb0(%in: f32, %o: bf16):
      %v = arith.truncf %in : f32 to bf16
      linalg.yield %v : bf16
    }  -> tensor<256x512xbf16>
    dsm.yield %t : tensor<256x512xbf16>
  }
  return %r : tensor<256x512xbf16>
}

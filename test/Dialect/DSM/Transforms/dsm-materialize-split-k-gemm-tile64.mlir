// RUN: ff-opt %s --dsm-materialize | FileCheck %s

// A single GEMM split over K in 64 x 64 tiles (G7's 128 x 768 x 768 GEMMs
// take this since the twenty-ninth session): clusters of 4 CTAs share one
// tile, rank r runs k tiles [3r, 3r + 3), the reduce-scatter pushes each
// peer's 16-column slice of the 64 x 64 fp32 tile (slice-major partial of
// 4 x 64 rows, three peer slices in scratch), and rank r stores columns
// [16r, 16r + 16). 2 m tiles x 12 n tiles x 4 ranks: 96 CTAs. Its ring
// holds the slice's three k steps, not the schedule's four stages.
// CHECK: cluster = array<i64: 4, 1, 1>, dynamic_smem = 49152 : i64, grid = array<i64: 48, 1, 1>, grid_m_tile = 64
// CHECK-LABEL: gpu.func @gemm64_0
// CHECK-SAME: known_cluster_size = array<i32: 4, 1, 1>
// CHECK: %[[RANK:.*]] = dsm.cluster_rank : index
// CHECK: %[[KR:.*]] = arith.remui %[[RANK]], %c4
// CHECK: %[[KOFF:.*]] = arith.muli %[[KR]], %c3
// CHECK: %[[PART:.*]] = dsm.alloc at 0 : !dsm.buffer<256x16xf32, split = [1, 1]>
// CHECK: %[[SCR:.*]] = dsm.alloc at 16384 : !dsm.buffer<192x16xf32, split = [1, 1]>
// CHECK: scf.for %[[K:.*]] = %c0{{.*}} to %c3{{.*}} step
// CHECK: %[[KT:.*]] = arith.addi %[[K]], %[[KOFF]] : index
// CHECK: dsm.reduce reduce_scatter add %[[PART]] axis = 0 group(4, 1) push(%[[SCR]] : !dsm.buffer<192x16xf32, split = [1, 1]>, {{.*}}) {threads = 128 : i64}
// CHECK: arith.muli %[[RANK]], %c16
// CHECK: gpu.return

func.func @gemm64(%a: tensor<128x768xbf16>, %b: tensor<768x768xbf16>) -> tensor<128x768xbf16> {
  %r = dsm.fused_chain gemm (%a, %b) {schedule = #dsm.schedule<cluster = [1, 1, 4, 1], block = [64, 64, 192, 16], grid = [2, 12, 1, 1], order = [m, n, k, l], spatial = [m, n, k], residency = [], collectives = [all_exchange], stages = 4, cost_ns = 4993>}
      : (tensor<128x768xbf16>, tensor<768x768xbf16>) -> tensor<128x768xbf16> {
  ^bb0(%x: tensor<128x768xbf16>, %w: tensor<768x768xbf16>):
    %cst = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<128x768xf32>
    %f = linalg.fill ins(%cst : f32) outs(%e : tensor<128x768xf32>) -> tensor<128x768xf32>
    %mm = linalg.matmul ins(%x, %w : tensor<128x768xbf16>, tensor<768x768xbf16>) outs(%f : tensor<128x768xf32>) -> tensor<128x768xf32>
    %e2 = tensor.empty() : tensor<128x768xbf16>
    %t = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%mm : tensor<128x768xf32>) outs(%e2 : tensor<128x768xbf16>) {
    ^bb0(%in: f32, %o: bf16):
      %v = arith.truncf %in : f32 to bf16
      linalg.yield %v : bf16
    }  -> tensor<128x768xbf16>
    dsm.yield %t : tensor<128x768xbf16>
  }
  return %r : tensor<128x768xbf16>
}

// RUN: ff-opt %s --dsm-materialize -split-input-file | FileCheck %s

// Swapped operands (swap_ab): the kernel computes C^T = W A^T, the [N, K]
// weight as wgmma's M side in 128-row tiles (its first tensor map, in1)
// and A's 300 rows as its N side in tiles of 152 (in0's box: 152 rows; TMA
// zero-fills rows 300-303). The grid is fixed at 2 weight tiles x 2 row
// tiles (grid_m_tile 0: the runtime does not scale it by M), and the
// chain's inputs keep their own names and layouts in the manifest. Shared
// memory: 3 stages of 16 KB of weights and 19 KB of tokens, then 1 KB of
// store buffers per consumer warp (115712 bytes). The epilogue (a cast)
// goes out in 16-token chunks (9 of 16 and a last of 8): each warp's
// stmatrix .trans writes its 16 weight rows of 16 tokens (four 8 x 8
// blocks; two for the last chunk) into one of its two buffers, a warp
// barrier, then each lane stores 16 bytes of result row a_row from the
// buffer where a_row < M, out[a_row, w_row .. w_row + 8).

// CHECK: chain = {{{.*}}inputs = [{dtype = "bf16", name = "in0", shape = array<i64: 300, 256>}, {dtype = "bf16", layout = "nk", name = "in1"{{.*}}m = 300 : i64, n = 256 : i64
// CHECK-SAME: dynamic_smem = 115712 : i64, grid = array<i64: 4, 1, 1>, grid_m_tile = 0 : i64, m_hi = 300 : i64, m_lo = 1 : i64
// CHECK-SAME: params = [{box = array<i64: 64, 128>{{.*}}tensor = "in1"}, {box = array<i64: 64, 152>{{.*}}tensor = "in0"}
// CHECK-SAME: swap_ab = true
// CHECK-LABEL: gpu.func @gemm_300_0
// CHECK: nvvm.wgmma.mma_async {{.*}} <m = 64, n = 152, k = 16>
// CHECK-NOT: nvvm.shfl.sync
// CHECK: nvvm.bar.warp.sync
// CHECK-COUNT-9: nvvm.stmatrix %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {eltType = #nvvm.ld_st_matrix_elt_type<b16>, layout = #nvvm.mma_layout<col>, shape = #nvvm.ld_st_matrix_shape<m = 8, n = 8>} : !llvm.ptr<3>, i32, i32, i32, i32
// CHECK: nvvm.stmatrix %{{.*}}, %{{.*}}, %{{.*}} {{.*}} : !llvm.ptr<3>, i32, i32
// CHECK-NEXT: nvvm.bar.warp.sync
// CHECK: %[[LIMIT:.*]] = arith.constant 300 : index
// CHECK-NEXT: %[[IN:.*]] = arith.cmpi ult, %[[ROW:.*]], %[[LIMIT]] : index
// CHECK: %[[FIRST8:.*]] = arith.cmpi ult, %{{.*}}, %c8{{.*}} : index
// CHECK-NEXT: %[[BOTH:.*]] = arith.andi %[[IN]], %[[FIRST8]] : i1
// CHECK-NEXT: scf.if %[[BOTH]] {
// CHECK: %[[V:.*]] = llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<3> -> vector<4xi32>
// CHECK-NEXT: arith.muli %[[ROW]], %c256 : index
// CHECK: llvm.store %[[V]], %{{.*}} {alignment = 16 : i64} : vector<4xi32>, !llvm.ptr
// CHECK-NOT: llvm.store
// CHECK-LABEL: func.func @gemm_300_0_launch
// CHECK-NOT: arith.ceildivui
// CHECK: gpu.launch_func @gemm_300_0_module::@gemm_300_0

func.func @gemm_300(%a: tensor<300x256xbf16>, %b: tensor<256x256xbf16>) -> tensor<300x256xbf16> {
  %r = dsm.fused_chain gemm (%a, %b) {schedule = #dsm.schedule<cluster = [1, 1, 1, 1], block = [152, 128, 64, 16], grid = [2, 2, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [], stages = 3, cost_ns = 1000, swap_ab = true>}
      : (tensor<300x256xbf16>, tensor<256x256xbf16>) -> tensor<300x256xbf16> {
  ^bb0(%x: tensor<300x256xbf16>, %w: tensor<256x256xbf16>):
    %cst = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<300x256xf32>
    %f = linalg.fill ins(%cst : f32) outs(%e : tensor<300x256xf32>) -> tensor<300x256xf32>
    %mm = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%x, %w : tensor<300x256xbf16>, tensor<256x256xbf16>) outs(%f : tensor<300x256xf32>) -> tensor<300x256xf32>
    %e2 = tensor.empty() : tensor<300x256xbf16>
    %t = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%mm : tensor<300x256xf32>) outs(%e2 : tensor<300x256xbf16>) {
    ^bb0(%in: f32, %o: bf16):
      %v = arith.truncf %in : f32 to bf16
      linalg.yield %v : bf16
    }  -> tensor<300x256xbf16>
    dsm.yield %t : tensor<300x256xbf16>
  }
  return %r : tensor<300x256xbf16>
}

// -----

// A dynamic M (KernelPlan::swapsDynamicM), here a bin of 257-384 rows: the
// manifest's grid is the 2 weight tiles of one 152-token launch unit
// (grid_m_tile 152: the runtime launches 2 * ceil(M / 152) CTAs); the
// kernel counts its token tiles from its M argument, walks weight tiles x
// token tiles, and stores the tokens below M.

// CHECK: grid = array<i64: 2, 1, 1>, grid_m_tile = 152 : i64, m_hi = 384 : i64, m_lo = 257 : i64
// CHECK-LABEL: gpu.func @gemm_dyn_0(
// CHECK: %[[M:.*]] = arith.index_castui %arg3 : i64 to index
// CHECK: %[[TOK:.*]] = arith.ceildivui %[[M]], %c152 : index
// CHECK: %[[TILES:.*]] = arith.muli %{{.*}}, %[[TOK]] : index
// CHECK: scf.for %[[T:.*]] = %block_id_x to %[[TILES]] step %grid_dim_x
// CHECK: arith.remui %[[T]], %[[TOK]] : index
// CHECK: nvvm.stmatrix
// CHECK: arith.cmpi ult, %{{.*}}, %[[M]] : index
// CHECK-LABEL: func.func @gemm_dyn_0_launch
// CHECK: %[[LM:.*]] = arith.index_castui %arg3 : i64 to index
// CHECK: %[[UNITS:.*]] = arith.ceildivui %[[LM]], %c152 : index
// CHECK: %[[X:.*]] = arith.muli %[[UNITS]], %c2 : index
// CHECK: gpu.launch_func @gemm_dyn_0_module::@gemm_dyn_0 blocks in (%[[X]],

func.func @gemm_dyn(%a: tensor<?x256xbf16>, %b: tensor<256x256xbf16>) -> tensor<?x256xbf16> {
  %r = dsm.fused_chain gemm (%a, %b) {schedule = #dsm.schedule<cluster = [1, 1, 1, 1], block = [152, 128, 64, 16], grid = [2, 2, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [], stages = 3, cost_ns = 1000, m_lo = 257, m_hi = 384, swap_ab = true>}
      : (tensor<?x256xbf16>, tensor<256x256xbf16>) -> tensor<?x256xbf16> {
  ^bb0(%x: tensor<?x256xbf16>, %w: tensor<256x256xbf16>):
    %cst = arith.constant 0.0 : f32
    %c0 = arith.constant 0 : index
    %d = tensor.dim %x, %c0 : tensor<?x256xbf16>
    %e = tensor.empty(%d) : tensor<?x256xf32>
    %f = linalg.fill ins(%cst : f32) outs(%e : tensor<?x256xf32>) -> tensor<?x256xf32>
    %mm = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%x, %w : tensor<?x256xbf16>, tensor<256x256xbf16>) outs(%f : tensor<?x256xf32>) -> tensor<?x256xf32>
    %e2 = tensor.empty(%d) : tensor<?x256xbf16>
    %t = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%mm : tensor<?x256xf32>) outs(%e2 : tensor<?x256xbf16>) {
    ^bb0(%in: f32, %o: bf16):
      %v = arith.truncf %in : f32 to bf16
      linalg.yield %v : bf16
    }  -> tensor<?x256xbf16>
    dsm.yield %t : tensor<?x256xbf16>
  }
  return %r : tensor<?x256xbf16>
}

// -----

// blk_n = 256: one 256-row weight tile per CTA on two consumer warpgroups
// (384 threads), each holding two 64-row accumulators: per k16 step two
// wgmmas chains, the second reading A 64 rows (8 KB) further; the epilogue
// stores both blocks, 10 chunks each, through the same buffers. in1's box
// is 256 rows; 1 weight tile x 2 row tiles.

// CHECK: block = array<i64: 384, 1, 1>
// CHECK-SAME: grid = array<i64: 2, 1, 1>
// CHECK-SAME: params = [{box = array<i64: 64, 256>{{.*}}tensor = "in1"}, {box = array<i64: 64, 152>{{.*}}tensor = "in0"}
// CHECK-LABEL: gpu.func @gemm_300_rows_0
// CHECK: nvvm.wgmma.mma_async {{.*}} <m = 64, n = 152, k = 16>, D[<f32>, <zero>]
// CHECK-COUNT-3: nvvm.wgmma.mma_async {{.*}}, D[<f32>, <one>]
// CHECK: nvvm.wgmma.mma_async {{.*}} <m = 64, n = 152, k = 16>, D[<f32>, <zero>]
// CHECK-COUNT-3: nvvm.wgmma.mma_async {{.*}}, D[<f32>, <one>]
// CHECK: nvvm.wgmma.commit.group.sync.aligned
// CHECK-COUNT-20: llvm.store %{{.*}} {alignment = 16 : i64} : vector<4xi32>
// CHECK-NOT: llvm.store
// CHECK-LABEL: func.func @gemm_300_rows_0_launch

func.func @gemm_300_rows(%a: tensor<300x256xbf16>, %b: tensor<256x256xbf16>) -> tensor<300x256xbf16> {
  %r = dsm.fused_chain gemm (%a, %b) {schedule = #dsm.schedule<cluster = [1, 1, 1, 1], block = [152, 256, 64, 16], grid = [2, 1, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [], stages = 3, cost_ns = 1000, swap_ab = true>}
      : (tensor<300x256xbf16>, tensor<256x256xbf16>) -> tensor<300x256xbf16> {
  ^bb0(%x: tensor<300x256xbf16>, %w: tensor<256x256xbf16>):
    %cst = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<300x256xf32>
    %f = linalg.fill ins(%cst : f32) outs(%e : tensor<300x256xf32>) -> tensor<300x256xf32>
    %mm = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%x, %w : tensor<300x256xbf16>, tensor<256x256xbf16>) outs(%f : tensor<300x256xf32>) -> tensor<300x256xf32>
    %e2 = tensor.empty() : tensor<300x256xbf16>
    %t = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%mm : tensor<300x256xf32>) outs(%e2 : tensor<300x256xbf16>) {
    ^bb0(%in: f32, %o: bf16):
      %v = arith.truncf %in : f32 to bf16
      linalg.yield %v : bf16
    }  -> tensor<300x256xbf16>
    dsm.yield %t : tensor<300x256xbf16>
  }
  return %r : tensor<300x256xbf16>
}

// -----

// A cluster of two along M: the two row tiles of a weight tile share each
// of its k tiles, each CTA loading 64 of the 128 weight rows (in1's box)
// and multicasting them to both; stages are released in both CTAs.

// CHECK: cluster = array<i64: 2, 1, 1>
// CHECK-SAME: grid = array<i64: 4, 1, 1>
// CHECK-SAME: params = [{box = array<i64: 64, 64>{{.*}}tensor = "in1"}, {box = array<i64: 64, 152>{{.*}}tensor = "in0"}
// CHECK-LABEL: gpu.func @gemm_300_pair_0
// CHECK: nvgpu.tma.async.load {{.*}} multicast_mask = %c3_i16 : <tensor = memref<64x64xbf16, 3>
// CHECK: nvvm.wgmma.mma_async {{.*}} <m = 64, n = 152, k = 16>
// CHECK: nvvm.mapa

func.func @gemm_300_pair(%a: tensor<300x256xbf16>, %b: tensor<256x256xbf16>) -> tensor<300x256xbf16> {
  %r = dsm.fused_chain gemm (%a, %b) {schedule = #dsm.schedule<cluster = [2, 1, 1, 1], block = [152, 128, 64, 16], grid = [1, 2, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [], stages = 3, cost_ns = 1000, swap_ab = true>}
      : (tensor<300x256xbf16>, tensor<256x256xbf16>) -> tensor<300x256xbf16> {
  ^bb0(%x: tensor<300x256xbf16>, %w: tensor<256x256xbf16>):
    %cst = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<300x256xf32>
    %f = linalg.fill ins(%cst : f32) outs(%e : tensor<300x256xf32>) -> tensor<300x256xf32>
    %mm = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%x, %w : tensor<300x256xbf16>, tensor<256x256xbf16>) outs(%f : tensor<300x256xf32>) -> tensor<300x256xf32>
    %e2 = tensor.empty() : tensor<300x256xbf16>
    %t = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%mm : tensor<300x256xf32>) outs(%e2 : tensor<300x256xbf16>) {
    ^bb0(%in: f32, %o: bf16):
      %v = arith.truncf %in : f32 to bf16
      linalg.yield %v : bf16
    }  -> tensor<300x256xbf16>
    dsm.yield %t : tensor<300x256xbf16>
  }
  return %r : tensor<300x256xbf16>
}

// -----

// A cluster of two along N (hand-written only: chains ran 0.93-1.00x on an
// H200, fifty-first session): two weight tiles share each k tile of their
// token tile, its 152-row box loaded by rank k mod 2 and multicast to both;
// not persistent (the tiles map by block index).

// CHECK: cluster = array<i64: 2, 1, 1>
// CHECK-SAME: grid = array<i64: 4, 1, 1>
// CHECK-SAME: params = [{box = array<i64: 64, 128>{{.*}}tensor = "in1"}, {box = array<i64: 64, 152>{{.*}}tensor = "in0"}
// CHECK-NOT: persistent
// CHECK-LABEL: gpu.func @gemm_300_tokens_0
// CHECK: nvgpu.tma.async.load {{.*}} : <tensor = memref<128x64xbf16, 3>
// CHECK: scf.if
// CHECK: nvgpu.tma.async.load {{.*}} multicast_mask = %c3_i16 : <tensor = memref<152x64xbf16, 3>
// CHECK: nvvm.wgmma.mma_async {{.*}} <m = 64, n = 152, k = 16>
// CHECK: nvvm.mapa

func.func @gemm_300_tokens(%a: tensor<300x256xbf16>, %b: tensor<256x256xbf16>) -> tensor<300x256xbf16> {
  %r = dsm.fused_chain gemm (%a, %b) {schedule = #dsm.schedule<cluster = [1, 2, 1, 1], block = [152, 128, 64, 16], grid = [2, 1, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [], stages = 3, cost_ns = 1000, swap_ab = true>}
      : (tensor<300x256xbf16>, tensor<256x256xbf16>) -> tensor<300x256xbf16> {
  ^bb0(%x: tensor<300x256xbf16>, %w: tensor<256x256xbf16>):
    %cst = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<300x256xf32>
    %f = linalg.fill ins(%cst : f32) outs(%e : tensor<300x256xf32>) -> tensor<300x256xf32>
    %mm = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%x, %w : tensor<300x256xbf16>, tensor<256x256xbf16>) outs(%f : tensor<300x256xf32>) -> tensor<300x256xf32>
    %e2 = tensor.empty() : tensor<300x256xbf16>
    %t = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%mm : tensor<300x256xf32>) outs(%e2 : tensor<300x256xbf16>) {
    ^bb0(%in: f32, %o: bf16):
      %v = arith.truncf %in : f32 to bf16
      linalg.yield %v : bf16
    }  -> tensor<300x256xbf16>
    dsm.yield %t : tensor<300x256xbf16>
  }
  return %r : tensor<300x256xbf16>
}

// -----

// 64 weight rows (blk_n = 64): one consumer warpgroup (256 threads) against
// an 80-row token tile (4 x 80 >= 300), 4 weight tiles x 4 token tiles, an
// 8-stage ring of 8 KB of weights and 10 KB of tokens, then its four
// warps' 4 KB of store buffers.

// CHECK: block = array<i64: 256, 1, 1>
// CHECK-SAME: dynamic_smem = 151552 : i64, grid = array<i64: 16, 1, 1>
// CHECK-SAME: params = [{box = array<i64: 64, 64>{{.*}}tensor = "in1"}, {box = array<i64: 64, 80>{{.*}}tensor = "in0"}
// CHECK-LABEL: gpu.func @gemm_300_narrow_0
// CHECK: nvvm.wgmma.mma_async {{.*}} <m = 64, n = 80, k = 16>
// CHECK-LABEL: func.func @gemm_300_narrow_0_launch

func.func @gemm_300_narrow(%a: tensor<300x256xbf16>, %b: tensor<256x256xbf16>) -> tensor<300x256xbf16> {
  %r = dsm.fused_chain gemm (%a, %b) {schedule = #dsm.schedule<cluster = [1, 1, 1, 1], block = [80, 64, 64, 16], grid = [4, 4, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [], stages = 8, cost_ns = 1000, swap_ab = true>}
      : (tensor<300x256xbf16>, tensor<256x256xbf16>) -> tensor<300x256xbf16> {
  ^bb0(%x: tensor<300x256xbf16>, %w: tensor<256x256xbf16>):
    %cst = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<300x256xf32>
    %f = linalg.fill ins(%cst : f32) outs(%e : tensor<300x256xf32>) -> tensor<300x256xf32>
    %mm = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%x, %w : tensor<300x256xbf16>, tensor<256x256xbf16>) outs(%f : tensor<300x256xf32>) -> tensor<300x256xf32>
    %e2 = tensor.empty() : tensor<300x256xbf16>
    %t = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%mm : tensor<300x256xf32>) outs(%e2 : tensor<300x256xbf16>) {
    ^bb0(%in: f32, %o: bf16):
      %v = arith.truncf %in : f32 to bf16
      linalg.yield %v : bf16
    }  -> tensor<300x256xbf16>
    dsm.yield %t : tensor<300x256xbf16>
  }
  return %r : tensor<300x256xbf16>
}

// -----

// A split K over a cluster of two along k: each CTA runs half of K (two
// 64-wide steps of its 128), the pair reduce-scatters the fp32 tile over
// DSM, and each rank stores its 80 token columns of C^T's tile, each
// thread 8 weight rows of one column (consecutive lanes on consecutive
// columns: conflict-free loads): out[a_row, w_row .. w_row + 8), 16 bytes,
// where a_row < M. 2 weight tiles x 2 token tiles x 2 ranks.

// CHECK: cluster = array<i64: 2, 1, 1>
// CHECK-SAME: grid = array<i64: 8, 1, 1>
// CHECK-SAME: params = [{box = array<i64: 64, 128>{{.*}}tensor = "in1"}, {box = array<i64: 64, 160>{{.*}}tensor = "in0"}
// CHECK-LABEL: gpu.func @gemm_300_split_0
// CHECK: nvvm.wgmma.mma_async {{.*}} <m = 64, n = 160, k = 16>
// CHECK: dsm.reduce
// CHECK: scf.for
// CHECK: %[[LIMIT:.*]] = arith.constant 300 : index
// CHECK-NEXT: %[[IN:.*]] = arith.cmpi ult, %{{.*}}, %[[LIMIT]] : index
// CHECK-NEXT: scf.if %[[IN]] {
// CHECK-COUNT-8: memref.load %{{.*}}[%{{.*}}, %[[COL:.*]]] : memref<{{.*}}x80xf32
// CHECK-NOT: memref.load
// CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<8xbf16>, !llvm.ptr

func.func @gemm_300_split(%a: tensor<300x256xbf16>, %b: tensor<256x256xbf16>) -> tensor<300x256xbf16> {
  %r = dsm.fused_chain gemm (%a, %b) {schedule = #dsm.schedule<cluster = [1, 1, 2, 1], block = [160, 128, 128, 16], grid = [2, 2, 1, 1], order = [m, n, k, l], spatial = [m, n, k], residency = [], collectives = [all_exchange], stages = 3, cost_ns = 1000, swap_ab = true>}
      : (tensor<300x256xbf16>, tensor<256x256xbf16>) -> tensor<300x256xbf16> {
  ^bb0(%x: tensor<300x256xbf16>, %w: tensor<256x256xbf16>):
    %cst = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<300x256xf32>
    %f = linalg.fill ins(%cst : f32) outs(%e : tensor<300x256xf32>) -> tensor<300x256xf32>
    %mm = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%x, %w : tensor<300x256xbf16>, tensor<256x256xbf16>) outs(%f : tensor<300x256xf32>) -> tensor<300x256xf32>
    %e2 = tensor.empty() : tensor<300x256xbf16>
    %t = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%mm : tensor<300x256xf32>) outs(%e2 : tensor<300x256xbf16>) {
    ^bb0(%in: f32, %o: bf16):
      %v = arith.truncf %in : f32 to bf16
      linalg.yield %v : bf16
    }  -> tensor<300x256xbf16>
    dsm.yield %t : tensor<300x256xbf16>
  }
  return %r : tensor<300x256xbf16>
}

// -----

// A swapped gated GEMM: gate's and up's [N, K] weights are both A operands
// of the product (in1's and in2's boxes: 128 rows) against one token tile
// (in0's: 152 rows). Each stage lands gate's 128 rows, up's after them and
// the token tile, 2 x 16 KB + 19 KB = 52224 bytes, gate's and up's boxes
// at the same coordinates. Per k16 step gate's and up's wgmma chains read
// the same token descriptor; the epilogue combines the two accumulators
// element by element (silu(g) * u) and stores through the warps' buffers.

// CHECK: kind = "gated_gemm"
// CHECK-SAME: params = [{box = array<i64: 64, 128>{{.*}}tensor = "in1"}, {box = array<i64: 64, 152>{{.*}}tensor = "in0"}, {box = array<i64: 64, 128>{{.*}}tensor = "in2"}
// CHECK-LABEL: gpu.func @gated_300_0
// CHECK: nvgpu.mbarrier.arrive.expect_tx %{{.*}}, %c52224
// CHECK: nvgpu.tma.async.load %[[GATE:[0-9]+]][%[[K:[0-9]+]], %[[ROW:[0-9]+]]], %{{.*}} to %{{.*}} : <tensor = memref<128x64xbf16, 3>
// CHECK: nvgpu.tma.async.load %[[UP:[0-9]+]][%[[K]], %[[ROW]]], %{{.*}} to %{{.*}} : <tensor = memref<128x64xbf16, 3>
// CHECK: nvgpu.tma.async.load %{{[0-9]+}}[%[[K]], %{{[0-9]+}}], %{{.*}} to %{{.*}} : <tensor = memref<152x64xbf16, 3>
// CHECK: nvvm.wgmma.mma_async %{{[0-9]+}}, %[[TOK:[0-9]+]], %{{.*}}, <m = 64, n = 152, k = 16>, D[<f32>, <zero>]
// CHECK-COUNT-3: nvvm.wgmma.mma_async {{.*}}, D[<f32>, <one>]
// CHECK: nvvm.wgmma.mma_async %{{[0-9]+}}, %[[TOK]], %{{.*}}, <m = 64, n = 152, k = 16>, D[<f32>, <zero>]
// CHECK-COUNT-3: nvvm.wgmma.mma_async {{.*}}, D[<f32>, <one>]
// CHECK: nvvm.wgmma.commit.group.sync.aligned
// CHECK: math.exp
// CHECK: nvvm.stmatrix
// CHECK: llvm.store %{{.*}} {alignment = 16 : i64} : vector<4xi32>
// CHECK-LABEL: func.func @gated_300_0_launch

func.func @gated_300(%a: tensor<300x256xbf16>, %wg: tensor<256x256xbf16>, %wu: tensor<256x256xbf16>) -> tensor<300x256xbf16> {
  %r = dsm.fused_chain gated_gemm (%a, %wg, %wu) {schedule = #dsm.schedule<cluster = [1, 1, 1, 1], block = [152, 128, 64, 16], grid = [2, 2, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [], stages = 3, cost_ns = 1000, swap_ab = true>}
      : (tensor<300x256xbf16>, tensor<256x256xbf16>, tensor<256x256xbf16>) -> tensor<300x256xbf16> {
  ^bb0(%x: tensor<300x256xbf16>, %g: tensor<256x256xbf16>, %u: tensor<256x256xbf16>):
    %z = arith.constant 0.0 : f32
    %one = arith.constant 1.0 : f32
    %e0 = tensor.empty() : tensor<300x256xf32>
    %f0 = linalg.fill ins(%z : f32) outs(%e0 : tensor<300x256xf32>) -> tensor<300x256xf32>
    %cg = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%x, %g : tensor<300x256xbf16>, tensor<256x256xbf16>) outs(%f0 : tensor<300x256xf32>) -> tensor<300x256xf32>
    %e1 = tensor.empty() : tensor<300x256xf32>
    %f1 = linalg.fill ins(%z : f32) outs(%e1 : tensor<300x256xf32>) -> tensor<300x256xf32>
    %cu = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%x, %u : tensor<300x256xbf16>, tensor<256x256xbf16>) outs(%f1 : tensor<300x256xf32>) -> tensor<300x256xf32>
    %hb = tensor.empty() : tensor<300x256xbf16>
    %h = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%cg, %cu : tensor<300x256xf32>, tensor<300x256xf32>) outs(%hb : tensor<300x256xbf16>) {
    ^bb0(%gv: f32, %uv: f32, %out: bf16):
      %n = arith.negf %gv : f32
      %ex = math.exp %n : f32
      %den = arith.addf %ex, %one : f32
      %s = arith.divf %gv, %den : f32
      %p = arith.mulf %s, %uv : f32
      %t = arith.truncf %p : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<300x256xbf16>
    dsm.yield %h : tensor<300x256xbf16>
  }
  return %r : tensor<300x256xbf16>
}

// -----

// An fp32 result (no cast) has no stmatrix for its 4-byte elements: the
// staged stores are for bf16 results only, and the warps store each value
// at out[a_row, w_row] where a_row < M, with no store buffers in shared
// memory (3 x 35 KB = 107520 bytes).

// CHECK: dynamic_smem = 107520 : i64
// CHECK-LABEL: gpu.func @gemm_300_f32_0
// CHECK-NOT: nvvm.stmatrix
// CHECK: %[[LIMIT:.*]] = arith.constant 300 : index
// CHECK-NEXT: %[[IN:.*]] = arith.cmpi ult, %{{.*}}, %[[LIMIT]] : index
// CHECK-NEXT: scf.if %[[IN]] {
// CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 4 : i64} : f32, !llvm.ptr
// CHECK-NOT: nvvm.stmatrix
// CHECK-LABEL: func.func @gemm_300_f32_0_launch

func.func @gemm_300_f32(%a: tensor<300x256xbf16>, %b: tensor<256x256xbf16>) -> tensor<300x256xf32> {
  %r = dsm.fused_chain gemm (%a, %b) {schedule = #dsm.schedule<cluster = [1, 1, 1, 1], block = [152, 128, 64, 16], grid = [2, 2, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [], stages = 3, cost_ns = 1000, swap_ab = true>}
      : (tensor<300x256xbf16>, tensor<256x256xbf16>) -> tensor<300x256xf32> {
  ^bb0(%x: tensor<300x256xbf16>, %w: tensor<256x256xbf16>):
    %cst = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<300x256xf32>
    %f = linalg.fill ins(%cst : f32) outs(%e : tensor<300x256xf32>) -> tensor<300x256xf32>
    %mm = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%x, %w : tensor<300x256xbf16>, tensor<256x256xbf16>) outs(%f : tensor<300x256xf32>) -> tensor<300x256xf32>
    dsm.yield %mm : tensor<300x256xf32>
  }
  return %r : tensor<300x256xf32>
}

// RUN: ff-opt %s --dsm-materialize | FileCheck %s

// Streamed n with L = 256: blk_n + blk_l = 384 accumulator columns exceed
// one warpgroup's registers, so the 64-row tile's two consumer warpgroups
// split the columns (ff::splitsStreamedColumns). Each computes 64 of the n
// tile's 128 columns of C (GEMM0 at n = 64, its half of the B tile), writes
// its act(C) chunk into the shared C tile, and after a barrier of both
// warpgroups computes 128 of E's 256 columns over the whole act(C) tile
// (the second GEMM at n = 128, its half of the D tile). A second barrier
// keeps a warpgroup from overwriting act(C) while the other still reads the
// previous tile's.
// CHECK: module attributes {dsm.bundles = [{chain = {activation = "gelu_tanh"
// CHECK-SAME: block = array<i64: 384, 1, 1>, cluster = array<i64: 1, 1, 1>
// CHECK-SAME: grid_m_tile = 64
// CHECK-NOT: kind = "workspace"
// CHECK-LABEL: gpu.func @ff_ffn_0
// CHECK-SAME: known_block_size = array<i32: 384, 1, 1>
// Producer: one A box (64 rows), two 64-wide B boxes per k tile, then the
// n tile's D boxes (all 256 rows of L per 64-wide n chunk).
// CHECK: nvvm.setmaxregister  decrease 40
// CHECK: nvgpu.tma.async.load {{.*}} -> memref<64x64xbf16, #gpu.address_space<workgroup>>
// CHECK: nvgpu.tma.async.load {{.*}} -> memref<256x64xbf16, #gpu.address_space<workgroup>>
// CHECK: } else {
// CHECK: nvvm.setmaxregister  increase 232
// The first tile: GEMM0 over this warpgroup's 64 columns, the barrier
// before act(C) is written, act(C), the barrier after, then E's first
// 128-column half-tile.
// CHECK: nvvm.wgmma.mma_async {{.*}}<m = 64, n = 64, k = 16>, D[<f32>, <zero>]
// CHECK: nvvm.barrier id = %c2_i32{{.*}} number_of_threads = %c256_i32
// CHECK: llvm.inline_asm "tanh.approx.f32 $0, $1;"
// CHECK: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK: nvvm.barrier id = %c1_i32{{.*}} number_of_threads = %c256_i32
// CHECK: nvvm.wgmma.mma_async {{.*}}<m = 64, n = 128, k = 16>, D[<f32>, <zero>]
// CHECK-COUNT-7: nvvm.wgmma.mma_async {{.*}}<m = 64, n = 128, k = 16>, D[<f32>, <one>]
// Tiles 1 to 3 carry E through the loop, with both barriers each.
// CHECK: %[[E:.*]] = scf.for %{{.*}} = %{{.*}} to %c4{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (!llvm.struct<(f32,
// CHECK: nvvm.wgmma.mma_async {{.*}}<m = 64, n = 64, k = 16>, D[<f32>, <zero>]
// CHECK: nvvm.barrier id = %c2_i32{{.*}} number_of_threads = %c256_i32
// CHECK: nvvm.barrier id = %c1_i32{{.*}} number_of_threads = %c256_i32
// CHECK: nvvm.wgmma.mma_async %{{.*}}, %{{.*}}, %[[ACC]], <m = 64, n = 128, k = 16>, D[<f32>, <one>]
// CHECK: scf.yield
// E goes out once: this warpgroup's 128 columns, from column wg * 128.
// CHECK: llvm.extractvalue %[[E]][0]
// CHECK-NOT: red.relaxed.gpu.global
// CHECK: llvm.store {{.*}} : vector<4xi32>, !llvm.ptr
// CHECK: gpu.return
#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d1, d2)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#map3 = affine_map<(d0, d1) -> (d0, d1)>
func.func @ff_ffn(%arg0: tensor<128x64xbf16>, %arg1: tensor<512x64xbf16>, %arg2: tensor<256x512xbf16>) -> tensor<128x256xbf16> {
  %0 = dsm.fused_chain ffn(%arg0, %arg1, %arg2) {schedule = #dsm.schedule<cluster = [1, 1, 1, 1], block = [64, 128, 64, 256], grid = [2, 1, 1, 1], order = [m, n, k, l], spatial = [m], residency = [smem], collectives = [], stages = 2, cost_ns = 1000>} : (tensor<128x64xbf16>, tensor<512x64xbf16>, tensor<256x512xbf16>) -> tensor<128x256xbf16> {
  ^bb0(%arg3: tensor<128x64xbf16>, %arg4: tensor<512x64xbf16>, %arg5: tensor<256x512xbf16>):
    %cst = arith.constant 0.000000e+00 : f32
    %1 = tensor.empty() : tensor<128x512xf32>
    %2 = linalg.fill ins(%cst : f32) outs(%1 : tensor<128x512xf32>) -> tensor<128x512xf32>
    %3 = linalg.matmul indexing_maps = [#map, #map1, #map2] ins(%arg3, %arg4 : tensor<128x64xbf16>, tensor<512x64xbf16>) outs(%2 : tensor<128x512xf32>) -> tensor<128x512xf32>
    %4 = tensor.empty() : tensor<128x512xbf16>
    %5 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel"]} ins(%3 : tensor<128x512xf32>) outs(%4 : tensor<128x512xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %cst_0 = arith.constant 0.797884583 : f32
      %cst_1 = arith.constant 4.471500e-02 : f32
      %cst_2 = arith.constant 5.000000e-01 : f32
      %cst_3 = arith.constant 1.000000e+00 : f32
      %11 = arith.mulf %in, %in : f32
      %12 = arith.mulf %11, %in : f32
      %13 = arith.mulf %12, %cst_1 : f32
      %14 = arith.addf %in, %13 : f32
      %15 = arith.mulf %14, %cst_0 : f32
      %16 = math.tanh %15 : f32
      %17 = arith.addf %16, %cst_3 : f32
      %18 = arith.mulf %in, %cst_2 : f32
      %19 = arith.mulf %18, %17 : f32
      %20 = arith.truncf %19 : f32 to bf16
      linalg.yield %20 : bf16
    } -> tensor<128x512xbf16>
    %6 = tensor.empty() : tensor<128x256xf32>
    %7 = linalg.fill ins(%cst : f32) outs(%6 : tensor<128x256xf32>) -> tensor<128x256xf32>
    %8 = linalg.matmul indexing_maps = [#map, #map1, #map2] ins(%5, %arg5 : tensor<128x512xbf16>, tensor<256x512xbf16>) outs(%7 : tensor<128x256xf32>) -> tensor<128x256xf32>
    %9 = tensor.empty() : tensor<128x256xbf16>
    %10 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel"]} ins(%8 : tensor<128x256xf32>) outs(%9 : tensor<128x256xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %11 = arith.truncf %in : f32 to bf16
      linalg.yield %11 : bf16
    } -> tensor<128x256xbf16>
    dsm.yield %10 : tensor<128x256xbf16>
  }
  return %0 : tensor<128x256xbf16>
}

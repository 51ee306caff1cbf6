// RUN: ff-opt %s --dsm-materialize | FileCheck %s

// Streamed n split over a cluster of two (cluster = [1, 2, 1, 1] with n
// temporal): each CTA of the pair walks half of the m tile's n tiles (rank
// r from tile r * 4), keeping its partial E in registers, and the pair
// reduce-scatters E once at the end: the partial over the dead rings, the
// slice the pull leaves at 64 KiB, each rank storing its 128 columns. The
// 64-row tile's two warpgroups split the columns (L = 256) and publish
// their halves of the partial.
// CHECK: module attributes {dsm.bundles = [{chain = {activation = "gelu_tanh"
// CHECK-SAME: block = array<i64: 384, 1, 1>, cluster = array<i64: 2, 1, 1>
// CHECK-SAME: grid_m_tile = 64
// CHECK-NOT: kind = "workspace"
// CHECK-LABEL: gpu.func @ff_ffn_0
// CHECK-SAME: known_cluster_size = array<i32: 2, 1, 1>
// CHECK: %[[RANK:.*]] = dsm.cluster_rank : index
// CHECK: %[[PARTIAL:.*]] = dsm.alloc at 0 : !dsm.buffer<64x256xf32, split = [1, 1]>
// CHECK: %[[PVIEW:.*]] = dsm.local_view %[[PARTIAL]]
// CHECK: %[[SLICE:.*]] = dsm.alloc at 65536 : !dsm.buffer<64x128xf32, split = [1, 1]>
// CHECK: %[[SVIEW:.*]] = dsm.local_view %[[SLICE]]
// Producer: n tile rank * 4 + t, then the reduce's two cluster barriers.
// CHECK: nvvm.setmaxregister  decrease 40
// CHECK: scf.for %[[T:.*]] = %{{.*}} to %c4{{.*}} step
// CHECK: %[[R4:.*]] = arith.muli %[[RANK]], %c4
// CHECK: arith.addi %[[R4]], %[[T]] : index
// CHECK: nvgpu.tma.async.load {{.*}} -> memref<256x64xbf16, #gpu.address_space<workgroup>>
// CHECK: dsm.cluster_arrive
// CHECK-NEXT: dsm.cluster_wait
// CHECK-NEXT: dsm.cluster_arrive
// CHECK-NEXT: dsm.cluster_wait
// CHECK: } else {
// CHECK: nvvm.setmaxregister  increase 232
// Tiles 1 to 3 of this rank's four carry E through the loop.
// CHECK: %[[E:.*]] = scf.for %{{.*}} = %{{.*}} to %c4{{.*}} step %{{.*}} iter_args(
// CHECK: scf.yield
// Both warpgroups are past their last wgmmas before the partial goes over
// the rings; each publishes its 128 columns, then the pull.
// CHECK: nvvm.barrier id = %c9_i32{{.*}} number_of_threads = %c256_i32
// CHECK: llvm.extractvalue %[[E]][0]
// CHECK: vector.store {{.*}}, %[[PVIEW]][{{.*}}] {alignment = 8 : i64} : memref<64x256xf32, #gpu.address_space<workgroup>>, vector<2xf32>
// CHECK: dsm.reduce reduce_scatter add %[[PARTIAL]] into %[[SLICE]] axis = 1 group(2, 1) {threads = 256 : i64}
// CHECK: vector.load %[[SVIEW]]
// CHECK-NOT: red.relaxed.gpu.global
// CHECK: llvm.store {{.*}} : vector<4xbf16>, !llvm.ptr
// CHECK: dsm.cluster_arrive
// CHECK-NEXT: dsm.cluster_wait
// CHECK-NEXT: gpu.return
#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d1, d2)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#map3 = affine_map<(d0, d1) -> (d0, d1)>
func.func @ff_ffn(%arg0: tensor<128x64xbf16>, %arg1: tensor<1024x64xbf16>, %arg2: tensor<256x1024xbf16>) -> tensor<128x256xbf16> {
  %0 = dsm.fused_chain ffn(%arg0, %arg1, %arg2) {schedule = #dsm.schedule<cluster = [1, 2, 1, 1], block = [64, 128, 64, 256], grid = [2, 1, 1, 1], order = [m, n, k, l], spatial = [m], residency = [smem], collectives = [reduce_scatter], stages = 2, cost_ns = 1000>} : (tensor<128x64xbf16>, tensor<1024x64xbf16>, tensor<256x1024xbf16>) -> tensor<128x256xbf16> {
  ^bb0(%arg3: tensor<128x64xbf16>, %arg4: tensor<1024x64xbf16>, %arg5: tensor<256x1024xbf16>):
    %cst = arith.constant 0.000000e+00 : f32
    %1 = tensor.empty() : tensor<128x1024xf32>
    %2 = linalg.fill ins(%cst : f32) outs(%1 : tensor<128x1024xf32>) -> tensor<128x1024xf32>
    %3 = linalg.matmul indexing_maps = [#map, #map1, #map2] ins(%arg3, %arg4 : tensor<128x64xbf16>, tensor<1024x64xbf16>) outs(%2 : tensor<128x1024xf32>) -> tensor<128x1024xf32>
    %4 = tensor.empty() : tensor<128x1024xbf16>
    %5 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel"]} ins(%3 : tensor<128x1024xf32>) outs(%4 : tensor<128x1024xbf16>) {
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
    } -> tensor<128x1024xbf16>
    %6 = tensor.empty() : tensor<128x256xf32>
    %7 = linalg.fill ins(%cst : f32) outs(%6 : tensor<128x256xf32>) -> tensor<128x256xf32>
    %8 = linalg.matmul indexing_maps = [#map, #map1, #map2] ins(%5, %arg5 : tensor<128x1024xbf16>, tensor<256x1024xbf16>) outs(%7 : tensor<128x256xf32>) -> tensor<128x256xf32>
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

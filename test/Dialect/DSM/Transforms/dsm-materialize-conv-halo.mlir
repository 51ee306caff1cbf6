// RUN: ff-opt %s --dsm-materialize | FileCheck %s
// RUN: ff-opt %s --dsm-materialize=conv-halo=false | FileCheck %s --check-prefix=OFF
// RUN: ff-opt %s --dsm-materialize="conv-halo=false warpgroup-tiles=true" | FileCheck %s --check-prefix=WG

// Conv halo (ff::getConvHaloStages): a resident-weights 3x3 convolution
// whose 128-row tile is two image rows of W = 56 runs warpgroup tiles of
// one row each. Per 64 input channels the producer warp of a warpgroup
// loads the row's halo, input rows h - 1 .. h + 1 of W + 2 = 58 pixels
// (pixel -1 and row -1 zero-filled by the TMA), 174 rows of 128 B, into
// the warpgroup's 23552-byte slot; the consumer reads tap (r, s) as the
// 64-row window 58 r + s rows in (7424 B per r, 128 B per s) against B's
// k tile of that tap. 9 taps x 4 k16 steps per ring step. The resident
// layout takes two stages of two slots: 2 x 47104 + B (73728) + C (16384)
// + D (32768) = 218112 bytes.
// CHECK: dynamic_smem = 218112
// CHECK-SAME: box = array<i64: 64, 58, 3, 1>
// CHECK-SAME: persistent = true
// CHECK-LABEL: gpu.func @halo_0
// A full and an empty barrier per stage and warpgroup, each released by
// its one consumer warpgroup.
// CHECK: %[[FULL:.*]] = nvgpu.mbarrier.create -> <memorySpace = #gpu.address_space<workgroup>, num_barriers = 4>
// CHECK: %[[EMPTY:.*]] = nvgpu.mbarrier.create -> <memorySpace = #gpu.address_space<workgroup>, num_barriers = 4>
// CHECK: nvgpu.mbarrier.init %[[EMPTY]][%{{.*}}], %c1
// The producer warps: tiles 2 * block + warp, stride 2 * grid.
// CHECK: gpu.grid_dim x
// CHECK: arith.muli %{{.*}}, %c2
// CHECK: nvgpu.mbarrier.arrive.expect_tx %[[FULL]][%{{.*}}], %c22272
// CHECK: arith.constant 23552
// CHECK: nvgpu.tma.async.load %{{.*}}[%{{.*}}, %c-1, %{{.*}}, %{{.*}}], %[[FULL]]
// The consumers: the nine windows, as descriptor offsets in 16-byte
// units: tap (r, s) at 464 r + 8 s, plus 2 per k16 step.
// CHECK: gpu.grid_dim x
// CHECK: arith.constant 23552
// CHECK-COUNT-4: nvvm.wgmma.mma_async {{.*}} <m = 64, n = 64, k = 16>
// CHECK: arith.constant 8 : i64
// CHECK-COUNT-4: nvvm.wgmma.mma_async {{.*}} <m = 64, n = 64, k = 16>
// CHECK: arith.constant 464 : i64
// CHECK-COUNT-16: nvvm.wgmma.mma_async {{.*}} <m = 64, n = 64, k = 16>
// CHECK: arith.constant 928 : i64
// CHECK-COUNT-4: nvvm.wgmma.mma_async {{.*}} <m = 64, n = 64, k = 16>
// CHECK: arith.constant 936 : i64
// CHECK-COUNT-4: nvvm.wgmma.mma_async {{.*}} <m = 64, n = 64, k = 16>
// CHECK: arith.constant 944 : i64
// CHECK-COUNT-4: nvvm.wgmma.mma_async {{.*}} <m = 64, n = 64, k = 16>
// CHECK-NOT: <m = 64, n = 64, k = 16>
// CHECK: nvvm.wgmma.mma_async {{.*}} <m = 64, n = 256, k = 16>

// Without the halo: nine boxes of the tile's two image rows per 64
// channels, the two warpgroups on one tile.
// OFF: box = array<i64: 64, 56, 2, 1>
// OFF-LABEL: gpu.func @halo_0
// OFF: nvgpu.mbarrier.create -> <memorySpace = #gpu.address_space<workgroup>, num_barriers = 4>
// OFF: nvgpu.mbarrier.init %{{.*}}, %c2

// Warpgroup tiles alone: one image row per box, per-warpgroup barriers.
// WG: box = array<i64: 64, 56, 1, 1>
// WG-LABEL: gpu.func @halo_0
// WG: nvgpu.mbarrier.create -> <memorySpace = #gpu.address_space<workgroup>, num_barriers = 8>
// WG: nvgpu.mbarrier.create -> <memorySpace = #gpu.address_space<workgroup>, num_barriers = 8>
#map = affine_map<(d0, d1) -> (d0 floordiv 3136, (d0 mod 3136) floordiv 56 + d1 floordiv 192, d0 mod 56 + (d1 mod 192) floordiv 64, d1 mod 64)>
#map1 = affine_map<(d0, d1) -> (d0, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d2)>
#map3 = affine_map<(d0, d1, d2) -> (d1, d2)>
#map4 = affine_map<(d0, d1, d2) -> (d0, d1)>
module attributes {dsm.target = #dsm.target<name = "h100-sxm", chip = "sm_90a", sms = 132, smem_per_sm = 233472, smem_per_block = 232448, regs_per_sm = 65536, max_cluster = 8, max_cluster_nonportable = 16, clock_mhz = 1830, hbm_gbps = 3350, l2_bytes = 52428800, dsm_gbps = [3300, 3100, 3000, 2900], dsm_latency = [190, 200, 240, 280], tflops_bf16 = 989, tflops_f16 = 989, tflops_f32 = 494>} {
  func.func @halo(%arg0: tensor<6x56x56x64xbf16>, %arg1: tensor<64x3x3x64xbf16>, %arg2: tensor<256x1x1x64xbf16>) -> tensor<6x56x56x256xbf16> {
    %cst = arith.constant 1.000000e+00 : f32
    %cst_0 = arith.constant 5.000000e-01 : f32
    %cst_1 = arith.constant 1.41421354 : f32
    %cst_2 = arith.constant 0.797884583 : f32
    %cst_3 = arith.constant 4.471500e-02 : f32
    %0 = dsm.fused_chain ffn(%arg0, %arg1, %arg2) {schedule = #dsm.schedule<cluster = [1, 1, 1, 1], block = [128, 64, 64, 256], grid = [147, 1, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [smem], collectives = [], stages = 4, cost_ns = 1000>} : (tensor<6x56x56x64xbf16>, tensor<64x3x3x64xbf16>, tensor<256x1x1x64xbf16>) -> tensor<6x56x56x256xbf16> {
    ^bb0(%arg3: tensor<6x56x56x64xbf16>, %arg4: tensor<64x3x3x64xbf16>, %arg5: tensor<256x1x1x64xbf16>):
      %cst_4 = arith.constant 0.000000e+00 : f32
      %cst_5 = arith.constant 0.000000e+00 : bf16
      %padded = tensor.pad %arg3 low[0, 1, 1, 0] high[0, 1, 1, 0] {
      ^bb0(%arg6: index, %arg7: index, %arg8: index, %arg9: index):
        tensor.yield %cst_5 : bf16
      } : tensor<6x56x56x64xbf16> to tensor<6x58x58x64xbf16>
      %1 = tensor.empty() : tensor<18816x576xbf16>
      %2 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel"]} ins(%padded : tensor<6x58x58x64xbf16>) outs(%1 : tensor<18816x576xbf16>) {
      ^bb0(%in: bf16, %out: bf16):
        linalg.yield %in : bf16
      } -> tensor<18816x576xbf16>
      %collapsed = tensor.collapse_shape %arg4 [[0], [1, 2, 3]] : tensor<64x3x3x64xbf16> into tensor<64x576xbf16>
      %3 = tensor.empty() : tensor<18816x64xf32>
      %4 = linalg.fill ins(%cst_4 : f32) outs(%3 : tensor<18816x64xf32>) -> tensor<18816x64xf32>
      %5 = linalg.matmul indexing_maps = [#map2, #map3, #map4] ins(%2, %collapsed : tensor<18816x576xbf16>, tensor<64x576xbf16>) outs(%4 : tensor<18816x64xf32>) -> tensor<18816x64xf32>
      %6 = tensor.empty() : tensor<18816x64xbf16>
      %7 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel"]} ins(%5 : tensor<18816x64xf32>) outs(%6 : tensor<18816x64xbf16>) {
      ^bb0(%in: f32, %out: bf16):
        %13 = arith.cmpf ugt, %in, %cst_4 : f32
        %14 = arith.select %13, %in, %cst_4 : f32
        %15 = arith.truncf %14 : f32 to bf16
        linalg.yield %15 : bf16
      } -> tensor<18816x64xbf16>
      %collapsed_6 = tensor.collapse_shape %arg5 [[0], [1, 2, 3]] : tensor<256x1x1x64xbf16> into tensor<256x64xbf16>
      %8 = tensor.empty() : tensor<18816x256xf32>
      %9 = linalg.fill ins(%cst_4 : f32) outs(%8 : tensor<18816x256xf32>) -> tensor<18816x256xf32>
      %10 = linalg.matmul indexing_maps = [#map2, #map3, #map4] ins(%7, %collapsed_6 : tensor<18816x64xbf16>, tensor<256x64xbf16>) outs(%9 : tensor<18816x256xf32>) -> tensor<18816x256xf32>
      %11 = tensor.empty() : tensor<18816x256xbf16>
      %12 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel"]} ins(%10 : tensor<18816x256xf32>) outs(%11 : tensor<18816x256xbf16>) {
      ^bb0(%in: f32, %out: bf16):
        %13 = arith.truncf %in : f32 to bf16
        linalg.yield %13 : bf16
      } -> tensor<18816x256xbf16>
      %expanded = tensor.expand_shape %12 [[0, 1, 2], [3]] output_shape [6, 56, 56, 256] : tensor<18816x256xbf16> into tensor<6x56x56x256xbf16>
      dsm.yield %expanded : tensor<6x56x56x256xbf16>
    }
    return %0 : tensor<6x56x56x256xbf16>
  }
}


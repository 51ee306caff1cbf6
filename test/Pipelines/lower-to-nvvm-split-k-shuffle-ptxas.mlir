// REQUIRES: ptxas
// RUN: rm -rf %t && ff-opt %s --lower-to-nvvm="emit-bundle=%t format=bin" -o /dev/null
// RUN: FileCheck %s < %t/c7_b1_0.ptx
// RUN: %ptxas -arch=sm_90a -O3 -v %t/c7_b1_0.ptx -o %t/c7_b1.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS

// FlashFuser's C7 at batch 1 (3x3 conv 256 -> 256 on 14x14, 1x1 conv 256 ->
// 1024) with K = 2304 split over the cluster, end to end: clusters of 8 =
// 4 n tiles x 2 halves of K. Each CTA loads its 18 k tiles as 4-D boxes of
// the NHWC image (the filter tap from the global k tile); the k pairs
// reduce-scatter their fp32 C tiles by a pull (the sum of two peers' quads);
// then each CTA writes act() of the 32 rows it keeps into its slot of the
// gathered slices and, after one cluster barrier, pushes the slot into its
// 7 peers by TMA bulk copies (the in-place push), then the second GEMM over
// D. ptxas assembles it without spills or serialised wgmmas.
// CHECK: .maxntid 256, 1, 1
// CHECK: .reqnctapercluster 8, 1, 1
// CHECK: wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16
// CHECK: cp.async.bulk.tensor.4d.shared::cluster.global
// CHECK: barrier.cluster.arrive.aligned
// CHECK: mapa.shared::cluster
// CHECK-NEXT: ld.shared::cluster.v4.b32
// CHECK-NEXT: mapa.shared::cluster
// CHECK-NEXT: ld.shared::cluster.v4.b32
// CHECK-NEXT: add.rn.f32
// CHECK: barrier.cluster.wait.aligned
// CHECK-NOT: ld.shared::cluster
// CHECK: fence.proxy.async.shared::cta
// CHECK: barrier.cluster.arrive.aligned
// CHECK: barrier.cluster.wait.aligned
// CHECK: mbarrier.arrive.expect_tx.shared.b64 {{.*}}, [__dsm_barrier]
// CHECK-COUNT-7: cp.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes
// CHECK: mbarrier.try_wait.parity.acquire.cluster
// CHECK-NOT: ld.shared::cluster
// CHECK: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16
// PTXAS-NOT: C75{{[0-9][0-9]}}
// PTXAS: 0 bytes spill stores, 0 bytes spill loads
// PTXAS-NOT: C75{{[0-9][0-9]}}
#map = affine_map<(d0, d1) -> (d0 floordiv 196, (d0 mod 196) floordiv 14 + d1 floordiv 768, d0 mod 14 + (d1 mod 768) floordiv 256, d1 mod 256)>
#map1 = affine_map<(d0, d1) -> (d0, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d2)>
#map3 = affine_map<(d0, d1, d2) -> (d1, d2)>
#map4 = affine_map<(d0, d1, d2) -> (d0, d1)>
module attributes {dsm.target = #dsm.target<name = "h100-sxm", chip = "sm_90a", sms = 132, smem_per_sm = 233472, smem_per_block = 232448, regs_per_sm = 65536, max_cluster = 8, max_cluster_nonportable = 16, clock_mhz = 1830, hbm_gbps = 3350, l2_bytes = 52428800, dsm_gbps = [3300, 3100, 3000, 2900], dsm_latency = [190, 200, 240, 280], tflops_bf16 = 989, tflops_f16 = 989, tflops_f32 = 494>} {
  func.func @c7_b1(%arg0: tensor<1x14x14x256xbf16>, %arg1: tensor<256x3x3x256xbf16>, %arg2: tensor<1024x1x1x256xbf16>) -> tensor<1x14x14x1024xbf16> {
    %cst = arith.constant 1.000000e+00 : f32
    %cst_0 = arith.constant 5.000000e-01 : f32
    %cst_1 = arith.constant 1.41421354 : f32
    %cst_2 = arith.constant 0.797884583 : f32
    %cst_3 = arith.constant 4.471500e-02 : f32
    %0 = dsm.fused_chain ffn(%arg0, %arg1, %arg2) {schedule = #dsm.schedule<cluster = [1, 4, 2, 8], block = [64, 64, 1152, 128], grid = [4, 1, 1, 1], order = [m, n, k, l], spatial = [m, n, k, l], residency = [dsm], collectives = [all_exchange, shuffle], stages = 4, cost_ns = 1000>} : (tensor<1x14x14x256xbf16>, tensor<256x3x3x256xbf16>, tensor<1024x1x1x256xbf16>) -> tensor<1x14x14x1024xbf16> {
    ^bb0(%arg3: tensor<1x14x14x256xbf16>, %arg4: tensor<256x3x3x256xbf16>, %arg5: tensor<1024x1x1x256xbf16>):
      %cst_4 = arith.constant 0.000000e+00 : f32
      %cst_5 = arith.constant 0.000000e+00 : bf16
      %padded = tensor.pad %arg3 low[0, 1, 1, 0] high[0, 1, 1, 0] {
      ^bb0(%arg6: index, %arg7: index, %arg8: index, %arg9: index):
        tensor.yield %cst_5 : bf16
      } : tensor<1x14x14x256xbf16> to tensor<1x16x16x256xbf16>
      %1 = tensor.empty() : tensor<196x2304xbf16>
      %2 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel"]} ins(%padded : tensor<1x16x16x256xbf16>) outs(%1 : tensor<196x2304xbf16>) {
      ^bb0(%in: bf16, %out: bf16):
        linalg.yield %in : bf16
      } -> tensor<196x2304xbf16>
      %collapsed = tensor.collapse_shape %arg4 [[0], [1, 2, 3]] : tensor<256x3x3x256xbf16> into tensor<256x2304xbf16>
      %3 = tensor.empty() : tensor<196x256xf32>
      %4 = linalg.fill ins(%cst_4 : f32) outs(%3 : tensor<196x256xf32>) -> tensor<196x256xf32>
      %5 = linalg.matmul indexing_maps = [#map2, #map3, #map4] ins(%2, %collapsed : tensor<196x2304xbf16>, tensor<256x2304xbf16>) outs(%4 : tensor<196x256xf32>) -> tensor<196x256xf32>
      %6 = tensor.empty() : tensor<196x256xbf16>
      %7 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel"]} ins(%5 : tensor<196x256xf32>) outs(%6 : tensor<196x256xbf16>) {
      ^bb0(%in: f32, %out: bf16):
        %13 = arith.cmpf ugt, %in, %cst_4 : f32
        %14 = arith.select %13, %in, %cst_4 : f32
        %15 = arith.truncf %14 : f32 to bf16
        linalg.yield %15 : bf16
      } -> tensor<196x256xbf16>
      %collapsed_6 = tensor.collapse_shape %arg5 [[0], [1, 2, 3]] : tensor<1024x1x1x256xbf16> into tensor<1024x256xbf16>
      %8 = tensor.empty() : tensor<196x1024xf32>
      %9 = linalg.fill ins(%cst_4 : f32) outs(%8 : tensor<196x1024xf32>) -> tensor<196x1024xf32>
      %10 = linalg.matmul indexing_maps = [#map2, #map3, #map4] ins(%7, %collapsed_6 : tensor<196x256xbf16>, tensor<1024x256xbf16>) outs(%9 : tensor<196x1024xf32>) -> tensor<196x1024xf32>
      %11 = tensor.empty() : tensor<196x1024xbf16>
      %12 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel"]} ins(%10 : tensor<196x1024xf32>) outs(%11 : tensor<196x1024xbf16>) {
      ^bb0(%in: f32, %out: bf16):
        %13 = arith.truncf %in : f32 to bf16
        linalg.yield %13 : bf16
      } -> tensor<196x1024xbf16>
      %expanded = tensor.expand_shape %12 [[0, 1, 2], [3]] output_shape [1, 14, 14, 1024] : tensor<196x1024xbf16> into tensor<1x14x14x1024xbf16>
      dsm.yield %expanded : tensor<1x14x14x1024xbf16>
    }
    return %0 : tensor<1x14x14x1024xbf16>
  }
}


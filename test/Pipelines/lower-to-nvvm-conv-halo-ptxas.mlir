// REQUIRES: ptxas
// RUN: rm -rf %t && ff-opt %s --lower-to-nvvm="emit-bundle=%t format=bin" -o /dev/null
// RUN: FileCheck %s < %t/halo_fhwc_0/halo_fhwc_0.ptx
// RUN: FileCheck %s < %t/halo_hwcf_1/halo_hwcf_1.ptx
// RUN: %ptxas -arch=sm_90a -O3 -v %t/halo_fhwc_0/halo_fhwc_0.ptx -o %t/fhwc.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: %ptxas -arch=sm_90a -O3 -v %t/halo_hwcf_1/halo_hwcf_1.ptx -o %t/hwcf.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS

// The conv-halo kernel end to end (dsm-materialize-conv-halo.mlir has
// the IR), with K-major (FHWC) and MN-major (HWCF) filters: per ring step
// one 4-d halo box, 36 wgmmas of GEMM0, and no spills in either layout
// (the MN-major build spilled 12 bytes while its 36 descriptors were
// computed one by one).
// CHECK: cp.async.bulk.tensor.4d
// CHECK-COUNT-36: wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16
// CHECK: wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16
// PTXAS-NOT: C75{{[0-9][0-9]}}
// PTXAS: 0 bytes spill stores, 0 bytes spill loads
#map = affine_map<(d0, d1) -> (d0 floordiv 3136, (d0 mod 3136) floordiv 56 + d1 floordiv 192, d0 mod 56 + (d1 mod 192) floordiv 64, d1 mod 64)>
#map1 = affine_map<(d0, d1) -> (d0, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d2)>
#map3 = affine_map<(d0, d1, d2) -> (d1, d2)>
#map4 = affine_map<(d0, d1, d2) -> (d0, d1)>
module attributes {dsm.target = #dsm.target<name = "h100-sxm", chip = "sm_90a", sms = 132, smem_per_sm = 233472, smem_per_block = 232448, regs_per_sm = 65536, max_cluster = 8, max_cluster_nonportable = 16, clock_mhz = 1830, hbm_gbps = 3350, l2_bytes = 52428800, dsm_gbps = [3300, 3100, 3000, 2900], dsm_latency = [190, 200, 240, 280], tflops_bf16 = 989, tflops_f16 = 989, tflops_f32 = 494>} {
  func.func @halo_fhwc(%arg0: tensor<6x56x56x64xbf16>, %arg1: tensor<64x3x3x64xbf16>, %arg2: tensor<256x1x1x64xbf16>) -> tensor<6x56x56x256xbf16> {
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
  func.func @halo_hwcf(%arg0: tensor<6x56x56x64xbf16>, %arg1: tensor<3x3x64x64xbf16>, %arg2: tensor<1x1x64x256xbf16>) -> tensor<6x56x56x256xbf16> {
    %cst = arith.constant 1.000000e+00 : f32
    %cst_0 = arith.constant 5.000000e-01 : f32
    %cst_1 = arith.constant 1.41421354 : f32
    %cst_2 = arith.constant 0.797884583 : f32
    %cst_3 = arith.constant 4.471500e-02 : f32
    %0 = dsm.fused_chain ffn(%arg0, %arg1, %arg2) {schedule = #dsm.schedule<cluster = [1, 1, 1, 1], block = [128, 64, 64, 256], grid = [147, 1, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [smem], collectives = [], stages = 4, cost_ns = 1000>} : (tensor<6x56x56x64xbf16>, tensor<3x3x64x64xbf16>, tensor<1x1x64x256xbf16>) -> tensor<6x56x56x256xbf16> {
    ^bb0(%arg3: tensor<6x56x56x64xbf16>, %arg4: tensor<3x3x64x64xbf16>, %arg5: tensor<1x1x64x256xbf16>):
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
      %collapsed = tensor.collapse_shape %arg4 [[0, 1, 2], [3]] : tensor<3x3x64x64xbf16> into tensor<576x64xbf16>
      %3 = tensor.empty() : tensor<18816x64xf32>
      %4 = linalg.fill ins(%cst_4 : f32) outs(%3 : tensor<18816x64xf32>) -> tensor<18816x64xf32>
      %5 = linalg.matmul ins(%2, %collapsed : tensor<18816x576xbf16>, tensor<576x64xbf16>) outs(%4 : tensor<18816x64xf32>) -> tensor<18816x64xf32>
      %6 = tensor.empty() : tensor<18816x64xbf16>
      %7 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel"]} ins(%5 : tensor<18816x64xf32>) outs(%6 : tensor<18816x64xbf16>) {
      ^bb0(%in: f32, %out: bf16):
        %13 = arith.cmpf ugt, %in, %cst_4 : f32
        %14 = arith.select %13, %in, %cst_4 : f32
        %15 = arith.truncf %14 : f32 to bf16
        linalg.yield %15 : bf16
      } -> tensor<18816x64xbf16>
      %collapsed_6 = tensor.collapse_shape %arg5 [[0, 1, 2], [3]] : tensor<1x1x64x256xbf16> into tensor<64x256xbf16>
      %8 = tensor.empty() : tensor<18816x256xf32>
      %9 = linalg.fill ins(%cst_4 : f32) outs(%8 : tensor<18816x256xf32>) -> tensor<18816x256xf32>
      %10 = linalg.matmul ins(%7, %collapsed_6 : tensor<18816x64xbf16>, tensor<64x256xbf16>) outs(%9 : tensor<18816x256xf32>) -> tensor<18816x256xf32>
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


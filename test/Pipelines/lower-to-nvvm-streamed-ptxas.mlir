// REQUIRES: ptxas
// RUN: rm -rf %t && ff-opt %s --lower-to-nvvm="emit-bundle=%t format=bin" -o /dev/null
// RUN: FileCheck %s < %t/ff_ffn_0.ptx
// RUN: %ptxas -arch=sm_90a -O3 -v %t/ff_ffn_0.ptx -o %t/ff_ffn.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS

// A streamed-n FFN end to end (4 n tiles of 128 per 128-row m tile, E of
// 64 columns in registers): no cluster, no workspace, GELU's tanh as
// tanh.approx; ptxas assembles it without spills or serialised wgmmas
// (the two accumulators, 128 + 64 columns, stay within the consumers'
// registers).
// CHECK-NOT: .reqnctapercluster
// CHECK: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16
// CHECK: tanh.approx.f32
// CHECK: wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16
// CHECK-NOT: red.{{.*}}global
// CHECK-NOT: mapa
// PTXAS-NOT: C75{{[0-9][0-9]}}
// PTXAS: 0 bytes spill stores, 0 bytes spill loads
// PTXAS-NOT: C75{{[0-9][0-9]}}
#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d1, d2)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#map3 = affine_map<(d0, d1) -> (d0, d1)>
func.func @ff_ffn(%arg0: tensor<256x64xbf16>, %arg1: tensor<512x64xbf16>, %arg2: tensor<64x512xbf16>) -> tensor<256x64xbf16> {
  %0 = dsm.fused_chain ffn(%arg0, %arg1, %arg2) {schedule = #dsm.schedule<cluster = [1, 1, 1, 1], block = [128, 128, 64, 64], grid = [2, 1, 1, 1], order = [m, n, k, l], spatial = [m], residency = [smem], collectives = [], stages = 4, cost_ns = 1000>} : (tensor<256x64xbf16>, tensor<512x64xbf16>, tensor<64x512xbf16>) -> tensor<256x64xbf16> {
  ^bb0(%arg3: tensor<256x64xbf16>, %arg4: tensor<512x64xbf16>, %arg5: tensor<64x512xbf16>):
    %cst = arith.constant 0.000000e+00 : f32
    %1 = tensor.empty() : tensor<256x512xf32>
    %2 = linalg.fill ins(%cst : f32) outs(%1 : tensor<256x512xf32>) -> tensor<256x512xf32>
    %3 = linalg.matmul indexing_maps = [#map, #map1, #map2] ins(%arg3, %arg4 : tensor<256x64xbf16>, tensor<512x64xbf16>) outs(%2 : tensor<256x512xf32>) -> tensor<256x512xf32>
    %4 = tensor.empty() : tensor<256x512xbf16>
    %5 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel"]} ins(%3 : tensor<256x512xf32>) outs(%4 : tensor<256x512xbf16>) {
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
    } -> tensor<256x512xbf16>
    %6 = tensor.empty() : tensor<256x64xf32>
    %7 = linalg.fill ins(%cst : f32) outs(%6 : tensor<256x64xf32>) -> tensor<256x64xf32>
    %8 = linalg.matmul indexing_maps = [#map, #map1, #map2] ins(%5, %arg5 : tensor<256x512xbf16>, tensor<64x512xbf16>) outs(%7 : tensor<256x64xf32>) -> tensor<256x64xf32>
    %9 = tensor.empty() : tensor<256x64xbf16>
    %10 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel"]} ins(%8 : tensor<256x64xf32>) outs(%9 : tensor<256x64xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %11 = arith.truncf %in : f32 to bf16
      linalg.yield %11 : bf16
    } -> tensor<256x64xbf16>
    dsm.yield %10 : tensor<256x64xbf16>
  }
  return %0 : tensor<256x64xbf16>
}

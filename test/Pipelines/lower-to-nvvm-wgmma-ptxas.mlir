// REQUIRES: ptxas
// ptxas must not serialise the wgmmas or inject warpgroup arrives: the
// first wgmma of every accumulator starts it with scale-d = 0 from an
// undefined value, so no other instruction writes accumulator registers
// between wgmma.fence and a wgmma. G7's plan (one consumer warpgroup, a
// 4-stage ring) used to zero-fill its accumulators, and ptxas placed the
// arrive it injected for those writes on a divergent path and serialised
// every wgmma of the kernel (C7520): each HGMMA waited for the previous one.
// RUN: rm -rf %t && ff-opt %s --lower-to-nvvm="emit-bundle=%t format=bin" -o /dev/null
// RUN: %ptxas -arch=sm_90a -O3 -v %t/ff_ffn_0.ptx -o %t/g.cubin 2>&1 | FileCheck %s
// RUN: rm -rf %t.pull && ff-opt %s --lower-to-nvvm="emit-bundle=%t.pull format=bin shuffle-push=false" -o /dev/null
// RUN: %ptxas -arch=sm_90a -O3 -v %t.pull/ff_ffn_0.ptx -o %t/g.cubin 2>&1 | FileCheck %s

// CHECK-NOT: C75{{[0-9][0-9]}}
// CHECK: 0 bytes spill stores, 0 bytes spill loads
// CHECK: Used {{[0-9]+}} registers
// CHECK-NOT: C75{{[0-9][0-9]}}

#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d1, d2)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#map3 = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @ff_ffn(%arg0: tensor<128x768xbf16>, %arg1: tensor<768x768xbf16>, %arg2: tensor<768x768xbf16>) -> tensor<128x768xbf16> {
    %0 = dsm.fused_chain ffn(%arg0, %arg1, %arg2) {schedule = #dsm.schedule<cluster = [1, 2, 1, 2], block = [64, 64, 64, 384], grid = [2, 6, 1, 1], order = [m, n, l, k], spatial = [m, n, l], residency = [dsm], collectives = [shuffle, inter_cluster_reduce], stages = 4, cost_ns = 1000>} : (tensor<128x768xbf16>, tensor<768x768xbf16>, tensor<768x768xbf16>) -> tensor<128x768xbf16> {
    ^bb0(%arg3: tensor<128x768xbf16>, %arg4: tensor<768x768xbf16>, %arg5: tensor<768x768xbf16>):
      %cst = arith.constant 0.000000e+00 : f32
      %1 = tensor.empty() : tensor<128x768xf32>
      %2 = linalg.fill ins(%cst : f32) outs(%1 : tensor<128x768xf32>) -> tensor<128x768xf32>
      %3 = linalg.matmul indexing_maps = [#map, #map1, #map2] ins(%arg3, %arg4 : tensor<128x768xbf16>, tensor<768x768xbf16>) outs(%2 : tensor<128x768xf32>) -> tensor<128x768xf32>
      %4 = tensor.empty() : tensor<128x768xbf16>
      %5 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel"]} ins(%3 : tensor<128x768xf32>) outs(%4 : tensor<128x768xbf16>) {
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
      } -> tensor<128x768xbf16>
      %6 = tensor.empty() : tensor<128x768xf32>
      %7 = linalg.fill ins(%cst : f32) outs(%6 : tensor<128x768xf32>) -> tensor<128x768xf32>
      %8 = linalg.matmul indexing_maps = [#map, #map1, #map2] ins(%5, %arg5 : tensor<128x768xbf16>, tensor<768x768xbf16>) outs(%7 : tensor<128x768xf32>) -> tensor<128x768xf32>
      %9 = tensor.empty() : tensor<128x768xbf16>
      %10 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel"]} ins(%8 : tensor<128x768xf32>) outs(%9 : tensor<128x768xbf16>) {
      ^bb0(%in: f32, %out: bf16):
        %11 = arith.truncf %in : f32 to bf16
        linalg.yield %11 : bf16
      } -> tensor<128x768xbf16>
      dsm.yield %10 : tensor<128x768xbf16>
    }
    return %0 : tensor<128x768xbf16>
  }
}


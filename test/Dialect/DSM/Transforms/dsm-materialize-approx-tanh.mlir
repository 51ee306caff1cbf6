// RUN: ff-opt %s --dsm-materialize | FileCheck %s --check-prefix=APPROX
// RUN: ff-opt %s --dsm-materialize=approx-tanh=false | FileCheck %s --check-prefix=EXACT

// GELU's tanh in the epilogue: tanh.approx.f32 by default (one MUFU op; its
// relative error of at most 2^-11 is below the bf16 rounding of act(C)),
// math.tanh (the exact expansion through ex2/rcp) with approx-tanh=false.
// APPROX-LABEL: gpu.func @ff_ffn_0
// APPROX-NOT: math.tanh
// APPROX: llvm.inline_asm "tanh.approx.f32 $0, $1;", "=f,f" %{{.*}} : (f32) -> f32
// APPROX-NOT: math.tanh
// APPROX: gpu.return
// EXACT-LABEL: gpu.func @ff_ffn_0
// EXACT-NOT: tanh.approx
// EXACT: math.tanh %{{.*}} : f32
// EXACT-NOT: tanh.approx
// EXACT: gpu.return
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

// RUN: ff-opt %s --dsm-fuse --dsm-search | FileCheck %s
// RUN: ff-opt %s --dsm-fuse --dsm-search="family=streamed" | FileCheck %s --check-prefix=STREAMED

// perf-anchors T3 (narrow chains, K = L <= 256, N1 in {2048, 4096}): the
// per-CTA fusion needs no cluster. With L = 64 the search picks a streamed-n
// plan: a cluster of one, n temporal (spatial = [m]), blk_l = L, one CTA per
// m tile walking the n tiles with E in registers (measured 26.6 us against
// the cuBLAS chain's 104 us on an H100, docs/benchmarks/bench-h100-s19.md).
// CHECK-LABEL: func.func @t3_k64_n2048_m16384(
// CHECK: schedule = #dsm.schedule<cluster = [1, 1, 1, 1], block = [64, 128, 64, 64], grid = [256, 1, 1, 1], order = [m, n, k, l], spatial = [m], residency = [smem], collectives = [], stages = 2, cost_ns = {{[0-9]+}}>
// With L = 256 GEMM0's and E's accumulators do not fit one warpgroup
// (blk_n + blk_l > 256): 64-row tiles whose two consumer warpgroups split
// the columns, 64 of each n tile's C and 128 of E's each (measured 81.4 us
// against 144.9 for the n-spatial plan it replaced at M = 16384, on an
// H100, docs/validation.md). At M = 4096 the 64 m tiles would leave half
// the SMs idle: the n loop is split over a cluster of two, which
// reduce-scatters E once (27.8 us against 41.0 unsplit, H100,
// docs/validation.md, twenty-first session).
// CHECK-LABEL: func.func @t3_k256_n2048_m4096(
// CHECK: schedule = #dsm.schedule<cluster = [1, 2, 1, 1], block = [64, 128, 64, 256], grid = [64, 1, 1, 1], order = [m, n, k, l], spatial = [m], residency = [smem], collectives = [reduce_scatter], stages = 3, cost_ns = {{[0-9]+}}>
// Restricted to the streamed family, the same plans.
// STREAMED-LABEL: func.func @t3_k64_n2048_m16384(
// STREAMED: spatial = [m], residency = [smem]
// STREAMED-LABEL: func.func @t3_k256_n2048_m4096(
// STREAMED: block = [64, 128, 64, 256], {{.*}}spatial = [m], residency = [smem]
func.func @t3_k64_n2048_m16384(%x: tensor<16384x64xbf16>, %w1: tensor<2048x64xbf16>, %w2: tensor<64x2048xbf16>) -> tensor<16384x64xbf16> {
  %zero = arith.constant 0.000000e+00 : f32
  %empty1 = tensor.empty() : tensor<16384x2048xf32>
  %fill2 = linalg.fill ins(%zero : f32) outs(%empty1 : tensor<16384x2048xf32>) -> tensor<16384x2048xf32>
  %mm3 = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%x, %w1 : tensor<16384x64xbf16>, tensor<2048x64xbf16>) outs(%fill2 : tensor<16384x2048xf32>) -> tensor<16384x2048xf32>
  %empty4 = tensor.empty() : tensor<16384x2048xbf16>
  %ew5 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%mm3 : tensor<16384x2048xf32>) outs(%empty4 : tensor<16384x2048xbf16>) {
  ^bb0(%in0: f32, %out: bf16):
    %c_k = arith.constant 0.79788456080286541 : f32
    %c_a = arith.constant 4.471500e-02 : f32
    %c_half = arith.constant 5.000000e-01 : f32
    %c_one = arith.constant 1.000000e+00 : f32
    %t0 = arith.mulf %in0, %in0 : f32
    %t1 = arith.mulf %t0, %in0 : f32
    %t2 = arith.mulf %t1, %c_a : f32
    %t3 = arith.addf %in0, %t2 : f32
    %t4 = arith.mulf %t3, %c_k : f32
    %t5 = math.tanh %t4 : f32
    %t6 = arith.addf %t5, %c_one : f32
    %t7 = arith.mulf %in0, %c_half : f32
    %gelu = arith.mulf %t7, %t6 : f32
    %cast = arith.truncf %gelu : f32 to bf16
    linalg.yield %cast : bf16
  } -> tensor<16384x2048xbf16>
  %empty6 = tensor.empty() : tensor<16384x64xf32>
  %fill7 = linalg.fill ins(%zero : f32) outs(%empty6 : tensor<16384x64xf32>) -> tensor<16384x64xf32>
  %mm8 = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%ew5, %w2 : tensor<16384x2048xbf16>, tensor<64x2048xbf16>) outs(%fill7 : tensor<16384x64xf32>) -> tensor<16384x64xf32>
  %empty9 = tensor.empty() : tensor<16384x64xbf16>
  %ew10 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%mm8 : tensor<16384x64xf32>) outs(%empty9 : tensor<16384x64xbf16>) {
  ^bb0(%in0: f32, %out: bf16):
    %cast = arith.truncf %in0 : f32 to bf16
    linalg.yield %cast : bf16
  } -> tensor<16384x64xbf16>
  return %ew10 : tensor<16384x64xbf16>
}


func.func @t3_k256_n2048_m4096(%x: tensor<4096x256xbf16>, %w1: tensor<2048x256xbf16>, %w2: tensor<256x2048xbf16>) -> tensor<4096x256xbf16> {
  %zero = arith.constant 0.000000e+00 : f32
  %empty1 = tensor.empty() : tensor<4096x2048xf32>
  %fill2 = linalg.fill ins(%zero : f32) outs(%empty1 : tensor<4096x2048xf32>) -> tensor<4096x2048xf32>
  %mm3 = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%x, %w1 : tensor<4096x256xbf16>, tensor<2048x256xbf16>) outs(%fill2 : tensor<4096x2048xf32>) -> tensor<4096x2048xf32>
  %empty4 = tensor.empty() : tensor<4096x2048xbf16>
  %ew5 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%mm3 : tensor<4096x2048xf32>) outs(%empty4 : tensor<4096x2048xbf16>) {
  ^bb0(%in0: f32, %out: bf16):
    %c_k = arith.constant 0.79788456080286541 : f32
    %c_a = arith.constant 4.471500e-02 : f32
    %c_half = arith.constant 5.000000e-01 : f32
    %c_one = arith.constant 1.000000e+00 : f32
    %t0 = arith.mulf %in0, %in0 : f32
    %t1 = arith.mulf %t0, %in0 : f32
    %t2 = arith.mulf %t1, %c_a : f32
    %t3 = arith.addf %in0, %t2 : f32
    %t4 = arith.mulf %t3, %c_k : f32
    %t5 = math.tanh %t4 : f32
    %t6 = arith.addf %t5, %c_one : f32
    %t7 = arith.mulf %in0, %c_half : f32
    %gelu = arith.mulf %t7, %t6 : f32
    %cast = arith.truncf %gelu : f32 to bf16
    linalg.yield %cast : bf16
  } -> tensor<4096x2048xbf16>
  %empty6 = tensor.empty() : tensor<4096x256xf32>
  %fill7 = linalg.fill ins(%zero : f32) outs(%empty6 : tensor<4096x256xf32>) -> tensor<4096x256xf32>
  %mm8 = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%ew5, %w2 : tensor<4096x2048xbf16>, tensor<256x2048xbf16>) outs(%fill7 : tensor<4096x256xf32>) -> tensor<4096x256xf32>
  %empty9 = tensor.empty() : tensor<4096x256xbf16>
  %ew10 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%mm8 : tensor<4096x256xf32>) outs(%empty9 : tensor<4096x256xbf16>) {
  ^bb0(%in0: f32, %out: bf16):
    %cast = arith.truncf %in0 : f32 to bf16
    linalg.yield %cast : bf16
  } -> tensor<4096x256xbf16>
  return %ew10 : tensor<4096x256xbf16>
}


// RUN: ff-opt %s --dsm-fuse --dsm-search | FileCheck %s

// A dynamic M priced as kernel sequences bin by bin (G5's FFN: K = 4096, N =
// 16384, L = 4096). Each default bin compares its fused plan with its halves'
// schedules for that bin, and neighbours merge only where both the fused plan
// and the pair agree: the fused plans of every bin past 128 are alike, but the
// pairs split them. The 32-row bins 129-160, 161-192 and 193-224 run the up
// GEMM swapped on one token tile as wide as the bin's upper end (1.11-1.20x
// faster at M = 150-210 than two 128-row tiles, H200, sixtieth session), the
// down GEMM split over 2 swapped on two token tiles narrowed to the bin (80,
// 96, 112: getSplitTileCountWidth; sixty-first session), 225-256 on 128 x 128
// unswapped. The 64-row bins from 257 to 1024 whose upper end 128-row
// tiles pad run both GEMMs swapped on token tiles fitted there (257-320 on 160,
// 385-448 on 224, 513-576 on 144: getBinSwappedPlan), and so may the others,
// whose swapped plans are weighed too (SearchOptions::swapAtAnyM): 321-384 the
// up GEMM on 192 and the down GEMM on 192 split over 2, 513-576 the up GEMM on
// 192, 577-640 the up GEMM on 216 and the down GEMM on 4 x 160 (cuBLAS's
// tiling at M = 600; the up GEMM not split: K < N past one m tile,
// passesSplitKRule), 641-704 the up GEMM on 240 and the down GEMM on 176;
// 449-512 split over 2 on 128 x 256, 705-768 both on 192, 769-832, 833-896
// and 897-960 both on 208, 224 and 240 (an FFN's 64-row bins run to 1024).
// The 192-token tiles and the up GEMM's 240 at 641-704 come with the swapped
// products' own wgmma rate (KernelFit::gemmSwappedTflops). 961-1024 and the bins past it
// merge, their pairs alike too. The halves take each bin's best at its upper
// end (no regret rule). Merged by the fused plans alone, one pair (priced at M
// = 16384) served every M past 128.
// CHECK-LABEL: func.func @ff_ffn(
// CHECK: schedule = #dsm.schedule_table<[
// CHECK-SAME: m_lo = 129, m_hi = 160>, #dsm.schedule<
// CHECK-SAME: m_lo = 161, m_hi = 192>, #dsm.schedule<
// CHECK-SAME: m_lo = 193, m_hi = 224>, #dsm.schedule<
// CHECK-SAME: m_lo = 225, m_hi = 256>, #dsm.schedule<
// CHECK-SAME: m_lo = 257, m_hi = 320>, #dsm.schedule<
// CHECK-SAME: m_lo = 321, m_hi = 384>, #dsm.schedule<
// CHECK-SAME: m_lo = 641, m_hi = 704>, #dsm.schedule<
// CHECK-SAME: m_lo = 705, m_hi = 768>, #dsm.schedule<
// CHECK-SAME: m_lo = 769, m_hi = 832>, #dsm.schedule<
// CHECK-SAME: m_lo = 833, m_hi = 896>, #dsm.schedule<
// CHECK-SAME: m_lo = 897, m_hi = 960>, #dsm.schedule<
// CHECK-SAME: m_lo = 961, m_hi = 2147483647>]>, sequence = [
// CHECK-SAME: block = [160, 128, 64, 16], grid = [1, 128, 1, 1]{{[^>]*}}m_lo = 129, m_hi = 160, swap_ab = true>, #dsm.schedule<cluster = [1, 1, 2, 1], block = [80, 128, 8192, 16], grid = [2, 32, 1, 1]{{[^>]*}}m_lo = 129, m_hi = 160, swap_ab = true>
// CHECK-SAME: block = [192, 128, 64, 16], grid = [1, 128, 1, 1]{{[^>]*}}m_lo = 161, m_hi = 192, swap_ab = true>, #dsm.schedule<cluster = [1, 1, 2, 1], block = [96, 128, 8192, 16], grid = [2, 32, 1, 1]{{[^>]*}}m_lo = 161, m_hi = 192, swap_ab = true>
// CHECK-SAME: block = [224, 128, 64, 16], grid = [1, 128, 1, 1]{{[^>]*}}m_lo = 193, m_hi = 224, swap_ab = true>, #dsm.schedule<cluster = [1, 1, 2, 1], block = [112, 128, 8192, 16], grid = [2, 32, 1, 1]{{[^>]*}}m_lo = 193, m_hi = 224, swap_ab = true>
// CHECK-SAME: block = [128, 256, 64, 16]{{[^>]*}}m_lo = 225, m_hi = 256>, #dsm.schedule<cluster = [1, 1, 2, 1], block = [128, 128, 8192, 16]{{[^>]*}}m_lo = 225, m_hi = 256>
// CHECK-SAME: block = [160, 256, 64, 16]{{[^>]*}}m_lo = 257, m_hi = 320, swap_ab = true>, #dsm.schedule<cluster = [1, 1, 2, 1], block = [160, 128, 8192, 16]{{[^>]*}}m_lo = 257, m_hi = 320, swap_ab = true>
// CHECK-SAME: block = [192, 128, 64, 16]{{[^>]*}}m_lo = 321, m_hi = 384, swap_ab = true>, #dsm.schedule<cluster = [1, 1, 2, 1], block = [192, 128, 8192, 16]{{[^>]*}}m_lo = 321, m_hi = 384, swap_ab = true>
// CHECK-SAME: block = [224, 128, 64, 16]{{[^>]*}}m_lo = 385, m_hi = 448, swap_ab = true>
// CHECK-SAME: cluster = [1, 1, 2, 1], block = [128, 256, 8192, 16]{{[^>]*}}m_lo = 449, m_hi = 512>
// CHECK-SAME: block = [192, 128, 64, 16]{{[^>]*}}m_lo = 513, m_hi = 576, swap_ab = true>, #dsm.schedule<cluster = [1, 1, 1, 1], block = [144, 128, 64, 16]{{[^>]*}}m_lo = 513, m_hi = 576, swap_ab = true>
// CHECK-SAME: block = [216, 128, 64, 16]{{[^>]*}}m_lo = 577, m_hi = 640, swap_ab = true>, #dsm.schedule<cluster = [1, 1, 1, 1], block = [160, 128, 64, 16], grid = [4, 32, 1, 1]{{[^>]*}}m_lo = 577, m_hi = 640, swap_ab = true>
// CHECK-SAME: block = [240, 128, 64, 16]{{[^>]*}}m_lo = 641, m_hi = 704, swap_ab = true>, #dsm.schedule<cluster = [1, 1, 1, 1], block = [176, 128, 64, 16]{{[^>]*}}m_lo = 641, m_hi = 704, swap_ab = true>
// CHECK-SAME: block = [192, 128, 64, 16]{{[^>]*}}m_lo = 705, m_hi = 768, swap_ab = true>, #dsm.schedule<cluster = [1, 1, 1, 1], block = [192, 128, 64, 16]{{[^>]*}}m_lo = 705, m_hi = 768, swap_ab = true>
// CHECK-SAME: block = [208, 128, 64, 16]{{[^>]*}}m_lo = 769, m_hi = 832, swap_ab = true>, #dsm.schedule<cluster = [1, 1, 1, 1], block = [208, 128, 64, 16]{{[^>]*}}m_lo = 769, m_hi = 832, swap_ab = true>
// CHECK-SAME: block = [224, 128, 64, 16]{{[^>]*}}m_lo = 833, m_hi = 896, swap_ab = true>, #dsm.schedule<cluster = [1, 1, 1, 1], block = [224, 128, 64, 16]{{[^>]*}}m_lo = 833, m_hi = 896, swap_ab = true>
// CHECK-SAME: block = [240, 128, 64, 16]{{[^>]*}}m_lo = 897, m_hi = 960, swap_ab = true>, #dsm.schedule<cluster = [1, 1, 1, 1], block = [240, 128, 64, 16]{{[^>]*}}m_lo = 897, m_hi = 960, swap_ab = true>
// CHECK-SAME: cluster = [1, 1, 1, 1], block = [128, 256, 64, 16]{{[^>]*}}m_lo = 961, m_hi = 2147483647>, #dsm.schedule<cluster = [1, 1, 1, 1], block = [128, 256, 64, 16]{{[^>]*}}m_lo = 961, m_hi = 2147483647>]
func.func @ff_ffn(%x: tensor<?x4096xbf16>, %w1: tensor<16384x4096xbf16>, %w2: tensor<4096x16384xbf16>) -> tensor<?x4096xbf16> {
  %c0 = arith.constant 0 : index
  %m = tensor.dim %x, %c0 : tensor<?x4096xbf16>
  %zero = arith.constant 0.000000e+00 : f32
  %empty1 = tensor.empty(%m) : tensor<?x16384xf32>
  %fill2 = linalg.fill ins(%zero : f32) outs(%empty1 : tensor<?x16384xf32>) -> tensor<?x16384xf32>
  %mm3 = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%x, %w1 : tensor<?x4096xbf16>, tensor<16384x4096xbf16>) outs(%fill2 : tensor<?x16384xf32>) -> tensor<?x16384xf32>
  %empty4 = tensor.empty(%m) : tensor<?x16384xbf16>
  %ew5 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%mm3 : tensor<?x16384xf32>) outs(%empty4 : tensor<?x16384xbf16>) {
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
  } -> tensor<?x16384xbf16>
  %empty6 = tensor.empty(%m) : tensor<?x4096xf32>
  %fill7 = linalg.fill ins(%zero : f32) outs(%empty6 : tensor<?x4096xf32>) -> tensor<?x4096xf32>
  %mm8 = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%ew5, %w2 : tensor<?x16384xbf16>, tensor<4096x16384xbf16>) outs(%fill7 : tensor<?x4096xf32>) -> tensor<?x4096xf32>
  %empty9 = tensor.empty(%m) : tensor<?x4096xbf16>
  %ew10 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%mm8 : tensor<?x4096xf32>) outs(%empty9 : tensor<?x4096xbf16>) {
  ^bb0(%in0: f32, %out: bf16):
    %cast = arith.truncf %in0 : f32 to bf16
    linalg.yield %cast : bf16
  } -> tensor<?x4096xbf16>
  return %ew10 : tensor<?x4096xbf16>
}


// A sequence's plain down GEMM keeps a wave width sized to its bin's upper end
// only where the model's mean time over the bin is no more than the fallback's
// (S7's SwiGLU, K = 2560, N = 9728): 128 x 160 for 961-1024 (one wave at 1024;
// 1.13-1.17x faster than split over 4 along k at M = 800-1024 on an H200), not
// for 1025-2048 (144 CTAs at M = 1025, a thin second wave; 0.96-0.97x at
// 1100-1536), which keeps its split over 2 and merges with 2049-4096. Priced at
// the bin's lower end alone, the wave width lost the bin 513-1024 too. From 257
// to 768 the bins are 64 rows wide: 257-384 merge (the same pair); 385-448 and
// 449-512 run the gated GEMM on two waves of 128 x 160 (1.05-1.10x faster at
// M = 400-512 than on 104-120 tokens or 128 x 128, H200, fifty-ninth session)
// with the down GEMM swapped on 160 and 176 split over 2; 513-576 both
// (120; 192 split over 2), 577-640 the down GEMM (224 split over 2), 641-704
// both (144; 240 split over 2), 705-768 the gated GEMM on 160 with the down
// GEMM split over 2 on 128 x 256 (getBinSwappedPlan, weighing swapped plans at
// any M: SearchOptions::swapAtAnyM). A gated FFN's 64-row bins go on to 1024
// (its halves' tables take them too): 769-832 and 833-896 run the gated GEMM
// swapped on 168 and 184 tokens and the down GEMM on 128 x 144 (seven m tiles);
// 897-960 runs the down GEMM swapped on 160 and splits at 920, the gated GEMM's
// fifth 184-token tile: 184 to 920, 120 past it (on 184 past 920, six tiles,
// the bin ran 1.09x slower at M = 930 and 955, 1.05x faster at 905 on an H200,
// docs/validation.md, fifty-seventh session).
// CHECK-LABEL: func.func @s7_gated_ffn(
// CHECK: m_lo = 385, m_hi = 448>, #dsm.schedule<{{[^>]*}}m_lo = 449, m_hi = 512>, #dsm.schedule<{{[^>]*}}m_lo = 513, m_hi = 576>
// CHECK-SAME: m_lo = 705, m_hi = 768>, #dsm.schedule<{{[^>]*}}m_lo = 769, m_hi = 832>, #dsm.schedule<{{[^>]*}}m_lo = 833, m_hi = 896>, #dsm.schedule<{{[^>]*}}m_lo = 897, m_hi = 920>, #dsm.schedule<{{[^>]*}}m_lo = 921, m_hi = 960>, #dsm.schedule<{{[^>]*}}m_lo = 961, m_hi = 1024>
// CHECK: sequence = [
// CHECK-SAME: block = [128, 112, 64, 16]{{[^>]*}}m_lo = 257, m_hi = 384>
// CHECK-SAME: block = [128, 160, 64, 16]{{[^>]*}}m_lo = 385, m_hi = 448>, #dsm.schedule<cluster = [1, 1, 2, 1], block = [160, 128, 4864, 16]{{[^>]*}}m_lo = 385, m_hi = 448, swap_ab = true>
// CHECK-SAME: block = [128, 160, 64, 16]{{[^>]*}}m_lo = 449, m_hi = 512>, #dsm.schedule<cluster = [1, 1, 2, 1], block = [176, 128, 4864, 16]{{[^>]*}}m_lo = 449, m_hi = 512, swap_ab = true>
// CHECK-SAME: cluster = [1, 1, 2, 1], block = [192, 128, 4864, 16]{{[^>]*}}m_lo = 513, m_hi = 576, swap_ab = true>
// CHECK-SAME: block = [128, 128, 64, 16]{{[^>]*}}m_lo = 577, m_hi = 640>, #dsm.schedule<cluster = [1, 1, 2, 1], block = [224, 128, 4864, 16]{{[^>]*}}m_lo = 577, m_hi = 640, swap_ab = true>
// CHECK-SAME: block = [144, 128, 64, 16]{{[^>]*}}m_lo = 641, m_hi = 704, swap_ab = true>, #dsm.schedule<cluster = [1, 1, 2, 1], block = [240, 128, 4864, 16]{{[^>]*}}m_lo = 641, m_hi = 704, swap_ab = true>
// CHECK-SAME: block = [160, 128, 64, 16]{{[^>]*}}m_lo = 705, m_hi = 768, swap_ab = true>, #dsm.schedule<cluster = [1, 1, 2, 1], block = [128, 256, 4864, 16]{{[^>]*}}m_lo = 705, m_hi = 768>
// CHECK-SAME: block = [168, 128, 64, 16]{{[^>]*}}m_lo = 769, m_hi = 832, swap_ab = true>, #dsm.schedule<cluster = [1, 1, 1, 1], block = [128, 144, 64, 16]{{[^>]*}}m_lo = 769, m_hi = 832>
// CHECK-SAME: block = [184, 128, 64, 16]{{[^>]*}}m_lo = 833, m_hi = 896, swap_ab = true>
// CHECK-SAME: block = [184, 128, 64, 16]{{[^>]*}}m_lo = 897, m_hi = 920, swap_ab = true>, #dsm.schedule<cluster = [1, 1, 1, 1], block = [160, 128, 64, 16]{{[^>]*}}m_lo = 897, m_hi = 920, swap_ab = true>
// CHECK-SAME: block = [120, 128, 64, 16]{{[^>]*}}m_lo = 921, m_hi = 960, swap_ab = true>, #dsm.schedule<cluster = [1, 1, 1, 1], block = [160, 128, 64, 16]{{[^>]*}}m_lo = 921, m_hi = 960, swap_ab = true>
// CHECK-SAME: cluster = [1, 1, 1, 1], block = [128, 160, 64, 16]{{[^>]*}}m_lo = 961, m_hi = 1024>
// CHECK-SAME: cluster = [1, 1, 2, 1], block = [128, 256, 4864, 16]{{[^>]*}}m_lo = 1025, m_hi = 4096>
func.func @s7_gated_ffn(%x: tensor<?x2560xbf16>, %wg: tensor<9728x2560xbf16>, %wu: tensor<9728x2560xbf16>, %wd: tensor<2560x9728xbf16>) -> tensor<?x2560xbf16> {
  %c0 = arith.constant 0 : index
  %m = tensor.dim %x, %c0 : tensor<?x2560xbf16>
  %zero = arith.constant 0.000000e+00 : f32
  %empty1 = tensor.empty(%m) : tensor<?x9728xf32>
  %fill2 = linalg.fill ins(%zero : f32) outs(%empty1 : tensor<?x9728xf32>) -> tensor<?x9728xf32>
  %mm3 = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%x, %wg : tensor<?x2560xbf16>, tensor<9728x2560xbf16>) outs(%fill2 : tensor<?x9728xf32>) -> tensor<?x9728xf32>
  %empty4 = tensor.empty(%m) : tensor<?x9728xf32>
  %fill5 = linalg.fill ins(%zero : f32) outs(%empty4 : tensor<?x9728xf32>) -> tensor<?x9728xf32>
  %mm6 = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%x, %wu : tensor<?x2560xbf16>, tensor<9728x2560xbf16>) outs(%fill5 : tensor<?x9728xf32>) -> tensor<?x9728xf32>
  %empty7 = tensor.empty(%m) : tensor<?x9728xbf16>
  %ew8 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%mm3, %mm6 : tensor<?x9728xf32>, tensor<?x9728xf32>) outs(%empty7 : tensor<?x9728xbf16>) {
  ^bb0(%in0: f32, %in1: f32, %out: bf16):
    %c_one = arith.constant 1.000000e+00 : f32
    %s0 = arith.negf %in0 : f32
    %s1 = math.exp %s0 : f32
    %s2 = arith.addf %s1, %c_one : f32
    %act = arith.divf %in0, %s2 : f32
    %prod = arith.mulf %act, %in1 : f32
    %cast = arith.truncf %prod : f32 to bf16
    linalg.yield %cast : bf16
  } -> tensor<?x9728xbf16>
  %empty9 = tensor.empty(%m) : tensor<?x2560xf32>
  %fill10 = linalg.fill ins(%zero : f32) outs(%empty9 : tensor<?x2560xf32>) -> tensor<?x2560xf32>
  %mm11 = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%ew8, %wd : tensor<?x9728xbf16>, tensor<2560x9728xbf16>) outs(%fill10 : tensor<?x2560xf32>) -> tensor<?x2560xf32>
  %empty12 = tensor.empty(%m) : tensor<?x2560xbf16>
  %ew13 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%mm11 : tensor<?x2560xf32>) outs(%empty12 : tensor<?x2560xbf16>) {
  ^bb0(%in0: f32, %out: bf16):
    %cast = arith.truncf %in0 : f32 to bf16
    linalg.yield %cast : bf16
  } -> tensor<?x2560xbf16>
  return %ew13 : tensor<?x2560xbf16>
}

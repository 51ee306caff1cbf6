// RUN: ff-opt %s --dsm-search --split-input-file | FileCheck %s

// A single GEMM at M = 128 with a long K (G5's down GEMM: 16384 x 4096,
// 128 MiB of weights) splits 128 x 64 tiles over pairs along k on 8-stage
// rings, 128 CTAs, the shape cuBLAS runs it with: 42.9 us per call on an
// H200 against 49.3 for the 128 x 256 tiles over 4 chosen before
// (docs/validation.md, thirty-fifth session).
// CHECK-LABEL: func.func @g5_down
// CHECK: #dsm.schedule<cluster = [1, 1, 2, 1], block = [128, 64, 8192, 16], grid = [1, 64, 1, 1], order = [m, n, k, l], spatial = [m, n, k], residency = [], collectives = [all_exchange], stages = 8,

func.func @g5_down(%a: tensor<128x16384xbf16>, %b: tensor<16384x4096xbf16>) -> tensor<128x4096xf32> {
  %e = dsm.fused_chain gemm (%a, %b) : (tensor<128x16384xbf16>, tensor<16384x4096xbf16>) -> tensor<128x4096xf32> {
  ^bb0(%x: tensor<128x16384xbf16>, %w: tensor<16384x4096xbf16>):
    %zero = arith.constant 0.0 : f32
    %c0e = tensor.empty() : tensor<128x4096xf32>
    %cf = linalg.fill ins(%zero : f32) outs(%c0e : tensor<128x4096xf32>) -> tensor<128x4096xf32>
    %c = linalg.matmul ins(%x, %w : tensor<128x16384xbf16>, tensor<16384x4096xbf16>) outs(%cf : tensor<128x4096xf32>) -> tensor<128x4096xf32>
    dsm.yield %c : tensor<128x4096xf32>
  }
  return %e : tensor<128x4096xf32>
}

// -----

// G8's down GEMM (8192 x 2048: 32 n tiles of 64, 64 CTAs in pairs) keeps
// 128 x 128 tiles over 4 (15.8 us against 18.5 for the pairs on an H200),
// on a 6-stage ring: one m tile of 65-128 rows streams its weight slices
// (G8's chain 1.03x faster than on 4 stages; forty-sixth session).
// CHECK-LABEL: func.func @g8_down
// CHECK: #dsm.schedule<cluster = [1, 1, 4, 1], block = [128, 128, 2048, 16], grid = [1, 16, 1, 1], order = [m, n, k, l], spatial = [m, n, k], residency = [], collectives = [all_exchange], stages = 6,

func.func @g8_down(%a: tensor<128x8192xbf16>, %b: tensor<8192x2048xbf16>) -> tensor<128x2048xf32> {
  %e = dsm.fused_chain gemm (%a, %b) : (tensor<128x8192xbf16>, tensor<8192x2048xbf16>) -> tensor<128x2048xf32> {
  ^bb0(%x: tensor<128x8192xbf16>, %w: tensor<8192x2048xbf16>):
    %zero = arith.constant 0.0 : f32
    %c0e = tensor.empty() : tensor<128x2048xf32>
    %cf = linalg.fill ins(%zero : f32) outs(%c0e : tensor<128x2048xf32>) -> tensor<128x2048xf32>
    %c = linalg.matmul ins(%x, %w : tensor<128x8192xbf16>, tensor<8192x2048xbf16>) outs(%cf : tensor<128x2048xf32>) -> tensor<128x2048xf32>
    dsm.yield %c : tensor<128x2048xf32>
  }
  return %e : tensor<128x2048xf32>
}

// -----

// At M = 64 the same GEMM keeps 64-row tiles on 4 stages: the 128-row
// tile on a deep ring ran it 5-8 % slower (forty-sixth session).
// CHECK-LABEL: func.func @g8_down_m64
// CHECK: #dsm.schedule<cluster = [1, 1, 4, 1], block = [64, 128, 2048, 16], grid = [1, 16, 1, 1], order = [m, n, k, l], spatial = [m, n, k], residency = [], collectives = [all_exchange], stages = 4,

func.func @g8_down_m64(%a: tensor<64x8192xbf16>, %b: tensor<8192x2048xbf16>) -> tensor<64x2048xf32> {
  %e = dsm.fused_chain gemm (%a, %b) : (tensor<64x8192xbf16>, tensor<8192x2048xbf16>) -> tensor<64x2048xf32> {
  ^bb0(%x: tensor<64x8192xbf16>, %w: tensor<8192x2048xbf16>):
    %zero = arith.constant 0.0 : f32
    %c0e = tensor.empty() : tensor<64x2048xf32>
    %cf = linalg.fill ins(%zero : f32) outs(%c0e : tensor<64x2048xf32>) -> tensor<64x2048xf32>
    %c = linalg.matmul ins(%x, %w : tensor<64x8192xbf16>, tensor<8192x2048xbf16>) outs(%cf : tensor<64x2048xf32>) -> tensor<64x2048xf32>
    dsm.yield %c : tensor<64x2048xf32>
  }
  return %e : tensor<64x2048xf32>
}

// RUN: ff-opt %s --dsm-search | FileCheck %s

// Split-K GEMMs take 64 x 64 tiles too: for a 128 x 768 x 768 GEMM (the
// shape of G7's two) the search picks them over clusters of 4 (96 CTAs of
// 3 k tiles each); G7's up GEMM so ran 5.69 us per call on an H100 against
// 6.07 for the 64 x 64 tiles over all of K chosen before and 6.71-7.36 for
// 128 x 64 or 64 x 128 splits (docs/validation.md, twenty-ninth session).
// At M = 65-128 these tiles take rings of up to 8 stages (the kernel holds
// only the slice's 3 k steps: dsm-materialize-split-k-ring-stages.mlir).
// CHECK: #dsm.schedule<cluster = [1, 1, 4, 1], block = [64, 64, 192, 16], grid = [2, 12, 1, 1], order = [m, n, k, l], spatial = [m, n, k], residency = [], collectives = [all_exchange], stages = 8,

func.func @mm(%a: tensor<128x768xbf16>, %b: tensor<768x768xbf16>) -> tensor<128x768xf32> {
  %e = dsm.fused_chain gemm (%a, %b) : (tensor<128x768xbf16>, tensor<768x768xbf16>) -> tensor<128x768xf32> {
  ^bb0(%x: tensor<128x768xbf16>, %w: tensor<768x768xbf16>):
    %zero = arith.constant 0.0 : f32
    %c0e = tensor.empty() : tensor<128x768xf32>
    %cf = linalg.fill ins(%zero : f32) outs(%c0e : tensor<128x768xf32>) -> tensor<128x768xf32>
    %c = linalg.matmul ins(%x, %w : tensor<128x768xbf16>, tensor<768x768xbf16>) outs(%cf : tensor<128x768xf32>) -> tensor<128x768xf32>
    dsm.yield %c : tensor<128x768xf32>
  }
  return %e : tensor<128x768xf32>
}

// RUN: ff-opt %s --dsm-search | FileCheck %s --check-prefix=WIDE
// RUN: ff-opt %s --dsm-search=wide-gemm-tiles=false | FileCheck %s --check-prefix=NARROW
// RUN: ff-opt %s --dsm-search=wide-gemm-tiles=true | FileCheck %s --check-prefix=WIDE

// --dsm-search=wide-gemm-tiles (on by default): a single GEMM also ranks
// 64- and 128-wide tiles over all of K at up to 8 stages. GEMM-4096-m128
// then takes 64 x 64 tiles at 8 stages on 128 CTAs, which measured 16.7 us
// on an H100 against 20.3 for the plan of the family without them (split
// K over clusters of 4, 128 x 256 tiles, 64 CTAs; docs/validation.md,
// twenty-seventh session). Since the twenty-eighth session's held-stage
// term that family's choice is split K over pairs of 64 x 128 tiles
// (21.1 us in the twenty-seventh session's sweep).
// NARROW: #dsm.schedule<cluster = [1, 1, 2, 1], block = [64, 128, 2048, 16]
// WIDE: #dsm.schedule<cluster = [1, 1, 1, 1], block = [64, 64, 64, 16], grid = [2, 64, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [], stages = 8,

func.func @mm(%a: tensor<128x4096xbf16>, %b: tensor<4096x4096xbf16>) -> tensor<128x4096xf32> {
  %e = dsm.fused_chain gemm (%a, %b) : (tensor<128x4096xbf16>, tensor<4096x4096xbf16>) -> tensor<128x4096xf32> {
  ^bb0(%x: tensor<128x4096xbf16>, %w: tensor<4096x4096xbf16>):
    %zero = arith.constant 0.0 : f32
    %c0e = tensor.empty() : tensor<128x4096xf32>
    %cf = linalg.fill ins(%zero : f32) outs(%c0e : tensor<128x4096xf32>) -> tensor<128x4096xf32>
    %c = linalg.matmul ins(%x, %w : tensor<128x4096xbf16>, tensor<4096x4096xbf16>) outs(%cf : tensor<128x4096xf32>) -> tensor<128x4096xf32>
    dsm.yield %c : tensor<128x4096xf32>
  }
  return %e : tensor<128x4096xf32>
}

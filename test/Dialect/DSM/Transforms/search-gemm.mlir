// RUN: ff-opt %s --dsm-search | FileCheck %s
// RUN: ff-opt %s --dsm-search=wide-gemm-tiles=false | FileCheck %s --check-prefix=NARROW

// A chain of one GEMM: no l dimension (its block entry is the placeholder
// 16), no intermediate, no collective. Its n is an output dimension, so
// splitting it over the grid needs no reduction: 4096^3 runs on a 32x16
// grid of 128 x 256 tiles, like cuBLAS (the shared-memory term prices the
// 128 x 128 tiles that tied with it above: they measured 1.37x slower on an
// H100, docs/cost-model.md). An n of one 256-wide tile takes 128 x 128
// tiles over all of K (128 CTAs); the family without the narrow tiles
// splits K over pairs instead (128 CTAs that reduce their fp32 tiles).

// CHECK-LABEL: func.func @mm(
// CHECK: dsm.fused_chain {{.*}} {schedule = #dsm.schedule<cluster = [1, 1, 1, 1], block = [128, 256, 64, 16], grid = [32, 16, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [], stages = 4, cost_ns = {{[0-9]+}}>}
// CHECK-LABEL: func.func @mm_small_n(
// CHECK: dsm.fused_chain {{.*}} {schedule = #dsm.schedule<cluster = [1, 1, 1, 1], block = [128, 128, 64, 16], grid = [64, 2, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [], stages = {{[2-8]}}, cost_ns = {{[0-9]+}}>}
// NARROW-LABEL: func.func @mm(
// NARROW: #dsm.schedule<cluster = [1, 1, 1, 1], block = [128, 256, 64, 16], grid = [32, 16, 1, 1]
// NARROW-LABEL: func.func @mm_small_n(
// NARROW: dsm.fused_chain {{.*}} {schedule = #dsm.schedule<cluster = [1, 1, 2, 1], block = [128, 256, 512, 16], grid = [64, 1, 1, 1], order = [m, n, k, l], spatial = [m, n, k], residency = [], collectives = [all_exchange], stages = {{[1-4]}}, cost_ns = {{[0-9]+}}>}

func.func @mm(%a: tensor<4096x4096xbf16>, %b: tensor<4096x4096xbf16>) -> tensor<4096x4096xf32> {
  %e = dsm.fused_chain gemm (%a, %b) : (tensor<4096x4096xbf16>, tensor<4096x4096xbf16>) -> tensor<4096x4096xf32> {
  ^bb0(%x: tensor<4096x4096xbf16>, %w: tensor<4096x4096xbf16>):
    %zero = arith.constant 0.0 : f32
    %c0e = tensor.empty() : tensor<4096x4096xf32>
    %cf = linalg.fill ins(%zero : f32) outs(%c0e : tensor<4096x4096xf32>) -> tensor<4096x4096xf32>
    %c = linalg.matmul ins(%x, %w : tensor<4096x4096xbf16>, tensor<4096x4096xbf16>) outs(%cf : tensor<4096x4096xf32>) -> tensor<4096x4096xf32>
    dsm.yield %c : tensor<4096x4096xf32>
  }
  return %e : tensor<4096x4096xf32>
}

func.func @mm_small_n(%a: tensor<8192x1024xbf16>, %b: tensor<1024x256xbf16>) -> tensor<8192x256xf32> {
  %e = dsm.fused_chain gemm (%a, %b) : (tensor<8192x1024xbf16>, tensor<1024x256xbf16>) -> tensor<8192x256xf32> {
  ^bb0(%x: tensor<8192x1024xbf16>, %w: tensor<1024x256xbf16>):
    %zero = arith.constant 0.0 : f32
    %c0e = tensor.empty() : tensor<8192x256xf32>
    %cf = linalg.fill ins(%zero : f32) outs(%c0e : tensor<8192x256xf32>) -> tensor<8192x256xf32>
    %c = linalg.matmul ins(%x, %w : tensor<8192x1024xbf16>, tensor<1024x256xbf16>) outs(%cf : tensor<8192x256xf32>) -> tensor<8192x256xf32>
    dsm.yield %c : tensor<8192x256xf32>
  }
  return %e : tensor<8192x256xf32>
}

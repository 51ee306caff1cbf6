// RUN: ff-opt %s --dsm-search | FileCheck %s

// A chain of one GEMM: the lowerable 128x256x64 tile, no l dimension (its
// block entry is the placeholder 16), no intermediate, no collective. Its n
// is an output dimension, so splitting it over the grid needs no reduction:
// 4096^3 runs on a 32x16 grid of CTAs, like cuBLAS, while an n of one tile
// stays on a 1-D grid, here with K split over pairs (128 CTAs instead of
// 64; on an H100 17.8 us against 16.9 for the unsplit grid, the single-GEMM
// model's error, docs/validation.md, twenty-second session).

// CHECK-LABEL: func.func @mm(
// CHECK: dsm.fused_chain {{.*}} {schedule = #dsm.schedule<cluster = [1, 1, 1, 1], block = [128, 256, 64, 16], grid = [32, 16, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [], stages = {{[1-4]}}, cost_ns = {{[0-9]+}}>}
// CHECK-LABEL: func.func @mm_small_n(
// CHECK: dsm.fused_chain {{.*}} {schedule = #dsm.schedule<cluster = [1, 1, 2, 1], block = [128, 256, 512, 16], grid = [64, 1, 1, 1], order = [m, n, k, l], spatial = [m, n, k], residency = [], collectives = [all_exchange], stages = {{[1-4]}}, cost_ns = {{[0-9]+}}>}

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

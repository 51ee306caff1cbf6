// RUN: ff-opt %s --dsm-search=sequences=false | FileCheck %s --check-prefixes=CHECK,ANY
// RUN: ff-opt %s --dsm-search="family=reduce-scatter" | FileCheck %s --check-prefixes=CHECK,RS

// Dynamic M: --dsm-search records a #dsm.schedule_table with one plan per M
// bin (1-64, 65-128, 32-row bins from 129 to 256, 64-row bins from 257 to
// 768, 769-1024,
// 1025-2048, 2049-4096, 4097-8192, 8193-open, the open bin represented by
// 16384): among the lowerable candidates at a bin's upper end, the one
// whose worst estimate over the best at the bin's lower end, middle and
// upper end is least; neighbouring bins whose plans differ only in the M
// grid are merged. The fused_chain verifier checks that every plan covers
// N, K and L. These are the fused plans (sequences=false; the kernel
// sequences per bin: search-sequence.mlir).
//
// ANY lines: by default (family=any) every bin of G4's chain takes a
// shuffle-family plan: clusters of 6 (block[3] = L / 6 = 128) up to M = 128,
// where bins 1-64 and 65-128 merge; clusters of 3 (L / 3 = 256) for 129-256
// (its four 32-row bins merged) and most 64-row bins (128 x 128 tiles where their upper end is a multiple
// of 128, 64 x 256 where it is not), of 4 for 577-640, of 2 (L / 2 = 384)
// for 257-320, 641-704 and from 705, where bins 705-768 to 8193-open are
// merged. RS lines: restricted to the reduce-scatter family
// (family=reduce-scatter), clusters lie along n only, or one CTA per tile
// for 193-320, 641-704 and from 705 (128 x 256 for 705-1024 and from 2049);
// bins 1-64 and 65-128 merge, 193-224 to 257-320 (three 64-row tiles for
// 129-192), 321-384 to 577-640, and 705-768 with 769-1024.

// CHECK-LABEL: func.func @ffn_dyn(
// CHECK: dsm.fused_chain {{.*}} {schedule = #dsm.schedule_table<[
// ANY-SAME: <cluster = [1, 6, 1, 6], block = [64, 64, 64, 128], grid = [2, 8, 1, 1], order = [m, n, l, k], spatial = [m, n, l], residency = [dsm], collectives = [shuffle, inter_cluster_reduce], stages = 4, cost_ns = {{[0-9]+}}, m_lo = 1, m_hi = 128>,
// ANY-SAME: <cluster = [1, 3, 1, 3], block = [64, 128, 64, 256], grid = [4, 8, 1, 1], order = [m, n, l, k], spatial = [m, n, l], residency = [dsm], collectives = [shuffle, inter_cluster_reduce], stages = 4, cost_ns = {{[0-9]+}}, m_lo = 129, m_hi = 256>,
// ANY-SAME: <cluster = [1, 2, 1, 2], block = [64, 128, 64, 384], grid = [5, 12, 1, 1], order = [m, n, l, k], spatial = [m, n, l], residency = [dsm], collectives = [shuffle, inter_cluster_reduce], stages = 4, cost_ns = {{[0-9]+}}, m_lo = 257, m_hi = 320>,
// ANY-SAME: <cluster = [1, 3, 1, 3], block = [128, 128, 64, 256], grid = [3, 8, 1, 1], order = [m, n, l, k], spatial = [m, n, l], residency = [dsm], collectives = [shuffle, inter_cluster_reduce], stages = 4, cost_ns = {{[0-9]+}}, m_lo = 321, m_hi = 384>,
// ANY-SAME: <cluster = [1, 3, 1, 3], block = [64, 256, 64, 256], grid = [7, 4, 1, 1], order = [m, n, l, k], spatial = [m, n, l], residency = [dsm], collectives = [shuffle, inter_cluster_reduce], stages = 4, cost_ns = {{[0-9]+}}, m_lo = 385, m_hi = 448>,
// ANY-SAME: <cluster = [1, 3, 1, 3], block = [128, 128, 64, 256], grid = [4, 8, 1, 1], order = [m, n, l, k], spatial = [m, n, l], residency = [dsm], collectives = [shuffle, inter_cluster_reduce], stages = 4, cost_ns = {{[0-9]+}}, m_lo = 449, m_hi = 512>,
// ANY-SAME: <cluster = [1, 3, 1, 3], block = [64, 256, 64, 256], grid = [9, 4, 1, 1], order = [m, n, l, k], spatial = [m, n, l], residency = [dsm], collectives = [shuffle, inter_cluster_reduce], stages = 4, cost_ns = {{[0-9]+}}, m_lo = 513, m_hi = 576>,
// ANY-SAME: <cluster = [1, 4, 1, 4], block = [128, 128, 64, 192], grid = [5, 6, 1, 1], order = [m, n, l, k], spatial = [m, n, l], residency = [dsm], collectives = [shuffle, inter_cluster_reduce], stages = 4, cost_ns = {{[0-9]+}}, m_lo = 577, m_hi = 640>,
// ANY-SAME: <cluster = [1, 2, 1, 2], block = [64, 256, 64, 384], grid = [11, 6, 1, 1], order = [m, n, l, k], spatial = [m, n, l], residency = [dsm], collectives = [shuffle, inter_cluster_reduce], stages = 4, cost_ns = {{[0-9]+}}, m_lo = 641, m_hi = 704>,
// ANY-SAME: <cluster = [1, 2, 1, 2], block = [128, 256, 64, 384], grid = [128, 6, 1, 1], order = [m, n, l, k], spatial = [m, n, l], residency = [dsm], collectives = [shuffle, inter_cluster_reduce], stages = 4, cost_ns = {{[0-9]+}}, m_lo = 705, m_hi = 2147483647>]>}
// RS-SAME: <cluster = [1, 8, 1, 1], block = [64, 64, 64, 256], grid = [2, 6, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [smem], collectives = [reduce_scatter, inter_cluster_reduce], stages = 3, cost_ns = {{[0-9]+}}, m_lo = 1, m_hi = 128>,
// RS-SAME: <cluster = [1, 4, 1, 1], block = [64, 128, 64, 128], grid = [3, 6, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [smem], collectives = [reduce_scatter, inter_cluster_reduce], stages = 4, cost_ns = {{[0-9]+}}, m_lo = 129, m_hi = 192>,
// RS-SAME: <cluster = [1, 1, 1, 1], block = [64, 128, 64, 256], grid = [5, 24, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [smem], collectives = [inter_cluster_reduce], stages = 2, cost_ns = {{[0-9]+}}, m_lo = 193, m_hi = 320>,
// RS-SAME: <cluster = [1, 8, 1, 1], block = [128, 128, 64, 128], grid = [5, 3, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [smem], collectives = [reduce_scatter, inter_cluster_reduce], stages = 2, cost_ns = {{[0-9]+}}, m_lo = 321, m_hi = 640>,
// RS-SAME: <cluster = [1, 1, 1, 1], block = [64, 256, 64, 64], grid = [11, 12, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [smem], collectives = [inter_cluster_reduce], stages = 3, cost_ns = {{[0-9]+}}, m_lo = 641, m_hi = 704>,
// RS-SAME: <cluster = [1, 1, 1, 1], block = [128, 256, 64, 64], grid = [8, 12, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [smem], collectives = [inter_cluster_reduce], stages = 2, cost_ns = {{[0-9]+}}, m_lo = 705, m_hi = 1024>,
// RS-SAME: <cluster = [1, 8, 1, 1], block = [128, 128, 64, 128], grid = [16, 3, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [smem], collectives = [reduce_scatter, inter_cluster_reduce], stages = 2, cost_ns = {{[0-9]+}}, m_lo = 1025, m_hi = 2048>,
// RS-SAME: <cluster = [1, 1, 1, 1], block = [128, 256, 64, 64], grid = [128, 12, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [smem], collectives = [inter_cluster_reduce], stages = 2, cost_ns = {{[0-9]+}}, m_lo = 2049, m_hi = 2147483647>]>}

func.func @ffn_dyn(%a: tensor<?x768xbf16>, %b: tensor<768x3072xbf16>, %d: tensor<3072x768xbf16>) -> tensor<?x768xbf16> {
  %e = dsm.fused_chain ffn (%a, %b, %d)
      : (tensor<?x768xbf16>, tensor<768x3072xbf16>, tensor<3072x768xbf16>) -> tensor<?x768xbf16> {
  ^bb0(%x: tensor<?x768xbf16>, %w1: tensor<768x3072xbf16>, %w2: tensor<3072x768xbf16>):
    %zero = arith.constant 0.0 : f32
    %c0 = arith.constant 0 : index
    %m = tensor.dim %x, %c0 : tensor<?x768xbf16>
    %c0e = tensor.empty(%m) : tensor<?x3072xf32>
    %cf = linalg.fill ins(%zero : f32) outs(%c0e : tensor<?x3072xf32>) -> tensor<?x3072xf32>
    %c = linalg.matmul ins(%x, %w1 : tensor<?x768xbf16>, tensor<768x3072xbf16>) outs(%cf : tensor<?x3072xf32>) -> tensor<?x3072xf32>
    %h0 = tensor.empty(%m) : tensor<?x3072xbf16>
    %h = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%c : tensor<?x3072xf32>) outs(%h0 : tensor<?x3072xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %r = arith.maximumf %in, %zero : f32
      %t = arith.truncf %r : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<?x3072xbf16>
    %e0 = tensor.empty(%m) : tensor<?x768xf32>
    %ef = linalg.fill ins(%zero : f32) outs(%e0 : tensor<?x768xf32>) -> tensor<?x768xf32>
    %ea = linalg.matmul ins(%h, %w2 : tensor<?x3072xbf16>, tensor<3072x768xbf16>) outs(%ef : tensor<?x768xf32>) -> tensor<?x768xf32>
    %o0 = tensor.empty(%m) : tensor<?x768xbf16>
    %o = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%ea : tensor<?x768xf32>) outs(%o0 : tensor<?x768xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %t = arith.truncf %in : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<?x768xbf16>
    dsm.yield %o : tensor<?x768xbf16>
  }
  return %e : tensor<?x768xbf16>
}

// The gated chain at Llama-2-7B size. ANY lines: shuffle-family plans
// (cluster [1, 2, 1, 2], block[3] = L / 2 = 2048, on three 64-row tiles for
// 129-192, but cluster [1, 4, 1, 4], block[3] = L / 4 = 1024 for 193-256);
// every bin from 257 on differs only in
// the M grid and is merged. RS lines: single-CTA clusters that split N
// over 86 clusters, with 64-row tiles at 1-64 and 129-256 and 128 x 128
// tiles at 65-128 and from 257 on (merged).
// CHECK-LABEL: func.func @gated_dyn(
// CHECK: dsm.fused_chain {{.*}} {schedule = #dsm.schedule_table<[
// ANY-SAME: <cluster = [1, 2, 1, 2], block = [64, 128, 64, 2048], grid = [1, 43, 1, 1], order = [m, n, l, k], spatial = [m, n, l], residency = [dsm, dsm], collectives = [shuffle, inter_cluster_reduce], stages = 4, cost_ns = {{[0-9]+}}, m_lo = 1, m_hi = 64>,
// ANY-SAME: <cluster = [1, 2, 1, 2], block = [128, 128, 64, 2048], grid = [1, 43, 1, 1], order = [m, n, l, k], spatial = [m, n, l], residency = [dsm, dsm], collectives = [shuffle, inter_cluster_reduce], stages = 4, cost_ns = {{[0-9]+}}, m_lo = 65, m_hi = 128>,
// ANY-SAME: <cluster = [1, 2, 1, 2], block = [64, 128, 64, 2048], grid = [3, 43, 1, 1], order = [m, n, l, k], spatial = [m, n, l], residency = [dsm, dsm], collectives = [shuffle, inter_cluster_reduce], stages = 4, cost_ns = {{[0-9]+}}, m_lo = 129, m_hi = 192>,
// ANY-SAME: <cluster = [1, 4, 1, 4], block = [128, 64, 64, 1024], grid = [2, 43, 1, 1], order = [m, n, l, k], spatial = [m, n, l], residency = [dsm, dsm], collectives = [shuffle, inter_cluster_reduce], stages = 4, cost_ns = {{[0-9]+}}, m_lo = 193, m_hi = 256>,
// ANY-SAME: <cluster = [1, 2, 1, 2], block = [128, 128, 64, 2048], grid = [128, 43, 1, 1], order = [m, n, l, k], spatial = [m, n, l], residency = [dsm, dsm], collectives = [shuffle, inter_cluster_reduce], stages = 4, cost_ns = {{[0-9]+}}, m_lo = 257, m_hi = 2147483647>]>}
// RS-SAME: <cluster = [1, 1, 1, 1], block = [64, 128, 64, 256], grid = [1, 86, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [smem, smem], collectives = [inter_cluster_reduce], stages = 2, cost_ns = {{[0-9]+}}, m_lo = 1, m_hi = 64>,
// RS-SAME: <cluster = [1, 1, 1, 1], block = [128, 128, 64, 128], grid = [1, 86, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [smem, smem], collectives = [inter_cluster_reduce], stages = 2, cost_ns = {{[0-9]+}}, m_lo = 65, m_hi = 128>,
// RS-SAME: <cluster = [1, 1, 1, 1], block = [64, 128, 64, 256], grid = [4, 86, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [smem, smem], collectives = [inter_cluster_reduce], stages = 2, cost_ns = {{[0-9]+}}, m_lo = 129, m_hi = 256>,
// RS-SAME: <cluster = [1, 1, 1, 1], block = [128, 128, 64, 128], grid = [128, 86, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [smem, smem], collectives = [inter_cluster_reduce], stages = 2, cost_ns = {{[0-9]+}}, m_lo = 257, m_hi = 2147483647>]>}

func.func @gated_dyn(%a: tensor<?x4096xbf16>, %b: tensor<4096x11008xbf16>, %bu: tensor<4096x11008xbf16>, %d: tensor<11008x4096xbf16>) -> tensor<?x4096xbf16> {
  %e = dsm.fused_chain gated_ffn (%a, %b, %bu, %d)
      : (tensor<?x4096xbf16>, tensor<4096x11008xbf16>, tensor<4096x11008xbf16>, tensor<11008x4096xbf16>) -> tensor<?x4096xbf16> {
  ^bb0(%x: tensor<?x4096xbf16>, %w1: tensor<4096x11008xbf16>, %wu: tensor<4096x11008xbf16>, %w2: tensor<11008x4096xbf16>):
    %zero = arith.constant 0.0 : f32
    %c0 = arith.constant 0 : index
    %m = tensor.dim %x, %c0 : tensor<?x4096xbf16>
    %c0e = tensor.empty(%m) : tensor<?x11008xf32>
    %cf = linalg.fill ins(%zero : f32) outs(%c0e : tensor<?x11008xf32>) -> tensor<?x11008xf32>
    %c = linalg.matmul ins(%x, %w1 : tensor<?x4096xbf16>, tensor<4096x11008xbf16>) outs(%cf : tensor<?x11008xf32>) -> tensor<?x11008xf32>
    %cu = linalg.matmul ins(%x, %wu : tensor<?x4096xbf16>, tensor<4096x11008xbf16>) outs(%cf : tensor<?x11008xf32>) -> tensor<?x11008xf32>
    %h0 = tensor.empty(%m) : tensor<?x11008xbf16>
    %h = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%c, %cu : tensor<?x11008xf32>, tensor<?x11008xf32>) outs(%h0 : tensor<?x11008xbf16>) {
    ^bb0(%g: f32, %u: f32, %out: bf16):
      %ng = arith.negf %g : f32
      %ex = math.exp %ng : f32
      %one = arith.constant 1.0 : f32
      %den = arith.addf %one, %ex : f32
      %sg = arith.divf %g, %den : f32
      %p = arith.mulf %sg, %u : f32
      %t = arith.truncf %p : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<?x11008xbf16>
    %e0 = tensor.empty(%m) : tensor<?x4096xf32>
    %ef = linalg.fill ins(%zero : f32) outs(%e0 : tensor<?x4096xf32>) -> tensor<?x4096xf32>
    %ea = linalg.matmul ins(%h, %w2 : tensor<?x11008xbf16>, tensor<11008x4096xbf16>) outs(%ef : tensor<?x4096xf32>) -> tensor<?x4096xf32>
    %o0 = tensor.empty(%m) : tensor<?x4096xbf16>
    %o = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%ea : tensor<?x4096xf32>) outs(%o0 : tensor<?x4096xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %t = arith.truncf %in : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<?x4096xbf16>
    dsm.yield %o : tensor<?x4096xbf16>
  }
  return %e : tensor<?x4096xbf16>
}

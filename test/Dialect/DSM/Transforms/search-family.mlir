// RUN: ff-opt %s --dsm-search="family=any" -verify-diagnostics | FileCheck %s --check-prefix=ANY
// RUN: ff-opt %s --dsm-search="family=reduce-scatter" -verify-diagnostics | FileCheck %s --check-prefix=RS
// RUN: ff-opt %s --dsm-search="family=shuffle" -verify-diagnostics | FileCheck %s --check-prefix=SHUF
// RUN: not ff-opt %s --dsm-search="family=bogus" -o /dev/null 2>&1 | FileCheck %s --check-prefix=BAD

// --dsm-search family=any|reduce-scatter|shuffle restricts which plans of a
// two-GEMM chain count as lowerable; the default (any) takes the best plan
// of either kernel family by the measured kernel-family model.
// - reduce-scatter: clusters along n only (cluster [1, c, 1, 1], spatial
//   [m, n], order [m, n, k, l]); E is reduce-scattered over DSM
//   (reduce_scatter), plus inter_cluster_reduce when grid n > 1.
// - shuffle: clusters along n and l alike (cluster [1, c, 1, c], spatial
//   [m, n, l], order [m, n, l, k], block[3] = L / c); act(C) is gathered
//   over DSM (shuffle), plus inter_cluster_reduce when grid n > 1.

// BAD: for the --family option: Cannot find option named 'bogus'!

// G4 (GPT-2 small FFN, M = 128, N = 3072, K = L = 768): the shuffle family
// wins, so any and shuffle record the same plan (L / c = 768 / 6 = 128);
// reduce-scatter records its best plan, 4 CTAs along n.
// ANY-LABEL: func.func @g4(
// ANY: schedule = #dsm.schedule<cluster = [1, 6, 1, 6], block = [64, 64, 64, 128], grid = [2, 8, 1, 1], order = [m, n, l, k], spatial = [m, n, l], residency = [dsm], collectives = [shuffle, inter_cluster_reduce], stages = 4, cost_ns = {{[0-9]+}}>
// RS-LABEL: func.func @g4(
// RS: schedule = #dsm.schedule<cluster = [1, 8, 1, 1], block = [64, 64, 64, 256], grid = [2, 6, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [smem], collectives = [reduce_scatter, inter_cluster_reduce], stages = 3, cost_ns = {{[0-9]+}}>
// SHUF-LABEL: func.func @g4(
// SHUF: schedule = #dsm.schedule<cluster = [1, 6, 1, 6], block = [64, 64, 64, 128], grid = [2, 8, 1, 1], order = [m, n, l, k], spatial = [m, n, l], residency = [dsm], collectives = [shuffle, inter_cluster_reduce], stages = 4, cost_ns = {{[0-9]+}}>

func.func @g4(%a: tensor<128x768xbf16>, %b: tensor<768x3072xbf16>, %d: tensor<3072x768xbf16>) -> tensor<128x768xbf16> {
  %e = dsm.fused_chain ffn (%a, %b, %d)
      : (tensor<128x768xbf16>, tensor<768x3072xbf16>, tensor<3072x768xbf16>) -> tensor<128x768xbf16> {
  ^bb0(%x: tensor<128x768xbf16>, %w1: tensor<768x3072xbf16>, %w2: tensor<3072x768xbf16>):
    %zero = arith.constant 0.0 : f32
    %c0e = tensor.empty() : tensor<128x3072xf32>
    %cf = linalg.fill ins(%zero : f32) outs(%c0e : tensor<128x3072xf32>) -> tensor<128x3072xf32>
    %c = linalg.matmul ins(%x, %w1 : tensor<128x768xbf16>, tensor<768x3072xbf16>) outs(%cf : tensor<128x3072xf32>) -> tensor<128x3072xf32>
    %h0 = tensor.empty() : tensor<128x3072xbf16>
    %h = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%c : tensor<128x3072xf32>) outs(%h0 : tensor<128x3072xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %r = arith.maximumf %in, %zero : f32
      %t = arith.truncf %r : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<128x3072xbf16>
    %e0 = tensor.empty() : tensor<128x768xf32>
    %ef = linalg.fill ins(%zero : f32) outs(%e0 : tensor<128x768xf32>) -> tensor<128x768xf32>
    %ea = linalg.matmul ins(%h, %w2 : tensor<128x3072xbf16>, tensor<3072x768xbf16>) outs(%ef : tensor<128x768xf32>) -> tensor<128x768xf32>
    %o0 = tensor.empty() : tensor<128x768xbf16>
    %o = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%ea : tensor<128x768xf32>) outs(%o0 : tensor<128x768xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %t = arith.truncf %in : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<128x768xbf16>
    dsm.yield %o : tensor<128x768xbf16>
  }
  return %e : tensor<128x768xbf16>
}

// G3 (M = 128, N = 512, K = 416, L = 256): the reduce-scatter family wins
// (one cluster of 8 along n holds all of N: no inter_cluster_reduce), so any
// and reduce-scatter record the same plan; shuffle records its best plan,
// one cluster of 4 along n and l (L / c = 256 / 4 = 64) that holds all of N
// (no inter_cluster_reduce either).
// ANY-LABEL: func.func @g3(
// ANY: schedule = #dsm.schedule<cluster = [1, 8, 1, 1], block = [64, 64, 64, 256], grid = [2, 1, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [smem], collectives = [reduce_scatter], stages = 3, cost_ns = {{[0-9]+}}>
// RS-LABEL: func.func @g3(
// RS: schedule = #dsm.schedule<cluster = [1, 8, 1, 1], block = [64, 64, 64, 256], grid = [2, 1, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [smem], collectives = [reduce_scatter], stages = 3, cost_ns = {{[0-9]+}}>
// SHUF-LABEL: func.func @g3(
// SHUF: schedule = #dsm.schedule<cluster = [1, 4, 1, 4], block = [64, 128, 64, 64], grid = [2, 1, 1, 1], order = [m, n, l, k], spatial = [m, n, l], residency = [dsm], collectives = [shuffle], stages = 4, cost_ns = {{[0-9]+}}>

func.func @g3(%a: tensor<128x416xbf16>, %b: tensor<416x512xbf16>, %d: tensor<512x256xbf16>) -> tensor<128x256xbf16> {
  %e = dsm.fused_chain ffn (%a, %b, %d)
      : (tensor<128x416xbf16>, tensor<416x512xbf16>, tensor<512x256xbf16>) -> tensor<128x256xbf16> {
  ^bb0(%x: tensor<128x416xbf16>, %w1: tensor<416x512xbf16>, %w2: tensor<512x256xbf16>):
    %zero = arith.constant 0.0 : f32
    %c0e = tensor.empty() : tensor<128x512xf32>
    %cf = linalg.fill ins(%zero : f32) outs(%c0e : tensor<128x512xf32>) -> tensor<128x512xf32>
    %c = linalg.matmul ins(%x, %w1 : tensor<128x416xbf16>, tensor<416x512xbf16>) outs(%cf : tensor<128x512xf32>) -> tensor<128x512xf32>
    %h0 = tensor.empty() : tensor<128x512xbf16>
    %h = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%c : tensor<128x512xf32>) outs(%h0 : tensor<128x512xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %r = arith.maximumf %in, %zero : f32
      %t = arith.truncf %r : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<128x512xbf16>
    %e0 = tensor.empty() : tensor<128x256xf32>
    %ef = linalg.fill ins(%zero : f32) outs(%e0 : tensor<128x256xf32>) -> tensor<128x256xf32>
    %ea = linalg.matmul ins(%h, %w2 : tensor<128x512xbf16>, tensor<512x256xbf16>) outs(%ef : tensor<128x256xf32>) -> tensor<128x256xf32>
    %o0 = tensor.empty() : tensor<128x256xbf16>
    %o = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%ea : tensor<128x256xf32>) outs(%o0 : tensor<128x256xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %t = arith.truncf %in : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<128x256xbf16>
    dsm.yield %o : tensor<128x256xbf16>
  }
  return %e : tensor<128x256xbf16>
}

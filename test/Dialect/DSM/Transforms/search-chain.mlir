// RUN: ff-opt %s --dsm-search -verify-diagnostics | FileCheck %s

// A chain of three GEMMs is scheduled by its first pair (M = 128,
// N = 3072, K = 768, L = 768), with one residency entry for the
// intermediate of that pair. The lowering does not carry out chains of three
// GEMMs (--dsm-fuse cuts them into pairs), so no plan is lowerable: the pass
// says so and records the best plan of the full space, the paper's Fig. 7
// pattern (L split in the cluster, C shuffled through DSM).

// CHECK-LABEL: func.func @chain3(
// CHECK: dsm.fused_chain {{.*}} {schedule = #dsm.schedule<cluster = [1, 4, 1, 4], block = [64, 64, 128, 192], grid = [2, 12, 1, 1], order = [m, n, l, k], spatial = [m, n, l], residency = [dsm], collectives = [shuffle, inter_cluster_reduce], stages = 2, cost_ns = {{[0-9]+}}>}

func.func @chain3(%a: tensor<128x768xbf16>, %b: tensor<768x3072xbf16>, %d: tensor<3072x768xbf16>, %f: tensor<768x256xbf16>) -> tensor<128x256xbf16> {
  // expected-warning @+1 {{no plan is in the lowerable family; recording the best plan of the full space}}
  %e = dsm.fused_chain chain (%a, %b, %d, %f)
      : (tensor<128x768xbf16>, tensor<768x3072xbf16>, tensor<3072x768xbf16>, tensor<768x256xbf16>) -> tensor<128x256xbf16> {
  ^bb0(%x: tensor<128x768xbf16>, %w1: tensor<768x3072xbf16>, %w2: tensor<3072x768xbf16>, %w3: tensor<768x256xbf16>):
    %zero = arith.constant 0.0 : f32
    %c0 = tensor.empty() : tensor<128x3072xf32>
    %cf = linalg.fill ins(%zero : f32) outs(%c0 : tensor<128x3072xf32>) -> tensor<128x3072xf32>
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
    %e1 = linalg.matmul ins(%h, %w2 : tensor<128x3072xbf16>, tensor<3072x768xbf16>) outs(%ef : tensor<128x768xf32>) -> tensor<128x768xf32>
    %g0 = tensor.empty() : tensor<128x768xbf16>
    %g = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%e1 : tensor<128x768xf32>) outs(%g0 : tensor<128x768xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %r = arith.maximumf %in, %zero : f32
      %t = arith.truncf %r : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<128x768xbf16>
    %o0 = tensor.empty() : tensor<128x256xf32>
    %of = linalg.fill ins(%zero : f32) outs(%o0 : tensor<128x256xf32>) -> tensor<128x256xf32>
    %o1 = linalg.matmul ins(%g, %w3 : tensor<128x768xbf16>, tensor<768x256xbf16>) outs(%of : tensor<128x256xf32>) -> tensor<128x256xf32>
    %p0 = tensor.empty() : tensor<128x256xbf16>
    %p = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%o1 : tensor<128x256xf32>) outs(%p0 : tensor<128x256xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %t = arith.truncf %in : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<128x256xbf16>
    dsm.yield %p : tensor<128x256xbf16>
  }
  return %e : tensor<128x256xbf16>
}

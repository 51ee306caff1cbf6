// Hand-written #dsm.schedule that is illegal for its chain or beyond what the
// target or the kernels take: rejected by the attribute or fused_chain
// verifier, or by the lowering, with a location. --dsm-search is left out:
// it replaces any schedule it finds (schedules-search.mlir).
//
// RUN: ff-opt %s --split-input-file --verify-diagnostics --dsm-fuse --lower-to-nvvm -o /dev/null

// More shared memory than an SM has: 8 stages of 128x64 + 64x256 bf16 tiles.
func.func @gemm(%a: tensor<256x512xbf16>, %b: tensor<512x512xbf16>) -> tensor<256x512xbf16> {
  // expected-error @below {{schedule cannot be lowered: needs 393216 bytes of shared memory; at most 231424}}
  %r = dsm.fused_chain gemm (%a, %b) {schedule = #dsm.schedule<cluster = [1, 1, 1, 1], block = [128, 256, 64, 16], grid = [2, 2, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [], stages = 8, cost_ns = 1000>}
      : (tensor<256x512xbf16>, tensor<512x512xbf16>) -> tensor<256x512xbf16> {
  ^bb0(%x: tensor<256x512xbf16>, %w: tensor<512x512xbf16>):
    %cst = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<256x512xf32>
    %f = linalg.fill ins(%cst : f32) outs(%e : tensor<256x512xf32>) -> tensor<256x512xf32>
    %mm = linalg.matmul ins(%x, %w : tensor<256x512xbf16>, tensor<512x512xbf16>) outs(%f : tensor<256x512xf32>) -> tensor<256x512xf32>
    %e2 = tensor.empty() : tensor<256x512xbf16>
    %t = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%mm : tensor<256x512xf32>) outs(%e2 : tensor<256x512xbf16>) {
    ^bb0(%in: f32, %o: bf16):
      %v = arith.truncf %in : f32 to bf16
      linalg.yield %v : bf16
    }  -> tensor<256x512xbf16>
    dsm.yield %t : tensor<256x512xbf16>
  }
  return %r : tensor<256x512xbf16>
}

// -----

// A cluster of 16 CTAs along n: legal for the target, not for a GEMM kernel.
func.func @gemm(%a: tensor<256x512xbf16>, %b: tensor<512x2048xbf16>) -> tensor<256x2048xbf16> {
  // expected-error @below {{schedule cannot be lowered: a GEMM kernel takes clusters of 1 or 2 CTAs along n}}
  %r = dsm.fused_chain gemm (%a, %b) {schedule = #dsm.schedule<cluster = [1, 16, 1, 1], block = [128, 128, 64, 16], grid = [2, 1, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [], stages = 4, cost_ns = 1000>}
      : (tensor<256x512xbf16>, tensor<512x2048xbf16>) -> tensor<256x2048xbf16> {
  ^bb0(%x: tensor<256x512xbf16>, %w: tensor<512x2048xbf16>):
    %cst = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<256x2048xf32>
    %f = linalg.fill ins(%cst : f32) outs(%e : tensor<256x2048xf32>) -> tensor<256x2048xf32>
    %mm = linalg.matmul ins(%x, %w : tensor<256x512xbf16>, tensor<512x2048xbf16>) outs(%f : tensor<256x2048xf32>) -> tensor<256x2048xf32>
    %e2 = tensor.empty() : tensor<256x2048xbf16>
    %t = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%mm : tensor<256x2048xf32>) outs(%e2 : tensor<256x2048xbf16>) {
    ^bb0(%in: f32, %o: bf16):
      %v = arith.truncf %in : f32 to bf16
      linalg.yield %v : bf16
    }  -> tensor<256x2048xbf16>
    dsm.yield %t : tensor<256x2048xbf16>
  }
  return %r : tensor<256x2048xbf16>
}

// -----

// A cluster of 16 along m.
func.func @gemm(%a: tensor<256x512xbf16>, %b: tensor<512x512xbf16>) -> tensor<256x512xbf16> {
  // expected-error @below {{schedule cannot be lowered: a GEMM cluster along m takes 2 or 4 CTAs (not gated)}}
  %r = dsm.fused_chain gemm (%a, %b) {schedule = #dsm.schedule<cluster = [16, 1, 1, 1], block = [16, 256, 64, 16], grid = [1, 2, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [], stages = 4, cost_ns = 1000>}
      : (tensor<256x512xbf16>, tensor<512x512xbf16>) -> tensor<256x512xbf16> {
  ^bb0(%x: tensor<256x512xbf16>, %w: tensor<512x512xbf16>):
    %cst = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<256x512xf32>
    %f = linalg.fill ins(%cst : f32) outs(%e : tensor<256x512xf32>) -> tensor<256x512xf32>
    %mm = linalg.matmul ins(%x, %w : tensor<256x512xbf16>, tensor<512x512xbf16>) outs(%f : tensor<256x512xf32>) -> tensor<256x512xf32>
    %e2 = tensor.empty() : tensor<256x512xbf16>
    %t = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%mm : tensor<256x512xf32>) outs(%e2 : tensor<256x512xbf16>) {
    ^bb0(%in: f32, %o: bf16):
      %v = arith.truncf %in : f32 to bf16
      linalg.yield %v : bf16
    }  -> tensor<256x512xbf16>
    dsm.yield %t : tensor<256x512xbf16>
  }
  return %r : tensor<256x512xbf16>
}

// -----

// A 256-row tile: wgmma warpgroups take 64 or 128 rows.
func.func @gemm(%a: tensor<256x512xbf16>, %b: tensor<512x512xbf16>) -> tensor<256x512xbf16> {
  // expected-error @below {{schedule cannot be lowered: blk_m must be 64 or 128}}
  %r = dsm.fused_chain gemm (%a, %b) {schedule = #dsm.schedule<cluster = [1, 1, 1, 1], block = [256, 256, 512, 16], grid = [1, 2, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [], stages = 4, cost_ns = 1000>}
      : (tensor<256x512xbf16>, tensor<512x512xbf16>) -> tensor<256x512xbf16> {
  ^bb0(%x: tensor<256x512xbf16>, %w: tensor<512x512xbf16>):
    %cst = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<256x512xf32>
    %f = linalg.fill ins(%cst : f32) outs(%e : tensor<256x512xf32>) -> tensor<256x512xf32>
    %mm = linalg.matmul ins(%x, %w : tensor<256x512xbf16>, tensor<512x512xbf16>) outs(%f : tensor<256x512xf32>) -> tensor<256x512xf32>
    %e2 = tensor.empty() : tensor<256x512xbf16>
    %t = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%mm : tensor<256x512xf32>) outs(%e2 : tensor<256x512xbf16>) {
    ^bb0(%in: f32, %o: bf16):
      %v = arith.truncf %in : f32 to bf16
      linalg.yield %v : bf16
    }  -> tensor<256x512xbf16>
    dsm.yield %t : tensor<256x512xbf16>
  }
  return %r : tensor<256x512xbf16>
}

// -----

// A cluster of 32: beyond any target.
func.func @gemm(%a: tensor<256x512xbf16>, %b: tensor<512x2048xbf16>) -> tensor<256x2048xbf16> {
  // expected-error @below {{cluster extent 32 is not in [1, 16]}}
  %r = dsm.fused_chain gemm (%a, %b) {schedule = #dsm.schedule<cluster = [1, 32, 1, 1], block = [128, 64, 64, 16], grid = [2, 1, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [], stages = 4, cost_ns = 1000>}
      : (tensor<256x512xbf16>, tensor<512x2048xbf16>) -> tensor<256x2048xbf16> {
  ^bb0(%x: tensor<256x512xbf16>, %w: tensor<512x2048xbf16>):
    %cst = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<256x2048xf32>
    %f = linalg.fill ins(%cst : f32) outs(%e : tensor<256x2048xf32>) -> tensor<256x2048xf32>
    %mm = linalg.matmul ins(%x, %w : tensor<256x512xbf16>, tensor<512x2048xbf16>) outs(%f : tensor<256x2048xf32>) -> tensor<256x2048xf32>
    %e2 = tensor.empty() : tensor<256x2048xbf16>
    %t = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%mm : tensor<256x2048xf32>) outs(%e2 : tensor<256x2048xbf16>) {
    ^bb0(%in: f32, %o: bf16):
      %v = arith.truncf %in : f32 to bf16
      linalg.yield %v : bf16
    }  -> tensor<256x2048xbf16>
    dsm.yield %t : tensor<256x2048xbf16>
  }
  return %r : tensor<256x2048xbf16>
}

// -----

// Grid that does not cover M.
func.func @gemm(%a: tensor<256x512xbf16>, %b: tensor<512x512xbf16>) -> tensor<256x512xbf16> {
  // expected-error @below {{schedule covers 128 of 256 along spatial m (cluster x grid x block)}}
  %r = dsm.fused_chain gemm (%a, %b) {schedule = #dsm.schedule<cluster = [1, 1, 1, 1], block = [128, 256, 64, 16], grid = [1, 2, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [], stages = 4, cost_ns = 1000>}
      : (tensor<256x512xbf16>, tensor<512x512xbf16>) -> tensor<256x512xbf16> {
  ^bb0(%x: tensor<256x512xbf16>, %w: tensor<512x512xbf16>):
    %cst = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<256x512xf32>
    %f = linalg.fill ins(%cst : f32) outs(%e : tensor<256x512xf32>) -> tensor<256x512xf32>
    %mm = linalg.matmul ins(%x, %w : tensor<256x512xbf16>, tensor<512x512xbf16>) outs(%f : tensor<256x512xf32>) -> tensor<256x512xf32>
    %e2 = tensor.empty() : tensor<256x512xbf16>
    %t = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%mm : tensor<256x512xf32>) outs(%e2 : tensor<256x512xbf16>) {
    ^bb0(%in: f32, %o: bf16):
      %v = arith.truncf %in : f32 to bf16
      linalg.yield %v : bf16
    }  -> tensor<256x512xbf16>
    dsm.yield %t : tensor<256x512xbf16>
  }
  return %r : tensor<256x512xbf16>
}

// -----

// Grid whose product overflows 64 bits (regression: it verified a negative coverage).
func.func @gemm(%a: tensor<256x512xbf16>, %b: tensor<512x512xbf16>) -> tensor<256x512xbf16> {
  // expected-error @below {{schedule extent along m (cluster x grid x block) overflows 64 bits}}
  %r = dsm.fused_chain gemm (%a, %b) {schedule = #dsm.schedule<cluster = [1, 1, 1, 1], block = [128, 256, 64, 16], grid = [9223372036854775807, 2, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [], stages = 4, cost_ns = 1000>}
      : (tensor<256x512xbf16>, tensor<512x512xbf16>) -> tensor<256x512xbf16> {
  ^bb0(%x: tensor<256x512xbf16>, %w: tensor<512x512xbf16>):
    %cst = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<256x512xf32>
    %f = linalg.fill ins(%cst : f32) outs(%e : tensor<256x512xf32>) -> tensor<256x512xf32>
    %mm = linalg.matmul ins(%x, %w : tensor<256x512xbf16>, tensor<512x512xbf16>) outs(%f : tensor<256x512xf32>) -> tensor<256x512xf32>
    %e2 = tensor.empty() : tensor<256x512xbf16>
    %t = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%mm : tensor<256x512xf32>) outs(%e2 : tensor<256x512xbf16>) {
    ^bb0(%in: f32, %o: bf16):
      %v = arith.truncf %in : f32 to bf16
      linalg.yield %v : bf16
    }  -> tensor<256x512xbf16>
    dsm.yield %t : tensor<256x512xbf16>
  }
  return %r : tensor<256x512xbf16>
}

// -----

// Block tile larger than K.
func.func @gemm(%a: tensor<256x512xbf16>, %b: tensor<512x512xbf16>) -> tensor<256x512xbf16> {
  // expected-error @below {{block tile 4096 along k exceeds the extent 512}}
  %r = dsm.fused_chain gemm (%a, %b) {schedule = #dsm.schedule<cluster = [1, 1, 1, 1], block = [128, 256, 4096, 16], grid = [2, 2, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [], stages = 4, cost_ns = 1000>}
      : (tensor<256x512xbf16>, tensor<512x512xbf16>) -> tensor<256x512xbf16> {
  ^bb0(%x: tensor<256x512xbf16>, %w: tensor<512x512xbf16>):
    %cst = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<256x512xf32>
    %f = linalg.fill ins(%cst : f32) outs(%e : tensor<256x512xf32>) -> tensor<256x512xf32>
    %mm = linalg.matmul ins(%x, %w : tensor<256x512xbf16>, tensor<512x512xbf16>) outs(%f : tensor<256x512xf32>) -> tensor<256x512xf32>
    %e2 = tensor.empty() : tensor<256x512xbf16>
    %t = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%mm : tensor<256x512xf32>) outs(%e2 : tensor<256x512xbf16>) {
    ^bb0(%in: f32, %o: bf16):
      %v = arith.truncf %in : f32 to bf16
      linalg.yield %v : bf16
    }  -> tensor<256x512xbf16>
    dsm.yield %t : tensor<256x512xbf16>
  }
  return %r : tensor<256x512xbf16>
}

// -----

// Zero grid.
func.func @gemm(%a: tensor<256x512xbf16>, %b: tensor<512x512xbf16>) -> tensor<256x512xbf16> {
  // expected-error @below {{grid extent 0 must be positive}}
  %r = dsm.fused_chain gemm (%a, %b) {schedule = #dsm.schedule<cluster = [1, 1, 1, 1], block = [128, 256, 64, 16], grid = [0, 2, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [], stages = 4, cost_ns = 1000>}
      : (tensor<256x512xbf16>, tensor<512x512xbf16>) -> tensor<256x512xbf16> {
  ^bb0(%x: tensor<256x512xbf16>, %w: tensor<512x512xbf16>):
    %cst = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<256x512xf32>
    %f = linalg.fill ins(%cst : f32) outs(%e : tensor<256x512xf32>) -> tensor<256x512xf32>
    %mm = linalg.matmul ins(%x, %w : tensor<256x512xbf16>, tensor<512x512xbf16>) outs(%f : tensor<256x512xf32>) -> tensor<256x512xf32>
    %e2 = tensor.empty() : tensor<256x512xbf16>
    %t = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%mm : tensor<256x512xf32>) outs(%e2 : tensor<256x512xbf16>) {
    ^bb0(%in: f32, %o: bf16):
      %v = arith.truncf %in : f32 to bf16
      linalg.yield %v : bf16
    }  -> tensor<256x512xbf16>
    dsm.yield %t : tensor<256x512xbf16>
  }
  return %r : tensor<256x512xbf16>
}

// -----

// Negative cluster.
func.func @gemm(%a: tensor<256x512xbf16>, %b: tensor<512x512xbf16>) -> tensor<256x512xbf16> {
  // expected-error @below {{cluster extent -1 is not in [1, 16]}}
  %r = dsm.fused_chain gemm (%a, %b) {schedule = #dsm.schedule<cluster = [-1, 1, 1, 1], block = [128, 256, 64, 16], grid = [2, 2, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [], stages = 4, cost_ns = 1000>}
      : (tensor<256x512xbf16>, tensor<512x512xbf16>) -> tensor<256x512xbf16> {
  ^bb0(%x: tensor<256x512xbf16>, %w: tensor<512x512xbf16>):
    %cst = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<256x512xf32>
    %f = linalg.fill ins(%cst : f32) outs(%e : tensor<256x512xf32>) -> tensor<256x512xf32>
    %mm = linalg.matmul ins(%x, %w : tensor<256x512xbf16>, tensor<512x512xbf16>) outs(%f : tensor<256x512xf32>) -> tensor<256x512xf32>
    %e2 = tensor.empty() : tensor<256x512xbf16>
    %t = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%mm : tensor<256x512xf32>) outs(%e2 : tensor<256x512xbf16>) {
    ^bb0(%in: f32, %o: bf16):
      %v = arith.truncf %in : f32 to bf16
      linalg.yield %v : bf16
    }  -> tensor<256x512xbf16>
    dsm.yield %t : tensor<256x512xbf16>
  }
  return %r : tensor<256x512xbf16>
}

// -----

// Too many stages.
func.func @gemm(%a: tensor<256x512xbf16>, %b: tensor<512x512xbf16>) -> tensor<256x512xbf16> {
  // expected-error @below {{expected 1 to 8 pipeline stages, got 20}}
  %r = dsm.fused_chain gemm (%a, %b) {schedule = #dsm.schedule<cluster = [1, 1, 1, 1], block = [128, 256, 64, 16], grid = [2, 2, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [], stages = 20, cost_ns = 1000>}
      : (tensor<256x512xbf16>, tensor<512x512xbf16>) -> tensor<256x512xbf16> {
  ^bb0(%x: tensor<256x512xbf16>, %w: tensor<512x512xbf16>):
    %cst = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<256x512xf32>
    %f = linalg.fill ins(%cst : f32) outs(%e : tensor<256x512xf32>) -> tensor<256x512xf32>
    %mm = linalg.matmul ins(%x, %w : tensor<256x512xbf16>, tensor<512x512xbf16>) outs(%f : tensor<256x512xf32>) -> tensor<256x512xf32>
    %e2 = tensor.empty() : tensor<256x512xbf16>
    %t = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%mm : tensor<256x512xf32>) outs(%e2 : tensor<256x512xbf16>) {
    ^bb0(%in: f32, %o: bf16):
      %v = arith.truncf %in : f32 to bf16
      linalg.yield %v : bf16
    }  -> tensor<256x512xbf16>
    dsm.yield %t : tensor<256x512xbf16>
  }
  return %r : tensor<256x512xbf16>
}

// -----

// k outside m and n.
func.func @gemm(%a: tensor<256x512xbf16>, %b: tensor<512x512xbf16>) -> tensor<256x512xbf16> {
  // expected-error @below {{k must be nested inside m and n}}
  %r = dsm.fused_chain gemm (%a, %b) {schedule = #dsm.schedule<cluster = [1, 1, 1, 1], block = [128, 256, 64, 16], grid = [2, 2, 1, 1], order = [k, n, m, l], spatial = [m, n], residency = [], collectives = [], stages = 4, cost_ns = 1000>}
      : (tensor<256x512xbf16>, tensor<512x512xbf16>) -> tensor<256x512xbf16> {
  ^bb0(%x: tensor<256x512xbf16>, %w: tensor<512x512xbf16>):
    %cst = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<256x512xf32>
    %f = linalg.fill ins(%cst : f32) outs(%e : tensor<256x512xf32>) -> tensor<256x512xf32>
    %mm = linalg.matmul ins(%x, %w : tensor<256x512xbf16>, tensor<512x512xbf16>) outs(%f : tensor<256x512xf32>) -> tensor<256x512xf32>
    %e2 = tensor.empty() : tensor<256x512xbf16>
    %t = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%mm : tensor<256x512xf32>) outs(%e2 : tensor<256x512xbf16>) {
    ^bb0(%in: f32, %o: bf16):
      %v = arith.truncf %in : f32 to bf16
      linalg.yield %v : bf16
    }  -> tensor<256x512xbf16>
    dsm.yield %t : tensor<256x512xbf16>
  }
  return %r : tensor<256x512xbf16>
}

// -----

// Not a permutation.
func.func @gemm(%a: tensor<256x512xbf16>, %b: tensor<512x512xbf16>) -> tensor<256x512xbf16> {
  // expected-error @below {{order must be a permutation of [m, n, k, l]}}
  %r = dsm.fused_chain gemm (%a, %b) {schedule = #dsm.schedule<cluster = [1, 1, 1, 1], block = [128, 256, 64, 16], grid = [2, 2, 1, 1], order = [m, m, k, l], spatial = [m, n], residency = [], collectives = [], stages = 4, cost_ns = 1000>}
      : (tensor<256x512xbf16>, tensor<512x512xbf16>) -> tensor<256x512xbf16> {
  ^bb0(%x: tensor<256x512xbf16>, %w: tensor<512x512xbf16>):
    %cst = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<256x512xf32>
    %f = linalg.fill ins(%cst : f32) outs(%e : tensor<256x512xf32>) -> tensor<256x512xf32>
    %mm = linalg.matmul ins(%x, %w : tensor<256x512xbf16>, tensor<512x512xbf16>) outs(%f : tensor<256x512xf32>) -> tensor<256x512xf32>
    %e2 = tensor.empty() : tensor<256x512xbf16>
    %t = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%mm : tensor<256x512xf32>) outs(%e2 : tensor<256x512xbf16>) {
    ^bb0(%in: f32, %o: bf16):
      %v = arith.truncf %in : f32 to bf16
      linalg.yield %v : bf16
    }  -> tensor<256x512xbf16>
    dsm.yield %t : tensor<256x512xbf16>
  }
  return %r : tensor<256x512xbf16>
}

// -----

// A collective the chain does not need.
func.func @gemm(%a: tensor<256x512xbf16>, %b: tensor<512x512xbf16>) -> tensor<256x512xbf16> {
  // expected-error @below {{collective shuffle is listed but the gemm plan needs none}}
  %r = dsm.fused_chain gemm (%a, %b) {schedule = #dsm.schedule<cluster = [1, 1, 1, 1], block = [128, 256, 64, 16], grid = [2, 2, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [smem], collectives = [shuffle], stages = 4, cost_ns = 1000>}
      : (tensor<256x512xbf16>, tensor<512x512xbf16>) -> tensor<256x512xbf16> {
  ^bb0(%x: tensor<256x512xbf16>, %w: tensor<512x512xbf16>):
    %cst = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<256x512xf32>
    %f = linalg.fill ins(%cst : f32) outs(%e : tensor<256x512xf32>) -> tensor<256x512xf32>
    %mm = linalg.matmul ins(%x, %w : tensor<256x512xbf16>, tensor<512x512xbf16>) outs(%f : tensor<256x512xf32>) -> tensor<256x512xf32>
    %e2 = tensor.empty() : tensor<256x512xbf16>
    %t = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%mm : tensor<256x512xf32>) outs(%e2 : tensor<256x512xbf16>) {
    ^bb0(%in: f32, %o: bf16):
      %v = arith.truncf %in : f32 to bf16
      linalg.yield %v : bf16
    }  -> tensor<256x512xbf16>
    dsm.yield %t : tensor<256x512xbf16>
  }
  return %r : tensor<256x512xbf16>
}

// -----

// An empty dynamic-M bin.
func.func @gemm(%a: tensor<256x512xbf16>, %b: tensor<512x512xbf16>) -> tensor<256x512xbf16> {
  // expected-error @below {{expected 1 <= m_lo <= m_hi, got [5, 2]}}
  %r = dsm.fused_chain gemm (%a, %b) {schedule = #dsm.schedule<cluster = [1, 1, 1, 1], block = [128, 256, 64, 16], grid = [2, 2, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [], stages = 4, cost_ns = 1000, m_lo = 5, m_hi = 2>}
      : (tensor<256x512xbf16>, tensor<512x512xbf16>) -> tensor<256x512xbf16> {
  ^bb0(%x: tensor<256x512xbf16>, %w: tensor<512x512xbf16>):
    %cst = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<256x512xf32>
    %f = linalg.fill ins(%cst : f32) outs(%e : tensor<256x512xf32>) -> tensor<256x512xf32>
    %mm = linalg.matmul ins(%x, %w : tensor<256x512xbf16>, tensor<512x512xbf16>) outs(%f : tensor<256x512xf32>) -> tensor<256x512xf32>
    %e2 = tensor.empty() : tensor<256x512xbf16>
    %t = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%mm : tensor<256x512xf32>) outs(%e2 : tensor<256x512xbf16>) {
    ^bb0(%in: f32, %o: bf16):
      %v = arith.truncf %in : f32 to bf16
      linalg.yield %v : bf16
    }  -> tensor<256x512xbf16>
    dsm.yield %t : tensor<256x512xbf16>
  }
  return %r : tensor<256x512xbf16>
}

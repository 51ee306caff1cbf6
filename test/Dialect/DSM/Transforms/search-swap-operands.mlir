// RUN: ff-opt %s --dsm-search | FileCheck %s
// RUN: ff-opt %s --dsm-search=swap-operands=false | FileCheck %s --check-prefix=OFF

// Single GEMMs of static M on K-major weights are also searched as their
// transposed product (swap_ab). G8's up GEMM at M = 300: 128-row m tiles
// pad 300 rows to 384; swapped, two tiles of 152 rows are wgmma's n and
// the 8192 weight rows its m (64 tiles of 128): one wave of 128 CTAs
// (H200: its chain 1.12x faster, docs/validation.md); 256-row weight
// tiles would leave half the SMs idle. G5's up GEMM (16384 weight rows)
// takes them: 64 x 2 tiles of 256 x 152, one wave of 128 CTAs, each
// consumer warpgroup holding two accumulators. G5's down GEMM at
// M = 300 (4096 weight rows, K = 16384) takes a swapped split K: 32 x 2
// tiles of 128 x 160 over 2 along k, one wave of 128 CTAs (H200: its chain
// 1.12x faster); unsplit it was priced lower swapped only on tiles of 80
// rows, which lost. G8's down GEMM (2048 weight rows: 64 CTAs split over
// 2) keeps the chain's order. A dynamic M never swaps
// (search-dynamic-m.mlir's tables are unchanged). S2's gate|up GEMM at
// M = 800 swaps too: gate's and up's 128-row weight tiles against 136
// token rows, 44 x 6 tiles (two full waves; H200: its chain 1.19x faster).
// S2's down GEMM at M = 300 takes 64 weight rows against 80 tokens, one
// wave of 32 x 4 CTAs on an 8-stage ring (H200: its chain 1.10x faster
// than split over 4 along k). S2's gate|up GEMM at M = 300 takes 3 token
// tiles of 104, as many as 128-row tiles would be (44 x 3: one full wave;
// its chain 1.04x faster). At M = 1500 (2 % padding) S8's gate|up GEMM
// swaps too: 128 x 128 tiles would fill their third wave to 18 %, 24 x 11
// tiles of 144 tokens fill two (its chain 1.16x faster).

// CHECK-LABEL: func.func @g8_up_m300(
// CHECK: schedule = #dsm.schedule<cluster = [1, 1, 1, 1], block = [152, 128, 64, 16], grid = [2, 64, 1, 1], {{.*}}swap_ab = true>
// CHECK-LABEL: func.func @g5_up_m300(
// CHECK: schedule = #dsm.schedule<cluster = [1, 1, 1, 1], block = [152, 256, 64, 16], grid = [2, 64, 1, 1], {{.*}}swap_ab = true>
// CHECK-LABEL: func.func @g5_down_m300(
// CHECK: schedule = #dsm.schedule<cluster = [1, 1, 2, 1], block = [160, 128, 8192, 16], grid = [2, 32, 1, 1], {{.*}}spatial = [m, n, k]{{.*}}swap_ab = true>
// CHECK-LABEL: func.func @g8_down_m300(
// CHECK-NOT: swap_ab
// CHECK: return
// CHECK-LABEL: func.func @s2_gated_m800(
// CHECK: schedule = #dsm.schedule<cluster = [1, 1, 1, 1], block = [136, 128, 64, 16], grid = [6, 44, 1, 1], {{.*}}swap_ab = true>
// CHECK-LABEL: func.func @s2_down_m300(
// CHECK: schedule = #dsm.schedule<cluster = [1, 1, 1, 1], block = [80, 64, 64, 16], grid = [4, 32, 1, 1], {{.*}}stages = 8, {{.*}}swap_ab = true>
// CHECK-LABEL: func.func @s2_gated_m300(
// CHECK: schedule = #dsm.schedule<cluster = [1, 1, 1, 1], block = [104, 128, 64, 16], grid = [3, 44, 1, 1], {{.*}}swap_ab = true>
// CHECK-LABEL: func.func @s8_gated_m1500(
// CHECK: schedule = #dsm.schedule<cluster = [1, 1, 1, 1], block = [144, 128, 64, 16], grid = [11, 24, 1, 1], {{.*}}swap_ab = true>
// OFF-LABEL: func.func @g8_up_m300(
// OFF-NOT: swap_ab
// OFF: block = [128, {{[0-9]+}}, 64, 16]
// OFF-NOT: swap_ab
// OFF: return
// OFF-NOT: swap_ab

func.func @g8_up_m300(%a: tensor<300x2048xbf16>, %w: tensor<8192x2048xbf16>) -> tensor<300x8192xbf16> {
  %r = dsm.fused_chain gemm (%a, %w)
      : (tensor<300x2048xbf16>, tensor<8192x2048xbf16>) -> tensor<300x8192xbf16> {
  ^bb0(%x: tensor<300x2048xbf16>, %y: tensor<8192x2048xbf16>):
    %cst = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<300x8192xf32>
    %f = linalg.fill ins(%cst : f32) outs(%e : tensor<300x8192xf32>) -> tensor<300x8192xf32>
    %mm = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%x, %y : tensor<300x2048xbf16>, tensor<8192x2048xbf16>) outs(%f : tensor<300x8192xf32>) -> tensor<300x8192xf32>
    %e2 = tensor.empty() : tensor<300x8192xbf16>
    %t = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%mm : tensor<300x8192xf32>) outs(%e2 : tensor<300x8192xbf16>) {
    ^bb0(%in: f32, %o: bf16):
      %v = arith.truncf %in : f32 to bf16
      linalg.yield %v : bf16
    }  -> tensor<300x8192xbf16>
    dsm.yield %t : tensor<300x8192xbf16>
  }
  return %r : tensor<300x8192xbf16>
}

func.func @g5_up_m300(%a: tensor<300x4096xbf16>, %w: tensor<16384x4096xbf16>) -> tensor<300x16384xbf16> {
  %r = dsm.fused_chain gemm (%a, %w)
      : (tensor<300x4096xbf16>, tensor<16384x4096xbf16>) -> tensor<300x16384xbf16> {
  ^bb0(%x: tensor<300x4096xbf16>, %y: tensor<16384x4096xbf16>):
    %cst = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<300x16384xf32>
    %f = linalg.fill ins(%cst : f32) outs(%e : tensor<300x16384xf32>) -> tensor<300x16384xf32>
    %mm = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%x, %y : tensor<300x4096xbf16>, tensor<16384x4096xbf16>) outs(%f : tensor<300x16384xf32>) -> tensor<300x16384xf32>
    %e2 = tensor.empty() : tensor<300x16384xbf16>
    %t = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%mm : tensor<300x16384xf32>) outs(%e2 : tensor<300x16384xbf16>) {
    ^bb0(%in: f32, %o: bf16):
      %v = arith.truncf %in : f32 to bf16
      linalg.yield %v : bf16
    }  -> tensor<300x16384xbf16>
    dsm.yield %t : tensor<300x16384xbf16>
  }
  return %r : tensor<300x16384xbf16>
}

func.func @g5_down_m300(%a: tensor<300x16384xbf16>, %w: tensor<4096x16384xbf16>) -> tensor<300x4096xbf16> {
  %r = dsm.fused_chain gemm (%a, %w)
      : (tensor<300x16384xbf16>, tensor<4096x16384xbf16>) -> tensor<300x4096xbf16> {
  ^bb0(%x: tensor<300x16384xbf16>, %y: tensor<4096x16384xbf16>):
    %cst = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<300x4096xf32>
    %f = linalg.fill ins(%cst : f32) outs(%e : tensor<300x4096xf32>) -> tensor<300x4096xf32>
    %mm = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%x, %y : tensor<300x16384xbf16>, tensor<4096x16384xbf16>) outs(%f : tensor<300x4096xf32>) -> tensor<300x4096xf32>
    %e2 = tensor.empty() : tensor<300x4096xbf16>
    %t = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%mm : tensor<300x4096xf32>) outs(%e2 : tensor<300x4096xbf16>) {
    ^bb0(%in: f32, %o: bf16):
      %v = arith.truncf %in : f32 to bf16
      linalg.yield %v : bf16
    }  -> tensor<300x4096xbf16>
    dsm.yield %t : tensor<300x4096xbf16>
  }
  return %r : tensor<300x4096xbf16>
}

func.func @g8_down_m300(%a: tensor<300x8192xbf16>, %w: tensor<2048x8192xbf16>) -> tensor<300x2048xbf16> {
  %r = dsm.fused_chain gemm (%a, %w)
      : (tensor<300x8192xbf16>, tensor<2048x8192xbf16>) -> tensor<300x2048xbf16> {
  ^bb0(%x: tensor<300x8192xbf16>, %y: tensor<2048x8192xbf16>):
    %cst = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<300x2048xf32>
    %f = linalg.fill ins(%cst : f32) outs(%e : tensor<300x2048xf32>) -> tensor<300x2048xf32>
    %mm = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%x, %y : tensor<300x8192xbf16>, tensor<2048x8192xbf16>) outs(%f : tensor<300x2048xf32>) -> tensor<300x2048xf32>
    %e2 = tensor.empty() : tensor<300x2048xbf16>
    %t = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%mm : tensor<300x2048xf32>) outs(%e2 : tensor<300x2048xbf16>) {
    ^bb0(%in: f32, %o: bf16):
      %v = arith.truncf %in : f32 to bf16
      linalg.yield %v : bf16
    }  -> tensor<300x2048xbf16>
    dsm.yield %t : tensor<300x2048xbf16>
  }
  return %r : tensor<300x2048xbf16>
}

func.func @s2_gated_m800(%a: tensor<800x2048xbf16>, %wg: tensor<5632x2048xbf16>, %wu: tensor<5632x2048xbf16>) -> tensor<800x5632xbf16> {
  %r = dsm.fused_chain gated_gemm (%a, %wg, %wu)
      : (tensor<800x2048xbf16>, tensor<5632x2048xbf16>, tensor<5632x2048xbf16>) -> tensor<800x5632xbf16> {
  ^bb0(%x: tensor<800x2048xbf16>, %g: tensor<5632x2048xbf16>, %u: tensor<5632x2048xbf16>):
    %z = arith.constant 0.0 : f32
    %one = arith.constant 1.0 : f32
    %e0 = tensor.empty() : tensor<800x5632xf32>
    %f0 = linalg.fill ins(%z : f32) outs(%e0 : tensor<800x5632xf32>) -> tensor<800x5632xf32>
    %cg = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%x, %g : tensor<800x2048xbf16>, tensor<5632x2048xbf16>) outs(%f0 : tensor<800x5632xf32>) -> tensor<800x5632xf32>
    %e1 = tensor.empty() : tensor<800x5632xf32>
    %f1 = linalg.fill ins(%z : f32) outs(%e1 : tensor<800x5632xf32>) -> tensor<800x5632xf32>
    %cu = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%x, %u : tensor<800x2048xbf16>, tensor<5632x2048xbf16>) outs(%f1 : tensor<800x5632xf32>) -> tensor<800x5632xf32>
    %hb = tensor.empty() : tensor<800x5632xbf16>
    %h = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%cg, %cu : tensor<800x5632xf32>, tensor<800x5632xf32>) outs(%hb : tensor<800x5632xbf16>) {
    ^bb0(%gv: f32, %uv: f32, %out: bf16):
      %n = arith.negf %gv : f32
      %ex = math.exp %n : f32
      %den = arith.addf %ex, %one : f32
      %s = arith.divf %gv, %den : f32
      %p = arith.mulf %s, %uv : f32
      %t = arith.truncf %p : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<800x5632xbf16>
    dsm.yield %h : tensor<800x5632xbf16>
  }
  return %r : tensor<800x5632xbf16>
}

func.func @s2_down_m300(%a: tensor<300x5632xbf16>, %w: tensor<2048x5632xbf16>) -> tensor<300x2048xbf16> {
  %r = dsm.fused_chain gemm (%a, %w)
      : (tensor<300x5632xbf16>, tensor<2048x5632xbf16>) -> tensor<300x2048xbf16> {
  ^bb0(%x: tensor<300x5632xbf16>, %y: tensor<2048x5632xbf16>):
    %cst = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<300x2048xf32>
    %f = linalg.fill ins(%cst : f32) outs(%e : tensor<300x2048xf32>) -> tensor<300x2048xf32>
    %mm = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%x, %y : tensor<300x5632xbf16>, tensor<2048x5632xbf16>) outs(%f : tensor<300x2048xf32>) -> tensor<300x2048xf32>
    %e2 = tensor.empty() : tensor<300x2048xbf16>
    %t = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%mm : tensor<300x2048xf32>) outs(%e2 : tensor<300x2048xbf16>) {
    ^bb0(%in: f32, %o: bf16):
      %v = arith.truncf %in : f32 to bf16
      linalg.yield %v : bf16
    }  -> tensor<300x2048xbf16>
    dsm.yield %t : tensor<300x2048xbf16>
  }
  return %r : tensor<300x2048xbf16>
}

func.func @s2_gated_m300(%a: tensor<300x2048xbf16>, %wg: tensor<5632x2048xbf16>, %wu: tensor<5632x2048xbf16>) -> tensor<300x5632xbf16> {
  %r = dsm.fused_chain gated_gemm (%a, %wg, %wu)
      : (tensor<300x2048xbf16>, tensor<5632x2048xbf16>, tensor<5632x2048xbf16>) -> tensor<300x5632xbf16> {
  ^bb0(%x: tensor<300x2048xbf16>, %g: tensor<5632x2048xbf16>, %u: tensor<5632x2048xbf16>):
    %z = arith.constant 0.0 : f32
    %one = arith.constant 1.0 : f32
    %e0 = tensor.empty() : tensor<300x5632xf32>
    %f0 = linalg.fill ins(%z : f32) outs(%e0 : tensor<300x5632xf32>) -> tensor<300x5632xf32>
    %cg = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%x, %g : tensor<300x2048xbf16>, tensor<5632x2048xbf16>) outs(%f0 : tensor<300x5632xf32>) -> tensor<300x5632xf32>
    %e1 = tensor.empty() : tensor<300x5632xf32>
    %f1 = linalg.fill ins(%z : f32) outs(%e1 : tensor<300x5632xf32>) -> tensor<300x5632xf32>
    %cu = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%x, %u : tensor<300x2048xbf16>, tensor<5632x2048xbf16>) outs(%f1 : tensor<300x5632xf32>) -> tensor<300x5632xf32>
    %hb = tensor.empty() : tensor<300x5632xbf16>
    %h = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%cg, %cu : tensor<300x5632xf32>, tensor<300x5632xf32>) outs(%hb : tensor<300x5632xbf16>) {
    ^bb0(%gv: f32, %uv: f32, %out: bf16):
      %n = arith.negf %gv : f32
      %ex = math.exp %n : f32
      %den = arith.addf %ex, %one : f32
      %s = arith.divf %gv, %den : f32
      %p = arith.mulf %s, %uv : f32
      %t = arith.truncf %p : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<300x5632xbf16>
    dsm.yield %h : tensor<300x5632xbf16>
  }
  return %r : tensor<300x5632xbf16>
}

func.func @s8_gated_m1500(%a: tensor<1500x1024xbf16>, %wg: tensor<3072x1024xbf16>, %wu: tensor<3072x1024xbf16>) -> tensor<1500x3072xbf16> {
  %r = dsm.fused_chain gated_gemm (%a, %wg, %wu)
      : (tensor<1500x1024xbf16>, tensor<3072x1024xbf16>, tensor<3072x1024xbf16>) -> tensor<1500x3072xbf16> {
  ^bb0(%x: tensor<1500x1024xbf16>, %g: tensor<3072x1024xbf16>, %u: tensor<3072x1024xbf16>):
    %z = arith.constant 0.0 : f32
    %one = arith.constant 1.0 : f32
    %e0 = tensor.empty() : tensor<1500x3072xf32>
    %f0 = linalg.fill ins(%z : f32) outs(%e0 : tensor<1500x3072xf32>) -> tensor<1500x3072xf32>
    %cg = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%x, %g : tensor<1500x1024xbf16>, tensor<3072x1024xbf16>) outs(%f0 : tensor<1500x3072xf32>) -> tensor<1500x3072xf32>
    %e1 = tensor.empty() : tensor<1500x3072xf32>
    %f1 = linalg.fill ins(%z : f32) outs(%e1 : tensor<1500x3072xf32>) -> tensor<1500x3072xf32>
    %cu = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%x, %u : tensor<1500x1024xbf16>, tensor<3072x1024xbf16>) outs(%f1 : tensor<1500x3072xf32>) -> tensor<1500x3072xf32>
    %hb = tensor.empty() : tensor<1500x3072xbf16>
    %h = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%cg, %cu : tensor<1500x3072xf32>, tensor<1500x3072xf32>) outs(%hb : tensor<1500x3072xbf16>) {
    ^bb0(%gv: f32, %uv: f32, %out: bf16):
      %n = arith.negf %gv : f32
      %ex = math.exp %n : f32
      %den = arith.addf %ex, %one : f32
      %s = arith.divf %gv, %den : f32
      %p = arith.mulf %s, %uv : f32
      %t = arith.truncf %p : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<1500x3072xbf16>
    dsm.yield %h : tensor<1500x3072xbf16>
  }
  return %r : tensor<1500x3072xbf16>
}

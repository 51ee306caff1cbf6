// RUN: ff-opt %s --dsm-search=swap-operands=false | FileCheck %s
// RUN: ff-opt %s --dsm-search="wave-tiles=false swap-operands=false" | FileCheck %s --check-prefix=OFF

// Gated GEMMs on K-major ([N, K]) weights take n tiles of the narrowest
// width that fills the GPU's 132 SMs in one wave (8-column steps) or two
// (16-column steps); with wave-tiles=false, or row-major weights, only 64,
// 128 and 192. (Among plans of the chains' own operand order: the plain
// GEMM at M = 1568 ranks a swapped plan first, search-swap-operands.mlir's
// subject.)

#mk = affine_map<(d0, d1, d2) -> (d0, d2)>
#nk = affine_map<(d0, d1, d2) -> (d1, d2)>
#mn = affine_map<(d0, d1, d2) -> (d0, d1)>
#id = affine_map<(d0, d1) -> (d0, d1)>

// S2's gate|up at M = 128: 118 tiles of 128 x 48 (88 of 128 x 64 before).
// CHECK-LABEL: func.func @s2_gate_up(
// CHECK: block = [128, 48, 64, 16], grid = [1, 118, 1, 1]
// OFF-LABEL: func.func @s2_gate_up(
// OFF: block = [128, 64, 64, 16], grid = [1, 88, 1, 1]
func.func @s2_gate_up(%a: tensor<128x2048xbf16>, %wg: tensor<5632x2048xbf16>, %wu: tensor<5632x2048xbf16>) -> tensor<128x5632xbf16> {
  %r = dsm.fused_chain gated_gemm (%a, %wg, %wu)
      : (tensor<128x2048xbf16>, tensor<5632x2048xbf16>, tensor<5632x2048xbf16>) -> tensor<128x5632xbf16> {
  ^bb0(%x: tensor<128x2048xbf16>, %g: tensor<5632x2048xbf16>, %u: tensor<5632x2048xbf16>):
    %z = arith.constant 0.0 : f32
    %one = arith.constant 1.0 : f32
    %e0 = tensor.empty() : tensor<128x5632xf32>
    %f0 = linalg.fill ins(%z : f32) outs(%e0 : tensor<128x5632xf32>) -> tensor<128x5632xf32>
    %cg = linalg.matmul indexing_maps = [#mk, #nk, #mn] ins(%x, %g : tensor<128x2048xbf16>, tensor<5632x2048xbf16>) outs(%f0 : tensor<128x5632xf32>) -> tensor<128x5632xf32>
    %e1 = tensor.empty() : tensor<128x5632xf32>
    %f1 = linalg.fill ins(%z : f32) outs(%e1 : tensor<128x5632xf32>) -> tensor<128x5632xf32>
    %cu = linalg.matmul indexing_maps = [#mk, #nk, #mn] ins(%x, %u : tensor<128x2048xbf16>, tensor<5632x2048xbf16>) outs(%f1 : tensor<128x5632xf32>) -> tensor<128x5632xf32>
    %hb = tensor.empty() : tensor<128x5632xbf16>
    %h = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%cg, %cu : tensor<128x5632xf32>, tensor<128x5632xf32>) outs(%hb : tensor<128x5632xbf16>) {
    ^bb0(%gv: f32, %uv: f32, %out: bf16):
      %ng = arith.negf %gv : f32
      %ex = math.exp %ng : f32
      %den = arith.addf %ex, %one : f32
      %s = arith.divf %gv, %den : f32
      %p = arith.mulf %s, %uv : f32
      %t = arith.truncf %p : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<128x5632xbf16>
    dsm.yield %h : tensor<128x5632xbf16>
  }
  return %r : tensor<128x5632xbf16>
}

// S3's at M = 256: 2 x 66 tiles of 128 x 168, one wave (2 x 58 of 192).
// CHECK-LABEL: func.func @s3_gate_up_m256(
// CHECK: block = [128, 168, 64, 16], grid = [2, 66, 1, 1]
// OFF-LABEL: func.func @s3_gate_up_m256(
// OFF: block = [128, 192, 64, 16], grid = [2, 58, 1, 1]
func.func @s3_gate_up_m256(%a: tensor<256x4096xbf16>, %wg: tensor<11008x4096xbf16>, %wu: tensor<11008x4096xbf16>) -> tensor<256x11008xbf16> {
  %r = dsm.fused_chain gated_gemm (%a, %wg, %wu)
      : (tensor<256x4096xbf16>, tensor<11008x4096xbf16>, tensor<11008x4096xbf16>) -> tensor<256x11008xbf16> {
  ^bb0(%x: tensor<256x4096xbf16>, %g: tensor<11008x4096xbf16>, %u: tensor<11008x4096xbf16>):
    %z = arith.constant 0.0 : f32
    %one = arith.constant 1.0 : f32
    %e0 = tensor.empty() : tensor<256x11008xf32>
    %f0 = linalg.fill ins(%z : f32) outs(%e0 : tensor<256x11008xf32>) -> tensor<256x11008xf32>
    %cg = linalg.matmul indexing_maps = [#mk, #nk, #mn] ins(%x, %g : tensor<256x4096xbf16>, tensor<11008x4096xbf16>) outs(%f0 : tensor<256x11008xf32>) -> tensor<256x11008xf32>
    %e1 = tensor.empty() : tensor<256x11008xf32>
    %f1 = linalg.fill ins(%z : f32) outs(%e1 : tensor<256x11008xf32>) -> tensor<256x11008xf32>
    %cu = linalg.matmul indexing_maps = [#mk, #nk, #mn] ins(%x, %u : tensor<256x4096xbf16>, tensor<11008x4096xbf16>) outs(%f1 : tensor<256x11008xf32>) -> tensor<256x11008xf32>
    %hb = tensor.empty() : tensor<256x11008xbf16>
    %h = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%cg, %cu : tensor<256x11008xf32>, tensor<256x11008xf32>) outs(%hb : tensor<256x11008xbf16>) {
    ^bb0(%gv: f32, %uv: f32, %out: bf16):
      %ng = arith.negf %gv : f32
      %ex = math.exp %ng : f32
      %den = arith.addf %ex, %one : f32
      %s = arith.divf %gv, %den : f32
      %p = arith.mulf %s, %uv : f32
      %t = arith.truncf %p : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<256x11008xbf16>
    dsm.yield %h : tensor<256x11008xbf16>
  }
  return %r : tensor<256x11008xbf16>
}

// S3's at M = 128: 126 tiles of 128 x 88, one wave in 8-column steps (115
// of 96 in 16-column steps; 86 of 128 x 128 before wave widths).
// CHECK-LABEL: func.func @s3_gate_up_m128(
// CHECK: block = [128, 88, 64, 16], grid = [1, 126, 1, 1]
// OFF-LABEL: func.func @s3_gate_up_m128(
// OFF: block = [128, 128, 64, 16], grid = [1, 86, 1, 1]
func.func @s3_gate_up_m128(%a: tensor<128x4096xbf16>, %wg: tensor<11008x4096xbf16>, %wu: tensor<11008x4096xbf16>) -> tensor<128x11008xbf16> {
  %r = dsm.fused_chain gated_gemm (%a, %wg, %wu)
      : (tensor<128x4096xbf16>, tensor<11008x4096xbf16>, tensor<11008x4096xbf16>) -> tensor<128x11008xbf16> {
  ^bb0(%x: tensor<128x4096xbf16>, %g: tensor<11008x4096xbf16>, %u: tensor<11008x4096xbf16>):
    %z = arith.constant 0.0 : f32
    %one = arith.constant 1.0 : f32
    %e0 = tensor.empty() : tensor<128x11008xf32>
    %f0 = linalg.fill ins(%z : f32) outs(%e0 : tensor<128x11008xf32>) -> tensor<128x11008xf32>
    %cg = linalg.matmul indexing_maps = [#mk, #nk, #mn] ins(%x, %g : tensor<128x4096xbf16>, tensor<11008x4096xbf16>) outs(%f0 : tensor<128x11008xf32>) -> tensor<128x11008xf32>
    %e1 = tensor.empty() : tensor<128x11008xf32>
    %f1 = linalg.fill ins(%z : f32) outs(%e1 : tensor<128x11008xf32>) -> tensor<128x11008xf32>
    %cu = linalg.matmul indexing_maps = [#mk, #nk, #mn] ins(%x, %u : tensor<128x4096xbf16>, tensor<11008x4096xbf16>) outs(%f1 : tensor<128x11008xf32>) -> tensor<128x11008xf32>
    %hb = tensor.empty() : tensor<128x11008xbf16>
    %h = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%cg, %cu : tensor<128x11008xf32>, tensor<128x11008xf32>) outs(%hb : tensor<128x11008xbf16>) {
    ^bb0(%gv: f32, %uv: f32, %out: bf16):
      %ng = arith.negf %gv : f32
      %ex = math.exp %ng : f32
      %den = arith.addf %ex, %one : f32
      %s = arith.divf %gv, %den : f32
      %p = arith.mulf %s, %uv : f32
      %t = arith.truncf %p : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<128x11008xbf16>
    dsm.yield %h : tensor<128x11008xbf16>
  }
  return %r : tensor<128x11008xbf16>
}

// Row-major weights load B in 64-column boxes: no wave width.
// CHECK-LABEL: func.func @s2_gate_up_kn(
// CHECK: block = [128, 64, 64, 16], grid = [1, 88, 1, 1]
func.func @s2_gate_up_kn(%a: tensor<128x2048xbf16>, %wg: tensor<2048x5632xbf16>, %wu: tensor<2048x5632xbf16>) -> tensor<128x5632xbf16> {
  %r = dsm.fused_chain gated_gemm (%a, %wg, %wu)
      : (tensor<128x2048xbf16>, tensor<2048x5632xbf16>, tensor<2048x5632xbf16>) -> tensor<128x5632xbf16> {
  ^bb0(%x: tensor<128x2048xbf16>, %g: tensor<2048x5632xbf16>, %u: tensor<2048x5632xbf16>):
    %z = arith.constant 0.0 : f32
    %one = arith.constant 1.0 : f32
    %e0 = tensor.empty() : tensor<128x5632xf32>
    %f0 = linalg.fill ins(%z : f32) outs(%e0 : tensor<128x5632xf32>) -> tensor<128x5632xf32>
    %cg = linalg.matmul ins(%x, %g : tensor<128x2048xbf16>, tensor<2048x5632xbf16>) outs(%f0 : tensor<128x5632xf32>) -> tensor<128x5632xf32>
    %e1 = tensor.empty() : tensor<128x5632xf32>
    %f1 = linalg.fill ins(%z : f32) outs(%e1 : tensor<128x5632xf32>) -> tensor<128x5632xf32>
    %cu = linalg.matmul ins(%x, %u : tensor<128x2048xbf16>, tensor<2048x5632xbf16>) outs(%f1 : tensor<128x5632xf32>) -> tensor<128x5632xf32>
    %hb = tensor.empty() : tensor<128x5632xbf16>
    %h = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%cg, %cu : tensor<128x5632xf32>, tensor<128x5632xf32>) outs(%hb : tensor<128x5632xbf16>) {
    ^bb0(%gv: f32, %uv: f32, %out: bf16):
      %ng = arith.negf %gv : f32
      %ex = math.exp %ng : f32
      %den = arith.addf %ex, %one : f32
      %s = arith.divf %gv, %den : f32
      %p = arith.mulf %s, %uv : f32
      %t = arith.truncf %p : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<128x5632xbf16>
    dsm.yield %h : tensor<128x5632xbf16>
  }
  return %r : tensor<128x5632xbf16>
}

// A plain GEMM on K-major weights takes wave widths from 64 columns up:
// C4-b32's first GEMM (M = 1568) on 13 x 10 tiles of 128 x 208 (13 x 8 of
// 128 x 256 before: 104 of 132 SMs), 1.03x faster in its chain on an H200.
// CHECK-LABEL: func.func @c4_b32_gemm1(
// CHECK: block = [128, 208, 64, 16], grid = [13, 10, 1, 1]
// OFF-LABEL: func.func @c4_b32_gemm1(
// OFF: block = [128, 256, 64, 16], grid = [13, 8, 1, 1]
func.func @c4_b32_gemm1(%a: tensor<1568x512xbf16>, %w: tensor<2048x512xbf16>) -> tensor<1568x2048xbf16> {
  %r = dsm.fused_chain gemm (%a, %w) : (tensor<1568x512xbf16>, tensor<2048x512xbf16>) -> tensor<1568x2048xbf16> {
  ^bb0(%x: tensor<1568x512xbf16>, %wt: tensor<2048x512xbf16>):
    %z = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<1568x2048xf32>
    %f = linalg.fill ins(%z : f32) outs(%e : tensor<1568x2048xf32>) -> tensor<1568x2048xf32>
    %mm = linalg.matmul indexing_maps = [#mk, #nk, #mn] ins(%x, %wt : tensor<1568x512xbf16>, tensor<2048x512xbf16>) outs(%f : tensor<1568x2048xf32>) -> tensor<1568x2048xf32>
    %eb = tensor.empty() : tensor<1568x2048xbf16>
    %t = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%mm : tensor<1568x2048xf32>) outs(%eb : tensor<1568x2048xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %v = arith.truncf %in : f32 to bf16
      linalg.yield %v : bf16
    } -> tensor<1568x2048xbf16>
    dsm.yield %t : tensor<1568x2048xbf16>
  }
  return %r : tensor<1568x2048xbf16>
}

// Not narrower than 64: G4's first GEMM at M = 128 (one m tile of 128
// would fill one wave with 24-wide tiles) keeps 64 x 64 tiles.
// CHECK-LABEL: func.func @g4_gemm1(
// CHECK: block = [64, 64, 64, 16], grid = [2, 48, 1, 1]
func.func @g4_gemm1(%a: tensor<128x768xbf16>, %w: tensor<3072x768xbf16>) -> tensor<128x3072xbf16> {
  %r = dsm.fused_chain gemm (%a, %w) : (tensor<128x768xbf16>, tensor<3072x768xbf16>) -> tensor<128x3072xbf16> {
  ^bb0(%x: tensor<128x768xbf16>, %wt: tensor<3072x768xbf16>):
    %z = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<128x3072xf32>
    %f = linalg.fill ins(%z : f32) outs(%e : tensor<128x3072xf32>) -> tensor<128x3072xf32>
    %mm = linalg.matmul indexing_maps = [#mk, #nk, #mn] ins(%x, %wt : tensor<128x768xbf16>, tensor<3072x768xbf16>) outs(%f : tensor<128x3072xf32>) -> tensor<128x3072xf32>
    %eb = tensor.empty() : tensor<128x3072xbf16>
    %t = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%mm : tensor<128x3072xf32>) outs(%eb : tensor<128x3072xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %v = arith.truncf %in : f32 to bf16
      linalg.yield %v : bf16
    } -> tensor<128x3072xbf16>
    dsm.yield %t : tensor<128x3072xbf16>
  }
  return %r : tensor<128x3072xbf16>
}

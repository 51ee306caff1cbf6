// RUN: ff-opt --dsm-fuse=report=true --split-input-file --verify-diagnostics %s | FileCheck %s

// Legality: every case here is left unfused, with a remark on each GEMM that
// says why. The IR must come out unchanged.


// The intermediate (the ReLU output) is also returned: the chain would have to
// yield it, which the DSM kernels do not do, so nothing is fused.
// CHECK-LABEL: func.func @escaping_intermediate
// CHECK-NOT:     dsm.fused_chain
// CHECK:         return
func.func @escaping_intermediate(%a: tensor<128x256xbf16>, %b: tensor<256x512xbf16>, %d: tensor<512x256xbf16>) -> (tensor<128x256xf32>, tensor<128x512xbf16>) {
  %cst = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<128x512xf32>
  %z0 = linalg.fill ins(%cst : f32) outs(%e0 : tensor<128x512xf32>) -> tensor<128x512xf32>
  // expected-remark @below {{GEMM not fused: an intermediate escapes the chain (used by 'func.return')}}
  %c = linalg.matmul ins(%a, %b : tensor<128x256xbf16>, tensor<256x512xbf16>) outs(%z0 : tensor<128x512xf32>) -> tensor<128x512xf32>
  %e1 = tensor.empty() : tensor<128x512xbf16>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%c : tensor<128x512xf32>) outs(%e1 : tensor<128x512xbf16>) {
  ^bb0(%x: f32, %o: bf16):
    %m = arith.maximumf %x, %cst : f32
    %t = arith.truncf %m : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<128x512xbf16>
  %e2 = tensor.empty() : tensor<128x256xf32>
  %z2 = linalg.fill ins(%cst : f32) outs(%e2 : tensor<128x256xf32>) -> tensor<128x256xf32>
  // expected-remark @below {{GEMM not fused: an intermediate escapes the chain (used by 'func.return')}}
  %o = linalg.matmul ins(%r, %d : tensor<128x512xbf16>, tensor<512x256xbf16>) outs(%z2 : tensor<128x256xf32>) -> tensor<128x256xf32>
  return %o, %r : tensor<128x256xf32>, tensor<128x512xbf16>
}

// -----

// A GEMM result consumed by two chains: it escapes each of them.
// CHECK-LABEL: func.func @shared_intermediate
// CHECK-NOT:     dsm.fused_chain
func.func @shared_intermediate(%a: tensor<128x256xbf16>, %b: tensor<256x512xbf16>, %d: tensor<512x256xbf16>) -> (tensor<128x256xf32>, tensor<128x256xf32>) {
  %cst = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<128x512xf32>
  %z0 = linalg.fill ins(%cst : f32) outs(%e0 : tensor<128x512xf32>) -> tensor<128x512xf32>
  // expected-remark @below {{GEMM not fused: an intermediate escapes the chain (used by 'linalg.generic')}}
  %c = linalg.matmul ins(%a, %b : tensor<128x256xbf16>, tensor<256x512xbf16>) outs(%z0 : tensor<128x512xf32>) -> tensor<128x512xf32>
  %e1 = tensor.empty() : tensor<128x512xbf16>
  %r1 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%c : tensor<128x512xf32>) outs(%e1 : tensor<128x512xbf16>) {
  ^bb0(%x: f32, %o: bf16):
    %t = arith.truncf %x : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<128x512xbf16>
  %r2 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%c : tensor<128x512xf32>) outs(%e1 : tensor<128x512xbf16>) {
  ^bb0(%x: f32, %o: bf16):
    %m = arith.maximumf %x, %cst : f32
    %t = arith.truncf %m : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<128x512xbf16>
  %e2 = tensor.empty() : tensor<128x256xf32>
  %z2 = linalg.fill ins(%cst : f32) outs(%e2 : tensor<128x256xf32>) -> tensor<128x256xf32>
  // expected-remark @below {{GEMM not fused: an intermediate escapes the chain (used by 'linalg.generic')}}
  %o1 = linalg.matmul ins(%r1, %d : tensor<128x512xbf16>, tensor<512x256xbf16>) outs(%z2 : tensor<128x256xf32>) -> tensor<128x256xf32>
  // expected-remark @below {{GEMM not fused: an intermediate escapes the chain (used by 'linalg.generic')}}
  %o2 = linalg.matmul ins(%r2, %d : tensor<128x512xbf16>, tensor<512x256xbf16>) outs(%z2 : tensor<128x256xf32>) -> tensor<128x256xf32>
  return %o1, %o2 : tensor<128x256xf32>, tensor<128x256xf32>
}

// -----

// int8 GEMMs (i8 x i8 -> i32) are not fused.
// CHECK-LABEL: func.func @int8_chain
// CHECK-NOT:     dsm.fused_chain
func.func @int8_chain(%a: tensor<128x256xi8>, %b: tensor<256x512xi8>, %d: tensor<512x256xi8>) -> tensor<128x256xi32> {
  %c0 = arith.constant 0 : i32
  %e0 = tensor.empty() : tensor<128x512xi32>
  %z0 = linalg.fill ins(%c0 : i32) outs(%e0 : tensor<128x512xi32>) -> tensor<128x512xi32>
  // expected-remark @below {{GEMM not fused: unsupported element types i8 x i8 -> i32 (supported: f16 or bf16 operands, f16/bf16/f32 result)}}
  %c = linalg.matmul ins(%a, %b : tensor<128x256xi8>, tensor<256x512xi8>) outs(%z0 : tensor<128x512xi32>) -> tensor<128x512xi32>
  %e1 = tensor.empty() : tensor<128x512xi8>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%c : tensor<128x512xi32>) outs(%e1 : tensor<128x512xi8>) {
  ^bb0(%x: i32, %o: i8):
    %t = arith.trunci %x : i32 to i8
    linalg.yield %t : i8
  } -> tensor<128x512xi8>
  %e2 = tensor.empty() : tensor<128x256xi32>
  %z2 = linalg.fill ins(%c0 : i32) outs(%e2 : tensor<128x256xi32>) -> tensor<128x256xi32>
  // expected-remark @below {{GEMM not fused: unsupported element types i8 x i8 -> i32}}
  %o = linalg.matmul ins(%r, %d : tensor<128x512xi8>, tensor<512x256xi8>) outs(%z2 : tensor<128x256xi32>) -> tensor<128x256xi32>
  return %o : tensor<128x256xi32>
}

// -----

// f64 GEMMs are not fused.
// CHECK-LABEL: func.func @f64_chain
// CHECK-NOT:     dsm.fused_chain
func.func @f64_chain(%a: tensor<128x256xf64>, %b: tensor<256x512xf64>, %d: tensor<512x256xf64>) -> tensor<128x256xf64> {
  %cst = arith.constant 0.0 : f64
  %e0 = tensor.empty() : tensor<128x512xf64>
  %z0 = linalg.fill ins(%cst : f64) outs(%e0 : tensor<128x512xf64>) -> tensor<128x512xf64>
  // expected-remark @below {{GEMM not fused: unsupported element types f64 x f64 -> f64}}
  %c = linalg.matmul ins(%a, %b : tensor<128x256xf64>, tensor<256x512xf64>) outs(%z0 : tensor<128x512xf64>) -> tensor<128x512xf64>
  %e1 = tensor.empty() : tensor<128x512xf64>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%c : tensor<128x512xf64>) outs(%e1 : tensor<128x512xf64>) {
  ^bb0(%x: f64, %o: f64):
    %m = arith.maximumf %x, %cst : f64
    linalg.yield %m : f64
  } -> tensor<128x512xf64>
  %e2 = tensor.empty() : tensor<128x256xf64>
  %z2 = linalg.fill ins(%cst : f64) outs(%e2 : tensor<128x256xf64>) -> tensor<128x256xf64>
  // expected-remark @below {{GEMM not fused: unsupported element types f64 x f64 -> f64}}
  %o = linalg.matmul ins(%r, %d : tensor<128x512xf64>, tensor<512x256xf64>) outs(%z2 : tensor<128x256xf64>) -> tensor<128x256xf64>
  return %o : tensor<128x256xf64>
}

// -----

// f32 operands are not fused either (the kernels take f16/bf16 operands; tf32
// would change the numerics silently).
// CHECK-LABEL: func.func @f32_chain
// CHECK-NOT:     dsm.fused_chain
func.func @f32_chain(%a: tensor<128x256xf32>, %b: tensor<256x512xf32>, %d: tensor<512x256xf32>) -> tensor<128x256xf32> {
  %cst = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<128x512xf32>
  %z0 = linalg.fill ins(%cst : f32) outs(%e0 : tensor<128x512xf32>) -> tensor<128x512xf32>
  // expected-remark @below {{GEMM not fused: unsupported element types f32 x f32 -> f32}}
  %c = linalg.matmul ins(%a, %b : tensor<128x256xf32>, tensor<256x512xf32>) outs(%z0 : tensor<128x512xf32>) -> tensor<128x512xf32>
  %e2 = tensor.empty() : tensor<128x256xf32>
  %z2 = linalg.fill ins(%cst : f32) outs(%e2 : tensor<128x256xf32>) -> tensor<128x256xf32>
  // expected-remark @below {{GEMM not fused: unsupported element types f32 x f32 -> f32}}
  %o = linalg.matmul ins(%c, %d : tensor<128x512xf32>, tensor<512x256xf32>) outs(%z2 : tensor<128x256xf32>) -> tensor<128x256xf32>
  return %o : tensor<128x256xf32>
}

// -----

// Dynamic N (the intermediate width) is not supported; M may be dynamic.
// CHECK-LABEL: func.func @dynamic_n
// CHECK-NOT:     dsm.fused_chain
func.func @dynamic_n(%a: tensor<128x256xbf16>, %b: tensor<256x?xbf16>, %d: tensor<?x256xbf16>, %z0: tensor<128x?xbf16>, %z2: tensor<128x256xbf16>) -> tensor<128x256xbf16> {
  // expected-remark @below {{GEMM not fused: dynamic N or K (only M may be dynamic)}}
  %c = linalg.matmul ins(%a, %b : tensor<128x256xbf16>, tensor<256x?xbf16>) outs(%z0 : tensor<128x?xbf16>) -> tensor<128x?xbf16>
  // expected-remark @below {{GEMM not fused: dynamic N or K (only M may be dynamic)}}
  %o = linalg.matmul ins(%c, %d : tensor<128x?xbf16>, tensor<?x256xbf16>) outs(%z2 : tensor<128x256xbf16>) -> tensor<128x256xbf16>
  return %o : tensor<128x256xbf16>
}

// -----

// Extents below min-dim (16 by default) are too small to benefit, and rows
// must be 16-byte aligned.
// CHECK-LABEL: func.func @too_small
// CHECK-NOT:     dsm.fused_chain
func.func @too_small(%a: tensor<128x8xbf16>, %b: tensor<8x512xbf16>, %d: tensor<512x256xbf16>, %z0: tensor<128x512xbf16>, %z2: tensor<128x256xbf16>) -> tensor<128x256xbf16> {
  // expected-remark @below {{GEMM not fused: K = 8 is below min-dim = 16 (too small to benefit)}}
  %c = linalg.matmul ins(%a, %b : tensor<128x8xbf16>, tensor<8x512xbf16>) outs(%z0 : tensor<128x512xbf16>) -> tensor<128x512xbf16>
  // expected-remark @below {{GEMM not fused: K = 8 is below min-dim = 16 (too small to benefit)}}
  %o = linalg.matmul ins(%c, %d : tensor<128x512xbf16>, tensor<512x256xbf16>) outs(%z2 : tensor<128x256xbf16>) -> tensor<128x256xbf16>
  return %o : tensor<128x256xbf16>
}

// -----

// CHECK-LABEL: func.func @unaligned
// CHECK-NOT:     dsm.fused_chain
func.func @unaligned(%a: tensor<128x256xbf16>, %b: tensor<256x100xbf16>, %d: tensor<100x256xbf16>, %z0: tensor<128x100xbf16>, %z2: tensor<128x256xbf16>) -> tensor<128x256xbf16> {
  // expected-remark @below {{GEMM not fused: N = 100 is not a multiple of 8 (rows must be 16-byte aligned)}}
  %c = linalg.matmul ins(%a, %b : tensor<128x256xbf16>, tensor<256x100xbf16>) outs(%z0 : tensor<128x100xbf16>) -> tensor<128x100xbf16>
  // expected-remark @below {{GEMM not fused: N = 100 is not a multiple of 8 (rows must be 16-byte aligned)}}
  %o = linalg.matmul ins(%c, %d : tensor<128x100xbf16>, tensor<100x256xbf16>) outs(%z2 : tensor<128x256xbf16>) -> tensor<128x256xbf16>
  return %o : tensor<128x256xbf16>
}

// -----

// A slice between the GEMMs is not elementwise (row reshapes are fine, see
// fuse-frontends.mlir).
// CHECK-LABEL: func.func @reshape_between
// CHECK-NOT:     dsm.fused_chain
func.func @reshape_between(%a: tensor<128x256xbf16>, %b: tensor<256x512xbf16>, %d: tensor<512x256xbf16>, %z0: tensor<128x512xbf16>, %z2: tensor<64x256xbf16>) -> tensor<64x256xbf16> {
  // expected-remark @below {{GEMM not fused: 'tensor.extract_slice' between this GEMM and another is not elementwise}}
  %c = linalg.matmul ins(%a, %b : tensor<128x256xbf16>, tensor<256x512xbf16>) outs(%z0 : tensor<128x512xbf16>) -> tensor<128x512xbf16>
  %x = tensor.expand_shape %c [[0, 1], [2]] output_shape [64, 2, 512] : tensor<128x512xbf16> into tensor<64x2x512xbf16>
  %s = tensor.extract_slice %x[0, 0, 0] [64, 1, 512] [1, 1, 1] : tensor<64x2x512xbf16> to tensor<64x1x512xbf16>
  %y = tensor.collapse_shape %s [[0, 1], [2]] : tensor<64x1x512xbf16> into tensor<64x512xbf16>
  // expected-remark @below {{GEMM not fused: 'tensor.extract_slice' between this GEMM and another is not elementwise}}
  %o = linalg.matmul ins(%y, %d : tensor<64x512xbf16>, tensor<512x256xbf16>) outs(%z2 : tensor<64x256xbf16>) -> tensor<64x256xbf16>
  return %o : tensor<64x256xbf16>
}

// -----

// A transpose of the intermediate between the GEMMs: the chain's rows would
// not line up.
// CHECK-LABEL: func.func @transposed_intermediate
// CHECK-NOT:     dsm.fused_chain
func.func @transposed_intermediate(%a: tensor<256x256xbf16>, %b: tensor<256x256xbf16>, %d: tensor<256x256xbf16>, %z: tensor<256x256xbf16>) -> tensor<256x256xbf16> {
  // expected-remark @below {{GEMM not fused: 'linalg.transpose' between the GEMMs broadcasts or transposes the intermediate}}
  %c = linalg.matmul ins(%a, %b : tensor<256x256xbf16>, tensor<256x256xbf16>) outs(%z : tensor<256x256xbf16>) -> tensor<256x256xbf16>
  %e = tensor.empty() : tensor<256x256xbf16>
  %t = linalg.transpose ins(%c : tensor<256x256xbf16>) outs(%e : tensor<256x256xbf16>) permutation = [1, 0]
  // expected-remark @below {{GEMM not fused: 'linalg.transpose' between the GEMMs broadcasts or transposes the intermediate}}
  %o = linalg.matmul ins(%t, %d : tensor<256x256xbf16>, tensor<256x256xbf16>) outs(%z : tensor<256x256xbf16>) -> tensor<256x256xbf16>
  return %o : tensor<256x256xbf16>
}

// -----

// The intermediate consumed as the second GEMM's RHS (E = D·C) is not a chain
// the kernels run: both GEMMs are lone.
// CHECK-LABEL: func.func @intermediate_as_rhs
// CHECK-NOT:     dsm.fused_chain
func.func @intermediate_as_rhs(%a: tensor<256x256xbf16>, %b: tensor<256x256xbf16>, %d: tensor<256x256xbf16>, %z: tensor<256x256xbf16>) -> tensor<256x256xbf16> {
  // expected-remark @below {{GEMM not fused: lone GEMM (no GEMM feeds or consumes it through elementwise ops)}}
  %c = linalg.matmul ins(%a, %b : tensor<256x256xbf16>, tensor<256x256xbf16>) outs(%z : tensor<256x256xbf16>) -> tensor<256x256xbf16>
  // expected-remark @below {{GEMM not fused: lone GEMM}}
  %o = linalg.matmul ins(%d, %c : tensor<256x256xbf16>, tensor<256x256xbf16>) outs(%z : tensor<256x256xbf16>) -> tensor<256x256xbf16>
  return %o : tensor<256x256xbf16>
}

// -----

// A transposed LHS (A stored [K, M]) cannot take the intermediate.
// CHECK-LABEL: func.func @transposed_lhs
// CHECK-NOT:     dsm.fused_chain
func.func @transposed_lhs(%a: tensor<256x128xbf16>, %b: tensor<256x512xbf16>, %d: tensor<512x256xbf16>, %z0: tensor<128x512xbf16>, %z2: tensor<128x256xbf16>) -> tensor<128x256xbf16> {
  // expected-remark @below {{GEMM not fused: LHS is not indexed row-major as [M, K]}}
  %c = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b : tensor<256x128xbf16>, tensor<256x512xbf16>) outs(%z0 : tensor<128x512xbf16>) -> tensor<128x512xbf16>
  // expected-remark @below {{GEMM not fused: LHS is not indexed row-major as [M, K]}}
  %o = linalg.matmul ins(%c, %d : tensor<128x512xbf16>, tensor<512x256xbf16>) outs(%z2 : tensor<128x256xbf16>) -> tensor<128x256xbf16>
  return %o : tensor<128x256xbf16>
}

// -----

// A lone GEMM is left alone.
// CHECK-LABEL: func.func @lone
// CHECK-NOT:     dsm.fused_chain
// CHECK:         linalg.matmul
func.func @lone(%a: tensor<128x256xbf16>, %b: tensor<256x512xbf16>, %z: tensor<128x512xf32>) -> tensor<128x512xf32> {
  // expected-remark @below {{GEMM not fused: lone GEMM (no GEMM feeds or consumes it through elementwise ops)}}
  %c = linalg.matmul ins(%a, %b : tensor<128x256xbf16>, tensor<256x512xbf16>) outs(%z : tensor<128x512xf32>) -> tensor<128x512xf32>
  return %c : tensor<128x512xf32>
}

// -----

// The intermediate feeds the second GEMM as both LHS and weights (C·C): the
// weights of a fused GEMM must come from outside.
// CHECK-LABEL: func.func @intermediate_as_weights
// CHECK-NOT:     dsm.fused_chain
func.func @intermediate_as_weights(%a: tensor<256x256xbf16>, %b: tensor<256x256xbf16>, %z: tensor<256x256xbf16>) -> tensor<256x256xbf16> {
  // expected-remark @below {{GEMM not fused: the intermediate feeds the weights operand of a GEMM}}
  %c = linalg.matmul ins(%a, %b : tensor<256x256xbf16>, tensor<256x256xbf16>) outs(%z : tensor<256x256xbf16>) -> tensor<256x256xbf16>
  // expected-remark @below {{GEMM not fused: the intermediate feeds the weights operand of a GEMM}}
  %o = linalg.matmul ins(%c, %c : tensor<256x256xbf16>, tensor<256x256xbf16>) outs(%z : tensor<256x256xbf16>) -> tensor<256x256xbf16>
  return %o : tensor<256x256xbf16>
}

// -----

// A reshape that splits the innermost dimension (heads) does not keep the
// intermediate's rows: not a chain.
// CHECK-LABEL: func.func @reshape_of_columns
// CHECK-NOT:     dsm.fused_chain
func.func @reshape_of_columns(%a: tensor<128x256xbf16>, %b: tensor<256x512xbf16>, %d: tensor<256x256xbf16>, %z0: tensor<128x512xbf16>, %z2: tensor<256x256xbf16>) -> tensor<256x256xbf16> {
  // expected-remark @below {{GEMM not fused: 'tensor.expand_shape' between this GEMM and another is not elementwise}}
  %c = linalg.matmul ins(%a, %b : tensor<128x256xbf16>, tensor<256x512xbf16>) outs(%z0 : tensor<128x512xbf16>) -> tensor<128x512xbf16>
  %x = tensor.expand_shape %c [[0], [1, 2]] output_shape [128, 2, 256] : tensor<128x512xbf16> into tensor<128x2x256xbf16>
  %y = tensor.collapse_shape %x [[0, 1], [2]] : tensor<128x2x256xbf16> into tensor<256x256xbf16>
  // expected-remark @below {{GEMM not fused: 'tensor.expand_shape' between this GEMM and another is not elementwise}}
  %o = linalg.matmul ins(%y, %d : tensor<256x256xbf16>, tensor<256x256xbf16>) outs(%z2 : tensor<256x256xbf16>) -> tensor<256x256xbf16>
  return %o : tensor<256x256xbf16>
}

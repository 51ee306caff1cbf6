// Element types the kernels do not take: f64, mixed bf16/f16, f16 (fused and
// searched, but only bf16 x bf16 -> f32 is lowered).
// Each gives a diagnostic with a location and a non-zero exit; none crashes.
//
// RUN: not ff-opt %s --split-input-file --dsm-fuse --dsm-search --lower-to-nvvm -o /dev/null 2>&1 | FileCheck %s
// RUN: ff-opt %s --split-input-file --dsm-fuse=report=true -o /dev/null 2>&1 | FileCheck %s --check-prefix=REPORT

// f64 operands.
// CHECK: element-types.mlir:[[# @LINE + 10]]:8: error: 'linalg.matmul' outside a dsm.fused_chain cannot be lowered (--dsm-fuse=report=true says why it was not fused)
func.func @f64(%a: tensor<128x768xf64>, %b: tensor<768x3072xf64>, %d: tensor<3072x768xf64>) -> tensor<128x768xf64> {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = tensor.dim %a, %c0 : tensor<128x768xf64>
  %n = tensor.dim %b, %c1 : tensor<768x3072xf64>
  %l = tensor.dim %d, %c1 : tensor<3072x768xf64>
  %ce = tensor.empty() : tensor<128x3072xf32>
  %cf = linalg.fill ins(%zero : f32) outs(%ce : tensor<128x3072xf32>) -> tensor<128x3072xf32>
  %c = linalg.matmul ins(%a, %b : tensor<128x768xf64>, tensor<768x3072xf64>) outs(%cf : tensor<128x3072xf32>) -> tensor<128x3072xf32>
  %he = tensor.empty() : tensor<128x3072xf64>
  %h = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%c : tensor<128x3072xf32>) outs(%he : tensor<128x3072xf64>) {
  ^bb0(%v: f32, %o: f64):
    %t = arith.extf %v : f32 to f64
    linalg.yield %t : f64
  } -> tensor<128x3072xf64>
  %ee = tensor.empty() : tensor<128x768xf32>
  %ef = linalg.fill ins(%zero : f32) outs(%ee : tensor<128x768xf32>) -> tensor<128x768xf32>
  %eo = linalg.matmul ins(%h, %d : tensor<128x3072xf64>, tensor<3072x768xf64>) outs(%ef : tensor<128x768xf32>) -> tensor<128x768xf32>
  %oe = tensor.empty() : tensor<128x768xf64>
  %o = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%eo : tensor<128x768xf32>) outs(%oe : tensor<128x768xf64>) {
  ^bb0(%v: f32, %o2: f64):
    %t = arith.extf %v : f32 to f64
    linalg.yield %t : f64
  } -> tensor<128x768xf64>
  return %o : tensor<128x768xf64>
}

// -----

// bf16 first GEMM, f16 second.
// CHECK: element-types.mlir:[[# @LINE + 10]]:8: error: 'dsm.fused_chain' op schedule cannot be lowered: only bf16 x bf16 -> f32 matmuls are lowered
func.func @mixed(%a: tensor<128x768xbf16>, %b: tensor<768x3072xbf16>, %d: tensor<3072x768xf16>) -> tensor<128x768xf16> {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = tensor.dim %a, %c0 : tensor<128x768xbf16>
  %n = tensor.dim %b, %c1 : tensor<768x3072xbf16>
  %l = tensor.dim %d, %c1 : tensor<3072x768xf16>
  %ce = tensor.empty() : tensor<128x3072xf32>
  %cf = linalg.fill ins(%zero : f32) outs(%ce : tensor<128x3072xf32>) -> tensor<128x3072xf32>
  %c = linalg.matmul ins(%a, %b : tensor<128x768xbf16>, tensor<768x3072xbf16>) outs(%cf : tensor<128x3072xf32>) -> tensor<128x3072xf32>
  %he = tensor.empty() : tensor<128x3072xf16>
  %h = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%c : tensor<128x3072xf32>) outs(%he : tensor<128x3072xf16>) {
  ^bb0(%v: f32, %o: f16):
    %t = arith.truncf %v : f32 to f16
    linalg.yield %t : f16
  } -> tensor<128x3072xf16>
  %ee = tensor.empty() : tensor<128x768xf32>
  %ef = linalg.fill ins(%zero : f32) outs(%ee : tensor<128x768xf32>) -> tensor<128x768xf32>
  %eo = linalg.matmul ins(%h, %d : tensor<128x3072xf16>, tensor<3072x768xf16>) outs(%ef : tensor<128x768xf32>) -> tensor<128x768xf32>
  %oe = tensor.empty() : tensor<128x768xf16>
  %o = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%eo : tensor<128x768xf32>) outs(%oe : tensor<128x768xf16>) {
  ^bb0(%v: f32, %o2: f16):
    %t = arith.truncf %v : f32 to f16
    linalg.yield %t : f16
  } -> tensor<128x768xf16>
  return %o : tensor<128x768xf16>
}

// -----

// f16.
// CHECK: element-types.mlir:[[# @LINE + 10]]:8: error: 'dsm.fused_chain' op schedule cannot be lowered: only bf16 x bf16 -> f32 matmuls are lowered
func.func @f16(%a: tensor<128x768xf16>, %b: tensor<768x3072xf16>, %d: tensor<3072x768xf16>) -> tensor<128x768xf16> {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = tensor.dim %a, %c0 : tensor<128x768xf16>
  %n = tensor.dim %b, %c1 : tensor<768x3072xf16>
  %l = tensor.dim %d, %c1 : tensor<3072x768xf16>
  %ce = tensor.empty() : tensor<128x3072xf32>
  %cf = linalg.fill ins(%zero : f32) outs(%ce : tensor<128x3072xf32>) -> tensor<128x3072xf32>
  %c = linalg.matmul ins(%a, %b : tensor<128x768xf16>, tensor<768x3072xf16>) outs(%cf : tensor<128x3072xf32>) -> tensor<128x3072xf32>
  %he = tensor.empty() : tensor<128x3072xf16>
  %h = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%c : tensor<128x3072xf32>) outs(%he : tensor<128x3072xf16>) {
  ^bb0(%v: f32, %o: f16):
    %t = arith.truncf %v : f32 to f16
    linalg.yield %t : f16
  } -> tensor<128x3072xf16>
  %ee = tensor.empty() : tensor<128x768xf32>
  %ef = linalg.fill ins(%zero : f32) outs(%ee : tensor<128x768xf32>) -> tensor<128x768xf32>
  %eo = linalg.matmul ins(%h, %d : tensor<128x3072xf16>, tensor<3072x768xf16>) outs(%ef : tensor<128x768xf32>) -> tensor<128x768xf32>
  %oe = tensor.empty() : tensor<128x768xf16>
  %o = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%eo : tensor<128x768xf32>) outs(%oe : tensor<128x768xf16>) {
  ^bb0(%v: f32, %o2: f16):
    %t = arith.truncf %v : f32 to f16
    linalg.yield %t : f16
  } -> tensor<128x768xf16>
  return %o : tensor<128x768xf16>
}

// -----

// f16, dynamic M.
// CHECK: element-types.mlir:[[# @LINE + 10]]:8: error: 'dsm.fused_chain' op schedule cannot be lowered: only bf16 x bf16 -> f32 matmuls are lowered
func.func @f16_dyn(%a: tensor<?x768xf16>, %b: tensor<768x3072xf16>, %d: tensor<3072x768xf16>) -> tensor<?x768xf16> {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = tensor.dim %a, %c0 : tensor<?x768xf16>
  %n = tensor.dim %b, %c1 : tensor<768x3072xf16>
  %l = tensor.dim %d, %c1 : tensor<3072x768xf16>
  %ce = tensor.empty(%m) : tensor<?x3072xf32>
  %cf = linalg.fill ins(%zero : f32) outs(%ce : tensor<?x3072xf32>) -> tensor<?x3072xf32>
  %c = linalg.matmul ins(%a, %b : tensor<?x768xf16>, tensor<768x3072xf16>) outs(%cf : tensor<?x3072xf32>) -> tensor<?x3072xf32>
  %he = tensor.empty(%m) : tensor<?x3072xf16>
  %h = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%c : tensor<?x3072xf32>) outs(%he : tensor<?x3072xf16>) {
  ^bb0(%v: f32, %o: f16):
    %t = arith.truncf %v : f32 to f16
    linalg.yield %t : f16
  } -> tensor<?x3072xf16>
  %ee = tensor.empty(%m) : tensor<?x768xf32>
  %ef = linalg.fill ins(%zero : f32) outs(%ee : tensor<?x768xf32>) -> tensor<?x768xf32>
  %eo = linalg.matmul ins(%h, %d : tensor<?x3072xf16>, tensor<3072x768xf16>) outs(%ef : tensor<?x768xf32>) -> tensor<?x768xf32>
  %oe = tensor.empty(%m) : tensor<?x768xf16>
  %o = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%eo : tensor<?x768xf32>) outs(%oe : tensor<?x768xf16>) {
  ^bb0(%v: f32, %o2: f16):
    %t = arith.truncf %v : f32 to f16
    linalg.yield %t : f16
  } -> tensor<?x768xf16>
  return %o : tensor<?x768xf16>
}

// What --dsm-fuse reports for the GEMMs it leaves alone:
// REPORT: element-types.mlir:19:8: remark: GEMM not fused: unsupported element types f64 x f64 -> f32 (supported: f16 or bf16 operands, f16/bf16/f32 result)
// REPORT: element-types.mlir:28:9: remark: GEMM not fused: unsupported element types f64 x f64 -> f32 (supported: f16 or bf16 operands, f16/bf16/f32 result)

// -----

// i8 operands with an i32 accumulator: refused by --dsm-fuse, refused by the
// lowering.
// CHECK: element-types.mlir:[[# @LINE + 5]]:8: error: 'linalg.matmul' outside a dsm.fused_chain cannot be lowered
func.func @i8(%a: tensor<128x768xi8>, %b: tensor<768x3072xi8>) -> tensor<128x3072xi32> {
  %zero = arith.constant 0 : i32
  %ce = tensor.empty() : tensor<128x3072xi32>
  %cf = linalg.fill ins(%zero : i32) outs(%ce : tensor<128x3072xi32>) -> tensor<128x3072xi32>
  %c = linalg.matmul ins(%a, %b : tensor<128x768xi8>, tensor<768x3072xi8>) outs(%cf : tensor<128x3072xi32>) -> tensor<128x3072xi32>
  return %c : tensor<128x3072xi32>
}
// REPORT: element-types.mlir:[[# @LINE - 3]]:8: remark: GEMM not fused: unsupported element types i8 x i8 -> i32

// Dynamic N, K or L: only M may be dynamic.
// Each gives a diagnostic with a location and a non-zero exit; none crashes.
//
// RUN: not ff-opt %s --split-input-file --dsm-fuse --dsm-search --lower-to-nvvm -o /dev/null 2>&1 | FileCheck %s
// RUN: ff-opt %s --split-input-file --dsm-fuse=report=true -o /dev/null 2>&1 | FileCheck %s --check-prefix=REPORT

// Dynamic N.
// CHECK: dynamic.mlir:[[# @LINE + 10]]:8: error: 'linalg.matmul' outside a dsm.fused_chain cannot be lowered (--dsm-fuse=report=true says why it was not fused)
func.func @dyn_n(%a: tensor<128x768xbf16>, %b: tensor<768x?xbf16>, %d: tensor<?x768xbf16>) -> tensor<128x768xbf16> {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = tensor.dim %a, %c0 : tensor<128x768xbf16>
  %n = tensor.dim %b, %c1 : tensor<768x?xbf16>
  %l = tensor.dim %d, %c1 : tensor<?x768xbf16>
  %ce = tensor.empty(%n) : tensor<128x?xf32>
  %cf = linalg.fill ins(%zero : f32) outs(%ce : tensor<128x?xf32>) -> tensor<128x?xf32>
  %c = linalg.matmul ins(%a, %b : tensor<128x768xbf16>, tensor<768x?xbf16>) outs(%cf : tensor<128x?xf32>) -> tensor<128x?xf32>
  %he = tensor.empty(%n) : tensor<128x?xbf16>
  %h = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%c : tensor<128x?xf32>) outs(%he : tensor<128x?xbf16>) {
  ^bb0(%v: f32, %o: bf16):
    %t = arith.truncf %v : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<128x?xbf16>
  %ee = tensor.empty() : tensor<128x768xf32>
  %ef = linalg.fill ins(%zero : f32) outs(%ee : tensor<128x768xf32>) -> tensor<128x768xf32>
  %eo = linalg.matmul ins(%h, %d : tensor<128x?xbf16>, tensor<?x768xbf16>) outs(%ef : tensor<128x768xf32>) -> tensor<128x768xf32>
  %oe = tensor.empty() : tensor<128x768xbf16>
  %o = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%eo : tensor<128x768xf32>) outs(%oe : tensor<128x768xbf16>) {
  ^bb0(%v: f32, %o2: bf16):
    %t = arith.truncf %v : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<128x768xbf16>
  return %o : tensor<128x768xbf16>
}

// -----

// Dynamic K.
// CHECK: dynamic.mlir:[[# @LINE + 10]]:8: error: 'linalg.matmul' outside a dsm.fused_chain cannot be lowered (--dsm-fuse=report=true says why it was not fused)
func.func @dyn_k(%a: tensor<128x?xbf16>, %b: tensor<?x3072xbf16>, %d: tensor<3072x768xbf16>) -> tensor<128x768xbf16> {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = tensor.dim %a, %c0 : tensor<128x?xbf16>
  %n = tensor.dim %b, %c1 : tensor<?x3072xbf16>
  %l = tensor.dim %d, %c1 : tensor<3072x768xbf16>
  %ce = tensor.empty() : tensor<128x3072xf32>
  %cf = linalg.fill ins(%zero : f32) outs(%ce : tensor<128x3072xf32>) -> tensor<128x3072xf32>
  %c = linalg.matmul ins(%a, %b : tensor<128x?xbf16>, tensor<?x3072xbf16>) outs(%cf : tensor<128x3072xf32>) -> tensor<128x3072xf32>
  %he = tensor.empty() : tensor<128x3072xbf16>
  %h = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%c : tensor<128x3072xf32>) outs(%he : tensor<128x3072xbf16>) {
  ^bb0(%v: f32, %o: bf16):
    %t = arith.truncf %v : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<128x3072xbf16>
  %ee = tensor.empty() : tensor<128x768xf32>
  %ef = linalg.fill ins(%zero : f32) outs(%ee : tensor<128x768xf32>) -> tensor<128x768xf32>
  %eo = linalg.matmul ins(%h, %d : tensor<128x3072xbf16>, tensor<3072x768xbf16>) outs(%ef : tensor<128x768xf32>) -> tensor<128x768xf32>
  %oe = tensor.empty() : tensor<128x768xbf16>
  %o = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%eo : tensor<128x768xf32>) outs(%oe : tensor<128x768xbf16>) {
  ^bb0(%v: f32, %o2: bf16):
    %t = arith.truncf %v : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<128x768xbf16>
  return %o : tensor<128x768xbf16>
}

// -----

// Dynamic L.
// CHECK: dynamic.mlir:[[# @LINE + 10]]:8: error: 'linalg.matmul' outside a dsm.fused_chain cannot be lowered (--dsm-fuse=report=true says why it was not fused)
func.func @dyn_l(%a: tensor<128x768xbf16>, %b: tensor<768x3072xbf16>, %d: tensor<3072x?xbf16>) -> tensor<128x?xbf16> {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = tensor.dim %a, %c0 : tensor<128x768xbf16>
  %n = tensor.dim %b, %c1 : tensor<768x3072xbf16>
  %l = tensor.dim %d, %c1 : tensor<3072x?xbf16>
  %ce = tensor.empty() : tensor<128x3072xf32>
  %cf = linalg.fill ins(%zero : f32) outs(%ce : tensor<128x3072xf32>) -> tensor<128x3072xf32>
  %c = linalg.matmul ins(%a, %b : tensor<128x768xbf16>, tensor<768x3072xbf16>) outs(%cf : tensor<128x3072xf32>) -> tensor<128x3072xf32>
  %he = tensor.empty() : tensor<128x3072xbf16>
  %h = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%c : tensor<128x3072xf32>) outs(%he : tensor<128x3072xbf16>) {
  ^bb0(%v: f32, %o: bf16):
    %t = arith.truncf %v : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<128x3072xbf16>
  %ee = tensor.empty(%l) : tensor<128x?xf32>
  %ef = linalg.fill ins(%zero : f32) outs(%ee : tensor<128x?xf32>) -> tensor<128x?xf32>
  %eo = linalg.matmul ins(%h, %d : tensor<128x3072xbf16>, tensor<3072x?xbf16>) outs(%ef : tensor<128x?xf32>) -> tensor<128x?xf32>
  %oe = tensor.empty(%l) : tensor<128x?xbf16>
  %o = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%eo : tensor<128x?xf32>) outs(%oe : tensor<128x?xbf16>) {
  ^bb0(%v: f32, %o2: bf16):
    %t = arith.truncf %v : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<128x?xbf16>
  return %o : tensor<128x?xbf16>
}

// -----

// Everything dynamic.
// CHECK: dynamic.mlir:[[# @LINE + 10]]:8: error: 'linalg.matmul' outside a dsm.fused_chain cannot be lowered (--dsm-fuse=report=true says why it was not fused)
func.func @dyn_all(%a: tensor<?x?xbf16>, %b: tensor<?x?xbf16>, %d: tensor<?x?xbf16>) -> tensor<?x?xbf16> {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = tensor.dim %a, %c0 : tensor<?x?xbf16>
  %n = tensor.dim %b, %c1 : tensor<?x?xbf16>
  %l = tensor.dim %d, %c1 : tensor<?x?xbf16>
  %ce = tensor.empty(%m, %n) : tensor<?x?xf32>
  %cf = linalg.fill ins(%zero : f32) outs(%ce : tensor<?x?xf32>) -> tensor<?x?xf32>
  %c = linalg.matmul ins(%a, %b : tensor<?x?xbf16>, tensor<?x?xbf16>) outs(%cf : tensor<?x?xf32>) -> tensor<?x?xf32>
  %he = tensor.empty(%m, %n) : tensor<?x?xbf16>
  %h = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%c : tensor<?x?xf32>) outs(%he : tensor<?x?xbf16>) {
  ^bb0(%v: f32, %o: bf16):
    %t = arith.truncf %v : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<?x?xbf16>
  %ee = tensor.empty(%m, %l) : tensor<?x?xf32>
  %ef = linalg.fill ins(%zero : f32) outs(%ee : tensor<?x?xf32>) -> tensor<?x?xf32>
  %eo = linalg.matmul ins(%h, %d : tensor<?x?xbf16>, tensor<?x?xbf16>) outs(%ef : tensor<?x?xf32>) -> tensor<?x?xf32>
  %oe = tensor.empty(%m, %l) : tensor<?x?xbf16>
  %o = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%eo : tensor<?x?xf32>) outs(%oe : tensor<?x?xbf16>) {
  ^bb0(%v: f32, %o2: bf16):
    %t = arith.truncf %v : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<?x?xbf16>
  return %o : tensor<?x?xbf16>
}

// What --dsm-fuse reports for the GEMMs it leaves alone:
// REPORT: dynamic.mlir:18:8: remark: GEMM not fused: dynamic N or K (only M may be dynamic)
// REPORT: dynamic.mlir:27:9: remark: GEMM not fused: dynamic N or K (only M may be dynamic)
// REPORT: dynamic.mlir:50:8: remark: GEMM not fused: dynamic N or K (only M may be dynamic)
// REPORT: dynamic.mlir:59:9: remark: GEMM not fused: dynamic N or K (only M may be dynamic)
// REPORT: dynamic.mlir:82:8: remark: GEMM not fused: dynamic N or K (only M may be dynamic)
// REPORT: dynamic.mlir:91:9: remark: GEMM not fused: dynamic N or K (only M may be dynamic)
// REPORT: dynamic.mlir:114:8: remark: GEMM not fused: dynamic N or K (only M may be dynamic)
// REPORT: dynamic.mlir:123:9: remark: GEMM not fused: dynamic N or K (only M may be dynamic)

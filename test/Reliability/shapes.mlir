// Shapes the kernels cannot take: N/K/L that are not multiples of 8 or below
// min-dim (GEMMs --dsm-fuse refuses, so linalg reaches the lowering), empty
// and enormous (2^40, 2^31) extents.
// Each gives a diagnostic with a location and a non-zero exit; none crashes.
//
// RUN: not ff-opt %s --split-input-file --dsm-fuse --dsm-search --lower-to-nvvm -o /dev/null 2>&1 | FileCheck %s
// RUN: ff-opt %s --split-input-file --dsm-fuse=report=true -o /dev/null 2>&1 | FileCheck %s --check-prefix=REPORT

// N = 17 (prime): not 16-byte aligned rows.
// CHECK: shapes.mlir:[[# @LINE + 10]]:8: error: 'linalg.matmul' outside a dsm.fused_chain cannot be lowered (--dsm-fuse=report=true says why it was not fused)
func.func @n17(%a: tensor<128x768xbf16>, %b: tensor<768x17xbf16>, %d: tensor<17x768xbf16>) -> tensor<128x768xbf16> {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = tensor.dim %a, %c0 : tensor<128x768xbf16>
  %n = tensor.dim %b, %c1 : tensor<768x17xbf16>
  %l = tensor.dim %d, %c1 : tensor<17x768xbf16>
  %ce = tensor.empty() : tensor<128x17xf32>
  %cf = linalg.fill ins(%zero : f32) outs(%ce : tensor<128x17xf32>) -> tensor<128x17xf32>
  %c = linalg.matmul ins(%a, %b : tensor<128x768xbf16>, tensor<768x17xbf16>) outs(%cf : tensor<128x17xf32>) -> tensor<128x17xf32>
  %he = tensor.empty() : tensor<128x17xbf16>
  %h = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%c : tensor<128x17xf32>) outs(%he : tensor<128x17xbf16>) {
  ^bb0(%v: f32, %o: bf16):
    %t = arith.truncf %v : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<128x17xbf16>
  %ee = tensor.empty() : tensor<128x768xf32>
  %ef = linalg.fill ins(%zero : f32) outs(%ee : tensor<128x768xf32>) -> tensor<128x768xf32>
  %eo = linalg.matmul ins(%h, %d : tensor<128x17xbf16>, tensor<17x768xbf16>) outs(%ef : tensor<128x768xf32>) -> tensor<128x768xf32>
  %oe = tensor.empty() : tensor<128x768xbf16>
  %o = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%eo : tensor<128x768xf32>) outs(%oe : tensor<128x768xbf16>) {
  ^bb0(%v: f32, %o2: bf16):
    %t = arith.truncf %v : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<128x768xbf16>
  return %o : tensor<128x768xbf16>
}

// -----

// K = 7.
// CHECK: shapes.mlir:[[# @LINE + 10]]:8: error: 'linalg.matmul' outside a dsm.fused_chain cannot be lowered (--dsm-fuse=report=true says why it was not fused)
func.func @k7(%a: tensor<128x7xbf16>, %b: tensor<7x3072xbf16>, %d: tensor<3072x768xbf16>) -> tensor<128x768xbf16> {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = tensor.dim %a, %c0 : tensor<128x7xbf16>
  %n = tensor.dim %b, %c1 : tensor<7x3072xbf16>
  %l = tensor.dim %d, %c1 : tensor<3072x768xbf16>
  %ce = tensor.empty() : tensor<128x3072xf32>
  %cf = linalg.fill ins(%zero : f32) outs(%ce : tensor<128x3072xf32>) -> tensor<128x3072xf32>
  %c = linalg.matmul ins(%a, %b : tensor<128x7xbf16>, tensor<7x3072xbf16>) outs(%cf : tensor<128x3072xf32>) -> tensor<128x3072xf32>
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

// L = 5.
// CHECK: shapes.mlir:[[# @LINE + 10]]:8: error: 'linalg.matmul' outside a dsm.fused_chain cannot be lowered (--dsm-fuse=report=true says why it was not fused)
func.func @l5(%a: tensor<128x768xbf16>, %b: tensor<768x3072xbf16>, %d: tensor<3072x5xbf16>) -> tensor<128x5xbf16> {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = tensor.dim %a, %c0 : tensor<128x768xbf16>
  %n = tensor.dim %b, %c1 : tensor<768x3072xbf16>
  %l = tensor.dim %d, %c1 : tensor<3072x5xbf16>
  %ce = tensor.empty() : tensor<128x3072xf32>
  %cf = linalg.fill ins(%zero : f32) outs(%ce : tensor<128x3072xf32>) -> tensor<128x3072xf32>
  %c = linalg.matmul ins(%a, %b : tensor<128x768xbf16>, tensor<768x3072xbf16>) outs(%cf : tensor<128x3072xf32>) -> tensor<128x3072xf32>
  %he = tensor.empty() : tensor<128x3072xbf16>
  %h = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%c : tensor<128x3072xf32>) outs(%he : tensor<128x3072xbf16>) {
  ^bb0(%v: f32, %o: bf16):
    %t = arith.truncf %v : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<128x3072xbf16>
  %ee = tensor.empty() : tensor<128x5xf32>
  %ef = linalg.fill ins(%zero : f32) outs(%ee : tensor<128x5xf32>) -> tensor<128x5xf32>
  %eo = linalg.matmul ins(%h, %d : tensor<128x3072xbf16>, tensor<3072x5xbf16>) outs(%ef : tensor<128x5xf32>) -> tensor<128x5xf32>
  %oe = tensor.empty() : tensor<128x5xbf16>
  %o = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%eo : tensor<128x5xf32>) outs(%oe : tensor<128x5xbf16>) {
  ^bb0(%v: f32, %o2: bf16):
    %t = arith.truncf %v : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<128x5xbf16>
  return %o : tensor<128x5xbf16>
}

// -----

// Every extent 1.
// CHECK: shapes.mlir:[[# @LINE + 10]]:8: error: 'linalg.matmul' outside a dsm.fused_chain cannot be lowered (--dsm-fuse=report=true says why it was not fused)
func.func @tiny(%a: tensor<1x1xbf16>, %b: tensor<1x1xbf16>, %d: tensor<1x1xbf16>) -> tensor<1x1xbf16> {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = tensor.dim %a, %c0 : tensor<1x1xbf16>
  %n = tensor.dim %b, %c1 : tensor<1x1xbf16>
  %l = tensor.dim %d, %c1 : tensor<1x1xbf16>
  %ce = tensor.empty() : tensor<1x1xf32>
  %cf = linalg.fill ins(%zero : f32) outs(%ce : tensor<1x1xf32>) -> tensor<1x1xf32>
  %c = linalg.matmul ins(%a, %b : tensor<1x1xbf16>, tensor<1x1xbf16>) outs(%cf : tensor<1x1xf32>) -> tensor<1x1xf32>
  %he = tensor.empty() : tensor<1x1xbf16>
  %h = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%c : tensor<1x1xf32>) outs(%he : tensor<1x1xbf16>) {
  ^bb0(%v: f32, %o: bf16):
    %t = arith.truncf %v : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<1x1xbf16>
  %ee = tensor.empty() : tensor<1x1xf32>
  %ef = linalg.fill ins(%zero : f32) outs(%ee : tensor<1x1xf32>) -> tensor<1x1xf32>
  %eo = linalg.matmul ins(%h, %d : tensor<1x1xbf16>, tensor<1x1xbf16>) outs(%ef : tensor<1x1xf32>) -> tensor<1x1xf32>
  %oe = tensor.empty() : tensor<1x1xbf16>
  %o = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%eo : tensor<1x1xf32>) outs(%oe : tensor<1x1xbf16>) {
  ^bb0(%v: f32, %o2: bf16):
    %t = arith.truncf %v : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<1x1xbf16>
  return %o : tensor<1x1xbf16>
}

// -----

// Prime extents.
// CHECK: shapes.mlir:[[# @LINE + 10]]:8: error: 'linalg.matmul' outside a dsm.fused_chain cannot be lowered (--dsm-fuse=report=true says why it was not fused)
func.func @prime(%a: tensor<127x131xbf16>, %b: tensor<131x137xbf16>, %d: tensor<137x139xbf16>) -> tensor<127x139xbf16> {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = tensor.dim %a, %c0 : tensor<127x131xbf16>
  %n = tensor.dim %b, %c1 : tensor<131x137xbf16>
  %l = tensor.dim %d, %c1 : tensor<137x139xbf16>
  %ce = tensor.empty() : tensor<127x137xf32>
  %cf = linalg.fill ins(%zero : f32) outs(%ce : tensor<127x137xf32>) -> tensor<127x137xf32>
  %c = linalg.matmul ins(%a, %b : tensor<127x131xbf16>, tensor<131x137xbf16>) outs(%cf : tensor<127x137xf32>) -> tensor<127x137xf32>
  %he = tensor.empty() : tensor<127x137xbf16>
  %h = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%c : tensor<127x137xf32>) outs(%he : tensor<127x137xbf16>) {
  ^bb0(%v: f32, %o: bf16):
    %t = arith.truncf %v : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<127x137xbf16>
  %ee = tensor.empty() : tensor<127x139xf32>
  %ef = linalg.fill ins(%zero : f32) outs(%ee : tensor<127x139xf32>) -> tensor<127x139xf32>
  %eo = linalg.matmul ins(%h, %d : tensor<127x137xbf16>, tensor<137x139xbf16>) outs(%ef : tensor<127x139xf32>) -> tensor<127x139xf32>
  %oe = tensor.empty() : tensor<127x139xbf16>
  %o = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%eo : tensor<127x139xf32>) outs(%oe : tensor<127x139xbf16>) {
  ^bb0(%v: f32, %o2: bf16):
    %t = arith.truncf %v : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<127x139xbf16>
  return %o : tensor<127x139xbf16>
}

// -----

// M = 0: fused, refused by the search.
// CHECK: shapes.mlir:[[# @LINE + 10]]:8: error: 'dsm.fused_chain' op expected a positive M extent, got 0
func.func @zero_m(%a: tensor<0x768xbf16>, %b: tensor<768x3072xbf16>, %d: tensor<3072x768xbf16>) -> tensor<0x768xbf16> {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = tensor.dim %a, %c0 : tensor<0x768xbf16>
  %n = tensor.dim %b, %c1 : tensor<768x3072xbf16>
  %l = tensor.dim %d, %c1 : tensor<3072x768xbf16>
  %ce = tensor.empty() : tensor<0x3072xf32>
  %cf = linalg.fill ins(%zero : f32) outs(%ce : tensor<0x3072xf32>) -> tensor<0x3072xf32>
  %c = linalg.matmul ins(%a, %b : tensor<0x768xbf16>, tensor<768x3072xbf16>) outs(%cf : tensor<0x3072xf32>) -> tensor<0x3072xf32>
  %he = tensor.empty() : tensor<0x3072xbf16>
  %h = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%c : tensor<0x3072xf32>) outs(%he : tensor<0x3072xbf16>) {
  ^bb0(%v: f32, %o: bf16):
    %t = arith.truncf %v : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<0x3072xbf16>
  %ee = tensor.empty() : tensor<0x768xf32>
  %ef = linalg.fill ins(%zero : f32) outs(%ee : tensor<0x768xf32>) -> tensor<0x768xf32>
  %eo = linalg.matmul ins(%h, %d : tensor<0x3072xbf16>, tensor<3072x768xbf16>) outs(%ef : tensor<0x768xf32>) -> tensor<0x768xf32>
  %oe = tensor.empty() : tensor<0x768xbf16>
  %o = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%eo : tensor<0x768xf32>) outs(%oe : tensor<0x768xbf16>) {
  ^bb0(%v: f32, %o2: bf16):
    %t = arith.truncf %v : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<0x768xbf16>
  return %o : tensor<0x768xbf16>
}

// -----

// N = 0.
// CHECK: shapes.mlir:[[# @LINE + 10]]:8: error: 'linalg.matmul' outside a dsm.fused_chain cannot be lowered (--dsm-fuse=report=true says why it was not fused)
func.func @zero_n(%a: tensor<128x768xbf16>, %b: tensor<768x0xbf16>, %d: tensor<0x768xbf16>) -> tensor<128x768xbf16> {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = tensor.dim %a, %c0 : tensor<128x768xbf16>
  %n = tensor.dim %b, %c1 : tensor<768x0xbf16>
  %l = tensor.dim %d, %c1 : tensor<0x768xbf16>
  %ce = tensor.empty() : tensor<128x0xf32>
  %cf = linalg.fill ins(%zero : f32) outs(%ce : tensor<128x0xf32>) -> tensor<128x0xf32>
  %c = linalg.matmul ins(%a, %b : tensor<128x768xbf16>, tensor<768x0xbf16>) outs(%cf : tensor<128x0xf32>) -> tensor<128x0xf32>
  %he = tensor.empty() : tensor<128x0xbf16>
  %h = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%c : tensor<128x0xf32>) outs(%he : tensor<128x0xbf16>) {
  ^bb0(%v: f32, %o: bf16):
    %t = arith.truncf %v : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<128x0xbf16>
  %ee = tensor.empty() : tensor<128x768xf32>
  %ef = linalg.fill ins(%zero : f32) outs(%ee : tensor<128x768xf32>) -> tensor<128x768xf32>
  %eo = linalg.matmul ins(%h, %d : tensor<128x0xbf16>, tensor<0x768xbf16>) outs(%ef : tensor<128x768xf32>) -> tensor<128x768xf32>
  %oe = tensor.empty() : tensor<128x768xbf16>
  %o = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%eo : tensor<128x768xf32>) outs(%oe : tensor<128x768xbf16>) {
  ^bb0(%v: f32, %o2: bf16):
    %t = arith.truncf %v : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<128x768xbf16>
  return %o : tensor<128x768xbf16>
}

// -----

// K = 0.
// CHECK: shapes.mlir:[[# @LINE + 10]]:8: error: 'linalg.matmul' outside a dsm.fused_chain cannot be lowered (--dsm-fuse=report=true says why it was not fused)
func.func @zero_k(%a: tensor<128x0xbf16>, %b: tensor<0x3072xbf16>, %d: tensor<3072x768xbf16>) -> tensor<128x768xbf16> {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = tensor.dim %a, %c0 : tensor<128x0xbf16>
  %n = tensor.dim %b, %c1 : tensor<0x3072xbf16>
  %l = tensor.dim %d, %c1 : tensor<3072x768xbf16>
  %ce = tensor.empty() : tensor<128x3072xf32>
  %cf = linalg.fill ins(%zero : f32) outs(%ce : tensor<128x3072xf32>) -> tensor<128x3072xf32>
  %c = linalg.matmul ins(%a, %b : tensor<128x0xbf16>, tensor<0x3072xbf16>) outs(%cf : tensor<128x3072xf32>) -> tensor<128x3072xf32>
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

// M = 2^40 rows: beyond a TMA coordinate.
// CHECK: shapes.mlir:[[# @LINE + 10]]:8: error: 'dsm.fused_chain' op M = 1099511627776 exceeds the largest extent a TMA descriptor addresses (2147483647)
func.func @big_m(%a: tensor<1099511627776x768xbf16>, %b: tensor<768x3072xbf16>, %d: tensor<3072x768xbf16>) -> tensor<1099511627776x768xbf16> {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = tensor.dim %a, %c0 : tensor<1099511627776x768xbf16>
  %n = tensor.dim %b, %c1 : tensor<768x3072xbf16>
  %l = tensor.dim %d, %c1 : tensor<3072x768xbf16>
  %ce = tensor.empty() : tensor<1099511627776x3072xf32>
  %cf = linalg.fill ins(%zero : f32) outs(%ce : tensor<1099511627776x3072xf32>) -> tensor<1099511627776x3072xf32>
  %c = linalg.matmul ins(%a, %b : tensor<1099511627776x768xbf16>, tensor<768x3072xbf16>) outs(%cf : tensor<1099511627776x3072xf32>) -> tensor<1099511627776x3072xf32>
  %he = tensor.empty() : tensor<1099511627776x3072xbf16>
  %h = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%c : tensor<1099511627776x3072xf32>) outs(%he : tensor<1099511627776x3072xbf16>) {
  ^bb0(%v: f32, %o: bf16):
    %t = arith.truncf %v : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<1099511627776x3072xbf16>
  %ee = tensor.empty() : tensor<1099511627776x768xf32>
  %ef = linalg.fill ins(%zero : f32) outs(%ee : tensor<1099511627776x768xf32>) -> tensor<1099511627776x768xf32>
  %eo = linalg.matmul ins(%h, %d : tensor<1099511627776x3072xbf16>, tensor<3072x768xbf16>) outs(%ef : tensor<1099511627776x768xf32>) -> tensor<1099511627776x768xf32>
  %oe = tensor.empty() : tensor<1099511627776x768xbf16>
  %o = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%eo : tensor<1099511627776x768xf32>) outs(%oe : tensor<1099511627776x768xbf16>) {
  ^bb0(%v: f32, %o2: bf16):
    %t = arith.truncf %v : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<1099511627776x768xbf16>
  return %o : tensor<1099511627776x768xbf16>
}

// -----

// M = 2^31 rows: one past a TMA coordinate.
// CHECK: shapes.mlir:[[# @LINE + 10]]:8: error: 'dsm.fused_chain' op M = 2147483648 exceeds the largest extent a TMA descriptor addresses (2147483647)
func.func @big_m31(%a: tensor<2147483648x768xbf16>, %b: tensor<768x3072xbf16>, %d: tensor<3072x768xbf16>) -> tensor<2147483648x768xbf16> {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = tensor.dim %a, %c0 : tensor<2147483648x768xbf16>
  %n = tensor.dim %b, %c1 : tensor<768x3072xbf16>
  %l = tensor.dim %d, %c1 : tensor<3072x768xbf16>
  %ce = tensor.empty() : tensor<2147483648x3072xf32>
  %cf = linalg.fill ins(%zero : f32) outs(%ce : tensor<2147483648x3072xf32>) -> tensor<2147483648x3072xf32>
  %c = linalg.matmul ins(%a, %b : tensor<2147483648x768xbf16>, tensor<768x3072xbf16>) outs(%cf : tensor<2147483648x3072xf32>) -> tensor<2147483648x3072xf32>
  %he = tensor.empty() : tensor<2147483648x3072xbf16>
  %h = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%c : tensor<2147483648x3072xf32>) outs(%he : tensor<2147483648x3072xbf16>) {
  ^bb0(%v: f32, %o: bf16):
    %t = arith.truncf %v : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<2147483648x3072xbf16>
  %ee = tensor.empty() : tensor<2147483648x768xf32>
  %ef = linalg.fill ins(%zero : f32) outs(%ee : tensor<2147483648x768xf32>) -> tensor<2147483648x768xf32>
  %eo = linalg.matmul ins(%h, %d : tensor<2147483648x3072xbf16>, tensor<3072x768xbf16>) outs(%ef : tensor<2147483648x768xf32>) -> tensor<2147483648x768xf32>
  %oe = tensor.empty() : tensor<2147483648x768xbf16>
  %o = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%eo : tensor<2147483648x768xf32>) outs(%oe : tensor<2147483648x768xbf16>) {
  ^bb0(%v: f32, %o2: bf16):
    %t = arith.truncf %v : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<2147483648x768xbf16>
  return %o : tensor<2147483648x768xbf16>
}

// -----

// N = 2^40.
// CHECK: shapes.mlir:[[# @LINE + 10]]:8: error: 'dsm.fused_chain' op N = 1099511627776 exceeds the largest extent a TMA descriptor addresses (2147483647)
func.func @big_n(%a: tensor<128x768xbf16>, %b: tensor<768x1099511627776xbf16>, %d: tensor<1099511627776x768xbf16>) -> tensor<128x768xbf16> {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = tensor.dim %a, %c0 : tensor<128x768xbf16>
  %n = tensor.dim %b, %c1 : tensor<768x1099511627776xbf16>
  %l = tensor.dim %d, %c1 : tensor<1099511627776x768xbf16>
  %ce = tensor.empty() : tensor<128x1099511627776xf32>
  %cf = linalg.fill ins(%zero : f32) outs(%ce : tensor<128x1099511627776xf32>) -> tensor<128x1099511627776xf32>
  %c = linalg.matmul ins(%a, %b : tensor<128x768xbf16>, tensor<768x1099511627776xbf16>) outs(%cf : tensor<128x1099511627776xf32>) -> tensor<128x1099511627776xf32>
  %he = tensor.empty() : tensor<128x1099511627776xbf16>
  %h = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%c : tensor<128x1099511627776xf32>) outs(%he : tensor<128x1099511627776xbf16>) {
  ^bb0(%v: f32, %o: bf16):
    %t = arith.truncf %v : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<128x1099511627776xbf16>
  %ee = tensor.empty() : tensor<128x768xf32>
  %ef = linalg.fill ins(%zero : f32) outs(%ee : tensor<128x768xf32>) -> tensor<128x768xf32>
  %eo = linalg.matmul ins(%h, %d : tensor<128x1099511627776xbf16>, tensor<1099511627776x768xbf16>) outs(%ef : tensor<128x768xf32>) -> tensor<128x768xf32>
  %oe = tensor.empty() : tensor<128x768xbf16>
  %o = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%eo : tensor<128x768xf32>) outs(%oe : tensor<128x768xbf16>) {
  ^bb0(%v: f32, %o2: bf16):
    %t = arith.truncf %v : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<128x768xbf16>
  return %o : tensor<128x768xbf16>
}

// -----

// K = 2^40.
// CHECK: shapes.mlir:[[# @LINE + 10]]:8: error: 'dsm.fused_chain' op K = 1099511627776 exceeds the largest extent a TMA descriptor addresses (2147483647)
func.func @big_k(%a: tensor<128x1099511627776xbf16>, %b: tensor<1099511627776x3072xbf16>, %d: tensor<3072x768xbf16>) -> tensor<128x768xbf16> {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = tensor.dim %a, %c0 : tensor<128x1099511627776xbf16>
  %n = tensor.dim %b, %c1 : tensor<1099511627776x3072xbf16>
  %l = tensor.dim %d, %c1 : tensor<3072x768xbf16>
  %ce = tensor.empty() : tensor<128x3072xf32>
  %cf = linalg.fill ins(%zero : f32) outs(%ce : tensor<128x3072xf32>) -> tensor<128x3072xf32>
  %c = linalg.matmul ins(%a, %b : tensor<128x1099511627776xbf16>, tensor<1099511627776x3072xbf16>) outs(%cf : tensor<128x3072xf32>) -> tensor<128x3072xf32>
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

// Every extent 2^40.
// CHECK: shapes.mlir:[[# @LINE + 10]]:8: error: 'dsm.fused_chain' op M = 1099511627776 exceeds the largest extent a TMA descriptor addresses (2147483647)
func.func @big_all(%a: tensor<1099511627776x1099511627776xbf16>, %b: tensor<1099511627776x1099511627776xbf16>, %d: tensor<1099511627776x1099511627776xbf16>) -> tensor<1099511627776x1099511627776xbf16> {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = tensor.dim %a, %c0 : tensor<1099511627776x1099511627776xbf16>
  %n = tensor.dim %b, %c1 : tensor<1099511627776x1099511627776xbf16>
  %l = tensor.dim %d, %c1 : tensor<1099511627776x1099511627776xbf16>
  %ce = tensor.empty() : tensor<1099511627776x1099511627776xf32>
  %cf = linalg.fill ins(%zero : f32) outs(%ce : tensor<1099511627776x1099511627776xf32>) -> tensor<1099511627776x1099511627776xf32>
  %c = linalg.matmul ins(%a, %b : tensor<1099511627776x1099511627776xbf16>, tensor<1099511627776x1099511627776xbf16>) outs(%cf : tensor<1099511627776x1099511627776xf32>) -> tensor<1099511627776x1099511627776xf32>
  %he = tensor.empty() : tensor<1099511627776x1099511627776xbf16>
  %h = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%c : tensor<1099511627776x1099511627776xf32>) outs(%he : tensor<1099511627776x1099511627776xbf16>) {
  ^bb0(%v: f32, %o: bf16):
    %t = arith.truncf %v : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<1099511627776x1099511627776xbf16>
  %ee = tensor.empty() : tensor<1099511627776x1099511627776xf32>
  %ef = linalg.fill ins(%zero : f32) outs(%ee : tensor<1099511627776x1099511627776xf32>) -> tensor<1099511627776x1099511627776xf32>
  %eo = linalg.matmul ins(%h, %d : tensor<1099511627776x1099511627776xbf16>, tensor<1099511627776x1099511627776xbf16>) outs(%ef : tensor<1099511627776x1099511627776xf32>) -> tensor<1099511627776x1099511627776xf32>
  %oe = tensor.empty() : tensor<1099511627776x1099511627776xbf16>
  %o = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%eo : tensor<1099511627776x1099511627776xf32>) outs(%oe : tensor<1099511627776x1099511627776xbf16>) {
  ^bb0(%v: f32, %o2: bf16):
    %t = arith.truncf %v : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<1099511627776x1099511627776xbf16>
  return %o : tensor<1099511627776x1099511627776xbf16>
}

// -----

// Dynamic M with N = 2^40.
// CHECK: shapes.mlir:[[# @LINE + 10]]:8: error: 'dsm.fused_chain' op N = 1099511627776 exceeds the largest extent a TMA descriptor addresses (2147483647)
func.func @dyn_m_big_n(%a: tensor<?x768xbf16>, %b: tensor<768x1099511627776xbf16>, %d: tensor<1099511627776x768xbf16>) -> tensor<?x768xbf16> {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = tensor.dim %a, %c0 : tensor<?x768xbf16>
  %n = tensor.dim %b, %c1 : tensor<768x1099511627776xbf16>
  %l = tensor.dim %d, %c1 : tensor<1099511627776x768xbf16>
  %ce = tensor.empty(%m) : tensor<?x1099511627776xf32>
  %cf = linalg.fill ins(%zero : f32) outs(%ce : tensor<?x1099511627776xf32>) -> tensor<?x1099511627776xf32>
  %c = linalg.matmul ins(%a, %b : tensor<?x768xbf16>, tensor<768x1099511627776xbf16>) outs(%cf : tensor<?x1099511627776xf32>) -> tensor<?x1099511627776xf32>
  %he = tensor.empty(%m) : tensor<?x1099511627776xbf16>
  %h = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%c : tensor<?x1099511627776xf32>) outs(%he : tensor<?x1099511627776xbf16>) {
  ^bb0(%v: f32, %o: bf16):
    %t = arith.truncf %v : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<?x1099511627776xbf16>
  %ee = tensor.empty(%m) : tensor<?x768xf32>
  %ef = linalg.fill ins(%zero : f32) outs(%ee : tensor<?x768xf32>) -> tensor<?x768xf32>
  %eo = linalg.matmul ins(%h, %d : tensor<?x1099511627776xbf16>, tensor<1099511627776x768xbf16>) outs(%ef : tensor<?x768xf32>) -> tensor<?x768xf32>
  %oe = tensor.empty(%m) : tensor<?x768xbf16>
  %o = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%eo : tensor<?x768xf32>) outs(%oe : tensor<?x768xbf16>) {
  ^bb0(%v: f32, %o2: bf16):
    %t = arith.truncf %v : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<?x768xbf16>
  return %o : tensor<?x768xbf16>
}

// What --dsm-fuse reports for the GEMMs it leaves alone:
// REPORT: shapes.mlir:20:8: remark: GEMM not fused: N = 17 is not a multiple of 8 (rows must be 16-byte aligned)
// REPORT: shapes.mlir:29:9: remark: GEMM not fused: N = 17 is not a multiple of 8 (rows must be 16-byte aligned)
// REPORT: shapes.mlir:52:8: remark: GEMM not fused: K = 7 is below min-dim = 16 (too small to benefit)
// REPORT: shapes.mlir:61:9: remark: GEMM not fused: K = 7 is below min-dim = 16 (too small to benefit)
// REPORT: shapes.mlir:84:8: remark: GEMM not fused: N = 5 is below min-dim = 16 (too small to benefit)
// REPORT: shapes.mlir:93:9: remark: GEMM not fused: N = 5 is below min-dim = 16 (too small to benefit)
// REPORT: shapes.mlir:116:8: remark: GEMM not fused: N = 1 is below min-dim = 16 (too small to benefit)
// REPORT: shapes.mlir:125:9: remark: GEMM not fused: N = 1 is below min-dim = 16 (too small to benefit)
// REPORT: shapes.mlir:148:8: remark: GEMM not fused: N = 137 is not a multiple of 8 (rows must be 16-byte aligned)
// REPORT: shapes.mlir:157:9: remark: GEMM not fused: N = 137 is not a multiple of 8 (rows must be 16-byte aligned)
// REPORT: shapes.mlir:212:8: remark: GEMM not fused: N = 0 is below min-dim = 16 (too small to benefit)
// REPORT: shapes.mlir:221:9: remark: GEMM not fused: N = 0 is below min-dim = 16 (too small to benefit)
// REPORT: shapes.mlir:244:8: remark: GEMM not fused: K = 0 is below min-dim = 16 (too small to benefit)
// REPORT: shapes.mlir:253:9: remark: GEMM not fused: K = 0 is below min-dim = 16 (too small to benefit)

// Tiny, prime and odd M: every row count is correct input (M tiles are
// masked by TMA); each chain compiles to one fused kernel (sequences=false:
// the search would run some as two GEMM kernels, which tile M alike).
//
// RUN: ff-opt %s --split-input-file --dsm-fuse --dsm-search=sequences=false --lower-to-nvvm | FileCheck %s

// CHECK-LABEL: gpu.binary @m1_0_module
// CHECK: llvm.func @m1_0_launch
// CHECK-NOT: dsm.fused_chain
func.func @m1(%a: tensor<1x768xbf16>, %b: tensor<768x3072xbf16>, %d: tensor<3072x768xbf16>) -> tensor<1x768xbf16> {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = tensor.dim %a, %c0 : tensor<1x768xbf16>
  %n = tensor.dim %b, %c1 : tensor<768x3072xbf16>
  %l = tensor.dim %d, %c1 : tensor<3072x768xbf16>
  %ce = tensor.empty() : tensor<1x3072xf32>
  %cf = linalg.fill ins(%zero : f32) outs(%ce : tensor<1x3072xf32>) -> tensor<1x3072xf32>
  %c = linalg.matmul ins(%a, %b : tensor<1x768xbf16>, tensor<768x3072xbf16>) outs(%cf : tensor<1x3072xf32>) -> tensor<1x3072xf32>
  %he = tensor.empty() : tensor<1x3072xbf16>
  %h = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%c : tensor<1x3072xf32>) outs(%he : tensor<1x3072xbf16>) {
  ^bb0(%v: f32, %o: bf16):
    %t = arith.truncf %v : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<1x3072xbf16>
  %ee = tensor.empty() : tensor<1x768xf32>
  %ef = linalg.fill ins(%zero : f32) outs(%ee : tensor<1x768xf32>) -> tensor<1x768xf32>
  %eo = linalg.matmul ins(%h, %d : tensor<1x3072xbf16>, tensor<3072x768xbf16>) outs(%ef : tensor<1x768xf32>) -> tensor<1x768xf32>
  %oe = tensor.empty() : tensor<1x768xbf16>
  %o = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%eo : tensor<1x768xf32>) outs(%oe : tensor<1x768xbf16>) {
  ^bb0(%v: f32, %o2: bf16):
    %t = arith.truncf %v : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<1x768xbf16>
  return %o : tensor<1x768xbf16>
}

// -----

// CHECK-LABEL: gpu.binary @m7_0_module
// CHECK: llvm.func @m7_0_launch
// CHECK-NOT: dsm.fused_chain
func.func @m7(%a: tensor<7x768xbf16>, %b: tensor<768x3072xbf16>, %d: tensor<3072x768xbf16>) -> tensor<7x768xbf16> {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = tensor.dim %a, %c0 : tensor<7x768xbf16>
  %n = tensor.dim %b, %c1 : tensor<768x3072xbf16>
  %l = tensor.dim %d, %c1 : tensor<3072x768xbf16>
  %ce = tensor.empty() : tensor<7x3072xf32>
  %cf = linalg.fill ins(%zero : f32) outs(%ce : tensor<7x3072xf32>) -> tensor<7x3072xf32>
  %c = linalg.matmul ins(%a, %b : tensor<7x768xbf16>, tensor<768x3072xbf16>) outs(%cf : tensor<7x3072xf32>) -> tensor<7x3072xf32>
  %he = tensor.empty() : tensor<7x3072xbf16>
  %h = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%c : tensor<7x3072xf32>) outs(%he : tensor<7x3072xbf16>) {
  ^bb0(%v: f32, %o: bf16):
    %t = arith.truncf %v : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<7x3072xbf16>
  %ee = tensor.empty() : tensor<7x768xf32>
  %ef = linalg.fill ins(%zero : f32) outs(%ee : tensor<7x768xf32>) -> tensor<7x768xf32>
  %eo = linalg.matmul ins(%h, %d : tensor<7x3072xbf16>, tensor<3072x768xbf16>) outs(%ef : tensor<7x768xf32>) -> tensor<7x768xf32>
  %oe = tensor.empty() : tensor<7x768xbf16>
  %o = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%eo : tensor<7x768xf32>) outs(%oe : tensor<7x768xbf16>) {
  ^bb0(%v: f32, %o2: bf16):
    %t = arith.truncf %v : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<7x768xbf16>
  return %o : tensor<7x768xbf16>
}

// -----

// CHECK-LABEL: gpu.binary @m17_0_module
// CHECK: llvm.func @m17_0_launch
// CHECK-NOT: dsm.fused_chain
func.func @m17(%a: tensor<17x768xbf16>, %b: tensor<768x3072xbf16>, %d: tensor<3072x768xbf16>) -> tensor<17x768xbf16> {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = tensor.dim %a, %c0 : tensor<17x768xbf16>
  %n = tensor.dim %b, %c1 : tensor<768x3072xbf16>
  %l = tensor.dim %d, %c1 : tensor<3072x768xbf16>
  %ce = tensor.empty() : tensor<17x3072xf32>
  %cf = linalg.fill ins(%zero : f32) outs(%ce : tensor<17x3072xf32>) -> tensor<17x3072xf32>
  %c = linalg.matmul ins(%a, %b : tensor<17x768xbf16>, tensor<768x3072xbf16>) outs(%cf : tensor<17x3072xf32>) -> tensor<17x3072xf32>
  %he = tensor.empty() : tensor<17x3072xbf16>
  %h = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%c : tensor<17x3072xf32>) outs(%he : tensor<17x3072xbf16>) {
  ^bb0(%v: f32, %o: bf16):
    %t = arith.truncf %v : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<17x3072xbf16>
  %ee = tensor.empty() : tensor<17x768xf32>
  %ef = linalg.fill ins(%zero : f32) outs(%ee : tensor<17x768xf32>) -> tensor<17x768xf32>
  %eo = linalg.matmul ins(%h, %d : tensor<17x3072xbf16>, tensor<3072x768xbf16>) outs(%ef : tensor<17x768xf32>) -> tensor<17x768xf32>
  %oe = tensor.empty() : tensor<17x768xbf16>
  %o = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%eo : tensor<17x768xf32>) outs(%oe : tensor<17x768xbf16>) {
  ^bb0(%v: f32, %o2: bf16):
    %t = arith.truncf %v : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<17x768xbf16>
  return %o : tensor<17x768xbf16>
}

// -----

// CHECK-LABEL: gpu.binary @m131_0_module
// CHECK: llvm.func @m131_0_launch
// CHECK-NOT: dsm.fused_chain
func.func @m131(%a: tensor<131x768xbf16>, %b: tensor<768x3072xbf16>, %d: tensor<3072x768xbf16>) -> tensor<131x768xbf16> {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = tensor.dim %a, %c0 : tensor<131x768xbf16>
  %n = tensor.dim %b, %c1 : tensor<768x3072xbf16>
  %l = tensor.dim %d, %c1 : tensor<3072x768xbf16>
  %ce = tensor.empty() : tensor<131x3072xf32>
  %cf = linalg.fill ins(%zero : f32) outs(%ce : tensor<131x3072xf32>) -> tensor<131x3072xf32>
  %c = linalg.matmul ins(%a, %b : tensor<131x768xbf16>, tensor<768x3072xbf16>) outs(%cf : tensor<131x3072xf32>) -> tensor<131x3072xf32>
  %he = tensor.empty() : tensor<131x3072xbf16>
  %h = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%c : tensor<131x3072xf32>) outs(%he : tensor<131x3072xbf16>) {
  ^bb0(%v: f32, %o: bf16):
    %t = arith.truncf %v : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<131x3072xbf16>
  %ee = tensor.empty() : tensor<131x768xf32>
  %ef = linalg.fill ins(%zero : f32) outs(%ee : tensor<131x768xf32>) -> tensor<131x768xf32>
  %eo = linalg.matmul ins(%h, %d : tensor<131x3072xbf16>, tensor<3072x768xbf16>) outs(%ef : tensor<131x768xf32>) -> tensor<131x768xf32>
  %oe = tensor.empty() : tensor<131x768xbf16>
  %o = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%eo : tensor<131x768xf32>) outs(%oe : tensor<131x768xbf16>) {
  ^bb0(%v: f32, %o2: bf16):
    %t = arith.truncf %v : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<131x768xbf16>
  return %o : tensor<131x768xbf16>
}


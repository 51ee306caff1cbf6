// RUN: ff-opt --dsm-fuse=report=true --verify-diagnostics %s | FileCheck %s
// RUN: mlir-opt --linalg-generalize-named-ops %s | ff-opt --dsm-fuse | FileCheck %s --check-prefix=GEN
// RUN: ff-opt --dsm-fuse %s > %t.once.mlir
// RUN: ff-opt --dsm-fuse --dsm-fuse %s > %t.twice.mlir
// RUN: diff %t.once.mlir %t.twice.mlir

// Linalg as real frontends write it. The second RUN line generalises every
// named op first (contractions and elementwise ops become linalg.generic):
// chains are found by what the ops compute, not by their names.

// torch-mlir (aten.linear -> aten.gelu -> aten.linear): weights [out, in]
// transposed by a linalg.generic, bias added by a broadcasting generic, GELU
// with captured constants, ReLU as cmpf + select in the second layer's
// epilogue.
// CHECK-LABEL: func.func @torch_mlp(
// CHECK-SAME:      %[[X:[a-z0-9]+]]: tensor<128x768xbf16>, %[[W1:[a-z0-9]+]]: tensor<3072x768xbf16>, %[[B1:[a-z0-9]+]]: tensor<3072xbf16>, %[[W2:[a-z0-9]+]]: tensor<768x3072xbf16>, %[[B2:[a-z0-9]+]]: tensor<768xbf16>)
// CHECK:         %[[T1:.+]] = linalg.generic {{.*}} ins(%[[W1]] : tensor<3072x768xbf16>)
// CHECK:         %[[T2:.+]] = linalg.generic {{.*}} ins(%[[W2]] : tensor<768x3072xbf16>)
// CHECK:         %[[R:.+]] = dsm.fused_chain ffn(%[[X]], %[[T1]], %[[B1]], %[[T2]], %[[B2]])
// CHECK:           linalg.matmul
// CHECK:           linalg.generic
// CHECK:           linalg.generic
// CHECK:             math.erf
// CHECK:           linalg.matmul
// CHECK:           linalg.generic
// CHECK:           linalg.generic
// CHECK:             arith.select
// CHECK:           dsm.yield
// CHECK:         return %[[R]]
// GEN-LABEL:   func.func @torch_mlp(
// GEN:           dsm.fused_chain ffn
// GEN-COUNT-2:     iterator_types = ["parallel", "parallel", "reduction"]
// GEN:             dsm.yield
func.func @torch_mlp(%x: tensor<128x768xbf16>, %w1: tensor<3072x768xbf16>, %b1: tensor<3072xbf16>, %w2: tensor<768x3072xbf16>, %b2: tensor<768xbf16>) -> tensor<128x768xbf16> {
  %cst = arith.constant 0.000000e+00 : bf16
  %cst_0 = arith.constant 1.000000e+00 : bf16
  %cst_1 = arith.constant 5.000000e-01 : bf16
  %cst_2 = arith.constant 1.414060e+00 : bf16
  %0 = tensor.empty() : tensor<768x3072xbf16>
  %1 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%w1 : tensor<3072x768xbf16>) outs(%0 : tensor<768x3072xbf16>) {
  ^bb0(%in: bf16, %out: bf16):
    linalg.yield %in : bf16
  } -> tensor<768x3072xbf16>
  %2 = tensor.empty() : tensor<128x3072xbf16>
  %3 = linalg.fill ins(%cst : bf16) outs(%2 : tensor<128x3072xbf16>) -> tensor<128x3072xbf16>
  %4 = linalg.matmul ins(%x, %1 : tensor<128x768xbf16>, tensor<768x3072xbf16>) outs(%3 : tensor<128x3072xbf16>) -> tensor<128x3072xbf16>
  %5 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%4, %b1 : tensor<128x3072xbf16>, tensor<3072xbf16>) outs(%2 : tensor<128x3072xbf16>) {
  ^bb0(%in: bf16, %in_3: bf16, %out: bf16):
    %20 = arith.addf %in, %in_3 : bf16
    linalg.yield %20 : bf16
  } -> tensor<128x3072xbf16>
  %6 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%5 : tensor<128x3072xbf16>) outs(%2 : tensor<128x3072xbf16>) {
  ^bb0(%in: bf16, %out: bf16):
    %20 = arith.divf %in, %cst_2 : bf16
    %21 = math.erf %20 : bf16
    %22 = arith.addf %21, %cst_0 : bf16
    %23 = arith.mulf %22, %cst_1 : bf16
    %24 = arith.mulf %in, %23 : bf16
    linalg.yield %24 : bf16
  } -> tensor<128x3072xbf16>
  %7 = tensor.empty() : tensor<3072x768xbf16>
  %8 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%w2 : tensor<768x3072xbf16>) outs(%7 : tensor<3072x768xbf16>) {
  ^bb0(%in: bf16, %out: bf16):
    linalg.yield %in : bf16
  } -> tensor<3072x768xbf16>
  %9 = tensor.empty() : tensor<128x768xbf16>
  %10 = linalg.fill ins(%cst : bf16) outs(%9 : tensor<128x768xbf16>) -> tensor<128x768xbf16>
  %11 = linalg.matmul ins(%6, %8 : tensor<128x3072xbf16>, tensor<3072x768xbf16>) outs(%10 : tensor<128x768xbf16>) -> tensor<128x768xbf16>
  %12 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%11, %b2 : tensor<128x768xbf16>, tensor<768xbf16>) outs(%9 : tensor<128x768xbf16>) {
  ^bb0(%in: bf16, %in_3: bf16, %out: bf16):
    %20 = arith.addf %in, %in_3 : bf16
    linalg.yield %20 : bf16
  } -> tensor<128x768xbf16>
  %13 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%12 : tensor<128x768xbf16>) outs(%9 : tensor<128x768xbf16>) {
  ^bb0(%in: bf16, %out: bf16):
    %20 = arith.cmpf ugt, %in, %cst : bf16
    %21 = arith.select %20, %in, %cst : bf16
    linalg.yield %21 : bf16
  } -> tensor<128x768xbf16>
  return %13 : tensor<128x768xbf16>
}

// torch-mlir on a [B, S, H] model: each Linear collapses the rows to 2-D
// around its matmul and expands them back, and bias, GELU and the residual
// run on 3-D tensors. Row reshapes are transparent: the chain is fused and
// its body is rewritten to 2-D, with one expand of the result. B is dynamic.
// CHECK-LABEL: func.func @torch_mlp_3d(
// CHECK-SAME:      %[[X:[a-z0-9]+]]: tensor<?x64x768xbf16>, %[[W1:[a-z0-9]+]]: tensor<3072x768xbf16>, %[[B1:[a-z0-9]+]]: tensor<3072xbf16>, %[[W2:[a-z0-9]+]]: tensor<768x3072xbf16>, %[[B2:[a-z0-9]+]]: tensor<768xbf16>)
// CHECK:         %[[XC:.+]] = tensor.collapse_shape %[[X]]
// CHECK:         %[[T1:.+]] = linalg.generic {{.*}} ins(%[[W1]] :
// CHECK:         %[[T2:.+]] = linalg.generic {{.*}} ins(%[[W2]] :
// CHECK:         %[[R:.+]] = dsm.fused_chain ffn(%[[XC]], %[[T1]], %[[X]], %[[B1]], %[[T2]], %[[B2]])
// CHECK-NEXT:    ^bb0(%[[BXC:.+]]: tensor<?x768xbf16>, %[[BT1:.+]]: tensor<768x3072xbf16>, %[[BX:.+]]: tensor<?x64x768xbf16>, %[[BB1:.+]]: tensor<3072xbf16>, %[[BT2:.+]]: tensor<3072x768xbf16>, %[[BB2:.+]]: tensor<768xbf16>):
// CHECK:           %[[C:.+]] = linalg.matmul ins(%[[BXC]], %[[BT1]] :
// CHECK:           %[[H1:.+]] = linalg.generic {{.*}} ins(%[[C]], %[[BB1]] : tensor<?x3072xbf16>, tensor<3072xbf16>)
// CHECK:           %[[H2:.+]] = linalg.generic {{.*}} ins(%[[H1]] : tensor<?x3072xbf16>)
// CHECK:             math.erf
// CHECK:           %[[E:.+]] = linalg.matmul ins(%[[H2]], %[[BT2]] :
// CHECK:           %[[RES:.+]] = tensor.collapse_shape %[[BX]] {{\[\[}}0, 1], [2]]
// CHECK:           %[[Y:.+]] = linalg.generic {{.*}} ins(%[[E]], %[[BB2]], %[[RES]] : tensor<?x768xbf16>, tensor<768xbf16>, tensor<?x768xbf16>)
// CHECK:           %[[Y3:.+]] = tensor.expand_shape %[[Y]] {{\[\[}}0, 1], [2]] output_shape [%{{.+}}, 64, 768]
// CHECK-NEXT:      dsm.yield %[[Y3]]
// CHECK:         return %[[R]]
// GEN-LABEL:   func.func @torch_mlp_3d(
// GEN:           dsm.fused_chain ffn
func.func @torch_mlp_3d(%x: tensor<?x64x768xbf16>, %w1: tensor<3072x768xbf16>, %b1: tensor<3072xbf16>, %w2: tensor<768x3072xbf16>, %b2: tensor<768xbf16>) -> tensor<?x64x768xbf16> {
  %c0 = arith.constant 0 : index
  %cst = arith.constant 0.000000e+00 : bf16
  %cst_0 = arith.constant 1.000000e+00 : bf16
  %cst_1 = arith.constant 5.000000e-01 : bf16
  %cst_2 = arith.constant 0.707106769 : bf16
  %b = tensor.dim %x, %c0 : tensor<?x64x768xbf16>
  %xc = tensor.collapse_shape %x [[0, 1], [2]] : tensor<?x64x768xbf16> into tensor<?x768xbf16>
  %0 = tensor.empty() : tensor<768x3072xbf16>
  %1 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%w1 : tensor<3072x768xbf16>) outs(%0 : tensor<768x3072xbf16>) {
  ^bb0(%in: bf16, %out: bf16):
    linalg.yield %in : bf16
  } -> tensor<768x3072xbf16>
  %m = tensor.dim %xc, %c0 : tensor<?x768xbf16>
  %2 = tensor.empty(%m) : tensor<?x3072xbf16>
  %3 = linalg.fill ins(%cst : bf16) outs(%2 : tensor<?x3072xbf16>) -> tensor<?x3072xbf16>
  %4 = linalg.matmul ins(%xc, %1 : tensor<?x768xbf16>, tensor<768x3072xbf16>) outs(%3 : tensor<?x3072xbf16>) -> tensor<?x3072xbf16>
  %h = tensor.expand_shape %4 [[0, 1], [2]] output_shape [%b, 64, 3072] : tensor<?x3072xbf16> into tensor<?x64x3072xbf16>
  %e3 = tensor.empty(%b) : tensor<?x64x3072xbf16>
  %5 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%h, %b1 : tensor<?x64x3072xbf16>, tensor<3072xbf16>) outs(%e3 : tensor<?x64x3072xbf16>) {
  ^bb0(%in: bf16, %in_3: bf16, %out: bf16):
    %20 = arith.addf %in, %in_3 : bf16
    linalg.yield %20 : bf16
  } -> tensor<?x64x3072xbf16>
  %6 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%5 : tensor<?x64x3072xbf16>) outs(%e3 : tensor<?x64x3072xbf16>) {
  ^bb0(%in: bf16, %out: bf16):
    %20 = arith.mulf %in, %cst_2 : bf16
    %21 = math.erf %20 : bf16
    %22 = arith.addf %21, %cst_0 : bf16
    %23 = arith.mulf %22, %cst_1 : bf16
    %24 = arith.mulf %in, %23 : bf16
    linalg.yield %24 : bf16
  } -> tensor<?x64x3072xbf16>
  %hc = tensor.collapse_shape %6 [[0, 1], [2]] : tensor<?x64x3072xbf16> into tensor<?x3072xbf16>
  %7 = tensor.empty() : tensor<3072x768xbf16>
  %8 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%w2 : tensor<768x3072xbf16>) outs(%7 : tensor<3072x768xbf16>) {
  ^bb0(%in: bf16, %out: bf16):
    linalg.yield %in : bf16
  } -> tensor<3072x768xbf16>
  %9 = tensor.empty(%m) : tensor<?x768xbf16>
  %10 = linalg.fill ins(%cst : bf16) outs(%9 : tensor<?x768xbf16>) -> tensor<?x768xbf16>
  %11 = linalg.matmul ins(%hc, %8 : tensor<?x3072xbf16>, tensor<3072x768xbf16>) outs(%10 : tensor<?x768xbf16>) -> tensor<?x768xbf16>
  %y = tensor.expand_shape %11 [[0, 1], [2]] output_shape [%b, 64, 768] : tensor<?x768xbf16> into tensor<?x64x768xbf16>
  %e4 = tensor.empty(%b) : tensor<?x64x768xbf16>
  %12 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%y, %b2, %x : tensor<?x64x768xbf16>, tensor<768xbf16>, tensor<?x64x768xbf16>) outs(%e4 : tensor<?x64x768xbf16>) {
  ^bb0(%in: bf16, %in_3: bf16, %r: bf16, %out: bf16):
    %20 = arith.addf %in, %in_3 : bf16
    %21 = arith.addf %20, %r : bf16
    linalg.yield %21 : bf16
  } -> tensor<?x64x768xbf16>
  return %12 : tensor<?x64x768xbf16>
}

// torch-mlir's aten.addmm: the bias is broadcast into the GEMM's init and
// accumulated onto. A broadcast used only as an init is pulled in, so the
// region takes the bias vector, not an [M, N] tensor.
// CHECK-LABEL: func.func @addmm(
// CHECK-SAME:      %[[X:[a-z0-9]+]]: tensor<128x768xbf16>, %[[W1:[a-z0-9]+]]: tensor<768x3072xbf16>, %[[B1:[a-z0-9]+]]: tensor<3072xbf16>, %[[W2:[a-z0-9]+]]: tensor<3072x768xbf16>, %[[B2:[a-z0-9]+]]: tensor<768xbf16>)
// CHECK-NOT:     linalg.
// CHECK:         %[[R:.+]] = dsm.fused_chain ffn(%[[X]], %[[W1]], %[[B1]], %[[W2]], %[[B2]])
// CHECK-NEXT:    ^bb0(%[[BX:.+]]: tensor<128x768xbf16>, %[[BW1:.+]]: tensor<768x3072xbf16>, %[[BB1:.+]]: tensor<3072xbf16>, %[[BW2:.+]]: tensor<3072x768xbf16>, %[[BB2:.+]]: tensor<768xbf16>):
// CHECK:           %[[I1:.+]] = linalg.generic {{.*}} ins(%[[BB1]] : tensor<3072xbf16>)
// CHECK:           %[[C:.+]] = linalg.matmul ins(%[[BX]], %[[BW1]] : {{.*}}) outs(%[[I1]] :
// CHECK:           %[[H:.+]] = linalg.generic {{.*}} ins(%[[C]] :
// CHECK:           %[[I2:.+]] = linalg.broadcast ins(%[[BB2]] :
// CHECK:           %[[E:.+]] = linalg.matmul ins(%[[H]], %[[BW2]] : {{.*}}) outs(%[[I2]] :
// CHECK-NEXT:      dsm.yield %[[E]]
// CHECK:         return %[[R]]
// GEN-LABEL:   func.func @addmm(
// GEN:           dsm.fused_chain ffn
func.func @addmm(%x: tensor<128x768xbf16>, %w1: tensor<768x3072xbf16>, %b1: tensor<3072xbf16>, %w2: tensor<3072x768xbf16>, %b2: tensor<768xbf16>) -> tensor<128x768xbf16> {
  %e1 = tensor.empty() : tensor<128x3072xbf16>
  %bb1 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%b1 : tensor<3072xbf16>) outs(%e1 : tensor<128x3072xbf16>) {
  ^bb0(%in: bf16, %out: bf16):
    linalg.yield %in : bf16
  } -> tensor<128x3072xbf16>
  %c = linalg.matmul ins(%x, %w1 : tensor<128x768xbf16>, tensor<768x3072xbf16>) outs(%bb1 : tensor<128x3072xbf16>) -> tensor<128x3072xbf16>
  %z = arith.constant 0.0 : bf16
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%c : tensor<128x3072xbf16>) outs(%e1 : tensor<128x3072xbf16>) {
  ^bb0(%in: bf16, %out: bf16):
    %0 = arith.maximumf %in, %z : bf16
    linalg.yield %0 : bf16
  } -> tensor<128x3072xbf16>
  %e2 = tensor.empty() : tensor<128x768xbf16>
  %bb2 = linalg.broadcast ins(%b2 : tensor<768xbf16>) outs(%e2 : tensor<128x768xbf16>) dimensions = [0]
  %y = linalg.matmul ins(%r, %w2 : tensor<128x3072xbf16>, tensor<3072x768xbf16>) outs(%bb2 : tensor<128x768xbf16>) -> tensor<128x768xbf16>
  return %y : tensor<128x768xbf16>
}

// StableHLO -> linalg: dot_general as a linalg.generic contraction with f32
// accumulation, ReLU as maximumf against a splat constant tensor, and
// converts between bf16 and f32.
// CHECK-LABEL: func.func @stablehlo_mlp(
// CHECK-SAME:      %[[X:[a-z0-9]+]]: tensor<256x512xbf16>, %[[W1:[a-z0-9]+]]: tensor<512x1024xbf16>, %[[W2:[a-z0-9]+]]: tensor<1024x512xbf16>)
// CHECK:         %[[R:.+]] = dsm.fused_chain ffn(%[[X]], %[[W1]], %[[W2]])
// CHECK-NEXT:    ^bb0(
// CHECK:           linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction"]
// CHECK:           %[[SPLAT:.+]] = arith.constant dense<0.000000e+00> : tensor<256x1024xf32>
// CHECK:           linalg.generic {{.*}} ins(%{{.+}}, %[[SPLAT]] :
// CHECK:           arith.maximumf
// CHECK:           linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction"]
// CHECK:           dsm.yield
// CHECK:         return %[[R]]
// GEN-LABEL:   func.func @stablehlo_mlp(
// GEN:           dsm.fused_chain ffn
#mk = affine_map<(d0, d1, d2) -> (d0, d2)>
#kn = affine_map<(d0, d1, d2) -> (d2, d1)>
#mn = affine_map<(d0, d1, d2) -> (d0, d1)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @stablehlo_mlp(%x: tensor<256x512xbf16>, %w1: tensor<512x1024xbf16>, %w2: tensor<1024x512xbf16>) -> tensor<256x512xbf16> {
  %zero = arith.constant 0.0 : f32
  %splat = arith.constant dense<0.0> : tensor<256x1024xf32>
  %e0 = tensor.empty() : tensor<256x1024xf32>
  %f0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<256x1024xf32>) -> tensor<256x1024xf32>
  %dot = linalg.generic {indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x, %w1 : tensor<256x512xbf16>, tensor<512x1024xbf16>) outs(%f0 : tensor<256x1024xf32>) {
  ^bb0(%a: bf16, %b: bf16, %acc: f32):
    %0 = arith.extf %a : bf16 to f32
    %1 = arith.extf %b : bf16 to f32
    %2 = arith.mulf %0, %1 : f32
    %3 = arith.addf %acc, %2 : f32
    linalg.yield %3 : f32
  } -> tensor<256x1024xf32>
  %e1 = tensor.empty() : tensor<256x1024xbf16>
  %relu = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%dot, %splat : tensor<256x1024xf32>, tensor<256x1024xf32>) outs(%e1 : tensor<256x1024xbf16>) {
  ^bb0(%a: f32, %b: f32, %o: bf16):
    %0 = arith.maximumf %a, %b : f32
    %1 = arith.truncf %0 : f32 to bf16
    linalg.yield %1 : bf16
  } -> tensor<256x1024xbf16>
  %e2 = tensor.empty() : tensor<256x512xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<256x512xf32>) -> tensor<256x512xf32>
  %dot2 = linalg.generic {indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel", "parallel", "reduction"]} ins(%relu, %w2 : tensor<256x1024xbf16>, tensor<1024x512xbf16>) outs(%f2 : tensor<256x512xf32>) {
  ^bb0(%a: bf16, %b: bf16, %acc: f32):
    %0 = arith.extf %a : bf16 to f32
    %1 = arith.extf %b : bf16 to f32
    %2 = arith.mulf %0, %1 : f32
    %3 = arith.addf %acc, %2 : f32
    linalg.yield %3 : f32
  } -> tensor<256x512xf32>
  %e3 = tensor.empty() : tensor<256x512xbf16>
  %cvt = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%dot2 : tensor<256x512xf32>) outs(%e3 : tensor<256x512xbf16>) {
  ^bb0(%a: f32, %o: bf16):
    %0 = arith.truncf %a : f32 to bf16
    linalg.yield %0 : bf16
  } -> tensor<256x512xbf16>
  return %cvt : tensor<256x512xbf16>
}

// IREE input: f16 with f32 accumulation, weights consumed transposed through
// linalg.matmul indexing maps (what linalg.matmul_transpose_b was before it
// was removed upstream), a linalg.generic contraction with a transposed RHS
// as the second GEMM, and a sigmoid activation between.
// CHECK-LABEL: func.func @iree_transposed(
// CHECK-SAME:      %[[X:[a-z0-9]+]]: tensor<?x256xf16>, %[[W1:[a-z0-9]+]]: tensor<1024x256xf16>, %[[W2:[a-z0-9]+]]: tensor<256x1024xf16>)
// CHECK:         %[[R:.+]] = dsm.fused_chain ffn(%[[X]], %[[W1]], %[[W2]]) : ({{.*}}) -> tensor<?x256xf32>
// CHECK:           linalg.matmul indexing_maps
// CHECK:           math.exp
// CHECK:           linalg.generic {{.*}} ins(%{{.+}}, %{{.+}} : tensor<?x1024xf16>, tensor<256x1024xf16>)
// CHECK:           dsm.yield
// GEN-LABEL:   func.func @iree_transposed(
// GEN:           dsm.fused_chain ffn
func.func @iree_transposed(%x: tensor<?x256xf16>, %w1: tensor<1024x256xf16>, %w2: tensor<256x1024xf16>) -> tensor<?x256xf32> {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %m = tensor.dim %x, %c0 : tensor<?x256xf16>
  %e0 = tensor.empty(%m) : tensor<?x1024xf32>
  %f0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<?x1024xf32>) -> tensor<?x1024xf32>
  %c = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%x, %w1 : tensor<?x256xf16>, tensor<1024x256xf16>) outs(%f0 : tensor<?x1024xf32>) -> tensor<?x1024xf32>
  %e1 = tensor.empty(%m) : tensor<?x1024xf16>
  %s = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%c : tensor<?x1024xf32>) outs(%e1 : tensor<?x1024xf16>) {
  ^bb0(%a: f32, %o: f16):
    %0 = arith.negf %a : f32
    %1 = math.exp %0 : f32
    %2 = arith.addf %one, %1 : f32
    %3 = arith.divf %one, %2 : f32
    %4 = arith.truncf %3 : f32 to f16
    linalg.yield %4 : f16
  } -> tensor<?x1024xf16>
  %e2 = tensor.empty(%m) : tensor<?x256xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<?x256xf32>) -> tensor<?x256xf32>
  %y = linalg.generic {indexing_maps = [#mk, affine_map<(d0, d1, d2) -> (d1, d2)>, #mn], iterator_types = ["parallel", "parallel", "reduction"]} ins(%s, %w2 : tensor<?x1024xf16>, tensor<256x1024xf16>) outs(%f2 : tensor<?x256xf32>) {
  ^bb0(%a: f16, %b: f16, %acc: f32):
    %0 = arith.extf %a : f16 to f32
    %1 = arith.extf %b : f16 to f32
    %2 = arith.mulf %0, %1 : f32
    %3 = arith.addf %acc, %2 : f32
    linalg.yield %3 : f32
  } -> tensor<?x256xf32>
  return %y : tensor<?x256xf32>
}

// Weights inlined as dense_resource constants (IREE/StableHLO imports) stay
// outside the chain and enter as inputs; splat constants are cloned in.
// CHECK-LABEL: func.func @inlined_weights(
// CHECK-SAME:      %[[X:[a-z0-9]+]]: tensor<64x16xbf16>
// CHECK:         %[[W:.+]] = arith.constant dense_resource<ff_weights> : tensor<16x16xbf16>
// CHECK:         %[[R:.+]] = dsm.fused_chain ffn(%[[X]], %[[W]], %{{.+}}) :
// CHECK:           linalg.matmul
// CHECK:           arith.constant dense<5.000000e-01> : tensor<16x16xbf16>
// CHECK:           linalg.matmul
// CHECK:         return %[[R]]
// GEN-LABEL:   func.func @inlined_weights(
// GEN:           dsm.fused_chain ffn
func.func @inlined_weights(%x: tensor<64x16xbf16>, %z: tensor<64x16xbf16>) -> tensor<64x16xbf16> {
  %w1 = arith.constant dense_resource<ff_weights> : tensor<16x16xbf16>
  %w2 = arith.constant dense<0.5> : tensor<16x16xbf16>
  %c = linalg.matmul ins(%x, %w1 : tensor<64x16xbf16>, tensor<16x16xbf16>) outs(%z : tensor<64x16xbf16>) -> tensor<64x16xbf16>
  %e = linalg.matmul ins(%c, %w2 : tensor<64x16xbf16>, tensor<16x16xbf16>) outs(%z : tensor<64x16xbf16>) -> tensor<64x16xbf16>
  return %e : tensor<64x16xbf16>
}

{-#
  dialect_resources: {
    builtin: {
      ff_weights: "0x02000000803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F803F"
    }
  }
#-}

// RUN: ff-opt --dsm-fuse=report=true --verify-diagnostics %s | FileCheck %s
// RUN: ff-opt --dsm-fuse %s > %t.once.mlir
// RUN: ff-opt --dsm-fuse --dsm-fuse %s > %t.twice.mlir
// RUN: diff %t.once.mlir %t.twice.mlir

// FFN chains (kind ffn): GEMM, elementwise ops, GEMM, and the epilogue.

#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (j)>

// GELU (erf form, as torch-mlir writes it), bias add and residual add
// (epilogue), bf16 operands with f32 accumulation.
// CHECK-LABEL: func.func @gelu_bias_residual(
// CHECK-SAME:      %[[A:[a-z0-9]+]]: tensor<128x768xbf16>, %[[B:[a-z0-9]+]]: tensor<768x3072xbf16>, %[[D:[a-z0-9]+]]: tensor<3072x768xbf16>, %[[BIAS:[a-z0-9]+]]: tensor<768xf32>)
// CHECK-NOT:     linalg.matmul
// CHECK:         %[[R:.+]] = dsm.fused_chain ffn(%[[A]], %[[B]], %[[D]], %[[BIAS]]) : (tensor<128x768xbf16>, tensor<768x3072xbf16>, tensor<3072x768xbf16>, tensor<768xf32>) -> tensor<128x768xbf16> {
// CHECK-NEXT:    ^bb0(%[[XA:.+]]: tensor<128x768xbf16>, %[[XB:.+]]: tensor<768x3072xbf16>, %[[XD:.+]]: tensor<3072x768xbf16>, %[[XBIAS:.+]]: tensor<768xf32>):
// CHECK:           %[[ZERO:.+]] = linalg.fill
// CHECK:           %[[C:.+]] = linalg.matmul ins(%[[XA]], %[[XB]] : tensor<128x768xbf16>, tensor<768x3072xbf16>) outs(%[[ZERO]] : tensor<128x3072xf32>)
// CHECK:           %[[H:.+]] = linalg.generic {{.*}} ins(%[[C]] : tensor<128x3072xf32>)
// CHECK:             math.erf
// CHECK:           %[[E:.+]] = linalg.matmul ins(%[[H]], %[[XD]] : tensor<128x3072xbf16>, tensor<3072x768xbf16>)
// CHECK:           %[[Y:.+]] = linalg.generic {{.*}} ins(%[[E]], %[[XBIAS]], %[[XA]] : tensor<128x768xf32>, tensor<768xf32>, tensor<128x768xbf16>)
// CHECK:           dsm.yield %[[Y]] : tensor<128x768xbf16>
// CHECK-NEXT:    }
// CHECK-NEXT:    return %[[R]]
func.func @gelu_bias_residual(%a: tensor<128x768xbf16>, %b: tensor<768x3072xbf16>, %d: tensor<3072x768xbf16>, %bias: tensor<768xf32>) -> tensor<128x768xbf16> {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %half = arith.constant 0.5 : f32
  %sqrt2 = arith.constant 1.41421356 : f32
  %e0 = tensor.empty() : tensor<128x3072xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<128x3072xf32>) -> tensor<128x3072xf32>
  %c = linalg.matmul ins(%a, %b : tensor<128x768xbf16>, tensor<768x3072xbf16>) outs(%z0 : tensor<128x3072xf32>) -> tensor<128x3072xf32>
  %e1 = tensor.empty() : tensor<128x3072xbf16>
  %h = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%c : tensor<128x3072xf32>) outs(%e1 : tensor<128x3072xbf16>) {
  ^bb0(%x: f32, %o: bf16):
    %0 = arith.divf %x, %sqrt2 : f32
    %1 = math.erf %0 : f32
    %2 = arith.addf %1, %one : f32
    %3 = arith.mulf %2, %half : f32
    %4 = arith.mulf %x, %3 : f32
    %5 = arith.truncf %4 : f32 to bf16
    linalg.yield %5 : bf16
  } -> tensor<128x3072xbf16>
  %e2 = tensor.empty() : tensor<128x768xf32>
  %z2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<128x768xf32>) -> tensor<128x768xf32>
  %e = linalg.matmul ins(%h, %d : tensor<128x3072xbf16>, tensor<3072x768xbf16>) outs(%z2 : tensor<128x768xf32>) -> tensor<128x768xf32>
  %e3 = tensor.empty() : tensor<128x768xbf16>
  %y = linalg.generic {indexing_maps = [#id, #row, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%e, %bias, %a : tensor<128x768xf32>, tensor<768xf32>, tensor<128x768xbf16>) outs(%e3 : tensor<128x768xbf16>) {
  ^bb0(%x: f32, %bb: f32, %r: bf16, %o: bf16):
    %0 = arith.addf %x, %bb : f32
    %1 = arith.extf %r : bf16 to f32
    %2 = arith.addf %0, %1 : f32
    %3 = arith.truncf %2 : f32 to bf16
    linalg.yield %3 : bf16
  } -> tensor<128x768xbf16>
  return %y : tensor<128x768xbf16>
}

// Named elementwise ops: ReLU as linalg.max against a zero fill, a bias
// broadcast by linalg.broadcast and added by linalg.add, tanh through
// linalg.elementwise. f16 throughout (f16 accumulation in the IR is accepted;
// the kernels accumulate in f32). The broadcast bias does not depend on a
// GEMM, so it stays outside and enters as an operand.
// CHECK-LABEL: func.func @named_elementwise(
// CHECK-SAME:      %[[A:[a-z0-9]+]]: tensor<256x512xf16>, %[[B:[a-z0-9]+]]: tensor<512x1024xf16>, %[[D:[a-z0-9]+]]: tensor<1024x512xf16>, %[[BIAS:[a-z0-9]+]]: tensor<1024xf16>)
// CHECK:         %[[BB:.+]] = linalg.broadcast ins(%[[BIAS]]
// CHECK:         %[[R:.+]] = dsm.fused_chain ffn(%[[A]], %[[B]], %[[BB]], %[[D]])
// CHECK:           linalg.matmul
// CHECK:           linalg.add
// CHECK:           linalg.max
// CHECK:           linalg.elementwise kind=#linalg.elementwise_kind<tanh>
// CHECK:           linalg.matmul
// CHECK:           dsm.yield
// CHECK:         return %[[R]]
func.func @named_elementwise(%a: tensor<256x512xf16>, %b: tensor<512x1024xf16>, %d: tensor<1024x512xf16>, %bias: tensor<1024xf16>) -> tensor<256x512xf16> {
  %zero = arith.constant 0.0 : f16
  %e0 = tensor.empty() : tensor<256x1024xf16>
  %z0 = linalg.fill ins(%zero : f16) outs(%e0 : tensor<256x1024xf16>) -> tensor<256x1024xf16>
  %c = linalg.matmul ins(%a, %b : tensor<256x512xf16>, tensor<512x1024xf16>) outs(%z0 : tensor<256x1024xf16>) -> tensor<256x1024xf16>
  %bb = linalg.broadcast ins(%bias : tensor<1024xf16>) outs(%e0 : tensor<256x1024xf16>) dimensions = [0]
  %cb = linalg.add ins(%c, %bb : tensor<256x1024xf16>, tensor<256x1024xf16>) outs(%e0 : tensor<256x1024xf16>) -> tensor<256x1024xf16>
  %r = linalg.max ins(%cb, %z0 : tensor<256x1024xf16>, tensor<256x1024xf16>) outs(%e0 : tensor<256x1024xf16>) -> tensor<256x1024xf16>
  %t = linalg.elementwise kind=#linalg.elementwise_kind<tanh> ins(%r : tensor<256x1024xf16>) outs(%e0 : tensor<256x1024xf16>) -> tensor<256x1024xf16>
  %e2 = tensor.empty() : tensor<256x512xf16>
  %z2 = linalg.fill ins(%zero : f16) outs(%e2 : tensor<256x512xf16>) -> tensor<256x512xf16>
  %e = linalg.matmul ins(%t, %d : tensor<256x1024xf16>, tensor<1024x512xf16>) outs(%z2 : tensor<256x512xf16>) -> tensor<256x512xf16>
  return %e : tensor<256x512xf16>
}

// Dynamic M (tokens): the empty tensors inside the body take their size from
// the body's own input.
// CHECK-LABEL: func.func @dynamic_m(
// CHECK-SAME:      %[[A:[a-z0-9]+]]: tensor<?x512xbf16>, %[[B:[a-z0-9]+]]: tensor<512x2048xbf16>, %[[D:[a-z0-9]+]]: tensor<2048x512xbf16>)
// CHECK-NOT:     tensor.dim
// CHECK:         %[[R:.+]] = dsm.fused_chain ffn(%[[A]], %[[B]], %[[D]]) : (tensor<?x512xbf16>, tensor<512x2048xbf16>, tensor<2048x512xbf16>) -> tensor<?x512xf32>
// CHECK-NEXT:    ^bb0(%[[XA:.+]]: tensor<?x512xbf16>,
// CHECK:           %[[M:.+]] = tensor.dim %[[XA]], %{{.+}} : tensor<?x512xbf16>
// CHECK:           tensor.empty(%[[M]]) : tensor<?x2048xf32>
// CHECK:           linalg.matmul ins(%[[XA]],
// CHECK:           tensor.empty(%[[M]]) : tensor<?x2048xbf16>
// CHECK:           linalg.generic
// CHECK:           tensor.empty(%[[M]]) : tensor<?x512xf32>
// CHECK:           linalg.matmul
// CHECK:           dsm.yield
// CHECK:         return %[[R]]
func.func @dynamic_m(%a: tensor<?x512xbf16>, %b: tensor<512x2048xbf16>, %d: tensor<2048x512xbf16>) -> tensor<?x512xf32> {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %m = tensor.dim %a, %c0 : tensor<?x512xbf16>
  %e0 = tensor.empty(%m) : tensor<?x2048xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<?x2048xf32>) -> tensor<?x2048xf32>
  %c = linalg.matmul ins(%a, %b : tensor<?x512xbf16>, tensor<512x2048xbf16>) outs(%z0 : tensor<?x2048xf32>) -> tensor<?x2048xf32>
  %e1 = tensor.empty(%m) : tensor<?x2048xbf16>
  %h = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%c : tensor<?x2048xf32>) outs(%e1 : tensor<?x2048xbf16>) {
  ^bb0(%x: f32, %o: bf16):
    %0 = arith.maximumf %x, %zero : f32
    %1 = arith.truncf %0 : f32 to bf16
    linalg.yield %1 : bf16
  } -> tensor<?x2048xbf16>
  %e2 = tensor.empty(%m) : tensor<?x512xf32>
  %z2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<?x512xf32>) -> tensor<?x512xf32>
  %e = linalg.matmul ins(%h, %d : tensor<?x2048xbf16>, tensor<2048x512xbf16>) outs(%z2 : tensor<?x512xf32>) -> tensor<?x512xf32>
  return %e : tensor<?x512xf32>
}

// Batched chains (linalg.batch_matmul): one chain per batch entry, the batch
// becomes part of the grid.
// CHECK-LABEL: func.func @batched(
// CHECK:         dsm.fused_chain ffn
// CHECK:           linalg.batch_matmul ins(%{{.+}}, %{{.+}} : tensor<4x128x256xbf16>, tensor<4x256x512xbf16>)
// CHECK:           linalg.generic
// CHECK:           linalg.batch_matmul ins(%{{.+}}, %{{.+}} : tensor<4x128x512xbf16>, tensor<4x512x256xbf16>)
// CHECK:           dsm.yield
func.func @batched(%a: tensor<4x128x256xbf16>, %b: tensor<4x256x512xbf16>, %d: tensor<4x512x256xbf16>) -> tensor<4x128x256xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<4x128x512xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<4x128x512xf32>) -> tensor<4x128x512xf32>
  %c = linalg.batch_matmul ins(%a, %b : tensor<4x128x256xbf16>, tensor<4x256x512xbf16>) outs(%z0 : tensor<4x128x512xf32>) -> tensor<4x128x512xf32>
  %e1 = tensor.empty() : tensor<4x128x512xbf16>
  %h = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i, j)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%c : tensor<4x128x512xf32>) outs(%e1 : tensor<4x128x512xbf16>) {
  ^bb0(%x: f32, %o: bf16):
    %0 = arith.truncf %x : f32 to bf16
    linalg.yield %0 : bf16
  } -> tensor<4x128x512xbf16>
  %e2 = tensor.empty() : tensor<4x128x256xf32>
  %z2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<4x128x256xf32>) -> tensor<4x128x256xf32>
  %e = linalg.batch_matmul ins(%h, %d : tensor<4x128x512xbf16>, tensor<4x512x256xbf16>) outs(%z2 : tensor<4x128x256xf32>) -> tensor<4x128x256xf32>
  return %e : tensor<4x128x256xf32>
}

// No activation at all (identity): still a chain. The epilogue is not pulled
// in when the chain's result has a second user.
// CHECK-LABEL: func.func @identity_two_users(
// CHECK:         %[[R:.+]] = dsm.fused_chain ffn
// CHECK:           linalg.matmul
// CHECK-NEXT:      linalg.matmul
// CHECK-NEXT:      dsm.yield
// CHECK:         %[[S:.+]] = linalg.generic {{.*}} ins(%[[R]] :
// CHECK:         return %[[R]], %[[S]]
func.func @identity_two_users(%a: tensor<128x256xbf16>, %b: tensor<256x512xbf16>, %d: tensor<512x256xbf16>, %z0: tensor<128x512xbf16>, %z2: tensor<128x256xbf16>) -> (tensor<128x256xbf16>, tensor<128x256xbf16>) {
  %c = linalg.matmul ins(%a, %b : tensor<128x256xbf16>, tensor<256x512xbf16>) outs(%z0 : tensor<128x512xbf16>) -> tensor<128x512xbf16>
  %e = linalg.matmul ins(%c, %d : tensor<128x512xbf16>, tensor<512x256xbf16>) outs(%z2 : tensor<128x256xbf16>) -> tensor<128x256xbf16>
  %s = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%e : tensor<128x256xbf16>) outs(%z2 : tensor<128x256xbf16>) {
  ^bb0(%x: bf16, %o: bf16):
    %0 = arith.mulf %x, %x : bf16
    linalg.yield %0 : bf16
  } -> tensor<128x256xbf16>
  return %e, %s : tensor<128x256xbf16>, tensor<128x256xbf16>
}

// RUN: ff-opt --dsm-fuse=report=true --verify-diagnostics %s | FileCheck %s
// RUN: ff-opt --dsm-fuse %s > %t.once.mlir
// RUN: ff-opt --dsm-fuse --dsm-fuse %s > %t.twice.mlir
// RUN: diff %t.once.mlir %t.twice.mlir

// Longer chains and several chains per function. The lowering supports
// chains of two GEMMs (plus the gated form), so a chain of three or more is
// cut into consecutive pairs, each of kind ffn, and a GEMM left over gets a
// remark.

#id = affine_map<(i, j) -> (i, j)>

// Three GEMMs with activations between: the first two are fused (with the
// activation after the second as their epilogue), the third is left alone.
// CHECK-LABEL: func.func @three_gemms(
// CHECK-SAME:      %[[A:[a-z0-9]+]]: tensor<128x256xbf16>, %[[W1:[a-z0-9]+]]: tensor<256x512xbf16>, %[[W2:[a-z0-9]+]]: tensor<512x256xbf16>, %[[W3:[a-z0-9]+]]: tensor<256x128xbf16>
// CHECK:         %[[F:.+]] = dsm.fused_chain ffn(%[[A]], %[[W1]], %{{.+}}, %[[W2]], %{{.+}}) : ({{.*}}) -> tensor<128x256xbf16>
// CHECK:           linalg.matmul
// CHECK:           linalg.max
// CHECK:           linalg.matmul
// CHECK:           linalg.max
// CHECK:           dsm.yield
// CHECK:         %[[G:.+]] = linalg.matmul ins(%[[F]], %[[W3]] :
// CHECK:         return %[[G]]
func.func @three_gemms(%a: tensor<128x256xbf16>, %w1: tensor<256x512xbf16>, %w2: tensor<512x256xbf16>, %w3: tensor<256x128xbf16>, %z1: tensor<128x512xbf16>, %z2: tensor<128x256xbf16>, %z3: tensor<128x128xbf16>) -> tensor<128x128xbf16> {
  %c1 = linalg.matmul ins(%a, %w1 : tensor<128x256xbf16>, tensor<256x512xbf16>) outs(%z1 : tensor<128x512xbf16>) -> tensor<128x512xbf16>
  %r1 = linalg.max ins(%c1, %z1 : tensor<128x512xbf16>, tensor<128x512xbf16>) outs(%z1 : tensor<128x512xbf16>) -> tensor<128x512xbf16>
  %c2 = linalg.matmul ins(%r1, %w2 : tensor<128x512xbf16>, tensor<512x256xbf16>) outs(%z2 : tensor<128x256xbf16>) -> tensor<128x256xbf16>
  %r2 = linalg.max ins(%c2, %z2 : tensor<128x256xbf16>, tensor<128x256xbf16>) outs(%z2 : tensor<128x256xbf16>) -> tensor<128x256xbf16>
  // expected-remark @below {{GEMM not fused: the chain continues past two GEMMs; it is cut before this GEMM (the lowering supports chains of two GEMMs plus the gated form)}}
  %c3 = linalg.matmul ins(%r2, %w3 : tensor<128x256xbf16>, tensor<256x128xbf16>) outs(%z3 : tensor<128x128xbf16>) -> tensor<128x128xbf16>
  return %c3 : tensor<128x128xbf16>
}

// Five GEMMs: pairs (1, 2) and (3, 4) are fused, the fifth is left alone.
// CHECK-LABEL: func.func @five_gemms(
// CHECK:         %[[F1:.+]] = dsm.fused_chain ffn
// CHECK-COUNT-2:   linalg.matmul
// CHECK:           dsm.yield
// CHECK:         %[[F2:.+]] = dsm.fused_chain ffn(%[[F1]],
// CHECK-COUNT-2:   linalg.matmul
// CHECK:           dsm.yield
// CHECK:         %[[L:.+]] = linalg.matmul ins(%[[F2]],
// CHECK:         return %[[L]]
func.func @five_gemms(%a: tensor<128x256xbf16>, %w: tensor<256x256xbf16>, %z: tensor<128x256xbf16>) -> tensor<128x256xbf16> {
  %c1 = linalg.matmul ins(%a, %w : tensor<128x256xbf16>, tensor<256x256xbf16>) outs(%z : tensor<128x256xbf16>) -> tensor<128x256xbf16>
  %c2 = linalg.matmul ins(%c1, %w : tensor<128x256xbf16>, tensor<256x256xbf16>) outs(%z : tensor<128x256xbf16>) -> tensor<128x256xbf16>
  %c3 = linalg.matmul ins(%c2, %w : tensor<128x256xbf16>, tensor<256x256xbf16>) outs(%z : tensor<128x256xbf16>) -> tensor<128x256xbf16>
  %c4 = linalg.matmul ins(%c3, %w : tensor<128x256xbf16>, tensor<256x256xbf16>) outs(%z : tensor<128x256xbf16>) -> tensor<128x256xbf16>
  // expected-remark @below {{GEMM not fused: the chain continues past two GEMMs; it is cut before this GEMM}}
  %c5 = linalg.matmul ins(%c4, %w : tensor<128x256xbf16>, tensor<256x256xbf16>) outs(%z : tensor<128x256xbf16>) -> tensor<128x256xbf16>
  return %c5 : tensor<128x256xbf16>
}

// Two independent chains in one function (an FFN and a gated FFN), the second
// consuming the first: both are fused, uses are rewired.
// CHECK-LABEL: func.func @two_chains(
// CHECK-SAME:      %[[X:[a-z0-9]+]]: tensor<64x256xbf16>
// CHECK:         %[[F:.+]] = dsm.fused_chain ffn(%[[X]],
// CHECK:           dsm.yield
// CHECK:         %[[G:.+]] = dsm.fused_chain gated_ffn(%[[F]],
// CHECK:           dsm.yield
// CHECK:         return %[[F]], %[[G]]
func.func @two_chains(%x: tensor<64x256xbf16>, %w1: tensor<256x1024xbf16>, %w2: tensor<1024x256xbf16>, %wg: tensor<256x1024xbf16>, %wu: tensor<256x1024xbf16>, %wd: tensor<1024x256xbf16>, %z1: tensor<64x1024xbf16>, %z2: tensor<64x256xbf16>) -> (tensor<64x256xbf16>, tensor<64x256xbf16>) {
  %c1 = linalg.matmul ins(%x, %w1 : tensor<64x256xbf16>, tensor<256x1024xbf16>) outs(%z1 : tensor<64x1024xbf16>) -> tensor<64x1024xbf16>
  %r1 = linalg.max ins(%c1, %z1 : tensor<64x1024xbf16>, tensor<64x1024xbf16>) outs(%z1 : tensor<64x1024xbf16>) -> tensor<64x1024xbf16>
  %y1 = linalg.matmul ins(%r1, %w2 : tensor<64x1024xbf16>, tensor<1024x256xbf16>) outs(%z2 : tensor<64x256xbf16>) -> tensor<64x256xbf16>
  %g = linalg.matmul ins(%y1, %wg : tensor<64x256xbf16>, tensor<256x1024xbf16>) outs(%z1 : tensor<64x1024xbf16>) -> tensor<64x1024xbf16>
  %u = linalg.matmul ins(%y1, %wu : tensor<64x256xbf16>, tensor<256x1024xbf16>) outs(%z1 : tensor<64x1024xbf16>) -> tensor<64x1024xbf16>
  %s = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%g : tensor<64x1024xbf16>) outs(%z1 : tensor<64x1024xbf16>) {
  ^bb0(%v: bf16, %o: bf16):
    %one = arith.constant 1.0 : bf16
    %0 = arith.negf %v : bf16
    %1 = math.exp %0 : bf16
    %2 = arith.addf %one, %1 : bf16
    %3 = arith.divf %v, %2 : bf16
    linalg.yield %3 : bf16
  } -> tensor<64x1024xbf16>
  %p = linalg.mul ins(%s, %u : tensor<64x1024xbf16>, tensor<64x1024xbf16>) outs(%z1 : tensor<64x1024xbf16>) -> tensor<64x1024xbf16>
  %y2 = linalg.matmul ins(%p, %wd : tensor<64x1024xbf16>, tensor<1024x256xbf16>) outs(%z2 : tensor<64x256xbf16>) -> tensor<64x256xbf16>
  return %y1, %y2 : tensor<64x256xbf16>, tensor<64x256xbf16>
}

// Chains inside a loop body are found too (one block at a time).
// CHECK-LABEL: func.func @in_loop(
// CHECK:         scf.for
// CHECK:           dsm.fused_chain ffn
// CHECK:           scf.yield
func.func @in_loop(%a: tensor<128x256xbf16>, %w1: tensor<256x512xbf16>, %w2: tensor<512x256xbf16>, %z1: tensor<128x512xbf16>, %n: index) -> tensor<128x256xbf16> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%x = %a) -> (tensor<128x256xbf16>) {
    %h = linalg.matmul ins(%x, %w1 : tensor<128x256xbf16>, tensor<256x512xbf16>) outs(%z1 : tensor<128x512xbf16>) -> tensor<128x512xbf16>
    %y = linalg.matmul ins(%h, %w2 : tensor<128x512xbf16>, tensor<512x256xbf16>) outs(%x : tensor<128x256xbf16>) -> tensor<128x256xbf16>
    scf.yield %y : tensor<128x256xbf16>
  }
  return %r : tensor<128x256xbf16>
}

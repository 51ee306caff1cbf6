// Unknown or misspelled dsm ops, attributes and types are parse errors with a
// location and a non-zero exit.
//
// RUN: not ff-opt %s --split-input-file --dsm-fuse --dsm-search --lower-to-nvvm -o /dev/null 2>&1 | FileCheck %s

// CHECK: unknown-ops.mlir:[[# @LINE + 2]]:8: error: custom op 'dsm.frobnicate' is unknown
func.func @unknown_op(%a: tensor<128x256xbf16>) -> tensor<128x256xbf16> {
  %r = dsm.frobnicate %a : tensor<128x256xbf16>
  return %r : tensor<128x256xbf16>
}

// -----

// CHECK: unknown-ops.mlir:[[# @LINE + 2]]:8: error: unregistered operation 'dsm.fused_chains' found in dialect ('dsm') that does not allow unknown operations
func.func @misspelled(%a: tensor<128x256xbf16>) -> tensor<128x256xbf16> {
  %r = "dsm.fused_chains"(%a) : (tensor<128x256xbf16>) -> tensor<128x256xbf16>
  return %r : tensor<128x256xbf16>
}

// -----

// CHECK: unknown-ops.mlir:[[# @LINE + 1]]:40: error: unknown attribute `plan` in dialect `dsm`
func.func @attr() attributes {s = #dsm.plan<>} {
  return
}

// -----

// CHECK: unknown-ops.mlir:[[# @LINE + 1]]:26: error: unknown  type `tensor` in dialect `dsm`
func.func @type(%b: !dsm.tensor<4xbf16>) {
  return
}

// -----

// A fused_chain with an unknown kind.
// CHECK: unknown-ops.mlir:[[# @LINE + 2]]:24: error: custom op 'dsm.fused_chain' unknown keyword 'mlp'
func.func @kind(%a: tensor<128x256xbf16>) -> tensor<128x256xbf16> {
  %r = dsm.fused_chain mlp (%a) : (tensor<128x256xbf16>) -> tensor<128x256xbf16> {
  ^bb0(%x: tensor<128x256xbf16>):
    dsm.yield %x : tensor<128x256xbf16>
  }
  return %r : tensor<128x256xbf16>
}

// -----

// A fused_chain whose body holds no contraction.
// CHECK: unknown-ops.mlir:[[# @LINE + 2]]:8: error: 'dsm.fused_chain' op body does not hold a gemm chain of static-N/K contractions
func.func @no_gemm(%a: tensor<128x256xbf16>) -> tensor<128x256xbf16> {
  %r = dsm.fused_chain gemm (%a) : (tensor<128x256xbf16>) -> tensor<128x256xbf16> {
  ^bb0(%x: tensor<128x256xbf16>):
    dsm.yield %x : tensor<128x256xbf16>
  }
  return %r : tensor<128x256xbf16>
}

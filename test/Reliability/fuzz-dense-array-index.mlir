// Found by ff-fuzz in CI (docs/reliability.md): a dense array of `index`
// elements, which the builtin attribute does not allow, crashes upstream
// MLIR 22's parser: DenseArrayAttr parsing takes every non-integer element
// type for a float and calls FloatType::getWidth() on `index`. Debian's
// mlir-opt-22 crashes the same way, on `array<index>` too; nothing in
// FlashFuser runs yet. Kept as an expected failure so that a fixed libMLIR
// shows up as XPASS.
//
// XFAIL: *
// RUN: not ff-opt %s --dsm-fuse --dsm-search --lower-to-nvvm 2>&1 | FileCheck %s

// CHECK: fuzz-dense-array-index.mlir:[[# @LINE + 1]]:{{[0-9]+}}: error:
func.func @f() attributes {a = array<index: 1>} {
  return
}

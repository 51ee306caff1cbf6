// Found by ff-fuzz (docs/reliability.md): a malformed `permutation` on
// linalg.transpose reports "invalid type identifier" and then crashes in
// upstream MLIR 22's TransposeOp::parse (it stores the attribute it failed to
// parse: NamedAttrList::set(null) -> Attribute::getContext()). Debian's
// mlir-opt-22 crashes the same way; nothing in FlashFuser runs yet. Kept as
// an expected failure so that a fixed libMLIR shows up as XPASS.
//
// XFAIL: *
// RUN: not ff-opt %s --dsm-fuse --dsm-search --lower-to-nvvm 2>&1 | FileCheck %s

// CHECK: fuzz-linalg-transpose-permutation.mlir:[[# @LINE + 2]]:95: error: invalid type identifier
func.func @t(%c: tensor<4x4xbf16>, %e: tensor<4x4xbf16>) -> tensor<4x4xbf16> {
  %t = linalg.transpose ins(%c : tensor<4x4xbf16>) outs(%e : tensor<4x4xbf16>) permutation = [!, 0]
  return %t : tensor<4x4xbf16>
}

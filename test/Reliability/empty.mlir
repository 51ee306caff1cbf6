// Empty input is correct input: an empty file, an empty module and a module
// without GEMMs go through the whole pipeline unchanged.
//
// RUN: printf "" | ff-opt --dsm-fuse --dsm-search --lower-to-nvvm | FileCheck %s --check-prefix=EMPTY
// RUN: ff-opt %s --split-input-file --dsm-fuse --dsm-search --lower-to-nvvm | FileCheck %s

// The search records its target on the module, nothing else is added.
// EMPTY: module attributes {dsm.target = #dsm.target<name = "h100-sxm"{{.*}}>} {
// EMPTY-NEXT: }

// CHECK: module attributes {dsm.target = {{.*}}} {
// CHECK-NEXT: }
module {
}

// -----

// CHECK-LABEL: llvm.func @scale(
// CHECK: llvm.fmul
// CHECK-NOT: gpu.binary
func.func @scale(%x: f32) -> f32 {
  %c = arith.constant 2.0 : f32
  %y = arith.mulf %x, %c : f32
  return %y : f32
}

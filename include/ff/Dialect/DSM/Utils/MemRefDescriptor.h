//===- MemRefDescriptor.h - memrefs over raw pointers -----------*- C++ -*-===//
//
// Part of the FlashFuser project.
//
//===----------------------------------------------------------------------===//

#ifndef FF_DIALECT_DSM_UTILS_MEMREFDESCRIPTOR_H
#define FF_DIALECT_DSM_UTILS_MEMREFDESCRIPTOR_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"

namespace mlir::dsm {

/// A memref of `type` over the LLVM pointer `ptr`: an LLVM memref descriptor
/// (`ptr` as allocated and aligned pointer, element offset `offset` or 0
/// when null, `type`'s static sizes with `dynamicSizes` (i64, in order) for
/// the dynamic ones, and its strides, which must be static) cast back to
/// `type`. The later memref-to-LLVM conversion produces the same descriptor
/// type, so the casts fold away.
Value createMemRefFromPointer(OpBuilder &b, Location loc, Value ptr,
                              MemRefType type, Value offset = Value(),
                              ValueRange dynamicSizes = {});

} // namespace mlir::dsm

#endif // FF_DIALECT_DSM_UTILS_MEMREFDESCRIPTOR_H

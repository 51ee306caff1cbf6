//===- Passes.h - dsm dialect passes ----------------------------*- C++ -*-===//
//
// Part of the FlashFuser project.
//
//===----------------------------------------------------------------------===//

#ifndef FF_DIALECT_DSM_TRANSFORMS_PASSES_H
#define FF_DIALECT_DSM_TRANSFORMS_PASSES_H

#include "ff/Analysis/Search.h"
#include "ff/Dialect/DSM/IR/DSMOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::dsm {

#define GEN_PASS_DECL
#include "ff/Dialect/DSM/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "ff/Dialect/DSM/Transforms/Passes.h.inc"

} // namespace mlir::dsm

#endif // FF_DIALECT_DSM_TRANSFORMS_PASSES_H

//===- Passes.h - FlashFuser conversion passes ------------------*- C++ -*-===//
//
// Part of the FlashFuser project.
//
//===----------------------------------------------------------------------===//

#ifndef FF_CONVERSION_PASSES_H
#define FF_CONVERSION_PASSES_H

#include "ff/Conversion/DSMToNVGPU/DSMToNVGPU.h"

#include "mlir/Pass/Pass.h"

namespace mlir::ff {

#define GEN_PASS_DECL
#include "ff/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "ff/Conversion/Passes.h.inc"

} // namespace mlir::ff

#endif // FF_CONVERSION_PASSES_H

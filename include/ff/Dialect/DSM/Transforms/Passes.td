//===- Passes.td - dsm dialect passes ----------------------*- tablegen -*-===//
//
// Part of the FlashFuser project.
//
// Keep alphabetical. Test files are named after the pass flag.
//
//===----------------------------------------------------------------------===//

#ifndef FF_DIALECT_DSM_TRANSFORMS_PASSES_TD
#define FF_DIALECT_DSM_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

#endif // FF_DIALECT_DSM_TRANSFORMS_PASSES_TD

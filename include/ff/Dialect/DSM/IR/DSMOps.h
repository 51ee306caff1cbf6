//===- DSMOps.h - dsm dialect operations ------------------------*- C++ -*-===//
//
// Part of the FlashFuser project.
//
//===----------------------------------------------------------------------===//

#ifndef FF_DIALECT_DSM_IR_DSMOPS_H
#define FF_DIALECT_DSM_IR_DSMOPS_H

#include "ff/Dialect/DSM/IR/DSMAttrs.h"
#include "ff/Dialect/DSM/IR/DSMDialect.h"
#include "ff/Dialect/DSM/IR/DSMTypes.h"

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::dsm {

/// One contraction of a fused chain. Extents are static except `m`, which may
/// be ShapedType::kDynamic; `batch` is 1 for plain GEMMs.
struct ChainGemm {
  Operation *op = nullptr;
  int64_t batch = 1, m = 0, n = 0, k = 0;
};

/// The unified loop extents of a fused chain (FlashFuser's {M, N, K, L}):
/// C[M,N] = A[M,K]·B[K,N], E[M,L] = act(C)·D[N,L]. For a chain of one GEMM,
/// `l` is 0; for longer chains they describe the first pair.
struct ChainShape {
  SmallVector<ChainGemm> gemms;
  Type elementType;
  int64_t m = 0, n = 0, k = 0, l = 0;
};

} // namespace mlir::dsm

#define GET_OP_CLASSES
#include "ff/Dialect/DSM/IR/DSMOps.h.inc"

#endif // FF_DIALECT_DSM_IR_DSMOPS_H

//===- Ptx.h - inline PTX statements ----------------------------*- C++ -*-===//
//
// Part of the FlashFuser project.
//
// The few instructions the NVVM dialect of MLIR 22 cannot express (vector
// red.global, st.async, cluster-scope mbarrier waits, createpolicy), as
// inline PTX.
//
//===----------------------------------------------------------------------===//

#ifndef FF_DIALECT_DSM_UTILS_PTX_H
#define FF_DIALECT_DSM_UTILS_PTX_H

#include "mlir/IR/Builders.h"

namespace mlir::dsm {

/// An inline PTX statement with side effects, no results and a memory
/// clobber; `constraints` lists the operands' only.
void createPtxStatement(OpBuilder &b, Location loc, ValueRange operands,
                        StringRef text, StringRef constraints);

/// `red.relaxed.gpu.global.add{.v2,.v4}.f32 [ptr], values`: 1, 2 or 4 f32
/// values added to consecutive floats at the global address `ptr`.
void createGlobalAddF32(OpBuilder &b, Location loc, Value ptr,
                        ValueRange values);

/// `tanh.approx.f32` of the f32 `x` (sm_75+; relative error at most
/// 2^-11).
Value createTanhApproxF32(OpBuilder &b, Location loc, Value x);

/// `createpolicy.fractional.L2::evict_first.b64 policy, 1.0`: an i64 L2
/// cache policy that marks every line it covers first to evict, for the
/// `.L2::cache_hint` of loads whose data is read once.
Value createL2EvictFirstPolicy(OpBuilder &b, Location loc);

} // namespace mlir::dsm

#endif // FF_DIALECT_DSM_UTILS_PTX_H

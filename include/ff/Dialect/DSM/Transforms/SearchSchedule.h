//===- SearchSchedule.h - glue between dsm IR and the cost model -*- C++
//-*-===//
//
// Part of the FlashFuser project.
//
// Conversions between the dsm dialect (fused chains, #dsm.target,
// #dsm.schedule) and the pure-C++ search library in ff/Analysis, shared by
// --dsm-search and --test-dsm-cost-model.
//
//===----------------------------------------------------------------------===//

#ifndef FF_DIALECT_DSM_TRANSFORMS_SEARCHSCHEDULE_H
#define FF_DIALECT_DSM_TRANSFORMS_SEARCHSCHEDULE_H

#include "ff/Analysis/CostModel.h"
#include "ff/Analysis/Plan.h"
#include "ff/Analysis/Target.h"
#include "ff/Dialect/DSM/IR/DSMOps.h"

namespace mlir::dsm {

/// The `#dsm.target` attribute describing table entry `target`.
TargetAttr getTargetAttr(MLIRContext *ctx, const ff::GpuTarget &target);

/// Looks `name` up in the target table and applies the calibration file
/// `calibration` (if non-empty); reports problems through `emitError`.
FailureOr<ff::GpuTarget>
loadSearchTarget(StringRef name, StringRef calibration,
                 function_ref<InFlightDiagnostic()> emitError);

/// The cost model's view of `op`. `chain.m` is 0 when M is dynamic. Emits an
/// error on `op` for bodies that are not a chain or unsupported types.
FailureOr<ff::ChainDesc> getChainDesc(FusedChainOp op);

/// Builds the `#dsm.schedule` of `plan` (collectives and residency derived
/// from the plan and its dataflow); null, with a diagnostic through
/// `emitError`, if the attribute verifier rejects it.
ScheduleAttr getScheduleAttr(MLIRContext *ctx, const ff::Plan &plan,
                             const ff::Dataflow &flow,
                             const ff::ChainDesc &chain, double costNs,
                             int64_t mLo, int64_t mHi,
                             function_ref<InFlightDiagnostic()> emitError);

/// The library plan `sched` describes.
ff::Plan getPlan(ScheduleAttr sched);

} // namespace mlir::dsm

#endif // FF_DIALECT_DSM_TRANSFORMS_SEARCHSCHEDULE_H

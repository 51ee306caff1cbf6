//===- SequenceChains.h - An FFN chain as two GEMM chains -------*- C++ -*-===//
//
// Part of the FlashFuser project.
//
// An FFN chain may run as a sequence of two single-GEMM kernels: act(A B)
// (gated: act(A Bg) * (A Bu)) into an intermediate, then C D
// (docs/lowering.md, "Kernel sequences"). --dsm-search prices that against
// the fused plans and records the two schedules in the chain's `sequence`
// attribute; --dsm-materialize builds the two kernels into one bundle. Both
// see the halves as ordinary `dsm.fused_chain gemm` (or `gated_gemm`) ops
// built by buildSequenceChains.
//
//===----------------------------------------------------------------------===//

#ifndef FF_DIALECT_DSM_TRANSFORMS_SEQUENCECHAINS_H
#define FF_DIALECT_DSM_TRANSFORMS_SEQUENCECHAINS_H

#include "ff/Dialect/DSM/IR/DSMOps.h"

#include "mlir/IR/Builders.h"

#include <optional>
#include <string>
#include <utility>

namespace mlir::dsm {

/// The two single-GEMM chains of the FFN chain `op` (plain or gated, static
/// or dynamic M; not a convolution): act(A B) (a `gemm` chain) or act(A Bg)
/// * (A Bu) (a `gated_gemm` chain), whose result is the bf16 left operand
/// of the down matmul, and that result times D, which yields what `op`
/// yields. Both are built right before `op`, without
/// schedules, the second reading the first's result; the caller erases them
/// (second, then first). Fails with `why` when `op` does not split so.
FailureOr<std::pair<FusedChainOp, FusedChainOp>>
buildSequenceChains(OpBuilder &b, FusedChainOp op, std::string &why);

/// The schedules of the two kernels in `op`'s `sequence` that run the M bin
/// of the fused schedule `sched` (for a static M, the only pair); none where
/// that bin runs fused.
std::optional<std::pair<ScheduleAttr, ScheduleAttr>>
getSequencePair(FusedChainOp op, ScheduleAttr sched);

} // namespace mlir::dsm

#endif // FF_DIALECT_DSM_TRANSFORMS_SEQUENCECHAINS_H

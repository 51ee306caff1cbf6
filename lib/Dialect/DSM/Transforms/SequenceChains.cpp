//===- SequenceChains.cpp - An FFN chain as two GEMM chains -----*- C++ -*-===//
//
// Part of the FlashFuser project.
//
//===----------------------------------------------------------------------===//

#include "ff/Dialect/DSM/Transforms/SequenceChains.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::dsm;

/// The ops of `body` that `root` depends on (operands of nested regions
/// included), not looking through `stop`.
static llvm::SmallPtrSet<Operation *, 16> getSlice(Block &body, Value root,
                                                   Value stop) {
  llvm::SmallPtrSet<Operation *, 16> slice;
  SmallVector<Value> work{root};
  while (!work.empty()) {
    Value v = work.pop_back_val();
    if (v == stop)
      continue;
    Operation *def = v.getDefiningOp();
    if (!def || def->getBlock() != &body || !slice.insert(def).second)
      continue;
    def->walk([&](Operation *nested) {
      for (Value operand : nested->getOperands())
        work.push_back(operand);
    });
  }
  return slice;
}

/// A chain of `kind` before `op` on `inputs` whose body is the ops of `slice`
/// in `op`'s order, with `mapping` seeded for its block arguments' sources,
/// yielding the image of `result`.
static FusedChainOp buildChain(OpBuilder &b, FusedChainOp op, ChainKind kind,
                               ValueRange inputs, ArrayRef<Value> argSources,
                               const llvm::SmallPtrSet<Operation *, 16> &slice,
                               Value result) {
  Location loc = op.getLoc();
  auto chain = FusedChainOp::create(b, loc, TypeRange{result.getType()}, inputs,
                                    kind, Attribute(), ArrayAttr());
  Block *block = new Block();
  chain.getBody().push_back(block);
  IRMapping mapping;
  for (auto [input, source] : llvm::zip(inputs, argSources))
    mapping.map(source, block->addArgument(input.getType(), loc));
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToEnd(block);
  for (Operation &inner : op.getBodyBlock().without_terminator())
    if (slice.contains(&inner))
      b.clone(inner, mapping);
  YieldOp::create(b, loc, ValueRange{mapping.lookup(result)});
  return chain;
}

FailureOr<std::pair<FusedChainOp, FusedChainOp>>
mlir::dsm::buildSequenceChains(OpBuilder &b, FusedChainOp op,
                               std::string &why) {
  bool gated = op.getKind() == ChainKind::gated_ffn;
  if ((op.getKind() != ChainKind::ffn && !gated) || op->getNumResults() != 1) {
    why = "only FFN chains (plain or gated) of one result run as two GEMM "
          "kernels";
    return failure();
  }
  FailureOr<ChainShape> shape = op.getChainShape();
  if (failed(shape) || shape->gemms.size() != (gated ? 3u : 2u)) {
    why = "body does not match its chain kind";
    return failure();
  }
  // The up-projection(s) (gated: gate, then up) and the down matmul.
  SmallVector<linalg::MatmulOp, 2> ups;
  for (const ChainGemm &g : ArrayRef(shape->gemms).drop_back())
    ups.push_back(dyn_cast<linalg::MatmulOp>(g.op));
  auto down = dyn_cast<linalg::MatmulOp>(shape->gemms.back().op);
  Block &body = op.getBodyBlock();
  // A chain input, read directly or through views the chain makes of it,
  // which the half keeps: a collapse_shape (a convolution's NHWC image or
  // OHWI filter as a matrix) and a 3x3 convolution's im2col, a copy
  // generic of the zero-padded image (the single-GEMM lowering reads it
  // through 4-D TMA boxes, as the fused kernel does).
  auto argOf = [&](Value v) -> BlockArgument {
    while (Operation *def = v.getDefiningOp()) {
      if (def->getBlock() != &body)
        break;
      if (auto collapse = dyn_cast<tensor::CollapseShapeOp>(def))
        v = collapse.getSrc();
      else if (auto pad = dyn_cast<tensor::PadOp>(def))
        v = pad.getSource();
      else if (auto copy = dyn_cast<linalg::GenericOp>(def);
               copy && copy.getNumDpsInputs() == 1 &&
               copy.getBody()->getOperations().size() == 1 &&
               copy.getBody()->getTerminator()->getOperand(0) ==
                   copy.getBody()->getArgument(0))
        v = copy.getDpsInputOperand(0)->get();
      else
        break;
    }
    auto arg = dyn_cast<BlockArgument>(v);
    return arg && arg.getOwner() == &body ? arg : BlockArgument();
  };
  bool direct = down && argOf(down.getInputs()[1]);
  for (linalg::MatmulOp up : ups)
    direct = direct && up && argOf(up.getInputs()[0]) &&
             argOf(up.getInputs()[1]) &&
             up.getInputs()[0] == ups[0].getInputs()[0];
  if (!direct) {
    why = "the matmuls must read chain inputs directly (no convolutions), "
          "gate and up the same one";
    return failure();
  }
  Value act = down.getInputs()[0];
  Value result = cast<YieldOp>(body.getTerminator()).getValues()[0];
  // The result: the down GEMM's rows, or their expand_shape back to the
  // image (a 1x1 convolution's NHWC output).
  Value rows = result;
  if (auto expand = result.getDefiningOp<tensor::ExpandShapeOp>())
    if (expand->getBlock() == &body)
      rows = expand.getSrc();
  if (!act.getDefiningOp() || act.getDefiningOp()->getBlock() != &body ||
      !act.hasOneUse() || cast<ShapedType>(rows.getType()).getRank() != 2) {
    why = "the activation must be computed in the chain and read only by the "
          "down matmul, and the result must be rank 2 (or its expand_shape)";
    return failure();
  }
  llvm::SmallPtrSet<Operation *, 16> first = getSlice(body, act, Value());
  llvm::SmallPtrSet<Operation *, 16> second = getSlice(body, result, act);
  for (linalg::MatmulOp up : ups)
    if (second.contains(up)) {
      why = "the down matmul's result must not depend on the first matmuls "
            "except through the activation";
      return failure();
    }
  // The fused chain's operand that block argument `arg` stands for.
  auto outer = [&](Value arg) {
    return op.getInputs()[cast<BlockArgument>(arg).getArgNumber()];
  };
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(op);
  // The first chain reads A and the up weight(s), in the fused chain's
  // order.
  SmallVector<Value, 3> sources{argOf(ups[0].getInputs()[0])};
  for (linalg::MatmulOp up : ups)
    sources.push_back(argOf(up.getInputs()[1]));
  SmallVector<Value, 3> inputs;
  for (Value v : sources)
    inputs.push_back(outer(v));
  Value w2 = argOf(down.getInputs()[1]);
  FusedChainOp c0 =
      buildChain(b, op, gated ? ChainKind::gated_gemm : ChainKind::gemm, inputs,
                 sources, first, act);
  FusedChainOp c1 =
      buildChain(b, op, ChainKind::gemm, {c0->getResult(0), outer(w2)},
                 {act, w2}, second, result);
  return std::make_pair(c0, c1);
}

std::optional<std::pair<ScheduleAttr, ScheduleAttr>>
mlir::dsm::getSequencePair(FusedChainOp op, ScheduleAttr sched) {
  ArrayAttr sequence = op.getSequenceAttr();
  for (unsigned i = 0; sequence && i + 1 < sequence.size(); i += 2) {
    auto s0 = cast<ScheduleAttr>(sequence[i]);
    if (!sched.hasMBin() ||
        (s0.getMLo() == sched.getMLo() && s0.getMHi() == sched.getMHi()))
      return std::make_pair(s0, cast<ScheduleAttr>(sequence[i + 1]));
  }
  return std::nullopt;
}

//===- DSMFolds.cpp - dsm dialect folders and canonicalizers ----*- C++ -*-===//
//
// Part of the FlashFuser project.
//
//===----------------------------------------------------------------------===//

#include "ff/Dialect/DSM/IR/DSMOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/DenseSet.h"

using namespace mlir;
using namespace mlir::dsm;

/// The `known_cluster_size` of the enclosing kernel, if one fixes it.
static std::optional<SmallVector<int32_t, 3>> getKnownClusterSize(Operation *op) {
  for (Operation *p = op->getParentOp(); p; p = p->getParentOp())
    if (auto dims = p->getAttrOfType<DenseI32ArrayAttr>("known_cluster_size"))
      if (dims.size() == 3)
        return SmallVector<int32_t, 3>(dims.asArrayRef());
  return std::nullopt;
}

Operation *DSMDialect::materializeConstant(OpBuilder &builder, Attribute value,
                                           Type type, Location loc) {
  return arith::ConstantOp::materialize(builder, value, type, loc);
}

OpFoldResult ClusterRankOp::fold(FoldAdaptor) {
  auto dims = getKnownClusterSize(*this);
  if (dims && (*dims)[0] * (*dims)[1] * (*dims)[2] == 1)
    return IntegerAttr::get(IndexType::get(getContext()), 0);
  return {};
}

LogicalResult ClusterShapeOp::fold(FoldAdaptor,
                                   SmallVectorImpl<OpFoldResult> &results) {
  auto dims = getKnownClusterSize(*this);
  if (!dims)
    return failure();
  Type index = IndexType::get(getContext());
  for (int32_t d : *dims)
    results.push_back(IntegerAttr::get(index, d));
  return success();
}

namespace {

/// Drops inputs whose block argument is unused and merges inputs passed more
/// than once, so that equal chains look equal (and later passes see the
/// operands the kernel really reads).
struct SimplifyFusedChainInputs : public OpRewritePattern<FusedChainOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(FusedChainOp op,
                                PatternRewriter &rewriter) const override {
    Block &body = op.getBodyBlock();
    // An input is kept, at its first position, if any of its block arguments
    // is used.
    llvm::SmallDenseSet<Value> used;
    for (auto [input, arg] :
         llvm::zip_equal(op.getInputs(), body.getArguments()))
      if (!arg.use_empty())
        used.insert(input);
    SmallVector<Value> newInputs;
    // For each old argument: the index of the input that replaces it, or -1.
    SmallVector<int64_t> remap;
    for (Value input : op.getInputs()) {
      if (!used.contains(input)) {
        remap.push_back(-1);
        continue;
      }
      auto it = llvm::find(newInputs, input);
      remap.push_back(it - newInputs.begin());
      if (it == newInputs.end())
        newInputs.push_back(input);
    }
    if (newInputs.size() == op.getInputs().size())
      return failure();

    auto newOp = FusedChainOp::create(
        rewriter, op.getLoc(), op.getResultTypes(), newInputs, op.getKindAttr(),
        op.getScheduleAttr(), op.getSequenceAttr());
    newOp->setDiscardableAttrs(op->getDiscardableAttrDictionary());
    Block *newBody = rewriter.createBlock(&newOp.getBody());
    for (Value v : newInputs)
      newBody->addArgument(v.getType(), v.getLoc());
    IRMapping mapping;
    for (auto [arg, idx] : llvm::zip_equal(body.getArguments(), remap))
      if (idx >= 0)
        mapping.map(arg, newBody->getArgument(idx));
    rewriter.setInsertionPointToStart(newBody);
    for (Operation &inner : body)
      rewriter.clone(inner, mapping);
    rewriter.replaceOp(op, newOp.getResults());
    return success();
  }
};

} // namespace

void FusedChainOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                               MLIRContext *context) {
  results.add<SimplifyFusedChainInputs>(context);
}

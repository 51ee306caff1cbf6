//===- ClusterPatterns.cpp - dsm cluster ops to NVVM ------------*- C++ -*-===//
//
// Part of the FlashFuser project.
//
// Cluster identity and cluster-barrier ops. Barriers use the non-.aligned
// forms: warp-specialized kernels reach them from divergent roles.
//
//===----------------------------------------------------------------------===//

#include "ff/Conversion/DSMToNVGPU/DSMToNVGPU.h"
#include "ff/Dialect/DSM/IR/DSMOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::dsm;

namespace {

struct ClusterRankLowering : OpRewritePattern<ClusterRankOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ClusterRankOp op,
                                PatternRewriter &rewriter) const override {
    Value rank = NVVM::ClusterId::create(rewriter, op.getLoc(),
                                         rewriter.getI32Type());
    rewriter.replaceOpWithNewOp<arith::IndexCastUIOp>(op, op.getType(), rank);
    return success();
  }
};

struct ClusterShapeLowering : OpRewritePattern<ClusterShapeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ClusterShapeOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type i32 = rewriter.getI32Type();
    Value dims[] = {NVVM::ClusterDimBlocksXOp::create(rewriter, loc, i32),
                    NVVM::ClusterDimBlocksYOp::create(rewriter, loc, i32),
                    NVVM::ClusterDimBlocksZOp::create(rewriter, loc, i32)};
    SmallVector<Value> results;
    for (auto [d, r] : llvm::zip(dims, op.getResults()))
      results.push_back(
          arith::IndexCastUIOp::create(rewriter, loc, r.getType(), d));
    rewriter.replaceOp(op, results);
    return success();
  }
};

struct ClusterArriveLowering : OpRewritePattern<ClusterArriveOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ClusterArriveOp op,
                                PatternRewriter &rewriter) const override {
    if (op.getRelaxed())
      rewriter.replaceOpWithNewOp<NVVM::ClusterArriveRelaxedOp>(op,
                                                                UnitAttr());
    else
      rewriter.replaceOpWithNewOp<NVVM::ClusterArriveOp>(op, UnitAttr());
    return success();
  }
};

struct ClusterWaitLowering : OpRewritePattern<ClusterWaitOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ClusterWaitOp op,
                                PatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<NVVM::ClusterWaitOp>(op, UnitAttr());
    return success();
  }
};

} // namespace

void mlir::dsm::populateDSMClusterIdentityToNVVMPatterns(
    RewritePatternSet &patterns) {
  patterns.add<ClusterRankLowering, ClusterShapeLowering>(
      patterns.getContext());
}

void mlir::dsm::populateDSMSynchronizationToNVVMPatterns(
    RewritePatternSet &patterns) {
  patterns.add<ClusterArriveLowering, ClusterWaitLowering>(
      patterns.getContext());
}

void mlir::dsm::populateDSMToNVGPUPatterns(RewritePatternSet &patterns) {
  populateDSMClusterIdentityToNVVMPatterns(patterns);
  populateDSMSynchronizationToNVVMPatterns(patterns);
}

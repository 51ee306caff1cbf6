//===- ClusterPatterns.cpp - dsm cluster ops to NVVM ------------*- C++ -*-===//
//
// Part of the FlashFuser project.
//
// Cluster identity and cluster-barrier ops. Every thread of the cluster
// executes the barrier, so each half first reconverges its warp
// (bar.warp.sync) and then uses the .aligned form. A warp that reached the
// non-.aligned arrive diverged (lane 0 just back from a leader-only TMA
// block) compiled to a collective sequence that deadlocked on an H100:
// lane 0 waited in WARPSYNC.COLLECTIVE while lanes 1-31 waited on the
// cluster barrier (T4-k384-m512, docs/validation.md).
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

/// bar.warp.sync 0xffffffff: the whole warp meets here.
void syncWarp(PatternRewriter &rewriter, Location loc) {
  Value all = arith::ConstantIntOp::create(rewriter, loc,
                                           rewriter.getI32Type(), -1);
  NVVM::SyncWarpOp::create(rewriter, loc, all);
}

struct ClusterArriveLowering : OpRewritePattern<ClusterArriveOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ClusterArriveOp op,
                                PatternRewriter &rewriter) const override {
    syncWarp(rewriter, op.getLoc());
    if (op.getRelaxed())
      rewriter.replaceOpWithNewOp<NVVM::ClusterArriveRelaxedOp>(
          op, rewriter.getUnitAttr());
    else
      rewriter.replaceOpWithNewOp<NVVM::ClusterArriveOp>(
          op, rewriter.getUnitAttr());
    return success();
  }
};

struct ClusterWaitLowering : OpRewritePattern<ClusterWaitOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ClusterWaitOp op,
                                PatternRewriter &rewriter) const override {
    // Code between the two halves may diverge (the push shuffle's
    // leader-only copies): reconverge again.
    syncWarp(rewriter, op.getLoc());
    rewriter.replaceOpWithNewOp<NVVM::ClusterWaitOp>(op,
                                                     rewriter.getUnitAttr());
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

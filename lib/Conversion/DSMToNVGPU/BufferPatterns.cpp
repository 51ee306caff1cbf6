//===- BufferPatterns.cpp - dsm cluster buffers to NVVM ---------*- C++ -*-===//
//
// Part of the FlashFuser project.
//
// !dsm.buffer becomes the !llvm.ptr<3> of this rank's piece. Because every
// rank places its piece at the same offset, a peer's piece is that pointer
// mapped through `mapa`. Views rebuild a contiguous memref descriptor around
// the pointer, so that ordinary memref/vector code (lowered later by the
// upstream conversions) can read and write pieces.
//
//===----------------------------------------------------------------------===//

#include "SharedMemory.h"

#include "ff/Conversion/DSMToNVGPU/DSMToNVGPU.h"
#include "ff/Dialect/DSM/IR/DSMOps.h"
#include "ff/Dialect/DSM/Utils/MemRefDescriptor.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/AttrTypeSubElements.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace mlir::dsm;

/// Alignment of a piece: the widest (16-byte) vector accesses stay legal.
static constexpr int64_t kPieceAlignment = 16;

namespace {

struct AllocLowering : OpConversionPattern<AllocOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AllocOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = op.getContext();
    auto ptrShared = LLVM::LLVMPointerType::get(
        ctx, static_cast<unsigned>(NVVM::NVVMMemorySpace::Shared));
    if (!op->getParentOfType<gpu::GPUFuncOp>())
      return op.emitOpError("a cluster buffer must be allocated in a gpu.func");

    if (std::optional<int64_t> offset = op.getOffset()) {
      // A region of the kernel's dynamic shared memory the materialiser
      // laid out; the same offset in every CTA.
      auto wg = gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup);
      auto dynType = MemRefType::get({ShapedType::kDynamic},
                                     rewriter.getI8Type(), AffineMap(), wg);
      Value dyn = gpu::DynamicSharedMemoryOp::create(rewriter, loc, dynType);
      Value base =
          memref::ExtractAlignedPointerAsIndexOp::create(rewriter, loc, dyn);
      Value addr = arith::AddIOp::create(
          rewriter, loc, base,
          arith::ConstantIndexOp::create(rewriter, loc, *offset));
      Value addr64 = arith::IndexCastUIOp::create(rewriter, loc,
                                                  rewriter.getI64Type(), addr);
      rewriter.replaceOpWithNewOp<LLVM::IntToPtrOp>(op, ptrShared, addr64);
      return success();
    }

    // A static shared array of its own, under a fresh name.
    auto arrayType = LLVM::LLVMArrayType::get(
        rewriter.getI8Type(), op.getBuffer().getType().getPieceBytes());
    FailureOr<Value> piece = createSharedGlobal(rewriter, op, "__dsm_buffer",
                                                arrayType, kPieceAlignment);
    if (failed(piece))
      return rewriter.notifyMatchFailure(op, "no enclosing symbol table");
    rewriter.replaceOp(op, *piece);
    return success();
  }
};

struct LocalViewLowering : OpConversionPattern<LocalViewOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(LocalViewOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, createMemRefFromPointer(rewriter, op.getLoc(),
                                                   adaptor.getBuffer(),
                                                   op.getView().getType()));
    return success();
  }
};

struct RemoteViewLowering : OpConversionPattern<RemoteViewOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(RemoteViewOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value remote =
        getPeerPointer(rewriter, loc, adaptor.getBuffer(), adaptor.getRank());
    // The result keeps #dsm.shared_cluster; the pass rewrites that memory
    // space to NVVM's 7 everywhere once the dsm ops are gone.
    rewriter.replaceOp(op, createMemRefFromPointer(rewriter, loc, remote,
                                                   op.getView().getType()));
    return success();
  }
};

} // namespace

void mlir::dsm::populateDSMBufferToNVVMTypeConversion(
    TypeConverter &converter) {
  converter.addConversion([](BufferType type) -> Type {
    return LLVM::LLVMPointerType::get(
        type.getContext(),
        static_cast<unsigned>(NVVM::NVVMMemorySpace::Shared));
  });
}

void mlir::dsm::populateDSMBufferToNVVMPatterns(const TypeConverter &converter,
                                                RewritePatternSet &patterns) {
  patterns.add<AllocLowering, LocalViewLowering, RemoteViewLowering>(
      converter, patterns.getContext());
}

void mlir::dsm::replaceDSMSharedClusterMemorySpace(Operation *root) {
  MLIRContext *ctx = root->getContext();
  auto space = IntegerAttr::get(
      IntegerType::get(ctx, 64),
      static_cast<int64_t>(NVVM::NVVMMemorySpace::SharedCluster));
  AttrTypeReplacer replacer;
  replacer.addReplacement(
      [&](SharedClusterAttr) -> Attribute { return space; });
  replacer.recursivelyReplaceElementsIn(root, /*replaceAttrs=*/true,
                                        /*replaceLocs=*/false,
                                        /*replaceTypes=*/true);
}

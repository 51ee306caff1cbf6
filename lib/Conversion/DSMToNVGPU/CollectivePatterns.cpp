//===- CollectivePatterns.cpp - dsm collectives to NVVM ---------*- C++ -*-===//
//
// Part of the FlashFuser project.
//
// The intra-cluster collectives (reduce, shuffle, multiply) as pull
// exchanges: a cluster barrier publishes every rank's source; each thread
// then takes vectors of this rank's destination piece in turn, loads the
// matching source vectors of the group's ranks through `mapa` +
// `ld.shared::cluster` (in rank order, so a reduction's order is fixed),
// combines them and stores the result; a second cluster barrier ends the
// op. Pulling keeps each rank's writes local: no remote stores, no
// transaction counts, and only the two barriers as synchronisation.
//
//===----------------------------------------------------------------------===//

#include "PeerPointer.h"

#include "ff/Conversion/DSMToNVGPU/DSMToNVGPU.h"
#include "ff/Dialect/DSM/IR/DSMOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace mlir::dsm;

namespace {

/// What one collective computes, per element of this rank's destination.
enum class Exchange {
  AllReduce,     // dst = combine_i src_i            (same index)
  ReduceScatter, // dst = combine_i src_i[slice g]   (g: this rank's index)
  AllGather,     // dst[slice j] = src_j
  Multiply,      // dst = src_0 * src_1
};

struct ExchangeSpec {
  Exchange kind;
  CombinerKind combiner = CombinerKind::add;
  int64_t axis = 0;
  int64_t groupSize, groupStride;
  std::optional<int64_t> threads;
};

/// Emits the exchange. `srcPtr`/`dstPtr` are this rank's pieces.
class ExchangeEmitter {
public:
  ExchangeEmitter(ConversionPatternRewriter &b, Location loc,
                  const ExchangeSpec &spec, BufferType srcType,
                  BufferType dstType)
      : b(b), loc(loc), spec(spec), srcShape(srcType.getPieceShape()),
        dstShape(dstType.getPieceShape()),
        elemType(srcType.getElementType()) {}

  LogicalResult emit(Operation *op, Value srcPtr, Value dstPtr) {
    int64_t elemBytes = elemType.getIntOrFloatBitWidth() / 8;
    if (elemBytes == 0)
      return op->emitOpError("cannot lower a collective over sub-byte ")
             << elemType << " elements";
    if (dstShape.empty())
      return op->emitOpError("cannot lower a collective over rank-0 pieces");
    // The widest vector (up to 16 bytes) that tiles the innermost extent
    // of both pieces, so that every vector stays inside one slice.
    width = std::max<int64_t>(1, 16 / elemBytes);
    while (width > 1 &&
           (dstShape.back() % width || srcShape.back() % width))
      width /= 2;
    accessBytes = width * elemBytes;
    vecType = width > 1 ? Type(VectorType::get({width}, elemType)) : elemType;

    // Group of this rank: ranks base + i * stride, i < size.
    Value rank = ClusterRankOp::create(b, loc, b.getIndexType());
    Value inGroup = rem(div(rank, spec.groupStride), spec.groupSize);
    Value base = sub(rank, mul(inGroup, spec.groupStride));

    Value tid = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
    Value step = spec.threads
                     ? cst(*spec.threads)
                     : Value(gpu::BlockDimOp::create(b, loc,
                                                     gpu::Dimension::x));
    int64_t numVectors = 1;
    for (int64_t d : dstShape)
      numVectors *= d;
    numVectors /= width;

    // Every rank's source is written before anyone reads it.
    ClusterArriveOp::create(b, loc, UnitAttr());
    ClusterWaitOp::create(b, loc);
    auto loop = scf::ForOp::create(b, loc, tid, cst(numVectors), step);
    {
      OpBuilder::InsertionGuard g(b);
      b.setInsertionPointToStart(loop.getBody());
      Value e = loop.getInductionVar();
      Value result = combineAt(e, srcPtr, base, inGroup);
      Value dst = gep(dstPtr, mul(e, accessBytes));
      LLVM::StoreOp::create(b, loc, result, dst, accessBytes);
    }
    // No source is overwritten, and no destination read, while a peer may
    // still be pulling.
    ClusterArriveOp::create(b, loc, UnitAttr());
    ClusterWaitOp::create(b, loc);
    return success();
  }

private:
  Value cst(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }
  Value add(Value x, Value y) { return arith::AddIOp::create(b, loc, x, y); }
  Value sub(Value x, Value y) { return arith::SubIOp::create(b, loc, x, y); }
  Value mul(Value x, int64_t y) {
    return y == 1 ? x : arith::MulIOp::create(b, loc, x, cst(y)).getResult();
  }
  Value div(Value x, int64_t y) {
    return y == 1 ? x : arith::DivUIOp::create(b, loc, x, cst(y)).getResult();
  }
  Value rem(Value x, int64_t y) {
    return arith::RemUIOp::create(b, loc, x, cst(y));
  }
  Value gep(Value ptr, Value byteOff) {
    Value off = arith::IndexCastUIOp::create(b, loc, b.getI64Type(), byteOff);
    return LLVM::GEPOp::create(b, loc, ptr.getType(), b.getI8Type(), ptr,
                               ValueRange{off});
  }

  /// Multi-index (innermost in elements) of destination vector `e`.
  SmallVector<Value> delinearize(Value e) {
    SmallVector<Value> idx(dstShape.size());
    Value rest = e;
    for (int64_t d = dstShape.size() - 1; d >= 0; --d) {
      int64_t extent =
          d == static_cast<int64_t>(dstShape.size()) - 1 ? dstShape[d] / width
                                                         : dstShape[d];
      idx[d] = d ? rem(rest, extent) : rest;
      if (d)
        rest = div(rest, extent);
    }
    idx.back() = mul(idx.back(), width);
    return idx;
  }

  /// Byte offset of `idx` in the source piece.
  Value srcOffset(ArrayRef<Value> idx) {
    Value off = idx[0];
    for (size_t d = 1; d < idx.size(); ++d)
      off = add(mul(off, srcShape[d]), idx[d]);
    return mul(off, accessBytes / width);
  }

  Value loadFrom(Value srcPtr, Value peer, Value byteOff) {
    Value remote = getPeerPointer(b, loc, gep(srcPtr, byteOff), peer);
    return LLVM::LoadOp::create(b, loc, vecType, remote, accessBytes);
  }

  Value combine(Value x, Value y) {
    if (spec.kind == Exchange::Multiply)
      return arith::MulFOp::create(b, loc, x, y);
    if (spec.combiner == CombinerKind::max)
      return arith::MaximumFOp::create(b, loc, x, y);
    return arith::AddFOp::create(b, loc, x, y);
  }

  Value combineAt(Value e, Value srcPtr, Value base, Value inGroup) {
    SmallVector<Value> idx = delinearize(e);
    auto peer = [&](Value i) { return add(base, mul(i, spec.groupStride)); };
    switch (spec.kind) {
    case Exchange::AllGather: {
      // Slice j of the destination is rank j's whole source.
      int64_t a = spec.axis;
      Value j = div(idx[a], srcShape[a]);
      idx[a] = rem(idx[a], srcShape[a]);
      return loadFrom(srcPtr, peer(j), srcOffset(idx));
    }
    case Exchange::ReduceScatter:
      idx[spec.axis] = add(idx[spec.axis], mul(inGroup, dstShape[spec.axis]));
      [[fallthrough]];
    case Exchange::AllReduce:
    case Exchange::Multiply: {
      Value off = srcOffset(idx);
      Value acc;
      for (int64_t i = 0; i < spec.groupSize; ++i) {
        Value v = loadFrom(srcPtr, add(base, cst(i * spec.groupStride)), off);
        acc = acc ? combine(acc, v) : v;
      }
      return acc;
    }
    }
    llvm_unreachable("unknown exchange");
  }

  ConversionPatternRewriter &b;
  Location loc;
  const ExchangeSpec &spec;
  SmallVector<int64_t> srcShape, dstShape;
  Type elemType, vecType;
  int64_t width = 1, accessBytes = 1;
};

static int64_t i64(uint64_t v) { return static_cast<int64_t>(v); }

ExchangeSpec getSpec(ReduceOp op) {
  return {op.getMode() == ReduceMode::all_reduce ? Exchange::AllReduce
                                                 : Exchange::ReduceScatter,
          op.getCombiner(),     i64(op.getAxis()),
          i64(op.getGroupSize()), i64(op.getGroupStride()),
          op.getThreads()};
}

ExchangeSpec getSpec(ShuffleOp op) {
  return {Exchange::AllGather,    CombinerKind::add,
          i64(op.getAxis()),      i64(op.getGroupSize()),
          i64(op.getGroupStride()), op.getThreads()};
}

ExchangeSpec getSpec(MultiplyOp op) {
  return {Exchange::Multiply,     CombinerKind::add,
          0,                      i64(op.getGroupSize()),
          i64(op.getGroupStride()), op.getThreads()};
}

template <typename OpTy>
struct CollectiveLowering : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    ExchangeSpec spec = getSpec(op);
    ExchangeEmitter emitter(rewriter, op.getLoc(), spec,
                            op.getSrc().getType(), op.getDst().getType());
    if (failed(emitter.emit(op, adaptor.getSrc(), adaptor.getDst())))
      return failure();
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void mlir::dsm::populateDSMCollectiveToNVVMPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<CollectiveLowering<ReduceOp>, CollectiveLowering<ShuffleOp>,
               CollectiveLowering<MultiplyOp>>(converter,
                                               patterns.getContext());
}

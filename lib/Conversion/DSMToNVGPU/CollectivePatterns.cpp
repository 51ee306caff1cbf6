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
// dsm.shuffle and the reduce-scatter of dsm.reduce may instead push
// (st.async onto every rank's mbarrier), with one cluster barrier and a
// transaction wait. There is no fp32 add into another CTA's shared memory
// (red.async and cp.reduce.async.bulk to shared::cluster are integer-only),
// so a pushed reduce-scatter sends the summands into a scratch slot per
// peer and each rank adds its slice locally, in the pull's rank order.
//
//===----------------------------------------------------------------------===//

#include "SharedMemory.h"

#include "ff/Conversion/DSMToNVGPU/DSMToNVGPU.h"
#include "ff/Dialect/DSM/IR/DSMOps.h"
#include "ff/Dialect/DSM/Utils/Ptx.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
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

/// How many vectors of `width` elements tile a piece of `shape`.
int64_t countVectors(ArrayRef<int64_t> shape, int64_t width) {
  int64_t elements = 1;
  for (int64_t d : shape)
    elements *= d;
  return elements / width;
}

/// The loop in which threads [0, threads) along x (or the whole block)
/// share the vectors of `width` elements that tile a piece of `shape`. Its
/// induction variable is the vector's linear index; with `unroll` > 1 (a
/// static `threads` only) one iteration covers vectors e + u * threads for
/// u < unroll.
scf::ForOp createVectorLoop(OpBuilder &b, Location loc, ArrayRef<int64_t> shape,
                            int64_t width, std::optional<int64_t> threads,
                            int64_t unroll = 1) {
  auto cst = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  Value tid = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  Value step = threads
                   ? cst(*threads * unroll)
                   : Value(gpu::BlockDimOp::create(b, loc, gpu::Dimension::x));
  return scf::ForOp::create(b, loc, tid, cst(countVectors(shape, width)), step);
}

/// Multi-index (innermost in elements) of vector `e` of a piece of `shape`
/// tiled by vectors of `width` elements.
SmallVector<Value> delinearizeVector(OpBuilder &b, Location loc, Value e,
                                     ArrayRef<int64_t> shape, int64_t width) {
  auto cst = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  int64_t rank = shape.size();
  SmallVector<Value> idx(rank);
  Value rest = e;
  for (int64_t d = rank - 1; d >= 0; --d) {
    int64_t extent = d == rank - 1 ? shape[d] / width : shape[d];
    if (!d) {
      idx[d] = rest;
      break;
    }
    idx[d] = arith::RemUIOp::create(b, loc, rest, cst(extent));
    if (extent != 1)
      rest = arith::DivUIOp::create(b, loc, rest, cst(extent));
  }
  if (width != 1)
    idx.back() = arith::MulIOp::create(b, loc, idx.back(), cst(width));
  return idx;
}

/// Emits the exchange. `srcPtr`/`dstPtr` are this rank's pieces.
class ExchangeEmitter {
public:
  ExchangeEmitter(ConversionPatternRewriter &b, Location loc,
                  const ExchangeSpec &spec, BufferType srcType,
                  BufferType dstType)
      : b(b), loc(loc), spec(spec), srcShape(srcType.getPieceShape()),
        dstShape(dstType.getPieceShape()), elemType(srcType.getElementType()) {}

  /// The pull exchange of any collective.
  LogicalResult emit(Operation *op, Value srcPtr, Value dstPtr) {
    if (failed(chooseVectors(op)))
      return failure();
    auto [inGroup, base] = group();

    // Every rank's source is written before anyone reads it.
    ClusterArriveOp::create(b, loc);
    ClusterWaitOp::create(b, loc);
    int64_t unroll = chooseUnroll();
    scf::ForOp loop =
        createVectorLoop(b, loc, dstShape, width, spec.threads, unroll);
    {
      OpBuilder::InsertionGuard g(b);
      b.setInsertionPointToStart(loop.getBody());
      // All of an iteration's remote loads before its local stores: a DSM
      // load takes hundreds of cycles, and ptxas does not hoist loads
      // through generic pointers above shared stores.
      SmallVector<Value> vectors, results;
      for (int64_t u = 0; u < unroll; ++u) {
        Value e = loop.getInductionVar();
        if (u)
          e = add(e, cst(u * *spec.threads));
        vectors.push_back(e);
        results.push_back(combineAt(e, srcPtr, base, inGroup));
      }
      for (auto [e, result] : llvm::zip(vectors, results))
        LLVM::StoreOp::create(b, loc, result, gep(dstPtr, mul(e, accessBytes)),
                              accessBytes);
    }
    // No source is overwritten, and no destination read, while a peer may
    // still be pulling.
    ClusterArriveOp::create(b, loc);
    ClusterWaitOp::create(b, loc);
    return success();
  }

  /// The push all-gather (dsm.shuffle push(%barrier, %phase)): each rank
  /// stores its slice into its own slot of every rank's `dst`, itself
  /// included, by `st.async ... mbarrier::complete_tx::bytes` onto that
  /// rank's barrier. One cluster barrier first (destinations free, barriers
  /// initialised); the first executing thread arms this rank's barrier for
  /// the group's slices; every executing thread waits on `phase` with
  /// cluster-scope acquire, which makes all of the group's writes visible.
  /// The own slot takes the same path as the peers' so that the barrier
  /// alone completes the op: no CTA barrier, and a subset of the threads
  /// (`threads`) can run it.
  /// With `arrived` the executing threads have already arrived on the
  /// cluster barrier, and the op only waits.
  LogicalResult emitPush(Operation *op, Value srcPtr, Value dstPtr,
                         Value barrier, Value phase, bool arrived) {
    if (failed(chooseVectors(op)))
      return failure();
    if (accessBytes % 4)
      return op->emitOpError("push moves 32-bit words, but a vector is ")
             << accessBytes << " bytes";
    int64_t srcBytes = countVectors(srcShape, width) * accessBytes;
    auto [inGroup, base] = group();
    beginPush(barrier, spec.groupSize * srcBytes, arrived);

    // Up to 8 vectors per iteration: all of their (local) loads before the
    // first st.async.
    int64_t unroll = chooseUnroll(srcShape);
    scf::ForOp loop =
        createVectorLoop(b, loc, srcShape, width, spec.threads, unroll);
    {
      OpBuilder::InsertionGuard g(b);
      b.setInsertionPointToStart(loop.getBody());
      SmallVector<Value> vectors, slots;
      for (int64_t u = 0; u < unroll; ++u) {
        Value e = loop.getInductionVar();
        if (u)
          e = add(e, cst(u * *spec.threads));
        SmallVector<Value> idx = delinearizeVector(b, loc, e, srcShape, width);
        vectors.push_back(LLVM::LoadOp::create(
            b, loc, vecType, gep(srcPtr, offsetIn(idx, srcShape)),
            accessBytes));
        idx[spec.axis] = add(idx[spec.axis], mul(inGroup, srcShape[spec.axis]));
        slots.push_back(gep(dstPtr, offsetIn(idx, dstShape)));
      }
      for (auto [v, slot] : llvm::zip(vectors, slots)) {
        SmallVector<Value> parts = toWords(v);
        for (int64_t i = 0; i < spec.groupSize; ++i)
          storeAsync(parts, slot, barrier,
                     add(base, cst(i * spec.groupStride)));
      }
    }
    waitPhase(barrier, phase);
    return success();
  }

  /// The push reduce-scatter (dsm.reduce ... push(%scratch, %barrier,
  /// %phase)): after the cluster barrier the first executing thread arms
  /// this rank's barrier for the (group - 1) incoming slices; the executing
  /// threads load every slice j != own of `src` (the next peer's first, so
  /// that the ranks' first stores go to different peers) and st.async it
  /// into this rank's slot of peer j's `scratch`; once the phase completes
  /// they add the group's slices in rank order (the own one from `src`)
  /// into `dst`, or into the own slice of `src` when `dst` is null, and a
  /// barrier among them ends the op.
  LogicalResult emitReducePush(Operation *op, Value srcPtr, Value dstPtr,
                               Value scratchPtr, Value barrier, Value phase) {
    if (failed(chooseVectors(op)))
      return failure();
    int64_t n = spec.groupSize;
    int64_t sliceBytes = countVectors(dstShape, width) * accessBytes;
    auto [inGroup, base] = group();
    auto peer = [&](Value i) { return add(base, mul(i, spec.groupStride)); };
    Value own = gep(srcPtr, mul(inGroup, sliceBytes));
    // Peer j's slot for this rank's slice, and this rank's slot k's sender.
    auto slotOf = [&](Value sender, Value receiver) {
      Value below = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                          sender, receiver);
      return arith::SelectOp::create(b, loc, below, sender, sub(sender, cst(1)))
          .getResult();
    };

    // The executing threads read slices other threads stored: a CTA-level
    // barrier publishes them, so the cluster barrier only has to order the
    // peers' writes into `scratch` after this rank's last use of it. Those
    // uses (wgmma reads, loads of a previous phase's slices) have all
    // returned before this thread arrives, so the arrive is relaxed: a
    // release one waits for every earlier global access of the thread
    // (MEMBAR.ALL.GPU in SASS).
    executingBarrier();
    beginPush(barrier, (n - 1) * sliceBytes, /*arrived=*/false,
              /*relaxed=*/true);
    int64_t unroll = chooseUnroll(dstShape, n - 1);
    scf::ForOp loop =
        createVectorLoop(b, loc, dstShape, width, spec.threads, unroll);
    {
      OpBuilder::InsertionGuard g(b);
      b.setInsertionPointToStart(loop.getBody());
      SmallVector<Value> values, slots, peers;
      for (int64_t u = 0; u < unroll; ++u) {
        Value off = mul(loop.getInductionVar(), accessBytes);
        if (u)
          off = add(off, cst(u * *spec.threads * accessBytes));
        for (int64_t d = 1; d < n; ++d) {
          Value j = rem(add(inGroup, cst(d)), n);
          values.push_back(LLVM::LoadOp::create(
              b, loc, vecType, gep(srcPtr, add(mul(j, sliceBytes), off)),
              accessBytes));
          slots.push_back(
              gep(scratchPtr, add(mul(slotOf(inGroup, j), sliceBytes), off)));
          peers.push_back(peer(j));
        }
      }
      for (auto [v, slot, r] : llvm::zip(values, slots, peers))
        storeAsync(toWords(v), slot, barrier, r);
    }
    waitPhase(barrier, phase);

    unroll = chooseUnroll(dstShape, n);
    loop = createVectorLoop(b, loc, dstShape, width, spec.threads, unroll);
    {
      OpBuilder::InsertionGuard g(b);
      b.setInsertionPointToStart(loop.getBody());
      SmallVector<Value> offsets, sums;
      for (int64_t u = 0; u < unroll; ++u) {
        Value off = mul(loop.getInductionVar(), accessBytes);
        if (u)
          off = add(off, cst(u * *spec.threads * accessBytes));
        Value acc;
        for (int64_t i = 0; i < n; ++i) {
          Value isOwn = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                              inGroup, cst(i));
          Value from =
              gep(scratchPtr, mul(slotOf(cst(i), inGroup), sliceBytes));
          Value ptr = LLVM::SelectOp::create(b, loc, isOwn, own, from);
          Value v =
              LLVM::LoadOp::create(b, loc, vecType, gep(ptr, off), accessBytes);
          acc = acc ? combine(acc, v) : v;
        }
        offsets.push_back(off);
        sums.push_back(acc);
      }
      for (auto [off, sum] : llvm::zip(offsets, sums))
        LLVM::StoreOp::create(b, loc, sum, gep(dstPtr ? dstPtr : own, off),
                              accessBytes);
    }
    // The combined slice, for every executing thread.
    executingBarrier();
    return success();
  }

  /// The in-place push (dsm.shuffle into %dst push(...)): this rank's slot
  /// of `dst` already holds its slice (complete and fenced for the async
  /// proxy by the caller). After the cluster barrier the first executing
  /// thread arms this rank's barrier for the (group - 1) incoming slots and
  /// copies its slot into the same slot of every peer with one
  /// cp.async.bulk.shared::cluster.shared::cta per peer (the TMA unit),
  /// completing on that peer's barrier; every executing thread then waits
  /// on `phase` with cluster-scope acquire.
  LogicalResult emitInPlacePush(Value dstPtr, Value barrier, Value phase,
                                bool arrived) {
    auto [inGroup, base] = group();
    int64_t slotBytes = elemType.getIntOrFloatBitWidth() / 8;
    for (int64_t extent : dstShape)
      slotBytes *= extent;
    slotBytes /= spec.groupSize;

    scf::IfOp first =
        beginPush(barrier, (spec.groupSize - 1) * slotBytes, arrived);
    {
      // The copies follow the arm, in the first thread's block.
      OpBuilder::InsertionGuard g(b);
      b.setInsertionPoint(first.thenBlock()->getTerminator());
      Value slot = gep(dstPtr, mul(inGroup, slotBytes));
      Value size =
          arith::ConstantIntOp::create(b, loc, b.getI32Type(), slotBytes);
      for (int64_t i = 0; i < spec.groupSize; ++i) {
        auto peer = scf::IfOp::create(
            b, loc,
            arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, inGroup,
                                  cst(i)),
            /*withElseRegion=*/false);
        OpBuilder::InsertionGuard gi(b);
        b.setInsertionPointToStart(peer.thenBlock());
        Value r = add(base, cst(i * spec.groupStride));
        createPtxStatement(
            b, loc,
            {getPeerPointer(b, loc, slot, r), slot, size,
             getPeerPointer(b, loc, barrier, r)},
            "cp.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::"
            "bytes [$0], [$1], $2, [$3];",
            "l,l,r,l");
      }
    }
    waitPhase(barrier, phase);
    return success();
  }

private:
  /// A barrier among the executing threads: named barrier 15 with
  /// `threads`, else the CTA barrier.
  void executingBarrier() {
    Type i32 = b.getI32Type();
    if (spec.threads)
      NVVM::BarrierOp::create(
          b, loc, Type(), arith::ConstantIntOp::create(b, loc, i32, 15),
          arith::ConstantIntOp::create(b, loc, i32, *spec.threads),
          NVVM::BarrierReductionAttr(), Value());
    else
      NVVM::BarrierOp::create(b, loc, Type(), Value(), Value(),
                              NVVM::BarrierReductionAttr(), Value());
  }

  /// The start of every push: the cluster barrier (its arrive skipped
  /// when the caller `arrived`, without release semantics when `relaxed`),
  /// then the first executing thread arms this rank's barrier for
  /// `expectedBytes`. Returns that thread's block.
  scf::IfOp beginPush(Value barrier, int64_t expectedBytes, bool arrived,
                      bool relaxed = false) {
    if (!arrived)
      ClusterArriveOp::create(b, loc, relaxed);
    ClusterWaitOp::create(b, loc);
    Value tid = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
    auto first = scf::IfOp::create(
        b, loc,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, tid, cst(0)),
        /*withElseRegion=*/false);
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(first.thenBlock());
    Value bytes =
        arith::ConstantIntOp::create(b, loc, b.getI32Type(), expectedBytes);
    NVVM::MBarrierArriveExpectTxOp::create(
        b, loc, Type(), barrier, bytes,
        NVVM::MemScopeKindAttr::get(b.getContext(), NVVM::MemScopeKind::CTA),
        b.getBoolAttr(false), Value());
    return first;
  }

  /// A vector of whole 32-bit words as its words.
  SmallVector<Value> toWords(Value v) {
    int64_t words = accessBytes / 4;
    Type i32 = b.getI32Type();
    Value w = LLVM::BitcastOp::create(
        b, loc, words > 1 ? Type(VectorType::get({words}, i32)) : i32, v);
    if (words == 1)
      return {w};
    SmallVector<Value> parts;
    for (int64_t i = 0; i < words; ++i)
      parts.push_back(LLVM::ExtractElementOp::create(
          b, loc, w, arith::ConstantIntOp::create(b, loc, i32, i)));
    return parts;
  }

  /// st.async of `words` into `slot` of rank `r`, completing on r's
  /// `barrier` (both local addresses, mapped through mapa).
  void storeAsync(ArrayRef<Value> words, Value slot, Value barrier, Value r) {
    std::string regs, constraints = "l,l";
    for (size_t i = 0; i < words.size(); ++i) {
      regs += (i ? ", $" : "$") + std::to_string(i + 2);
      constraints += ",r";
    }
    bool vec = words.size() > 1;
    std::string text =
        "st.async.shared::cluster.mbarrier::complete_tx::bytes" +
        (vec ? ".v" + std::to_string(words.size()) : std::string()) +
        ".b32 [$0], " + (vec ? "{" + regs + "}" : regs) + ", [$1];";
    SmallVector<Value> operands{getPeerPointer(b, loc, slot, r),
                                getPeerPointer(b, loc, barrier, r)};
    operands.append(words.begin(), words.end());
    createPtxStatement(b, loc, operands, text, constraints);
  }

  /// Every slice has landed once this rank's phase completes.
  void waitPhase(Value barrier, Value phase) {
    Value parity = arith::ExtUIOp::create(b, loc, b.getI32Type(), phase);
    createPtxStatement(
        b, loc, {barrier, parity},
        "{\n.reg .pred p;\nLAB_WAIT:\n"
        "mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 p, "
        "[$0], $1;\n@!p bra LAB_WAIT;\n}",
        "l,r");
  }

  /// The widest vector (up to 16 bytes) that tiles the innermost extent of
  /// both pieces, so that every vector stays inside one slice.
  LogicalResult chooseVectors(Operation *op) {
    int64_t elemBytes = elemType.getIntOrFloatBitWidth() / 8;
    if (elemBytes == 0)
      return op->emitOpError("cannot lower a collective over sub-byte ")
             << elemType << " elements";
    if (dstShape.empty())
      return op->emitOpError("cannot lower a collective over rank-0 pieces");
    width = std::max<int64_t>(1, 16 / elemBytes);
    while (width > 1 && (dstShape.back() % width || srcShape.back() % width))
      width /= 2;
    accessBytes = width * elemBytes;
    vecType = width > 1 ? Type(VectorType::get({width}, elemType)) : elemType;
    return success();
  }

  /// How many vectors one thread moves per iteration of the pull loop: up
  /// to 8, as long as their loads fit 32 registers and every thread's share
  /// divides evenly (a static `threads` only).
  /// How many vectors of a piece of `shape` (default: the destination's)
  /// one iteration of a thread moves.
  /// `loads`: vectors loaded per element of the piece (default: the pull's).
  int64_t chooseUnroll(ArrayRef<int64_t> shape = {}, int64_t loads = 0) const {
    if (!spec.threads)
      return 1;
    int64_t numVectors = countVectors(shape.empty() ? dstShape : shape, width);
    if (numVectors % *spec.threads)
      return 1;
    int64_t perThread = numVectors / *spec.threads;
    if (!loads)
      loads = spec.kind == Exchange::AllGather ? 1 : spec.groupSize;
    for (int64_t u : {8, 4, 2})
      if (perThread % u == 0 && u * loads * accessBytes <= 128)
        return u;
    return 1;
  }

  /// This rank's index in its group (ranks base + i * stride, i < size) and
  /// the group's first rank.
  std::pair<Value, Value> group() {
    Value rank = ClusterRankOp::create(b, loc, b.getIndexType());
    Value inGroup = rem(div(rank, spec.groupStride), spec.groupSize);
    return {inGroup, sub(rank, mul(inGroup, spec.groupStride))};
  }

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

  /// Byte offset of `idx` in a piece of `shape`.
  Value offsetIn(ArrayRef<Value> idx, ArrayRef<int64_t> shape) {
    Value off = idx[0];
    for (size_t d = 1; d < idx.size(); ++d)
      off = add(mul(off, shape[d]), idx[d]);
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
    SmallVector<Value> idx = delinearizeVector(b, loc, e, dstShape, width);
    auto peer = [&](Value i) { return add(base, mul(i, spec.groupStride)); };
    switch (spec.kind) {
    case Exchange::AllGather: {
      // Slice j of the destination is rank j's whole source.
      int64_t a = spec.axis;
      Value j = div(idx[a], srcShape[a]);
      idx[a] = rem(idx[a], srcShape[a]);
      return loadFrom(srcPtr, peer(j), offsetIn(idx, srcShape));
    }
    case Exchange::ReduceScatter:
      idx[spec.axis] = add(idx[spec.axis], mul(inGroup, dstShape[spec.axis]));
      [[fallthrough]];
    case Exchange::AllReduce:
    case Exchange::Multiply: {
      Value off = offsetIn(idx, srcShape);
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
          op.getCombiner(),
          i64(op.getAxis()),
          i64(op.getGroupSize()),
          i64(op.getGroupStride()),
          op.getThreads()};
}

ExchangeSpec getSpec(ShuffleOp op) {
  return {Exchange::AllGather,    CombinerKind::add,        i64(op.getAxis()),
          i64(op.getGroupSize()), i64(op.getGroupStride()), op.getThreads()};
}

ExchangeSpec getSpec(MultiplyOp op) {
  return {Exchange::Multiply,     CombinerKind::add,        0,
          i64(op.getGroupSize()), i64(op.getGroupStride()), op.getThreads()};
}

/// The destination piece's type; an in-place reduce-scatter leaves its
/// result in one slice of the source.
template <typename OpTy>
BufferType getDstType(OpTy op) {
  if constexpr (std::is_same_v<OpTy, ReduceOp>) {
    if (!op.getDst()) {
      BufferType src = op.getSrc().getType();
      SmallVector<int64_t> slice = src.getPieceShape();
      slice[op.getAxis()] /= op.getGroupSize();
      return BufferType::get(op.getContext(), slice, src.getElementType(),
                             SmallVector<int64_t>(slice.size(), 1));
    }
  }
  return op.getDst().getType();
}

template <typename OpTy>
struct CollectiveLowering : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    ExchangeSpec spec = getSpec(op);
    BufferType dstType = getDstType(op);
    ExchangeEmitter emitter(rewriter, op.getLoc(), spec,
                            op.getSrc() ? op.getSrc().getType() : dstType,
                            dstType);
    auto lower = [&]() -> LogicalResult {
      if constexpr (std::is_same_v<OpTy, ShuffleOp>) {
        if (op.isInPlace())
          return emitter.emitInPlacePush(adaptor.getDst(), adaptor.getBarrier(),
                                         adaptor.getPhase(), op.getArrived());
        if (op.isPush())
          return emitter.emitPush(op, adaptor.getSrc(), adaptor.getDst(),
                                  adaptor.getBarrier(), adaptor.getPhase(),
                                  op.getArrived());
      }
      if constexpr (std::is_same_v<OpTy, ReduceOp>) {
        if (op.isPush())
          return emitter.emitReducePush(
              op, adaptor.getSrc(), adaptor.getDst(), adaptor.getScratch(),
              adaptor.getBarrier(), adaptor.getPhase());
      }
      return emitter.emit(op, adaptor.getSrc(), adaptor.getDst());
    };
    if (failed(lower()))
      return failure();
    rewriter.eraseOp(op);
    return success();
  }
};

/// dsm.inter_cluster_reduce: the executing threads stride over this rank's
/// piece in fp32 vectors of up to 4; each vector inside `dst` becomes one
/// red.relaxed.gpu.global.add.v{4,2}.f32 (or a plain store with
/// `deterministic`), a vector that crosses `dst`'s innermost edge one
/// predicated scalar per element.
struct InterClusterReduceLowering : OpConversionPattern<InterClusterReduceOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(InterClusterReduceOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &b) const override {
    Location loc = op.getLoc();
    auto dstType = cast<MemRefType>(op.getDst().getType());
    if (!dstType.getElementType().isF32())
      return op.emitOpError("only fp32 tiles are reduced across clusters");
    SmallVector<int64_t> strides;
    int64_t staticOffset;
    if (failed(dstType.getStridesAndOffset(strides, staticOffset)) ||
        strides.back() != 1)
      return op.emitOpError("the destination's innermost stride must be 1");
    if (auto space =
            dyn_cast_or_null<gpu::AddressSpaceAttr>(dstType.getMemorySpace());
        space && space.getValue() != gpu::AddressSpace::Global)
      return op.emitOpError("the destination must be global memory");

    SmallVector<int64_t> piece = op.getSrc().getType().getPieceShape();
    int64_t rank = piece.size();
    int64_t width = 4;
    while (piece.back() % width)
      width /= 2;
    auto cst = [&](int64_t v) -> Value {
      return arith::ConstantIndexOp::create(b, loc, v);
    };
    auto mul = [&](Value x, Value y) -> Value {
      return arith::MulIOp::create(b, loc, x, y);
    };
    auto add = [&](Value x, Value y) -> Value {
      return arith::AddIOp::create(b, loc, x, y);
    };
    auto ult = [&](Value x, Value y) -> Value {
      return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, x, y);
    };

    // dst's base address, offset, sizes and strides (in elements).
    auto meta =
        memref::ExtractStridedMetadataOp::create(b, loc, adaptor.getDst());
    Value base = memref::ExtractAlignedPointerAsIndexOp::create(
        b, loc, adaptor.getDst());
    scf::ForOp loop = createVectorLoop(b, loc, piece, width, op.getThreads());
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    Value e = loop.getInductionVar();

    // Piece index of vector e and its dst index.
    SmallVector<Value> idx = delinearizeVector(b, loc, e, piece, width);
    Value inside;
    Value elem = meta.getOffset();
    SmallVector<Value> at(rank);
    for (int64_t d = 0; d < rank; ++d) {
      at[d] = add(adaptor.getOffsets()[d], idx[d]);
      if (d < rank - 1) {
        Value in = ult(at[d], meta.getSizes()[d]);
        inside =
            inside ? arith::AndIOp::create(b, loc, inside, in).getResult() : in;
      }
      elem = add(elem, mul(at[d], meta.getStrides()[d]));
    }
    if (!inside)
      inside = arith::ConstantIntOp::create(b, loc, b.getI1Type(), 1);

    Type f32 = b.getF32Type();
    // Global addresses (st.global / red.global): the generic address of
    // global memory is its global address on sm_90.
    auto ptrType = LLVM::LLVMPointerType::get(
        b.getContext(), static_cast<unsigned>(NVVM::NVVMMemorySpace::Global));
    auto globalPtr = [&](Value element) {
      Value bytes = add(base, mul(element, cst(4)));
      Value i64 = arith::IndexCastUIOp::create(b, loc, b.getI64Type(), bytes);
      return LLVM::IntToPtrOp::create(b, loc, ptrType, i64).getResult();
    };
    auto srcAt = [&](int64_t bytes, int64_t n) {
      Value off = arith::IndexCastUIOp::create(
          b, loc, b.getI64Type(), add(mul(e, cst(width * 4)), cst(bytes)));
      Value p =
          LLVM::GEPOp::create(b, loc, adaptor.getSrc().getType(), b.getI8Type(),
                              adaptor.getSrc(), ValueRange{off});
      Type t = n > 1 ? Type(VectorType::get({n}, f32)) : f32;
      return LLVM::LoadOp::create(b, loc, t, p, n * 4).getResult();
    };
    auto emitAdd = [&](Value ptr, Value v, int64_t n) {
      if (op.getDeterministic()) {
        LLVM::StoreOp::create(b, loc, v, ptr, n * 4);
        return;
      }
      SmallVector<Value> values;
      for (int64_t i = 0; i < n; ++i)
        values.push_back(
            n > 1
                ? Value(LLVM::ExtractElementOp::create(
                      b, loc, v,
                      arith::ConstantIntOp::create(b, loc, b.getI32Type(), i)))
                : v);
      createGlobalAddF32(b, loc, ptr, values);
    };

    // A whole vector inside dst: one access; one crossing the innermost
    // edge: the elements inside, one by one.
    Value innerEnd = meta.getSizes()[rank - 1];
    Value whole = arith::AndIOp::create(
        b, loc, inside,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ule,
                              add(at.back(), cst(width)), innerEnd));
    auto ifOp = scf::IfOp::create(b, loc, whole, /*withElseRegion=*/true);
    b.setInsertionPointToStart(ifOp.thenBlock());
    emitAdd(globalPtr(elem), srcAt(0, width), width);
    b.setInsertionPointToStart(ifOp.elseBlock());
    for (int64_t i = 0; i < width; ++i) {
      Value in = arith::AndIOp::create(b, loc, inside,
                                       ult(add(at.back(), cst(i)), innerEnd));
      auto one = scf::IfOp::create(b, loc, in, /*withElseRegion=*/false);
      OpBuilder::InsertionGuard g(b);
      b.setInsertionPointToStart(one.thenBlock());
      emitAdd(globalPtr(add(elem, cst(i))), srcAt(i * 4, 1), 1);
    }
    b.setInsertionPointAfter(loop);
    b.eraseOp(op);
    return success();
  }
};

} // namespace

void mlir::dsm::populateDSMCollectiveToNVVMPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<CollectiveLowering<ReduceOp>, CollectiveLowering<ShuffleOp>,
               CollectiveLowering<MultiplyOp>, InterClusterReduceLowering>(
      converter, patterns.getContext());
}

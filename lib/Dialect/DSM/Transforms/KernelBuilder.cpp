//===- KernelBuilder.cpp - build Hopper cluster kernels ---------*- C++ -*-===//
//
// Part of the FlashFuser project.
//
// The kernel of a KernelPlan, built op by op (docs/lowering.md has the
// picture):
//
//   warpgroup NC      producer: setmaxnreg.dec 40; per K step wait empty[s],
//                     expect_tx full[s], TMA A (multicast in GEMM clusters)
//                     and B boxes; FFNs then stream D chunks through a
//                     2-slot ring (dfull/dempty).
//   warpgroups 0..NC-1 consumers: setmaxnreg.inc 232; per K step wait
//                     full[s], wgmma m64nBNk16 x4, release the previous
//                     stage; then the epilogue of the chain kind.
//
// TMA and mbarriers use nvgpu ops; wgmma is emitted as nvvm.wgmma.mma_async
// with literal struct accumulators and hand-built shared-memory descriptors,
// so that the accumulator can be read in registers (the nvgpu accumulator is
// opaque and nvgpu.warpgroup.mma.store is wrong for warpgroups > 0). Cluster
// identity and the cluster barrier are dsm ops, lowered by
// --convert-dsm-to-nvgpu.
//
//===----------------------------------------------------------------------===//

#include "KernelBuilder.h"

#include "ff/Analysis/Plan.h"
#include "ff/Dialect/DSM/IR/DSMOps.h"
#include "ff/Dialect/DSM/Utils/MemRefDescriptor.h"
#include "ff/Dialect/DSM/Utils/Ptx.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"

using namespace mlir;
using namespace mlir::dsm;

SmallVector<KernelParam> mlir::dsm::getKernelParams(const KernelPlan &p) {
  using K = KernelParam::Kind;
  SmallVector<KernelParam> params;
  // 3x3 convolutions read A as one {64 channels, W, R rows, 1 image} box
  // of the NHWC input per k tile.
  // With convHalo: {64 channels, W + 2, 3 rows, 1 image}, the row's halo.
  // In im2col mode: 64 channels of the tile's pixels.
  if (p.convIm2col)
    params.push_back(
        {K::TensorMap, (int)p.argA, {64, p.aRowsPerCta()}, /*im2col=*/true});
  else if (p.convHalo)
    params.push_back({K::TensorMap,
                      (int)p.argA,
                      {64, p.convW + 2, p.haloRowsPerWg() + 2, 1}});
  else if (p.isConv())
    params.push_back(
        {K::TensorMap, (int)p.argA, {64, p.convW, p.convBoxRows(), 1}});
  else
    params.push_back({K::TensorMap,
                      (int)p.argA,
                      {64, p.aBoxRows()},
                      /*im2col=*/false,
                      /*boxFitsM=*/p.fitsABoxAtLaunch()});
  if (p.tailABox)
    params.push_back({K::TensorMap,
                      (int)p.argA,
                      {64, p.aTailBoxRows()},
                      /*im2col=*/false,
                      /*boxFitsM=*/false,
                      /*aTail=*/true,
                      /*boxTailM=*/ShapedType::isDynamic(p.shape.m)});
  params.push_back({K::TensorMap, (int)p.argB, {64, p.bBoxRows()}});
  // Gated: up's weight, boxed like gate's (A's where swapped).
  if (p.isGated())
    params.push_back({K::TensorMap,
                      (int)p.argB2,
                      {64, p.gatesA() ? p.aBoxRows() : p.bBoxRows()}});
  if (!p.isSingleGemm())
    // Row-major D[N, L]: boxes of bn rows (shuffle family: 64) x 64 l
    // columns; K-major D[L, N]: boxes of bl (subL) rows x 64 n columns.
    params.push_back({K::TensorMap,
                      (int)p.argD,
                      {64, p.dKMajor ? p.dChunkL() : (p.shuffle ? 64 : p.bn)}});
  params.push_back({K::Ptr});
  if (p.needsWorkspace)
    params.push_back({K::Workspace});
  params.push_back({K::I64});
  return params;
}

namespace {

/// Emits one kernel body. Values are `index` unless named otherwise.
class KernelEmitter {
public:
  KernelEmitter(OpBuilder &b, Location loc, const KernelPlan &p)
      : b(b), loc(loc), p(p), ctx(b.getContext()) {
    i1 = b.getI1Type();
    i16 = b.getI16Type();
    i32 = b.getI32Type();
    i64 = b.getI64Type();
    f32 = b.getF32Type();
    ptrGlobal = LLVM::LLVMPointerType::get(ctx);
    ptrShared = LLVM::LLVMPointerType::get(ctx, 3);
    ptrCluster = LLVM::LLVMPointerType::get(ctx, 7);
  }

  void emit(gpu::GPUFuncOp func);

private:
  // Constants and arithmetic.
  Value cst(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }
  Value cstI32(int64_t v) {
    return arith::ConstantIntOp::create(b, loc, i32, v);
  }
  Value cstI64(int64_t v) {
    return arith::ConstantIntOp::create(b, loc, i64, v);
  }
  Value add(Value x, Value y) { return arith::AddIOp::create(b, loc, x, y); }
  Value add(Value x, int64_t y) { return y ? add(x, cst(y)) : x; }
  Value mul(Value x, int64_t y) {
    return y == 1 ? x : arith::MulIOp::create(b, loc, x, cst(y));
  }
  Value mul(Value x, Value y) { return arith::MulIOp::create(b, loc, x, y); }
  Value div(Value x, int64_t y) {
    return y == 1 ? x : arith::DivUIOp::create(b, loc, x, cst(y));
  }
  Value div(Value x, Value y) { return arith::DivUIOp::create(b, loc, x, y); }
  Value rem(Value x, int64_t y) {
    return arith::RemUIOp::create(b, loc, x, cst(y));
  }
  Value rem(Value x, Value y) { return arith::RemUIOp::create(b, loc, x, y); }
  Value sub(Value x, Value y) { return arith::SubIOp::create(b, loc, x, y); }
  Value cmp(arith::CmpIPredicate pr, Value x, Value y) {
    return arith::CmpIOp::create(b, loc, pr, x, y);
  }
  Value eq(Value x, int64_t y) {
    return cmp(arith::CmpIPredicate::eq, x, cst(y));
  }
  Value ult(Value x, Value y) { return cmp(arith::CmpIPredicate::ult, x, y); }
  Value toI64(Value x) { return arith::IndexCastUIOp::create(b, loc, i64, x); }
  Value toI32(Value x) { return arith::IndexCastUIOp::create(b, loc, i32, x); }
  /// The l chunk of this cluster's `j`-th step (see lRot).
  Value chunkOf(Value j) {
    return lRot ? rem(add(j, lRot), p.lTiles()) : j;
  }
  /// Slot `it % slots` of ring iterator `it` (and, in parity, its phase
  /// `it / slots`), in 32 bits (an iterator stays far below 2^32): index
  /// arithmetic is 64-bit, and a 64-bit division by a constant that is not
  /// a power of two is a chain of some twenty dependent instructions on
  /// the consumer's path from one k step to the next. In 32 bits the
  /// down GEMMs' 7-stage rings on 64-wide tiles ran 16-21 % faster on an
  /// H200 (docs/validation.md, thirty-fifth session).
  Value ringRem(Value it, int64_t slots) {
    return arith::IndexCastUIOp::create(
        b, loc, b.getIndexType(),
        arith::RemUIOp::create(b, loc, toI32(it), cstI32(slots)));
  }
  /// Parity of the phase-th use of a ring slot: ((it / slots) & 1) == 1.
  Value parity(Value it, int64_t slots) {
    Value phase =
        slots == 1 ? toI32(it)
                   : arith::DivUIOp::create(b, loc, toI32(it), cstI32(slots));
    return arith::TruncIOp::create(b, loc, i1, phase);
  }
  Value notI1(Value x) {
    Value t = arith::ConstantIntOp::create(b, loc, i1, 1);
    return arith::XOrIOp::create(b, loc, x, t);
  }

  // Control flow.
  template <typename Fn> void ifThen(Value cond, Fn &&fn) {
    auto op = scf::IfOp::create(b, loc, cond, /*withElseRegion=*/false);
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(op.thenBlock());
    fn();
  }
  /// `cond ? thenFn() : elseFn()` for one value of type `type`.
  template <typename ThenFn, typename ElseFn>
  Value ifThenElse(Value cond, Type type, ThenFn &&thenFn, ElseFn &&elseFn) {
    auto op = scf::IfOp::create(b, loc, TypeRange{type}, cond,
                                /*withElseRegion=*/true);
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(op.thenBlock());
    scf::YieldOp::create(b, loc, thenFn());
    b.setInsertionPointToStart(op.elseBlock());
    scf::YieldOp::create(b, loc, elseFn());
    return op.getResult(0);
  }
  /// A block only `cond`'s lanes run (one issuing thread per warpgroup),
  /// then the warp reconverges: LLVM may tail-duplicate the code after such
  /// a block per path, and a warp that meets a barrier split that way can
  /// deadlock (docs/lowering.md).
  template <typename Fn> void leaderOnly(Value cond, Fn &&fn) {
    ifThen(cond, std::forward<Fn>(fn));
    NVVM::SyncWarpOp::create(b, loc, cstI32(-1));
  }
  template <typename Fn> void forLoop(Value lb, Value ub, Value step, Fn &&fn) {
    auto op = scf::ForOp::create(b, loc, lb, ub, step);
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(op.getBody());
    fn(op.getInductionVar());
  }

  // Memory.
  Value sharedPtr(Value byteOff) {
    Value addr = toI64(add(smemBase, byteOff));
    return LLVM::IntToPtrOp::create(b, loc, ptrShared, addr);
  }
  Value gep(Value base, Value byteOff) {
    return LLVM::GEPOp::create(b, loc, ptrGlobal, b.getI8Type(), base,
                               ValueRange{toI64(byteOff)});
  }
  Value smemView(Value byteOff, ArrayRef<int64_t> shape) {
    auto ws = gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup);
    auto type = MemRefType::get(shape, b.getBF16Type(), AffineMap(), ws);
    return memref::ViewOp::create(b, loc, type, smem, byteOff, ValueRange{});
  }
  Value vector(ArrayRef<Value> elts) {
    auto type = VectorType::get({(int64_t)elts.size()}, elts[0].getType());
    Value v = LLVM::PoisonOp::create(b, loc, type);
    for (auto [i, e] : llvm::enumerate(elts))
      v = LLVM::InsertElementOp::create(b, loc, v, e, cstI32(i));
    return v;
  }
  Value extract(Value vec, int64_t i) {
    return LLVM::ExtractElementOp::create(b, loc, vec, cstI32(i));
  }
  Value accElt(Value acc, int64_t i) {
    return LLVM::ExtractValueOp::create(b, loc, acc, ArrayRef<int64_t>{i});
  }
  // A consumer thread's wgmma D fragment: element 4j + 2h + c of an
  // accumulator sits at row fragRow() + 8h of its warpgroup's 64-row tile,
  // column 8j + fragColPair() + c.
  Value fragRow() { return add(mul(warp, 16), div(lane, 4)); }
  Value fragColPair() { return mul(rem(lane, 4), 2); }
  /// Elements 4j + 2h and 4j + 2h + 1 (two adjacent columns) as a vector.
  Value fragPair(Value acc, int64_t j, int64_t h) {
    return vector({accElt(acc, 4 * j + 2 * h), accElt(acc, 4 * j + 2 * h + 1)});
  }
  /// What a 128B-swizzled K-major tile (rows of 128 B) XORs into the byte
  /// offset within row `row`: within each 1024-B atom of 8 rows the 16-B
  /// unit index (bits [4:6]) is XORed with the row (bits [7:9]).
  Value swizzle128Mask(Value row) {
    return arith::ShLIOp::create(b, loc, rem(row, 8), cst(4));
  }

  // Synchronisation.
  void namedBarrier(int64_t id, int64_t threads) {
    NVVM::BarrierOp::create(b, loc, Type(), cstI32(id), cstI32(threads),
                            NVVM::BarrierReductionAttr(), Value());
  }
  /// A cluster barrier; `relaxed` drops the arrive's release semantics.
  void clusterSync(bool relaxed = false) {
    ClusterArriveOp::create(b, loc, relaxed);
    ClusterWaitOp::create(b, loc);
  }
  /// The cluster barriers of the consumers' dsm.shuffle, for the threads
  /// that do not execute it: a push's one (only its wait where the arrive
  /// came earlier, KernelPlan::arrivesBeforeGather), a pull's two.
  void shuffleClusterSyncs() {
    if (p.arrivesBeforeGather()) {
      ClusterWaitOp::create(b, loc);
      return;
    }
    clusterSync();
    if (!p.shufflePush)
      clusterSync();
  }
  /// Shared offset of D ring slot `slot`: the shuffle family's late slots
  /// (KernelPlan::smemDLate) lie over the dead main-loop ring.
  Value dSlotBase(Value slot) {
    Value own = add(mul(slot, p.dStageBytes), p.smemD);
    if (p.dStages == p.dOwnStages)
      return own;
    Value late = add(mul(add(slot, -p.dOwnStages), p.dStageBytes), p.smemDLate);
    return arith::SelectOp::create(b, loc, ult(slot, cst(p.dOwnStages)), own,
                                   late);
  }
  void waitParity(Value group, Value slot, Value phase) {
    nvgpu::MBarrierTryWaitParityOp::create(b, loc, group, phase, ticks, slot);
  }

  // Tensor cores.
  Type accType(int64_t n) {
    return LLVM::LLVMStructType::getLiteral(
        ctx, SmallVector<Type>(n / 2, f32));
  }
  /// Descriptor of a 128B-swizzled tile at shared byte offset `off`;
  /// `lbo`/`sbo` in bytes (SBO: 8 rows x 128 B; LBO: stride between 64-wide
  /// MN chunks of an MN-major operand, unused for K-major ones).
  Value descriptor(Value off, int64_t lbo, int64_t sbo) {
    Value a = toI64(add(smemBase, off));
    Value start = arith::AndIOp::create(
        b, loc, arith::ShRUIOp::create(b, loc, a, cstI64(4)), cstI64(0x3FFF));
    uint64_t hi = (uint64_t((lbo >> 4) & 0x3FFF) << 16) |
                  (uint64_t((sbo >> 4) & 0x3FFF) << 32) | (uint64_t(1) << 62);
    return arith::OrIOp::create(b, loc, start, cstI64((int64_t)hi));
  }
  Value advance(Value desc, int64_t bytes) {
    return bytes ? arith::AddIOp::create(b, loc, desc, cstI64(bytes >> 4))
                 : desc;
  }
  /// `acc` + A·B, or with a null `acc` A·B alone into a fresh accumulator.
  /// A fresh accumulator is undefined with scale-d = 0, never zero-filled:
  /// registers written by other instructions between wgmma.fence and the
  /// wgmma make ptxas inject a warpgroup.arrive, and where that lands on a
  /// divergent path it serialises every wgmma of the kernel (C7520; G7's
  /// main loop and second GEMM waited for each wgmma to retire).
  Value wgmma(Value acc, Value descA, Value descB, int64_t n, bool bKMajor) {
    using namespace NVVM;
    auto bf = WGMMATypesAttr::get(ctx, WGMMATypes::bf16);
    bool fresh = !acc;
    if (fresh)
      acc = LLVM::UndefOp::create(b, loc, accType(n));
    return WgmmaMmaAsyncOp::create(
        b, loc, acc.getType(), acc, descA, descB,
        MMAShapeAttr::get(ctx, 64, n, 16), bf, bf,
        WGMMATypesAttr::get(ctx, WGMMATypes::f32),
        WGMMAScaleOutAttr::get(ctx, fresh ? WGMMAScaleOut::zero
                                          : WGMMAScaleOut::one),
        WGMMAScaleInAttr::get(ctx, WGMMAScaleIn::one),
        WGMMAScaleInAttr::get(ctx, WGMMAScaleIn::one),
        MMALayoutAttr::get(ctx, MMALayout::row),
        // B row-major [K, N] in memory is MN-major: transposed ("row");
        // [N, K] weights are K-major like A ("col").
        MMALayoutAttr::get(ctx, bKMajor ? MMALayout::col : MMALayout::row),
        MMAIntOverflowAttr());
  }

  /// Clones the scalar body of elementwise `g` on `ins`; identity if null.
  Value applyEpilogue(linalg::GenericOp g, ValueRange ins) {
    if (!g)
      return ins[0];
    IRMapping map;
    Block &body = g.getRegion().front();
    for (auto [arg, v] : llvm::zip(body.getArguments(), ins))
      map.map(arg, v);
    for (Operation &op : body.without_terminator()) {
      // Scalars the body captures from the chain region (constants hoisted
      // by the frontend or by --dsm-fuse; planKernel admits only those) are
      // rematerialised next to their use.
      for (Value v : op.getOperands()) {
        if (map.contains(v) || v.getParentBlock() == &body)
          continue;
        Operation *def = v.getDefiningOp();
        assert(def && def->hasTrait<OpTrait::ConstantLike>() &&
               "planKernel admits only captured constants");
        b.clone(*def, map);
      }
      if (auto tanh = dyn_cast<math::TanhOp>(op);
          tanh && p.approxTanh && tanh.getType().isF32()) {
        map.map(tanh.getResult(),
                createTanhApproxF32(b, loc, map.lookup(tanh.getOperand())));
        continue;
      }
      Operation *clone = b.clone(op, map);
      if (auto div = dyn_cast<arith::DivFOp>(clone);
          div && p.approxDiv && div.getType().isF32())
        div.setFastmath(div.getFastmath() | arith::FastMathFlags::afn);
    }
    return map.lookup(body.getTerminator()->getOperand(0));
  }
  /// Applies the FFN activation stages on the scalars `leaves` of the
  /// first GEMM result(s).
  Value applyStages(ArrayRef<Value> leaves) {
    IRMapping vals;
    for (auto [leaf, v] : llvm::zip(p.firstLeaves, leaves))
      vals.map(leaf, v);
    for (linalg::GenericOp g : p.firstStages) {
      SmallVector<Value> ins;
      for (Value in : g.getDpsInputs())
        ins.push_back(vals.lookup(in));
      vals.map(g->getResult(0), applyEpilogue(g, ins));
    }
    return vals.lookup(p.firstEpilogue->getResult(0));
  }
  /// Stores `vals` (result element type) at row-major out[row, col].
  void storeOut(Value row, Value col, int64_t cols, ArrayRef<Value> vals) {
    int64_t eb = p.resultElementType.isBF16() ? 2 : 4;
    Value off = mul(add(mul(row, cols), col), eb);
    LLVM::StoreOp::create(b, loc, vector(vals), gep(out, off),
                          eb * vals.size());
  }
  /// Stores one row of a wgmma D fragment as bf16: `pairs[j]` holds this
  /// lane's columns col0 + 8j + 2(lane % 4) + {0, 1} of `row`. A lane's own
  /// pairs are 4-byte stores that fill half a 32-byte sector per row; here
  /// the four lanes of a quad transpose groups of four pairs (two xor
  /// shuffles per two pairs), so lane q stores the 16 contiguous bytes of
  /// group 4i + q and a row gets 64 bytes per instruction. Every lane
  /// shuffles; only lanes whose row is `valid` store. Past the last whole
  /// group of four (a width that is not a multiple of 32: wave-width n
  /// tiles) each lane stores its own pairs.
  void storeRowBf16(Value row, Value valid, Value col0, int64_t cols,
                    ArrayRef<std::pair<Value, Value>> pairs) {
    Type i32 = b.getI32Type();
    auto pack = [&](std::pair<Value, Value> v) -> Value {
      return LLVM::BitcastOp::create(b, loc, i32, vector({v.first, v.second}));
    };
    Value q = rem(lane, 4);
    // Whether lane q is the upper partner of its bfly exchange by m = 2, 1.
    Value upperOf[3];
    for (int64_t m : {2, 1})
      upperOf[m] = cmp(arith::CmpIPredicate::ne, rem(div(q, m), 2), cst(0));
    SmallVector<SmallVector<Value, 4>> groups;
    const size_t whole = pairs.size() / 4 * 4;
    for (size_t g = 0; g < whole; g += 4) {
      SmallVector<Value, 4> e;
      for (size_t k = 0; k < 4; ++k)
        e.push_back(pack(pairs[g + k]));
      // Butterfly transpose: after the stages lane q holds e[k] = lane k's
      // pair of group g + q, i.e. columns 8(g + q) + 2k + {0, 1}.
      for (int64_t m : {2, 1}) {
        Value upper = upperOf[m];
        for (int64_t k = 0; k < 4; ++k) {
          if (k & m)
            continue;
          Value send = arith::SelectOp::create(b, loc, upper, e[k], e[k | m]);
          Value got = NVVM::ShflOp::create(
              b, loc, i32, cstI32(-1), send, cstI32(m), cstI32(0x1f),
              NVVM::ShflKindAttr::get(ctx, NVVM::ShflKind::bfly), UnitAttr());
          e[k] = arith::SelectOp::create(b, loc, upper, got, e[k]);
          e[k | m] = arith::SelectOp::create(b, loc, upper, e[k | m], got);
        }
      }
      groups.push_back(std::move(e));
    }
    ifThen(valid, [&] {
      for (auto [i, e] : llvm::enumerate(groups)) {
        Value col = add(col0, mul(add(q, 4 * int64_t(i)), 8));
        Value off = mul(add(mul(row, cols), col), 2);
        Value v = vector(e);
        whereColumn(col, cols, [&] {
          LLVM::StoreOp::create(b, loc, v, gep(out, off), 16);
        });
      }
      for (size_t j = whole; j < pairs.size(); ++j) {
        Value col = add(col0, add(mul(q, 2), 8 * int64_t(j)));
        whereColumn(col, cols, [&] {
          storeOut(row, col, cols, {pairs[j].first, pairs[j].second});
        });
      }
    });
  }
  /// Runs `fn` where output column `col` lies below `cols`: always, unless
  /// the plan's last n tile runs past N (KernelPlan::partialN).
  void whereColumn(Value col, int64_t cols, function_ref<void()> fn) {
    if (!p.partialN)
      return fn();
    ifThen(ult(col, cst(cols)), fn);
  }
  /// Whether fragment rows of `width` columns take storeRowBf16.
  bool storesBf16Rows(int64_t width) const {
    return p.resultElementType.isBF16() && width >= 32;
  }

  /// Whether to move registers from the producer (setmaxnreg.dec 40) to the
  /// consumers (setmaxnreg.inc 232). Only for the 384-thread 1 + 2 warpgroup
  /// layout (256-thread kernels: ptxas ignores it). FFN producers also
  /// stream D and, with a stage count that is not a power of two, need
  /// div/rem by S: on an H200 such kernels (S = 3) hung with the
  /// reallocation and were correct without it, while S = 2 and 4 were
  /// correct with it (docs/lowering.md).
  bool useRegisterReallocation() const {
    return ff::reallocatesRegisters(p.numConsumers, p.isSingleGemm(), p.stages);
  }

  /// The consumer warpgroup's first row in the tile: its own 64 rows, or
  /// all 64 where the two warpgroups split the columns. With warpgroup
  /// tiles, its rows of the shared-memory tiles (its m tile's output rows
  /// start at m0).
  Value wgRow0() {
    return p.splitColumns ? cst(0) : mul(wg, 64 * p.wgRowBlocks);
  }
  Value outRow0() { return p.warpgroupTiles ? cst(0) : wgRow0(); }
  /// The barrier of ring slot `s` this thread's pair of producer warp and
  /// consumer warpgroup uses (warpgroup tiles: one set per warpgroup).
  Value ringSlot(Value s) {
    return p.warpgroupTiles ? add(mul(ringWg, p.stages), s) : s;
  }

  /// Rows [m0, rowEnd) of the fp32 workspace `[M, L]` (deterministic: of
  /// this cluster's plane) as a `memref<?xLxf32>` subview of a descriptor
  /// built around the raw kernel argument.
  /// First element of workspace plane `q` (`[M, L]` fp32 each).
  Value planeStart(Value q) { return mul(mul(q, numRows), p.shape.l); }

  Value buildWorkspaceTile() {
    int64_t l = p.shape.l;
    Value first = p.isDeterministic() ? planeStart(nCluster) : cst(0);
    auto planeType = MemRefType::get(
        {ShapedType::kDynamic, l}, f32,
        StridedLayoutAttr::get(ctx, ShapedType::kDynamic, {l, 1}));
    Value plane = createMemRefFromPointer(b, loc, ws, planeType, toI64(first),
                                          toI64(numRows));
    SmallVector<OpFoldResult> offsets{m0, b.getIndexAttr(0)};
    SmallVector<OpFoldResult> sizes{sub(rowEnd, m0), b.getIndexAttr(l)};
    SmallVector<OpFoldResult> strides{b.getIndexAttr(1), b.getIndexAttr(1)};
    return memref::SubViewOp::create(b, loc, plane, offsets, sizes, strides);
  }

  void setTile(Value bid);
  /// `x` div and mod the m tile's CTAs along n (KernelPlan::ctasN, counted
  /// at run time for a swapped dynamic M).
  Value divCtasN(Value x) {
    return ctasNRun ? div(x, ctasNRun) : div(x, p.ctasN);
  }
  Value remCtasN(Value x) {
    return ctasNRun ? rem(x, ctasNRun) : rem(x, p.ctasN);
  }
  /// The m tile's clusters along n.
  Value clustersN() {
    return ctasNRun ? div(ctasNRun, p.clusterN) : cst(p.ctasN / p.clusterN);
  }
  /// The bound of a swapped tile's token columns (`cols`, the chain's M).
  Value tokenBound(int64_t cols) { return ctasNRun ? numTokens : cst(cols); }
  /// Forgets what setTile set: a persistent kernel's tile values live in
  /// its tile loop (or, for the weight prefetch, before the loop) only.
  void clearTile() { mTile = m0 = n0 = rowEnd = nCluster = lRot = Value(); }
  /// Runs `fn` once per tile of this CTA with the tile set: the CTA's own
  /// tile, or in a persistent kernel every tile of its cluster's stride
  /// (cluster index + j * clusters in the grid, j = 0, 1, ...) with kBase
  /// the ring iteration of its first k tile.
  template <typename Fn>
  void forEachTile(Fn &&fn);
  /// Ring iteration (stage and phase) of the tile's `k`-th k tile.
  Value ringIt(Value k) { return kBase ? add(kBase, k) : k; }
  /// A persistent FFN kernel's D-ring iteration of its tile's first l
  /// chunk, or streamed n tile (the m tiles before it each took lTiles, or
  /// nTiles with nTiles * kTiles ring iterations).
  Value dRingBase() {
    return p.streamsN() ? div(kBase, p.ringSteps())
                        : mul(div(kBase, p.ringSteps()), p.lTiles());
  }
  /// Marks operand stage `s` free in every CTA that multicasts into it.
  void releaseStage(Value s);
  /// Arrives on barrier `s` of `group`: this CTA's, or with `multicast`
  /// every CTA's of the cluster.
  void arriveOnSlot(Value group, Value s, bool multicast);
  /// A multicast's CTAs: B's the cluster along m; A's the cluster along n,
  /// or over a split K the clusterN ranks of one k place (kRank + j *
  /// clusterK), each of which loads aRowsPerCta() rows into all of them.
  int64_t multicastGroupSize() const {
    return p.aMulticast ? p.clusterN : p.clusterSize();
  }
  Value multicastMask() {
    int64_t bits = 0;
    for (int64_t j = 0; j < multicastGroupSize(); ++j)
      bits |= int64_t(1) << (j * p.clusterK);
    Value mask = arith::ConstantIntOp::create(b, loc, i16, bits);
    if (!kRank)
      return mask;
    Value shift = arith::IndexCastUIOp::create(b, loc, i16, kRank);
    return arith::ShLIOp::create(b, loc, mask, shift);
  }
  /// This rank's place in the group of its split K's reduce-scatter (the
  /// cluster's rank without a split K).
  Value groupRank() const { return kRank ? kRank : rank; }
  void emitSetup(gpu::GPUFuncOp func);
  void emitProducer();
  /// The producer's loads of the current tile's GEMM0 operands (A and B,
  /// for every k tile) through the main-loop ring.
  void emitTileLoads();
  /// A conv-halo warpgroup tile's halo of channels [64k, 64k + 64) at
  /// shared `dst` onto full[slot]: rows row0 - 1 .. row0 + R of `image`.
  void loadHalo(Value dst, Value slot, Value k, Value image, Value row0);
  /// emitTileLoads of a streamed halo GEMM (KernelPlan::isHaloGemm): the
  /// halo ring and the tap ring.
  void emitHaloGemmLoads();
  /// emitMainLoop of a streamed halo GEMM.
  Value emitHaloGemmMainLoop(SmallVector<Value> &accs);
  /// A 3x3 convolution's A k tile `kTile` in im2col mode: the pixels from
  /// `pixel` on into shared `dst` (ptr<3>) onto full[slot], multicast to
  /// `mask` where given.
  void loadIm2colTile(Value dst, Value slot, Value kTile, Value pixel,
                      Value mask);
  /// A 3x3 convolution's k tile (tap-major, channel-minor): its filter tap
  /// (k / (C/64)) and first channel (64 (k mod C/64)).
  std::pair<Value, Value> convTapAndChannel(Value kTile) {
    int64_t cTiles = p.convC / 64;
    return {div(kTile, cTiles), mul(rem(kTile, cTiles), 64)};
  }
  /// Calls fn(tensor map index, box index in the stage, coordinates) for
  /// each TMA box of B's k tile at k0 (gate and up); `col0`: the tile's
  /// first n column.
  template <typename Fn>
  void forEachBBox(Value k0, Value col0, Fn &&fn);
  /// B's k tile (gate and up) at shared offset `bOff` onto barrier `idx`
  /// of `group`. With B multicast, rank (box + `boxBase`) mod clusterM
  /// loads box j of the tile into every CTA: `boxBase` (the tile's first
  /// box in a sequence of tiles) spreads tiles of fewer boxes than
  /// clusterM over the ranks.
  void loadBTile(Value bOff, Value group, Value idx, Value k0, Value col0,
                 Value boxBase = Value());
  /// One 64 x 64 B box at shared byte offset `dstOff` onto `group`[`idx`]:
  /// an nvgpu TMA load, or with evictFirstWeights the NVVM load carrying
  /// weightPolicy as its L2 cache hint (nvgpu's has none).
  void loadBBox(Value dstOff, Value group, Value idx, int64_t map,
                ValueRange coord, Value mask);
  /// Before the grid-dependency wait: L2 prefetches of the B k tiles the
  /// ring's first pass will load for this CTA's first tile (B is a chain
  /// input, never the predecessor's output).
  void emitWeightPrefetch();
  /// D[col0 + (0, blk_n), l0 + (0, blk_l)] at shared offset `base`.
  void loadDTile(Value base, Value group, Value idx, Value col0, Value l0);
  /// residentWeights: every k tile of B and l chunk of D, onto wfull.
  void loadResidentWeights();
  /// D[n0 + (0, blk_n), l0 + (0, blk_l)] into slot j mod 2 of the D ring
  /// (its j-th use).
  void loadD(Value j, Value l0);
  void emitConsumer();
  /// The second GEMM of the current n tile over the D ring's j-th stage:
  /// `acc` (null: a fresh one) += act(C) . D; releases the stage.
  Value secondGemm(Value acc, Value j);
  /// The reduce-scatter family's l chunks: each chunk's second GEMM over
  /// the D ring's (d0 + j)-th stage (d0 null: 0), then its output.
  void emitChunks(Value d0);
  /// Streamed n: sets n0 and the ring base of n tile `t` (after `ring0`,
  /// the m tile's first ring iteration in a persistent kernel).
  void setStreamedTile(Value t, Value ring0 = Value());
  void emitStreamedProducer();
  void emitStreamedConsumer();
  /// Streamed n: the m tile's n tiles in turn (GEMM0, act(C), E += act(C)
  /// . D), the ring from `ring0` and the D ring from `d0` (null: 0) on;
  /// returns E. Leaves kBase at the last n tile's.
  Value emitStreamedNLoop(Value ring0, Value d0);
  Value emitMainLoop(SmallVector<Value> &accs);
  /// The single-GEMM tile: act(acc) or, gated, the stages on gate and up.
  void emitGemmEpilogue(ArrayRef<Value> accs);
  /// Split K: reduce-scatters the fp32 tile over the cluster and stores
  /// this rank's columns through the epilogue (gated: gate's tile, then
  /// up's, and the stages on both sums).
  void emitSplitKEpilogue(ArrayRef<Value> accs);
  /// Cluster reduce-scatter of a consumer warpgroup's `width`-column fp32
  /// fragment `acc`: every rank publishes it in partialView, then dsm.reduce
  /// leaves the sum of columns [r*w, (r+1)*w) of all `group` ranks'
  /// partials in rank r's reducedBuf. Returns w.
  /// With reduce-push the exchange is the `use`-th (phases alternate), in
  /// p.reduceParts column parts. `consume(w, colOwned)` takes each reduced
  /// part: `w` columns of reducedView (from row reducedRow0), which are
  /// columns colOwned + [0, w) of the tile.
  /// A fragment of fewer columns (split columns: `fragWidth` of them from
  /// column `fragCol0` of the tile) publishes only those; the pull only.
  void reduceScatterFragment(Value acc, int64_t width, int64_t group, Value use,
                             llvm::function_ref<void(int64_t, Value)> consume,
                             int64_t fragWidth = 0, Value fragCol0 = Value());
  /// The cluster barriers a producer takes part in for each reduce-scatter
  /// of its consumers: two for a pull, one per part for a push, whose
  /// arrives are relaxed like the consumers' (dsm.reduce).
  void reduceClusterSyncs() {
    for (int64_t i = 0; i < (p.reducePush ? p.reduceParts : 2); ++i)
      clusterSync(/*relaxed=*/p.reducePush);
  }
  /// This rank's reduced columns (reducedView, `w` wide, owned from column
  /// `colOwned` of the reduced tile) through `epi` into `out` columns
  /// col0 + colOwned + ... (rows of `cols` elements), rows past rowEnd
  /// skipped.
  void storeReducedSlice(int64_t w, Value colOwned, Value col0,
                         linalg::GenericOp epi, int64_t cols);
  /// Four sums of the reduced slice at (row, col) of reducedView.
  Value loadReducedQuad(Value row, Value col);
  /// `y(0..3)` into output row m0 + row, columns col + [0, 4) (rows of
  /// `cols` elements), unless the row lies past rowEnd.
  void storeQuad(Value row, Value col, int64_t cols,
                 function_ref<Value(int64_t)> y);
  /// Columns [col0, col0 + width) of a consumer warpgroup's D fragment
  /// into `out` (rows of `cols` elements), element i being `y(i)`, rows
  /// past rowEnd skipped.
  /// `rowBlock`: the warpgroup's 64-row block (KernelPlan::wgRowBlocks).
  void storeFragment(function_ref<Value(int64_t)> y, Value col0, int64_t width,
                     int64_t cols, int64_t rowBlock = 0);
  /// The same for `acc` through `epi`.
  void storeFragment(Value acc, linalg::GenericOp epi, Value col0,
                     int64_t width, int64_t cols, int64_t rowBlock = 0);
  /// Swapped operands (KernelPlan::stagesSwappedStores): storeFragment of
  /// this warp's 16 weight rows (from `warpRow0`) through its store
  /// buffers.
  void storeSwappedStaged(function_ref<Value(int64_t)> y, Value warpRow0,
                          Value col0, int64_t width, int64_t cols);
  void emitFfnEpilogue(ArrayRef<Value> accs, Value tileBase = Value());
  void emitChunkOutput(Value acc, Value chunk, Value j);
  void emitShuffleProducer();
  Value shuffleSubTileL0(Value j);
  void emitShuffleConsumer(ArrayRef<Value> accs);
  void emitSplitKSlice(Value acc, Value slot = Value());
  void emitRegisterOutput(Value acc, Value l0, int64_t width);
  void emitBulkOutput(Value acc, Value l0, int64_t width);
  void reduceIntoWorkspace(Value row, Value col, ArrayRef<Value> vals);
  void emitFinisher();
  template <typename Fn> void forEachOwnedQuad(int64_t width, Fn &&fn);
  /// forEachOwnedQuad unrolled (width a multiple of 8: every consumer
  /// thread owns width / 8 quads), so that values outlive the sweep.
  template <typename Fn>
  void forEachOwnedQuadUnrolled(int64_t width, Fn &&fn);
  template <typename LoadFn, typename UseFn>
  void forEachOwnedQuadBatched(int64_t width, Value rowLimit, LoadFn &&load,
                               UseFn &&use);

  OpBuilder &b;
  Location loc;
  const KernelPlan &p;
  MLIRContext *ctx;
  Type i1, i16, i32, i64, f32;
  LLVM::LLVMPointerType ptrGlobal, ptrShared, ptrCluster;

  SmallVector<Value> tmaps; // nvgpu tensormap descriptors, ABI order
  Value aTailArg, aTailMap; // A's last-tile map (tailABox): argument, map
  SmallVector<Value> tmapArgs; // the same as kernel arguments (!llvm.ptr)
  Value out, ws, numRows;   // numRows: M as index
  // Swapped operands: the chain's M (the product's n, its columns), and
  // with a dynamic M the CTAs along n at run time (KernelPlan::swapsDynamicM;
  // else p.ctasN).
  Value numTokens, ctasNRun;
  Value rowEnd;             // rows [m0, rowEnd) of the tile are stored
  Value smem, smemBase;
  Value tid, wg, warp, lane, wgLeader, rank;
  Value mTile, m0, n0;
  Value kBase;    // persistent kernels: ring iteration of the tile's first k
  // Warpgroup tiles: the consumer warpgroup whose tiles this thread walks
  // (a consumer's own, a producer warp's index), and the producer thread
  // that issues its loads (else the producer warpgroup's leader).
  Value ringWg, loadLeader;
  Value kOff;     // split K: this rank's first k tile
  // Split K: this rank's place in its k group (ranks n * clusterK + k).
  Value kRank;
  Value nCluster; // index of this CTA's cluster along n
  Value lRot; // first l chunk of this cluster (FFN kinds)
  Value full, empty, dfull, dempty, ticks;
  Value wfull; // residentWeights: B and D have landed
  // evictFirstWeights: the producer's L2 policy for B's loads.
  Value weightPolicy;
  Value tfull, tempty; // a streamed halo GEMM's tap ring
  // FFN clusters (split-K GEMMs: the C tile): the partial E chunk each rank
  // publishes and the slice of it the cluster's reduce-scatter leaves here
  // (dsm buffers and views).
  Value partialBuf, reducedBuf, partialView, reducedView;
  // With reduce-push: the peers' slices, the barrier they complete on, and
  // the row of reducedView where this rank's sum starts (its slice of the
  // partial, or 0).
  Value scratchBuf, reduceBarrier, reducedRow0;
  // Shuffle family: this rank's act(C) slice and the gathered slices, and
  // with shuffle-push the barrier the gathered bytes complete on.
  Value sliceBuf, gatheredBuf, gatherBarrier;
  // ... and, with an inter-cluster workspace, this m tile's rows of the
  // cluster's workspace (plane) as a global memref the slice is reduced into.
  Value workspaceTile;
};

} // namespace

/// Sets this CTA's tile (mTile, m0, n0, rowEnd, nCluster, lRot) from `bid`:
/// its block index, or in a persistent kernel the block index the tile it
/// works on next would have in a grid of one tile per CTA.
void KernelEmitter::setTile(Value bid) {
  // Split K: a cluster's clusterK consecutive CTAs share one tile.
  if (p.clusterK > 1)
    bid = div(bid, p.clusterK);
  // n index of this CTA among the m tile's ctasN CTAs.
  Value nIdx = remCtasN(bid);
  mTile = divCtasN(bid);
  if (p.clusterM > 1) {
    // A cluster along m: its clusterM consecutive CTAs take consecutive m
    // tiles of one n tile.
    Value cid = div(bid, p.clusterM);
    nIdx = remCtasN(cid);
    mTile = add(mul(divCtasN(cid), p.clusterM), rem(bid, p.clusterM));
  } else if (p.rasterGroupM > 1) {
    // Grouped raster over whole clusters (a cluster's CTAs stay
    // consecutive): group g holds m tiles [g*G, g*G + size) for every n,
    // m fastest; the last group is cut to the m tiles that remain.
    int64_t group = p.rasterGroupM;
    Value cid = div(bid, p.clusterN);
    Value mTiles =
        arith::CeilDivUIOp::create(b, loc, numRows, cst(p.wgTileRows()));
    // The group's clusters: of every n tile, counted at run time for a
    // swapped dynamic M.
    int64_t perGroup = group * (p.ctasN / p.clusterN);
    Value perGroupRun = ctasNRun ? mul(clustersN(), group) : Value();
    Value g = perGroupRun ? div(cid, perGroupRun) : div(cid, perGroup);
    Value first = mul(g, group);
    Value size = arith::MinUIOp::create(b, loc, sub(mTiles, first), cst(group));
    Value local = perGroupRun ? rem(cid, perGroupRun) : rem(cid, perGroup);
    mTile = add(first, rem(local, size));
    Value nc = div(local, size);
    nIdx = p.clusterN > 1 ? add(mul(nc, p.clusterN), rem(bid, p.clusterN)) : nc;
  }
  m0 = mul(mTile, p.wgTileRows());
  // Rows past the tile's output rows (a conv tile of R * W < blk_m rows
  // holds stale shared memory there) or past M are never stored.
  rowEnd = p.isConv() ? arith::MinUIOp::create(b, loc, numRows,
                                               add(m0, p.wgTileRows()))
                            .getResult()
                      : numRows;
  n0 = mul(nIdx, p.bn);
  nCluster = div(nIdx, p.clusterN);
  // Every cluster walks the l chunks from a different start: the fp32
  // workspace reductions of concurrent clusters then hit different lines
  // instead of serialising on the same L2 addresses. Uniform within a
  // cluster, whose CTAs exchange the same chunk.
  if (!p.isSingleGemm() && p.lTiles() > 1)
    lRot = rem(div(bid, p.clusterN), p.lTiles());
}

template <typename Fn>
void KernelEmitter::forEachTile(Fn &&fn) {
  if (!p.persistent)
    return fn();
  // Tiles are numbered like the CTAs of a one-tile-per-CTA grid (whole
  // clusters, raster order), so a wave of the persistent grid covers the
  // tiles a wave of that grid would, and shares their operands in L2.
  Value bid = gpu::BlockIdOp::create(b, loc, gpu::Dimension::x);
  Value ctas = gpu::GridDimOp::create(b, loc, gpu::Dimension::x);
  // Warpgroup tiles: the CTA's tile of a one-tile-per-CTA grid is its
  // warpgroups' tiles, in order.
  if (p.warpgroupTiles) {
    bid = add(mul(bid, p.numConsumers), ringWg);
    ctas = mul(ctas, p.numConsumers);
  }
  Value mTiles =
      arith::CeilDivUIOp::create(b, loc, numRows, cst(p.wgTileRows()));
  Value tiles =
      ctasNRun ? mul(mTiles, clustersN()) : mul(mTiles, p.ctasN / p.clusterN);
  Value r = p.clusterN > 1 ? rem(bid, p.clusterN) : Value();
  // One round: a tile per cluster slot of the grid.
  Value slots = div(ctas, p.clusterN);
  Value slot = div(bid, p.clusterN);
  // Snake rounds carry the round's parity (the loop runs one round per
  // iteration): a 64-bit division by the runtime slot count before every
  // tile made G3 at M = 300 1.08x slower, the parity 1.015x (H200). It
  // flips only while one raster group holds every m tile: slot s then runs
  // m tile (s + q * slots) mod mTiles in round q, the same one every round
  // where mTiles divides the slots; with several groups the m tiles rotate
  // already.
  Value snakes;
  SmallVector<Value> inits{cst(0)};
  if (p.snakeRounds) {
    snakes = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ule, mTiles,
                                   cst(p.rasterGroupM));
    inits.push_back(arith::ConstantIntOp::create(b, loc, i1, 0));
  }
  auto loop = scf::ForOp::create(b, loc, slot, tiles, slots, inits);
  OpBuilder::InsertionGuard g(b);
  b.setInsertionPointToStart(loop.getBody());
  Value t = loop.getInductionVar();
  Value odd;
  if (p.snakeRounds) {
    // The round holds tiles [first, first + n), n <= slots (the last may be
    // short); an odd round gives its i-th slot tile first + n - 1 - i
    // instead. The first round keeps each CTA's block index.
    odd = loop.getRegionIterArg(1);
    Value first = sub(t, slot);
    Value n = arith::MinUIOp::create(b, loc, sub(tiles, first), slots);
    Value mirrored = sub(add(first, n), add(slot, 1));
    t = arith::SelectOp::create(b, loc, odd, mirrored, t);
  }
  Value tileBid = mul(t, p.clusterN);
  setTile(r ? add(tileBid, r) : tileBid);
  kBase = loop.getRegionIterArg(0);
  fn();
  // A streamed m tile runs nTiles main loops through the ring.
  SmallVector<Value> next{add(kBase, p.ringSteps() * p.nTiles)};
  if (odd)
    next.push_back(arith::XOrIOp::create(b, loc, odd, snakes));
  scf::YieldOp::create(b, loc, next);
  // The tile's values do not outlive the loop.
  clearTile();
  kBase = Value();
}

void KernelEmitter::releaseStage(Value s) {
  arriveOnSlot(empty, s, p.multicasts());
}

void KernelEmitter::arriveOnSlot(Value group, Value s, bool multicast) {
  if (!multicast) {
    nvgpu::MBarrierArriveOp::create(b, loc, group, s);
    return;
  }
  Value bar = nvgpu::MBarrierGetOp::create(b, loc, i64, group, s);
  Value bar3 = LLVM::IntToPtrOp::create(b, loc, ptrShared, bar);
  // The CTAs that multicast into this one: the whole cluster, or with A
  // multicast over a split K the ranks of this rank's k place.
  for (int64_t q = 0; q < multicastGroupSize(); ++q) {
    Value peer = kRank ? toI32(add(kRank, q * p.clusterK)) : cstI32(q);
    Value remote = NVVM::MapaOp::create(b, loc, ptrCluster, bar3, peer);
    NVVM::MBarrierArriveOp::create(
        b, loc, Type(), remote, Value(),
        NVVM::MemScopeKindAttr::get(ctx, NVVM::MemScopeKind::CTA));
  }
}

void KernelEmitter::emitSetup(gpu::GPUFuncOp func) {
  auto wsSpace = gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup);
  SmallVector<KernelParam> params = getKernelParams(p);
  for (auto [i, param] : llvm::enumerate(params)) {
    Value arg = func.getArgument(i);
    switch (param.kind) {
    case KernelParam::Kind::TensorMap: {
      auto box = MemRefType::get(llvm::to_vector(llvm::reverse(param.box)),
                                 b.getBF16Type(), AffineMap(),
                                 b.getI64IntegerAttr(3));
      auto type = nvgpu::TensorMapDescriptorType::get(
          ctx, box, nvgpu::TensorMapSwizzleKind::SWIZZLE_128B,
          nvgpu::TensorMapL2PromoKind::L2PROMO_256B,
          nvgpu::TensorMapOOBKind::OOB_ZERO,
          nvgpu::TensorMapInterleaveKind::INTERLEAVE_NONE);
      // The tail map is chosen per tile (emitTileLoads), off the ABI-order
      // list the other loads index.
      if (param.aTail) {
        aTailArg = arg;
        aTailMap =
            UnrealizedConversionCastOp::create(b, loc, type, arg).getResult(0);
        break;
      }
      tmaps.push_back(
          UnrealizedConversionCastOp::create(b, loc, type, arg).getResult(0));
      tmapArgs.push_back(arg);
      break;
    }
    case KernelParam::Kind::Ptr:
      out = arg;
      break;
    case KernelParam::Kind::Workspace:
      ws = arg;
      break;
    case KernelParam::Kind::I64: {
      Value m = arith::IndexCastUIOp::create(b, loc, b.getIndexType(), arg);
      // Swapped operands: the rows are the weight's N, the columns M.
      numRows = p.swapAb ? cst(p.shape.m) : m;
      if (p.swapsDynamicM()) {
        numTokens = m;
        int64_t unit = p.bn * p.clusterN;
        ctasNRun =
            mul(arith::CeilDivUIOp::create(b, loc, m, cst(unit)).getResult(),
                p.clusterN);
      }
      break;
    }
    }
  }

  ticks = cst(10000000);
  tid = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  wg = div(tid, kWarpgroupThreads);
  Value laneWg = rem(tid, kWarpgroupThreads);
  warp = div(laneWg, 32);
  lane = rem(tid, 32);
  wgLeader = eq(laneWg, 0);
  if (!p.persistent)
    setTile(gpu::BlockIdOp::create(b, loc, gpu::Dimension::x));
  rank = p.clusterSize() > 1
             ? ClusterRankOp::create(b, loc, b.getIndexType()).getResult()
             : cst(0);
  // Split K: rank r runs the k tiles of its place in its k group (a
  // shuffle-family cluster holds cls_n groups, k fastest; a split-K GEMM's
  // cluster is one).
  if (p.clusterK > 1) {
    Value place = rem(rank, p.clusterK);
    kOff = mul(place, p.kTiles());
    kRank = p.clusterK == p.clusterSize() ? rank : place;
  }

  auto smemType = MemRefType::get({ShapedType::kDynamic}, b.getI8Type(),
                                  AffineMap(), wsSpace);
  smem = gpu::DynamicSharedMemoryOp::create(b, loc, smemType);
  smemBase = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, smem);
  if (p.shuffle) {
    // The act(C) slice this rank publishes and the cluster's gathered
    // slices, as rows of 128 B (one 64-column chunk of blk_m rows after the
    // other): concatenating along rows in rank order is concatenating the
    // swizzled bytes, so n step t of the second GEMM reads chunk t.
    auto alloc = [&](int64_t rows, int64_t offset) -> Value {
      auto type = BufferType::get(ctx, {rows, 64}, b.getBF16Type(), {1, 1});
      return AllocOp::create(b, loc, type, b.getI64IntegerAttr(offset));
    };
    int64_t sliceRows = p.sliceRows();
    // (An in-place push has no separate slice: act(C) goes to its slot.)
    if (!p.shufflePush)
      sliceBuf = alloc(sliceRows, p.smemC);
    gatheredBuf = alloc(p.clusterSize() * sliceRows, p.smemGathered);
    if (p.clusterK > 1) {
      // Split K: the fp32 partial C tile each rank publishes to its k
      // group, and the slice of the sum the group's reduce-scatter leaves.
      auto allocF32 = [&](int64_t rows, int64_t cols, int64_t offset,
                          Value &view) -> Value {
        auto type = BufferType::get(ctx, {rows, cols}, f32, {1, 1});
        Value buf = AllocOp::create(b, loc, type, b.getI64IntegerAttr(offset));
        view = LocalViewOp::create(
            b, loc, MemRefType::get({rows, cols}, f32, AffineMap(), wsSpace),
            buf);
        return buf;
      };
      partialBuf = allocF32(p.bm, p.bn, p.smemE, partialView);
      reducedBuf = allocF32(p.reducedSliceRows(), p.reducedSliceCols(),
                            p.smemReduced, reducedView);
    }
  } else if ((!p.isSingleGemm() && p.clusterN > 1) || p.clusterK > 1) {
    // Cluster buffers at the offsets the plan laid out (KernelPlan.cpp).
    auto alloc = [&](int64_t cols, int64_t offset) -> Value {
      auto type = BufferType::get(ctx, {p.bm, cols}, f32, {1, 1});
      return AllocOp::create(b, loc, type, b.getI64IntegerAttr(offset));
    };
    auto view = [&](Value buf, int64_t cols) -> Value {
      return LocalViewOp::create(
          b, loc, MemRefType::get({p.bm, cols}, f32, AffineMap(), wsSpace),
          buf);
    };
    // The reduced tile: an l chunk of E, or a split-K GEMM's C tile.
    int64_t width = p.reduceWidth(), group = p.reduceGroup();
    int64_t w = width / group;
    reducedRow0 = cst(0);
    if (p.reducePush) {
      // Slice-major: slice g of the tile (of one part of its columns) is
      // rows [g * bm, (g + 1) * bm).
      int64_t wp = w / p.reduceParts;
      auto allocRows = [&](int64_t rows, int64_t offset) -> Value {
        auto type = BufferType::get(ctx, {rows, wp}, f32, {1, 1});
        return AllocOp::create(b, loc, type, b.getI64IntegerAttr(offset));
      };
      partialBuf = allocRows(group * p.bm, p.smemE);
      partialView = LocalViewOp::create(
          b, loc,
          MemRefType::get({group * p.bm, wp}, f32, AffineMap(), wsSpace),
          partialBuf);
      scratchBuf = allocRows((group - 1) * p.bm, p.pushScratch);
      reduceBarrier = BarrierCreateOp::create(b, loc, BarrierType::get(ctx),
                                              b.getI64IntegerAttr(1));
      if (p.needsWorkspace) {
        reducedBuf = alloc(wp, p.smemReduced);
      } else {
        // The sum lands in this rank's slice of the partial.
        reducedView = partialView;
        reducedRow0 = mul(groupRank(), p.bm);
      }
    } else {
      partialBuf = alloc(width, p.smemE);
      partialView = view(partialBuf, width);
      reducedBuf = alloc(w, p.smemReduced);
      if (!p.needsWorkspace)
        reducedView = view(reducedBuf, w);
    }
    // The slice goes to the workspace (inter_cluster_reduce reads the
    // buffer) or through the epilogue (read through a view).
    if (p.needsWorkspace)
      workspaceTile = buildWorkspaceTile();
  }

  auto group = [&](int64_t n) {
    return nvgpu::MBarrierCreateOp::create(
        b, loc, nvgpu::MBarrierGroupType::get(ctx, wsSpace, n));
  };
  int64_t slots = p.stages * p.ringBarrierGroups();
  full = group(slots);
  empty = group(slots);
  Value t0 = eq(tid, 0);
  // A consumer releases a stage in every CTA that multicasts into it; with
  // warpgroup tiles each releases its own.
  // A streamed halo GEMM multicasts B only, through its tap ring.
  int64_t multicastCount =
      p.numConsumers * (p.multicasts() ? multicastGroupSize() : 1);
  int64_t emptyCount = p.warpgroupTiles ? 1
                       : p.isHaloGemm() ? p.numConsumers
                                        : multicastCount;
  forLoop(cst(0), cst(slots), cst(1), [&](Value s) {
    nvgpu::MBarrierInitOp::create(b, loc, full, cst(1), s, t0);
    nvgpu::MBarrierInitOp::create(b, loc, empty, cst(emptyCount), s, t0);
  });
  if (p.isHaloGemm()) {
    tfull = group(p.tapStages);
    tempty = group(p.tapStages);
    forLoop(cst(0), cst(p.tapStages), cst(1), [&](Value s) {
      nvgpu::MBarrierInitOp::create(b, loc, tfull, cst(1), s, t0);
      nvgpu::MBarrierInitOp::create(b, loc, tempty, cst(multicastCount), s, t0);
    });
  }
  if (!p.isSingleGemm()) {
    dfull = group(p.dStages);
    dempty = group(p.dStages);
    for (int64_t s = 0; s < p.dStages; ++s) {
      nvgpu::MBarrierInitOp::create(b, loc, dfull, cst(1), cst(s), t0);
      nvgpu::MBarrierInitOp::create(b, loc, dempty, cst(p.numConsumers),
                                    cst(s), t0);
    }
  }
  if (p.residentWeights) {
    wfull = group(1);
    nvgpu::MBarrierInitOp::create(b, loc, wfull, cst(1), cst(0), t0);
  }
  if (p.shufflePush)
    gatherBarrier = BarrierCreateOp::create(b, loc, BarrierType::get(ctx),
                                            b.getI64IntegerAttr(1));
  if (p.zeroStaleA) {
    // Every thread zeroes 16 B at a time; the barrier below orders it
    // before the first load, the fence before the wgmmas' reads.
    Value zero = arith::ConstantOp::create(
        b, loc,
        DenseElementsAttr::get(VectorType::get({4}, b.getI32Type()),
                               b.getI32IntegerAttr(0)));
    forLoop(mul(tid, 16), cst(p.stages * p.aStageBytes),
            cst(16 * p.numThreads()), [&](Value off) {
              LLVM::StoreOp::create(b, loc, zero, sharedPtr(add(off, p.smemA)),
                                    16);
            });
    NVVM::FenceProxyOp::create(
        b, loc, NVVM::ProxyKindAttr::get(ctx, NVVM::ProxyKind::async_shared),
        NVVM::SharedSpaceAttr::get(ctx, NVVM::SharedSpace::shared_cta));
  }
  if (p.clusterSize() > 1) {
    // Barrier inits must be visible cluster-wide before any multicast,
    // remote arrive or DSM access.
    ifThen(t0, [&] { NVVM::FenceMbarrierInitOp::create(b, loc); });
    clusterSync(/*relaxed=*/true);
  } else {
    gpu::BarrierOp::create(b, loc);
  }
}

void KernelEmitter::emitProducer() {
  if (useRegisterReallocation())
    NVVM::SetMaxRegisterOp::create(
        b, loc, b.getI32IntegerAttr(40),
        NVVM::SetMaxRegisterActionAttr::get(
            ctx, NVVM::SetMaxRegisterAction::decrease));
  for (Value t : tmaps)
    nvgpu::TmaPrefetchOp::create(b, loc, t, wgLeader);
  if (aTailMap)
    nvgpu::TmaPrefetchOp::create(b, loc, aTailMap, wgLeader);
  if (p.evictFirstWeights)
    weightPolicy = createL2EvictFirstPolicy(b, loc);

  if (p.streamsN())
    return emitStreamedProducer();
  // A persistent solo FFN kernel: per tile its operands, then its D
  // chunks; the next tile's operands fill the ring while the consumers run
  // the last chunks.
  if (p.persistent && !p.isSingleGemm()) {
    // Resident weights: B and D once, then A alone per tile; with
    // warpgroup tiles, producer warp w loads warpgroup w's.
    if (p.residentWeights) {
      loadResidentWeights();
      if (!p.warpgroupTiles)
        return forEachTile([&] { emitTileLoads(); });
      ifThen(ult(warp, cst(p.numConsumers)), [&] {
        ringWg = warp;
        loadLeader = eq(lane, 0);
        forEachTile([&] { emitTileLoads(); });
      });
      return;
    }
    forEachTile([&] {
      emitTileLoads();
      Value d0 = dRingBase();
      forLoop(cst(0), cst(p.lTiles()), cst(1),
              [&](Value j) { loadD(add(d0, j), mul(chunkOf(j), p.bl)); });
    });
    return;
  }
  forEachTile([&] { emitTileLoads(); });
  if (p.isSingleGemm()) {
    // Split K: the cluster barriers of the consumers' dsm.reduce (gated:
    // gate's, then up's).
    for (int64_t i = 0; p.clusterK > 1 && i < (p.isGated() ? 2 : 1); ++i)
      reduceClusterSyncs();
    return;
  }
  if (p.shuffle)
    return emitShuffleProducer();

  // FFN: stream D[n-slice, l-chunk] through a 2-slot ring. In clusters the
  // producer also takes part in the cluster barriers of every chunk's
  // reduce-scatter, one chunk behind its loads.
  forLoop(cst(0), cst(p.lTiles()), cst(1), [&](Value j) {
    loadD(j, mul(chunkOf(j), p.bl));
    if (p.clusterN > 1)
      ifThen(cmp(arith::CmpIPredicate::ugt, j, cst(0)),
             [&] { reduceClusterSyncs(); });
  });
  if (p.clusterN > 1)
    reduceClusterSyncs();
}

void KernelEmitter::emitStreamedProducer() {
  // Per n tile t: its GEMM0 operands through the main-loop ring (ring
  // iterations continue from tile to tile), then D[t's n rows, all of L]
  // into slot t mod 2 of the D ring. A persistent kernel does so per m
  // tile, both rings running on across m tiles.
  if (p.persistent) {
    forEachTile([&] {
      Value ring0 = kBase, d0 = dRingBase();
      forLoop(cst(0), cst(p.nTiles), cst(1), [&](Value t) {
        setStreamedTile(t, ring0);
        emitTileLoads();
        loadD(add(d0, t), cst(0));
      });
      n0 = Value();
      kBase = ring0;
    });
    return;
  }
  forLoop(cst(0), cst(p.nTiles), cst(1), [&](Value t) {
    setStreamedTile(t);
    emitTileLoads();
    loadD(t, cst(0));
  });
  n0 = kBase = Value();
  // Split over a cluster: the cluster barriers of E's reduce-scatter.
  if (p.clusterN > 1)
    reduceClusterSyncs();
}

void KernelEmitter::loadD(Value j, Value l0) {
  Value slot = ringRem(j, 2);
  waitParity(dempty, slot, notI1(parity(j, 2)));
  leaderOnly(wgLeader, [&] {
    nvgpu::MBarrierArriveExpectTxOp::create(b, loc, dfull, cst(p.dStageBytes),
                                            slot, Value());
    loadDTile(add(mul(slot, p.dStageBytes), p.smemD), dfull, slot, n0, l0);
  });
}

void KernelEmitter::loadDTile(Value base, Value group, Value idx, Value col0,
                              Value l0) {
  Value tmD = tmaps.back();
  if (p.dKMajor) {
    // D[L, N]: per 64-wide n chunk q, bl rows (l) of 128 B.
    for (int64_t q = 0; q < p.bn / 64; ++q)
      nvgpu::TmaAsyncLoadOp::create(
          b, loc, smemView(add(base, q * p.bl * 128), {p.bl, 64}), group, tmD,
          ValueRange{add(col0, 64 * q), l0}, idx, Value(), Value());
    return;
  }
  for (int64_t q = 0; q < p.bl / 64; ++q)
    nvgpu::TmaAsyncLoadOp::create(
        b, loc, smemView(add(base, q * p.bn * 128), {p.bn, 64}), group, tmD,
        ValueRange{add(l0, 64 * q), col0}, idx, Value(), Value());
}

template <typename Fn>
void KernelEmitter::forEachBBox(Value k0, Value col0, Fn &&fn) {
  // Row-major B: box j = 64 k rows x 64 n columns (MN-major, one
  // 64-column chunk of bn after the other); K-major B: box j = 64 n
  // rows x 64 k (bn rows of 128 B, the same layout as A), or one box of bn
  // rows (KernelPlan::bBoxRows). Gated: the up weight's boxes after the
  // gate's.
  int64_t rows = p.bBoxRows(), boxes = p.bBoxes();
  for (int64_t j = 0; j < boxes; ++j) {
    SmallVector<Value, 2> coord{add(col0, rows * j), k0};
    if (p.bKMajor)
      std::swap(coord[0], coord[1]);
    fn(1, j, coord);
    if (p.isGated() && !p.gatesA())
      fn(2, boxes + j, coord);
  }
}

void KernelEmitter::loadBBox(Value dstOff, Value group, Value idx, int64_t map,
                             ValueRange coord, Value mask) {
  if (!weightPolicy) {
    nvgpu::TmaAsyncLoadOp::create(b, loc, smemView(dstOff, {p.bBoxRows(), 64}),
                                  group, tmaps[map], coord, idx, mask, Value());
    return;
  }
  SmallVector<Value, 2> coords;
  for (Value c : coord)
    coords.push_back(arith::IndexCastOp::create(b, loc, i32, c));
  Value bar = LLVM::IntToPtrOp::create(
      b, loc, ptrShared,
      nvgpu::MBarrierGetOp::create(b, loc, i64, group, idx).getResult());
  // The shared::cluster form takes an address-space-7 destination (this
  // CTA's address of the box), as nvgpu's lowering does.
  Value dst =
      LLVM::AddrSpaceCastOp::create(b, loc, ptrCluster, sharedPtr(dstOff));
  NVVM::CpAsyncBulkTensorGlobalToSharedClusterOp::create(
      b, loc, dst, tmapArgs[map], coords, bar, ValueRange{}, mask, weightPolicy,
      NVVM::TMALoadMode::TILE, /*isCTAOnly=*/false, NVVM::CTAGroupKindAttr(),
      Value());
}

void KernelEmitter::loadBTile(Value bOff, Value group, Value idx, Value k0,
                              Value col0, Value boxBase) {
  forEachBBox(k0, col0, [&](int64_t map, int64_t box, ValueRange coord) {
    auto load = [&](Value mask) {
      loadBBox(add(bOff, box * p.bBoxRows() * 128), group, idx, map, coord,
               mask);
    };
    if (!p.bMulticast)
      return load(Value());
    // Rank box mod clusterM loads the box into every CTA of the cluster.
    std::optional<int64_t> base =
        boxBase ? getConstantIntValue(boxBase) : std::optional<int64_t>(0);
    Value owns = base ? eq(rank, (*base + box) % p.clusterM)
                      : cmp(arith::CmpIPredicate::eq, rank,
                            rem(add(boxBase, box), p.clusterM));
    ifThen(owns, [&] {
      load(arith::ConstantIntOp::create(b, loc, i16, (1 << p.clusterM) - 1));
    });
  });
}

void KernelEmitter::emitWeightPrefetch() {
  // A persistent CTA's first tile has its block index (forEachTile).
  if (p.persistent)
    setTile(gpu::BlockIdOp::create(b, loc, gpu::Dimension::x));
  for (int64_t k = 0; k < std::min(p.kTiles(), p.stages); ++k) {
    Value k0 = mul(kOff ? add(cst(k), kOff) : cst(k), p.bk);
    forEachBBox(k0, n0, [&](int64_t map, int64_t, ValueRange coord) {
      SmallVector<Value, 2> c32;
      for (Value c : coord)
        c32.push_back(arith::IndexCastOp::create(b, loc, i32, c));
      NVVM::CpAsyncBulkTensorPrefetchOp::create(
          b, loc, tmapArgs[map], c32, ValueRange{}, NVVM::TMALoadMode::TILE,
          Value());
    });
  }
  if (p.persistent)
    clearTile();
}

void KernelEmitter::loadResidentWeights() {
  leaderOnly(wgLeader, [&] {
    nvgpu::MBarrierArriveExpectTxOp::create(
        b, loc, wfull,
        cst(p.kTiles() * p.bStageBytes + p.lTiles() * p.dStageBytes), cst(0),
        Value());
    for (int64_t k = 0; k < p.kTiles(); ++k)
      loadBTile(cst(p.smemB + k * p.bStageBytes), wfull, cst(0), cst(k * p.bk),
                cst(0));
    for (int64_t c = 0; c < p.lTiles(); ++c)
      loadDTile(cst(p.smemD + c * p.dStageBytes), wfull, cst(0), cst(0),
                cst(c * p.bl));
  });
}

void KernelEmitter::loadIm2colTile(Value dst, Value slot, Value kTile,
                                   Value pixel, Value mask) {
  // k tile -> filter tap (r, s) = divmod(k / (C/64), 3) and channels 64 (k
  // mod C/64). The load starts at output pixel (n, h, w) = `pixel` of the
  // N x H x W grid, at input pixel (h - 1 + r, w - 1 + s); TMA walks the
  // pixel box (corners -1, -1: W and H positions from -1 + offset, the
  // padding zero-filled) across rows and images. A split K's k tiles past
  // K (the last ranks') read tap 8: B's rows there are TMA's zeros.
  auto [tap, c0] = convTapAndChannel(kTile);
  tap = arith::MinUIOp::create(b, loc, tap, cst(8));
  int64_t hw = p.convH * p.convW;
  Value image = div(pixel, hw);
  Value inImage = rem(pixel, hw);
  Value h = add(div(inImage, p.convW), -1);
  Value w = add(rem(inImage, p.convW), -1);
  SmallVector<Value, 4> coords;
  for (Value c : {c0, w, h, image})
    coords.push_back(arith::IndexCastOp::create(b, loc, i32, c));
  SmallVector<Value, 2> offsets;
  for (Value o : {rem(tap, 3), div(tap, 3)})
    offsets.push_back(arith::IndexCastOp::create(b, loc, b.getI16Type(), o));
  Value bar = LLVM::IntToPtrOp::create(
      b, loc, ptrShared,
      nvgpu::MBarrierGetOp::create(b, loc, i64, full, slot).getResult());
  // The shared::cluster form (the only one that multicasts) takes an
  // address-space-7 destination: this CTA's address of the stage.
  dst = LLVM::AddrSpaceCastOp::create(b, loc, ptrCluster, dst);
  NVVM::CpAsyncBulkTensorGlobalToSharedClusterOp::create(
      b, loc, dst, tmapArgs[0], coords, bar, offsets, mask, Value(),
      NVVM::TMALoadMode::IM2COL, /*isCTAOnly=*/false, NVVM::CTAGroupKindAttr(),
      Value());
}

void KernelEmitter::emitTileLoads() {
  if (p.isHaloGemm())
    return emitHaloGemmLoads();
  Value tmA = tmaps[0];
  int64_t aRows = p.aRowsPerCta();
  // With A multicast every CTA receives the whole A tile (its slice and
  // its peers'), and the full barrier must count all of it: counting the
  // own slice alone let the phase complete before the peers' rows landed.
  int64_t aLoadBytes = p.convHalo     ? p.haloLoadBytes()
                       : p.isConv()   ? p.wgTileRows() * 128
                       : p.aMulticast ? p.bm * 128
                                      : p.aOperands() * p.aBoxRows() * 128;
  // Resident weights: the ring carries A only.
  int64_t bLoadBytes = p.residentWeights ? 0 : p.bStageBytes;
  // A box fitted to a dynamic M lands min(rows, M) rows, as the runtime
  // encodes it; the last of several m tiles loads its min(rows, M - m0)
  // rows through the tail map.
  Value stageBytes =
      p.fitsABoxAtLaunch()
          ? add(mul(arith::MinUIOp::create(b, loc, numRows, cst(aRows)), 128),
                bLoadBytes)
          : cst(aLoadBytes + bLoadBytes);
  if (p.tailABox) {
    Value rowsHere =
        arith::MinUIOp::create(b, loc, sub(numRows, m0), cst(aRows));
    stageBytes = add(mul(rowsHere, 128), bLoadBytes);
    // Select the map's address, not the descriptor: nvgpu's descriptor
    // type has no select lowering of its own.
    Value isTail = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                         rowsHere, cst(aRows));
    Value arg = LLVM::SelectOp::create(b, loc, isTail, aTailArg, tmapArgs[0]);
    tmA = UnrealizedConversionCastOp::create(b, loc, tmA.getType(), arg)
              .getResult(0);
  }
  Value image, h0;
  if (p.isConv()) {
    int64_t groupsPerImage = p.convH / p.convBoxRows();
    image = div(mTile, groupsPerImage);
    h0 = mul(rem(mTile, groupsPerImage), p.convBoxRows());
  }
  // A's box(es) of ring step `k` (global k tile `kg` at column `k0`) into
  // stage `s`.
  auto loadA = [&](Value k, Value kg, Value k0, Value s, Value slot) {
    Value aOff = add(mul(s, p.aStageBytes), p.smemA);
    // Warpgroup tiles: the warpgroup's rows of the stage (its halo slot).
    if (p.warpgroupTiles)
      aOff = add(aOff, mul(ringWg, p.convHalo ? p.haloSlotBytes() : 64 * 128));
    if (p.convHalo) {
      // Ring step k: channels [64k, 64k + 64) of input rows h0 - 1 ..
      // h0 + 1, pixels -1 .. W (zero-filled outside the image).
      loadHalo(aOff, slot, k, image, h0);
    } else if (p.isConv()) {
      // k tile -> filter tap (r, s) = divmod(k / (C/64), 3) and channels
      // 64 (k mod C/64): the box {64, W, R, 1} at (c0, s - 1, h0 + r - 1,
      // n) lands as R * W rows of 128 B like a 2-D box; coordinates
      // outside the image (-1, H, W) are zero-filled: the padding.
      auto [tap, c0] = convTapAndChannel(kg);
      Value col = add(rem(tap, 3), -1);
      Value row = add(add(h0, div(tap, 3)), -1);
      nvgpu::TmaAsyncLoadOp::create(
          b, loc, smemView(aOff, {1, p.convBoxRows(), p.convW, 64}), full, tmA,
          ValueRange{c0, col, row, image}, slot, Value(), Value());
    }
    Value aRow = m0;
    Value mask;
    if (p.aMulticast) {
      // Each CTA loads its slice of the shared A rows into every CTA of its
      // multicast group (with split K, the ranks of its k place).
      Value slice = p.clusterK > 1 ? div(rank, p.clusterK) : rank;
      aOff = add(aOff, mul(slice, aRows * 128));
      aRow = add(m0, mul(slice, aRows));
      mask = multicastMask();
    }
    if (p.convIm2col)
      loadIm2colTile(sharedPtr(aOff), slot, kg, aRow, mask);
    else if (!p.isConv())
      nvgpu::TmaAsyncLoadOp::create(b, loc, smemView(aOff, {p.aBoxRows(), 64}),
                                    full, tmA, ValueRange{k0, aRow}, slot, mask,
                                    Value());
    // A swapped gated GEMM: up's weight rows after gate's (map 2).
    if (p.gatesA())
      nvgpu::TmaAsyncLoadOp::create(
          b, loc, smemView(add(aOff, p.aSlotRows * 128), {p.aBoxRows(), 64}),
          full, tmaps[2], ValueRange{k0, aRow}, slot, Value(), Value());
  };
  // The k tile's index in all of K (a split K's rank starts at kOff).
  auto globalK = [&](Value k) { return kOff ? add(k, kOff) : k; };
  auto expectStage = [&](Value slot) {
    nvgpu::MBarrierArriveExpectTxOp::create(b, loc, full, stageBytes, slot,
                                            Value());
  };
  Value leader = loadLeader ? loadLeader : wgLeader;
  int64_t steps = p.ringSteps();
  if (!p.pairedLoads) {
    forLoop(cst(0), cst(steps), cst(1), [&](Value k) {
      Value it = ringIt(k);
      Value s = ringRem(it, p.stages);
      Value slot = ringSlot(s);
      waitParity(empty, slot, notI1(parity(it, p.stages)));
      leaderOnly(leader, [&] {
        expectStage(slot);
        Value kg = globalK(k);
        Value k0 = mul(kg, p.bk);
        loadA(k, kg, k0, s, slot);
        if (!p.residentWeights) {
          // Fewer boxes than ranks (or not a multiple): spread by k tile.
          int64_t boxes = p.bBoxes();
          Value boxBase =
              p.bMulticast && boxes % p.clusterM ? mul(kg, boxes) : Value();
          loadBTile(add(mul(s, p.bStageBytes), p.smemB), full, s, k0, n0,
                    boxBase);
        }
      });
    });
    return;
  }
  // Paired loads (KernelPlan::pairedLoads, K-major B only): ring steps k
  // and k + 1 once both their slots are free, B box by B box with the two
  // k tiles of a box back to back (the two 128-byte halves of each weight
  // row's 256 bytes), then the A boxes. Each step keeps its own slot and
  // barrier.
  auto emitSteps = [&](Value k, int64_t count) {
    SmallVector<Value, 2> ks, kgs, k0s, stages, slots;
    for (int64_t i = 0; i < count; ++i) {
      ks.push_back(add(k, i));
      Value it = ringIt(ks.back());
      stages.push_back(ringRem(it, p.stages));
      slots.push_back(ringSlot(stages.back()));
      waitParity(empty, slots.back(), notI1(parity(it, p.stages)));
    }
    leaderOnly(leader, [&] {
      for (auto [ki, slot] : llvm::zip(ks, slots)) {
        expectStage(slot);
        kgs.push_back(globalK(ki));
        k0s.push_back(mul(kgs.back(), p.bk));
      }
      // A K-major box's coordinates are (k0, n): step i's box j is step
      // 0's with k0 replaced.
      forEachBBox(k0s[0], n0, [&](int64_t map, int64_t box, ValueRange coord) {
        for (int64_t i = 0; i < count; ++i) {
          Value bOff = add(mul(stages[i], p.bStageBytes), p.smemB);
          loadBBox(add(bOff, box * p.bBoxRows() * 128), full, slots[i], map,
                   {k0s[i], coord[1]}, Value());
        }
      });
      for (int64_t i = 0; i < count; ++i)
        loadA(ks[i], kgs[i], k0s[i], stages[i], slots[i]);
    });
  };
  forLoop(cst(0), cst(steps - steps % 2), cst(2),
          [&](Value k) { emitSteps(k, 2); });
  if (steps % 2)
    emitSteps(cst(steps - 1), 1);
}

void KernelEmitter::loadHalo(Value dst, Value slot, Value k, Value image,
                             Value row0) {
  int64_t rows = p.haloRowsPerWg() + 2;
  nvgpu::TmaAsyncLoadOp::create(
      b, loc, smemView(dst, {1, rows, p.convW + 2, 64}), full, tmaps[0],
      ValueRange{mul(k, 64), cst(-1), add(row0, -1), image}, slot, Value(),
      Value());
}

void KernelEmitter::emitHaloGemmLoads() {
  int64_t rowGroups = p.convH / p.haloRowsPerWg();
  int64_t haloBytes = p.numConsumers * p.haloLoadBytes();
  int64_t tapBoxes = p.bn / 64;
  forLoop(cst(0), cst(p.ringSteps()), cst(1), [&](Value k) {
    // Channels [64k, 64k + 64): every warpgroup's row group g = NC * tile
    // + w, its rows -1 .. R and pixels -1 .. W (zero-filled outside).
    Value it = ringIt(k);
    Value s = ringRem(it, p.stages);
    waitParity(empty, s, notI1(parity(it, p.stages)));
    leaderOnly(wgLeader, [&] {
      nvgpu::MBarrierArriveExpectTxOp::create(b, loc, full, cst(haloBytes), s,
                                              Value());
      Value aOff = add(mul(s, p.aStageBytes), p.smemA);
      for (int64_t w = 0; w < p.numConsumers; ++w) {
        Value g = add(mul(mTile, p.numConsumers), w);
        loadHalo(add(aOff, w * p.haloSlotBytes()), s, k, div(g, rowGroups),
                 mul(rem(g, rowGroups), p.haloRowsPerWg()));
      }
    });
    // Filter row r's three taps through tap-ring iteration 3 it + r: B's
    // rows tap * C + 64 k.
    for (int64_t r = 0; r < 3; ++r) {
      Value j = add(mul(it, 3), r);
      Value t = ringRem(j, p.tapStages);
      waitParity(tempty, t, notI1(parity(j, p.tapStages)));
      leaderOnly(wgLeader, [&] {
        nvgpu::MBarrierArriveExpectTxOp::create(b, loc, tfull,
                                                cst(p.bStageBytes), t, Value());
        for (int64_t q = 0; q < 3; ++q) {
          int64_t tap = 3 * r + q;
          loadBTile(add(mul(t, p.bStageBytes), p.smemB + q * p.bTapBytes()),
                    tfull, t, add(mul(k, 64), tap * p.convC), n0,
                    p.bMulticast ? cst(tap * tapBoxes) : Value());
        }
      });
    }
  });
}

Value KernelEmitter::emitHaloGemmMainLoop(SmallVector<Value> &accs) {
  int64_t w2 = p.convW + 2;
  auto releaseTaps = [&](Value j) {
    leaderOnly(wgLeader, [&] {
      arriveOnSlot(tempty, ringRem(j, p.tapStages), p.bMulticast);
    });
  };
  auto releaseHalo = [&](Value it) {
    leaderOnly(wgLeader,
               [&] { arriveOnSlot(empty, ringRem(it, p.stages), false); });
  };
  // Channel chunk k: per filter row r, its three taps (r, q) are the
  // 64-row windows r * (W + 2) + q rows into the warpgroup's halo slot
  // (see emitMainLoop's conv-halo) against the tap slot's three B tiles,
  // one wgmma group. With one group in flight, the group before has
  // retired: its tap slot is released, and at r = 0 the previous chunk's
  // halo slot (its last reader was that group).
  auto step = [&](Value k, Value acc, bool first) {
    Value it = ringIt(k);
    Value s = ringRem(it, p.stages);
    waitParity(full, s, parity(it, p.stages));
    Value descA = descriptor(
        add(add(mul(s, p.aStageBytes), p.smemA), mul(wg, p.haloSlotBytes())),
        16, 1024);
    for (int64_t r = 0; r < 3; ++r) {
      Value j = add(mul(it, 3), r);
      Value t = ringRem(j, p.tapStages);
      waitParity(tfull, t, parity(j, p.tapStages));
      Value descB = descriptor(add(mul(t, p.bStageBytes), p.smemB),
                               p.bKMajor ? 16 : 64 * 128, 1024);
      NVVM::WgmmaFenceAlignedOp::create(b, loc);
      for (int64_t q = 0; q < 3; ++q)
        for (int64_t kk = 0; kk < p.k16Steps; ++kk)
          acc = wgmma(
              acc, advance(descA, (r * w2 + q) * 128 + kk * 32),
              advance(descB, q * p.bTapBytes() + kk * (p.bKMajor ? 32 : 2048)),
              p.consumerN(), p.bKMajor);
      NVVM::WgmmaGroupSyncAlignedOp::create(b, loc);
      NVVM::WgmmaWaitGroupSyncOp::create(b, loc, b.getI64IntegerAttr(1));
      if (first && r == 0)
        continue;
      releaseTaps(add(j, -1));
      if (r == 0)
        releaseHalo(add(it, -1));
    }
    return acc;
  };
  Value acc0 = step(cst(0), Value(), /*first=*/true);
  auto loop = scf::ForOp::create(
      b, loc, cst(1), cst(p.ringSteps()), cst(1), ValueRange{acc0},
      [&](OpBuilder &, Location, Value k, ValueRange iter) {
        scf::YieldOp::create(b, loc, step(k, iter[0], /*first=*/false));
      });
  NVVM::WgmmaWaitGroupSyncOp::create(b, loc, b.getI64IntegerAttr(0));
  // A persistent kernel's producer goes on to the next tile through both
  // rings: the last slots must be released too.
  if (kBase) {
    Value last = ringIt(cst(p.ringSteps() - 1));
    releaseTaps(add(mul(last, 3), 2));
    releaseHalo(last);
  }
  accs.assign(loop.getResults().begin(), loop.getResults().end());
  return accs[0];
}

Value KernelEmitter::emitMainLoop(SmallVector<Value> &accs) {
  if (p.isHaloGemm())
    return emitHaloGemmMainLoop(accs);
  bool gated = p.isGated();
  // One k step on the accumulators `acc` (null: fresh ones, the first step).
  // Without `mma` the step only waits for its stage (a warpgroup whose rows
  // lie past M, skipsEmptyWarpgroups).
  auto step = [&](Value k, SmallVector<Value> acc, bool mma = true) {
    Value it = ringIt(k);
    Value s = ringRem(it, p.stages);
    waitParity(full, ringSlot(s), parity(it, p.stages));
    if (!mma)
      return std::make_pair(acc, it);
    Value aOff = add(add(mul(s, p.aStageBytes), p.smemA), mul(wgRow0(), 128));
    // Resident weights: B's k tile k, not the ring slot.
    Value bOff = add(mul(p.residentWeights ? k : s, p.bStageBytes), p.smemB);
    if (p.convHalo) {
      // The nine taps of the halo at ring step k (channel chunk k): tap
      // (r, s) is the 64-row window r * (W + 2) + s rows in, against B's
      // k tile tap * C/64 + k. The windows start off the 8-row swizzle
      // atoms; wgmma swizzles by address like the TMA did (setting the
      // descriptor's base offset to rows mod 8 read wrong data on an H100).
      Value halo =
          add(add(mul(s, p.aStageBytes), p.smemA), mul(wg, p.haloSlotBytes()));
      int64_t cTiles = p.convC / 64;
      // Every descriptor is one of two bases plus a constant: 36 computed
      // ones spilled with MN-major B.
      Value descA = descriptor(halo, 16, 1024);
      Value descB = descriptor(bOff, p.bKMajor ? 16 : 64 * 128, 1024);
      NVVM::WgmmaFenceAlignedOp::create(b, loc);
      for (int64_t tap = 0; tap < 9; ++tap) {
        int64_t rows = (tap / 3) * (p.convW + 2) + tap % 3;
        for (int64_t kk = 0; kk < p.k16Steps; ++kk)
          acc[0] = wgmma(acc[0], advance(descA, rows * 128 + kk * 32),
                         advance(descB, tap * cTiles * p.bStageBytes +
                                            kk * (p.bKMajor ? 32 : 2048)),
                         p.consumerN(), p.bKMajor);
      }
      NVVM::WgmmaGroupSyncAlignedOp::create(b, loc);
      NVVM::WgmmaWaitGroupSyncOp::create(b, loc, b.getI64IntegerAttr(1));
      return std::make_pair(acc, it);
    }
    // Split columns: this warpgroup's half of the n tile, whole 64-column
    // chunks (8 KB each in either B layout).
    if (p.splitColumns)
      bOff = add(bOff, mul(wg, p.consumerN() * 128));
    Value descA = descriptor(aOff, 16, 1024);
    // MN-major B: LBO = 64 rows of 128 B between 64-column chunks;
    // K-major B: like A (LBO unused with 128B swizzle).
    int64_t lboB = p.bKMajor ? 16 : 64 * 128;
    Value descB = descriptor(bOff, lboB, 1024);
    // Gated: up's tile after gate's, in B's stage or (swapped) in A's;
    // its wgmmas read the other operand's gate descriptor.
    Value descUpA = descA, descUpB = descB;
    if (p.gatesA())
      descUpA = descriptor(add(aOff, p.aSlotRows * 128), 16, 1024);
    else if (gated)
      descUpB = descriptor(add(bOff, p.bn * 64 * 2), lboB, 1024);
    // k16 step: 16 rows of 128 B (MN-major) or 32 B along each K-major
    // row.
    int64_t stepB = p.bKMajor ? 32 : 2048;
    NVVM::WgmmaFenceAlignedOp::create(b, loc);
    // k16 steps: 32 B along a K-major A row, 16 rows of 128 B of B.
    // Gate and up run as two back-to-back chains so that no wgmma reads
    // an accumulator another one of the group is still writing.
    // Row blocks likewise: block r's A rows lie r * 64 rows (8 KB, whole
    // swizzle atoms) past the warpgroup's first.
    for (int64_t r = 0; r < p.wgRowBlocks; ++r)
      for (int64_t kk = 0; kk < p.k16Steps; ++kk)
        acc[r] = wgmma(acc[r], advance(descA, r * 64 * 128 + kk * 32),
                       advance(descB, kk * stepB), p.consumerN(), p.bKMajor);
    for (int64_t kk = 0; gated && kk < p.k16Steps; ++kk)
      acc[1] = wgmma(acc[1], advance(descUpA, kk * 32),
                     advance(descUpB, kk * stepB), p.consumerN(), p.bKMajor);
    NVVM::WgmmaGroupSyncAlignedOp::create(b, loc);
    // With one group in flight, the group of step k-1 has completed:
    // release its stage (in every CTA that multicast into it). With early
    // release, step k's own group has, and its stage goes at once.
    NVVM::WgmmaWaitGroupSyncOp::create(
        b, loc, b.getI64IntegerAttr(p.earlyRelease ? 0 : 1));
    return std::make_pair(acc, it);
  };
  // The first step starts the accumulators (scale-d = 0) and has no
  // previous stage to release.
  auto [first, it0] =
      step(cst(0), SmallVector<Value>(gated ? 2 : p.wgRowBlocks, Value()));
  if (p.earlyRelease)
    leaderOnly(wgLeader,
               [&] { releaseStage(ringSlot(ringRem(it0, p.stages))); });
  auto emitLoop = [&](bool mma) {
    auto loop = scf::ForOp::create(
        b, loc, cst(1), cst(p.ringSteps()), cst(1), first,
        [&](OpBuilder &, Location, Value k, ValueRange iter) {
          auto [acc, it] = step(k, SmallVector<Value>(iter), mma);
          Value done = p.earlyRelease
                           ? ringRem(it, p.stages)
                           : ringRem(add(it, p.stages - 1), p.stages);
          leaderOnly(wgLeader, [&] { releaseStage(ringSlot(done)); });
          scf::YieldOp::create(b, loc, acc);
        });
    NVVM::WgmmaWaitGroupSyncOp::create(b, loc, b.getI64IntegerAttr(0));
    return SmallVector<Value>(loop.getResults());
  };
  SmallVector<Value> results;
  if (!p.skipsEmptyWarpgroups()) {
    results = emitLoop(true);
  } else {
    // A warpgroup whose 64 rows lie wholly past M (uniform per warpgroup)
    // runs the rest of the ring without wgmmas. The branch encloses whole
    // loops, each ending in wait_group 0, so no accumulator is in flight
    // where the paths merge (a branch around each step's wgmmas made
    // ptxas serialise every wgmma of the kernel, C7520).
    Value active = ult(add(m0, wgRow0()), numRows);
    auto ifOp = scf::IfOp::create(b, loc, TypeRange(ValueRange(first)), active,
                                  /*withElse=*/true);
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(ifOp.thenBlock());
    scf::YieldOp::create(b, loc, emitLoop(true));
    b.setInsertionPointToStart(ifOp.elseBlock());
    // The first step's group retires before the loop releases its stage;
    // stages are released in the same order as with wgmmas.
    NVVM::WgmmaWaitGroupSyncOp::create(b, loc, b.getI64IntegerAttr(0));
    scf::YieldOp::create(b, loc, emitLoop(false));
    results.assign(ifOp.getResults().begin(), ifOp.getResults().end());
  }
  // A persistent kernel's producer goes on to the next tile through the
  // same ring: the last stage must be released too (early release did).
  if (kBase && !p.earlyRelease)
    leaderOnly(wgLeader, [&] {
      releaseStage(ringSlot(ringRem(ringIt(cst(p.ringSteps() - 1)), p.stages)));
    });
  accs.assign(results.begin(), results.end());
  return accs[0];
}

void KernelEmitter::emitGemmEpilogue(ArrayRef<Value> accs) {
  if (!p.isGated()) {
    for (int64_t r = 0; r < p.wgRowBlocks; ++r)
      storeFragment(accs[r], p.firstEpilogue, n0, p.bn, p.shape.n, r);
    return;
  }
  // A gated GEMM: the stages combine gate and up element by element.
  storeFragment(
      [&](int64_t i) {
        return applyStages({accElt(accs[0], i), accElt(accs[1], i)});
      },
      n0, p.bn, p.shape.n);
}

void KernelEmitter::emitSplitKEpilogue(ArrayRef<Value> accs) {
  // The tile goes over the stage ring: the other warpgroup's last wgmmas
  // may still read it.
  int64_t threads = p.numConsumers * kWarpgroupThreads;
  namedBarrier(9, threads);
  if (!p.isGated()) {
    reduceScatterFragment(
        accs[0], p.bn, p.clusterK, cst(0), [&](int64_t w, Value colOwned) {
          storeReducedSlice(w, colOwned, n0, p.firstEpilogue, p.shape.n);
        });
    return;
  }
  // A gated GEMM: gate's tile, then up's, through the same buffers (the
  // stages need both sums of an element). Each thread keeps its quads of
  // gate's slice in registers (32 floats at 128 x 128 over 2) while up's
  // exchange overwrites the partial; the same sweep reads up's.
  SmallVector<Value> gate;
  reduceScatterFragment(
      accs[0], p.bn, p.clusterK, cst(0), [&](int64_t w, Value) {
        forEachOwnedQuadUnrolled(w, [&](Value row, Value col) {
          gate.push_back(loadReducedQuad(row, col));
        });
      });
  namedBarrier(9, threads);
  size_t next = 0;
  reduceScatterFragment(
      accs[1], p.bn, p.clusterK, cst(1), [&](int64_t w, Value colOwned) {
        forEachOwnedQuadUnrolled(w, [&](Value row, Value col) {
          Value up = loadReducedQuad(row, col);
          Value g = gate[next++];
          storeQuad(row, add(n0, add(colOwned, col)), p.shape.n,
                    [&](int64_t i) {
                      return applyStages({extract(g, i), extract(up, i)});
                    });
        });
      });
}

void KernelEmitter::reduceScatterFragment(
    Value acc, int64_t width, int64_t group, Value use,
    llvm::function_ref<void(int64_t, Value)> consume, int64_t fragWidth,
    Value fragCol0) {
  assert((!fragCol0 || !p.reducePush) && "a column fragment is pulled");
  int64_t w = width / group;
  int64_t threads = p.numConsumers * kWarpgroupThreads;
  IntegerAttr threadsAttr = b.getI64IntegerAttr(threads);
  int64_t parts = p.reducePush ? p.reduceParts : 1;
  int64_t partW = width / parts, wp = w / parts;
  Value rowInWg = fragRow();
  Value colPair = fragColPair();
  if (fragCol0)
    colPair = add(colPair, fragCol0);
  if (fragWidth)
    partW = fragWidth;
  for (int64_t i = 0; i < parts; ++i) {
    // An in-place push's sum of the previous chunk or part lies in the
    // partial, where other threads may still read it (split K: the
    // caller's barrier precedes the first part).
    if (p.reducePush && !p.needsWorkspace && (p.clusterK == 1 || i > 0))
      namedBarrier(9, threads);
    for (int64_t h = 0; h < 2; ++h) {
      Value r = add(add(wgRow0(), rowInWg), 8 * h);
      for (int64_t j = i * partW / 8; j < (i + 1) * partW / 8; ++j) {
        Value v = fragPair(acc, j, h);
        // Pushing: column c of the part is column c mod wp of slice
        // c / wp (rows of bm); static where a lane's 8-column group lies
        // in one slice.
        int64_t c0 = 8 * j - i * partW;
        SmallVector<Value, 2> at{r, add(colPair, 8 * j)};
        if (p.reducePush && wp % 8 == 0) {
          at = {add(r, (c0 / wp) * p.bm), add(colPair, c0 % wp)};
        } else if (p.reducePush) {
          Value c = add(colPair, c0);
          at = {add(mul(div(c, wp), p.bm), r), rem(c, wp)};
        }
        vector::StoreOp::create(b, loc, v, partialView, at,
                                /*nontemporal=*/false, llvm::MaybeAlign(8));
      }
    }
    if (!p.reducePush) {
      // A pull exchange between two cluster barriers (convert-dsm-to-nvgpu).
      ReduceOp::create(b, loc, partialBuf, reducedBuf,
                       ReduceMode::reduce_scatter, CombinerKind::add,
                       /*axis=*/1, group, /*group_stride=*/1, threadsAttr);
      consume(w, mul(groupRank(), w));
      return;
    }
    // A push: st.async of every peer's slice onto its barrier, one cluster
    // barrier; the sum in place, or in the reduced slice for the workspace.
    ReduceOp::create(
        b, loc, partialBuf, p.needsWorkspace ? reducedBuf : Value(), scratchBuf,
        reduceBarrier, parity(add(mul(use, parts), i), 1),
        ReduceMode::reduce_scatter, CombinerKind::add, /*axis=*/0, group,
        /*group_stride=*/1, threadsAttr);
    consume(wp, add(mul(groupRank(), wp), i * partW));
  }
}

Value KernelEmitter::loadReducedQuad(Value row, Value col) {
  return vector::LoadOp::create(b, loc, VectorType::get({4}, f32), reducedView,
                                ValueRange{add(reducedRow0, row), col},
                                /*nontemporal=*/false, llvm::MaybeAlign(16));
}

void KernelEmitter::storeReducedSlice(int64_t w, Value colOwned, Value col0,
                                      linalg::GenericOp epi, int64_t cols) {
  if (p.swapAb) {
    // C^T's slice (rows: the weight's, columns: A's rows below cols = M):
    // each thread takes 8 weight rows of one column, consecutive lanes
    // consecutive columns, so that each of its 8 loads reads a row's
    // consecutive words (down a column, lanes 2 rows apart hit one bank:
    // 320-byte rows at w = 80), and stores them as 16 bytes of result row
    // out[a_row, w_row .. w_row + 8) (rows of N = the product's m).
    int64_t groups = p.bm / 8;
    forLoop(tid, cst(groups * w), cst(p.numConsumers * kWarpgroupThreads),
            [&](Value e) {
              Value col = rem(e, w);
              Value row = mul(div(e, w), 8);
              Value aRow = add(col0, add(colOwned, col));
              ifThen(ult(aRow, tokenBound(cols)), [&] {
                SmallVector<Value> ys;
                for (int64_t i = 0; i < 8; ++i)
                  ys.push_back(applyEpilogue(
                      epi, memref::LoadOp::create(
                               b, loc, reducedView,
                               ValueRange{add(reducedRow0, add(row, i)), col})
                               .getResult()));
                storeOut(aRow, add(m0, row), p.shape.m, ys);
              });
            });
    return;
  }
  forEachOwnedQuad(w, [&](Value row, Value col) {
    Value sum = loadReducedQuad(row, col);
    storeQuad(row, add(col0, add(colOwned, col)), cols,
              [&](int64_t i) { return applyEpilogue(epi, extract(sum, i)); });
  });
}

void KernelEmitter::storeQuad(Value row, Value col, int64_t cols,
                              function_ref<Value(int64_t)> y) {
  Value gRow = add(m0, row);
  ifThen(ult(gRow, rowEnd), [&] {
    // A partial last n tile: N is a multiple of 8, so a quad lies wholly
    // below or past it.
    whereColumn(col, cols, [&] {
      SmallVector<Value> ys;
      for (int64_t i = 0; i < 4; ++i)
        ys.push_back(y(i));
      storeOut(gRow, col, cols, ys);
    });
  });
}

void KernelEmitter::storeFragment(Value acc, linalg::GenericOp epi, Value col0,
                                  int64_t width, int64_t cols,
                                  int64_t rowBlock) {
  storeFragment([&](int64_t i) { return applyEpilogue(epi, accElt(acc, i)); },
                col0, width, cols, rowBlock);
}

void KernelEmitter::storeFragment(function_ref<Value(int64_t)> y, Value col0,
                                  int64_t width, int64_t cols,
                                  int64_t rowBlock) {
  if (p.stagesSwappedStores())
    return storeSwappedStaged(
        y, add(add(m0, outRow0()), add(mul(warp, 16), 64 * rowBlock)), col0,
        width, cols);
  Value rowBase = add(add(m0, outRow0()), add(fragRow(), 64 * rowBlock));
  Value colBase = add(col0, fragColPair());
  if (p.swapAb) {
    // The fragment is C^T's: its row r is the result's column and its
    // column c (one of A's rows, below cols = M) the result's row, of
    // `numRows` (N) elements. For each (j, c) a warp's stores cover 16
    // contiguous bytes of each of four result rows.
    int64_t eb = p.resultElementType.isBF16() ? 2 : 4;
    for (int64_t j = 0; j < width / 8; ++j)
      for (int64_t c = 0; c < 2; ++c) {
        Value col = add(colBase, 8 * j + c);
        ifThen(ult(col, tokenBound(cols)), [&] {
          for (int64_t h = 0; h < 2; ++h) {
            Value off = mul(add(mul(col, numRows), add(rowBase, 8 * h)), eb);
            LLVM::StoreOp::create(b, loc, y(4 * j + 2 * h + c), gep(out, off),
                                  eb);
          }
        });
      }
    return;
  }
  for (int64_t h = 0; h < 2; ++h) {
    Value row = add(rowBase, 8 * h);
    // Null: row < rowEnd.
    Value stored;
    if (p.isHaloGemm()) {
      // A streamed halo's warpgroup row i is pixel (i div (W + 2), i mod
      // (W + 2)) of its row group, an output where that lies in the image.
      int64_t w2 = p.convW + 2, rows = p.haloRowsPerWg();
      Value i = add(fragRow(), 8 * h);
      Value hh = div(i, w2), ww = rem(i, w2);
      row = add(add(m0, mul(wg, rows * p.convW)), add(mul(hh, p.convW), ww));
      stored = arith::AndIOp::create(
          b, loc,
          arith::AndIOp::create(b, loc, ult(ww, cst(p.convW)),
                                ult(hh, cst(rows))),
          ult(row, rowEnd));
    }
    if (storesBf16Rows(width)) {
      auto rowValues = [&] {
        SmallVector<Value> vals;
        for (int64_t j = 0; j < width / 8; ++j) {
          vals.push_back(y(4 * j + 2 * h));
          vals.push_back(y(4 * j + 2 * h + 1));
        }
        return vals;
      };
      SmallVector<Value> vals;
      Value valid;
      if (!p.skipsUnstoredEpilogue()) {
        vals = rowValues();
        valid = stored ? stored : ult(row, rowEnd);
      } else {
        // Rows that are not stored skip the epilogue too (see
        // KernelPlan::skipsUnstoredEpilogue), and yield zeros to the quad's
        // shuffles (uniform per quad: its lanes share the row).
        valid = stored ? stored : ult(row, rowEnd);
        SmallVector<Type> types(width / 4, p.resultElementType);
        auto ys = scf::IfOp::create(b, loc, types, valid, /*withElse=*/true);
        OpBuilder::InsertionGuard g(b);
        b.setInsertionPointToStart(ys.thenBlock());
        scf::YieldOp::create(b, loc, rowValues());
        b.setInsertionPointToStart(ys.elseBlock());
        Value zero = arith::ConstantOp::create(
            b, loc, b.getZeroAttr(p.resultElementType));
        scf::YieldOp::create(b, loc, SmallVector<Value>(width / 4, zero));
        vals.assign(ys.getResults().begin(), ys.getResults().end());
      }
      SmallVector<std::pair<Value, Value>> pairs;
      for (int64_t j = 0; j < width / 8; ++j)
        pairs.push_back({vals[2 * j], vals[2 * j + 1]});
      storeRowBf16(row, valid, col0, cols, pairs);
      continue;
    }
    ifThen(stored ? stored : ult(row, rowEnd), [&] {
      for (int64_t j = 0; j < width / 8; ++j) {
        Value y0 = y(4 * j + 2 * h), y1 = y(4 * j + 2 * h + 1);
        Value col = add(colBase, 8 * j);
        whereColumn(col, cols, [&] { storeOut(row, col, cols, {y0, y1}); });
      }
    });
  }
}

void KernelEmitter::storeSwappedStaged(function_ref<Value(int64_t)> y,
                                       Value warpRow0, Value col0,
                                       int64_t width, int64_t cols) {
  // The fragment is C^T's (storeFragment): 8 x 8 block (j, h) holds
  // tokens col0 + 8j + [0, 8) of weight rows warpRow0 + 8h + [0, 8). Each
  // 16-token chunk goes out as one stmatrix .trans of four blocks (two
  // for a last 8): buffer row t (32 bytes) is token t's 16 weight rows,
  // the 16-byte halves swapped in rows 4-7 of every 8 so that a block's
  // eight rows hit distinct banks. Lane l then stores half l mod 2 of row
  // l / 2: 16 bytes of result row col0 + 16q + l / 2. Two buffers
  // alternate, so one warp barrier per chunk orders both its stmatrix
  // before the loads and the previous chunk's loads before the next
  // stmatrix into the same buffer; one takes a second barrier per chunk.
  constexpr int64_t kChunkBytes = ff::kSwappedStoreBufferBytes;
  auto rowHalf = [&](Value t, Value h) {
    Value swz = mul(rem(div(t, 4), 2), 16);
    return add(mul(t, 32), arith::XOrIOp::create(b, loc, mul(h, 16), swz));
  };
  Value buf = add(cst(p.smemStores),
                  mul(add(mul(wg, 4), warp), p.storeBuffers * kChunkBytes));
  // stmatrix: lane l addresses row l mod 8 of block l / 8.
  Value blk = div(lane, 8);
  Value stOff =
      add(buf, rowHalf(add(mul(div(blk, 2), 8), rem(lane, 8)), rem(blk, 2)));
  Value tIn = div(lane, 2), half = rem(lane, 2);
  Value ldOff = add(buf, rowHalf(tIn, half));
  Value colOff = add(warpRow0, mul(half, 8));
  auto mask = cstI32(-1);
  auto sync = [&] { NVVM::SyncWarpOp::create(b, loc, mask); };
  // A previous call's last loads may read the buffer the first chunk fills.
  sync();
  int64_t groups = width / 8, chunks = (groups + 1) / 2;
  for (int64_t q = 0; q < chunks; ++q) {
    int64_t blocks = std::min<int64_t>(4, 2 * (groups - 2 * q));
    Value first = add(col0, 16 * q);
    // Warp-uniform: stmatrix takes the whole warp.
    ifThen(ult(first, tokenBound(cols)), [&] {
      if (q > 0 && p.storeBuffers == 1)
        sync();
      SmallVector<Value, 4> regs;
      for (int64_t i = 0; i < blocks; ++i) {
        int64_t j = 2 * q + i / 2, h = i % 2;
        regs.push_back(LLVM::BitcastOp::create(
            b, loc, i32, vector({y(4 * j + 2 * h), y(4 * j + 2 * h + 1)})));
      }
      int64_t bufOff = (q % p.storeBuffers) * kChunkBytes;
      NVVM::StMatrixOp::create(b, loc, sharedPtr(add(stOff, bufOff)), regs,
                               NVVM::MMALayout::col,
                               NVVM::LdStMatrixShapeAttr::get(ctx, 8, 8),
                               NVVM::LdStMatrixEltType::B16);
      sync();
      Value token = add(first, tIn);
      Value valid = ult(token, tokenBound(cols));
      if (blocks < 4)
        valid = arith::AndIOp::create(b, loc, valid, ult(tIn, cst(8)));
      ifThen(valid, [&] {
        auto v4 = VectorType::get({4}, i32);
        Value row =
            LLVM::LoadOp::create(b, loc, v4, sharedPtr(add(ldOff, bufOff)), 16);
        Value off = mul(add(mul(token, numRows), colOff), 2);
        LLVM::StoreOp::create(b, loc, row, gep(out, off), 16);
      });
    });
  }
}

/// `tileBase`: the C tile's shared-memory offset (1024-aligned), by default
/// smemC.
void KernelEmitter::emitFfnEpilogue(ArrayRef<Value> accs, Value tileBase) {
  // Activation in registers, packed to bf16 and stored into the C tile in
  // the 128B-swizzled K-major layout the second wgmma reads: 64-column
  // chunks of bm rows x 128 B; within each 1024-B atom of 8 rows the 16-B
  // unit index (address bits [4:6]) is XORed with the row (bits [7:9]).
  Value rowInWg = fragRow();
  Value colPair = fragColPair();
  Value base = tileBase ? tileBase : cst(p.smemC);
  // Split columns: this warpgroup's chunks follow the other's.
  if (p.splitColumns)
    base = add(base, mul(wg, p.consumerN() / 64 * p.bm * 128));
  for (int64_t h = 0; h < 2; ++h) {
    Value r = add(add(wgRow0(), rowInWg), 8 * h);
    Value rowOff = add(mul(r, 128), base);
    Value swz = swizzle128Mask(r);
    for (int64_t j = 0; j < p.consumerN() / 8; ++j) {
      SmallVector<Value> ys;
      for (int64_t c = 0; c < 2; ++c) {
        SmallVector<Value> ins;
        for (Value acc : accs)
          ins.push_back(accElt(acc, 4 * j + 2 * h + c));
        ys.push_back(applyStages(ins));
      }
      Value packed = LLVM::BitcastOp::create(b, loc, i32, vector(ys));
      int64_t chunk = j / 8;
      Value inRow = mul(add(colPair, 8 * (j % 8)), 2);
      Value off = add(add(rowOff, chunk * p.bm * 128),
                      arith::XOrIOp::create(b, loc, inRow, swz));
      LLVM::StoreOp::create(b, loc, packed, sharedPtr(off), 4);
    }
  }
  // Generic-proxy writes must be visible to the async proxy (wgmma) before
  // the warpgroup reads its 64 rows back.
  NVVM::FenceProxyOp::create(
      b, loc, NVVM::ProxyKindAttr::get(ctx, NVVM::ProxyKind::async_shared),
      NVVM::SharedSpaceAttr::get(ctx, NVVM::SharedSpace::shared_cta));
  // Per-warpgroup named barrier (ids 1..NC): each warpgroup only reads the
  // rows it wrote; with split columns both read the whole tile.
  if (p.splitColumns)
    return namedBarrier(1, p.numConsumers * kWarpgroupThreads);
  NVVM::BarrierOp::create(b, loc, Type(), toI32(add(wg, 1)),
                          cstI32(kWarpgroupThreads),
                          NVVM::BarrierReductionAttr(), Value());
}

template <typename Fn>
void KernelEmitter::forEachOwnedQuad(int64_t width, Fn &&fn) {
  // Consumer threads sweep a bm x width tile 4 columns at a time.
  int64_t quadsPerRow = width / 4;
  Value ct = tid;
  forLoop(ct, cst(p.bm * quadsPerRow), cst(p.numConsumers * 128),
          [&](Value e) {
            Value row = div(e, quadsPerRow);
            Value col = mul(rem(e, quadsPerRow), 4);
            fn(row, col);
          });
}

template <typename Fn>
void KernelEmitter::forEachOwnedQuadUnrolled(int64_t width, Fn &&fn) {
  int64_t quadsPerRow = width / 4;
  int64_t threads = p.numConsumers * kWarpgroupThreads;
  assert(p.bm * quadsPerRow % threads == 0 && "quads spread unevenly");
  for (int64_t u = 0; u < p.bm * quadsPerRow / threads; ++u) {
    Value e = add(tid, u * threads);
    fn(div(e, quadsPerRow), mul(rem(e, quadsPerRow), 4));
  }
}

template <typename LoadFn, typename UseFn>
void KernelEmitter::forEachOwnedQuadBatched(int64_t width, Value rowLimit,
                                            LoadFn &&load, UseFn &&use) {
  // forEachOwnedQuad for quads read from global memory: each thread issues
  // the loads of several quads before it uses the first, so their L2
  // latencies overlap. (One load and its use per iteration serialised the
  // finisher on L2 latency: ~48 round trips per thread on G4.) Rows at or
  // past `rowLimit` (tile row index) are neither loaded nor used. At most
  // kLoads vector loads are in flight per thread: a deterministic plan's
  // quad is one load per plane (G5's 16 planes spilled at 8 quads).
  constexpr int64_t kLoads = 8;
  int64_t quadsPerRow = width / 4;
  int64_t total = p.bm * quadsPerRow;
  int64_t threads = p.numConsumers * 128;
  int64_t batch =
      std::min<int64_t>(std::max<int64_t>(1, kLoads / p.numPlanes()),
                        llvm::divideCeil(total, threads));
  bool exact = total % (threads * batch) == 0;
  auto quad = VectorType::get({4}, f32);
  forLoop(tid, cst(total), cst(threads * batch), [&](Value e0) {
    SmallVector<Value> rows, cols, oks, vals;
    for (int64_t u = 0; u < batch; ++u) {
      Value e = add(e0, u * threads);
      Value row = div(e, quadsPerRow);
      Value ok = ult(row, rowLimit);
      if (!exact)
        ok = arith::AndIOp::create(b, loc, ok, ult(e, cst(total)));
      Value col = mul(rem(e, quadsPerRow), 4);
      rows.push_back(row);
      cols.push_back(col);
      oks.push_back(ok);
      // A quad past the tile is not used: its value is poison.
      vals.push_back(ifThenElse(
          ok, quad, [&] { return load(row, col); },
          [&] { return LLVM::PoisonOp::create(b, loc, quad).getResult(); }));
    }
    for (int64_t u = 0; u < batch; ++u)
      ifThen(oks[u], [&] { use(rows[u], cols[u], vals[u]); });
  });
}

void KernelEmitter::emitFinisher() {
  // After all its chunks are added, a CTA counts itself in once per (m tile,
  // owner rank); the last of the grid_n clusters to arrive casts the fp32
  // workspace columns this rank owns into the output (a split-K style
  // semaphore). One fence per thread at the end instead of one per chunk:
  // a gpu-scope fence waits for every reduction the thread has in flight.
  int64_t threads = p.numConsumers * 128;
  // Bulk reductions are the async proxy's: wait until they are performed,
  // then order them before this thread's generic release.
  if (p.bulkCols)
    ifThen(ult(lane, cst(16)), [&] {
      createPtxStatement(
          b, loc, {}, "cp.async.bulk.wait_group 0;\nfence.proxy.async.global;",
          "");
    });
  LLVM::FenceOp::create(b, loc, LLVM::AtomicOrdering::release, "device");
  namedBarrier(8, threads);
  Value flagPtr = sharedPtr(cst(p.smemFlag));
  Value counter = add(mul(mTile, p.clusterSize()), rank);
  ifThen(eq(tid, 0), [&] {
    Value cntOff = add(mul(planeStart(cst(p.numPlanes())), 4), mul(counter, 4));
    // __threadfence(); atomicAdd(); __threadfence(): the explicit fences
    // make the bar.sync-collected partial sums of all consumer threads
    // visible before the count, whatever ordering the atomic lowers to.
    LLVM::FenceOp::create(b, loc, LLVM::AtomicOrdering::acq_rel, "device");
    Value old = LLVM::AtomicRMWOp::create(
        b, loc, LLVM::AtomicBinOp::add, gep(ws, cntOff), cstI32(1),
        LLVM::AtomicOrdering::acq_rel, "device");
    LLVM::FenceOp::create(b, loc, LLVM::AtomicOrdering::acq_rel, "device");
    Value last = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, old,
                                       cstI32(p.schedule.getGrid()[1] - 1));
    Value flag = arith::ExtUIOp::create(b, loc, i32, last);
    LLVM::StoreOp::create(b, loc, flag, flagPtr, 4);
    // Every cluster has counted in: the next launch starts from zero.
    if (p.selfCleaningWorkspace)
      ifThen(last, [&] {
        LLVM::StoreOp::create(b, loc, cstI32(0), gep(ws, cntOff), 4);
      });
  });
  // --dsm-materialize=test-omit-barrier drops this barrier: the flag is then
  // read while thread 0 may still write it, a shared-memory race that
  // compute-sanitizer's racecheck must report (docs/reliability.md).
  if (!p.testOmitBarrier)
    namedBarrier(8, threads);
  Value flag = LLVM::LoadOp::create(b, loc, i32, flagPtr, 4);
  // The columns this rank owns: its slice of every l chunk (reduce-scatter)
  // or its blk_l columns (shuffle family).
  int64_t w = p.shuffle ? p.bl : p.bl / p.clusterN;
  int64_t segments = p.shuffle ? 1 : p.lTiles();
  ifThen(arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, flag,
                               cstI32(0)),
         [&] {
           LLVM::FenceOp::create(b, loc, LLVM::AtomicOrdering::acquire,
                                 "device");
           forLoop(cst(0), cst(segments), cst(1), [&](Value j) {
             Value colStart = add(mul(j, p.bl), mul(rank, w));
             auto offOf = [&](Value row, Value col) {
               Value gRow = add(m0, row);
               return mul(add(mul(gRow, p.shape.l), add(colStart, col)), 4);
             };
             forEachOwnedQuadBatched(
                 w, sub(rowEnd, m0),
                 [&](Value row, Value col) {
                   // Deterministic: the planes of clusters 0, 1, ... in
                   // that order, whatever order they arrived in.
                   Value off = offOf(row, col);
                   Value v;
                   auto quad = VectorType::get({4}, f32);
                   for (int64_t q = 0; q < p.numPlanes(); ++q) {
                     Value plane = mul(planeStart(cst(q)), 4);
                     Value x = LLVM::LoadOp::create(
                         b, loc, quad, gep(ws, add(plane, off)), 16,
                         /*isVolatile=*/true);
                     v = v ? LLVM::FAddOp::create(b, loc, v, x).getResult() : x;
                   }
                   return v;
                 },
                 [&](Value row, Value col, Value v) {
                   // The atomic sum is consumed: leave zeros for the next
                   // launch when the runtime clears the workspace only
                   // when it allocates it.
                   if (p.selfCleaningWorkspace)
                     LLVM::StoreOp::create(
                         b, loc,
                         LLVM::ZeroOp::create(b, loc, v.getType()).getResult(),
                         gep(ws, offOf(row, col)), 16);
                   SmallVector<Value> ys;
                   for (int64_t i = 0; i < 4; ++i)
                     ys.push_back(applyEpilogue(p.lastEpilogue, extract(v, i)));
                   storeOut(add(m0, row), add(colStart, col), p.shape.l, ys);
                 });
           });
         });
}

void KernelEmitter::reduceIntoWorkspace(Value row, Value col,
                                        ArrayRef<Value> vals) {
  // One vector reduction (red.global.add.v2/v4.f32, sm_90) per 2 or 4
  // adjacent fp32 values of the workspace row.
  Value off = mul(add(mul(row, p.shape.l), col), 4);
  if (p.isDeterministic()) {
    // This cluster's own plane: a plain store, summed later in order.
    Value plane = mul(planeStart(nCluster), 4);
    LLVM::StoreOp::create(b, loc, vector(vals), gep(ws, add(plane, off)),
                          vals.size() * 4);
    return;
  }
  createGlobalAddF32(b, loc, gep(ws, off), vals);
}

void KernelEmitter::emitBulkOutput(Value acc, Value l0, int64_t width) {
  // Columns [l0, l0 + width) of E into the workspace by the TMA unit. Each
  // consumer warp stages bulkCols columns of its 16 rows at a time over the
  // act(C) slice (dead once the gather is done), then lane i adds row i
  // with one cp.reduce.async.bulk: no red.global through the LSU. A lane
  // waits until the TMA has read its previous row before the warp
  // overwrites the rows.
  int64_t cols = p.bulkCols, stride = p.bulkRowBytes();
  Value base = add(cst(p.smemC), mul(add(mul(wg, 4), warp), 16 * stride));
  Value rowInWarp = div(lane, 4);
  Value colPair = fragColPair();
  Value issuer = ult(lane, cst(16));
  Value gRow = add(add(add(m0, wgRow0()), mul(warp, 16)), lane);
  Value issues = arith::AndIOp::create(b, loc, issuer, ult(gRow, rowEnd));
  std::string text = "cp.reduce.async.bulk.global.shared::cta.bulk_group."
                     "add.f32 [$0], [$1], " +
                     std::to_string(cols * 4) +
                     ";\ncp.async.bulk.commit_group;";
  for (int64_t c0 = 0; c0 < width; c0 += cols) {
    ifThen(issuer, [&] {
      createPtxStatement(b, loc, {}, "cp.async.bulk.wait_group.read 0;", "");
    });
    NVVM::SyncWarpOp::create(b, loc, cstI32(-1));
    for (int64_t h = 0; h < 2; ++h) {
      Value rowOff = mul(add(rowInWarp, 8 * h), stride);
      for (int64_t j = c0 / 8; j < (c0 + cols) / 8; ++j) {
        Value col = add(colPair, 8 * j - c0);
        Value v = fragPair(acc, j, h);
        LLVM::StoreOp::create(
            b, loc, v, sharedPtr(add(base, add(rowOff, mul(col, 4)))), 8);
      }
    }
    // The TMA reads the rows through the async proxy.
    NVVM::FenceProxyOp::create(
        b, loc, NVVM::ProxyKindAttr::get(ctx, NVVM::ProxyKind::async_shared),
        NVVM::SharedSpaceAttr::get(ctx, NVVM::SharedSpace::shared_cta));
    NVVM::SyncWarpOp::create(b, loc, cstI32(-1));
    ifThen(issues, [&] {
      Value dst = gep(ws, mul(add(mul(gRow, p.shape.l), add(l0, cst(c0))), 4));
      Value src = sharedPtr(add(base, mul(lane, stride)));
      createPtxStatement(b, loc, {dst, src}, text, "l,l");
    });
  }
}

void KernelEmitter::emitRegisterOutput(Value acc, Value l0, int64_t width) {
  // Columns [l0, l0 + width) of E straight from the wgmma fragments: the
  // output through the last epilogue, or the workspace.
  if (p.bulkCols) // only set for plans with an atomic workspace
    return emitBulkOutput(acc, l0, width);
  if (!p.needsWorkspace)
    return storeFragment(acc, p.lastEpilogue, l0, width, p.shape.l);
  Value rowInWg = fragRow();
  Value colPair = fragColPair();
  for (int64_t h = 0; h < 2; ++h) {
    Value row = add(add(add(m0, wgRow0()), rowInWg), 8 * h);
    ifThen(ult(row, rowEnd), [&] {
      for (int64_t j = 0; j < width / 8; ++j) {
        Value col = add(add(l0, colPair), 8 * j);
        Value v0 = accElt(acc, 4 * j + 2 * h);
        Value v1 = accElt(acc, 4 * j + 2 * h + 1);
        reduceIntoWorkspace(row, col, {v0, v1});
      }
    });
  }
}

void KernelEmitter::emitChunkOutput(Value acc, Value chunk, Value j) {
  Value l0 = mul(chunk, p.bl);
  if (p.clusterN == 1)
    return emitRegisterOutput(acc, l0, p.bl);
  // Cluster reduce-scatter of the partial E chunk.
  reduceScatterFragment(
      acc, p.bl, p.clusterN, j, [&](int64_t w, Value colOwned) {
        if (p.needsWorkspace) {
          // Level 2: the slice goes into this m tile's rows of the
          // workspace (rows past M are outside the tile view and skipped).
          InterClusterReduceOp::create(
              b, loc, reducedBuf, workspaceTile,
              ValueRange{cst(0), add(l0, colOwned)}, CombinerKind::add,
              p.isDeterministic(),
              b.getI64IntegerAttr(p.numConsumers * kWarpgroupThreads));
          return;
        }
        storeReducedSlice(w, colOwned, l0, p.lastEpilogue, p.shape.l);
      });
}

/// Shuffle family: the first E column of this rank's `j`-th l sub-tile.
Value KernelEmitter::shuffleSubTileL0(Value j) {
  return add(mul(rank, p.bl), mul(chunkOf(j), p.subL));
}

void KernelEmitter::emitShuffleProducer() {
  // D[cluster n range, this rank's l sub-tile] in 64-row n steps through
  // the dStages ring. The producer also takes part in the cluster
  // barriers of the consumers' dsm.shuffle (pull: two, push: one), once
  // the ring is full (it cannot refill a stage before the consumers, which
  // wait in the exchange, release one).
  Value tmD = tmaps.back();
  // A push's cluster barrier only needs the stage rings dead: every load
  // the producer issued lands before a consumer retires its step. Nothing
  // to release (the consumers' arrive below).
  if (p.arrivesBeforeGather())
    ClusterArriveOp::create(b, loc, /*relaxed=*/true);
  // Before the exchange's cluster barrier only the slots at smemD: the late
  // ones lie over the main-loop ring, dead once every consumer of the
  // cluster has arrived.
  int64_t total = p.lTiles() * p.gatheredSteps();
  int64_t pre = std::min(p.dOwnStages, total);
  // Split K: the k group's reduce-scatter (two cluster barriers) precedes
  // the gather (a push's one barrier, or a pull's two).
  auto exchangeSyncs = [&] {
    if (p.clusterK > 1)
      reduceClusterSyncs();
    shuffleClusterSyncs();
  };
  forLoop(cst(0), cst(total), cst(1), [&](Value it) {
    if (pre < total)
      ifThen(eq(it, pre), exchangeSyncs);
    Value slot = ringRem(it, p.dStages);
    waitParity(dempty, slot, notI1(parity(it, p.dStages)));
    leaderOnly(wgLeader, [&] {
      nvgpu::MBarrierArriveExpectTxOp::create(b, loc, dfull, cst(p.dStageBytes),
                                              slot, Value());
      Value base = dSlotBase(slot);
      // Second-GEMM step `it`: n step it mod T of l sub-tile it / T.
      int64_t steps = p.gatheredSteps();
      Value nRow =
          add(mul(nCluster, p.clusterN * p.bn), mul(rem(it, steps), 64));
      Value l0 = shuffleSubTileL0(div(it, steps));
      if (p.dKMajor) {
        // D[L, N]: subL rows (l) of 64 n = 128 B, the layout of C.
        nvgpu::TmaAsyncLoadOp::create(b, loc, smemView(base, {p.subL, 64}),
                                      dfull, tmD, ValueRange{nRow, l0}, slot,
                                      Value(), Value());
      } else {
        // D[N, L]: per 64-wide l chunk q, 64 n rows of 128 B.
        for (int64_t q = 0; q < p.subL / 64; ++q)
          nvgpu::TmaAsyncLoadOp::create(
              b, loc, smemView(add(base, q * 64 * 128), {64, 64}), dfull, tmD,
              ValueRange{add(l0, 64 * q), nRow}, slot, Value(), Value());
      }
    });
  });
  if (pre == total)
    exchangeSyncs();
}

/// Split-K shuffle family: publishes this rank's fp32 partial C tile to its
/// k group, pulls and sums its slice of the group's tiles (dsm.reduce
/// between two cluster barriers), and writes act(slice) as bf16 into the
/// act(C) slice the gather reads, in the 128B-swizzled K-major layout of
/// the second GEMM's operand (KernelPlan::sliceRows). With `slot` (a push
/// gather) it writes its slot of the gathered slices instead, fenced for
/// the async proxy.
void KernelEmitter::emitSplitKSlice(Value acc, Value slot) {
  int64_t threads = p.numConsumers * kWarpgroupThreads;
  Value rowInWg = fragRow();
  Value colPair = fragColPair();
  for (int64_t h = 0; h < 2; ++h) {
    Value r = add(add(wgRow0(), rowInWg), 8 * h);
    for (int64_t j = 0; j < p.bn / 8; ++j) {
      Value v = fragPair(acc, j, h);
      vector::StoreOp::create(b, loc, v, partialView,
                              ValueRange{r, add(colPair, 8 * j)},
                              /*nontemporal=*/false, llvm::MaybeAlign(8));
    }
  }
  // Ranks n * clusterK + [0, clusterK) form a k group; rank k of it keeps
  // rows or columns [k, k + 1) / clusterK of the sum.
  ReduceOp::create(b, loc, partialBuf, reducedBuf, ReduceMode::reduce_scatter,
                   CombinerKind::add, /*axis=*/p.reduceRows() ? 0 : 1,
                   p.clusterK,
                   /*group_stride=*/1, b.getI64IntegerAttr(threads));
  Value base = slot ? slot : cst(p.smemC);
  // Quads of the slice: activation, bf16, and the swizzled store (a
  // slice's rows start on a 1024-B atom: KernelPlan, blk_m / cls_k % 8 ==
  // 0).
  int64_t rows = p.reducedSliceRows(), cols = p.reducedSliceCols();
  int64_t quadsPerRow = cols / 4;
  forLoop(tid, cst(rows * quadsPerRow), cst(threads), [&](Value e) {
    Value row = div(e, quadsPerRow);
    Value col = mul(rem(e, quadsPerRow), 4);
    Value sum = vector::LoadOp::create(
        b, loc, VectorType::get({4}, f32), reducedView, ValueRange{row, col},
        /*nontemporal=*/false, llvm::MaybeAlign(16));
    SmallVector<Value> ys;
    for (int64_t i = 0; i < 4; ++i)
      ys.push_back(applyStages({extract(sum, i)}));
    Value packed = LLVM::BitcastOp::create(b, loc, i64, vector(ys)).getResult();
    Value chunk = div(col, 64);
    Value inRow = mul(rem(col, 64), 2);
    Value off = add(add(mul(chunk, rows * 128), mul(row, 128)),
                    arith::XOrIOp::create(b, loc, inRow, swizzle128Mask(row)));
    LLVM::StoreOp::create(b, loc, packed, sharedPtr(add(off, base)), 8);
  });
  // A pull gather reads the slice through the generic proxy after its first
  // cluster barrier; a push's copies and the second GEMM's wgmmas read the
  // slot through the async proxy.
  if (slot)
    NVVM::FenceProxyOp::create(
        b, loc, NVVM::ProxyKindAttr::get(ctx, NVVM::ProxyKind::async_shared),
        NVVM::SharedSpaceAttr::get(ctx, NVVM::SharedSpace::shared_cta));
}

void KernelEmitter::emitShuffleConsumer(ArrayRef<Value> accs) {
  int64_t threads = p.numConsumers * kWarpgroupThreads;

  if (p.shufflePush) {
    // In-place push: act(C) goes straight into this rank's slot of the
    // gathered slices, which the TMA unit copies into every peer's same
    // slot. The slots lie over the stage rings, so the cluster barrier
    // before the copies needs only retired main loops: this thread's
    // wgmmas have retired, so it arrives now and waits in the exchange,
    // after the epilogue.
    //
    // Split K: the k group's reduce-scatter comes first (its two cluster
    // barriers) and act(slice) goes to the slot, then the push's barrier
    // (arrive and wait: an arrive before the writes left them ordered only
    // by the reduce's second barrier, which compute-sanitizer's racecheck
    // reports). The reduced slice lies past the slots (KernelPlan).
    // The arrive is relaxed: the peers' copies only need this thread's
    // wgmma reads of the rings, which have retired; the slot's writes
    // reach this CTA's copy through the fence and named barrier after
    // them, and the peers through the copies' mbarrier.
    if (p.arrivesBeforeGather())
      ClusterArriveOp::create(b, loc, /*relaxed=*/true);
    namedBarrier(9, threads);
    Value slot = add(mul(rank, p.sliceRows() * 128), p.smemGathered);
    if (p.clusterK > 1)
      emitSplitKSlice(accs[0], slot);
    else
      emitFfnEpilogue(accs, slot);
    // The epilogue fenced each thread's or warpgroup's writes for the async
    // proxy (the copies and the second GEMM's wgmmas); the slot is complete
    // once every consumer is past it.
    namedBarrier(9, threads);
    ShuffleOp::create(b, loc, /*src=*/Value(), gatheredBuf, gatherBarrier,
                      arith::ConstantIntOp::create(b, loc, b.getI1Type(), 0),
                      /*axis=*/0, p.clusterSize(), /*group_stride=*/1,
                      b.getI64IntegerAttr(threads),
                      /*arrived=*/p.arrivesBeforeGather());
  } else {
    // The slice and the gathered slices lie over the stage rings: no
    // consumer writes there before every consumer has retired its main
    // loop.
    namedBarrier(9, threads);
    if (p.clusterK > 1)
      emitSplitKSlice(accs[0]);
    else
      emitFfnEpilogue(accs);
    // dsm.shuffle: every rank ends with the cluster's act(C) slices in
    // rank order (a pull all-gather between two cluster barriers).
    ShuffleOp::create(b, loc, sliceBuf, gatheredBuf, Value(), Value(),
                      /*axis=*/0, p.clusterSize(), /*group_stride=*/1,
                      b.getI64IntegerAttr(threads), /*arrived=*/false);
    // The gathered slices were written through the generic proxy; wgmma
    // reads them through the async proxy.
    NVVM::FenceProxyOp::create(
        b, loc, NVVM::ProxyKindAttr::get(ctx, NVVM::ProxyKind::async_shared),
        NVVM::SharedSpaceAttr::get(ctx, NVVM::SharedSpace::shared_cta));
    namedBarrier(9, threads);
  }

  // E[rows, this rank's columns] = gathered act(C) . D[cluster n range, .],
  // one subL-wide sub-tile at a time, n steps of 64 streamed from the ring.
  int64_t steps = p.gatheredSteps();
  Value cBase = add(mul(wgRow0(), 128), p.smemGathered);
  auto ring = [&](Value it) { return ringRem(it, p.dStages); };
  forLoop(cst(0), cst(p.lTiles()), cst(1), [&](Value j) {
    Value first = mul(j, steps);
    // n step t of the sub-tile (null `acc`: the first, which starts it).
    auto step = [&](Value t, Value acc) {
      Value it = add(first, t);
      Value slot = ring(it);
      waitParity(dfull, slot, parity(it, p.dStages));
      Value dBase = dSlotBase(slot);
      Value descC = descriptor(add(cBase, mul(t, p.bm * 128)), 16, 1024);
      // K-major D: subL rows of 128 B (like C); row-major D: 64-wide l
      // chunks of 64 n rows (MN-major, LBO = one chunk).
      Value descD = p.dKMajor ? descriptor(dBase, 16, 1024)
                              : descriptor(dBase, 64 * 128, 1024);
      NVVM::WgmmaFenceAlignedOp::create(b, loc);
      for (int64_t kk = 0; kk < 4; ++kk)
        acc = wgmma(acc, advance(descC, kk * 32),
                    advance(descD, p.dKMajor ? kk * 32 : kk * 2048), p.subL,
                    p.dKMajor);
      NVVM::WgmmaGroupSyncAlignedOp::create(b, loc);
      // One group in flight: the previous step's stage is free.
      NVVM::WgmmaWaitGroupSyncOp::create(b, loc, b.getI64IntegerAttr(1));
      return std::make_pair(acc, it);
    };
    auto loop = scf::ForOp::create(
        b, loc, cst(1), cst(steps), cst(1),
        ValueRange{step(cst(0), Value()).first},
        [&](OpBuilder &, Location, Value t, ValueRange iter) {
          auto [acc, it] = step(t, iter[0]);
          Value prev = ring(add(it, p.dStages - 1));
          leaderOnly(wgLeader, [&] {
            nvgpu::MBarrierArriveOp::create(b, loc, dempty, prev);
          });
          scf::YieldOp::create(b, loc, acc);
        });
    NVVM::WgmmaWaitGroupSyncOp::create(b, loc, b.getI64IntegerAttr(0));
    Value last = add(first, steps - 1);
    leaderOnly(wgLeader, [&] {
      nvgpu::MBarrierArriveOp::create(b, loc, dempty, ring(last));
    });
    emitRegisterOutput(loop.getResult(0), shuffleSubTileL0(j), p.subL);
  });
  if (p.needsWorkspace)
    emitFinisher();
}

void KernelEmitter::emitConsumer() {
  if (useRegisterReallocation())
    NVVM::SetMaxRegisterOp::create(
        b, loc, b.getI32IntegerAttr(232),
        NVVM::SetMaxRegisterActionAttr::get(
            ctx, NVVM::SetMaxRegisterAction::increase));
  SmallVector<Value> accs;
  if (p.isSingleGemm()) {
    if (p.clusterK > 1) {
      emitMainLoop(accs);
      return emitSplitKEpilogue(accs);
    }
    // The epilogue stores from registers: in a persistent kernel the
    // producer meanwhile fills the ring with the next tile's operands.
    forEachTile([&] {
      emitMainLoop(accs);
      emitGemmEpilogue(accs);
    });
    return;
  }
  if (p.streamsN())
    return emitStreamedConsumer();
  if (p.persistent) {
    // A solo kernel's tiles in turn: each warpgroup reads back only the
    // act(C) rows it wrote, after its last second-GEMM wgmma of the
    // previous tile retired, so no barrier is needed between tiles.
    if (p.residentWeights)
      waitParity(wfull, cst(0), arith::ConstantIntOp::create(b, loc, i1, 0));
    ringWg = wg;
    forEachTile([&] {
      emitMainLoop(accs);
      emitFfnEpilogue(accs);
      emitChunks(p.residentWeights ? Value() : dRingBase());
    });
    return;
  }
  emitMainLoop(accs);
  if (p.shuffle)
    return emitShuffleConsumer(accs);
  emitFfnEpilogue(accs);
  emitChunks(Value());
  if (p.needsWorkspace)
    emitFinisher();
}

void KernelEmitter::emitChunks(Value d0) {
  forLoop(cst(0), cst(p.lTiles()), cst(1), [&](Value j) {
    // Resident weights: chunk c of D lies in slot c.
    Value acc2 = secondGemm(Value(), p.residentWeights ? chunkOf(j)
                                     : d0              ? add(d0, j)
                                                       : j);
    emitChunkOutput(acc2, chunkOf(j), j);
  });
}

Value KernelEmitter::secondGemm(Value acc, Value j) {
  // Resident weights: j is the chunk, its slot loaded before the first
  // tile (the consumers waited on wfull).
  Value slot = p.residentWeights ? j : ringRem(j, 2);
  if (!p.residentWeights)
    waitParity(dfull, slot, parity(j, 2));
  Value cBase = add(mul(wgRow0(), 128), p.smemC);
  Value dBase = add(mul(slot, p.dStageBytes), p.smemD);
  // Split columns: this warpgroup's half of E's columns, whole 64-column
  // chunks: bl/2 rows of each n chunk (K-major D) or bl/128 of the l
  // chunks of bn rows (row-major D).
  if (p.splitColumns)
    dBase = add(dBase, mul(wg, p.dKMajor ? p.consumerL() * 128
                                         : p.consumerL() / 64 * p.bn * 128));
  Value descC = descriptor(cBase, 16, 1024);
  Value descD = p.dKMajor ? descriptor(dBase, 16, 1024)
                          : descriptor(dBase, p.bn * 128, 1024);
  NVVM::WgmmaFenceAlignedOp::create(b, loc);
  for (int64_t kk = 0; kk < p.bn / 16; ++kk) {
    int64_t aBytes = (kk / 4) * p.bm * 128 + (kk % 4) * 32;
    // K-major D: 64-wide n chunks of bl rows x 128 B, like C.
    int64_t dBytes =
        p.dKMajor ? (kk / 4) * p.bl * 128 + (kk % 4) * 32 : kk * 2048;
    acc = wgmma(acc, advance(descC, aBytes), advance(descD, dBytes),
                p.consumerL(), p.dKMajor);
  }
  NVVM::WgmmaGroupSyncAlignedOp::create(b, loc);
  // The C tile and the D slot are free once the group has retired: the
  // next tile's epilogue overwrites C (a streamed-n kernel), the producer
  // refills the slot.
  NVVM::WgmmaWaitGroupSyncOp::create(b, loc, b.getI64IntegerAttr(0));
  if (!p.residentWeights)
    leaderOnly(wgLeader,
               [&] { nvgpu::MBarrierArriveOp::create(b, loc, dempty, slot); });
  return acc;
}

void KernelEmitter::setStreamedTile(Value t, Value ring0) {
  // Split over a cluster: this rank's share of the n tiles is contiguous.
  Value nTile = p.clusterN > 1 ? add(mul(rank, p.nTiles), t) : t;
  n0 = mul(nTile, p.bn);
  kBase = mul(t, p.kTiles());
  if (ring0)
    kBase = add(ring0, kBase);
}

Value KernelEmitter::emitStreamedNLoop(Value ring0, Value d0) {
  auto tile = [&](Value t, Value accE) {
    setStreamedTile(t, ring0);
    SmallVector<Value> accs;
    emitMainLoop(accs);
    // Split columns: the other warpgroup may still read the previous
    // tile's act(C) in its second GEMM (the ring lets a warpgroup run a
    // whole main loop ahead when K spans few stages).
    if (p.splitColumns)
      namedBarrier(2, p.numConsumers * kWarpgroupThreads);
    emitFfnEpilogue(accs);
    return secondGemm(accE, d0 ? add(d0, t) : t);
  };
  Value first = tile(cst(0), Value());
  auto loop = scf::ForOp::create(
      b, loc, cst(1), cst(p.nTiles), cst(1), ValueRange{first},
      [&](OpBuilder &, Location, Value t, ValueRange iter) {
        scf::YieldOp::create(b, loc, tile(t, iter[0]));
      });
  n0 = Value();
  return loop.getResult(0);
}

void KernelEmitter::emitStreamedConsumer() {
  // Per n tile t: GEMM0 into registers, act(C) into this warpgroup's rows
  // of the C tile, then E += act(C) . D[t's n rows, :], E staying in
  // registers from tile to tile. The first tile starts E (no zero fill: a
  // zeroed accumulator costs ptxas-inserted warpgroup arrives,
  // docs/validation.md), the loop carries it. A persistent kernel (a
  // cluster of one) does so per m tile and stores each m tile's E.
  if (p.persistent) {
    forEachTile([&] {
      Value ring0 = kBase;
      Value e = emitStreamedNLoop(ring0, dRingBase());
      kBase = ring0;
      Value l0 = p.splitColumns ? mul(wg, p.consumerL()) : cst(0);
      emitRegisterOutput(e, l0, p.consumerL());
    });
    return;
  }
  Value e = emitStreamedNLoop(Value(), Value());
  kBase = Value();
  Value l0 = p.splitColumns ? mul(wg, p.consumerL()) : cst(0);
  if (p.clusterN == 1)
    return emitRegisterOutput(e, l0, p.consumerL());
  // Split over a cluster: E's partial goes over the dead rings, where the
  // other warpgroup's last wgmmas may still read C and D.
  if (p.numConsumers > 1)
    namedBarrier(9, p.numConsumers * kWarpgroupThreads);
  reduceScatterFragment(
      e, p.bl, p.clusterN, cst(0),
      [&](int64_t w, Value colOwned) {
        storeReducedSlice(w, colOwned, cst(0), p.lastEpilogue, p.shape.l);
      },
      p.consumerL(), l0);
}

void KernelEmitter::emit(gpu::GPUFuncOp func) {
  b.setInsertionPointToStart(&func.getBody().front());
  // The successor may take SMs as soon as every CTA runs: the ones this
  // grid leaves idle, then each one a CTA of it frees.
  if (p.launchDependents)
    NVVM::GriddepcontrolOp::create(b, loc,
                                   NVVM::GridDepActionKind::launch_dependents);
  emitSetup(func);
  // Barrier setup overlaps the predecessor's tail, and so do the first
  // weight tiles' DRAM reads; every other global access comes after this.
  if (p.waitsForPredecessor) {
    if (p.prefetchWeights && p.isSingleGemm() && !p.isConv() &&
        !p.residentWeights)
      ifThen(eq(tid, p.numConsumers * kWarpgroupThreads),
             [&] { emitWeightPrefetch(); });
    NVVM::GriddepcontrolOp::create(b, loc, NVVM::GridDepActionKind::wait);
  }
  auto roles = scf::IfOp::create(b, loc, eq(wg, p.numConsumers),
                                 /*withElseRegion=*/true);
  {
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(roles.thenBlock());
    emitProducer();
    b.setInsertionPointToStart(roles.elseBlock());
    emitConsumer();
  }
  // No CTA may exit while peers can still multicast into, arrive on or read
  // its shared memory. Only the consumers of a multicast ring arrive on a
  // peer's barriers (releaseStage) with nothing to wait for them; every
  // other peer access lands on an mbarrier this CTA waited on (st.async,
  // bulk and multicast copies) or is a load whose value its thread used
  // before arriving. So the arrive is relaxed elsewhere: a release would
  // first wait for the epilogue's global stores (docs/lowering.md, "The exit
  // barrier").
  if (p.clusterSize() > 1)
    clusterSync(/*relaxed=*/!p.multicasts());
  gpu::ReturnOp::create(b, loc);
}

gpu::GPUFuncOp mlir::dsm::buildKernel(OpBuilder &builder, Location loc,
                                      gpu::GPUModuleOp module, StringRef name,
                                      const KernelPlan &plan) {
  OpBuilder::InsertionGuard g(builder);
  builder.setInsertionPointToEnd(module.getBody());
  MLIRContext *ctx = builder.getContext();
  SmallVector<Type> argTypes;
  SmallVector<int32_t> tensormapArgs;
  for (auto [i, param] : llvm::enumerate(getKernelParams(plan))) {
    if (param.kind == KernelParam::Kind::I64) {
      argTypes.push_back(builder.getI64Type());
      continue;
    }
    argTypes.push_back(LLVM::LLVMPointerType::get(ctx));
    if (param.kind == KernelParam::Kind::TensorMap)
      tensormapArgs.push_back(i);
  }
  auto func = gpu::GPUFuncOp::create(builder, loc, name,
                                     builder.getFunctionType(argTypes, {}));
  func->setAttr(gpu::GPUDialect::getKernelFuncAttrName(),
                builder.getUnitAttr());
  func.setKnownBlockSizeAttr(builder.getDenseI32ArrayAttr(
      {(int32_t)plan.numThreads(), 1, 1}));
  if (plan.clusterSize() > 1)
    func->setAttr(
        "known_cluster_size",
        builder.getDenseI32ArrayAttr({(int32_t)plan.clusterSize(), 1, 1}));
  func->setAttr("dsm.tensormap_args",
                builder.getDenseI32ArrayAttr(tensormapArgs));
  for (int32_t i : tensormapArgs)
    func.setArgAttr(i, "llvm.align", builder.getI64IntegerAttr(64));

  KernelEmitter(builder, loc, plan).emit(func);
  return func;
}

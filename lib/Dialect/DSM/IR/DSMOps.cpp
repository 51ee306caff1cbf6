//===- DSMOps.cpp - dsm dialect operations ----------------------*- C++ -*-===//
//
// Part of the FlashFuser project.
//
//===----------------------------------------------------------------------===//

#include "ff/Dialect/DSM/IR/DSMOps.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/Support/InterleavedRange.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::dsm;

/// Enum attributes of dsm ops print as a bare keyword (`ffn`, `add`).
template <typename AttrT>
static ParseResult parseEnumKeyword(OpAsmParser &parser, AttrT &attr) {
  using EnumT = decltype(std::declval<AttrT>().getValue());
  SMLoc loc = parser.getCurrentLocation();
  StringRef keyword;
  if (parser.parseKeyword(&keyword))
    return failure();
  std::optional<EnumT> value = symbolizeEnum<EnumT>(keyword);
  if (!value)
    return parser.emitError(loc, "unknown keyword '") << keyword << "'";
  attr = AttrT::get(parser.getContext(), *value);
  return success();
}

template <typename AttrT>
static void printEnumKeyword(OpAsmPrinter &printer, Operation *,
                             AttrT attr) {
  printer << stringifyEnum(attr.getValue());
}

/// dsm.shuffle's types: `src-type, dst-type`, or `dst-type` alone when the
/// exchange is in place (no source operand).
static ParseResult parseShuffleTypes(OpAsmParser &parser, Type &src,
                                     Type &dst) {
  Type first;
  if (parser.parseType(first))
    return failure();
  if (failed(parser.parseOptionalComma())) {
    dst = first;
    return success();
  }
  src = first;
  return parser.parseType(dst);
}

static void printShuffleTypes(OpAsmPrinter &printer, Operation *, Type src,
                              Type dst) {
  if (src)
    printer << src << ", ";
  printer << dst;
}

#define GET_OP_CLASSES
#include "ff/Dialect/DSM/IR/DSMOps.cpp.inc"

//===----------------------------------------------------------------------===//
// FusedChainOp
//===----------------------------------------------------------------------===//

static int64_t expectedGemmCount(ChainKind kind) {
  switch (kind) {
  case ChainKind::gemm:
    return 1;
  case ChainKind::ffn:
  case ChainKind::gated_gemm:
    return 2;
  case ChainKind::gated_ffn:
    return 3;
  case ChainKind::chain:
    return -1; // three or more, checked separately
  }
  llvm_unreachable("unknown chain kind");
}

FailureOr<ChainShape> FusedChainOp::getChainShape() {
  ChainShape shape;
  for (Operation &op : getBodyBlock()) {
    auto linalgOp = dyn_cast<linalg::LinalgOp>(&op);
    if (!linalgOp || !linalg::isaContractionOpInterface(linalgOp))
      continue;
    FailureOr<linalg::ContractionDimensions> dims =
        linalg::inferContractionDims(linalgOp);
    if (failed(dims))
      return failure();
    SmallVector<int64_t> ranges = linalgOp.getStaticLoopRanges();
    auto product = [&](ArrayRef<unsigned> loops) -> int64_t {
      int64_t p = 1;
      for (unsigned d : loops) {
        if (ShapedType::isDynamic(ranges[d]))
          return ShapedType::kDynamic;
        p *= ranges[d];
      }
      return p;
    };
    ChainGemm gemm;
    gemm.op = &op;
    gemm.batch = product(dims->batch);
    gemm.m = product(dims->m);
    gemm.n = product(dims->n);
    gemm.k = product(dims->k);
    if (ShapedType::isDynamic(gemm.n) || ShapedType::isDynamic(gemm.k) ||
        ShapedType::isDynamic(gemm.batch))
      return failure();
    if (shape.gemms.empty())
      shape.elementType = getElementTypeOrSelf(linalgOp.getDpsInputs()[0]);
    shape.gemms.push_back(gemm);
  }

  int64_t count = shape.gemms.size();
  int64_t expected = expectedGemmCount(getKind());
  if ((expected >= 0 && count != expected) || (expected < 0 && count < 3))
    return failure();

  const ChainGemm &first = shape.gemms.front();
  shape.m = first.m;
  shape.n = first.n;
  shape.k = first.k;
  if (count == 1)
    return shape;
  // Gated chains: the gate and up GEMMs share the input and shape.
  if (isGatedKind(getKind()) &&
      (shape.gemms[1].n != first.n || shape.gemms[1].k != first.k ||
       shape.gemms[1].m != first.m))
    return failure();
  if (getKind() == ChainKind::gated_gemm)
    return shape;
  // The GEMM that consumes the intermediate: the second one, or the third
  // for gated FFNs.
  const ChainGemm &down =
      getKind() == ChainKind::gated_ffn ? shape.gemms[2] : shape.gemms[1];
  if (down.k != first.n)
    return failure();
  shape.l = down.n;
  return shape;
}

LogicalResult FusedChainOp::verify() {
  if (std::optional<ArrayAttr> seq = getSequence()) {
    if (getKind() != ChainKind::ffn && getKind() != ChainKind::gated_ffn)
      return emitOpError(
          "only an ffn or gated_ffn chain runs as a kernel sequence");
    if (!getSchedule())
      return emitOpError("a kernel sequence needs a #dsm.schedule or "
                         "#dsm.schedule_table beside it");
    auto table = dyn_cast<ScheduleTableAttr>(*getSchedule());
    // Static M: one pair without bins. Dynamic M: a pair per M bin that
    // runs as a sequence, each sharing a bin of the schedule table.
    if (!table && seq->size() != 2)
      return emitOpError("a kernel sequence has two schedules, got ")
             << seq->size();
    if (table && (seq->empty() || seq->size() % 2 != 0))
      return emitOpError("a kernel sequence of dynamic M has two schedules "
                         "per M bin, got ")
             << seq->size();
    for (auto [i, a] : llvm::enumerate(*seq)) {
      auto plan = cast<ScheduleAttr>(a);
      if (plan.getCluster()[3] != 1 || plan.hasMBin() != bool(table))
        return emitOpError("a sequence schedule is a single GEMM's, without "
                           "an l dimension, with an M bin exactly when the "
                           "chain's M is dynamic");
      // The first kernel of a gated FFN's sequence is a gated GEMM.
      ChainKind half = i % 2 == 0 && getKind() == ChainKind::gated_ffn
                           ? ChainKind::gated_gemm
                           : ChainKind::gemm;
      if (failed(plan.verifyCollectives(half, [&] { return emitOpError(); })))
        return failure();
      if (!table || i % 2 == 0)
        continue;
      auto first = cast<ScheduleAttr>((*seq)[i - 1]);
      bool inTable = llvm::any_of(table.getPlans(), [&](ScheduleAttr p) {
        return p.getMLo() == plan.getMLo() && p.getMHi() == plan.getMHi();
      });
      if (first.getMLo() != plan.getMLo() || first.getMHi() != plan.getMHi() ||
          !inTable)
        return emitOpError("the two schedules of a sequence share one M bin "
                           "of the schedule table");
    }
  }
  if (!getSchedule())
    return success();
  SmallVector<ScheduleAttr> plans;
  if (auto sched = dyn_cast<ScheduleAttr>(*getSchedule()))
    plans.push_back(sched);
  else
    llvm::append_range(plans,
                       cast<ScheduleTableAttr>(*getSchedule()).getPlans());
  for (ScheduleAttr plan : plans) {
    if (isSingleGemmKind(getKind()) && plan.getCluster()[3] != 1)
      return emitOpError("a chain of one GEMM has no l dimension to split");
    if (failed(plan.verifyCollectives(getKind(),
                                      [&] { return emitOpError(); })))
      return failure();
  }
  return success();
}

/// Checks that one spatial dimension of `sched` covers `extent` without
/// idle CTAs, and that temporal block tiles do not exceed the extent.
static LogicalResult verifyDimCoverage(FusedChainOp op, ScheduleAttr sched,
                                       LoopDim d, int64_t extent) {
  if (extent <= 0 || ShapedType::isDynamic(extent))
    return success();
  int64_t blk = sched.getBlockDim(d);
  StringRef name = stringifyLoopDim(d);
  // Hand-written grids may be anything up to INT64_MAX: multiply checked.
  int64_t parallel, covered;
  if (llvm::MulOverflow(sched.getClusterDim(d), sched.getGridDim(d),
                        parallel) ||
      llvm::MulOverflow(parallel, blk, covered))
    return op.emitOpError("schedule extent along ")
           << name << " (cluster x grid x block) overflows 64 bits";
  if (sched.isSpatial(d)) {
    if (covered < extent)
      return op.emitOpError("schedule covers ")
             << covered << " of " << extent << " along spatial " << name
             << " (cluster x grid x block)";
    // Along m the last cluster may run past M (its CTAs share B).
    int64_t used = d == LoopDim::m
                       ? (sched.getGridDim(d) - 1) * sched.getClusterDim(d) + 1
                       : parallel;
    if ((used - 1) * blk >= extent)
      return op.emitOpError("schedule leaves CTAs idle along ")
             << name << ": " << parallel << " tiles of " << blk << " for "
             << extent;
    return success();
  }
  if (blk > static_cast<int64_t>(llvm::alignTo(extent, 16)))
    return op.emitOpError("block tile ")
           << blk << " along " << name << " exceeds the extent " << extent;
  // A temporal loop split over the cluster: every CTA gets a tile.
  if ((parallel - 1) * blk >= extent)
    return op.emitOpError("schedule leaves CTAs idle along temporal ")
           << name << ": " << parallel << " CTAs walk tiles of " << blk
           << " over " << extent;
  return success();
}

static LogicalResult verifyScheduleAgainstShape(FusedChainOp op,
                                                ScheduleAttr sched,
                                                const ChainShape &shape) {
  if (failed(verifyDimCoverage(op, sched, LoopDim::m, shape.m)) ||
      failed(verifyDimCoverage(op, sched, LoopDim::n, shape.n)) ||
      failed(verifyDimCoverage(op, sched, LoopDim::k, shape.k)) ||
      failed(verifyDimCoverage(op, sched, LoopDim::l, shape.l)))
    return failure();
  return success();
}

LogicalResult FusedChainOp::verifyRegions() {
  Block &body = getBodyBlock();
  if (body.getNumArguments() != getInputs().size())
    return emitOpError("expected ")
           << getInputs().size() << " block arguments, one per input, got "
           << body.getNumArguments();
  for (auto [i, arg, input] :
       llvm::enumerate(body.getArguments(), getInputs()))
    if (arg.getType() != input.getType())
      return emitOpError("block argument ")
             << i << " has type " << arg.getType() << " but input " << i
             << " has type " << input.getType();
  auto yield = dyn_cast<YieldOp>(body.getTerminator());
  if (!yield)
    return emitOpError("expected the body to end with dsm.yield");
  if (yield.getValues().getTypes() != getResultTypes())
    return yield.emitOpError("yields types that differ from the results of "
                             "the enclosing dsm.fused_chain");

  FailureOr<ChainShape> shape = getChainShape();
  if (failed(shape))
    return emitOpError("body does not hold a ")
           << stringifyChainKind(getKind())
           << " chain of static-N/K contractions";
  if (!getSchedule())
    return success();
  if (auto sched = dyn_cast<ScheduleAttr>(*getSchedule()))
    return verifyScheduleAgainstShape(*this, sched, *shape);
  auto table = cast<ScheduleTableAttr>(*getSchedule());
  if (!ShapedType::isDynamic(shape->m))
    return emitOpError("a schedule_table is for dynamic M; M is ")
           << shape->m;
  for (ScheduleAttr plan : table.getPlans()) {
    // M varies within a bin (tails handle it); the static dimensions must
    // be covered by every plan.
    if (failed(verifyDimCoverage(*this, plan, LoopDim::n, shape->n)) ||
        failed(verifyDimCoverage(*this, plan, LoopDim::k, shape->k)) ||
        failed(verifyDimCoverage(*this, plan, LoopDim::l, shape->l)))
      return failure();
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Buffer views
//===----------------------------------------------------------------------===//

//===----------------------------------------------------------------------===//
// Buffers
//===----------------------------------------------------------------------===//

LogicalResult AllocOp::verify() {
  if (std::optional<int64_t> offset = getOffset(); offset && *offset % 16)
    return emitOpError("offset ")
           << *offset << " must be a multiple of 16 bytes (vector accesses)";
  return success();
}

static LogicalResult verifyPieceView(Operation *op, BufferType buffer,
                                     MemRefType view) {
  if (!view.getLayout().isIdentity())
    return op->emitOpError("a view of a piece is contiguous: expected the "
                           "identity layout");
  if (view.getElementType() != buffer.getElementType())
    return op->emitOpError("view element type ")
           << view.getElementType() << " differs from the buffer's "
           << buffer.getElementType();
  if (view.getShape() != ArrayRef<int64_t>(buffer.getPieceShape()))
    return op->emitOpError("view shape must be the piece one rank holds");
  return success();
}

LogicalResult LocalViewOp::verify() {
  auto view = cast<MemRefType>(getView().getType());
  if (failed(verifyPieceView(*this, getBuffer().getType(), view)))
    return failure();
  Attribute space = view.getMemorySpace();
  auto gpuSpace = dyn_cast_or_null<gpu::AddressSpaceAttr>(space);
  auto intSpace = dyn_cast_or_null<IntegerAttr>(space);
  if (!(gpuSpace && gpuSpace.getValue() == gpu::AddressSpace::Workgroup) &&
      !(intSpace && intSpace.getInt() == 3)) {
    InFlightDiagnostic diag =
        emitOpError("a local view lives in this CTA's shared memory: expected "
                    "#gpu.address_space<workgroup>, got ");
    if (space)
      diag << space;
    else
      diag << "no memory space";
    return diag;
  }
  return success();
}

LogicalResult RemoteViewOp::verify() {
  auto view = cast<MemRefType>(getView().getType());
  if (failed(verifyPieceView(*this, getBuffer().getType(), view)))
    return failure();
  if (!isa_and_nonnull<SharedClusterAttr>(view.getMemorySpace()))
    return emitOpError("a remote view must be in the #dsm.shared_cluster "
                       "memory space");
  return success();
}

//===----------------------------------------------------------------------===//
// Collectives
//===----------------------------------------------------------------------===//

/// The cluster size fixed by an enclosing kernel (`known_cluster_size` on a
/// gpu.func), or 0 when no enclosing op fixes it.
static int64_t getEnclosingClusterSize(Operation *op) {
  for (Operation *p = op->getParentOp(); p; p = p->getParentOp())
    if (auto dims = p->getAttrOfType<DenseI32ArrayAttr>("known_cluster_size")) {
      int64_t n = 1;
      for (int32_t d : dims.asArrayRef())
        n *= d;
      return n;
    }
  return 0;
}

static LogicalResult verifyGroup(Operation *op, int64_t size, int64_t stride) {
  if (size < 1 || size > 16)
    return op->emitOpError("group size ") << size << " is not in [1, 16]";
  if (!llvm::isPowerOf2_64(stride))
    return op->emitOpError("group stride ") << stride
                                            << " must be a power of two";
  int64_t cluster = getEnclosingClusterSize(op);
  if (cluster && size * stride > cluster)
    return op->emitOpError("group of ")
           << size << " ranks with stride " << stride
           << " does not fit the enclosing cluster of " << cluster << " CTAs";
  if (cluster && cluster % (size * stride) != 0)
    return op->emitOpError("groups of ")
           << size << " ranks with stride " << stride
           << " do not tile the enclosing cluster of " << cluster << " CTAs";
  return success();
}

/// Pull-based collectives read peers' sources while writing destinations.
static LogicalResult verifyDistinctBuffers(Operation *op, Value src,
                                           Value dst) {
  if (src == dst)
    return op->emitOpError("source and destination must be distinct "
                           "buffers: peers read the source while this rank "
                           "writes the destination");
  return success();
}

static LogicalResult verifySameElementType(Operation *op, BufferType src,
                                           BufferType dst) {
  if (src.getElementType() != dst.getElementType())
    return op->emitOpError("source and destination element types differ (")
           << src.getElementType() << " vs " << dst.getElementType() << ")";
  if (!isa<FloatType>(src.getElementType()))
    return op->emitOpError("expected a floating-point element type, got ")
           << src.getElementType();
  return success();
}

/// Checks that `big` is `small` scaled by `factor` along `axis`.
static LogicalResult verifyScaledAlong(Operation *op, ArrayRef<int64_t> small,
                                       ArrayRef<int64_t> big, int64_t axis,
                                       int64_t factor, StringRef what) {
  if (axis >= static_cast<int64_t>(small.size()) || small.size() != big.size())
    return op->emitOpError("axis ")
           << axis << " is out of range for rank " << small.size();
  for (auto [i, s, b] : llvm::enumerate(small, big)) {
    int64_t want = static_cast<int64_t>(i) == axis ? s * factor : s;
    if (b != want)
      return op->emitOpError(what)
             << " dimension " << i << " is " << b << ", expected " << want;
  }
  return success();
}

LogicalResult ReduceOp::verify() {
  if (failed(verifyGroup(*this, getGroupSize(), getGroupStride())))
    return failure();
  if (static_cast<bool>(getScratch()) != static_cast<bool>(getBarrier()) ||
      static_cast<bool>(getBarrier()) != static_cast<bool>(getPhase()))
    return emitOpError("push needs a scratch buffer, a barrier and a phase");
  BufferType srcType = getSrc().getType();
  SmallVector<int64_t> src = srcType.getPieceShape();
  int64_t axis = getAxis();
  if (getDst()) {
    if (failed(verifyDistinctBuffers(*this, getSrc(), getDst())) ||
        failed(verifySameElementType(*this, srcType, getDst().getType())))
      return failure();
  } else if (!isPush()) {
    return emitOpError("only a push reduces in place: a pull needs a "
                       "destination");
  } else if (!isa<FloatType>(srcType.getElementType())) {
    return emitOpError("expected a floating-point element type, got ")
           << srcType.getElementType();
  }
  if (getMode() == ReduceMode::all_reduce) {
    if (isPush())
      return emitOpError("only reduce_scatter pushes");
    if (src != getDst().getType().getPieceShape())
      return emitOpError("all_reduce keeps the tile shape");
    return success();
  }
  if (axis < static_cast<int64_t>(src.size()) &&
      src[axis] % getGroupSize() != 0)
    return emitOpError("reduce_scatter along axis ")
           << axis << " of extent " << src[axis] << " is not divisible by "
           << "the group size " << getGroupSize();
  if (getDst() &&
      failed(verifyScaledAlong(*this, getDst().getType().getPieceShape(), src,
                               axis, getGroupSize(), "source")))
    return failure();
  if (!isPush())
    return success();

  // The push: contiguous slices of whole 32-bit words (st.async), and a
  // scratch slot per peer.
  if (getGroupSize() < 2)
    return emitOpError("a push needs a group of at least two ranks");
  if (axis != 0)
    return emitOpError("a push moves contiguous slices: axis must be 0");
  int64_t rowBytes =
      src.back() * srcType.getElementType().getIntOrFloatBitWidth() / 8;
  if (rowBytes % 4)
    return emitOpError("a push moves 32-bit words, but a row is ")
           << rowBytes << " bytes";
  BufferType scratchType = getScratch().getType();
  if (getScratch() == getSrc() || getScratch() == getDst())
    return emitOpError("the scratch buffer must be distinct from the source "
                       "and the destination");
  if (scratchType.getElementType() != srcType.getElementType())
    return emitOpError("scratch and source element types differ (")
           << scratchType.getElementType() << " vs " << srcType.getElementType()
           << ")";
  SmallVector<int64_t> slots(src);
  slots[0] = src[0] / getGroupSize() * (getGroupSize() - 1);
  if (scratchType.getPieceShape() != ArrayRef<int64_t>(slots))
    return emitOpError("the scratch piece must hold group_size - 1 slices "
                       "along axis 0: expected shape ")
           << llvm::interleaved(slots, "x") << ", got "
           << llvm::interleaved(scratchType.getPieceShape(), "x");
  return success();
}

LogicalResult ShuffleOp::verify() {
  if (failed(verifyGroup(*this, getGroupSize(), getGroupStride())))
    return failure();
  if (static_cast<bool>(getBarrier()) != static_cast<bool>(getPhase()))
    return emitOpError("push needs both a barrier and a phase");
  if (getArrived() && !isPush())
    return emitOpError("only a push can follow the caller's cluster arrive: "
                       "a pull's first barrier publishes the sources");
  BufferType dst = getDst().getType();
  if (isInPlace()) {
    // The slot is copied by cp.async.bulk: whole 16-byte units.
    if (!isPush())
      return emitOpError("an in-place shuffle (no source) must push");
    int64_t axis = getAxis();
    SmallVector<int64_t> piece = dst.getPieceShape();
    if (axis >= static_cast<int64_t>(piece.size()) ||
        piece[axis] % getGroupSize() != 0)
      return emitOpError("an in-place shuffle needs the destination's axis ")
             << axis << " divisible by the group size " << getGroupSize();
    int64_t slotBytes = dst.getElementType().getIntOrFloatBitWidth() / 8;
    for (auto [d, extent] : llvm::enumerate(piece))
      slotBytes *=
          static_cast<int64_t>(d) == axis ? extent / getGroupSize() : extent;
    if (axis != 0 || slotBytes % 16 != 0)
      return emitOpError("an in-place shuffle copies contiguous slots of "
                         "16-byte units: axis must be 0 and a slot a "
                         "multiple of 16 bytes");
    return success();
  }
  if (failed(verifyDistinctBuffers(*this, getSrc(), getDst())))
    return failure();
  if (getSrc().getType().getElementType() != dst.getElementType())
    return emitOpError("source and destination element types differ");
  if (isPush()) {
    // st.async moves 4, 8 or 16 bytes: whole 32-bit words of each row.
    BufferType src = getSrc().getType();
    int64_t rowBytes = src.getPieceShape().back() *
                       src.getElementType().getIntOrFloatBitWidth() / 8;
    if (rowBytes % 4)
      return emitOpError("push moves 32-bit words, but a source row is ")
             << rowBytes << " bytes";
  }
  return verifyScaledAlong(*this, getSrc().getType().getPieceShape(),
                           dst.getPieceShape(), getAxis(), getGroupSize(),
                           "destination");
}

LogicalResult MultiplyOp::verify() {
  if (failed(verifyGroup(*this, getGroupSize(), getGroupStride())) ||
      failed(verifyDistinctBuffers(*this, getSrc(), getDst())) ||
      failed(
          verifySameElementType(*this, getSrc().getType(), getDst().getType())))
    return failure();
  if (getGroupSize() != 2)
    return emitOpError("multiply combines the two branches of a gated FFN: "
                       "expected a group of 2, got ")
           << getGroupSize();
  if (getSrc().getType().getPieceShape() != getDst().getType().getPieceShape())
    return emitOpError("multiply keeps the tile shape");
  return success();
}

LogicalResult InterClusterReduceOp::verify() {
  auto dst = cast<MemRefType>(getDst().getType());
  BufferType src = getSrc().getType();
  if (dst.getElementType() != src.getElementType())
    return emitOpError("destination element type ")
           << dst.getElementType() << " differs from the source's "
           << src.getElementType();
  if (static_cast<int64_t>(getOffsets().size()) != dst.getRank())
    return emitOpError("expected ")
           << dst.getRank() << " offsets, one per destination dimension";
  if (dst.getRank() != static_cast<int64_t>(src.getShape().size()))
    return emitOpError("source and destination ranks differ");
  if (isa_and_nonnull<SharedClusterAttr>(dst.getMemorySpace()))
    return emitOpError("the destination must be global memory");
  if (getCombiner() != CombinerKind::add)
    return emitOpError("only add is supported across clusters");
  return success();
}

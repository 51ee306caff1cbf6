//===- KernelPlan.cpp - map fused chains onto the kernel family -*- C++ -*-===//
//
// Part of the FlashFuser project.
//
//===----------------------------------------------------------------------===//

#include "ff/Dialect/DSM/Transforms/KernelPlan.h"
#include "ff/Analysis/CostModel.h"
#include "ff/Analysis/Plan.h"
#include "ff/Dialect/DSM/Utils/Activation.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::dsm;

int64_t KernelPlan::workspaceBytesPerM() const {
  if (!needsWorkspace)
    return 0;
  // One fp32 row of E (one per cluster along n when deterministic) plus
  // one arrival counter per (m tile, owner rank); a tile has at least one
  // row, so per-row sizing covers the counters.
  return numPlanes() * shape.l * 4 + clusterSize() * 4;
}

bool KernelPlan::reduceRows() const {
  return shuffle && clusterK > 1 && ff::splitsGatheredKByRows(bn, clusterK);
}

int64_t KernelPlan::maxM() const {
  // A swapped product's m is the weight's N, whatever the bin.
  return swapAb ? shape.m : maxChainM();
}

int64_t KernelPlan::maxChainM() const {
  if (schedule.hasMBin())
    return schedule.getMHi();
  int64_t m = chainShape().m;
  return ShapedType::isDynamic(m) ? int64_t(1) << 20 : m;
}

bool KernelPlan::epilogueDivides() const {
  auto divides = [](linalg::GenericOp g) {
    return g && llvm::any_of(g.getRegion().front(), [](Operation &op) {
             return isa<arith::DivFOp>(op);
           });
  };
  // firstStages ends with firstEpilogue.
  return divides(lastEpilogue) || llvm::any_of(firstStages, divides);
}

int64_t KernelPlan::swappedMTiles() const { return shape.m / launchTileRows(); }

int64_t KernelPlan::launchGridX() const {
  if (!swapAb)
    return ctasPerMTile();
  // Every weight tile's CTAs of one launch unit of tokens (a cluster's
  // clusterN token tiles), or of all of a static M's.
  int64_t perUnit = swappedMTiles() * clusterK * clusterM * clusterN;
  return swapsDynamicM() ? perUnit : swappedMTiles() * ctasPerMTile();
}

int64_t KernelPlan::gridMTile() const {
  if (!swapAb)
    return launchTileRows();
  return swapsDynamicM() ? bn * clusterN : 0;
}

bool KernelPlan::stagesSwappedStores() const {
  // A swapped tile is C^T in registers: stored element by element, each
  // warp store instruction wrote 2 bytes per lane to four result rows, and
  // the stores' address math was a fifth of the kernel's instructions (S2's
  // gate|up GEMM at M = 300, H200, docs/validation.md, fifty-first
  // session); pairing adjacent lanes' values by shuffles (4-byte stores)
  // helped cast epilogues only. Transposed through shared memory, a warp
  // stores 16 full 32-byte sectors per instruction.
  return swapAb && resultElementType.isBF16() && clusterK == 1;
}

int64_t KernelPlan::minM() const {
  if (swapAb)
    return shape.m;
  if (schedule.hasMBin())
    return schedule.getMLo();
  return ShapedType::isDynamic(shape.m) ? 1 : shape.m;
}

static int64_t alignUp(int64_t v, int64_t a) { return llvm::alignTo(v, a); }

/// Whether `v` is a linalg.fill of a zero constant.
static bool isZeroFill(Value v) {
  auto fill = v.getDefiningOp<linalg::FillOp>();
  if (!fill)
    return false;
  Value scalar = fill.getInputs()[0];
  return matchPattern(scalar, m_AnyZeroFloat()) ||
         matchPattern(scalar, m_Zero());
}

/// Whether `g` is a pure elementwise generic whose scalar body only uses
/// arith/math ops on its inputs (the output block argument is unused).
static bool isRegisterEpilogue(linalg::GenericOp g, std::string &why) {
  if (g.getNumDpsInits() != 1 || g.getNumLoops() != 2 ||
      g.getNumReductionLoops() != 0) {
    why = "epilogue generic must be a 2-d elementwise op with one init";
    return false;
  }
  for (AffineMap m : g.getIndexingMapsArray())
    if (!m.isIdentity()) {
      why = "epilogue generic operands must use identity indexing maps";
      return false;
    }
  Block &body = g.getRegion().front();
  if (!body.getArguments().back().use_empty()) {
    why = "epilogue generic reads its init";
    return false;
  }
  for (Operation &op : body.without_terminator()) {
    if (!isa<arith::ArithDialect, math::MathDialect>(op.getDialect()) ||
        op.getNumRegions() != 0) {
      why = "epilogue generic body holds '" +
            op.getName().getStringRef().str() + "'; only arith/math ops";
      return false;
    }
    // Values from outside the body are cloned into the kernel: only
    // constants can be.
    for (Value v : op.getOperands()) {
      if (v.getParentBlock() == &body)
        continue;
      Operation *def = v.getDefiningOp();
      if (!def || !def->hasTrait<OpTrait::ConstantLike>()) {
        why = "epilogue generic body captures a non-constant value from "
              "outside";
        return false;
      }
    }
  }
  return true;
}

/// The scalar value of an arith.constant, for the activation matcher.
static std::optional<double> scalarConstant(Value v) {
  FloatAttr f;
  if (matchPattern(v, m_Constant(&f)))
    return f.getValueAsDouble();
  return std::nullopt;
}

/// The activation of a two-input epilogue computing act(gate) * up, if the
/// matcher knows it.
static std::optional<ActivationKind> matchGatedActivation(linalg::GenericOp g) {
  Block &body = g.getRegion().front();
  Value gate = body.getArgument(0), up = body.getArgument(1);
  auto strip = [](Value v) {
    while (Operation *def = v.getDefiningOp())
      if (isa<arith::TruncFOp, arith::ExtFOp>(def))
        v = def->getOperand(0);
      else
        break;
    return v;
  };
  Value y = strip(body.getTerminator()->getOperand(0));
  auto mul = y.getDefiningOp<arith::MulFOp>();
  if (!mul)
    return std::nullopt;
  for (auto [a, b] : {std::pair(mul.getLhs(), mul.getRhs()),
                      std::pair(mul.getRhs(), mul.getLhs())})
    if (strip(b) == up)
      return matchScalarActivation(
          a, [&](Value v) { return strip(v) == gate; }, scalarConstant);
  return std::nullopt;
}

/// The manifest's name of the chain's activation (docs/bundle.md), found by
/// what the epilogue stages compute (FFDSMUtils' matcher, shared with
/// --dsm-fuse): the first non-linear stage names it; a gated stage
/// act(gate) * up is named by the gate's activation. The kernel clones the
/// stages whatever they are; a stage the matcher does not know is recorded as
/// "custom", which the runtime's reference declines.
static std::string classifyActivation(ArrayRef<linalg::GenericOp> stages) {
  for (linalg::GenericOp g : stages) {
    std::optional<ActivationKind> kind;
    if (g.getNumDpsInputs() == 1) {
      if (std::optional<ElementwiseActivation> act = matchActivation(g))
        kind = act->kind;
    } else if (g.getNumDpsInputs() == 2) {
      kind = matchGatedActivation(g);
    }
    if (!kind || *kind == ActivationKind::scale)
      return "custom";
    if (isNonLinear(*kind))
      return stringifyActivationKind(*kind).str();
  }
  return "identity";
}

/// The single elementwise user of `v`, or null.
static linalg::GenericOp singleGenericUser(Value v) {
  if (!v.hasOneUse())
    return {};
  return dyn_cast<linalg::GenericOp>(*v.getUsers().begin());
}

/// The layout of the right-hand operand of a linalg.matmul the kernel can
/// read: row-major [K, N] (default maps) or K-major [N, K] (maps
/// (m, k), (n, k), (m, n): PyTorch Linear weights). None otherwise.
static std::optional<bool> rhsKMajor(Operation *op) {
  auto mm = dyn_cast<linalg::MatmulOp>(op);
  if (!mm)
    return std::nullopt;
  MLIRContext *ctx = op->getContext();
  SmallVector<AffineMap> maps = mm.getIndexingMapsArray();
  if (maps == linalg::MatmulOp::getDefaultIndexingMaps(ctx))
    return false;
  AffineExpr m, n, k;
  bindDims(ctx, m, n, k);
  auto map = [&](ArrayRef<AffineExpr> r) {
    return AffineMap::get(3, 0, r, ctx);
  };
  if (maps == SmallVector<AffineMap>{map({m, k}), map({n, k}), map({m, n})})
    return true;
  return std::nullopt;
}

/// Collects the elementwise generics that compute `v` from `leaves` in
/// def-before-use order. Every generic and every leaf must feed only this
/// DAG (single use), so nothing computed in between is dropped.
static bool collectStages(Value v, ArrayRef<Value> leaves,
                          SmallVectorImpl<linalg::GenericOp> &stages,
                          std::string &why) {
  if (llvm::is_contained(leaves, v))
    return true;
  auto g = v.getDefiningOp<linalg::GenericOp>();
  if (!g) {
    why = "the activation must be elementwise generics of the first "
          "matmul results";
    return false;
  }
  if (llvm::is_contained(stages, g))
    return true;
  if (!isRegisterEpilogue(g, why))
    return false;
  for (Value in : g.getDpsInputs()) {
    if (!in.hasOneUse()) {
      why = "a value between the first matmuls and the activation has "
            "other uses";
      return false;
    }
    if (!collectStages(in, leaves, stages, why))
      return false;
  }
  stages.push_back(g);
  return true;
}

/// Block-argument index of `v`, or -1.
static int blockArgIndex(Value v) {
  auto arg = dyn_cast<BlockArgument>(v);
  return arg ? static_cast<int>(arg.getArgNumber()) : -1;
}

/// The chain input `v` reads: a block argument, or a rank-2
/// tensor.collapse_shape of one (conv chains as GEMMs: a row-major tensor
/// collapsed to [rows, cols] is the same memory). Records the 2-d view of a
/// collapsed input in `views`; returns -1 for anything else.
static int resolveInput(Value v, KernelPlan &plan) {
  if (auto collapse = v.getDefiningOp<tensor::CollapseShapeOp>()) {
    int arg = blockArgIndex(collapse.getSrc());
    auto type = cast<RankedTensorType>(collapse.getType());
    if (arg < 0 || type.getRank() != 2)
      return -1;
    SmallVector<int64_t, 2> view(type.getShape());
    for (int64_t &d : view)
      if (ShapedType::isDynamic(d))
        d = -1;
    auto [it, inserted] = plan.inputViews.try_emplace(arg, view);
    return (inserted || it->second == view) ? arg : -1;
  }
  return blockArgIndex(v);
}

/// Matches the left operand of a 3x3, stride 1, pad 1 convolution as
/// --dsm-fuse writes it: `g` = linalg.generic(tensor.pad(x)) with x a chain
/// input [N, H, W, C] padded by one zero pixel on both sides of H and W, and
/// the im2col map
///   (m, k) -> (m floordiv HW, (m mod HW) floordiv W + k floordiv 3C,
///              m mod W + (k mod 3C) floordiv C, k mod C),
/// i.e. k = (3r + s) C + c (tap-major, channel-minor: the order of a
/// [3, 3, C, F] filter collapsed to [9C, F] or, when the matmul reads it
/// K-major, of an [F, 3, 3, C] filter collapsed to [F, 9C]). Records
/// H, W, C in `plan`; returns the chain input, or -1 with `why`.
static int matchIm2col(linalg::GenericOp g, Value filter, bool filterKMajor,
                       KernelPlan &plan, std::string &why) {
  why = "the first matmul reads an im2col generic that is not a 3x3, "
        "stride 1, pad 1 convolution of a chain input";
  if (g.getNumDpsInputs() != 1 || g.getNumDpsInits() != 1 ||
      g.getNumLoops() != 2 || g.getNumReductionLoops() != 0 ||
      !g->getResult(0).hasOneUse())
    return -1;
  Block &body = g.getRegion().front();
  if (body.getOperations().size() != 1 ||
      body.getTerminator()->getOperand(0) != body.getArgument(0))
    return -1;
  auto pad = g.getDpsInputs()[0].getDefiningOp<tensor::PadOp>();
  if (!pad || !pad->hasOneUse())
    return -1;
  int arg = blockArgIndex(pad.getSource());
  auto srcType = cast<RankedTensorType>(pad.getSource().getType());
  auto outType = cast<RankedTensorType>(g->getResult(0).getType());
  Value padValue = pad.getConstantPaddingValue();
  if (arg < 0 || srcType.getRank() != 4 || !padValue ||
      !matchPattern(padValue, m_AnyZeroFloat()) ||
      pad.getStaticLow() != ArrayRef<int64_t>{0, 1, 1, 0} ||
      pad.getStaticHigh() != ArrayRef<int64_t>{0, 1, 1, 0})
    return -1;
  ArrayRef<int64_t> shape = srcType.getShape();
  int64_t h = shape[1], w = shape[2], c = shape[3];
  if (ShapedType::isDynamic(h) || ShapedType::isDynamic(w) ||
      ShapedType::isDynamic(c) || outType.getRank() != 2 ||
      outType.getDimSize(1) != 9 * c)
    return -1;
  MLIRContext *ctx = g.getContext();
  AffineExpr m, k;
  bindDims(ctx, m, k);
  AffineMap im2col = AffineMap::get(
      2, 0,
      {m.floorDiv(h * w), (m % (h * w)).floorDiv(w) + k.floorDiv(3 * c),
       m % w + (k % (3 * c)).floorDiv(c), k % c},
      ctx);
  SmallVector<AffineMap> maps = g.getIndexingMapsArray();
  if (maps[0] != im2col || !maps[1].isIdentity()) {
    why = "the first matmul reads an im2col generic whose indexing map is "
          "not the tap-major, channel-minor 3x3 im2col of its padded input";
    return -1;
  }
  // The filter [3, 3, C, F] collapsed to [9C, F] (HWCF) or [F, 3, 3, C]
  // collapsed to the K-major [F, 9C] (FHWC): either way k is tap k / C,
  // channel k mod C, the order of the map above.
  auto collapse = filter.getDefiningOp<tensor::CollapseShapeOp>();
  auto fType = collapse ? cast<RankedTensorType>(collapse.getSrcType())
                        : RankedTensorType();
  // The matmul reads the collapsed filter row-major (HWCF) or K-major
  // (FHWC); the filter's layout must be the one that reading implies.
  unsigned first = filterKMajor ? 1 : 0;
  SmallVector<ReassociationIndices> groups =
      filterKMajor ? SmallVector<ReassociationIndices>{{0}, {1, 2, 3}}
                   : SmallVector<ReassociationIndices>{{0, 1, 2}, {3}};
  if (!fType || fType.getRank() != 4 ||
      collapse.getReassociationIndices() != groups ||
      fType.getDimSize(first) != 3 || fType.getDimSize(first + 1) != 3 ||
      fType.getDimSize(first + 2) != c) {
    why = "a 3x3 convolution's filter must be a [3, 3, C, F] (HWCF) or "
          "[F, 3, 3, C] (FHWC) chain input collapsed to [9C, F] or [F, 9C]";
    return -1;
  }
  if (c % 64 != 0) {
    why = "3x3 convolutions need C to be a multiple of 64 (one k tile is "
          "64 channels of one tap)";
    return -1;
  }
  plan.convH = h;
  plan.convW = w;
  plan.convC = c;
  why.clear();
  return arg;
}

FailureOr<KernelPlan> mlir::dsm::planKernel(FusedChainOp op, ScheduleAttr sched,
                                            std::string &why, bool fitABox) {
  KernelPlan plan;
  plan.kind = op.getKind();
  plan.schedule = sched;
  FailureOr<ChainShape> shape = op.getChainShape();
  if (failed(shape)) {
    why = "body does not match its chain kind";
    return failure();
  }
  plan.shape = *shape;
  if (plan.kind == ChainKind::chain) {
    why = "chains of three or more GEMMs are not lowered yet";
    return failure();
  }
  if (op->getNumResults() != 1) {
    why = "a fused chain must have exactly one result";
    return failure();
  }

  MLIRContext *ctx = op.getContext();
  Type bf16 = BFloat16Type::get(ctx), f32 = Float32Type::get(ctx);
  for (const ChainGemm &g : plan.shape.gemms) {
    if (!rhsKMajor(g.op)) {
      why = "only linalg.matmul with default indexing maps or a K-major "
            "([N, K]) right-hand operand is lowered";
      return failure();
    }
    auto mm = cast<linalg::MatmulOp>(g.op);
    if (getElementTypeOrSelf(mm.getInputs()[0]) != bf16 ||
        getElementTypeOrSelf(mm.getInputs()[1]) != bf16 ||
        getElementTypeOrSelf(mm.getOutputs()[0]) != f32) {
      why = "only bf16 x bf16 -> f32 matmuls are lowered";
      return failure();
    }
    if (!isZeroFill(mm.getOutputs()[0])) {
      why = "matmul accumulators must start from a zero linalg.fill";
      return failure();
    }
    // Weights (and the first input) must come straight from the chain
    // inputs; the intermediate of an FFN is checked below.
    if (resolveInput(mm.getInputs()[1], plan) < 0) {
      why = "matmul right-hand operands must be chain inputs";
      return failure();
    }
  }

  auto yield = cast<YieldOp>(op.getBodyBlock().getTerminator());
  Value result = yield.getValues()[0];
  // A conv chain expands the [rows, cols] result back to its image shape:
  // same memory, so the kernel writes the 2-d view.
  if (auto expand = result.getDefiningOp<tensor::ExpandShapeOp>()) {
    if (cast<RankedTensorType>(expand.getSrc().getType()).getRank() != 2) {
      why = "only a rank-2 result may be expanded to the chain's result shape";
      return failure();
    }
    result = expand.getSrc();
  }
  plan.resultElementType = getElementTypeOrSelf(result);
  if (plan.resultElementType != bf16 && plan.resultElementType != f32) {
    why = "the chain result must be bf16 or f32";
    return failure();
  }

  auto first = cast<linalg::MatmulOp>(plan.shape.gemms[0].op);
  int a = resolveInput(first.getInputs()[0], plan);
  if (auto im2col = first.getInputs()[0].getDefiningOp<linalg::GenericOp>();
      a < 0 && im2col) {
    a = matchIm2col(im2col, first.getInputs()[1], *rhsKMajor(first), plan, why);
    if (a < 0)
      return failure();
  }
  if (a < 0) {
    why = "the first matmul must read a chain input (or a rank-2 "
          "collapse_shape of one)";
    return failure();
  }
  plan.argA = a;
  plan.argB = resolveInput(first.getInputs()[1], plan);
  plan.bKMajor = *rhsKMajor(first);

  // Resolves the final elementwise stage of GEMM `mm`: either `mm` is
  // yielded directly or one generic maps it to the yielded value.
  auto finalStage = [&](Operation *mm, linalg::GenericOp &epi) -> bool {
    Value v = mm->getResult(0);
    if (v == result)
      return true;
    epi = singleGenericUser(v);
    if (!epi || epi->getResult(0) != result || epi.getNumDpsInputs() != 1) {
      why = "the last matmul must feed the result through at most one "
            "elementwise generic";
      return false;
    }
    return isRegisterEpilogue(epi, why);
  };

  // The first GEMM result(s) (gated kinds: gate and up, which must share
  // A and the weight layout) and the elementwise stages that compute `act`
  // from them in registers, e.g. silu(gate) then mul(., up).
  auto firstStages = [&](linalg::GenericOp act) -> bool {
    plan.firstLeaves.push_back(first->getResult(0));
    if (plan.isGated()) {
      auto up = cast<linalg::MatmulOp>(plan.shape.gemms[1].op);
      if (resolveInput(up.getInputs()[0], plan) != a) {
        why = "gate and up matmuls must share their input";
        return false;
      }
      plan.argB2 = resolveInput(up.getInputs()[1], plan);
      if (*rhsKMajor(up) != plan.bKMajor) {
        why = "gate and up weights must have the same layout";
        return false;
      }
      plan.firstLeaves.push_back(up->getResult(0));
    }
    for (Value leaf : plan.firstLeaves)
      if (!leaf.hasOneUse()) {
        why = "a first matmul result has uses besides the activation";
        return false;
      }
    if (!collectStages(act->getResult(0), plan.firstLeaves, plan.firstStages,
                       why))
      return false;
    for (Value leaf : plan.firstLeaves)
      if (llvm::none_of(plan.firstStages, [&](linalg::GenericOp g) {
            return llvm::is_contained(g.getDpsInputs(), leaf);
          })) {
        why = "gate and up must both feed the activation";
        return false;
      }
    plan.firstEpilogue = act;
    return true;
  };

  switch (plan.kind) {
  case ChainKind::gemm:
    if (!finalStage(first, plan.firstEpilogue))
      return failure();
    break;
  case ChainKind::gated_gemm: {
    // act(A Bg) * (A Bu) is the result: the stages are the epilogue.
    auto act = result.getDefiningOp<linalg::GenericOp>();
    if (!act) {
      why = "a gated GEMM's result must be an elementwise generic of the "
            "gate and up matmuls";
      return failure();
    }
    if (!firstStages(act))
      return failure();
    break;
  }
  case ChainKind::ffn:
  case ChainKind::gated_ffn: {
    auto down =
        cast<linalg::MatmulOp>(plan.shape.gemms[plan.isGated() ? 2 : 1].op);
    auto act = down.getInputs()[0].getDefiningOp<linalg::GenericOp>();
    if (!act || !down.getInputs()[0].hasOneUse() ||
        getElementTypeOrSelf(act->getResult(0)) != bf16) {
      why = "the activation must produce the bf16 left operand of the down "
            "matmul";
      return failure();
    }
    if (!firstStages(act))
      return failure();
    plan.argD = resolveInput(down.getInputs()[1], plan);
    plan.dKMajor = *rhsKMajor(down);
    if (!finalStage(down, plan.lastEpilogue))
      return failure();
    break;
  }
  case ChainKind::chain:
    llvm_unreachable("rejected above");
  }
  if (plan.firstStages.empty() && plan.firstEpilogue)
    plan.firstStages.push_back(plan.firstEpilogue);
  plan.activation = classifyActivation(plan.firstStages);

  // Schedule constraints of the kernel family.
  ArrayRef<int64_t> cl = sched.getCluster(), blk = sched.getBlock(),
                    grid = sched.getGrid();
  // A swapped schedule's cluster, block and grid, in its product's
  // dimensions.
  std::array<int64_t, 4> productCluster, productBlock, productGrid;
  if (sched.getSwapAb()) {
    // A cluster of two along M: the two token tiles share each weight k
    // tile by multicast (the product's A); along N: two weight tiles share
    // each token k tile (the product's B). Along k: a split K, which may
    // also take the two token tiles along M.
    bool gated = plan.kind == ChainKind::gated_gemm;
    if ((plan.kind != ChainKind::gemm && !gated) || plan.convW ||
        plan.inputViews.size() || !plan.bKMajor ||
        (cl != ArrayRef<int64_t>{1, 1, 1, 1} &&
         cl != ArrayRef<int64_t>{2, 1, 1, 1} &&
         cl != ArrayRef<int64_t>{1, 2, 1, 1} &&
         !((cl[0] == 1 || cl[0] == 2) && cl[1] == 1 && cl[2] > 1 &&
           cl[3] == 1))) {
      why = "swapped operands take a plain or gated GEMM with K-major "
            "([N, K]) weights and no cluster, a cluster of 2 along m or n, or "
            "one along k (and 1 or 2 along m)";
      return failure();
    }
    // Gate's and up's weight tiles against one token tile: a gate and an
    // up accumulator of blk_m / 2 fp32 registers per consumer thread.
    if (gated && (cl != ArrayRef<int64_t>{1, 1, 1, 1} || blk[1] == 256 ||
                  blk[0] > ff::kMaxRowBlockWidth)) {
      why = "a swapped gated GEMM takes no cluster, blk_n of 64 or 128 and "
            "blk_m <= " +
            std::to_string(ff::kMaxRowBlockWidth) +
            " (gate and up accumulators per consumer warpgroup)";
      return failure();
    }
    if (blk[1] != 64 && blk[1] != 128 && blk[1] != 256) {
      why = "swapped operands take blk_n of 64, 128 or 256 (the weight's "
            "rows: 64 or 128 per consumer warpgroup)";
      return failure();
    }
    // A 256-row weight tile: two accumulators of blk_m / 2 fp32 registers
    // per consumer thread.
    if (blk[1] == 256 && blk[0] > ff::kMaxRowBlockWidth) {
      why = "swapped operands with blk_n = 256 hold two accumulators per "
            "consumer warpgroup: blk_m <= " +
            std::to_string(ff::kMaxRowBlockWidth);
      return failure();
    }
    // A dynamic M's token tiles are counted at launch.
    if (cl[1] * grid[1] * blk[1] != plan.shape.n ||
        (!ShapedType::isDynamic(plan.shape.m) &&
         cl[0] * grid[0] * blk[0] < plan.shape.m)) {
      why = "swapped operands need N = cls_n * grid_n * blk_n and cls_m * "
            "grid_m * blk_m >= M";
      return failure();
    }
    // The product C^T = B^T A^T: the weight's rows are its m, A's its n.
    plan.swapAb = true;
    std::swap(plan.shape.m, plan.shape.n);
    std::swap(plan.argA, plan.argB);
    productCluster = {cl[1], cl[0], cl[2], cl[3]};
    productBlock = {blk[1], blk[0], blk[2], blk[3]};
    productGrid = {grid[1], grid[0], grid[2], grid[3]};
    cl = productCluster;
    blk = productBlock;
    grid = productGrid;
  }
  plan.bm = blk[0];
  plan.bn = blk[1];
  plan.bk = blk[2];
  plan.bl = plan.isSingleGemm() ? 0 : blk[3];
  plan.stages = sched.getStages();
  // Swapped operands' 256-row weight tiles run on two consumer warpgroups
  // of two 64-row blocks each.
  if (plan.swapAb && plan.bm == 256)
    plan.wgRowBlocks = 2;
  plan.numConsumers = plan.bm / (64 * plan.wgRowBlocks);
  plan.clusterN = cl[1];
  plan.ctasN = cl[1] * grid[1];
  auto dims = sched.getOrder();
  // Three cluster shapes: along n only (FFNs: reduce-scatter of E; a GEMM:
  // A multicast), along l over the whole cluster (the shuffle family:
  // cls_l = cls_n * cls_k, the k groups reducing C before the gather), or
  // for a single GEMM along k alone (split K, one CTA along n per cluster).
  plan.shuffle = !plan.isSingleGemm() && cl[3] > 1 && cl[3] == cl[1] * cl[2];
  // A split K may also multicast A over a pair of n tiles (cls_n = 2: a
  // swapped product's token tiles share each weight k tile).
  bool splitK = plan.isSingleGemm() && cl[2] > 1 &&
                (cl[1] == 1 || cl[1] == 2) && cl[0] == 1 && cl[3] == 1;
  bool gatheredK = plan.shuffle && cl[2] > 1;
  // A GEMM's cluster along m alone: its CTAs share B by multicast.
  bool alongM = plan.isSingleGemm() && cl[0] > 1 && cl[1] == 1 && cl[2] == 1 &&
                cl[3] == 1;
  if ((cl[0] != 1 && !alongM) || (cl[2] != 1 && !splitK && !gatheredK) ||
      (cl[3] != 1 && !plan.shuffle)) {
    why = "only clusters along n (cls_m = cls_k = cls_l = 1), along l over "
          "the cluster (cls_l = cls_n * cls_k, cls_m = 1), or for a single "
          "GEMM along k (and 1 or 2 along n) or m alone are lowered";
    return failure();
  }
  if (alongM) {
    if (plan.isGated() || (cl[0] != 2 && cl[0] != 4)) {
      why = "a GEMM cluster along m takes 2 or 4 CTAs (not gated)";
      return failure();
    }
    plan.clusterM = cl[0];
    plan.bMulticast = true;
  }
  if (grid[2] != 1 || grid[3] != 1) {
    why = "k and l are never split across clusters";
    return failure();
  }
  // Streamed n: n temporal, so one CTA walks every n tile of its m tile and
  // keeps E in registers (KernelPlan::nTiles).
  if (!plan.isSingleGemm() && sched.isSpatial(LoopDim::m) &&
      !sched.isSpatial(LoopDim::n)) {
    if (cl[0] != 1 || cl[2] != 1 || cl[3] != 1 || grid[1] != 1 ||
        sched.isSpatial(LoopDim::k) || sched.isSpatial(LoopDim::l) ||
        dims.size() != 4 || dims[0] != LoopDim::m || dims[1] != LoopDim::n) {
      why = "a streamed-n plan (n temporal) takes a cluster along n only, "
            "grid_n = 1, spatial = [m] and order = [m, n, k, l]";
      return failure();
    }
    why =
        ff::getStreamedTileViolation(plan.isGated(), plan.shape.n, plan.shape.l,
                                     plan.bm, plan.bn, plan.bl, cl[1]);
    if (!why.empty())
      return failure();
    plan.splitColumns = ff::splitsStreamedColumns(plan.bm, plan.bn, plan.bl);
    if (plan.splitColumns)
      plan.numConsumers = 2;
    // Split over a cluster: rank r walks n tiles [r * nTiles, (r + 1) *
    // nTiles) and the cluster reduce-scatters E once at the end.
    plan.nTiles = plan.shape.n / (plan.bn * cl[1]);
  } else if (!sched.isSpatial(LoopDim::m) || !sched.isSpatial(LoopDim::n) ||
             sched.isSpatial(LoopDim::k) != (splitK || gatheredK) ||
             sched.isSpatial(LoopDim::l) != plan.shuffle || dims.size() != 4 ||
             dims[0] != LoopDim::m || dims[1] != LoopDim::n) {
    why = gatheredK ? "expected spatial = [m, n, k, l] and order = [m, n, k, l]"
          : plan.shuffle
              ? "expected spatial = [m, n, l] and order = [m, n, l, k]"
          : splitK ? "expected spatial = [m, n, k] and order = [m, n, k, l]"
                   : "expected spatial = [m, n] and order = [m, n, k, l]";
    return failure();
  }
  if (splitK) {
    // blk_k is each CTA's k slice (the op verifier checks that the
    // cluster covers K); the kernel steps through it 64 at a time, rank r
    // from k tile r * kTiles().
    if (!llvm::is_contained({2, 4, 8}, cl[2])) {
      why = "a split-K GEMM takes clusters of 2, 4 or 8 CTAs along k";
      return failure();
    }
    // Each rank stores whole 8-column groups of the fragments it owns (a
    // swapped token tile may be any multiple of 8).
    if (plan.bn % (8 * cl[2]) != 0) {
      why = "a split-K GEMM's ranks own whole 8-column groups: blk_n a "
            "multiple of 8 * cls_k";
      return failure();
    }
    if (cl[1] > 1 && plan.isGated()) {
      why = "a gated split-K GEMM takes no cluster along n";
      return failure();
    }
    plan.clusterK = cl[2];
    plan.bk = 64;
    // A split-K CTA runs one tile (never persistent): stages past its k
    // steps would stay empty. The model prices a deeper ring lower even
    // so (G7's 3-step slices on 8 stages); held in full, G7's chain ran
    // 1.2 % slower than on 4 stages, cut to its 3 steps as fast (H200,
    // docs/validation.md, sixty-ninth session).
    if (plan.stages > plan.kTiles())
      plan.stages = std::max<int64_t>(plan.kTiles(), 2);
  }
  if (gatheredK) {
    // Each rank of a k group runs K / cls_k of GEMM0 (whole 64-wide tiles,
    // rank r of the group from tile r * kTiles()); the group reduce-scatters
    // the fp32 partials before the activation.
    why = ff::getGatheredSplitKViolation(plan.isGated(), plan.shape.k, plan.bm,
                                         plan.bn, cl[2]);
    if (!why.empty())
      return failure();
    plan.clusterK = cl[2];
    plan.bk = 64;
  }
  // A GEMM kernel, not a convolution, whose cluster (if any) lies along k.
  bool aloneAlongK = plan.isSingleGemm() && !alongM && !plan.convW &&
                     cl[0] == 1 && cl[1] == 1 && cl[3] == 1;
  // One CTA per cluster over all of K (ff::getSoloGemmNTileViolation):
  // 192-wide n tiles, a partial last one.
  bool soloGemm = aloneAlongK && !splitK && cl[2] == 1;
  // A plain split K over a k group alone with K-major weights takes the
  // same widths, sized to the chip's cluster slots (N = 2048 over 30
  // clusters of 4: 128 x 96). Measured on an H200 only with K-major B.
  bool fittedSplitK =
      aloneAlongK && splitK && !plan.isGated() && !plan.swapAb && plan.bKMajor;
  // Swapped operands: the token tile (n) takes any multiple of 8 rows, with
  // or without the cluster that multicasts the weight tile.
  why = ff::getTileViolation(plan.shape.k, plan.bm / plan.wgRowBlocks, plan.bn,
                             plan.bk, soloGemm || fittedSplitK || plan.swapAb);
  if (!why.empty())
    return failure();
  // The kernel's k step is one 128B-swizzled bf16 row (64 elements). A
  // schedule with blk_k = 32 is carried out when K <= 32: one k tile whose
  // box columns past K are zero-filled by TMA, and only the k16 steps that
  // cover K are issued.
  if (plan.bk == 32) {
    plan.bk = 64;
    plan.k16Steps = llvm::divideCeil(plan.shape.k, 16);
  }
  // A consumer releases stage k-1 only after issuing k: with one stage the
  // producer's next load waits for a release that never comes (a kernel
  // built that way hung on an H200).
  if (plan.stages < 2 || plan.stages > 8) {
    why = "stages must be in [2, 8] (the ring releases a stage one k step "
          "late)";
    return failure();
  }
  if (plan.shape.k % 8 != 0) {
    why = "K must be a multiple of 8 (TMA row strides are 16-byte multiples)";
    return failure();
  }
  if (plan.swapAb) {
    // B's rows past M are zero-filled by TMA; the epilogue stores by value.
    plan.partialN =
        plan.swapsDynamicM() || plan.ctasN * plan.bn != plan.shape.n;
  } else if (soloGemm || fittedSplitK) {
    why = ff::getSoloGemmNTileViolation(plan.isGated(), plan.shape.n, plan.bn,
                                        plan.ctasN, plan.bKMajor);
    if (!why.empty())
      return failure();
    plan.partialN = plan.ctasN * plan.bn != plan.shape.n;
  } else if (plan.shape.n % plan.bn != 0 ||
             plan.ctasN * plan.bn * plan.nTiles != plan.shape.n) {
    why = "N must be exactly cls_n * grid_n * blk_n";
    return failure();
  }
  if (plan.isSingleGemm()) {
    // Two fp32 accumulators of 64 x blk_n per consumer thread's warpgroup.
    // A gated split K reduces gate's tile, then up's; each consumer
    // thread holds its quads of gate's slice meanwhile (blk_n of 64 or 128
    // over 2, 4 or 8 ranks: whole 8-column groups per rank).
    if (plan.isGated() && (plan.bn > (soloGemm ? 192 : 128) ||
                           (plan.clusterSize() > 1 && !splitK))) {
      why = "a gated GEMM keeps gate and up accumulators live (blk_n <= 192, "
            "or 128 with a split K) and takes no cluster but a split K";
      return failure();
    }
    if (plan.clusterN != 1 && plan.clusterN != 2) {
      why = "a GEMM kernel takes clusters of 1 or 2 CTAs along n";
      return failure();
    }
    plan.aMulticast = plan.clusterN > 1;
    if (plan.aRowsPerCta() % 8 != 0) {
      why = "multicast A slices must be a multiple of 8 rows";
      return failure();
    }
  } else {
    // Any cluster of up to 16 CTAs: ranks, peers and tile offsets are
    // computed with divisions, and shuffle groups of 3, 6 or 12 CTAs cover
    // N and L of 3 * 2^k (G7: 12 x 64 = 768) with one cluster along n.
    if (plan.clusterN < 1 || plan.clusterN > 16) {
      why = "cls_n must be in [1, 16]";
      return failure();
    }
    why = ff::getLTileViolation(plan.shuffle, plan.shape.l,
                                plan.shuffle ? cl[3] : plan.clusterN, plan.bl);
    if (!why.empty())
      return failure();
    if (plan.shuffle) {
      // Each rank computes its blk_l columns of E in sub-tiles of 128 (or
      // 64) columns, the wgmma n of the second GEMM.
      plan.subL = plan.bl % 128 == 0 ? 128 : 64;
    } else {
      if (plan.bl % plan.clusterN != 0 || (plan.bl / plan.clusterN) % 4 != 0) {
        why = "each rank must own a multiple of 4 columns of an l chunk";
        return failure();
      }
    }
    if (plan.kind == ChainKind::gated_ffn && plan.bn > 128) {
      why = "gated FFNs keep gate and up accumulators live: blk_n <= 128";
      return failure();
    }
    plan.needsWorkspace = grid[1] > 1;
  }

  // 3x3 convolutions: an m tile is R whole rows of one image (R the largest
  // divisor of H with R * W <= blk_m), loaded per k tile as one 4-D box; or
  // blk_m output pixels across rows and images, loaded by one TMA load in
  // im2col mode, where no row fits the box or a GEMM cluster splits A
  // (ff::usesConvImageRows).
  if (plan.convW && plan.bk != 64) {
    why = "3x3 convolutions step k by 64 channels of one filter tap";
    return failure();
  }
  if (plan.convW) {
    // A cluster along m shares B only: each CTA still loads its own A.
    bool gemmCluster = plan.isSingleGemm() && plan.clusterN * plan.clusterK > 1;
    if (ff::usesConvImageRows(plan.convH, plan.convW, plan.bm, gemmCluster))
      plan.convRows = ff::getConvTileImageRows(plan.convH, plan.convW, plan.bm);
    else
      plan.convIm2col = true;
  }

  // Shared-memory layout; every region is 1024-byte aligned (128B swizzle).
  // Gated: gate's and up's weight tiles, B's or (swapped) A's.
  int64_t numB = plan.isGated() && !plan.gatesA() ? 2 : 1;
  plan.bStageBytes = numB * plan.bk * plan.bn * 2;
  plan.aSlotRows = plan.bm;
  if (fitABox && plan.isSingleGemm() && plan.bk == 64 && plan.canFitABox()) {
    int64_t rows = std::min(plan.bm, alignUp(plan.maxM(), 8));
    // The last slot's wgmmas read blk_m - rows rows past it, inside B's
    // ring.
    if ((plan.bm - rows) * 128 <= plan.stages * plan.bStageBytes)
      plan.aSlotRows = rows;
  }
  plan.aStageBytes = plan.aOperands() * plan.aSlotRows * plan.bk * 2;
  int64_t off = 0;
  plan.smemA = off;
  off += plan.stages * plan.aStageBytes;
  plan.smemB = off;
  off += plan.stages * plan.bStageBytes;
  if (plan.stagesSwappedStores()) {
    int64_t warpBytes = plan.numConsumers * 4 * ff::kSwappedStoreBufferBytes;
    plan.smemStores = off;
    plan.storeBuffers = off + 2 * warpBytes <= kMaxDynamicSmemBytes ? 2 : 1;
    off += plan.storeBuffers * warpBytes;
  }
  if (plan.shuffle) {
    // The act(C) slice this rank publishes (smemC) and the gathered slices
    // of the cluster (smemGathered, rank order: 64-column chunks of
    // blk_m x 128 B, so that n step t of the second GEMM is chunk t) lie
    // over the A/B stage rings, dead once every consumer has retired its
    // main loop (a consumer barrier precedes the first write). The D ring
    // follows: the producer streams D while the consumers finish GEMM0 and
    // the exchange. Four D stages where they fit, else two.
    //
    // Split K: each rank publishes its 1 / cls_k of the tile (the slice
    // its k group's reduce-scatter leaves), and the gathered slices are
    // the cluster's n range as before. Under them the fp32 partial tile
    // every rank publishes (smemE, at the base: the slice is written only
    // after the reduce-scatter's second cluster barrier, when no peer reads
    // the partial any more); past them the slice the pull leaves
    // (smemReduced: read while this rank's act(C) slice is written, when a
    // push gather's peers may already write their slots).
    int64_t cTile = plan.bm * plan.bn * 2;
    int64_t sliceBytes = cTile / plan.clusterK;
    plan.smemC = 0;
    plan.smemGathered = sliceBytes;
    int64_t actEnd = sliceBytes + plan.clusterN * cTile;
    // Where the exchange's regions over the ring end: the act(C) ones, or
    // for split K the reduced slice past them.
    int64_t exchangeEnd = actEnd;
    if (plan.clusterK > 1) {
      int64_t partialBytes = plan.bm * plan.bn * 4;
      plan.smemE = 0;
      plan.smemReduced = alignUp(std::max(partialBytes, actEnd), 1024);
      exchangeEnd = plan.smemReduced + partialBytes / plan.clusterK;
    }
    off = std::max(off, exchangeEnd);
    plan.smemD = alignUp(off, 1024);
    plan.dStageBytes = 64 * plan.subL * 2;
    plan.dStages = 4;
    int64_t end = plan.smemD + plan.dStages * plan.dStageBytes + 16;
    if (alignUp(end, 1024) > kMaxDynamicSmemBytes)
      plan.dStages = 2;
    plan.dOwnStages = plan.dStages;
    plan.smemFlag = plan.smemD + plan.dStages * plan.dStageBytes;
    off = plan.smemFlag + 16;
    // Two D stages starve the second GEMM (T4-k768-m4096 spent 23 % of its
    // consumer samples waiting on D): up to two more lie over the main-loop
    // ring past the exchange's regions, filled once the ring is dead.
    int64_t ringEnd = plan.smemB + plan.stages * plan.bStageBytes;
    int64_t late = alignUp(exchangeEnd, 1024);
    int64_t lateSlots = std::min<int64_t>(4 - plan.dStages,
                                          std::max<int64_t>(0, ringEnd - late) /
                                              plan.dStageBytes);
    if (lateSlots > 0) {
      plan.smemDLate = late;
      plan.dStages += lateSlots;
    }
  } else if (plan.clusterK > 1) {
    // Split K: the fp32 tile every rank publishes goes over the stage ring
    // (dead once both consumer warpgroups have retired their main loops: a
    // consumer barrier precedes the first write) where it fits; the slice
    // dsm.reduce leaves in this rank follows, since peers read the tile
    // while the slice is written.
    int64_t partialBytes = plan.bm * plan.bn * 4;
    plan.smemE = 0;
    // A push's scratch slots follow the tile (over the rings where they
    // reach), and the sum lands in the tile.
    // Where they do not fit, the tile goes in two halves of columns, each
    // half's scratch after it.
    for (int64_t parts : {1, 2}) {
      // (A gated tile's two exchanges hold gate's slice whole: no parts.)
      if (parts > 1 && plan.isGated())
        break;
      int64_t part = partialBytes / parts;
      if ((plan.bn / plan.clusterK) % (4 * parts) != 0)
        break;
      plan.pushScratch = alignUp(part, 1024);
      plan.pushSmemBytes =
          alignUp(std::max(off, plan.pushScratch +
                                    part / plan.clusterK * (plan.clusterK - 1)),
                  1024);
      plan.reduceParts = parts;
      if (plan.pushSmemBytes <= kMaxDynamicSmemBytes)
        break;
      plan.pushSmemBytes = 0;
    }
    off = std::max(off, partialBytes);
    plan.smemReduced = alignUp(off, 1024);
    off = plan.smemReduced + plan.bm * (plan.bn / plan.clusterK) * 4;
  } else if (!plan.isSingleGemm()) {
    plan.dStageBytes = plan.bn * plan.bl * 2;
    plan.smemC = off;
    off += plan.bm * plan.bn * 2;
    plan.smemD = off;
    off += 2 * plan.dStageBytes;
    if (plan.clusterN > 1 && plan.streamsN()) {
      // Streamed n split over the cluster: E is reduced once, after the
      // n loop, when the rings, the C tile and the D ring are dead (a
      // consumer barrier precedes the first write). The partial goes at
      // the base, the slice the pull leaves here after it; no push (its
      // peers could write the scratch while this CTA still reads D).
      plan.smemE = 0;
      plan.smemReduced = alignUp(plan.bm * plan.bl * 4, 1024);
      off = std::max(off, plan.smemReduced +
                              plan.bm * (plan.bl / plan.clusterN) * 4);
    } else if (plan.clusterN > 1) {
      // The partial E chunk every rank publishes, and the slice the
      // cluster's dsm.reduce leaves in this rank. The slice goes over the
      // A/B stage rings, dead once the main loop has retired (its entry
      // cluster barrier follows every consumer's last wgmma and every TMA
      // load it waited for); it is appended where the rings are smaller.
      plan.smemE = off;
      off += plan.bm * plan.bl * 4;
      int64_t reducedBytes = plan.bm * (plan.bl / plan.clusterN) * 4;
      // A push needs (cls_n - 1) scratch slices, and the reduced slice only
      // when the workspace reads it (else the sum lands in the partial).
      int64_t scratchBytes = reducedBytes * (plan.clusterN - 1);
      int64_t pushBytes = alignUp(scratchBytes, 1024) +
                          (plan.needsWorkspace ? reducedBytes : 0);
      int64_t pushOff = off;
      if (pushBytes <= plan.smemC - plan.smemA) {
        plan.pushScratch = plan.smemA;
      } else {
        plan.pushScratch = pushOff;
        pushOff += alignUp(pushBytes, 1024);
      }
      plan.pushReduced = plan.pushScratch + alignUp(scratchBytes, 1024);
      plan.pushFlag = pushOff;
      int64_t pushEnd = alignUp(pushOff + 16, 1024);
      if (pushEnd <= kMaxDynamicSmemBytes) {
        plan.pushSmemBytes = pushEnd;
      } else if (!plan.needsWorkspace && (plan.bl / plan.clusterN) % 8 == 0) {
        // Two halves of each chunk in turn, the scratch after the half
        // partial, inside the partial's region: no more shared memory than
        // the pull (the layout is the pull's, set below).
        plan.reduceParts = 2;
        plan.pushScratch = plan.smemE + alignUp(plan.bm * plan.bl * 2, 1024);
      }
      if (reducedBytes <= plan.smemC - plan.smemA) {
        plan.smemReduced = plan.smemA;
      } else {
        plan.smemReduced = off;
        off += alignUp(reducedBytes, 1024);
      }
    }
    plan.smemFlag = off;
    off += 16;
  }
  plan.smemBytes = alignUp(off, 1024);
  if (!plan.isSingleGemm() && plan.reduceParts == 2) {
    plan.pushReduced = plan.smemReduced;
    plan.pushFlag = plan.smemFlag;
    plan.pushSmemBytes = plan.smemBytes;
  }
  if (plan.smemBytes > kMaxDynamicSmemBytes) {
    why = "needs " + std::to_string(plan.smemBytes) +
          " bytes of shared memory; at most " +
          std::to_string(kMaxDynamicSmemBytes);
    return failure();
  }
  return plan;
}

void KernelPlan::useResidentWeights() {
  residentWeights = true;
  ff::ResidentLayout layout =
      ff::getResidentLayout(stages * aStageBytes, kTiles() * bStageBytes,
                            bm * bn * 2, lTiles() * dStageBytes);
  smemA = 0;
  smemB = layout.b;
  smemC = layout.c;
  smemD = layout.d;
  smemFlag = layout.flag;
  smemBytes = layout.bytes;
}

int64_t KernelPlan::haloSlotBytes() const {
  return ff::getConvHaloSlotBytes(convW, haloRowsPerWg());
}

int64_t KernelPlan::haloGemmRows() const {
  if (!isSingleGemm() || isGated() || clusterN * clusterK > 1 || !isConv() ||
      bk != 64)
    return 0;
  return ff::getHaloGemmRows(convH, convW, convC, bm, bn, kMaxDynamicSmemBytes);
}

void KernelPlan::useHaloGemm() {
  int64_t rows = haloGemmRows();
  ff::HaloGemmLayout layout =
      ff::getHaloGemmLayout(convW, rows, bm, bn, kMaxDynamicSmemBytes);
  convRows = numConsumers * rows;
  convHalo = true;
  aStageBytes = layout.haloBytes;
  bStageBytes = layout.tapBytes;
  stages = layout.haloStages;
  tapStages = layout.tapStages;
  smemA = 0;
  smemB = stages * aStageBytes;
  smemBytes = alignUp(smemB + tapStages * bStageBytes, 1024);
}

void KernelPlan::useConvHalo(int64_t ringStages) {
  warpgroupTiles = convHalo = true;
  stages = ringStages;
  aStageBytes = numConsumers * haloSlotBytes();
  useResidentWeights();
}

std::optional<std::pair<int64_t, int64_t>>
mlir::dsm::getConvImageShape(FusedChainOp op) {
  FailureOr<ChainShape> shape = op.getChainShape();
  if (failed(shape) || shape->gemms.empty())
    return std::nullopt;
  auto first = dyn_cast<linalg::MatmulOp>(shape->gemms[0].op);
  if (!first)
    return std::nullopt;
  auto im2col = first.getInputs()[0].getDefiningOp<linalg::GenericOp>();
  std::optional<bool> kMajor = rhsKMajor(first);
  if (!im2col || !kMajor)
    return std::nullopt;
  KernelPlan plan;
  plan.shape = *shape;
  std::string why;
  if (matchIm2col(im2col, first.getInputs()[1], *kMajor, plan, why) < 0)
    return std::nullopt;
  return std::make_pair(plan.convH, plan.convW);
}

bool mlir::dsm::hasKMajorWeights(FusedChainOp op) {
  FailureOr<ChainShape> shape = op.getChainShape();
  return succeeded(shape) && !shape->gemms.empty() &&
         rhsKMajor(shape->gemms[0].op).value_or(false);
}

bool mlir::dsm::isLowerable(FusedChainOp op, ScheduleAttr schedule,
                            std::string *why) {
  std::string reason;
  bool ok = succeeded(planKernel(op, schedule, reason));
  if (why)
    *why = reason;
  return ok;
}

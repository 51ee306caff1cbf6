//===- FuseGemmChains.cpp - GEMM chains into dsm.fused_chain ---*- C++ -*-===//
//
// Part of the FlashFuser project.
//
//===----------------------------------------------------------------------===//
//
// --dsm-fuse. For every block outside existing dsm.fused_chain regions:
//  1. find the GEMMs (contractions with one M, N and K loop, and NHWC/HWCF
//     2-D convolutions);
//  2. for every GEMM, walk back from its LHS through chain links
//     (elementwise ops, row reshapes) to the GEMMs that produce it: one
//     producer gives an FFN candidate, two that share their input and meet
//     in a product give a gated-FFN candidate;
//  3. check legality (element types, static N/K, sizes, intermediates used
//     only inside the chain) and claim candidates in program order, so that a
//     longer chain is cut into pairs;
//  4. pull in the single-use epilogue and init producers of each chain, clone
//     the chain into a dsm.fused_chain (convs become matmuls on [N·H·W, C],
//     bodies with reshapes are flattened to 2-D), rewire the uses and erase
//     the originals.
// See docs/fuse.md.
//
//===----------------------------------------------------------------------===//

#include "ff/Dialect/DSM/IR/DSMOps.h"
#include "ff/Dialect/DSM/Transforms/Passes.h"
#include "ff/Dialect/DSM/Utils/Activation.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/CSE.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::dsm {
#define GEN_PASS_DEF_DSMFUSEGEMMCHAINS
#include "ff/Dialect/DSM/Transforms/Passes.h.inc"
} // namespace mlir::dsm

using namespace mlir;
using namespace mlir::dsm;

namespace {

//===----------------------------------------------------------------------===//
// GEMM recognition
//===----------------------------------------------------------------------===//

/// A contraction seen as one GEMM C[b, M, N] = A[b, M, K] · B[b, K, N].
struct Gemm {
  Operation *op = nullptr;
  /// The operand that carries M and K, and the one that carries K and N.
  OpOperand *lhs = nullptr, *rhs = nullptr;
  int64_t batch = 1, m = 0, n = 0, k = 0;
  /// Program order within the block.
  unsigned order = 0;
  /// Why the GEMM cannot be fused at all; empty when it can.
  std::string illegal;

  // Convolutions (linalg.conv_2d_nhwc_hwcf / _fhwc), as GEMMs with
  // M = N·OH·OW, N = F, K = KH·KW·C. An FHWC filter [F, KH, KW, C] is the
  // K-major [F, K] matrix (PyTorch's OIHW filter in channels_last memory).
  bool isConv = false;
  bool filterFhwc = false;
  int64_t kh = 1, kw = 1, strideH = 1, strideW = 1, dilationH = 1,
          dilationW = 1;
  bool isPointwiseConv() const {
    return isConv && kh == 1 && kw == 1 && strideH == 1 && strideW == 1;
  }
};

bool isSupportedOperandType(Type t) { return t.isF16() || t.isBF16(); }

bool isSupportedResultType(Type t) {
  return t.isF16() || t.isBF16() || t.isF32();
}

std::string typeString(Type t) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << t;
  return s;
}

/// Checks what every GEMM needs: f16/bf16 operands, a f16/bf16/f32 result,
/// static N and K, and sizes worth fusing.
std::string checkGemmLegality(const Gemm &g, int64_t minDim) {
  Type a = getElementTypeOrSelf(g.lhs->get());
  Type b = getElementTypeOrSelf(g.rhs->get());
  Type c = getElementTypeOrSelf(g.op->getResult(0));
  if (!isSupportedOperandType(a) || a != b || !isSupportedResultType(c))
    return "unsupported element types " + typeString(a) + " x " +
           typeString(b) + " -> " + typeString(c) +
           " (supported: f16 or bf16 operands, f16/bf16/f32 result)";
  if (ShapedType::isDynamic(g.n) || ShapedType::isDynamic(g.k) ||
      ShapedType::isDynamic(g.batch))
    return "dynamic N or K (only M may be dynamic)";
  for (auto [name, extent] : {std::pair<StringRef, int64_t>{"N", g.n},
                              std::pair<StringRef, int64_t>{"K", g.k}}) {
    if (extent < minDim)
      return (name + " = " + Twine(extent) + " is below min-dim = " +
              Twine(minDim) + " (too small to benefit)")
          .str();
    if (extent % 8 != 0)
      return (name + " = " + Twine(extent) +
              " is not a multiple of 8 (rows must be 16-byte aligned)")
          .str();
  }
  return "";
}

/// The 2-D convolutions the pass reads as GEMMs.
bool isConvOp(Operation *op) {
  return isa<linalg::Conv2DNhwcHwcfOp, linalg::Conv2DNhwcFhwcOp>(op);
}

std::optional<Gemm> matchConv(linalg::LinalgOp conv) {
  Gemm g;
  g.filterFhwc = isa<linalg::Conv2DNhwcFhwcOp>(conv);
  g.op = conv;
  g.isConv = true;
  g.lhs = conv.getDpsInputOperand(0);
  g.rhs = conv.getDpsInputOperand(1);
  auto input = dyn_cast<RankedTensorType>(g.lhs->get().getType());
  auto filter = dyn_cast<RankedTensorType>(g.rhs->get().getType());
  auto output = dyn_cast<RankedTensorType>(conv->getResult(0).getType());
  if (!input || !filter || !output)
    return std::nullopt;
  // Absent strides or dilations are the linalg default, 1 (a generic op
  // may lack them; the typed accessors are per op class).
  auto pair = [&](StringRef name) -> std::optional<SmallVector<int64_t, 2>> {
    auto attr = conv->getAttrOfType<DenseIntElementsAttr>(name);
    if (!attr)
      return SmallVector<int64_t, 2>{1, 1};
    if (attr.getNumElements() != 2)
      return std::nullopt;
    SmallVector<int64_t, 2> values;
    for (const APInt &v : attr.getValues<APInt>())
      values.push_back(v.getSExtValue());
    return values;
  };
  std::optional<SmallVector<int64_t, 2>> strides = pair("strides");
  std::optional<SmallVector<int64_t, 2>> dilations = pair("dilations");
  if (!strides || !dilations)
    return std::nullopt;
  g.strideH = (*strides)[0];
  g.strideW = (*strides)[1];
  g.dilationH = (*dilations)[0];
  g.dilationW = (*dilations)[1];
  // HWCF [KH, KW, C, F] or FHWC [F, KH, KW, C].
  unsigned first = g.filterFhwc ? 1 : 0;
  g.kh = filter.getDimSize(first);
  g.kw = filter.getDimSize(first + 1);
  int64_t c = filter.getDimSize(first + 2);
  g.n = filter.getDimSize(g.filterFhwc ? 0 : 3);
  g.k = ShapedType::isDynamic(g.kh) || ShapedType::isDynamic(g.kw) ||
                ShapedType::isDynamic(c)
            ? ShapedType::kDynamic
            : g.kh * g.kw * c;
  int64_t batch = output.getDimSize(0), oh = output.getDimSize(1),
          ow = output.getDimSize(2);
  if (!filter.hasStaticShape() || ShapedType::isDynamic(oh) ||
      ShapedType::isDynamic(ow) || ShapedType::isDynamic(input.getDimSize(1)) ||
      ShapedType::isDynamic(input.getDimSize(2))) {
    g.illegal = "dynamic convolution window or image size (only the batch "
                "may be dynamic)";
    return g;
  }
  g.m = ShapedType::isDynamic(batch) ? ShapedType::kDynamic : batch * oh * ow;
  return g;
}

/// Returns the GEMM view of `op`, or std::nullopt when `op` is no GEMM. A GEMM
/// whose form the pass cannot fuse comes back with `illegal` set.
std::optional<Gemm> matchGemm(Operation *op) {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  if (!linalgOp)
    return std::nullopt;
  if (!linalgOp.hasPureTensorSemantics()) {
    // Report GEMMs on buffers, which the pass cannot move into a region.
    if (!isConvOp(op) && (linalgOp.getNumDpsInputs() != 2 ||
                          !linalg::isaContractionOpInterface(linalgOp)))
      return std::nullopt;
    Gemm g;
    g.op = op;
    g.lhs = linalgOp.getDpsInputOperand(0);
    g.rhs = linalgOp.getDpsInputOperand(1);
    g.illegal = "operates on buffers (run --dsm-fuse before bufferization)";
    return g;
  }
  if (linalgOp->getNumResults() != 1)
    return std::nullopt;
  if (isConvOp(op))
    return matchConv(linalgOp);
  if (linalgOp.getNumDpsInputs() != 2 ||
      !linalg::isaContractionOpInterface(linalgOp))
    return std::nullopt;
  FailureOr<linalg::ContractionDimensions> dims =
      linalg::inferContractionDims(linalgOp);
  if (failed(dims))
    return std::nullopt;

  Gemm g;
  g.op = op;
  g.lhs = linalgOp.getDpsInputOperand(0);
  g.rhs = linalgOp.getDpsInputOperand(1);
  if (dims->m.size() != 1 || dims->n.size() != 1 || dims->k.size() != 1 ||
      dims->batch.size() > 1) {
    g.illegal = "contraction with several (or no) M, N or K loops";
    return g;
  }
  unsigned m = dims->m[0], n = dims->n[0], k = dims->k[0];
  if (!linalgOp.getMatchingIndexingMap(g.lhs).isFunctionOfDim(m))
    std::swap(g.lhs, g.rhs);
  SmallVector<int64_t> ranges = linalgOp.getStaticLoopRanges();
  g.m = ranges[m];
  g.n = ranges[n];
  g.k = ranges[k];
  g.batch = dims->batch.empty() ? 1 : ranges[dims->batch[0]];

  // The intermediate of a chain flows in as the LHS and out as the result:
  // both must be row-major [b, M, K] / [b, M, N]. The weights may be [K, N]
  // or [N, K] (PyTorch Linear).
  MLIRContext *ctx = op->getContext();
  auto dimExprs = [&](ArrayRef<unsigned> loops) {
    SmallVector<AffineExpr> exprs;
    for (unsigned d : dims->batch)
      exprs.push_back(getAffineDimExpr(d, ctx));
    for (unsigned d : loops)
      exprs.push_back(getAffineDimExpr(d, ctx));
    return exprs;
  };
  auto hasResults = [](AffineMap map, ArrayRef<AffineExpr> exprs) {
    return map.getResults() == exprs;
  };
  AffineMap lhsMap = linalgOp.getMatchingIndexingMap(g.lhs);
  AffineMap rhsMap = linalgOp.getMatchingIndexingMap(g.rhs);
  AffineMap outMap =
      linalgOp.getMatchingIndexingMap(linalgOp.getDpsInitOperand(0));
  if (!hasResults(lhsMap, dimExprs({m, k})))
    g.illegal = "LHS is not indexed row-major as [M, K]";
  else if (!hasResults(outMap, dimExprs({m, n})))
    g.illegal = "result is not indexed row-major as [M, N]";
  else if (!hasResults(rhsMap, dimExprs({k, n})) &&
           !hasResults(rhsMap, dimExprs({n, k})))
    g.illegal = "RHS is indexed neither as [K, N] nor as [N, K]";
  return g;
}

bool isRematerializable(Operation *op);

/// An elementwise op that computes on its operands (fills do not).
bool isElementwise(Operation *op) {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  return linalgOp && linalgOp->getNumResults() == 1 &&
         !isRematerializable(op) && isElementwiseLinalgOp(linalgOp);
}

/// A tensor.expand_shape or tensor.collapse_shape that only splits or merges
/// the leading (row) dimensions and keeps the innermost one, as torch-mlir
/// emits around each 2-D matmul of a [B, S, H] model. Such a reshape keeps
/// the rows of the intermediate in order, so a chain may pass through it.
bool isRowReshape(Operation *op) {
  SmallVector<ReassociationIndices> groups;
  if (auto collapse = dyn_cast<tensor::CollapseShapeOp>(op))
    groups = collapse.getReassociationIndices();
  else if (auto expand = dyn_cast<tensor::ExpandShapeOp>(op))
    groups = expand.getReassociationIndices();
  else
    return false;
  return groups.size() >= 2 && groups.back().size() == 1;
}

/// The ops a chain passes through between and after its GEMMs.
bool isChainLink(Operation *op) {
  return isElementwise(op) || isRowReshape(op);
}

/// The operands of a chain link whose values it reads: the source of a
/// reshape, the inputs of an elementwise op and the inits its body reads.
SmallVector<OpOperand *> getReadOperands(Operation *op) {
  if (isRowReshape(op))
    return {&op->getOpOperand(0)};
  auto linalgOp = cast<linalg::LinalgOp>(op);
  SmallVector<OpOperand *> read;
  for (OpOperand &operand : op->getOpOperands())
    if (linalgOp.isDpsInput(&operand) ||
        linalgOp.payloadUsesValueFromOperand(&operand))
      read.push_back(&operand);
  return read;
}

/// Returns true if `operand` of the chain link `op` takes the chain's value
/// element for element (a reshape, or an identity indexing map).
bool readsInPlace(Operation *op, OpOperand *operand) {
  if (isRowReshape(op))
    return true;
  return cast<linalg::LinalgOp>(op)
      .getMatchingIndexingMap(operand)
      .isIdentity();
}

/// Cheap producers that are cloned into a chain's body instead of becoming
/// inputs: constants, empty tensors, fills and dims.
bool isRematerializable(Operation *op) {
  // Scalars and splats only: a dense weight constant is an input.
  if (auto cst = dyn_cast<arith::ConstantOp>(op)) {
    if (!isa<ShapedType>(cst.getType()))
      return true;
    auto dense = dyn_cast<DenseElementsAttr>(cst.getValue());
    return dense && dense.isSplat();
  }
  if (isa<tensor::EmptyOp, tensor::DimOp, linalg::FillOp>(op))
    return true;
  if (auto generic = dyn_cast<linalg::GenericOp>(op))
    return generic.hasPureTensorSemantics() &&
           linalg::isaFillOpInterface(generic).has_value();
  return false;
}

//===----------------------------------------------------------------------===//
// Chains
//===----------------------------------------------------------------------===//

/// Whether elementwise `op` yields a product (up to float casts): how the
/// gate and up branches of a gated form meet.
static bool isProduct(Operation *op) {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  if (!linalgOp)
    return false;
  Value y = linalgOp.getBlock()->getTerminator()->getOperand(0);
  while (Operation *def = y.getDefiningOp()) {
    if (!isa<arith::ExtFOp, arith::TruncFOp>(def))
      break;
    y = def->getOperand(0);
  }
  return y.getDefiningOp<arith::MulFOp>() != nullptr;
}

struct Chain {
  ChainKind kind = ChainKind::gemm;
  /// In body order: {g1, g2}, {gate, up, down}, {gemm} or, for a gated
  /// pair (gated_gemm), the two GEMMs in program order.
  SmallVector<Gemm *> gemms;
  /// Chain links (elementwise ops, row reshapes) between the GEMMs, in
  /// program order; for a gated pair, from the GEMMs to their product
  /// (the last).
  SmallVector<Operation *> between;
  /// Chain links after the last GEMM, in program order.
  SmallVector<Operation *> epilogue;
  /// A tensor.pad of the first conv's input, used only by it.
  Operation *pad = nullptr;
  /// Elementwise producers of GEMM inits used only there, such as the bias
  /// broadcast that torch-mlir's addmm accumulates onto, by GEMM.
  DenseMap<Operation *, Operation *> initProducers;
  /// Why the candidate cannot be fused; empty when it can.
  std::string illegal;

  Gemm *last() const { return gemms.back(); }
  /// The op whose result the epilogue continues from: the last GEMM, or a
  /// gated pair's product.
  Operation *resultOp() const {
    return kind == ChainKind::gated_gemm ? between.back() : last()->op;
  }
  unsigned firstOrder() const {
    unsigned o = ~0u;
    for (Gemm *g : gemms)
      o = std::min(o, g->order);
    return o;
  }
};

class BlockFuser {
public:
  BlockFuser(Block &block, int64_t minDim, bool fuseSingleGemms)
      : block(block), minDim(minDim), fuseSingleGemms(fuseSingleGemms) {}

  /// Finds and rewrites the chains; returns failure on an internal error.
  LogicalResult run();
  /// GEMMs left alone and why, in program order.
  const SmallVector<std::pair<Operation *, std::string>> &getUnfused() const {
    return unfused;
  }

private:
  void collectGemms();
  std::optional<Chain> analyzeConsumer(Gemm &down);
  std::optional<Chain> matchGatedPair(Gemm &a, Gemm &b);
  void addReason(Operation *gemm, const std::string &reason);
  void claim(Chain &chain);
  void extendEpilogue(Chain &chain);
  LogicalResult rewrite(Chain &chain);

  Block &block;
  int64_t minDim;
  bool fuseSingleGemms;

  DenseMap<Operation *, unsigned> order;
  std::vector<Gemm> gemms;
  DenseMap<Operation *, Gemm *> gemmOf;
  llvm::MapVector<Operation *, SmallVector<std::string>> reasons;
  DenseSet<Operation *> claimed;
  /// The last GEMM of every claimed chain (to explain cuts).
  DenseSet<Operation *> chainEnds;
  SmallVector<std::pair<Operation *, std::string>> unfused;
};

void BlockFuser::addReason(Operation *gemm, const std::string &reason) {
  reasons[gemm].push_back(reason);
}

void BlockFuser::collectGemms() {
  unsigned i = 0;
  for (Operation &op : block)
    order[&op] = i++;
  for (Operation &op : block) {
    std::optional<Gemm> g = matchGemm(&op);
    if (!g)
      continue;
    g->order = order[&op];
    if (g->illegal.empty())
      g->illegal = checkGemmLegality(*g, minDim);
    gemms.push_back(std::move(*g));
  }
  for (Gemm &g : gemms)
    gemmOf[g.op] = &g;
}

/// Walks back from the LHS of `down` through chain links to the GEMMs that
/// produce it and builds the candidate chain ending at `down`.
std::optional<Chain> BlockFuser::analyzeConsumer(Gemm &down) {
  // Backward slice through the chain links of this block.
  SetVector<Operation *> slice;
  SetVector<Operation *> leaves;
  SmallVector<Value> work{down.lhs->get()};
  DenseSet<Value> seen;
  while (!work.empty()) {
    Value v = work.pop_back_val();
    if (!seen.insert(v).second)
      continue;
    Operation *def = v.getDefiningOp();
    if (!def || def->getBlock() != &block)
      continue;
    if (gemmOf.count(def)) {
      leaves.insert(def);
      continue;
    }
    if (!isChainLink(def))
      continue;
    slice.insert(def);
    for (OpOperand *operand : getReadOperands(def))
      work.push_back(operand->get());
  }

  if (leaves.empty()) {
    // Explain a GEMM (or fused chain) hidden behind a non-elementwise op.
    SmallVector<std::pair<Value, Operation *>> bfs{{down.lhs->get(), nullptr}};
    DenseSet<Value> visited;
    for (unsigned i = 0; i < bfs.size() && i < 64; ++i) {
      auto [v, blocker] = bfs[i];
      if (!visited.insert(v).second)
        continue;
      Operation *def = v.getDefiningOp();
      if (!def || def->getBlock() != &block)
        continue;
      if (isa<FusedChainOp>(def)) {
        addReason(down.op, "its LHS comes from a dsm.fused_chain; chains are "
                           "cut after two GEMMs (plus the gated form), which "
                           "is what the lowering supports");
        return std::nullopt;
      }
      if (gemmOf.count(def) && blocker) {
        std::string reason = "'" + blocker->getName().getStringRef().str() +
                             "' between this GEMM and another is not "
                             "elementwise";
        addReason(down.op, reason);
        addReason(def, reason);
        return std::nullopt;
      }
      if (gemmOf.count(def))
        continue;
      Operation *nextBlocker = blocker;
      if (!nextBlocker && !isChainLink(def))
        nextBlocker = def;
      for (Value operand : def->getOperands())
        bfs.push_back({operand, nextBlocker});
    }
    return std::nullopt;
  }

  // Keep the slice ops that depend on a producer GEMM (the others compute
  // external operands such as broadcast biases) and note which producers each
  // depends on.
  SmallVector<Operation *> leafOps = leaves.takeVector();
  llvm::sort(leafOps,
             [&](Operation *a, Operation *b) { return order[a] < order[b]; });
  SmallVector<Operation *> sliceOps = slice.takeVector();
  llvm::sort(sliceOps,
             [&](Operation *a, Operation *b) { return order[a] < order[b]; });
  DenseMap<Operation *, unsigned> deps; // bit i: depends on leafOps[i]
  for (auto [i, leaf] : llvm::enumerate(leafOps))
    deps[leaf] = 1u << std::min<size_t>(i, 31);
  Chain chain;
  for (Operation *op : sliceOps) {
    unsigned mask = 0;
    for (OpOperand *operand : getReadOperands(op)) {
      Operation *def = operand->get().getDefiningOp();
      auto it = def ? deps.find(def) : deps.end();
      if (it == deps.end())
        continue;
      mask |= it->second;
      if (!readsInPlace(op, operand))
        chain.illegal = "'" + op->getName().getStringRef().str() +
                        "' between the GEMMs broadcasts or transposes the "
                        "intermediate";
    }
    if (mask) {
      deps[op] = mask;
      chain.between.push_back(op);
    }
  }

  // Producers in program order; bit i of `deps` stands for producers[i].
  SmallVector<Gemm *> producers;
  for (Operation *leaf : leafOps)
    producers.push_back(gemmOf[leaf]);

  auto fail = [&](const std::string &reason) -> std::optional<Chain> {
    if (chain.illegal.empty())
      chain.illegal = reason;
    chain.gemms = producers;
    chain.gemms.push_back(&down);
    return chain;
  };

  if (producers.size() == 1) {
    chain.kind = ChainKind::ffn;
    chain.gemms = {producers[0], &down};
    if (down.isConv && !down.isPointwiseConv())
      return fail("the second convolution is not 1x1 with stride 1 (it would "
                  "need a halo of the intermediate)");
    if (producers[0]->batch != down.batch)
      return fail("the GEMMs have different batch sizes");
  } else if (producers.size() == 2) {
    chain.kind = ChainKind::gated_ffn;
    Gemm *a = producers[0], *b = producers[1];
    if (a->isConv || b->isConv || down.isConv)
      return fail("gated chains of convolutions are not supported");
    if (a->lhs->get() != b->lhs->get() || a->n != b->n || a->k != b->k ||
        a->batch != b->batch)
      return fail("the two GEMMs feeding this GEMM do not share their input "
                  "and shape (gated FFN form)");
    // The first op that sees both branches must be their product.
    Operation *merge = nullptr;
    for (Operation *op : chain.between)
      if (deps[op] == 3u) {
        merge = op;
        break;
      }
    if (!merge || !isProduct(merge))
      return fail("the two GEMMs feeding this GEMM are not combined by an "
                  "elementwise product");
    // The gate is the branch with a non-linear activation; the earlier GEMM
    // when both or neither have one.
    unsigned activated = 0;
    for (Operation *op : chain.between) {
      unsigned mask = deps[op];
      if (mask != 1u && mask != 2u)
        continue;
      auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
      if (!linalgOp)
        continue;
      std::optional<ElementwiseActivation> act = matchActivation(linalgOp);
      if (act && isNonLinear(act->kind))
        activated |= mask;
    }
    Gemm *gate = a, *up = b;
    if (activated == 2u)
      std::swap(gate, up);
    chain.gemms = {gate, up, &down};
  } else {
    return fail(std::to_string(producers.size()) +
                " GEMMs feed this GEMM; only the gated form (two) is "
                "supported");
  }

  // Legality of every GEMM of the chain.
  for (Gemm *g : chain.gemms)
    if (!g->illegal.empty())
      return fail(g->illegal);

  // Intermediates are used only inside the chain, and only as data: the
  // weights of every GEMM come from outside. Checked in a fixed order so that
  // the remark is deterministic.
  SmallVector<Operation *> insideOps;
  for (Gemm *g : chain.gemms)
    insideOps.push_back(g->op);
  llvm::append_range(insideOps, chain.between);
  DenseSet<Operation *> inside(insideOps.begin(), insideOps.end());
  for (Gemm *g : chain.gemms)
    if (Operation *def = g->rhs->get().getDefiningOp();
        def && inside.contains(def))
      return fail("the intermediate feeds the weights operand of a GEMM");
  for (Operation *op : insideOps) {
    if (op == down.op)
      continue;
    for (Operation *user : op->getUsers())
      if (!inside.contains(user))
        return fail("an intermediate escapes the chain (used by '" +
                    user->getName().getStringRef().str() + "')");
  }
  return chain;
}

/// A lone gated pair (--dsm-fuse=fuse-single-gemms): GEMMs `a` and `b`, in
/// program order, reading the same LHS with equal shapes, whose results
/// meet first in an elementwise product through chain links that nothing
/// else reads. The pair and those links form a gated_gemm chain, e.g. the
/// act(x wg) * (x wu) half of a SwiGLU whose down projection is elsewhere.
std::optional<Chain> BlockFuser::matchGatedPair(Gemm &a, Gemm &b) {
  if (a.isConv || b.isConv || a.lhs->get() != b.lhs->get() || a.n != b.n ||
      a.k != b.k || a.batch != b.batch)
    return std::nullopt;
  // Bit 1: depends on a, bit 2: on b.
  DenseMap<Operation *, unsigned> deps{{a.op, 1u}, {b.op, 2u}};
  Chain chain;
  chain.kind = ChainKind::gated_gemm;
  chain.gemms = {&a, &b};
  for (Operation &op :
       llvm::make_range(std::next(a.op->getIterator()), block.end())) {
    if (&op == b.op || gemmOf.count(&op) || claimed.contains(&op) ||
        !isChainLink(&op))
      continue;
    unsigned mask = 0;
    for (OpOperand *operand : getReadOperands(&op)) {
      Operation *def = operand->get().getDefiningOp();
      auto it = def ? deps.find(def) : deps.end();
      if (it == deps.end())
        continue;
      if (!readsInPlace(&op, operand))
        return std::nullopt;
      mask |= it->second;
    }
    if (!mask)
      continue;
    deps[&op] = mask;
    chain.between.push_back(&op);
    if (mask == 3u)
      break;
  }
  if (chain.between.empty() || deps[chain.between.back()] != 3u ||
      !isProduct(chain.between.back()))
    return std::nullopt;
  // Everything but the product must feed only the chain's links.
  DenseSet<Operation *> links(chain.between.begin(), chain.between.end());
  SmallVector<Operation *> inner{a.op, b.op};
  inner.append(chain.between.begin(), chain.between.end() - 1);
  for (Operation *op : inner)
    for (Operation *user : op->getUsers())
      if (!links.contains(user))
        return std::nullopt;
  return chain;
}

void BlockFuser::claim(Chain &chain) {
  for (Gemm *g : chain.gemms)
    claimed.insert(g->op);
  for (Operation *op : chain.between)
    claimed.insert(op);
  chainEnds.insert(chain.last()->op);
}

/// Pulls in the chain links that consume the chain's result while it has one
/// user, the elementwise producers of GEMM inits used only there, and the
/// tensor.pad of a first conv.
void BlockFuser::extendEpilogue(Chain &chain) {
  Value result = chain.resultOp()->getResult(0);
  while (result.hasOneUse()) {
    OpOperand &use = *result.getUses().begin();
    Operation *user = use.getOwner();
    if (user->getBlock() != &block || claimed.contains(user) ||
        gemmOf.count(user) || !isChainLink(user))
      break;
    if (!llvm::is_contained(getReadOperands(user), &use) ||
        !readsInPlace(user, &use))
      break;
    chain.epilogue.push_back(user);
    claimed.insert(user);
    result = user->getResult(0);
  }

  for (Gemm *g : chain.gemms) {
    Value init = cast<DestinationStyleOpInterface>(g->op).getDpsInits()[0];
    Operation *def = init.getDefiningOp();
    if (def && def->getBlock() == &block && def->hasOneUse() &&
        !claimed.contains(def) && isElementwise(def)) {
      chain.initProducers[g->op] = def;
      claimed.insert(def);
    }
  }

  Gemm *first = chain.gemms.front();
  if (first->isConv)
    if (auto pad = first->lhs->get().getDefiningOp<tensor::PadOp>())
      if (pad->getBlock() == &block && pad->hasOneUse())
        chain.pad = pad;
}

//===----------------------------------------------------------------------===//
// Building the dsm.fused_chain
//===----------------------------------------------------------------------===//

/// Clones a chain into the body of a new dsm.fused_chain.
class BodyBuilder {
public:
  explicit BodyBuilder(MLIRContext *ctx) : body(new Block), builder(ctx) {
    builder.setInsertionPointToStart(body);
  }
  ~BodyBuilder() { delete body; }

  /// The value standing for `v` in the body: a clone, a rematerialised cheap
  /// producer, or a new block argument.
  Value resolve(Value v);
  /// Clones `op` after resolving its operands and the values its regions
  /// capture.
  void cloneOp(Operation *op);
  /// Emits `conv` as a matmul on [N·OH·OW, KH·KW·C] x [KH·KW·C, F].
  void emitConvAsMatmul(const Gemm &conv);

  Block *release() {
    Block *b = body;
    body = nullptr;
    return b;
  }

  Block *body;
  OpBuilder builder;
  IRMapping mapping;
  SmallVector<Value> inputs;
};

Value BodyBuilder::resolve(Value v) {
  if (Value mapped = mapping.lookupOrNull(v))
    return mapped;
  Operation *def = v.getDefiningOp();
  if (def && isRematerializable(def)) {
    cloneOp(def);
    return mapping.lookup(v);
  }
  BlockArgument arg = body->addArgument(v.getType(), v.getLoc());
  inputs.push_back(v);
  mapping.map(v, arg);
  return arg;
}

void BodyBuilder::cloneOp(Operation *op) {
  for (Value operand : op->getOperands())
    resolve(operand);
  SetVector<Value> captured;
  getUsedValuesDefinedAbove(op->getRegions(), captured);
  for (Value v : captured)
    resolve(v);
  builder.clone(*op, mapping);
}

void BodyBuilder::emitConvAsMatmul(const Gemm &g) {
  auto conv = cast<linalg::LinalgOp>(g.op);
  Location loc = conv.getLoc();
  OpBuilder &b = builder;
  Value input = resolve(g.lhs->get());
  Value filter = resolve(g.rhs->get());
  auto inputType = cast<RankedTensorType>(input.getType());
  auto outType = cast<RankedTensorType>(conv->getResult(0).getType());
  int64_t oh = outType.getDimSize(1), ow = outType.getDimSize(2),
          f = outType.getDimSize(3), c = inputType.getDimSize(3);
  Type elemType = inputType.getElementType();
  SmallVector<ReassociationIndices> toRows{{0, 1, 2}, {3}};

  // The dynamic M = N·OH·OW, and N itself, as values.
  Value dynBatch, dynM;
  if (outType.isDynamicDim(0)) {
    Value zero = arith::ConstantIndexOp::create(b, loc, 0);
    dynBatch = tensor::DimOp::create(b, loc, input, zero);
    Value plane = arith::ConstantIndexOp::create(b, loc, oh * ow);
    dynM = arith::MulIOp::create(b, loc, dynBatch, plane);
  }
  auto makeEmpty = [&](int64_t cols, Type type) -> Value {
    SmallVector<Value> dyn;
    if (dynM)
      dyn.push_back(dynM);
    return tensor::EmptyOp::create(b, loc, SmallVector<int64_t>{g.m, cols},
                                   type, dyn);
  };

  Value lhs;
  if (g.isPointwiseConv()) {
    lhs = tensor::CollapseShapeOp::create(b, loc, input, toRows);
  } else {
    // im2col: row (n, oh, ow), column (kh, kw, c) of the padded input.
    MLIRContext *ctx = b.getContext();
    AffineExpr row = getAffineDimExpr(0, ctx), col = getAffineDimExpr(1, ctx);
    AffineExpr n = row.floorDiv(oh * ow), y = (row % (oh * ow)).floorDiv(ow),
               x = row % ow;
    AffineExpr ky = col.floorDiv(g.kw * c), kx = (col % (g.kw * c)).floorDiv(c),
               ch = col % c;
    AffineMap inputMap = AffineMap::get(2, 0,
                                        {n, y * g.strideH + ky * g.dilationH,
                                         x * g.strideW + kx * g.dilationW, ch},
                                        ctx);
    AffineMap outMap = AffineMap::getMultiDimIdentityMap(2, ctx);
    Value empty = makeEmpty(g.k, elemType);
    lhs = linalg::GenericOp::create(
              b, loc, TypeRange{empty.getType()}, ValueRange{input},
              ValueRange{empty}, ArrayRef<AffineMap>{inputMap, outMap},
              ArrayRef<utils::IteratorType>{utils::IteratorType::parallel,
                                            utils::IteratorType::parallel},
              /*doc=*/"", /*libraryCall=*/"",
              [](OpBuilder &nb, Location l, ValueRange args) {
                linalg::YieldOp::create(nb, l, args[0]);
              })
              ->getResult(0);
  }
  // HWCF collapses to the row-major [K, F], FHWC to the K-major [F, K]
  // that a matmul with maps (m, k), (n, k), (m, n) reads.
  Value rhs = tensor::CollapseShapeOp::create(
      b, loc, filter,
      g.filterFhwc ? SmallVector<ReassociationIndices>{{0}, {1, 2, 3}}
                   : toRows);

  // A zero-filled init is rebuilt in 2-D; anything else is reshaped.
  Value origInit = conv.getDpsInitOperand(0)->get();
  Value init;
  if (auto fill = origInit.getDefiningOp<linalg::FillOp>();
      fill && fill.getOutputs()[0].getDefiningOp<tensor::EmptyOp>()) {
    Value empty = makeEmpty(f, outType.getElementType());
    init =
        linalg::FillOp::create(b, loc, ValueRange{resolve(fill.getInputs()[0])},
                               ValueRange{empty})
            ->getResult(0);
  } else {
    init = tensor::CollapseShapeOp::create(b, loc, resolve(origInit), toRows);
  }
  SmallVector<NamedAttribute> mmAttrs;
  if (g.filterFhwc) {
    AffineExpr m, n, k;
    bindDims(b.getContext(), m, n, k);
    auto map = [&](ArrayRef<AffineExpr> r) -> Attribute {
      return AffineMapAttr::get(AffineMap::get(3, 0, r, b.getContext()));
    };
    mmAttrs.push_back(b.getNamedAttr(
        "indexing_maps",
        b.getArrayAttr({map({m, k}), map({n, k}), map({m, n})})));
  }
  Value mm =
      linalg::MatmulOp::create(b, loc, TypeRange{init.getType()},
                               ValueRange{lhs, rhs}, ValueRange{init}, mmAttrs)
          ->getResult(0);
  SmallVector<OpFoldResult> outShape{
      dynBatch ? OpFoldResult(dynBatch)
               : OpFoldResult(b.getIndexAttr(outType.getDimSize(0))),
      b.getIndexAttr(oh), b.getIndexAttr(ow), b.getIndexAttr(f)};
  Value result =
      tensor::ExpandShapeOp::create(b, loc, outType, mm, toRows, outShape);
  mapping.map(conv->getResult(0), result);
}

/// dim(expand_shape(x) output_shape [..., %d, ...]) -> %d, which the upstream
/// patterns would compute from x through affine.apply.
struct FoldDimOfExpandOutputShape : OpRewritePattern<tensor::DimOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tensor::DimOp dimOp,
                                PatternRewriter &rewriter) const override {
    auto expand = dimOp.getSource().getDefiningOp<tensor::ExpandShapeOp>();
    std::optional<int64_t> index = dimOp.getConstantIndex();
    if (!expand || !index)
      return failure();
    OpFoldResult size = expand.getMixedOutputShape()[*index];
    if (auto value = dyn_cast<Value>(size)) {
      rewriter.replaceOp(dimOp, value);
      return success();
    }
    rewriter.replaceOpWithNewOp<arith::ConstantIndexOp>(
        dimOp, *getConstantIntValue(size));
    return success();
  }
};

/// collapse_shape(tensor.empty) -> tensor.empty of the collapsed shape. (The
/// upstream pattern needs the tensor shape-reification models registered.)
struct FoldCollapseOfEmpty : OpRewritePattern<tensor::CollapseShapeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tensor::CollapseShapeOp collapse,
                                PatternRewriter &rewriter) const override {
    auto empty = collapse.getSrc().getDefiningOp<tensor::EmptyOp>();
    if (!empty)
      return failure();
    Location loc = collapse.getLoc();
    RankedTensorType type = collapse.getResultType();
    SmallVector<OpFoldResult> sizes = empty.getMixedSizes();
    SmallVector<Value> dynamicSizes;
    for (auto [i, group] :
         llvm::enumerate(collapse.getReassociationIndices())) {
      if (!type.isDynamicDim(i))
        continue;
      Value size;
      int64_t staticSize = 1;
      for (int64_t d : group) {
        if (std::optional<int64_t> c = getConstantIntValue(sizes[d])) {
          staticSize *= *c;
          continue;
        }
        Value v = cast<Value>(sizes[d]);
        size = size ? arith::MulIOp::create(rewriter, loc, size, v) : v;
      }
      if (staticSize != 1)
        size = arith::MulIOp::create(
            rewriter, loc, size,
            arith::ConstantIndexOp::create(rewriter, loc, staticSize));
      dynamicSizes.push_back(size);
    }
    rewriter.replaceOpWithNewOp<tensor::EmptyOp>(collapse, type, dynamicSizes);
    return success();
  }
};

/// Rewrites the elementwise ops of a body that reshapes its rows (conv
/// chains, whose ops are NHWC, and chains through row reshapes) onto
/// [rows, innermost] and folds the reshapes that then meet, so that the body
/// is a chain of 2-D ops between collapses of the inputs and one expand of the
/// result. Ops whose broadcasts do not survive the collapse keep their rank.
void flattenBody(FusedChainOp fused) {
  MLIRContext *ctx = fused->getContext();
  IRRewriter rewriter(ctx);
  SmallVector<linalg::LinalgOp> candidates;
  for (Operation &op : fused.getBodyBlock())
    if (auto linalgOp = dyn_cast<linalg::LinalgOp>(&op);
        linalgOp && linalgOp.getNumLoops() > 2 && isElementwise(&op))
      candidates.push_back(linalgOp);
  for (linalg::LinalgOp op : candidates) {
    int64_t rank = op.getNumLoops();
    ReassociationIndices rows =
        llvm::to_vector(llvm::seq<int64_t>(0, rank - 1));
    SmallVector<ReassociationIndices> groups{rows, {rank - 1}};
    rewriter.setInsertionPoint(op);
    FailureOr<linalg::CollapseResult> collapsed =
        linalg::collapseOpIterationDims(op, groups, rewriter);
    if (succeeded(collapsed))
      rewriter.replaceOp(op, collapsed->results);
  }
  RewritePatternSet patterns(ctx);
  patterns.add<FoldCollapseOfEmpty, FoldDimOfExpandOutputShape>(ctx);
  tensor::CollapseShapeOp::getCanonicalizationPatterns(patterns, ctx);
  tensor::ExpandShapeOp::getCanonicalizationPatterns(patterns, ctx);
  tensor::DimOp::getCanonicalizationPatterns(patterns, ctx);
  tensor::EmptyOp::getCanonicalizationPatterns(patterns, ctx);
  linalg::FillOp::getCanonicalizationPatterns(patterns, ctx);
  (void)applyPatternsGreedily(fused.getBody(), std::move(patterns));
  // The per-op rebuilt dims, sizes and inits duplicate each other. Only
  // these are merged: a CSE of linalg ops could merge two GEMMs and leave
  // the body without the contractions its kind promises.
  SmallVector<Operation *> seen;
  for (Operation &op : llvm::make_early_inc_range(fused.getBodyBlock())) {
    if (isa<linalg::LinalgOp>(op) || op.getNumRegions() != 0 ||
        op.getNumResults() == 0 || !isPure(&op))
      continue;
    auto *twin = llvm::find_if(seen, [&](Operation *other) {
      return OperationEquivalence::isEquivalentTo(
          other, &op, OperationEquivalence::IgnoreLocations);
    });
    if (twin == seen.end()) {
      seen.push_back(&op);
      continue;
    }
    rewriter.replaceOp(&op, (*twin)->getResults());
  }

  // Inputs that only fed folded reshapes (their dynamic sizes) are gone.
  Block &body = fused.getBodyBlock();
  for (int64_t i = body.getNumArguments() - 1; i >= 0; --i) {
    if (!body.getArgument(i).use_empty())
      continue;
    body.eraseArgument(i);
    fused.getInputsMutable().erase(i);
  }
}

LogicalResult BlockFuser::rewrite(Chain &chain) {
  bool gatedPair = chain.kind == ChainKind::gated_gemm;
  Operation *lastOp =
      chain.epilogue.empty() ? chain.resultOp() : chain.epilogue.back();
  MLIRContext *ctx = lastOp->getContext();
  BodyBuilder bb(ctx);

  if (chain.pad)
    bb.cloneOp(chain.pad);
  // Producer GEMMs first, in body order (gate before up), then the ops
  // between in program order, the consumer GEMM and the epilogue.
  auto emitGemm = [&](Gemm *g) {
    // Operands first, so that inputs read LHS, weights, then bias.
    bb.resolve(g->lhs->get());
    bb.resolve(g->rhs->get());
    if (Operation *init = chain.initProducers.lookup(g->op))
      bb.cloneOp(init);
    if (g->isConv)
      bb.emitConvAsMatmul(*g);
    else
      bb.cloneOp(g->op);
  };
  // A gated pair's links read both GEMMs: both come first.
  for (Gemm *g : ArrayRef(chain.gemms).drop_back(gatedPair ? 0 : 1))
    emitGemm(g);
  for (Operation *op : chain.between)
    bb.cloneOp(op);
  if (!gatedPair)
    emitGemm(chain.last());
  for (Operation *op : chain.epilogue)
    bb.cloneOp(op);

  Value result = lastOp->getResult(0);
  dsm::YieldOp::create(bb.builder, lastOp->getLoc(), bb.mapping.lookup(result));

  SmallVector<Location> locs;
  for (Gemm *g : chain.gemms)
    locs.push_back(g->op->getLoc());
  OpBuilder builder(lastOp);
  auto fused = FusedChainOp::create(builder, builder.getFusedLoc(locs),
                                    TypeRange{result.getType()}, bb.inputs,
                                    chain.kind, /*schedule=*/Attribute(),
                                    /*sequence=*/ArrayAttr());
  fused.getBody().push_back(bb.release());
  result.replaceAllUsesWith(fused->getResult(0));
  if (llvm::any_of(chain.gemms, [](Gemm *g) { return g->isConv; }) ||
      llvm::any_of(chain.between, isRowReshape) ||
      llvm::any_of(chain.epilogue, isRowReshape))
    flattenBody(fused);

  // Erase the originals, users first, then the cheap producers that died.
  SmallVector<Operation *> dead(chain.epilogue.begin(), chain.epilogue.end());
  for (Gemm *g : chain.gemms)
    dead.push_back(g->op);
  dead.append(chain.between.begin(), chain.between.end());
  if (chain.pad)
    dead.push_back(chain.pad);
  for (Gemm *g : chain.gemms)
    if (Operation *init = chain.initProducers.lookup(g->op))
      dead.push_back(init);
  llvm::sort(dead,
             [&](Operation *a, Operation *b) { return order[a] > order[b]; });
  DenseSet<Operation *> deadSet(dead.begin(), dead.end());
  SetVector<Operation *> producers;
  auto addProducers = [&](Operation *op) {
    auto add = [&](Value v) {
      if (Operation *def = v.getDefiningOp())
        if (!deadSet.contains(def))
          producers.insert(def);
    };
    llvm::for_each(op->getOperands(), add);
    SetVector<Value> captured;
    getUsedValuesDefinedAbove(op->getRegions(), captured);
    llvm::for_each(captured, add);
  };
  for (Operation *op : dead) {
    if (llvm::any_of(op->getUsers(),
                     [&](Operation *user) { return !deadSet.contains(user); }))
      return op->emitError("dsm-fuse: fused op still has uses outside its "
                           "chain");
    addProducers(op);
  }
  for (Operation *op : dead)
    op->erase();
  // Cheap producers (inits, constants, dims) that only the chain used.
  while (!producers.empty()) {
    Operation *op = producers.pop_back_val();
    if (!isRematerializable(op) || !isOpTriviallyDead(op))
      continue;
    addProducers(op);
    op->erase();
  }
  return success();
}

LogicalResult BlockFuser::run() {
  collectGemms();
  if (gemms.empty())
    return success();

  std::vector<Chain> candidates;
  for (Gemm &g : gemms)
    if (std::optional<Chain> c = analyzeConsumer(g))
      candidates.push_back(std::move(*c));

  // Claim legal candidates in program order of their first GEMM; a chain of
  // three or more GEMMs is thereby cut into pairs.
  llvm::stable_sort(candidates, [](const Chain &a, const Chain &b) {
    return a.firstOrder() < b.firstOrder();
  });
  SmallVector<Chain *> accepted;
  for (Chain &c : candidates) {
    if (!c.illegal.empty()) {
      for (Gemm *g : c.gemms)
        addReason(g->op, c.illegal);
      continue;
    }
    bool conflict =
        llvm::any_of(c.gemms,
                     [&](Gemm *g) { return claimed.contains(g->op); }) ||
        llvm::any_of(c.between,
                     [&](Operation *op) { return claimed.contains(op); });
    if (conflict) {
      bool cut = llvm::any_of(ArrayRef(c.gemms).drop_back(), [&](Gemm *g) {
        return chainEnds.contains(g->op);
      });
      for (Gemm *g : c.gemms)
        if (!claimed.contains(g->op))
          addReason(g->op,
                    cut ? "the chain continues past two GEMMs; it is cut "
                          "before this GEMM (the lowering supports chains of "
                          "two GEMMs plus the gated form)"
                        : "it shares ops with a chain fused before it");
      continue;
    }
    claim(c);
    accepted.push_back(&c);
  }

  // Single GEMMs, when asked for: lone gated pairs first, then each GEMM.
  std::vector<Chain> singles;
  if (fuseSingleGemms) {
    for (Gemm &a : gemms)
      for (Gemm &b : gemms) {
        if (a.order >= b.order || claimed.contains(a.op) ||
            claimed.contains(b.op) || !a.illegal.empty() || !b.illegal.empty())
          continue;
        if (std::optional<Chain> c = matchGatedPair(a, b)) {
          claim(*c);
          singles.push_back(std::move(*c));
        }
      }
    for (Gemm &g : gemms) {
      if (claimed.contains(g.op) || !g.illegal.empty())
        continue;
      Chain c;
      c.kind = ChainKind::gemm;
      c.gemms = {&g};
      claimed.insert(g.op);
      singles.push_back(std::move(c));
    }
  }

  for (Gemm &g : gemms) {
    if (claimed.contains(g.op))
      continue;
    auto it = reasons.find(g.op);
    std::string reason;
    if (it != reasons.end())
      reason = it->second.front();
    else if (!g.illegal.empty())
      reason = g.illegal;
    else
      reason = "lone GEMM (no GEMM feeds or consumes it through elementwise "
               "ops)";
    unfused.push_back({g.op, reason});
  }

  // Epilogues are pulled in after claiming, so that ops between two claimed
  // chains go to the earlier one.
  for (Chain *c : accepted)
    extendEpilogue(*c);
  for (Chain &c : singles)
    extendEpilogue(c);
  for (Chain *c : accepted)
    if (failed(rewrite(*c)))
      return failure();
  for (Chain &c : singles)
    if (failed(rewrite(c)))
      return failure();
  return success();
}

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

struct FuseGemmChainsPass
    : public dsm::impl::DSMFuseGemmChainsBase<FuseGemmChainsPass> {
  using Base::Base;

  void runOnOperation() override {
    if (minDim < 1) {
      emitError(getOperation()->getLoc(), "dsm-fuse: min-dim must be at "
                                          "least 1, got ")
          << static_cast<int64_t>(minDim);
      return signalPassFailure();
    }
    // Blocks outside dsm.fused_chain bodies, collected before rewriting.
    SmallVector<Block *> blocks;
    getOperation()->walk([&](Block *block) {
      Operation *parent = block->getParentOp();
      if (isa<FusedChainOp>(parent) || parent->getParentOfType<FusedChainOp>())
        return;
      blocks.push_back(block);
    });
    SmallVector<std::pair<Operation *, std::string>> unfused;
    for (Block *block : blocks) {
      BlockFuser fuser(*block, minDim, fuseSingleGemms);
      if (failed(fuser.run()))
        return signalPassFailure();
      llvm::append_range(unfused, fuser.getUnfused());
    }
    if (report)
      for (auto &[op, reason] : unfused)
        op->emitRemark("GEMM not fused: ") << reason;
  }
};

} // namespace

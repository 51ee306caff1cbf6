//===- SearchSchedule.cpp - choose the plan of each fused chain -*- C++ -*-===//
//
// Part of the FlashFuser project.
//
// --dsm-search: runs the search engine of ff/Analysis on every
// dsm.fused_chain and records the chosen plan as its `schedule`.
//
//===----------------------------------------------------------------------===//

#include "ff/Dialect/DSM/Transforms/SearchSchedule.h"
#include "ff/Dialect/DSM/Transforms/KernelPlan.h"
#include "ff/Dialect/DSM/Transforms/SequenceChains.h"

#include "ff/Analysis/Search.h"
#include "ff/Dialect/DSM/Transforms/Passes.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <limits>

namespace mlir::dsm {
#define GEN_PASS_DEF_DSMSEARCH
#include "ff/Dialect/DSM/Transforms/Passes.h.inc"
} // namespace mlir::dsm

using namespace mlir;
using namespace mlir::dsm;

//===----------------------------------------------------------------------===//
// IR <-> library conversions
//===----------------------------------------------------------------------===//

TargetAttr mlir::dsm::getTargetAttr(MLIRContext *ctx, const ff::GpuTarget &t) {
  return TargetAttr::get(
      ctx, t.name, t.chip, t.sms, t.smemPerSm, t.smemPerBlock, t.regsPerSm,
      t.maxCluster, t.maxClusterNonportable, t.clockMhz, t.hbmGbps, t.l2Bytes,
      ArrayRef<int64_t>(t.dsmGbps), ArrayRef<int64_t>(t.dsmLatencyCycles),
      t.tflopsBf16, t.tflopsF16, t.tflopsF32);
}

FailureOr<ff::GpuTarget>
mlir::dsm::loadSearchTarget(StringRef name, StringRef calibration,
                            function_ref<InFlightDiagnostic()> emitError) {
  llvm::Expected<ff::GpuTarget> target = ff::lookupTarget(name);
  if (!target) {
    emitError() << llvm::toString(target.takeError());
    return failure();
  }
  if (!calibration.empty())
    if (llvm::Error err = ff::applyCalibrationFile(*target, calibration)) {
      emitError() << llvm::toString(std::move(err));
      return failure();
    }
  return *target;
}

FailureOr<ff::ChainDesc> mlir::dsm::getChainDesc(FusedChainOp op) {
  FailureOr<ChainShape> shape = op.getChainShape();
  if (failed(shape))
    return op.emitOpError("body does not hold a ")
           << stringifyChainKind(op.getKind()) << " chain";
  ff::ChainDesc chain;
  chain.kind = static_cast<ff::ChainKind>(op.getKind());
  chain.m = ShapedType::isDynamic(shape->m) ? 0 : shape->m;
  chain.n = shape->n;
  chain.k = shape->k;
  chain.l = shape->l;
  Type elt = shape->elementType;
  if (elt.isBF16())
    chain.dtype = ff::DType::bf16;
  else if (elt.isF16())
    chain.dtype = ff::DType::f16;
  else if (elt.isF32())
    chain.dtype = ff::DType::f32;
  else if (isa<FloatType>(elt) && cast<FloatType>(elt).getWidth() == 8)
    chain.dtype = ff::DType::f8;
  else
    return op.emitOpError("element type ")
           << elt << " has no tensor-core rate in the cost model";
  if (auto image = getConvImageShape(op))
    std::tie(chain.convH, chain.convW) = *image;
  chain.kMajorWeights = hasKMajorWeights(op);
  for (const ChainGemm &g : shape->gemms)
    if (g.batch != 1)
      return op.emitOpError("batched contractions are not supported by the "
                            "schedule search");
  if (chain.n <= 0 || chain.k <= 0 || (chain.hasSecondGemm() && chain.l <= 0))
    return op.emitOpError("expected positive N, K and L extents");
  if (!ShapedType::isDynamic(shape->m) && shape->m <= 0)
    return op.emitOpError("expected a positive M extent, got ") << shape->m;
  // TMA coordinates are signed 32-bit: larger extents cannot be addressed
  // (and overflow the cost model's products).
  constexpr int64_t kMaxExtent = std::numeric_limits<int32_t>::max();
  for (auto [name, extent] :
       {std::pair<StringRef, int64_t>{"M", chain.m}, {"N", chain.n},
        {"K", chain.k}, {"L", chain.l}})
    if (extent > kMaxExtent)
      return op.emitOpError() << name << " = " << extent
                              << " exceeds the largest extent a TMA "
                                 "descriptor addresses ("
                              << kMaxExtent << ")";
  return chain;
}

ScheduleAttr
mlir::dsm::getScheduleAttr(MLIRContext *ctx, const ff::Plan &plan,
                           const ff::Dataflow &flow, const ff::ChainDesc &chain,
                           double costNs, int64_t mLo, int64_t mHi,
                           function_ref<InFlightDiagnostic()> emitError) {
  SmallVector<LoopDim> order, spatial;
  for (ff::Dim d : plan.order)
    order.push_back(static_cast<LoopDim>(d));
  for (ff::Dim d : plan.getSpatialDims())
    spatial.push_back(static_cast<LoopDim>(d));
  SmallVector<MemTier> residency;
  for (ff::Tier t : flow.residency)
    residency.push_back(static_cast<MemTier>(t));
  SmallVector<CollectiveKind> collectives;
  for (ff::Collective c : plan.getCollectives(chain))
    collectives.push_back(static_cast<CollectiveKind>(c));
  // A swapped plan is the transposed product's: the schedule holds it in
  // the chain's dimensions.
  const ff::Plan dims = plan.swapAb ? plan.withMNExchanged() : plan;
  return ScheduleAttr::getChecked(
      emitError, ctx, ArrayRef<int64_t>(dims.cluster),
      ArrayRef<int64_t>(dims.block), ArrayRef<int64_t>(dims.grid),
      ArrayRef<LoopDim>(order), ArrayRef<LoopDim>(spatial),
      ArrayRef<MemTier>(residency), ArrayRef<CollectiveKind>(collectives),
      plan.stages, static_cast<int64_t>(std::llround(costNs)), mLo, mHi,
      plan.deterministic, plan.swapAb);
}

ff::Plan mlir::dsm::getPlan(ScheduleAttr sched) {
  ff::Plan plan;
  for (unsigned i = 0; i < 4; ++i) {
    plan.cluster[i] = sched.getCluster()[i];
    plan.block[i] = sched.getBlock()[i];
    plan.grid[i] = sched.getGrid()[i];
    plan.order[i] = static_cast<ff::Dim>(sched.getOrder()[i]);
  }
  for (LoopDim d : sched.getSpatial())
    plan.spatialMask |= 1u << static_cast<unsigned>(d);
  plan.stages = sched.getStages();
  plan.deterministic = sched.getDeterministic();
  plan.swapAb = sched.getSwapAb();
  return plan.swapAb ? plan.withMNExchanged() : plan;
}

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

namespace {

std::string formatNs(double ns) { return llvm::formatv("{0:F0}", ns).str(); }

/// The estimate recorded for `c`: the measured kernel-family model for plans
/// the lowering carries out, the analytical model otherwise.
double recordedNs(const ff::Candidate &c) {
  return c.lowerable ? c.cost.kernelNs : c.cost.totalNs;
}

llvm::json::Object toJson(const ff::Candidate &c, int64_t rank) {
  auto arr = [](const std::array<int64_t, 4> &v) {
    return llvm::json::Array{v[0], v[1], v[2], v[3]};
  };
  // In the chain's dimensions, like the schedule (a swapped plan's are its
  // transposed product's).
  const ff::Plan dims = c.plan.swapAb ? c.plan.withMNExchanged() : c.plan;
  llvm::json::Array order, spatial;
  for (ff::Dim d : c.plan.order)
    order.push_back(ff::stringifyDim(d));
  for (ff::Dim d : c.plan.getSpatialDims())
    spatial.push_back(ff::stringifyDim(d));
  llvm::json::Array residency;
  for (ff::Tier t : c.flow.residency)
    residency.push_back(ff::stringifyTier(t));
  return llvm::json::Object{
      {"rank", rank},
      {"cost_ns", std::llround(recordedNs(c))},
      {"model_ns", std::llround(c.cost.totalNs)},
      {"kernel_ns", std::llround(c.cost.kernelNs)},
      {"kernel_ctas_per_sm", c.cost.kernelCtasPerSm},
      {"lowerable", c.lowerable},
      {"cluster", arr(dims.cluster)},
      {"block", arr(dims.block)},
      {"grid", arr(dims.grid)},
      {"order", std::move(order)},
      {"spatial", std::move(spatial)},
      {"stages", c.plan.stages},
      {"swap_ab", c.plan.swapAb},
      {"residency", std::move(residency)},
      {"terms",
       llvm::json::Object{{"compute_ns", std::llround(c.cost.computeNs)},
                          {"hbm_ns", std::llround(c.cost.hbmNs)},
                          {"l2_ns", std::llround(c.cost.l2Ns)},
                          {"dsm_ns", std::llround(c.cost.dsmNs)},
                          {"smem_ns", std::llround(c.cost.smemNs)},
                          {"minimax_ns", std::llround(c.cost.minimaxNs)},
                          {"cta_ns", std::llround(c.cost.ctaNs)},
                          {"full_waves", c.cost.fullWaves},
                          {"tail_clusters", c.cost.tailClusters},
                          {"launch_ns", std::llround(c.cost.launchNs)}}},
      {"volume_bytes",
       llvm::json::Object{{"hbm", std::llround(c.flow.volume.hbm)},
                          {"l2", std::llround(c.flow.volume.l2)},
                          {"dsm", std::llround(c.flow.volume.dsm)},
                          {"smem", std::llround(c.flow.volume.smem)}}}};
}

llvm::json::Object statsJson(const ff::SearchStats &s) {
  return llvm::json::Object{{"schedules", s.schedules},
                            {"pruned_activation", s.prunedActivation},
                            {"cluster_shapes", s.clusterShapes},
                            {"pruned_cluster", s.prunedCluster},
                            {"pruned_tile", s.prunedTile},
                            {"pruned_dependency", s.prunedDependency},
                            {"pruned_capacity", s.prunedCapacity},
                            {"evaluated", s.evaluated},
                            {"lowerable", s.lowerable}};
}

struct DSMSearchPass : public dsm::impl::DSMSearchBase<DSMSearchPass> {
  using DSMSearchBase::DSMSearchBase;
  void runOnOperation() override;

private:
  /// Chooses and records the plan of one chain; appends its JSON record.
  LogicalResult searchOne(FusedChainOp op, const ff::GpuTarget &target,
                          llvm::json::Array &dump);
  /// The chosen candidate of `result` (null when nothing survived
  /// pruning), warning when lowerable-only finds nothing in the lowerable
  /// family; failure after reporting an unsatisfiable rank or
  /// deterministic request.
  FailureOr<const ff::Candidate *> choose(FusedChainOp op,
                                          const ff::SearchResult &result);
  void emitNoDeterministicPlan(FusedChainOp op);
  /// Whether `op` is priced as a kernel sequence too: an FFN (plain or
  /// gated), with the option on and no rank, family or deterministic
  /// request (those measure or constrain the fused plans).
  bool pricesSequences(FusedChainOp op) const {
    return sequences && rank == 0 && !deterministic &&
           family == ff::KernelFamily::any &&
           (op.getKind() == ChainKind::ffn ||
            op.getKind() == ChainKind::gated_ffn);
  }
  /// Prices `op` (an FFN chain with its fused schedule chosen) as a
  /// sequence of its two GEMMs, each searched as a chain of its own;
  /// records their schedules in `sequence` when they cost less than the
  /// fused plan. Fills `record` with the comparison.
  LogicalResult searchSequence(FusedChainOp op, const ff::ChainDesc &chain,
                               const ff::GpuTarget &target,
                               llvm::json::Object &record,
                               ArrayRef<int64_t> binReps = {});
  /// Set while searchSequence searches the halves: a dynamic M keeps one
  /// table entry per default bin (or per part of a split one: searchMBins),
  /// so each bin's schedule carries the cost at that bin's representative
  /// M, as the fused plan it is priced against does.
  bool perBinTables = false;
  /// While a sequence's halves are searched: their FFN's 64-row M bins'
  /// upper end (SearchOptions::fineMBinsHi); else 0, a chain's own.
  int64_t halvesFineMBinsHi = 0;
  /// The library's results by chain (searchKey): a model's repeated layers
  /// are searched once per run. Everything derived from them (schedules,
  /// remarks, dump records) is still made per chain.
  llvm::StringMap<ff::SearchResult> staticResults;
  llvm::StringMap<std::vector<ff::BinnedPlan>> binnedResults;
};

/// What a chain's search depends on besides the pass options: the op with
/// its region, types and attributes (its operands elided), without the
/// plan a previous run recorded, and the library options that vary within
/// a run.
static std::string searchKey(FusedChainOp op, const ff::SearchOptions &options,
                             StringRef mode) {
  std::string key;
  llvm::raw_string_ostream os(key);
  os << mode << ' ' << options.keep << ' ' << options.binRegret << ' '
     << options.fineMBinsHi << '\n';
  Attribute schedule = op->getAttr("schedule"),
            sequence = op->getAttr("sequence");
  op->removeAttr("schedule");
  op->removeAttr("sequence");
  op->print(os, OpPrintingFlags().printGenericOpForm().useLocalScope());
  if (schedule)
    op->setAttr("schedule", schedule);
  if (sequence)
    op->setAttr("sequence", sequence);
  return key;
}

} // namespace

FailureOr<const ff::Candidate *>
DSMSearchPass::choose(FusedChainOp op, const ff::SearchResult &result) {
  if (rank > 0) {
    const std::vector<ff::Candidate> &list =
        lowerableOnly ? result.rankedLowerable : result.ranked;
    uint64_t r = rank;
    if (r >= list.size()) {
      op.emitError("--dsm-search: rank ")
          << r << " requested, but only " << list.size()
          << (lowerableOnly ? " lowerable" : "") << " candidates were kept";
      return failure();
    }
    return &list[r];
  }
  const ff::Candidate *chosen = result.getChosen(lowerableOnly);
  if (chosen && deterministic && !chosen->lowerable) {
    emitNoDeterministicPlan(op);
    return failure();
  }
  if (chosen && lowerableOnly && !chosen->lowerable)
    op.emitWarning("no plan is in the lowerable family; recording the best "
                   "plan of the full space");
  return chosen;
}

/// `s` with the M bin [lo, hi].
static ScheduleAttr withMBin(ScheduleAttr s, int64_t lo, int64_t hi) {
  return ScheduleAttr::get(
      s.getContext(), s.getCluster(), s.getBlock(), s.getGrid(), s.getOrder(),
      s.getSpatial(), s.getResidency(), s.getCollectives(), s.getStages(),
      s.getCostNs(), lo, hi, s.getDeterministic(), s.getSwapAb());
}

/// Whether two schedules of one chain differ at most in their M grid,
/// cost and M bin.
static bool sameButM(ScheduleAttr a, ScheduleAttr b) {
  return ff::sameButMGrid(getPlan(a), getPlan(b));
}

/// Merges neighbouring M bins of `op`'s schedule table that run the same
/// kernels: fused plans alike but for the M grid and the same kernel
/// sequence, or none. The later bin's schedules serve the merged bin.
static void mergeMBins(FusedChainOp op) {
  auto table = cast<ScheduleTableAttr>(*op.getSchedule());
  using Pair = std::pair<ScheduleAttr, ScheduleAttr>;
  struct Group {
    int64_t lo;
    ScheduleAttr fused;
    std::optional<Pair> pair;
  };
  SmallVector<Group> groups;
  for (ScheduleAttr s : table.getPlans()) {
    std::optional<Pair> pair = getSequencePair(op, s);
    if (!groups.empty()) {
      Group &g = groups.back();
      if (sameButM(g.fused, s) && g.pair.has_value() == pair.has_value() &&
          (!pair || (sameButM(g.pair->first, pair->first) &&
                     sameButM(g.pair->second, pair->second)))) {
        g.fused = s;
        g.pair = pair;
        continue;
      }
    }
    groups.push_back({s.getMLo(), s, pair});
  }
  SmallVector<ScheduleAttr> plans;
  SmallVector<Attribute> pairs;
  for (const Group &g : groups) {
    int64_t hi = g.fused.getMHi();
    plans.push_back(withMBin(g.fused, g.lo, hi));
    if (g.pair)
      pairs.append({withMBin(g.pair->first, g.lo, hi),
                    withMBin(g.pair->second, g.lo, hi)});
  }
  op.setScheduleAttr(ScheduleTableAttr::get(op.getContext(), plans));
  if (!pairs.empty())
    op.setSequenceAttr(ArrayAttr::get(op.getContext(), pairs));
}

LogicalResult DSMSearchPass::searchSequence(FusedChainOp op,
                                            const ff::ChainDesc &chain,
                                            const ff::GpuTarget &target,
                                            llvm::json::Object &record,
                                            ArrayRef<int64_t> binReps) {
  OpBuilder b(op);
  std::string why;
  FailureOr<std::pair<FusedChainOp, FusedChainOp>> halves =
      buildSequenceChains(b, op, why);
  if (failed(halves))
    return success(); // not an FFN of direct operands: fused only
  auto [first, second] = *halves;
  // The halves are searched like any single GEMM, quietly: their records
  // and remarks are not the module's.
  llvm::json::Array scratch;
  unsigned savedTopK = topK;
  topK = 0;
  perBinTables = true;
  // The halves' tables take their FFN's bins (the pairs are matched bin by
  // bin).
  halvesFineMBinsHi = ff::getFineMBinsHi(chain);
  LogicalResult searched = success();
  if (failed(searchOne(first, target, scratch)) ||
      failed(searchOne(second, target, scratch)))
    searched = failure();
  topK = savedTopK;
  perBinTables = false;
  halvesFineMBinsHi = 0;
  auto erase = [&] {
    second->erase();
    first->erase();
  };
  if (failed(searched)) {
    erase();
    return failure();
  }
  // The fused plans (one, or one per M bin) and the halves' plan for each.
  SmallVector<ScheduleAttr> fused;
  auto table = dyn_cast<ScheduleTableAttr>(*op.getSchedule());
  if (table)
    llvm::append_range(fused, table.getPlans());
  else
    fused.push_back(cast<ScheduleAttr>(*op.getSchedule()));
  auto planAt = [](Attribute sched, int64_t m) -> ScheduleAttr {
    if (auto t = dyn_cast_or_null<ScheduleTableAttr>(sched))
      return t.lookup(m);
    return dyn_cast_or_null<ScheduleAttr>(sched);
  };
  auto cType = cast<ShapedType>(first->getResult(0).getType());
  SmallVector<Attribute> pairs;
  SmallVector<ScheduleAttr> split;
  llvm::json::Array bins;
  for (auto [i, plan] : llvm::enumerate(fused)) {
    int64_t m = table ? binReps[i] : cType.getDimSize(0);
    ScheduleAttr s0 = planAt(first.getScheduleAttr(), m);
    ScheduleAttr s1 = planAt(second.getScheduleAttr(), m);
    std::string why0, why1;
    if (!s0 || !s1 || failed(planKernel(first, s0, why0)) ||
        failed(planKernel(second, s1, why1))) {
      if (table)
        split.push_back(plan);
      continue;
    }
    int64_t cost = s0.getCostNs() + s1.getCostNs() +
                   int64_t(std::llround(ff::estimateSequenceIntermediateNs(
                       m, cType.getDimSize(1),
                       cType.getElementTypeBitWidth() / 8, target)));
    bool chosen = cost < plan.getCostNs();
    if (topK > 0) {
      InFlightDiagnostic remark = op.emitRemark();
      if (table)
        remark << "m in [" << plan.getMLo() << ", " << plan.getMHi() << "]: ";
      remark << "as a kernel sequence (two GEMM kernels) " << cost
             << " ns against " << plan.getCostNs()
             << " ns fused: " << (chosen ? "sequence" : "fused");
    }
    if (chosen && table) {
      // A half's table may split the bin (searchMBins splits one at a
      // swapped plan's token-tile edge): the sequence's bin splits with it,
      // each part pairing the halves' plans of its own rows.
      SmallVector<int64_t> edges{plan.getMLo()};
      for (Attribute half : {first.getScheduleAttr(), second.getScheduleAttr()})
        for (ScheduleAttr h : cast<ScheduleTableAttr>(half).getPlans())
          if (h.getMLo() > plan.getMLo() && h.getMLo() <= plan.getMHi())
            edges.push_back(h.getMLo());
      llvm::sort(edges);
      edges.erase(llvm::unique(edges), edges.end());
      // The last part is the bin's upper end, its pair s0, s1.
      SmallVector<std::pair<ScheduleAttr, ScheduleAttr>> parts;
      for (size_t j = 0; j + 1 < edges.size(); ++j) {
        ScheduleAttr t0 = planAt(first.getScheduleAttr(), edges[j + 1] - 1);
        ScheduleAttr t1 = planAt(second.getScheduleAttr(), edges[j + 1] - 1);
        if (!t0 || !t1 || failed(planKernel(first, t0, why0)) ||
            failed(planKernel(second, t1, why1)))
          break;
        parts.push_back({t0, t1});
      }
      if (parts.size() + 1 != edges.size()) {
        edges.assign({plan.getMLo()});
        parts.clear();
      }
      parts.push_back({s0, s1});
      for (auto [j, part] : llvm::enumerate(parts)) {
        int64_t lo = edges[j];
        int64_t hi = j + 1 == parts.size() ? plan.getMHi() : edges[j + 1] - 1;
        pairs.push_back(withMBin(part.first, lo, hi));
        pairs.push_back(withMBin(part.second, lo, hi));
        split.push_back(withMBin(plan, lo, hi));
      }
    } else if (chosen) {
      pairs.append({s0, s1});
    } else if (table) {
      split.push_back(plan);
    }
    bins.push_back(llvm::json::Object{{"m", m},
                                      {"cost_ns", cost},
                                      {"fused_cost_ns", plan.getCostNs()},
                                      {"chosen", chosen}});
  }
  erase();
  if (table && split.size() != fused.size())
    op.setScheduleAttr(ScheduleTableAttr::get(op.getContext(), split));
  if (!pairs.empty())
    op.setSequenceAttr(ArrayAttr::get(op.getContext(), pairs));
  record["sequence"] = std::move(bins);
  // The halves' own records (their ranked candidates, per-bin plans): what
  // a sequence's kernels were chosen from.
  record["halves"] = std::move(scratch);
  return success();
}

void DSMSearchPass::emitNoDeterministicPlan(FusedChainOp op) {
  op.emitError("--dsm-search: no deterministic plan: no plan of this chain "
               "is in the family the lowering carries out");
}

LogicalResult DSMSearchPass::searchOne(FusedChainOp op,
                                       const ff::GpuTarget &target,
                                       llvm::json::Array &dump) {
  FailureOr<ff::ChainDesc> chain = getChainDesc(op);
  if (failed(chain))
    return failure();
  ff::SearchOptions options;
  options.lowerableOnly = lowerableOnly;
  options.deterministic = deterministic;
  options.family = family;
  options.wideGemmTiles = wideGemmTiles;
  options.waveTiles = waveTiles;
  options.swapOperands = swapOperands;
  // A sequence's halves take each bin's best at its upper end: the
  // regret rule's picks for them (smaller tiles, split K, shallower rings
  // that the model scores better at a bin's lower end) measured 2.4 %
  // slower over 68 points of G5, S1, S3 and G8 at M = 200..6000 on an
  // H200, losing up to 25 % at a bin's upper end (docs/cost-model.md).
  options.binRegret = !perBinTables;
  options.fineMBinsHi = halvesFineMBinsHi;
  // A dump keeps enough of the ranking to pick measurement sets from.
  options.keep = std::max<int64_t>(
      {32, topK, int64_t(rank) + 1, dumpFile.empty() ? 0 : 512});
  MLIRContext *ctx = op.getContext();
  // The lowering decides what it can carry out; the library's family
  // predicate only shapes the space.
  options.kernelSmemBytes =
      [&](const ff::Plan &plan,
          const ff::Dataflow &flow) -> std::optional<int64_t> {
    ScheduleAttr s = getScheduleAttr(ctx, plan, flow, *chain, 0, 0, 0,
                                     [&] { return InFlightDiagnostic(); });
    if (!s)
      return std::nullopt;
    std::string why;
    FailureOr<KernelPlan> kernel = planKernel(op, s, why);
    if (failed(kernel))
      return std::nullopt;
    return kernel->smemBytes;
  };
  auto emitError = [&] { return op.emitOpError("chose an invalid plan: "); };

  llvm::json::Object record{
      {"location", llvm::formatv("{0}", op.getLoc()).str()},
      {"kind", stringifyChainKind(op.getKind())},
      {"n", chain->n},
      {"k", chain->k},
      {"l", chain->l}};

  if (chain->m == 0 && rank > 0)
    return op.emitError("--dsm-search: rank applies to chains of static M");
  if (chain->m == 0) {
    // Dynamic M: one plan per M bin. Where kernel sequences are priced too,
    // every default bin is searched and priced on its own, against its
    // halves' schedules for that bin (perBinTables), and neighbours merge
    // only once both decisions are known (mergeMBins): bins merged by their
    // fused plan alone took the sequence of the merged bin's last
    // representative (G5's M = 16384 pair served M = 129 and up).
    bool withSequences = pricesSequences(op);
    bool perBin = withSequences || perBinTables;
    auto [it, inserted] = binnedResults.try_emplace(
        searchKey(op, options, perBin ? "bins" : "dynamic"));
    if (inserted)
      it->second = perBin ? ff::searchMBins(*chain, target, options)
                          : ff::searchDynamicM(*chain, target, options);
    record["search_reused"] = !inserted;
    const std::vector<ff::BinnedPlan> &table = it->second;
    if (table.empty())
      return op.emitOpError("no legal plan for some M bin of this chain");
    SmallVector<ScheduleAttr> plans;
    llvm::json::Array bins;
    for (const ff::BinnedPlan &bp : table) {
      ff::ChainDesc at = *chain;
      at.m = bp.bin.rep;
      if (deterministic && !bp.candidate.lowerable) {
        emitNoDeterministicPlan(op);
        return failure();
      }
      if (lowerableOnly && !bp.candidate.lowerable)
        op.emitWarning("no plan for m in [")
            << bp.bin.lo << ", " << bp.bin.hi
            << "] is in the lowerable family; recording the best plan of "
               "the full space";
      ScheduleAttr s = getScheduleAttr(
          ctx, bp.candidate.plan, bp.candidate.flow, at,
          recordedNs(bp.candidate), bp.bin.lo, bp.bin.hi, emitError);
      if (!s)
        return failure();
      plans.push_back(s);
      if (topK > 0)
        op.emitRemark("m in [") << bp.bin.lo << ", " << bp.bin.hi
                                << "] (searched at m = " << bp.bin.rep
                                << "): " << formatNs(recordedNs(bp.candidate))
                                << " ns " << bp.candidate.plan.str();
      llvm::json::Object bin = toJson(bp.candidate, 0);
      bin["m_lo"] = bp.bin.lo;
      bin["m_hi"] = bp.bin.hi;
      bin["m_searched"] = bp.bin.rep;
      bins.push_back(std::move(bin));
    }
    auto tableAttr = ScheduleTableAttr::getChecked(
        function_ref<InFlightDiagnostic()>(emitError), ctx,
        ArrayRef<ScheduleAttr>(plans));
    if (!tableAttr)
      return failure();
    op.setScheduleAttr(tableAttr);
    op.removeSequenceAttr();
    if (withSequences && llvm::all_of(table, [](const ff::BinnedPlan &bp) {
          return bp.candidate.lowerable;
        })) {
      SmallVector<int64_t> reps;
      for (const ff::BinnedPlan &bp : table)
        reps.push_back(bp.bin.rep);
      if (failed(searchSequence(op, *chain, target, record, reps)))
        return failure();
    }
    if (withSequences)
      mergeMBins(op);
    record["m"] = nullptr;
    record["bins"] = std::move(bins);
  } else {
    auto [it, inserted] =
        staticResults.try_emplace(searchKey(op, options, "static"));
    if (inserted)
      it->second = ff::searchChain(*chain, target, options);
    record["search_reused"] = !inserted;
    const ff::SearchResult &result = it->second;
    FailureOr<const ff::Candidate *> choice = choose(op, result);
    if (failed(choice))
      return failure();
    const ff::Candidate *chosen = *choice;
    if (!chosen)
      return op.emitOpError("no legal plan for this chain on ") << target.name;
    ScheduleAttr s = getScheduleAttr(ctx, chosen->plan, chosen->flow, *chain,
                                     recordedNs(*chosen), 0, 0, emitError);
    if (!s)
      return failure();
    op.setScheduleAttr(s);
    op.removeSequenceAttr();
    if (pricesSequences(op) && chosen->lowerable &&
        failed(searchSequence(op, *chain, target, record)))
      return failure();
    if (topK > 0) {
      op.emitRemark("evaluated ")
          << result.stats.evaluated << " plans (" << result.stats.lowerable
          << " lowerable); chose " << chosen->plan.str() << ": "
          << formatNs(recordedNs(*chosen))
          << (chosen->lowerable ? " ns measured kernel-family model, "
                                : " ns, ")
          << formatNs(chosen->cost.totalNs) << " ns analytical model; "
          << "best of the full space (analytical model):";
      for (auto [i, c] :
           llvm::enumerate(llvm::ArrayRef(result.ranked).take_front(topK)))
        op.emitRemark("#") << i + 1 << ": " << formatNs(c.cost.totalNs)
                           << " ns " << c.plan.str()
                           << (c.lowerable ? "" : " (not lowerable)");
    }
    llvm::json::Array ranked;
    for (auto [i, c] : llvm::enumerate(result.ranked))
      ranked.push_back(toJson(c, i + 1));
    record["m"] = chain->m;
    record["stats"] = statsJson(result.stats);
    record["chosen"] = toJson(*chosen, 0);
    record["candidates"] = std::move(ranked);
    // Ranked like --dsm-search="rank=i": index i is the plan rank=i records.
    llvm::json::Array lowerable;
    for (auto [i, c] : llvm::enumerate(result.rankedLowerable))
      lowerable.push_back(toJson(c, i));
    record["lowerable_candidates"] = std::move(lowerable);
  }

  // The chosen plan must also satisfy the op's shape checks.
  if (failed(op.verifyRegions()))
    return failure();
  dump.push_back(std::move(record));
  return success();
}

void DSMSearchPass::runOnOperation() {
  ModuleOp module = getOperation();
  FailureOr<ff::GpuTarget> target =
      loadSearchTarget(targetName, calibration,
                       [&] { return module.emitError("--dsm-search: "); });
  if (failed(target))
    return signalPassFailure();
  module->setAttr("dsm.target", getTargetAttr(&getContext(), *target));
  staticResults.clear();
  binnedResults.clear();

  llvm::json::Array dump;
  // Collected first: pricing a kernel sequence builds (and erases) chains.
  SmallVector<FusedChainOp> chains;
  module.walk([&](FusedChainOp op) { chains.push_back(op); });
  for (FusedChainOp op : chains)
    if (failed(searchOne(op, *target, dump)))
      return signalPassFailure();

  if (!dumpFile.empty()) {
    std::error_code ec;
    llvm::raw_fd_ostream os(dumpFile, ec, llvm::sys::fs::OF_Text);
    if (ec) {
      module.emitError("--dsm-search: cannot write '")
          << dumpFile << "': " << ec.message();
      return signalPassFailure();
    }
    os << llvm::formatv("{0:2}", llvm::json::Value(llvm::json::Object{
                                     {"target", target->name},
                                     {"chains", std::move(dump)}}))
       << "\n";
  }
}

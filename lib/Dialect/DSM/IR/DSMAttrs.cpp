//===- DSMAttrs.cpp - dsm dialect attributes --------------------*- C++ -*-===//
//
// Part of the FlashFuser project.
//
//===----------------------------------------------------------------------===//

#include "ff/Dialect/DSM/IR/DSMAttrs.h"
#include "ff/Dialect/DSM/IR/DSMDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::dsm;

#include "ff/Dialect/DSM/IR/DSMEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "ff/Dialect/DSM/IR/DSMAttrs.cpp.inc"

void DSMDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "ff/Dialect/DSM/IR/DSMAttrs.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// TargetAttr
//===----------------------------------------------------------------------===//

LogicalResult
TargetAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                   StringRef name, StringRef chip, int64_t sms,
                   int64_t smemPerSm, int64_t smemPerBlock, int64_t regsPerSm,
                   int64_t maxCluster, int64_t maxClusterNonportable,
                   int64_t clockMhz, int64_t hbmGbps, int64_t l2Bytes,
                   ArrayRef<int64_t> dsmGbps, ArrayRef<int64_t> dsmLatency,
                   int64_t tflopsBf16, int64_t tflopsF16, int64_t tflopsF32) {
  if (name.empty() || chip.empty())
    return emitError() << "expected a non-empty name and chip";
  if (sms <= 0 || smemPerSm <= 0 || smemPerBlock <= 0 || regsPerSm <= 0 ||
      l2Bytes <= 0)
    return emitError() << "expected positive SM count and capacities";
  if (smemPerBlock > smemPerSm)
    return emitError() << "smem_per_block (" << smemPerBlock
                       << ") exceeds smem_per_sm (" << smemPerSm << ")";
  if (maxCluster < 1 || maxCluster > maxClusterNonportable ||
      maxClusterNonportable > 16)
    return emitError() << "expected 1 <= max_cluster <= "
                          "max_cluster_nonportable <= 16";
  if (clockMhz <= 0 || hbmGbps <= 0 || tflopsBf16 <= 0 || tflopsF16 <= 0 ||
      tflopsF32 <= 0)
    return emitError() << "expected positive clock, bandwidth and peaks";
  if (dsmGbps.size() != 4 || dsmLatency.size() != 4)
    return emitError() << "expected dsm_gbps and dsm_latency for cluster "
                          "sizes 2, 4, 8 and 16 (4 entries each)";
  if (llvm::any_of(dsmGbps, [](int64_t v) { return v <= 0; }) ||
      llvm::any_of(dsmLatency, [](int64_t v) { return v <= 0; }))
    return emitError() << "expected positive DSM bandwidths and latencies";
  return success();
}

//===----------------------------------------------------------------------===//
// ScheduleAttr
//===----------------------------------------------------------------------===//

static constexpr LoopDim kAllDims[] = {LoopDim::m, LoopDim::n, LoopDim::k,
                                       LoopDim::l};

LogicalResult ScheduleAttr::verify(
    function_ref<InFlightDiagnostic()> emitError, ArrayRef<int64_t> cluster,
    ArrayRef<int64_t> block, ArrayRef<int64_t> grid, ArrayRef<LoopDim> order,
    ArrayRef<LoopDim> spatial, ArrayRef<MemTier> residency,
    ArrayRef<CollectiveKind> collectives, int64_t stages, int64_t costNs,
    int64_t mLo, int64_t mHi, bool deterministic, bool swapAb) {
  if (cluster.size() != 4 || block.size() != 4 || grid.size() != 4)
    return emitError() << "expected cluster, block and grid to have 4 entries "
                          "[m, n, k, l]";
  for (int64_t c : cluster)
    if (c < 1 || c > 16)
      return emitError() << "cluster extent " << c << " is not in [1, 16]";
  int64_t clsM = cluster[0], clsN = cluster[1], clsK = cluster[2];
  if (clsM * clsN * clsK > 16)
    return emitError() << "cluster of " << clsM * clsN * clsK
                       << " CTAs (cls_m*cls_n*cls_k) exceeds 16";
  // wgmma's k and m steps are 16 and 64; its n, 8 (blk_n: a GEMM kernel's
  // n tile sized to whole waves, getSoloGemmNTileViolation). Swapped
  // operands put blk_m on wgmma's n side and blk_n on its m side.
  for (auto [i, b] : llvm::enumerate(block)) {
    int64_t step = i == 1 ? (swapAb ? 64 : 8) : i == 0 && swapAb ? 8 : 16;
    if (b <= 0 || b % step != 0)
      return emitError() << "block tile " << b << " is not a positive multiple "
                         << "of " << step;
  }
  for (int64_t g : grid)
    if (g < 1)
      return emitError() << "grid extent " << g << " must be positive";
  if (grid[2] != 1)
    return emitError() << "k cannot be split across clusters (the activation "
                          "needs complete sums)";
  if (grid[3] != 1)
    return emitError() << "l cannot be split across clusters (each l tile "
                          "needs all of the intermediate)";

  // The loop order is a permutation of {m, n, k, l} with k after m and n
  // (pruning rule 3: GEMM0's reduction is innermost before the activation).
  if (order.size() != 4 || !llvm::all_of(kAllDims, [&](LoopDim d) {
        return llvm::is_contained(order, d);
      }))
    return emitError() << "order must be a permutation of [m, n, k, l]";
  auto pos = [&](LoopDim d) { return llvm::find(order, d) - order.begin(); };
  if (pos(LoopDim::k) < pos(LoopDim::m) || pos(LoopDim::k) < pos(LoopDim::n))
    return emitError() << "k must be nested inside m and n";

  for (auto [i, d] : llvm::enumerate(spatial))
    if (llvm::is_contained(spatial.drop_front(i + 1), d))
      return emitError() << "dimension " << stringifyLoopDim(d)
                         << " is listed twice in spatial";
  // A temporal n may be split over the cluster (never the grid): each of
  // the cls_n CTAs walks its share of the n loop and the cluster reduces
  // the E partials the loop leaves (checked with the chain by
  // verifyCollectives).
  for (LoopDim d : kAllDims) {
    unsigned i = static_cast<unsigned>(d);
    if (llvm::is_contained(spatial, d))
      continue;
    if (grid[i] != 1)
      return emitError() << "temporal dimension " << stringifyLoopDim(d)
                         << " cannot be split over the grid";
    if (cluster[i] != 1 && d != LoopDim::n)
      return emitError() << "temporal dimension " << stringifyLoopDim(d)
                         << " cannot be split over the cluster";
  }

  if (stages < 1 || stages > 8)
    return emitError() << "expected 1 to 8 pipeline stages, got " << stages;
  if (costNs < 0)
    return emitError() << "expected a non-negative cost estimate";
  if ((mLo != 0 || mHi != 0) && (mLo < 1 || mLo > mHi))
    return emitError() << "expected 1 <= m_lo <= m_hi, got [" << mLo << ", "
                       << mHi << "]";
  if (swapAb && block[0] > 256)
    return emitError() << "swapped operands take blk_m <= 256 (wgmma's n)";
  return success();
}

LogicalResult ScheduleAttr::verifyCollectives(
    ChainKind kind, function_ref<InFlightDiagnostic()> emitError) const {
  ArrayRef<int64_t> cluster = getCluster();
  ArrayRef<CollectiveKind> collectives = getCollectives();
  int64_t clsN = cluster[1], clsK = cluster[2], clsL = cluster[3];
  // Every collective the plan implies must be listed, and nothing else: the
  // lowering emits exactly these. A chain of one GEMM reduces only over k;
  // splitting its n (an output dimension) is plain parallelism.
  bool second = !isSingleGemmKind(kind);
  if (!second && clsN > 1 && !llvm::is_contained(getSpatial(), LoopDim::n))
    return emitError() << "a temporal n is split over the cluster only in "
                          "chains with a second GEMM (which reduce over n)";
  // The second GEMM's groups (a single GEMM has none: its cls_k CTAs only
  // reduce their C tiles).
  if (second && clsL % clsK != 0)
    return emitError() << "cls_l (" << clsL << ") must be a multiple of cls_k ("
                       << clsK << ") so that shuffle groups are whole";
  if (second && (clsN * clsK) % clsL != 0)
    return emitError() << "cls_n*cls_k (" << clsN * clsK
                       << ") must be a multiple of cls_l (" << clsL
                       << ") so that reduce groups are whole";
  int64_t shuffle = second ? clsL / clsK : 1;
  int64_t reduce = second ? clsN * clsK / clsL : 1;
  int64_t clustersN = second ? getGrid()[1] : 1;
  auto listed = [&](CollectiveKind c) {
    return llvm::is_contained(collectives, c);
  };
  if (clsK > 1 && !listed(CollectiveKind::all_exchange) &&
      !listed(CollectiveKind::multiply))
    return emitError() << "cls_k > 1 needs all_exchange or multiply";
  if (shuffle > 1 && !listed(CollectiveKind::shuffle))
    return emitError() << "shuffle groups of " << shuffle
                       << " CTAs need the shuffle collective";
  if (reduce > 1 && !listed(CollectiveKind::reduce_scatter))
    return emitError() << "reduce groups of " << reduce
                       << " CTAs need the reduce_scatter collective";
  if (clustersN > 1 && !listed(CollectiveKind::inter_cluster_reduce))
    return emitError() << "splitting n over " << clustersN
                       << " clusters needs inter_cluster_reduce";
  for (CollectiveKind c : collectives) {
    bool needed = false;
    switch (c) {
    case CollectiveKind::all_exchange:
    case CollectiveKind::multiply:
      needed = clsK > 1;
      break;
    case CollectiveKind::shuffle:
      needed = shuffle > 1;
      break;
    case CollectiveKind::reduce_scatter:
      needed = reduce > 1;
      break;
    case CollectiveKind::inter_cluster_reduce:
      needed = clustersN > 1;
      break;
    }
    if (!needed)
      return emitError() << "collective " << stringifyCollectiveKind(c)
                         << " is listed but the " << stringifyChainKind(kind)
                         << " plan needs none";
  }
  return success();
}

int64_t ScheduleAttr::getClusterSize() const {
  return getCluster()[0] * getCluster()[1] * getCluster()[2];
}

int64_t ScheduleAttr::getShuffleGroupSize() const {
  return getCluster()[3] / getCluster()[2];
}

int64_t ScheduleAttr::getReduceGroupSize() const {
  return getCluster()[1] * getCluster()[2] / getCluster()[3];
}

bool ScheduleAttr::isSpatial(LoopDim d) const {
  return llvm::is_contained(getSpatial(), d);
}

bool ScheduleAttr::uses(CollectiveKind c) const {
  return llvm::is_contained(getCollectives(), c);
}

//===----------------------------------------------------------------------===//
// ScheduleTableAttr
//===----------------------------------------------------------------------===//

LogicalResult
ScheduleTableAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                          ArrayRef<ScheduleAttr> plans) {
  if (plans.empty())
    return emitError() << "expected at least one plan";
  int64_t next = 1;
  for (auto [i, plan] : llvm::enumerate(plans)) {
    if (!plan.hasMBin())
      return emitError() << "plan " << i << " has no m_lo/m_hi bin";
    if (plan.getMLo() != next)
      return emitError() << "plan " << i << " starts at m = " << plan.getMLo()
                         << ", expected " << next
                         << " (bins must be sorted and contiguous from 1)";
    next = plan.getMHi() + 1;
  }
  return success();
}

ScheduleAttr ScheduleTableAttr::lookup(int64_t m) const {
  for (ScheduleAttr plan : getPlans())
    if (plan.getMLo() <= m && m <= plan.getMHi())
      return plan;
  return {};
}

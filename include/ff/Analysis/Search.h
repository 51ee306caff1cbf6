//===- Search.h - FlashFuser search engine ----------------------*- C++ -*-===//
//
// Part of the FlashFuser project.
//
// Algorithm 2 without the profiling step: enumerate the search space (41
// loop schedules x cluster shapes x block tiles x grid x pipeline depth),
// prune it with the paper's five rules plus register and occupancy limits,
// analyse and cost every survivor, and rank. Dynamic M is served by a plan
// table over M bins.
//
//===----------------------------------------------------------------------===//

#ifndef FF_ANALYSIS_SEARCH_H
#define FF_ANALYSIS_SEARCH_H

#include "ff/Analysis/CostModel.h"
#include "ff/Analysis/Plan.h"
#include "ff/Analysis/Target.h"

#include "llvm/ADT/SmallVector.h"

#include <array>
#include <functional>
#include <optional>
#include <vector>

namespace mlir::ff {

/// A loop schedule (FlashFuser Table IV): which dimensions are spatial and
/// the nesting order. Only the order of the temporal dimensions matters;
/// spatial ones are listed first in the order.
struct LoopSchedule {
  uint8_t spatialMask = 0;
  std::array<Dim, 4> order = {Dim::m, Dim::n, Dim::k, Dim::l};
};

/// The 41 schedules of Table IV: every non-empty spatial subset of
/// {m, n, k, l} with every order of the remaining temporal dimensions.
std::vector<LoopSchedule> enumerateLoopSchedules();

/// Pruning rules. Each returns true when the plan survives.
/// Rule 1: block tiles are multiples of 16 and either divide the extent or
/// leave an explicit tail of at most a quarter of the padded extent (M,
/// whose tail is masked by TMA, may always have one); spatial dimensions
/// are covered without idle CTAs.
bool passesTileRule(const Plan &plan, const ChainDesc &chain);
/// A measured rule on the lowerable choice, not a pruning rule of the
/// space: a two-GEMM chain's plan splits K (cls_k > 1, the shuffle family's
/// reduce before the gather) only where GEMM0's output is at most 16 tiles
/// of 64 x 64 and K at least 32 tiles of 64; a single GEMM past one m tile
/// (of its token rows, when swapped) only where K >= N, and over 4 or 8
/// only up to 640 rows.
bool passesSplitKRule(const Plan &plan, const ChainDesc &chain);
/// A measured rule on the lowerable choice: a gated pair's n tiles wider
/// than 128 (192, or a wave width of 144-176) only where the grid fits one
/// wave of `sms` CTAs, the case they exist for (a partial wave of narrower
/// tiles). At several waves the model priced 192 at or a fraction of a ns
/// below 128-wide tiles that ran faster.
bool passesWideGatedRule(const Plan &plan, const ChainDesc &chain, int64_t sms);
/// A measured rule on the lowerable choice: n tiles of a width no 64-row
/// box divides (the wave widths of K-major weights) only where the grid is
/// at most two waves of `sms` CTAs, where they were measured faster; for a
/// plain GEMM only the widths getWaveWidths sizes to its waves.
bool passesWaveTileRule(const Plan &plan, const ChainDesc &chain, int64_t sms);
/// A gated pair's plan, or a plain GEMM's on K-major weights, on such a
/// width (not a multiple of 64: the tiles passesWaveTileRule holds to two
/// waves and, for a gated pair, searchMBins keeps out of bins that span
/// m-tile counts).
bool isWaveWidthPlan(const Plan &plan, const ChainDesc &chain);
/// The n tile widths a single GEMM on K-major weights (`chain`) takes to
/// fill the `sms` SMs with `mTiles` m tiles: the narrowest width of one
/// wave in 16- and 8-column steps and of two waves in 16, 64 to 256 (8 to
/// 192 for a gated pair); none for other chains.
llvm::SmallVector<int64_t, 4> getWaveWidths(const ChainDesc &chain, int64_t sms,
                                            int64_t mTiles);
/// A gated pair's plan on n tiles wider than 128 (the tiles
/// passesWideGatedRule admits). searchMBins holds such a plan to the regret
/// rule even where binRegret is off.
bool isWideGatedPlan(const Plan &plan, const ChainDesc &chain);
/// Rule 2: cluster extents are powers of two <= 16, the cluster holds at
/// most `maxCluster` CTAs (the same shape serves both GEMMs), temporal
/// dimensions are not split, and with a second GEMM its shuffle and reduce
/// groups are whole (a single GEMM's cls_k CTAs just reduce C).
bool passesClusterRule(const Plan &plan, int64_t maxCluster,
                       bool secondGemm = true);
/// Rule 3: K is innermost before the activation (k after m and n).
bool passesActivationRule(const LoopSchedule &schedule);
/// Rule 4: L (and K) are not split across clusters.
bool passesDependencyRule(const Plan &plan);
/// Rule 5 and the register/occupancy limits are checked by
/// analyzeDataflow (feasible = false with the reason).

/// The kernel families of two-GEMM chains (isLowerable).
enum class KernelFamily { any, reduceScatter, shuffle, streamed };
/// The family of a two-GEMM chain's plan: streamed n (n temporal), shuffle
/// (cls_l = cls_n * cls_k > 1) or reduce-scatter (every other plan).
KernelFamily getKernelFamily(const Plan &plan);

struct SearchOptions {
  /// Restrict the chosen plan to isLowerable (the ranking is unchanged).
  bool lowerableOnly = true;
  /// How many of the best candidates of the full space to keep.
  int64_t keep = 32;
  /// The code generator's own check of a plan in the lowerable family (its
  /// exact shared-memory layout, operand forms): the last word on whether a
  /// plan can be carried out, as the dynamic shared memory of the kernel
  /// that carries it out (nullopt: it cannot). That size, not the
  /// analyser's, decides how many CTAs share an SM in estimateKernelNs.
  /// isLowerable() alone is the family's shape.
  std::function<std::optional<int64_t>(const Plan &, const Dataflow &)>
      kernelSmemBytes;
  /// Bitwise-reproducible results: every plan is marked
  /// Plan::deterministic, so an inter-cluster reduction goes through
  /// per-cluster workspace planes summed in cluster order (costed by
  /// estimateKernelNs) instead of fp32 atomics, which add in arrival order;
  /// the DSM reduce-scatter already sums in a fixed rank order.
  bool deterministic = false;
  /// Only plans of this family count as lowerable (two-GEMM chains).
  KernelFamily family = KernelFamily::any;
  /// One GEMM: also 64- and 128-wide tiles over all of K at up to 8 stages
  /// (isLowerable's wideGemmTiles); the GEMM constants are fitted on both
  /// families (docs/cost-model.md).
  bool wideGemmTiles = true;
  /// Gated GEMMs on K-major weights (ChainDesc::kMajorWeights): n tiles
  /// sized to whole waves (false: the chain is searched as if its weights
  /// were row-major, which admits only 64-multiple widths).
  bool waveTiles = true;
  /// A single or gated GEMM of static M with K-major weights is also
  /// searched as its transposed product (the weight's rows as wgmma's m,
  /// the chain's M rows as its n in tiles of any multiple of 8;
  /// Plan::swapAb): an M of a few hundred rows then pads to 8 rows rather
  /// than 128. Only plans of one CTA per cluster or, for a plain GEMM,
  /// split over 2 along k, which the lowering carries out swapped.
  bool swapOperands = true;
  /// With swapOperands: rank the transposed product at any M, not only
  /// where 128-row tiles pad M by a tenth or more (a dynamic M's bins,
  /// whose swapped plans a rule of their own judges).
  bool swapAtAnyM = false;
  /// Dynamic M (searchMBins): a bin takes the candidate of its upper end
  /// whose worst estimated regret at the bin's lower end, middle and upper
  /// end is least; false takes the upper end's best (one search per bin)
  /// unless that is a wide gated plan (isWideGatedPlan).
  bool binRegret = true;
  /// Dynamic M: the upper end of the 64-row bins (getDefaultMBins); 0
  /// takes the chain's own (getFineMBinsHi). A sequence's halves take
  /// their FFN's so that the three tables share their bins.
  int64_t fineMBinsHi = 0;
};

struct Candidate {
  Plan plan;
  Dataflow flow;
  Cost cost;
  bool lowerable = false;
  /// A lowerable gated pair's tile wider than 128 columns past one wave
  /// (passesWideGatedRule): priced level with another plan, it ranks after
  /// it, a swapped one included.
  bool yieldsTies = false;
};

struct SearchStats {
  int64_t schedules = 0;        ///< loop schedules considered (41)
  int64_t prunedActivation = 0; ///< schedules removed by rule 3
  int64_t clusterShapes = 0;    ///< (schedule, cluster) pairs kept by rule 2
  int64_t prunedCluster = 0;
  int64_t prunedTile = 0;       ///< rule 1
  int64_t prunedDependency = 0; ///< rule 4
  int64_t prunedCapacity = 0;   ///< rule 5 + registers + occupancy
  int64_t evaluated = 0;        ///< plans analysed and costed
  int64_t lowerable = 0;        ///< of those, in the lowerable family
};

struct SearchResult {
  /// The best `keep` candidates of the full space, best first.
  std::vector<Candidate> ranked;
  /// The best `keep` candidates of the lowerable family, best first.
  std::vector<Candidate> rankedLowerable;
  /// The best candidate in the lowerable family, if any.
  std::optional<Candidate> bestLowerable;
  SearchStats stats;
  /// The chosen plan: bestLowerable when lowerableOnly and one exists,
  /// else ranked.front(); null when nothing survived pruning.
  const Candidate *getChosen(bool lowerableOnly) const;
};

/// Searches the plan space of `chain` (chain.m must be positive).
SearchResult searchChain(const ChainDesc &chain, const GpuTarget &target,
                         const SearchOptions &options = {});

/// One bin of a dynamic-M plan table: rows [lo, hi]; `rep` is the M the
/// plan is searched at.
struct MBin {
  int64_t lo, hi, rep;
};
/// Upper bound recorded for the open last bin.
inline constexpr int64_t kOpenBinHi = 2147483647;
/// 1-64, 65-128, 32-row bins from 129 to 256 (129-160, ..., 225-256),
/// 64-row bins from 257 to `fineHi` (257-320,
/// ..., a multiple of 64 up to 1024), one bin from there to 1024,
/// 1025-2048, 2049-4096, 4097-8192, 8193-open (represented by 16384).
llvm::SmallVector<MBin> getDefaultMBins(int64_t fineHi = 768);
/// The upper end of a chain's 64-row M bins: 1024 for an FFN (plain or
/// gated) or a gated GEMM, 768 for a lone GEMM or a longer chain (measured
/// per chain kind).
int64_t getFineMBinsHi(const ChainDesc &chain);

struct BinnedPlan {
  MBin bin;
  Candidate candidate;
};
/// Searches every bin at its representative M (its upper end) and picks
/// among the lowerable candidates there the one whose worst regret at the
/// bin's lower end, middle and upper end is least: one entry per default
/// bin, or per part of one split where its swapped plan's token width adds
/// a tile inside it (each part searched as a bin of its own, rows to the
/// tile's edge and past it). Fails (empty) if some bin has no plan.
std::vector<BinnedPlan> searchMBins(const ChainDesc &chain,
                                    const GpuTarget &target,
                                    const SearchOptions &options = {});
/// searchMBins with neighbouring bins whose plans differ only in the M grid
/// merged (the later bin's entry serves the merged bin).
std::vector<BinnedPlan> searchDynamicM(const ChainDesc &chain,
                                       const GpuTarget &target,
                                       const SearchOptions &options = {});
/// Whether two plans differ at most in the M extent of their grid.
bool sameButMGrid(const Plan &a, const Plan &b);

} // namespace mlir::ff

#endif // FF_ANALYSIS_SEARCH_H

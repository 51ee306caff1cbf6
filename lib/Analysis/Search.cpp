//===- Search.cpp - FlashFuser search engine --------------------*- C++ -*-===//
//
// Part of the FlashFuser project.
//
//===----------------------------------------------------------------------===//

#include "ff/Analysis/Search.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <tuple>

using namespace mlir::ff;

KernelFamily mlir::ff::getKernelFamily(const Plan &plan) {
  if (!plan.isSpatial(Dim::n))
    return KernelFamily::streamed;
  return plan.isShuffleFamily() ? KernelFamily::shuffle
                                : KernelFamily::reduceScatter;
}

static int64_t ceilDiv(int64_t a, int64_t b) {
  return static_cast<int64_t>(llvm::divideCeil(a, b));
}
static int64_t align16(int64_t v) {
  return static_cast<int64_t>(llvm::alignTo(v, 16));
}
static int64_t alignTo8(int64_t v) {
  return static_cast<int64_t>(llvm::alignTo(v, 8));
}
static constexpr uint8_t bit(Dim d) { return 1u << static_cast<unsigned>(d); }

/// Fewest tiles each CTA of a temporal loop split over the cluster walks.
static constexpr int64_t kMinSplitTiles = 4;

/// A fused chain splits K over the cluster only with GEMM0's output at most
/// this many 64 x 64 tiles (SMs / 8 on an H100) and K at least this many
/// 64-wide k tiles.
static constexpr int64_t kMaxSplitKOutputTiles = 16;
static constexpr int64_t kMinSplitKTiles = 32;

//===----------------------------------------------------------------------===//
// Loop schedules and pruning rules
//===----------------------------------------------------------------------===//

/// Spatial dimensions first (k, if spatial, right after m and n so that the
/// order keeps k inside them), then the temporal ones in `temporal` order.
static std::array<Dim, 4> buildOrder(uint8_t mask,
                                     llvm::ArrayRef<Dim> temporal) {
  llvm::SmallVector<Dim, 4> order;
  for (Dim d : {Dim::m, Dim::n, Dim::l})
    if (mask & bit(d))
      order.push_back(d);
  order.append(temporal.begin(), temporal.end());
  if (mask & bit(Dim::k)) {
    auto pos = [&](Dim d) {
      return static_cast<size_t>(llvm::find(order, d) - order.begin());
    };
    size_t at = std::max(pos(Dim::m), pos(Dim::n)) + 1;
    order.insert(order.begin() + at, Dim::k);
  }
  return {order[0], order[1], order[2], order[3]};
}

std::vector<LoopSchedule> mlir::ff::enumerateLoopSchedules() {
  std::vector<LoopSchedule> out;
  // Fewer spatial dimensions first, as in Table IV.
  for (int count = 1; count <= 4; ++count) {
    for (uint8_t mask = 1; mask < 16; ++mask) {
      if (llvm::popcount(mask) != count)
        continue;
      llvm::SmallVector<Dim, 4> temporal;
      for (Dim d : kAllDims)
        if (!(mask & bit(d)))
          temporal.push_back(d);
      do {
        out.push_back({mask, buildOrder(mask, temporal)});
      } while (std::next_permutation(temporal.begin(), temporal.end()));
    }
  }
  return out;
}

bool mlir::ff::passesActivationRule(const LoopSchedule &s) {
  auto pos = [&](Dim d) { return llvm::find(s.order, d) - s.order.begin(); };
  return pos(Dim::k) > pos(Dim::m) && pos(Dim::k) > pos(Dim::n);
}

bool mlir::ff::passesClusterRule(const Plan &plan, int64_t maxCluster,
                                 bool secondGemm) {
  for (Dim d : kAllDims) {
    int64_t c = plan.cls(d);
    if (c < 1 || c > 16)
      return false;
    // A temporal n may be split over the cluster where a second GEMM
    // reduces the partial E tiles (Plan.h, streamed n); nothing else.
    if (!plan.isSpatial(d) && c != 1 && !(d == Dim::n && secondGemm))
      return false;
    // Beyond the paper's powers of two (the search tries 3, 6 and 12):
    // only the shuffle shape (cls_n = cls_l, cls_m = cls_k = 1), whose
    // groups then tile N and L of 3 * 2^k with fewer clusters along n.
    if (!llvm::isPowerOf2_64(c) &&
        (d == Dim::m || d == Dim::k || plan.cls(Dim::n) != plan.cls(Dim::l) ||
         plan.cls(Dim::m) != 1 || plan.cls(Dim::k) != 1))
      return false;
  }
  if (plan.getClusterSize() > maxCluster)
    return false;
  int64_t clsN = plan.cls(Dim::n), clsK = plan.cls(Dim::k),
          clsL = plan.cls(Dim::l);
  return !secondGemm || (clsL % clsK == 0 && (clsN * clsK) % clsL == 0);
}

bool mlir::ff::passesDependencyRule(const Plan &plan) {
  return plan.grd(Dim::l) == 1 && plan.grd(Dim::k) == 1;
}

bool mlir::ff::passesSplitKRule(const Plan &plan, const ChainDesc &chain) {
  // A single GEMM splits K past one m tile only where K >= N. Where N is
  // wider (an FFN's up GEMM) its unsplit tiles fill the GPU in a few waves
  // and the split's reduction and halved k loops cost more than the tail it
  // evens out: G5's and G8's up GEMMs at M = 256-1024 ran 1.4-1.9x slower
  // split over 2 than unsplit (H200 sweep, docs/benchmarks/
  // gemm-sweep-h200-s38.csv), and G5's chain at M = 600 and 800 1.08x and
  // 1.11x faster with the split the model ranked first taken away (H200,
  // docs/validation.md, fifty-fourth session). Down GEMMs (K >= N) keep it:
  // unsplit, G5's at M = 700 ran its chain 1.07x slower.
  if (!chain.hasSecondGemm() && plan.cls(Dim::k) > 1 && chain.m > 0) {
    const bool swapped = chain.swappedProduct;
    const int64_t rows = swapped ? chain.n : chain.m;
    const int64_t cols = swapped ? chain.m : chain.n;
    // Nor over 4 or 8 past five 128-row tiles, where unsplit tiles fill the
    // SMs: G9's down GEMM over 4 (512-k slices) ran its chain 1.07x slower
    // at M = 680-720 than on unsplit 64 x 64 tiles; in 64-row bins at
    // 800-960 it ran 0.89-0.93x the one 769-1024 bin's time split, 0.96-1.00x
    // unsplit, G6 at 870 0.95x split over 4 (1024-k slices), 1.03x over 2
    // (H200, docs/validation.md, fifty-fifth session).
    if (plan.cls(Dim::k) >= 4 && rows > 5 * 128)
      return false;
    // Nor over 8 on unswapped 128-row tiles: S6's down GEMM at M = 128 on
    // 12 x 8 CTAs of 128 x 128 ran its chain 1.06x slower than on 24 x 4 of
    // 128 x 64, and G8's, S1's, S2's, S4's, S5's, S7's and S8's on 128-row
    // tiles over 8 (64-112 CTAs) 1.03-1.10x slower than over 4 (H200,
    // docs/validation.md, sixty-seventh session). 64-row tiles keep it:
    // there the model's next plan over 4 (G4's 128 x 64) ran slower.
    if (plan.cls(Dim::k) == 8 && !swapped && plan.blk(Dim::m) == 128)
      return false;
    return rows <= plan.blk(swapped ? Dim::n : Dim::m) || chain.k >= cols;
  }
  // Split K inside a fused chain pays a reduce-scatter of fp32 partials, the
  // activation of a slice and two cluster barriers before the gather, which
  // the model underprices (by 10-47 % against the unsplit plan, measured on
  // an H100, docs/validation.md, twenty-second session): it was faster only
  // where GEMM0's output is a few tiles and its long K loop runs on few
  // CTAs (C8-b1: 8 tiles, K = 4608, 24.3 -> 15.5 us; C7-b1: 16 tiles, K =
  // 2304, 14.7 -> 13.3) and slower with more tiles or a shorter K (G7: 24
  // tiles, K = 768, 13.2 -> 17.0; C6-b1, C7-b32, G5 at M = 64).
  if (!chain.hasSecondGemm() || plan.cls(Dim::k) == 1)
    return true;
  int64_t outputTiles =
      ceilDiv(std::max<int64_t>(chain.m, 1), 64) * ceilDiv(chain.n, 64);
  return outputTiles <= kMaxSplitKOutputTiles &&
         ceilDiv(chain.k, 64) >= kMinSplitKTiles;
}

bool mlir::ff::isWideGatedPlan(const Plan &plan, const ChainDesc &chain) {
  // (A swapped pair's n is its token tile: passesWaveTileRule.)
  return chain.isGated() && !chain.swappedProduct && plan.blk(Dim::n) > 128;
}

bool mlir::ff::isWaveWidthPlan(const Plan &plan, const ChainDesc &chain) {
  if (plan.blk(Dim::n) % 64 == 0)
    return false;
  return chain.isGated() || (!chain.hasSecondGemm() && chain.kMajorWeights);
}

llvm::SmallVector<int64_t, 4>
mlir::ff::getWaveWidths(const ChainDesc &chain, int64_t sms, int64_t mTiles) {
  llvm::SmallVector<int64_t, 4> widths;
  if (chain.hasSecondGemm() || !chain.kMajorWeights || mTiles <= 0)
    return widths;
  // Two accumulators of a gated pair stay live: up to 192 columns. A
  // plain GEMM's narrower tiles than 64 re-read A for every few columns
  // (and were never measured): 64 up.
  const int64_t maxWidth = chain.isGated() ? 192 : 256;
  const int64_t minWidth = chain.isGated() ? 8 : 64;
  for (int64_t waves : {1, 2}) {
    int64_t perM = waves * sms / mTiles;
    if (perM <= 0)
      continue;
    const int64_t fill = ceilDiv(chain.n, perM);
    for (int64_t bn : {align16(fill), waves == 1 ? alignTo8(fill) : 0})
      if (bn >= minWidth && bn <= maxWidth && !llvm::is_contained(widths, bn))
        widths.push_back(bn);
  }
  return widths;
}

/// The narrowest multiple of `align` that covers n in `tiles` tiles.
static int64_t getCoveringWidth(int64_t n, int64_t tiles, int64_t align = 8) {
  return ceilDiv(ceilDiv(n, tiles), align) * align;
}

/// A swapped plain product's narrow widths for 64-row weight tiles: for
/// each tile count past ceil(n / 128) up to ceil(n / 64) the narrowest
/// 8-row multiple that covers n (n = 304, M = 300: 80 and 64; n = 800:
/// 104, 96, 80, 72 and 64).
static llvm::SmallVector<int64_t, 4>
getNarrowFitWidths(const ChainDesc &chain) {
  llvm::SmallVector<int64_t, 4> widths;
  if (!chain.swappedProduct || chain.isGated())
    return widths;
  for (int64_t t = ceilDiv(chain.n, 128) + 1; t <= ceilDiv(chain.n, 64); ++t) {
    int64_t w = getCoveringWidth(chain.n, t);
    if (w >= 64 && w < 128 && !llvm::is_contained(widths, w))
      widths.push_back(w);
  }
  return widths;
}

/// A swapped product's widths for its n (the GEMM's M rows): for each
/// tile count from ceil(n / 256) to ceil(n / 128) the narrowest 8-column
/// multiple that covers n (M = 800: 200, 160, 136, 120 -> 200, 160, 136;
/// M = 300: 152).
static llvm::SmallVector<int64_t, 4> getFitWidths(const ChainDesc &chain,
                                                  int64_t align = 8) {
  llvm::SmallVector<int64_t, 4> widths;
  if (!chain.swappedProduct)
    return widths;
  for (int64_t t = ceilDiv(chain.n, 256); t <= ceilDiv(chain.n, 128); ++t) {
    int64_t w = getCoveringWidth(chain.n, t, align);
    if (w >= 128 && w <= 256 && !llvm::is_contained(widths, w))
      widths.push_back(w);
  }
  return widths;
}

/// A swapped gated pair's token width of as many token tiles as 128-row
/// tiles of n take, narrowed to cover n (M = 300: 3 tiles of 104), where
/// that is below getFitWidths' 128; else 0.
static int64_t getGatedTileCountWidth(const ChainDesc &chain) {
  if (!chain.swappedProduct || !chain.isGated())
    return 0;
  int64_t w = getCoveringWidth(chain.n, ceilDiv(chain.n, 128));
  return w >= 64 && w < 128 ? w : 0;
}

/// A swapped plain product's token width for a split over `ck` along k on
/// 128 weight rows: two token tiles narrowed to cover n in whole 8-column
/// groups per rank (M = 200, split over 2: 2 tiles of 112), where that is
/// below getFitWidths' 128; else 0. Only for n of 129-256: three and four
/// such tiles measured 2-6 % slower than 128-token tiles on an H200 (S7 at
/// M = 300, G8, S2, S4, S5 at 420; docs/validation.md, sixty-first session).
static int64_t getSplitTileCountWidth(const ChainDesc &chain, int64_t ck) {
  if (!chain.swappedProduct || chain.isGated() || ck < 2 ||
      ceilDiv(chain.n, 128) != 2)
    return 0;
  int64_t w = getCoveringWidth(chain.n, 2, 8 * ck);
  return w >= 64 && w < 128 ? w : 0;
}

bool mlir::ff::passesWaveTileRule(const Plan &plan, const ChainDesc &chain,
                                  int64_t sms) {
  // A swapped product's 256-row weight tiles: one wave over at least 90 %
  // of the SMs. G5's up GEMM at M = 300 (64 x 2 tiles of 256 x 152) ran
  // 1.08x faster than on 128 rows, its chain 1.04x; with 64-96 CTAs (G6,
  // G8 at M = 300) 0.81-0.89x, with 320 (G5 at M = 800, 2.4 waves) 0.81x.
  // A swapped split K likewise: the down GEMMs of G5 and S3 at M = 300
  // (32 x 2 tiles over 2) ran their chains 1.12x and 1.06x faster; with
  // 64-96 CTAs (G8, S1, S7) 0.88-0.99x, split over 4 (2 waves) 0.82-0.94x
  // (H200, docs/validation.md, fiftieth session).
  // Two token tiles narrowed to M (129-255 rows) fill down to 60 %: S1's
  // and S7's down GEMMs at M = 150-220 (96 and 80 CTAs on 6-7 stages) ran
  // their chains 1.02-1.06x faster than on the unswapped 128 x 128 split
  // (4 stages); G8's 64 CTAs stay out (H200, docs/validation.md,
  // sixty-second session).
  if (chain.swappedProduct &&
      (plan.blk(Dim::m) == 256 || plan.cls(Dim::k) > 1)) {
    int64_t ctas = plan.getNumCtas();
    const bool tileCount =
        plan.cls(Dim::k) > 1 && plan.blk(Dim::m) == 128 &&
        plan.blk(Dim::n) == getSplitTileCountWidth(chain, plan.cls(Dim::k));
    // A split's token tiles are the fitted ones (whole groups per rank).
    if (plan.cls(Dim::k) > 1 && !tileCount &&
        !llvm::is_contained(getFitWidths(chain, 8 * plan.cls(Dim::k)),
                            plan.blk(Dim::n)))
      return false;
    return ctas <= sms && ctas * 10 >= sms * (tileCount ? 6 : 9);
  }
  // A swapped plain product's 64-row weight tiles against narrow fitted
  // token tiles: one wave of one CTA per cluster. Set by hand like cuBLAS's
  // tst_64x80 down GEMMs at M = 300 (8-stage rings), S2's down GEMM on
  // 32 x 4 tiles of 80 tokens ran its chain 1.10x faster than split over
  // 4 along k, G8's on 104 1.04x, S4's 1.03x; past one wave 0.72-0.85x
  // (S7 on 40 x 4, S1 on 48 x 3-4), and S7's on 40 x 3 of 104 0.97x
  // against a split K of 120 CTAs (H200, docs/validation.md, fifty-first
  // session). The model ranks it first for S2 at 300, G9 at 300 and G4
  // and G7 at 800, which ran 1.08-1.16x faster.
  if (chain.swappedProduct && plan.blk(Dim::m) == 64 &&
      llvm::is_contained(getNarrowFitWidths(chain), plan.blk(Dim::n)))
    return plan.getClusterSize() == 1 && plan.getNumCtas() <= sms;
  // A swapped gated pair (gate's and up's 128-row weight tiles against one
  // token tile): fitted token widths whose tiles fill their waves to 90 %.
  // On an H200 the S chains at M = 300 and 800 ran 1.01-1.19x faster so
  // (S2 at 800 on 44 x 6 tiles of 136 tokens, 2.0 waves: 1.19x; S7 on
  // 76 x 5 of 160, 2.9: 1.17x); fills of 53-88 % ran 0.82-1.05x (S7 at 300
  // on 76 x 2 tiles of 152: 0.90x), and narrower token tiles lost even
  // with full waves (S7 at 300 on 64: 0.89x; docs/validation.md,
  // fifty-first session). With staged stores, also the token tiles of the
  // unswapped 128-row tiles' count (M = 300: 104), as many tiles as those
  // and less padding, down to 75 % fills: S2, S3 and S5 at 300 (98-100 %)
  // ran 1.015-1.047x faster so, S7 (86 %) 1.033x, S6 (80 %) 1.007x, S8
  // (55 %, against wave-width tiles) 0.971x (fifty-second session).
  if (chain.swappedProduct && chain.isGated()) {
    int64_t ctas = plan.getNumCtas();
    int64_t slots = ceilDiv(ctas, sms) * sms;
    if (plan.blk(Dim::n) == getGatedTileCountWidth(chain))
      return ctas * 4 >= slots * 3;
    return llvm::is_contained(getFitWidths(chain), plan.blk(Dim::n)) &&
           ctas * 10 >= slots * 9;
  }
  // A swapped product's fitted widths take any number of waves.
  if (llvm::is_contained(getFitWidths(chain), plan.blk(Dim::n)))
    return true;
  // S3's gate|up GEMM at M = 1024 on 8 x 115 tiles of 128 x 96 (7 waves)
  // ran its chain 1.03x slower than on 8 x 86 of 128 x 128 (H200,
  // docs/validation.md, forty-second session).
  if (!isWaveWidthPlan(plan, chain))
    return true;
  if (plan.getNumCtas() > 2 * sms)
    return false;
  // A plain GEMM takes only the widths sized to its waves: the narrower
  // fixed ones (16-96) were never measured on it.
  return chain.isGated() ||
         llvm::is_contained(getWaveWidths(chain, sms, plan.grd(Dim::m)),
                            plan.blk(Dim::n));
}

bool mlir::ff::passesWideGatedRule(const Plan &plan, const ChainDesc &chain,
                                   int64_t sms) {
  // S3's gate|up GEMM on an H200: at M = 256 2 x 58 tiles of 128 x 192 (one
  // wave) ran 1.23x faster than 2.6 waves of 128 x 64; at M = 512 (1.8
  // waves) 147 against 144 us, at M = 1024 its chain 1.03x slower
  // (docs/validation.md, fortieth session).
  // Past one wave only on rings of four stages or more (up to 160
  // columns), up to two waves: those losses were 192-wide tiles, whose
  // gate and up slots leave room for three stages. S6's gated GEMM at
  // M = 440 on 4 x 63 tiles of 128 x 144 (the two-wave width,
  // getWaveWidths) ran 1.27x faster than on 4 x 70 of 128 x 128 (2.1
  // waves), 128 x 160 1.20x, 128 x 192 on three stages 0.97x (H200,
  // docs/validation.md, fifty-ninth session).
  if (!isWideGatedPlan(plan, chain) || plan.getNumCtas() <= sms)
    return true;
  return plan.stages >= 4 && plan.getNumCtas() <= 2 * sms;
}

bool mlir::ff::passesTileRule(const Plan &plan, const ChainDesc &chain) {
  for (Dim d : kAllDims) {
    int64_t extent = chain.getExtent(d);
    if (extent <= 0)
      continue; // l of one GEMM
    int64_t blk = plan.blk(d);
    // Wave widths of a gated GEMM step by 8 columns (appendWaveTiles).
    const int64_t step = d == Dim::n && isWaveWidthPlan(plan, chain) ? 8 : 16;
    if (blk <= 0 || blk % step != 0)
      return false;
    int64_t padded;
    if (plan.isSpatial(d)) {
      // Uncovered rows or idle CTAs; along m, the last cluster's CTAs
      // past M are allowed (a cluster along m shares B whatever M is).
      int64_t parallel = plan.cls(d) * plan.grd(d);
      int64_t used =
          d == Dim::m ? (plan.grd(d) - 1) * plan.cls(d) + 1 : parallel;
      if (parallel * blk < extent || (used - 1) * blk >= extent)
        return false;
      padded = parallel * blk;
    } else {
      // A temporal loop split over the cluster (n only, passesClusterRule)
      // gives each CTA at least kMinSplitTiles tiles: the split pays a
      // reduce-scatter and two cluster barriers once. Measured on an H100
      // (docs/validation.md, twenty-first session): at 8 n tiles per CTA
      // 1.3-1.7x faster than the unsplit plan, at 2 slower than the best
      // other plan on 6 of 7 shapes, which the model does not see.
      int64_t split = plan.cls(d);
      if (plan.grd(d) != 1 || blk > align16(extent) ||
          (split > 1 && ceilDiv(extent, blk) < kMinSplitTiles * split))
        return false;
      padded = ceilDiv(extent, split * blk) * split * blk;
    }
    // An explicit tail wastes at most a quarter of the work; M's tail is
    // masked by TMA and always allowed (small and dynamic M need it).
    if (d != Dim::m && 4 * (padded - extent) > padded)
      return false;
  }
  return true;
}

//===----------------------------------------------------------------------===//
// Search
//===----------------------------------------------------------------------===//

const Candidate *SearchResult::getChosen(bool lowerableOnly) const {
  if (lowerableOnly && bestLowerable)
    return &*bestLowerable;
  return ranked.empty() ? nullptr : &ranked.front();
}

/// Strict, deterministic ranking by `ns`: cost, then (with `kernel`, the
/// lowerable family's ranking) plans that yield ties last, then smaller
/// clusters, then fewer stages (or more, with `kernel`), then the plan's
/// fields.
static bool rankBy(const Candidate &a, const Candidate &b, double na, double nb,
                   bool kernel = false) {
  // Costs equal to the nanosecond the schedule records are ties: S3's
  // gated GEMM at M = 1024 priced 128 x 192 tiles on a 3-stage ring a
  // fraction of a ns below 128 x 128 on 4 stages (both 330133 ns), and the
  // deeper ring ran 1.03x faster (docs/validation.md, fortieth session).
  if (std::llround(na) != std::llround(nb))
    return na < nb;
  // A tie goes to the plan of the chain's own operand order (a swapped
  // one stores its result transposed, 2 bytes at a time), but not to a
  // gated pair's wide tiles past one wave (Candidate::yieldsTies): S8's
  // gated GEMM at M = 1500 ran 1.02x faster on 24 x 11 swapped tiles of
  // 144 tokens than on 12 x 22 of 128 x 144, priced the same (H200,
  // docs/validation.md, fifty-ninth session).
  auto key = [&](const Candidate &c) {
    const Plan &p = c.plan;
    return std::make_tuple(kernel && c.yieldsTies, p.swapAb, p.getClusterSize(),
                           kernel ? -p.stages : p.stages, p.cluster, p.block,
                           p.grid, p.spatialMask, p.order);
  };
  return key(a) < key(b);
}
/// The whole space: the analytical model.
static bool better(const Candidate &a, const Candidate &b) {
  return rankBy(a, b, a.cost.totalNs, b.cost.totalNs);
}
/// The lowerable family: the measured kernel-family model. It does not
/// price the ring depth where the depth changes no occupancy, but of the 24
/// plans timed at several depths on an H200 the deepest ring was fastest
/// for 22 (up to 20 % faster, at worst 0.9 % slower;
/// docs/benchmarks/fidelity-h200.csv), so such ties go to the deeper ring.
static bool betterKernel(const Candidate &a, const Candidate &b) {
  return rankBy(a, b, a.cost.kernelNs, b.cost.kernelNs, /*kernel=*/true);
}

/// Candidate tiles along a temporal dimension (or a spatial one split over
/// the grid): multiples of 16 that wgmma shapes take, and the extent itself
/// when it is one tile.
static llvm::SmallVector<int64_t, 12> wideTiles(int64_t extent) {
  llvm::SmallVector<int64_t, 12> tiles;
  for (int64_t t : {16, 32, 48, 64, 96, 128, 192, 256})
    if (t <= align16(extent))
      tiles.push_back(t);
  int64_t whole = align16(extent);
  if (whole <= 256 && !llvm::is_contained(tiles, whole))
    tiles.push_back(whole);
  return tiles;
}

/// A single GEMM on K-major weights takes n tiles of any 8-column multiple
/// (getSoloGemmNTileViolation). The search offers the narrowest width whose
/// grid of `mTiles` m tiles fills one wave of the GPU's SMs, in 8- and
/// 16-column steps, and the narrowest 16-column one filling two
/// (getWaveWidths). On an H200 16-column widths ran the S chains' gate|up
/// GEMMs 1.04-1.30x faster than the 64-, 128- or 192-wide tiles that left
/// SMs idle or a partial wave (S2 at M = 128 on 118 tiles of 48: 19.2 ->
/// 14.8 us; docs/validation.md, forty-second session), and one-wave
/// 8-column widths their chains another 1.00-1.04x (S3 on 126 tiles of 88
/// against 115 of 96, S5 1.04x); S7's two-wave 40 against one-wave 80 ran
/// 1.03x slower (forty-third session), which the model prices as a tie.
/// Plain GEMMs: C4-b32's first kernel (M = 1568, N = 2048, K = 512) on
/// 13 x 10 tiles of 128 x 208 ran its chain 1.03x faster than on 13 x 8 of
/// 128 x 256, S7's down GEMM at M = 300-1024 on 128 x 80 and 128 x 160
/// 1.08-1.17x faster than split over 2 or 4 along k (forty-seventh
/// session).
static void appendWaveTiles(const ChainDesc &chain, const GpuTarget &target,
                            int64_t mTiles,
                            llvm::SmallVectorImpl<int64_t> &tiles) {
  for (int64_t bn : getWaveWidths(chain, target.sms, mTiles))
    if (!llvm::is_contained(tiles, bn))
      tiles.push_back(bn);
}

static llvm::SmallVector<int64_t, 4> reductionTiles(int64_t extent) {
  llvm::SmallVector<int64_t, 4> tiles;
  for (int64_t t : {32, 64, 128})
    if (t <= align16(extent))
      tiles.push_back(t);
  if (tiles.empty())
    tiles.push_back(align16(extent));
  return tiles;
}

/// Inserts `cand` into the list `r` of at most `keep` entries, best first
/// by `better`.
template <typename Less>
static void insertRanked(std::vector<Candidate> &r, Candidate cand,
                         size_t keep, Less better) {
  if (r.size() == keep && !better(cand, r.back()))
    return;
  // Schedules that differ only in the position of a one-trip loop cost
  // the same: keep one representative of each.
  auto twin = llvm::find_if(r, [&](const Candidate &o) {
    return o.cost.totalNs == cand.cost.totalNs &&
           o.cost.kernelNs == cand.cost.kernelNs &&
           o.plan.cluster == cand.plan.cluster &&
           o.plan.block == cand.plan.block && o.plan.grid == cand.plan.grid &&
           o.plan.stages == cand.plan.stages;
  });
  if (twin != r.end()) {
    if (!better(cand, *twin))
      return;
    r.erase(twin);
  }
  auto it = std::upper_bound(r.begin(), r.end(), cand, better);
  r.insert(it, std::move(cand));
  if (r.size() > keep)
    r.pop_back();
}

/// `flow` with the CTAs per SM the kernel's shared memory allows
/// (options.kernelSmemBytes), or nullopt where the kernel does not fit.
static std::optional<Dataflow> getKernelFlow(const Plan &plan, Dataflow flow,
                                             const GpuTarget &target,
                                             const SearchOptions &options) {
  if (!options.kernelSmemBytes)
    return flow;
  std::optional<int64_t> smem = options.kernelSmemBytes(plan, flow);
  if (!smem)
    return std::nullopt;
  // The kernel's dynamic bytes, its static ones (smemReserved) and the
  // driver's per-CTA reserve: without the reserve, 2 x 115712 dynamic bytes
  // counted as two CTAs per SM where the driver fits one (ncu on an H100:
  // S3's 4 x 4 plan ran 2.6 waves, not 1.3).
  flow.ctasPerSm = std::min<int64_t>(
      flow.ctasPerSm, target.getCtasPerSmBySmem(*smem + target.smemReserved));
  return flow;
}

/// The fewest of the chain's M rows a swapped tile takes (its wgmma n).
static constexpr int64_t kMinSwappedRows = 128;

/// Whether `desc` has a transposed product the lowering carries out
/// swapped (Plan::swapAb): a single or gated GEMM on K-major weights, no
/// convolution, N a multiple of the 64-row weight tiles.
static bool mayRunSwapped(const ChainDesc &desc) {
  return (desc.kind == ChainKind::gemm || desc.kind == ChainKind::gatedGemm) &&
         desc.kMajorWeights && desc.convW == 0 && desc.n % 64 == 0;
}

/// `desc`'s transposed product C^T = W A^T (Plan::swapAb) and the options
/// that search and price it: its m is the weight's N, its n the chain's M
/// rounded up to 8 (the rows past M are TMA's zero fill), and A, read
/// K-major, is its weight.
static ChainDesc getSwappedProduct(const ChainDesc &desc) {
  ChainDesc t = desc;
  t.m = desc.n;
  t.n = (desc.m + 7) / 8 * 8;
  t.kMajorWeights = true;
  t.swappedProduct = true;
  return t;
}
static SearchOptions getSwappedOptions(const SearchOptions &options) {
  SearchOptions o = options;
  o.swapOperands = false;
  // The lowering judges the swapped schedule, not the transposed chain's.
  if (options.kernelSmemBytes)
    o.kernelSmemBytes = [judge = options.kernelSmemBytes](
                            const Plan &plan, const Dataflow &flow) {
      Plan swapped = plan;
      swapped.swapAb = true;
      return judge(swapped, flow);
    };
  return o;
}

/// Adds to `result` the lowerable plans of `desc`'s transposed product
/// (getSwappedProduct), priced as that product.
static void addSwappedCandidates(const ChainDesc &desc, const GpuTarget &target,
                                 const SearchOptions &options, size_t keep,
                                 SearchResult &result) {
  ChainDesc t = getSwappedProduct(desc);
  SearchResult r = searchChain(t, target, getSwappedOptions(options));
  result.stats.evaluated += r.stats.evaluated;
  result.stats.lowerable += r.stats.lowerable;
  for (Candidate c : r.rankedLowerable) {
    // One CTA per cluster over all of K: no split K, no multicast. At
    // least 128 of the chain's rows per tile: a tile reads its 128 weight
    // rows for every blk_m of them, and of 21 chains the model swapped
    // onto 64-104-row tiles 13 ran 0.89-0.99x on an H200 (mostly down
    // GEMMs of long K; 6 ran faster), those on 128 rows or more
    // 0.99-1.12x (forty-ninth session, docs/validation.md).
    // Or the same split over 2 along k (isLowerable). Or 64 weight rows
    // against a narrow fitted token tile, one wave (passesWaveTileRule).
    // Or a gated pair's tile-count width (passesWaveTileRule).
    const bool narrowWidth =
        (c.plan.blk(Dim::m) == 64 &&
         llvm::is_contained(getNarrowFitWidths(t), c.plan.blk(Dim::n))) ||
        c.plan.blk(Dim::n) == getGatedTileCountWidth(t) ||
        (c.plan.blk(Dim::m) == 128 &&
         c.plan.blk(Dim::n) == getSplitTileCountWidth(t, c.plan.cls(Dim::k)));
    if ((c.plan.cluster != std::array<int64_t, 4>{1, 1, 1, 1} &&
         c.plan.cluster != std::array<int64_t, 4>{1, 1, 2, 1}) ||
        (c.plan.blk(Dim::n) < kMinSwappedRows && !narrowWidth))
      continue;
    c.plan.swapAb = true;
    if (!result.bestLowerable || betterKernel(c, *result.bestLowerable))
      result.bestLowerable = c;
    insertRanked(result.rankedLowerable, c, keep, betterKernel);
    insertRanked(result.ranked, std::move(c), keep, better);
  }
}

SearchResult mlir::ff::searchChain(const ChainDesc &desc,
                                   const GpuTarget &target,
                                   const SearchOptions &options) {
  ChainDesc chain = desc;
  if (!options.waveTiles)
    chain.kMajorWeights = false;
  SearchResult result;
  SearchStats &st = result.stats;
  const bool two = chain.hasSecondGemm();
  const size_t keep = std::max<int64_t>(options.keep, 1);
  static const int64_t kClusterExtents[] = {1, 2, 3, 4, 6, 8, 12, 16};

  auto consider = [&](const Plan &plan) {
    if (!passesTileRule(plan, chain)) {
      ++st.prunedTile;
      return;
    }
    if (!passesDependencyRule(plan)) {
      ++st.prunedDependency;
      return;
    }
    Candidate cand;
    cand.plan = plan;
    cand.plan.deterministic = options.deterministic;
    cand.flow = analyzeDataflow(chain, plan, target);
    if (!cand.flow.feasible) {
      ++st.prunedCapacity;
      return;
    }
    cand.cost = estimateCost(chain, cand.plan, cand.flow, target);
    bool inFamily = !two || options.family == KernelFamily::any ||
                    getKernelFamily(plan) == options.family;
    cand.lowerable = inFamily &&
                     isLowerable(cand.plan, chain, options.wideGemmTiles) &&
                     passesSplitKRule(cand.plan, chain) &&
                     passesWideGatedRule(cand.plan, chain, target.sms) &&
                     passesWaveTileRule(cand.plan, chain, target.sms);
    Dataflow kernelFlow = cand.flow;
    if (cand.lowerable) {
      std::optional<Dataflow> flow =
          getKernelFlow(cand.plan, cand.flow, target, options);
      cand.lowerable = flow.has_value();
      if (flow)
        kernelFlow = *flow;
    }
    ++st.evaluated;
    if (cand.lowerable) {
      cand.yieldsTies = isWideGatedPlan(cand.plan, chain) &&
                        cand.plan.getNumCtas() > target.sms;
      cand.cost.kernelNs =
          estimateKernelNs(chain, cand.plan, kernelFlow, target);
      cand.cost.kernelCtasPerSm = kernelFlow.ctasPerSm;
      ++st.lowerable;
      if (!result.bestLowerable || betterKernel(cand, *result.bestLowerable))
        result.bestLowerable = cand;
    }
    if (cand.lowerable)
      insertRanked(result.rankedLowerable, cand, keep, betterKernel);
    insertRanked(result.ranked, std::move(cand), keep, better);
  };

  for (const LoopSchedule &sched : enumerateLoopSchedules()) {
    ++st.schedules;
    if (!passesActivationRule(sched)) {
      ++st.prunedActivation;
      continue;
    }
    // One GEMM has no l: keep l temporal and last (the other placements
    // are the same schedule).
    if (!two && ((sched.spatialMask & bit(Dim::l)) || sched.order[3] != Dim::l))
      continue;
    auto isSpatial = [&](Dim d) { return sched.spatialMask & bit(d); };
    // A temporal n of a two-GEMM chain: its loop split over 1, 2 or 4 CTAs.
    static const int64_t kTemporalNExtents[] = {1, 2, 4};
    auto extentsFor = [&](Dim d) -> llvm::ArrayRef<int64_t> {
      if (d == Dim::n && two && !isSpatial(d))
        return kTemporalNExtents;
      if (!isSpatial(d))
        return llvm::ArrayRef<int64_t>(kClusterExtents, 1);
      return kClusterExtents;
    };
    for (int64_t cm : extentsFor(Dim::m))
      for (int64_t cn : extentsFor(Dim::n))
        for (int64_t ck : extentsFor(Dim::k))
          for (int64_t cl : extentsFor(Dim::l)) {
            Plan base;
            base.spatialMask = sched.spatialMask;
            base.order = sched.order;
            base.cluster = {cm, cn, ck, cl};
            if (!passesClusterRule(base, target.maxClusterNonportable, two)) {
              ++st.prunedCluster;
              continue;
            }
            ++st.clusterShapes;
            // Spatial k and l: one block tile per CTA, so the tile is
            // fixed by the cluster extent.
            llvm::SmallVector<int64_t, 4> kTiles =
                isSpatial(Dim::k) ? llvm::SmallVector<int64_t, 4>{align16(
                                        ceilDiv(chain.k, ck))}
                                  : reductionTiles(chain.k);
            llvm::SmallVector<int64_t, 12> lTiles;
            if (!two)
              lTiles = {16};
            else if (isSpatial(Dim::l))
              lTiles = {align16(ceilDiv(chain.l, cl))};
            else
              lTiles = wideTiles(chain.l);
            // Wide GEMM tiles take deeper rings (isLowerable).
            int64_t maxStages =
                !two && (options.wideGemmTiles || chain.isGated()) ? 8 : 4;
            // A swapped product also takes 256-row weight tiles (two
            // accumulators per consumer warpgroup; passesWaveTileRule).
            static const int64_t kRows[] = {64, 128, 256};
            for (int64_t bm :
                 llvm::ArrayRef<int64_t>(kRows, chain.swappedProduct ? 3 : 2)) {
              int64_t gm = isSpatial(Dim::m) ? ceilDiv(chain.m, cm * bm) : 1;
              llvm::SmallVector<int64_t, 12> nTiles = wideTiles(chain.n);
              if (isSpatial(Dim::n)) {
                appendWaveTiles(chain, target, gm * cm, nTiles);
                // A split K's ranks own whole 8-column groups.
                for (int64_t bn : getFitWidths(chain, 8 * ck))
                  if (!llvm::is_contained(nTiles, bn))
                    nTiles.push_back(bn);
                // 64 weight rows also take narrow fitted widths.
                if (bm == 64)
                  for (int64_t bn : getNarrowFitWidths(chain))
                    if (!llvm::is_contained(nTiles, bn))
                      nTiles.push_back(bn);
                // A gated pair's 128 weight rows: its tile-count width.
                if (int64_t bn = getGatedTileCountWidth(chain);
                    bn && bm == 128 && !llvm::is_contained(nTiles, bn))
                  nTiles.push_back(bn);
                // A split's 128 weight rows: its tile-count width.
                if (int64_t bn = getSplitTileCountWidth(chain, ck);
                    bn && bm == 128 && !llvm::is_contained(nTiles, bn))
                  nTiles.push_back(bn);
              }
              for (int64_t bn : nTiles) {
                int64_t gn = isSpatial(Dim::n) ? ceilDiv(chain.n, cn * bn) : 1;
                for (int64_t bk : kTiles)
                  for (int64_t bl : lTiles)
                    for (int64_t stages = 1; stages <= maxStages; ++stages) {
                      Plan p = base;
                      p.block = {bm, bn, bk, bl};
                      p.grid = {gm, gn, 1, 1};
                      p.stages = stages;
                      consider(p);
                    }
              }
            }
          }
  }
  // Only where 128-row m tiles pad M by a tenth or more (M = 300: 28 %,
  // 800: 12 %): at M = 512, 1500 or 8192 the model still ranked swapped
  // plans first by a few percent (T4-k768-m512 then ran 0.91x on an H200).
  // A dynamic M's bins weigh them at any M (SearchOptions::swapAtAnyM).
  // A gated GEMM also where 128 x 128 tiles fill their last wave below
  // 90 %: S8 at M = 1500 (3 x 132 slots for 288 tiles) ran 1.16x faster
  // on 11 x 24 tiles of 144 tokens, S3 at 512 and 1024 (4 and 8 x 86)
  // 1.05x and 1.14x on 176; with full waves S1-S6 at 1500 ran
  // 0.97-1.02x (H200, docs/validation.md, fifty-second session).
  const int64_t padded = ceilDiv(chain.m, 128) * 128;
  auto fillsLastWave = [&] {
    int64_t tiles = ceilDiv(chain.m, 128) * ceilDiv(chain.n, 128);
    return tiles * 10 >= ceilDiv(tiles, target.sms) * target.sms * 9;
  };
  if (options.swapOperands && mayRunSwapped(desc) && chain.m > 0 &&
      (options.swapAtAnyM || (padded - chain.m) * 10 >= chain.m ||
       (chain.kind == ChainKind::gatedGemm && !fillsLastWave())))
    addSwappedCandidates(desc, target, options, keep, result);
  return result;
}

// A bin's plan is sized to its upper end. From 257 on the bins are 64
// rows wide (one m-tile count of 128 rows each): a swapped plan's token
// width and a plain GEMM's wave width are fitted to the upper end and
// still fit 64 rows below it. Against the halves of the powers of two
// (257-384, 385-512, 513-768, which ran 1.053x faster than power-of-two
// bins, forty-eighth session) the G and S chains ran 1.10-1.30x faster at
// 8 of 15 points of M = 300-700 and even at the rest (fifty-third
// session). From 1025 on halving was even (0.999x over 17 points).
// 129-256 is cut in 32-row bins: one bin padded M = 200 to 256 rows of
// two 128-row tiles where cuBLAS ran one 200-token tile (swapped) or
// three 64-row ones; the 32-row bins take both and ran 1.05-1.41x faster
// at 25 of 26 points (S2 0.97x; sixtieth session). H200,
// docs/cost-model.md, "Dynamic M".
llvm::SmallVector<MBin> mlir::ff::getDefaultMBins(int64_t fineHi) {
  llvm::SmallVector<MBin> bins{{1, 64, 64}, {65, 128, 128}};
  constexpr int64_t kNarrowBinRows = 32;
  for (int64_t hi = 128 + kNarrowBinRows; hi <= 256; hi += kNarrowBinRows)
    bins.push_back({hi - kNarrowBinRows + 1, hi, hi});
  constexpr int64_t kFineBinRows = 64;
  for (int64_t hi = 256 + kFineBinRows; hi <= fineHi; hi += kFineBinRows)
    bins.push_back({hi - kFineBinRows + 1, hi, hi});
  if (fineHi < 1024)
    bins.push_back({fineHi + 1, 1024, 1024});
  bins.append({{1025, 2048, 2048},
               {2049, 4096, 4096},
               {4097, 8192, 8192},
               {8193, kOpenBinHi, 16384}});
  return bins;
}

int64_t mlir::ff::getFineMBinsHi(const ChainDesc &chain) {
  // FFNs' tables take 64-row bins up to 1024. Against one 769-1024 bin
  // S1-S8 ran 1.03-1.24x faster at 14 of 16 points of M = 800-930 (S1 at
  // 930 0.97x, S3 at 800 0.96x; fifty-fourth session), G1-G10 1.04x in
  // geomean over 23 points of M = 800-1024 (G2 1.20-1.23x, G8 1.03-1.15x,
  // G5 1.02-1.11x; G4 at 960, G1 at 930 0.94-0.95x, G9 at 800-870
  // 0.96-0.97x) once their bins weighed swapped plans without a margin and
  // split no GEMM over 4 past 640 rows (fifty-fifth session; before, G5, G6
  // and G9 lost 5-10 %). H200, docs/validation.md. A lone GEMM's bins were
  // not measured past 768.
  return chain.kind == ChainKind::ffn || chain.isGated() ? 1024 : 768;
}

bool mlir::ff::sameButMGrid(const Plan &a, const Plan &b) {
  Plan x = a, y = b;
  // A swapped plan's M rows are its product's n.
  x.grid[static_cast<unsigned>(x.swapAb ? Dim::n : Dim::m)] = 0;
  y.grid[static_cast<unsigned>(y.swapAb ? Dim::n : Dim::m)] = 0;
  return x == y;
}

std::vector<BinnedPlan> mlir::ff::searchDynamicM(const ChainDesc &chain,
                                                 const GpuTarget &target,
                                                 const SearchOptions &options) {
  std::vector<BinnedPlan> table = searchMBins(chain, target, options);
  std::vector<BinnedPlan> merged;
  for (const BinnedPlan &bp : table) {
    if (!merged.empty() &&
        sameButMGrid(merged.back().candidate.plan, bp.candidate.plan)) {
      merged.back().bin.hi = bp.bin.hi;
      merged.back().bin.rep = bp.bin.rep;
      merged.back().candidate = bp.candidate;
      continue;
    }
    merged.push_back(bp);
  }
  return merged;
}

/// `chain` at M = `m` as `plan` is priced there and the options that judge
/// it, `plan`'s grid refitted to that M: a swapped plan is its transposed
/// product's (addSwappedCandidates, swapAb cleared), whose n the M rows
/// are.
static std::pair<ChainDesc, SearchOptions>
refitAt(Plan &plan, const ChainDesc &chain, int64_t m,
        const SearchOptions &options) {
  ChainDesc at = chain;
  at.m = m;
  if (!plan.swapAb) {
    plan.grid[static_cast<unsigned>(Dim::m)] =
        ceilDiv(m, plan.blk(Dim::m) * plan.cls(Dim::m));
    return {at, options};
  }
  at = getSwappedProduct(at);
  plan.swapAb = false;
  plan.grid[static_cast<unsigned>(Dim::n)] =
      ceilDiv(at.n, plan.blk(Dim::n) * plan.cls(Dim::n));
  return {at, getSwappedOptions(options)};
}

/// The kernel-family estimate of `plan` run at M = `m` (refitAt), as
/// searchChain prices a lowerable candidate; infinity where it does not
/// fit.
static double getKernelNsAt(Plan plan, const ChainDesc &chain, int64_t m,
                            const GpuTarget &target,
                            const SearchOptions &options) {
  auto [at, o] = refitAt(plan, chain, m, options);
  Dataflow flow = analyzeDataflow(at, plan, target);
  std::optional<Dataflow> kernelFlow =
      flow.feasible ? getKernelFlow(plan, flow, target, o) : std::nullopt;
  return kernelFlow ? estimateKernelNs(at, plan, *kernelFlow, target)
                    : std::numeric_limits<double>::infinity();
}

/// The M at which a plan is priced over `bin`: kBinSamples evenly spaced
/// from the bin's lower to its upper end, the i-th of them.
static constexpr int64_t kBinSamples = 5;
static int64_t getBinSampleM(const MBin &bin, int64_t i) {
  return bin.lo + (bin.rep - bin.lo) * i / (kBinSamples - 1);
}

/// The kernel-family estimates of `plan` at the bin's sample M
/// (getBinSampleM), and their mean: the model's mean time over the bin, M
/// taken uniform in it.
struct BinKernelNs {
  std::array<double, kBinSamples> at;
  double mean = 0;
};
static BinKernelNs getBinKernelNs(const Plan &plan, const ChainDesc &chain,
                                  const MBin &bin, const GpuTarget &target,
                                  const SearchOptions &options) {
  BinKernelNs ns;
  for (int64_t i = 0; i < kBinSamples; ++i) {
    ns.at[i] =
        getKernelNsAt(plan, chain, getBinSampleM(bin, i), target, options);
    ns.mean += ns.at[i];
  }
  ns.mean /= kBinSamples;
  return ns;
}
static double getMeanKernelNs(const Plan &plan, const ChainDesc &chain,
                              const MBin &bin, const GpuTarget &target,
                              const SearchOptions &options) {
  return getBinKernelNs(plan, chain, bin, target, options).mean;
}

/// `c`, a plan of `chain` at some M, priced at M = `m` (refitAt) as
/// searchChain prices a lowerable candidate; nullopt where it does not fit.
static std::optional<Candidate>
getCandidateAt(Candidate c, const ChainDesc &chain, int64_t m,
               const GpuTarget &target, const SearchOptions &options) {
  bool swapped = c.plan.swapAb;
  auto [at, o] = refitAt(c.plan, chain, m, options);
  c.flow = analyzeDataflow(at, c.plan, target);
  if (!c.flow.feasible)
    return std::nullopt;
  c.cost = estimateCost(at, c.plan, c.flow, target);
  std::optional<Dataflow> kernelFlow = getKernelFlow(c.plan, c.flow, target, o);
  if (!kernelFlow)
    return std::nullopt;
  c.cost.kernelNs = estimateKernelNs(at, c.plan, *kernelFlow, target);
  c.cost.kernelCtasPerSm = kernelFlow->ctasPerSm;
  c.plan.swapAb = swapped;
  return c;
}

/// A swapped plan for `bin` of a dynamic M: of the swapped plans searchChain
/// ranks first at the bin's lower end, middle and upper end (each token width
/// fitted there), the one of least mean estimate over the bin (getMeanKernelNs'
/// five M), where that is below `base`'s and no M of the five prices it above
/// `base`; priced at the upper end. A 5 % margin on the mean kept 18 bins
/// unswapped whose swapped plans then ran 1.01-1.10x faster at 15 of 18 points
/// of M = 300-1000 (S3 at 870 1.10x, G4 at 680 1.07x, G8 at 600 1.05x) and
/// even at the other three; letting one sample M price it up to 5 % above
/// `base` lost 2-11 % at 9 of 14 points (H200, docs/validation.md, fifty-fifth
/// session).
/// The estimate's per-M regret is the one to heed: a width fitted below the
/// upper end pads its last token tile there (G8's up GEMM on 160 tokens at M =
/// 380: three tiles of 480 rows, estimated 1.29x `base`, ran 0.81x; S7's down
/// GEMM at 500, 0.82x; S6's at 1200, 0.87x) while winning below (G8 at 300
/// 1.11x). On the 128-row bins the ones whose estimate is even (S2 at 769-1024,
/// S3, S5 and S7 at 385-512, the gated GEMMs on 176- and 104-token tiles:
/// 0.87-0.92) ran 1.02-1.08x faster, S8's 513-768 on 160 tokens 1.06-1.31x
/// (H200, docs/validation.md, fifty-third session); the 64-row bins now below
/// 769 fit widths closer.
static std::optional<Candidate> getBinSwappedPlan(const ChainDesc &chain,
                                                  const MBin &bin,
                                                  const GpuTarget &target,
                                                  const SearchOptions &options,
                                                  const Candidate &base) {
  if (!mayRunSwapped(chain))
    return std::nullopt;
  // At any M: the bin's rule below judges them. Where 128-row tiles pad M
  // by less than a tenth (M = 600: 5 m tiles, 40 rows; cuBLAS runs 4 x 152
  // tokens there) the G and S tables ran 1.01-1.15x faster at 13 of 16
  // points of M = 330-800 so, even at the rest (H200, docs/validation.md,
  // fifty-fourth session).
  SearchOptions anyM = options;
  anyM.swapAtAnyM = true;
  std::vector<Candidate> plans;
  for (int64_t m : {bin.lo, (bin.lo + bin.rep) / 2, bin.rep}) {
    ChainDesc at = chain;
    at.m = m;
    SearchResult r = searchChain(at, target, anyM);
    // Token tiles of a multiple of 128 rows pad M as the unswapped 128-row
    // m tiles do: the swapped kernel only transposes the same tiles, and
    // the model ranks it a few percent ahead where it is not (S2's, S4's
    // and S5's down GEMMs on 128 tokens split over 2 for 449-512 ran
    // 0.89-0.92x on an H200).
    auto it = llvm::find_if(r.rankedLowerable, [](const Candidate &c) {
      return c.plan.swapAb && c.plan.blk(Dim::n) % 128 != 0;
    });
    if (it != r.rankedLowerable.end() &&
        llvm::none_of(plans, [&](const Candidate &c) {
          return sameButMGrid(c.plan, it->plan);
        }))
      plans.push_back(*it);
  }
  const BinKernelNs baseNs =
      getBinKernelNs(base.plan, chain, bin, target, options);
  std::optional<Candidate> best;
  double bestMean = baseNs.mean;
  for (const Candidate &c : plans) {
    const BinKernelNs ns = getBinKernelNs(c.plan, chain, bin, target, options);
    bool anyWorse = false;
    for (int64_t i = 0; i < kBinSamples; ++i)
      anyWorse |= ns.at[i] > baseNs.at[i];
    if (!anyWorse && ns.mean < bestMean) {
      bestMean = ns.mean;
      best = c;
    }
  }
  if (!best)
    return std::nullopt;
  return getCandidateAt(*best, chain, bin.rep, target, options);
}

/// The plan of `bin` (searchMBins' rules): the unswapped choice at its upper
/// end, held to the bin's regret rules, or a swapped plan that the bin's
/// mean prefers (getBinSwappedPlan). Nullopt where the bin has no plan.
static std::optional<Candidate> getBinPlan(const ChainDesc &chain,
                                           const MBin &bin,
                                           const GpuTarget &target,
                                           const SearchOptions &opts) {
  // Swapped plans are weighed over each bin apart (getBinSwappedPlan).
  SearchOptions options = opts;
  options.swapOperands = false;
  ChainDesc at = chain;
  at.m = bin.rep;
  SearchResult r = searchChain(at, target, options);
  const Candidate *chosen = r.getChosen(options.lowerableOnly);
  if (!chosen)
    return std::nullopt;
  // The bin's plan serves every M in it: among the lowerable candidates
  // at its upper end, take the one whose worst regret (estimate over the
  // best estimate there) at the bin's lower end, middle and upper end is
  // least. A plan whose time does not shrink with M (a streamed-n plan,
  // one CTA per m tile walking every n tile) can be the best at the
  // upper end and 2.3x the best at the lower (T3-k128-n4096 at M = 1025,
  // measured on an H100); with the two ends alone, plans good at both
  // ends lost up to 39 % in the middle (S7 at M = 200).
  // Without the regret rule (a sequence's halves) a wide gated plan still
  // takes it: one wave at the upper end, its time hardly falls with M
  // while narrower tiles' waves do. Taken at the upper end it ran 1.11x
  // slower at S2's M = 300 and 1.29x at S8's M = 600 (model regret at the
  // lower end 1.46, 1.44) and 1.07-1.15x faster on S3, S5, S6, S7 at
  // M = 200 (1.08-1.13), on an H200 (docs/validation.md, forty-first
  // session).
  // Tiles sized to fill the SMs at the upper end (wave widths, one-wave
  // wide gated tiles) leave them partly idle, or a thin last wave, where
  // the bin's lower end has fewer m tiles, and the model does not see
  // it: S8's bin 513-1024 on 96- or 192-wide tiles ran 1.17-1.3x slower
  // than on 64-wide ones at M = 513-600 (1.10-1.17x faster at 1024; H200,
  // docs/validation.md, forty-second session). Such a bin keeps the
  // plans it had before wave widths.
  auto spansMTiles = [&](const Plan &p) {
    int64_t bm = p.blk(Dim::m);
    return ceilDiv(bin.lo, bm) != ceilDiv(bin.rep, bm);
  };
  if (chosen->lowerable && isWaveWidthPlan(chosen->plan, chain) &&
      spansMTiles(chosen->plan)) {
    auto it = llvm::find_if(r.rankedLowerable, [&](const Candidate &c) {
      return !(isWaveWidthPlan(c.plan, chain) && spansMTiles(c.plan));
    });
    if (it != r.rankedLowerable.end()) {
      // A plain GEMM keeps its wave width where the model's mean time
      // over the bin is no more than the fallback's. Measured on an H200
      // (forty-seventh session) against the fallback: S7's down GEMM on
      // 128 x 80 (257-512) 1.16x faster at M = 300, on 128 x 160
      // (513-1024) 1.02x at 513-640 and 1.14-1.17x at 800-1024, S6's on
      // 128 x 96 1.13x at M = 600, G4's and G7's 1.03-1.11x at
      // 600-3000; S1's on 128 x 96 (513-1024, two waves at 1024) 1.12x
      // slower at M = 600 (160 CTAs, a thin second wave) and even at
      // 1024, S7's 128 x 160 for 1025-2048 0.97x at 1100 and 0.96-0.99x
      // at 1536: the model's means keep the first and refuse the last
      // two. Its price at the lower end alone refused S7's 513-1024
      // (8 % above its split over 4 at 513-768, 27 % below at 896-1024).
      if (chain.isGated() ||
          getMeanKernelNs(chosen->plan, chain, bin, target, options) >
              getMeanKernelNs(it->plan, chain, bin, target, options))
        chosen = &*it;
    }
  }
  bool regret = options.binRegret ||
                (chosen->lowerable && isWideGatedPlan(chosen->plan, chain));
  if (regret && options.lowerableOnly && bin.lo > 1 && bin.lo < bin.rep &&
      !r.rankedLowerable.empty()) {
    std::vector<SearchResult> inner;
    for (int64_t m : {bin.lo, (bin.lo + bin.rep) / 2}) {
      ChainDesc at = chain;
      at.m = m;
      inner.push_back(searchChain(at, target, options));
    }
    double bestHi = r.rankedLowerable.front().cost.kernelNs;
    double least = std::numeric_limits<double>::infinity();
    for (const Candidate &c : r.rankedLowerable) {
      if ((isWideGatedPlan(c.plan, chain) || isWaveWidthPlan(c.plan, chain)) &&
          spansMTiles(c.plan))
        continue;
      double regret = c.cost.kernelNs / bestHi;
      for (const SearchResult &s : inner) {
        auto it = llvm::find_if(s.rankedLowerable, [&](const Candidate &l) {
          return sameButMGrid(l.plan, c.plan);
        });
        regret =
            it == s.rankedLowerable.end()
                ? std::numeric_limits<double>::infinity()
                : std::max(regret, it->cost.kernelNs /
                                       s.rankedLowerable.front().cost.kernelNs);
      }
      if (regret < least) {
        least = regret;
        chosen = &c;
      }
    }
  }
  Candidate pick = *chosen;
  if (opts.swapOperands && options.lowerableOnly && chosen->lowerable)
    if (std::optional<Candidate> swapped =
            getBinSwappedPlan(chain, bin, target, opts, pick))
      pick = *swapped;
  return pick;
}

/// The last M of `bin` at which `plan` runs as few token tiles as at the
/// bin's lower end, where its upper end takes exactly one tile more: a
/// swapped plan's width fitted below the upper end. Nullopt otherwise.
static std::optional<int64_t> getTokenTileEdge(const Plan &plan,
                                               const MBin &bin) {
  if (!plan.swapAb || bin.hi != bin.rep)
    return std::nullopt;
  // A swapped plan's M rows are its product's n.
  const int64_t width = plan.blk(Dim::n) * plan.cls(Dim::n);
  const int64_t tiles = ceilDiv(bin.lo, width);
  if (ceilDiv(bin.rep, width) != tiles + 1)
    return std::nullopt;
  return tiles * width;
}

/// Appends `bin` with its plan `pick` to `table`, or, where the pick's
/// swapped token width adds a tile inside the bin (getTokenTileEdge), the
/// bin's two parts at that tile's edge, each with the plan searched for it
/// (getBinPlan) and split again where that plan adds a tile. The bin's mean
/// weighs the padded tile against the rows below it, and each side took
/// the other's loss: S3's and S5's gated GEMMs on 184 tokens (513-576) ran
/// 1.21-1.23x faster than on 120 at M = 540 (three tiles) and 1.06-1.07x
/// slower at 570 (four), S7's (897-960) 1.05x faster at 905 and 1.10x
/// slower at 930 (H200, docs/validation.md, fifty-seventh session).
static void appendBinParts(const ChainDesc &chain, const MBin &bin,
                           const Candidate &pick, const GpuTarget &target,
                           const SearchOptions &opts,
                           std::vector<BinnedPlan> &table) {
  if (std::optional<int64_t> edge = getTokenTileEdge(pick.plan, bin)) {
    const MBin lower{bin.lo, *edge, *edge};
    const MBin upper{*edge + 1, bin.hi, bin.rep};
    std::optional<Candidate> below = getBinPlan(chain, lower, target, opts);
    std::optional<Candidate> above = getBinPlan(chain, upper, target, opts);
    if (below && above) {
      appendBinParts(chain, lower, *below, target, opts, table);
      appendBinParts(chain, upper, *above, target, opts, table);
      return;
    }
  }
  table.push_back({bin, pick});
}

std::vector<BinnedPlan> mlir::ff::searchMBins(const ChainDesc &chain,
                                              const GpuTarget &target,
                                              const SearchOptions &opts) {
  std::vector<BinnedPlan> table;
  const int64_t fineHi =
      opts.fineMBinsHi ? opts.fineMBinsHi : getFineMBinsHi(chain);
  for (const MBin &bin : getDefaultMBins(fineHi)) {
    std::optional<Candidate> pick = getBinPlan(chain, bin, target, opts);
    if (!pick)
      return {};
    appendBinParts(chain, bin, *pick, target, opts, table);
  }
  return table;
}

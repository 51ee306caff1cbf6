//===- Plan.cpp - GEMM-chain descriptions and execution plans ---*- C++ -*-===//
//
// Part of the FlashFuser project.
//
//===----------------------------------------------------------------------===//

#include "ff/Analysis/Plan.h"
#include "ff/Analysis/CostModel.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir::ff;

llvm::StringRef mlir::ff::stringifyDim(Dim d) {
  static constexpr const char *names[] = {"m", "n", "k", "l"};
  return names[static_cast<unsigned>(d)];
}

llvm::StringRef mlir::ff::stringifyTier(Tier t) {
  static constexpr const char *names[] = {"reg", "smem", "dsm", "global"};
  return names[static_cast<unsigned>(t)];
}

llvm::StringRef mlir::ff::stringifyCollective(Collective c) {
  static constexpr const char *names[] = {"all_exchange", "shuffle",
                                          "reduce_scatter", "multiply",
                                          "inter_cluster_reduce"};
  return names[static_cast<unsigned>(c)];
}

int64_t ChainDesc::getExtent(Dim d) const {
  switch (d) {
  case Dim::m:
    return m;
  case Dim::n:
    return n;
  case Dim::k:
    return k;
  case Dim::l:
    return l;
  }
  llvm_unreachable("unknown dim");
}

int64_t mlir::ff::getConvTileImageRows(int64_t h, int64_t w, int64_t bm) {
  for (int64_t r = h; r >= 1; --r)
    if (h % r == 0 && r * w <= bm)
      return r;
  return 0;
}

bool mlir::ff::usesConvImageRows(int64_t h, int64_t w, int64_t bm,
                                 bool gemmCluster) {
  return !gemmCluster && w <= 256 && getConvTileImageRows(h, w, bm) > 0;
}

int64_t ChainDesc::getMTileRows(int64_t bm, bool gemmCluster) const {
  return convW && usesConvImageRows(convH, convW, bm, gemmCluster)
             ? getConvTileImageRows(convH, convW, bm) * convW
             : bm;
}

double ChainDesc::getFlops() const {
  double f = 2.0 * m * n * k * getNumUpProjections();
  if (hasSecondGemm())
    f += 2.0 * m * n * l;
  return f;
}

llvm::SmallVector<Dim, 4> Plan::getSpatialDims() const {
  llvm::SmallVector<Dim, 4> dims;
  for (Dim d : kAllDims)
    if (isSpatial(d))
      dims.push_back(d);
  return dims;
}

unsigned Plan::getPosition(Dim d) const {
  return llvm::find(order, d) - order.begin();
}

bool Plan::splitsColumns(const ChainDesc &chain) const {
  return streamsN(chain) &&
         splitsStreamedColumns(blk(Dim::m), blk(Dim::n), blk(Dim::l));
}

llvm::SmallVector<Collective, 4>
Plan::getCollectives(const ChainDesc &chain) const {
  llvm::SmallVector<Collective, 4> out;
  if (cls(Dim::k) > 1)
    out.push_back(chain.isGated() ? Collective::multiply
                                  : Collective::allExchange);
  // One GEMM has no second reduction: splitting its n is plain parallelism.
  if (chain.hasSecondGemm()) {
    if (getShuffleGroup() > 1)
      out.push_back(Collective::shuffle);
    if (getReduceGroup() > 1)
      out.push_back(Collective::reduceScatter);
    if (grd(Dim::n) > 1)
      out.push_back(Collective::interClusterReduce);
  }
  llvm::sort(out, [](Collective a, Collective b) {
    return static_cast<unsigned>(a) < static_cast<unsigned>(b);
  });
  return out;
}

std::string Plan::str() const {
  std::string s;
  llvm::raw_string_ostream os(s);
  auto list = [&](llvm::StringRef name, const std::array<int64_t, 4> &v) {
    os << name << "=[" << v[0] << "," << v[1] << "," << v[2] << "," << v[3]
       << "] ";
  };
  list("cluster", cluster);
  list("block", block);
  list("grid", grid);
  os << "order=[";
  llvm::interleave(
      order, os, [&](Dim d) { os << stringifyDim(d); }, ",");
  os << "] spatial=[";
  llvm::interleave(
      getSpatialDims(), os, [&](Dim d) { os << stringifyDim(d); }, ",");
  os << "] stages=" << stages;
  if (swapAb)
    os << " swap_ab";
  return s;
}

static bool isWideTile(int64_t b) { return b == 64 || b == 128 || b == 256; }
// Any wgmma width: B's tile is then one TMA box of blk_n K-major rows.
static bool isSoloTile(int64_t b) { return b % 8 == 0 && b >= 8 && b <= 256; }

std::string mlir::ff::getTileViolation(int64_t k, int64_t blkM, int64_t blkN,
                                       int64_t blkK, bool soloGemm) {
  if (blkM != 64 && blkM != 128)
    return "blk_m must be 64 or 128";
  if (blkK != 64 && !(blkK == 32 && k <= 32))
    return "blk_k must be 64 (one 128B-swizzled bf16 row), or 32 with K <= 32";
  if (!isWideTile(blkN) && !(soloGemm && isSoloTile(blkN)))
    return soloGemm ? "blk_n must be a multiple of 8 in [8, 256]"
                    : "blk_n must be 64, 128 or 256";
  return "";
}

std::string mlir::ff::getSoloGemmNTileViolation(bool gated, int64_t n,
                                                int64_t blkN, int64_t ctasN,
                                                bool bKMajor) {
  if (!isSoloTile(blkN))
    return "blk_n must be a multiple of 8 in [8, 256]";
  if (!bKMajor && blkN % 64 != 0)
    return "row-major [K, N] weights load B in 64-column boxes: blk_n must "
           "be a multiple of 64";
  if (gated && blkN > 192)
    return "a gated GEMM keeps gate and up accumulators live: blk_n <= 192";
  if (ctasN * blkN == n)
    return "";
  // A partial tile's stores are guarded per 8 columns; row-major B's
  // 64-column boxes must lie wholly past N.
  const int64_t align = bKMajor ? 8 : 64;
  if (n % align != 0 || ctasN * blkN < n || (ctasN - 1) * blkN >= n)
    return "N must be grid_n * blk_n, or end in a partial n tile with N a "
           "multiple of " +
           std::to_string(align);
  return "";
}

std::string mlir::ff::getLTileViolation(bool shuffle, int64_t l, int64_t cls,
                                        int64_t blkL) {
  if (shuffle)
    return cls * blkL == l && blkL % 64 == 0
               ? ""
               : "the shuffle family needs L = cls_l * blk_l with blk_l a "
                 "multiple of 64";
  if (!isWideTile(blkL))
    return "blk_l must be 64, 128 or 256";
  if (l % blkL != 0)
    return "L must be a multiple of blk_l";
  return "";
}

/// The tile rules of the two-GEMM kernels, every family: one m tile per
/// CTA row of the grid, blk_m of one or two consumer warpgroups, one
/// 128B-swizzled row per k step (K <= 32: one zero-filled tile), wgmma-wide
/// n tiles dividing N, k and l not split across clusters.
static bool hasFfnTiles(const Plan &plan, const ChainDesc &chain) {
  int64_t blkM = plan.blk(Dim::m), blkN = plan.blk(Dim::n);
  if (plan.grd(Dim::k) != 1 || plan.grd(Dim::l) != 1)
    return false;
  // A split K's blk_k is each CTA's k slice, stepped through 64 at a time.
  int64_t blkK = plan.splitsGatheredK() ? 64 : plan.blk(Dim::k);
  if (!getTileViolation(chain.k, blkM, blkN, blkK).empty() ||
      chain.n % blkN != 0)
    return false;
  return chain.m <= 0 ||
         plan.grd(Dim::m) ==
             static_cast<int64_t>(llvm::divideCeil(chain.m, blkM));
}

std::string mlir::ff::getStreamedTileViolation(bool gated, int64_t n, int64_t l,
                                               int64_t blkM, int64_t blkN,
                                               int64_t blkL, int64_t clsN) {
  // Gated FFNs would hold gate, up and E at once; not measured yet.
  if (gated)
    return "streamed-n plans are lowered for plain FFNs only";
  if (blkL != l)
    return "a streamed-n plan keeps all of E in registers: blk_l must be L";
  if (clsN != 1 && clsN != 2 && clsN != 4)
    return "a streamed-n plan splits its n loop over 1, 2 or 4 CTAs";
  // Each CTA walks N / cls_n in blk_n steps; with one step it would be a
  // plan of the n-spatial families.
  if (blkN <= 0 || n % (blkN * clsN) != 0 || n / (blkN * clsN) < 2)
    return "a streamed-n plan needs N to be a multiple of cls_n * blk_n, "
           "with at least two n tiles per CTA";
  // The E accumulator and GEMM0's stay live together: per consumer thread
  // (blk_n + blk_l) / 2 fp32 registers, or half of that where two
  // warpgroups split a 64-row tile's columns.
  if (blkN + blkL > kMaxStreamedAccColumns &&
      !splitsStreamedColumns(blkM, blkN, blkL))
    return "a streamed-n plan holds GEMM0's and E's accumulators at once: "
           "blk_n + blk_l must be at most " +
           std::to_string(kMaxStreamedAccColumns) +
           ", or twice that over a 64-row tile's two warpgroups (blk_n and "
           "blk_l multiples of 128)";
  return "";
}

std::string mlir::ff::getGatheredSplitKViolation(bool gated, int64_t k,
                                                 int64_t blkM, int64_t blkN,
                                                 int64_t clsK) {
  // Gate and up would both need reducing before the activation.
  if (gated)
    return "split K in a fused chain is lowered for plain FFNs only";
  if (clsK != 2 && clsK != 4 && clsK != 8)
    return "a fused chain splits K over 2, 4 or 8 CTAs";
  // Past-K tiles are not zero-filled for a 3x3 convolution's taps: every
  // CTA runs whole tiles of K.
  if (k % (64 * clsK) != 0)
    return "split K needs K to be a multiple of 64 * cls_k";
  // The gather concatenates the ranks' slices: whole 64-column chunks of
  // the 128B-swizzled tile, or whole 8-row swizzle atoms of one chunk.
  if (splitsGatheredKByRows(blkN, clsK) &&
      (blkN != 64 || (blkM / clsK) % 8 != 0))
    return "split K publishes act(C) in whole 64-column chunks (blk_n a "
           "multiple of 64 * cls_k) or, with blk_n = 64, in row slices";
  return "";
}

/// Streamed n: one CTA per m tile walks the n tiles, E in registers.
static bool isLowerableStreamed(const Plan &plan, const ChainDesc &chain) {
  int64_t blkN = plan.blk(Dim::n), blkL = plan.blk(Dim::l);
  int64_t clsN = plan.cls(Dim::n);
  if (plan.cluster != std::array<int64_t, 4>{1, clsN, 1, 1} ||
      plan.spatialMask != (1u << unsigned(Dim::m)) ||
      plan.order != std::array<Dim, 4>{Dim::m, Dim::n, Dim::k, Dim::l} ||
      plan.grd(Dim::n) != 1 || !isWideTile(blkL))
    return false;
  return getStreamedTileViolation(chain.isGated(), chain.n, chain.l,
                                  plan.blk(Dim::m), blkN, blkL, clsN)
      .empty();
}

bool mlir::ff::isLowerable(const Plan &plan, const ChainDesc &chain,
                           bool wideGemmTiles) {
  // The kernel's ring releases a stage one k step late: at least 2. The
  // kernels take up to 8 (KernelPlan); the fitted families up to 4 but the
  // wide tiles, the 128 x 64 split over 2 or 4 and 128 x 128 split tiles
  // on one m tile (deepSplitK).
  // A gated GEMM (two accumulators) has only the wide family's tiles.
  // A (2, 1, 1, 1) cluster along m shares B by multicast; only the
  // streamed halo GEMMs of 3x3 convolutions take it (measured mixed on
  // plain tiles; clusters of 4, which the kernel also runs, 1.55x slower
  // than 2 on C8-b32's 3x3 GEMM: docs/validation.md).
  const int64_t clsM = plan.cls(Dim::m);
  const bool alongM = clsM == 2 &&
                      plan.cluster == std::array<int64_t, 4>{clsM, 1, 1, 1} &&
                      getHaloGemmRows(chain, plan, kMaxDynamicSmemBytes);
  bool wide = (wideGemmTiles || chain.isGated()) && !chain.hasSecondGemm() &&
              (plan.cluster == std::array<int64_t, 4>{1, 1, 1, 1} || alongM);
  // A single GEMM's 128 x 64 tiles split over 2 along k, on rings of up to
  // 8 stages: the shape cuBLAS draws the M = 128 down GEMMs with (ncu), 128
  // CTAs where the 128 x 256 split over 4 has 64. On an H200 G5's down GEMM
  // ran 49.3 -> 42.9 us and S3's 36.8 -> 30.4 at 8 stages (4-7 stages, and
  // G5's 256 CTAs split over 4, were slower); the chains G5 and S3 10-12 %
  // faster (docs/validation.md, thirty-fifth session). The split-K price ranks
  // it first exactly where it measured faster (not G8's, 32 n tiles). Only
  // where it was measured: one m tile, slices of 4096 k or more (shorter
  // ones, GEMM-4096-m128's 2048, measured fastest on 64 x 64 tiles over
  // all of K on an H100).
  // Over 4, where 65-128 rows fill the m tile and each slice runs more k
  // steps than an 8-stage ring holds: the model ranks it first for the
  // down GEMMs of G6, S6 and S8 (128 x 128 over 8 before; their chains
  // 1.02-1.08x faster on an H200) and not where 128 CTAs of it ran 8-17 %
  // slower (S2, S4, S5, G8). Taken at M <= 64 (S6) it lost 1.5 % to 64-row
  // tiles, on G7's 192-k and G9's 512-k slices 5-20 % (docs/validation.md,
  // forty-fourth session).
  const bool over2 = plan.cluster == std::array<int64_t, 4>{1, 1, 2, 1} &&
                     plan.blk(Dim::k) >= 4096;
  const bool over4 = plan.cluster == std::array<int64_t, 4>{1, 1, 4, 1} &&
                     chain.m > 64 && plan.blk(Dim::k) > 8 * 64;
  bool splitK64 = !chain.hasSecondGemm() && !chain.isGated() &&
                  (over2 || over4) && plan.blk(Dim::m) == 128 &&
                  plan.blk(Dim::n) == 64 && chain.m > 0 && chain.m <= 128;
  // Split K of one GEMM: a cluster of 2, 4 or 8 CTAs along k
  // reduce-scatters the tile; blk_k is each CTA's slice, stepped through 64
  // at a time.
  const int64_t gemmClsK = plan.cls(Dim::k);
  const bool gemmSplitK =
      !chain.hasSecondGemm() &&
      plan.cluster == std::array<int64_t, 4>{1, 1, gemmClsK, 1} &&
      (gemmClsK == 2 || gemmClsK == 4 || gemmClsK == 8);
  // 128 x 128 tiles split along k, where 65-128 rows fill the one m tile
  // (a weight stream: each B byte read once), on rings of up to 8 stages:
  // the DRAM bytes a CTA keeps in flight bound the stream. The down GEMMs
  // of S2, S4, S5, S7 and G8 at M = 128 (64-80 CTAs, 22-43 k steps each)
  // ran their chains 1.03-1.05x faster on 6 stages than on the fitted
  // families' 4, at M = 100 1.01-1.03x. At M <= 64 the deeper 128-row
  // tile outranked 64-row ones and ran 5-8 % slower; past one m tile
  // (M = 200-3000) 0.87-1.07x (H200, docs/validation.md, forty-sixth
  // session).
  const bool deepSplitK = gemmSplitK && !chain.isGated() &&
                          plan.blk(Dim::m) == 128 && plan.blk(Dim::n) == 128 &&
                          chain.m > 64 && chain.m <= 128;
  // 64 x 64 tiles over 4 take them too where two to four m tiles cover M:
  // G4's and G9's down GEMMs at M = 128 on them ran their chains 1.06x and
  // 1.11-1.12x faster than on the 64 x 128 split over 8 the search took,
  // which it priced below them at 4 stages. With their weights in L2 they
  // ran as fast at 4 stages as at 8; from HBM 4-7 % slower at 4, as the
  // depth term prices them (seventieth session, ff-run --cold). With 8
  // stages the search takes them for G3, G4, G9 and G10 at M = 65-128
  // (their chains 1.09x, 1.06x, 1.12x and 1.00x faster) and for G3, G9 and
  // G10 at 129-256 (1.07-1.11x; H200, docs/validation.md, sixty-ninth
  // session).
  const bool deepSplitK64 = gemmSplitK && gemmClsK == 4 && !chain.isGated() &&
                            !chain.swappedProduct && plan.blk(Dim::m) == 64 &&
                            plan.blk(Dim::n) == 64 && chain.m > 64 &&
                            chain.m <= 256;
  // A swapped product's token tiles (fitted to M, whole 16-row groups, 64
  // to 256 tokens) on 128 weight rows, split over 2 along k: one wave of
  // CTAs where the unsplit tiles fill half of it (passesWaveTileRule). Slices
  // of at least 2048 k: on an H200 seven chains whose slices held 2816-8192 k
  // ran 1.03-1.18x faster, G6's down GEMM at M = 300 (512 k each) 0.78x
  // (docs/validation.md, fiftieth session).
  const bool swappedSplit =
      chain.swappedProduct && !chain.hasSecondGemm() && !chain.isGated() &&
      plan.cluster == std::array<int64_t, 4>{1, 1, 2, 1} &&
      plan.blk(Dim::m) == 128 && plan.blk(Dim::n) % 16 == 0 &&
      plan.blk(Dim::n) >= 64 && plan.blk(Dim::n) <= 256 &&
      plan.blk(Dim::k) >= 2048;
  if (plan.stages < 2 ||
      plan.stages >
          (wide || splitK64 || deepSplitK || deepSplitK64 || swappedSplit ? 8
                                                                          : 4))
    return false;
  int64_t blkM = plan.blk(Dim::m);
  if (!chain.hasSecondGemm()) {
    if (plan.order != std::array<Dim, 4>{Dim::m, Dim::n, Dim::k, Dim::l})
      return false;
    // A (1, 2) cluster along n multicasts A (KernelPlan.cpp).
    bool multicast = plan.cluster == std::array<int64_t, 4>{1, 2, 1, 1};
    // A gated pair takes no cluster here. Split K lowers for it (gate's
    // tile reduced, then up's) but its best plan took 1.00-1.34x the best
    // unsplit one's time on seven S-series gate|up GEMMs on an H200
    // (docs/validation.md, thirty-ninth session): the split fills the
    // partial wave but draws the same bytes from L2 over twice the CTAs,
    // and the pair's two exchanges come on top.
    if (plan.cluster != std::array<int64_t, 4>{1, 1, 1, 1} &&
        (chain.isGated() || (!multicast && !gemmSplitK && !alongM)))
      return false;
    // 256-wide tiles split over 8 along k: each rank reduce-scatters seven
    // 32-column fp32 slices of its 256-wide tile. Of 50 such plans timed
    // on 30 GEMMs (sweeps on H100s and H200s, M = 16-8192:
    // docs/benchmarks/gemm-sweep-*.csv) none was the fastest of its GEMM,
    // at 1.05-2.5x the fastest's time; S5's down GEMM, the search's choice
    // there, ran its chain 1.026x slower than on 128 x 128 over 4 (H200,
    // docs/validation.md, forty-third session).
    if (gemmSplitK && gemmClsK == 8 && plan.blk(Dim::n) > 128)
      return false;
    // Split K also takes 128-wide n tiles (more CTAs for short M), 64-row
    // m tiles (one consumer warpgroup: M <= 64 wastes no wgmma rows) and
    // 64 x 64 tiles (the small GEMMs of narrow chains: 64 x 64 over 4 ran
    // 4-11 % faster than the best wider split on four down GEMMs of G4-G10
    // on an H100; 128 x 64 over 4 or 8 on 4-stage rings did not beat them),
    // 128 x 64 over 2 or 4 (splitK64, above); wide GEMM tiles 64-row m tiles
    // and 64- or 128-wide n tiles.
    // One CTA per cluster over all of K (getSoloGemmNTileViolation): a
    // partial last n tile, and for a gated pair 128 x 192 tiles. The
    // kernel also runs single GEMMs so, but on an H200 the model's 192-wide
    // picks ran G5's up GEMM at M = 4096 and 8192 and GEMM-8192 1.05-1.08x
    // slower (the T4 anchors 1.01-1.07x faster); S3's gated GEMM at M = 256
    // 1.11x faster in its chain (docs/validation.md, fortieth session).
    // With K-major weights a gated pair takes any width; a plain GEMM any
    // that no 64-row box divides, of which the search offers the ones
    // sized to its waves (passesWaveTileRule).
    // A swapped plain product also takes 192 tokens on 128 weight rows
    // (the fortieth session's losses were 192-wide weight tiles): on an
    // H200 G4's, S1's and S3's chains ran 1.08-1.12x faster on them at M =
    // 720-930, G8's at 330 1.07x, where they replace 96-wide unswapped
    // tiles or 232-240 tokens of a narrow weight; G5's up GEMM at 930 lost
    // 0.94x on them until the swapped products' own wgmma rate
    // (KernelFit::gemmSwappedTflops) priced 240 tokens below them
    // (docs/validation.md, fifty-fifth and fifty-sixth sessions).
    int64_t blkN = plan.blk(Dim::n);
    const bool swapped192 = chain.swappedProduct && blkM == 128 && blkN == 192;
    const bool solo = wide && !alongM && !chain.convW &&
                      plan.cluster == std::array<int64_t, 4>{1, 1, 1, 1};
    // A swapped product's 256-row weight tiles: two accumulators of
    // blk_n / 2 registers per consumer thread (kMaxRowBlockWidth).
    const bool rowBlocks = solo && getWarpgroupRowBlocks(chain, plan) == 2 &&
                           blkN % 8 == 0 && blkN <= kMaxRowBlockWidth;
    // A swapped plain product's 64 weight rows (one consumer warpgroup)
    // against a narrow token tile (64-120 rows, passesWaveTileRule), as
    // cuBLAS's tst_64x80 down GEMMs at M = 300.
    const bool narrowSwapped = solo && chain.swappedProduct &&
                               !chain.isGated() && blkM == 64 &&
                               blkN % 8 == 0 && blkN >= 64 && blkN < 128;
    // A swapped gated pair: a gate and an up accumulator of blk_n / 2
    // registers per consumer thread, on 128 weight rows.
    if (chain.swappedProduct && chain.isGated() &&
        (blkM != 128 || blkN > kMaxRowBlockWidth))
      return false;
    if ((blkM != 128 && !((gemmSplitK || wide) && blkM == 64) && !rowBlocks) ||
        (blkN != 256 && !(gemmSplitK && blkN == 128) &&
         !(gemmSplitK && blkM == 64 && blkN == 64) && !splitK64 &&
         !swappedSplit && !narrowSwapped &&
         !(wide && (blkN == 64 || blkN == 128)) &&
         !(solo && (blkM == 128 || rowBlocks) &&
           (chain.isGated()
                ? blkN == 192 || chain.kMajorWeights
                : chain.kMajorWeights && (blkN % 64 != 0 || swapped192)))) ||
        (!gemmSplitK && plan.blk(Dim::k) != 64) ||
        (chain.isGated() && blkN > (solo ? 192 : 128)))
      return false;
    if (!plan.isSpatial(Dim::m) || !plan.isSpatial(Dim::n) ||
        plan.isSpatial(Dim::k) != gemmSplitK || plan.isSpatial(Dim::l))
      return false;
    // A swapped split's token tiles may end past n like a solo tile's.
    if (solo || swappedSplit
            ? !getSoloGemmNTileViolation(chain.isGated(), chain.n, blkN,
                                         plan.grd(Dim::n), chain.kMajorWeights)
                   .empty()
            : plan.cls(Dim::n) * plan.grd(Dim::n) * blkN != chain.n)
      return false;
    return chain.m <= 0 ||
           plan.grd(Dim::m) == static_cast<int64_t>(llvm::divideCeil(
                                   chain.m, blkM * plan.cls(Dim::m)));
  }
  if (!hasFfnTiles(plan, chain))
    return false;
  if (!plan.isSpatial(Dim::n))
    return isLowerableStreamed(plan, chain);
  int64_t clsN = plan.cls(Dim::n);
  // Two families: clusters along n (reduce-scatter of E), or along n and l
  // alike (shuffle groups of cls_n CTAs that each compute blk_l = L / cls_l
  // columns of E from the gathered act(C)).
  bool shuffle = plan.isShuffleFamily();
  // Portable cluster sizes only: the kernel-family model is calibrated on
  // clusters of up to 8 (docs/benchmarks/fidelity-h200.md), and 16 needs the
  // non-portable opt-in, which not every part or MIG slice grants.
  // Hand-written schedules may still ask --dsm-materialize for 16. Shuffle
  // groups may have 3 or 6 CTAs (N and L of 3 * 2^k in one cluster along
  // n); the reduce-scatter family splits blk_l evenly over powers of two.
  // Split K (shuffle family only): the k groups reduce C before the gather.
  bool splitK = plan.splitsGatheredK();
  int64_t clsK = plan.cls(Dim::k);
  if (plan.cls(Dim::m) != 1 || (clsK != 1 && !splitK) ||
      (plan.cls(Dim::l) != 1 && !shuffle) ||
      (!llvm::isPowerOf2_64(clsN) && !shuffle) || plan.getClusterSize() > 8)
    return false;
  unsigned spatial = (1u << unsigned(Dim::m)) | (1u << unsigned(Dim::n));
  if (shuffle)
    spatial |= 1u << unsigned(Dim::l);
  if (splitK)
    spatial |= 1u << unsigned(Dim::k);
  if (plan.spatialMask != spatial)
    return false;
  auto order = shuffle && !splitK
                   ? std::array<Dim, 4>{Dim::m, Dim::n, Dim::l, Dim::k}
                   : std::array<Dim, 4>{Dim::m, Dim::n, Dim::k, Dim::l};
  if (plan.order != order)
    return false;
  int64_t blkN = plan.blk(Dim::n), blkL = plan.blk(Dim::l);
  if (splitK && (plan.blk(Dim::k) * clsK != chain.k ||
                 !getGatheredSplitKViolation(chain.isGated(), chain.k,
                                             plan.blk(Dim::m), blkN, clsK)
                      .empty()))
    return false;
  if (!getLTileViolation(shuffle, chain.l, plan.cls(Dim::l), blkL).empty())
    return false;
  return clsN * plan.grd(Dim::n) * blkN == chain.n;
}

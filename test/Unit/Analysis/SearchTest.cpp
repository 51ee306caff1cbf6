//===- SearchTest.cpp - unit tests of the search space and engine ---------===//
//
// Part of the FlashFuser project.
//
//===----------------------------------------------------------------------===//

#include "AnalysisTestUtil.h"

#include "ff/Analysis/Search.h"
#include "llvm/ADT/DenseMap.h"

#include "gtest/gtest.h"

#include <chrono>
#include <cmath>
#include <tuple>

using namespace mlir::ff;
using namespace mlir::ff::test;

namespace {

// Table IV: 24 + 12 + 4 + 1 = 41 schedules.
TEST(SearchTest, FortyOneLoopSchedules) {
  std::vector<LoopSchedule> all = enumerateLoopSchedules();
  ASSERT_EQ(all.size(), 41u);
  int bySpatial[5] = {0, 0, 0, 0, 0};
  int activation = 0;
  for (const LoopSchedule &s : all) {
    ++bySpatial[llvm::popcount(s.spatialMask)];
    activation += passesActivationRule(s);
  }
  EXPECT_EQ(bySpatial[1], 24);
  EXPECT_EQ(bySpatial[2], 12);
  EXPECT_EQ(bySpatial[3], 4);
  EXPECT_EQ(bySpatial[4], 1);
  // Rule 3 keeps the orders with k after the temporal m and n:
  // 1 spatial: 3 + 3 + 6 + 2, 2 spatial: 2 + 2 + 1 + 2 + 1 + 2, then 4 + 1.
  EXPECT_EQ(activation, 29);
}

TEST(SearchTest, ActivationRule) {
  LoopSchedule s;
  s.spatialMask = bit(Dim::m);
  s.order = {Dim::m, Dim::k, Dim::n, Dim::l};
  EXPECT_FALSE(passesActivationRule(s));
  s.order = {Dim::m, Dim::n, Dim::l, Dim::k};
  EXPECT_TRUE(passesActivationRule(s));
}

TEST(SearchTest, ClusterRule) {
  Plan p;
  p.spatialMask = 15;
  p.cluster = {2, 4, 2, 4};
  EXPECT_TRUE(passesClusterRule(p, 16));
  EXPECT_FALSE(passesClusterRule(p, 8)); // 16 CTAs over the portable 8
  p.cluster = {2, 4, 4, 4};              // 32 CTAs
  EXPECT_FALSE(passesClusterRule(p, 16));
  p.cluster = {1, 2, 1, 4}; // cls_n * cls_k = 2 not a multiple of cls_l
  EXPECT_FALSE(passesClusterRule(p, 16));
  p.cluster = {1, 4, 2, 1}; // cls_l = 1 not a multiple of cls_k
  EXPECT_FALSE(passesClusterRule(p, 16));
  p.cluster = {1, 1, 8, 1}; // a single GEMM splitting K has no such groups
  EXPECT_FALSE(passesClusterRule(p, 16));
  EXPECT_TRUE(passesClusterRule(p, 16, /*secondGemm=*/false));
  p.cluster = {1, 3, 1, 1};
  EXPECT_FALSE(passesClusterRule(p, 16));
  // 3 * 2^k CTAs: only as shuffle groups (cls_n = cls_l, cls_m = cls_k = 1).
  p.cluster = {1, 3, 1, 3};
  EXPECT_TRUE(passesClusterRule(p, 16));
  p.cluster = {1, 12, 1, 12};
  EXPECT_TRUE(passesClusterRule(p, 16));
  EXPECT_FALSE(passesClusterRule(p, 8));
  p.cluster = {1, 6, 1, 3}; // groups of 3 whole, but not the shuffle shape
  EXPECT_FALSE(passesClusterRule(p, 16));
  p.cluster = {3, 2, 1, 2};
  EXPECT_FALSE(passesClusterRule(p, 16));
  p.cluster = {1, 6, 2, 6};
  EXPECT_FALSE(passesClusterRule(p, 16));
  // A temporal n split over the cluster: only where a second GEMM reduces
  // the partial E tiles; no other temporal dimension is split.
  p.cluster = {1, 4, 1, 1};
  p.spatialMask = bit(Dim::m);
  EXPECT_TRUE(passesClusterRule(p, 16));
  EXPECT_FALSE(passesClusterRule(p, 16, /*secondGemm=*/false));
  p.cluster = {1, 1, 1, 2};
  EXPECT_FALSE(passesClusterRule(p, 16));
  p.cluster = {1, 1, 2, 2};
  EXPECT_FALSE(passesClusterRule(p, 16));
}

TEST(SearchTest, TileRule) {
  ChainDesc chain = chainOf(ChainKind::ffn, 200, 1024, 416, 768);
  Plan p;
  p.spatialMask = kMN;
  p.cluster = {1, 4, 1, 1};
  p.block = {128, 128, 64, 256};
  p.grid = {2, 2, 1, 1};
  EXPECT_TRUE(passesTileRule(p, chain)); // M tail 56, K tail 32 of 448
  p.grid = {3, 2, 1, 1};                 // a third M tile would be idle
  EXPECT_FALSE(passesTileRule(p, chain));
  p.grid = {2, 1, 1, 1}; // n covered 512 of 1024
  EXPECT_FALSE(passesTileRule(p, chain));
  p.grid = {2, 2, 1, 1};
  p.block[2] = 96; // K: 5 tiles of 96 = 480 for 416: 13% tail, fine
  EXPECT_TRUE(passesTileRule(p, chain));
  p.block[2] = 128; // 4 tiles = 512 for 416: 19% tail, fine
  EXPECT_TRUE(passesTileRule(p, chain));
  p.block[3] = 512; // 2 tiles = 1024 for 768: 25% tail, limit
  EXPECT_TRUE(passesTileRule(p, chain));
  chain.l = 720; // 1024 for 720: 30% tail
  EXPECT_FALSE(passesTileRule(p, chain));
  p.block[3] = 40; // not a multiple of 16
  EXPECT_FALSE(passesTileRule(p, chain));
}

TEST(SearchTest, DependencyRule) {
  Plan p;
  EXPECT_TRUE(passesDependencyRule(p));
  p.grid = {1, 1, 1, 2};
  EXPECT_FALSE(passesDependencyRule(p));
  p.grid = {1, 1, 2, 1};
  EXPECT_FALSE(passesDependencyRule(p));
}

// The tile rules isLowerable and the lowering's planKernel share, with the
// diagnostics planKernel reports.
TEST(SearchTest, TileViolations) {
  EXPECT_EQ(getTileViolation(512, 128, 256, 64), "");
  EXPECT_EQ(getTileViolation(32, 64, 64, 32), "");
  EXPECT_EQ(getTileViolation(512, 96, 256, 64), "blk_m must be 64 or 128");
  EXPECT_EQ(
      getTileViolation(64, 128, 256, 32),
      "blk_k must be 64 (one 128B-swizzled bf16 row), or 32 with K <= 32");
  EXPECT_EQ(getTileViolation(512, 128, 192, 64),
            "blk_n must be 64, 128 or 256");
  // A GEMM kernel of one CTA per cluster over all of K: 192 too, and a
  // partial last n tile where N is a multiple of 64 (S3's 11008 columns in
  // 58 tiles of 192; 4096 in 22).
  EXPECT_EQ(getSoloGemmNTileViolation(true, 11008, 192, 58), "");
  EXPECT_EQ(getSoloGemmNTileViolation(false, 4096, 192, 22), "");
  EXPECT_EQ(getSoloGemmNTileViolation(false, 4096, 256, 16), "");
  EXPECT_EQ(getSoloGemmNTileViolation(true, 11008, 256, 43),
            "a gated GEMM keeps gate and up accumulators live: blk_n <= 192");
  EXPECT_EQ(getSoloGemmNTileViolation(false, 4096, 160, 26),
            "row-major [K, N] weights load B in 64-column boxes: blk_n must "
            "be a multiple of 64");
  const char *cover = "N must be grid_n * blk_n, or end in a partial n tile "
                      "with N a multiple of 64";
  EXPECT_EQ(getSoloGemmNTileViolation(false, 4000, 192, 21), cover);
  EXPECT_EQ(getSoloGemmNTileViolation(true, 11008, 192, 57), cover);
  EXPECT_EQ(getSoloGemmNTileViolation(true, 11008, 192, 59), cover);
  // K-major [N, K] weights: any 8-column multiple (one TMA box of blk_n
  // rows), a partial last tile where N is a multiple of 8: S3's gate|up at
  // M = 128 on 115 tiles of 96, S2's on 118 of 48.
  EXPECT_EQ(getSoloGemmNTileViolation(true, 11008, 96, 115, true), "");
  EXPECT_EQ(getSoloGemmNTileViolation(true, 5632, 48, 118, true), "");
  EXPECT_EQ(getSoloGemmNTileViolation(false, 4000, 96, 42, true), "");
  EXPECT_EQ(getSoloGemmNTileViolation(true, 11008, 88, 126, true), "");
  EXPECT_EQ(getSoloGemmNTileViolation(true, 11008, 84, 132, true),
            "blk_n must be a multiple of 8 in [8, 256]");
  EXPECT_EQ(getSoloGemmNTileViolation(true, 11008, 208, 53, true),
            "a gated GEMM keeps gate and up accumulators live: blk_n <= 192");
  EXPECT_EQ(getSoloGemmNTileViolation(false, 4004, 96, 42, true),
            "N must be grid_n * blk_n, or end in a partial n tile with N a "
            "multiple of 8");
  EXPECT_EQ(getSoloGemmNTileViolation(true, 11008, 96, 116, true),
            "N must be grid_n * blk_n, or end in a partial n tile with N a "
            "multiple of 8");
  // Second GEMM: the reduce-scatter family's chunks, the shuffle family's
  // per-rank columns.
  EXPECT_EQ(getLTileViolation(false, 768, 4, 256), "");
  EXPECT_EQ(getLTileViolation(false, 768, 4, 192),
            "blk_l must be 64, 128 or 256");
  EXPECT_EQ(getLTileViolation(false, 320, 1, 128),
            "L must be a multiple of blk_l");
  EXPECT_EQ(getLTileViolation(true, 768, 6, 128), "");
  EXPECT_EQ(getLTileViolation(true, 768, 4, 128),
            "the shuffle family needs L = cls_l * blk_l with blk_l a "
            "multiple of 64");
  EXPECT_EQ(getLTileViolation(true, 96, 3, 32),
            "the shuffle family needs L = cls_l * blk_l with blk_l a "
            "multiple of 64");
  // Streamed n: plain FFNs, blk_l = L, blk_n | N, the accumulator bound.
  EXPECT_EQ(getStreamedTileViolation(false, 2048, 256, 64, 128, 256), "");
  EXPECT_EQ(getStreamedTileViolation(true, 2048, 64, 128, 128, 64),
            "streamed-n plans are lowered for plain FFNs only");
  EXPECT_EQ(getStreamedTileViolation(false, 2048, 256, 64, 128, 128),
            "a streamed-n plan keeps all of E in registers: blk_l must be L");
  EXPECT_EQ(getStreamedTileViolation(false, 2000, 64, 64, 128, 64),
            "a streamed-n plan needs N to be a multiple of cls_n * blk_n, "
            "with at least two n tiles per CTA");
  EXPECT_NE(getStreamedTileViolation(false, 2048, 256, 128, 128, 256), "");
  // The n loop split over a cluster of 2 or 4 CTAs, two tiles each at
  // least.
  EXPECT_EQ(getStreamedTileViolation(false, 2048, 256, 64, 128, 256, 2), "");
  EXPECT_EQ(getStreamedTileViolation(false, 1024, 64, 64, 128, 64, 4), "");
  EXPECT_EQ(getStreamedTileViolation(false, 1024, 64, 64, 128, 64, 8),
            "a streamed-n plan splits its n loop over 1, 2 or 4 CTAs");
  EXPECT_EQ(getStreamedTileViolation(false, 3072, 64, 64, 128, 64, 3),
            "a streamed-n plan splits its n loop over 1, 2 or 4 CTAs");
  EXPECT_EQ(getStreamedTileViolation(false, 512, 64, 64, 128, 64, 4),
            "a streamed-n plan needs N to be a multiple of cls_n * blk_n, "
            "with at least two n tiles per CTA");
}

// The search splits a streamed n loop only where each CTA walks at least
// four tiles (the lowering takes two).
TEST(SearchTest, StreamedSplitTiles) {
  ChainDesc chain = chainOf(ChainKind::ffn, 4096, 1024, 64, 64);
  Plan two = streamedPlan({64, 128, 64, 64}, 64, 4, 4);
  Plan four = streamedPlan({64, 128, 64, 64}, 64, 4, 2);
  EXPECT_TRUE(isLowerable(two, chain));
  EXPECT_TRUE(isLowerable(four, chain));
  EXPECT_FALSE(passesTileRule(two, chain));
  EXPECT_TRUE(passesTileRule(four, chain));
  EXPECT_TRUE(passesClusterRule(four, 16, /*secondGemm=*/true));
  // One GEMM has no second reduction over n to split.
  EXPECT_FALSE(passesClusterRule(four, 16, /*secondGemm=*/false));
}

// Split K in the shuffle family: cluster (1, c, k, c * k), every dim
// spatial, order [m, n, k, l], blk_k = K / k, the act(C) slices whole
// 64-column chunks or, for blk_n = 64, row slices; portable clusters only.
TEST(SearchTest, GatheredSplitKLowerable) {
  constexpr uint8_t kAll = 15;
  // C7 at batch 1 as a matrix chain: N = 256, K = 2304, L = 1024.
  ChainDesc chain = chainOf(ChainKind::ffn, 196, 256, 2304, 1024);
  Plan rows = makePlan({1, 4, 2, 8}, {64, 64, 1152, 128}, {4, 1, 1, 1}, kAll,
                       {Dim::m, Dim::n, Dim::k, Dim::l}, 4);
  EXPECT_TRUE(rows.isShuffleFamily());
  EXPECT_TRUE(rows.splitsGatheredK());
  EXPECT_TRUE(isLowerable(rows, chain));
  EXPECT_TRUE(splitsGatheredKByRows(64, 2));
  EXPECT_EQ(getKernelFamily(rows), KernelFamily::shuffle);
  EXPECT_EQ(rows.getCollectives(chain),
            (llvm::SmallVector<Collective, 4>{Collective::allExchange,
                                              Collective::shuffle}));
  // Columns: each of the pair keeps 64 of a 128-wide n tile.
  Plan cols = makePlan({1, 2, 2, 4}, {64, 128, 1152, 256}, {4, 1, 1, 1}, kAll,
                       {Dim::m, Dim::n, Dim::k, Dim::l}, 4);
  EXPECT_FALSE(splitsGatheredKByRows(128, 2));
  EXPECT_TRUE(isLowerable(cols, chain));
  // One n tile per cluster: the k group alone gathers.
  Plan kOnly = makePlan({1, 1, 2, 2}, {64, 256, 1152, 512}, {4, 1, 1, 1}, kAll,
                        {Dim::m, Dim::n, Dim::k, Dim::l}, 4);
  EXPECT_TRUE(isLowerable(kOnly, chain));
  // A 32-column slice of a 128-wide tile is neither chunks nor rows.
  Plan narrow = makePlan({1, 2, 4, 8}, {64, 128, 576, 128}, {4, 1, 1, 1}, kAll,
                         {Dim::m, Dim::n, Dim::k, Dim::l}, 4);
  EXPECT_FALSE(isLowerable(narrow, chain));
  EXPECT_FALSE(getGatheredSplitKViolation(false, 2304, 64, 128, 4).empty());
  // A cluster of 16 needs the non-portable opt-in.
  Plan sixteen = makePlan({1, 4, 4, 16}, {64, 64, 576, 64}, {4, 1, 1, 1}, kAll,
                          {Dim::m, Dim::n, Dim::k, Dim::l}, 4);
  EXPECT_FALSE(isLowerable(sixteen, chain));
  // blk_k must be each CTA's whole share of K.
  Plan q = rows;
  q.block[2] = 576;
  EXPECT_FALSE(isLowerable(q, chain));
  // Gated chains would reduce gate and up before the activation.
  EXPECT_FALSE(
      isLowerable(rows, chainOf(ChainKind::gatedFfn, 196, 256, 2304, 1024)));
  EXPECT_FALSE(getGatheredSplitKViolation(true, 2304, 64, 64, 2).empty());
  // K of three k tiles per pair: the second rank would run past K.
  EXPECT_FALSE(getGatheredSplitKViolation(false, 192, 64, 64, 2).empty());
  EXPECT_TRUE(getGatheredSplitKViolation(false, 256, 64, 64, 2).empty());
  // Split K needs k spatial and inside m and n.
  q = rows;
  q.spatialMask = kMN | bit(Dim::l);
  EXPECT_FALSE(isLowerable(q, chain));
}

// The measured rule on the lowerable choice: split K only for a GEMM0
// output of at most 16 tiles of 64 x 64 with K of at least 32 k tiles.
TEST(SearchTest, SplitKRule) {
  GpuTarget t = h100();
  Plan rows = makePlan({1, 4, 2, 8}, {64, 64, 1152, 128}, {4, 1, 1, 1}, 15,
                       {Dim::m, Dim::n, Dim::k, Dim::l}, 4);
  ChainDesc c7 = chainOf(ChainKind::ffn, 196, 256, 2304, 1024);
  EXPECT_TRUE(passesSplitKRule(rows, c7));
  // 4 x 5 tiles (M = 257) or K = 1984 (31 k tiles): not split.
  EXPECT_FALSE(
      passesSplitKRule(rows, chainOf(ChainKind::ffn, 257, 256, 2304, 1024)));
  EXPECT_FALSE(
      passesSplitKRule(rows, chainOf(ChainKind::ffn, 196, 256, 1984, 1024)));
  // Unsplit plans and single GEMMs are not concerned.
  Plan unsplit =
      makePlan({1, 4, 1, 4}, {64, 64, 64, 256}, {4, 1, 1, 1}, kMN | bit(Dim::l),
               {Dim::m, Dim::n, Dim::l, Dim::k}, 4);
  EXPECT_TRUE(passesSplitKRule(
      unsplit, chainOf(ChainKind::ffn, 4096, 4096, 4096, 4096)));
  // The search splits C8's K at batch 1 (8 output tiles, K = 4608) and
  // keeps G7's (M = 128, N = K = 768) whole, though the kernel model alone
  // ranks a split plan first there (13.0 us against 14.0; measured on an
  // H100 17.0 against 13.2).
  SearchResult c8 =
      searchChain(chainOf(ChainKind::ffn, 49, 512, 4608, 2048), t);
  ASSERT_TRUE(c8.bestLowerable);
  EXPECT_GT(c8.bestLowerable->plan.cls(Dim::k), 1);
  EXPECT_TRUE(c8.bestLowerable->plan.splitsGatheredK());
  SearchResult g7 = searchChain(chainOf(ChainKind::ffn, 128, 768, 768, 768), t);
  ASSERT_TRUE(g7.bestLowerable);
  EXPECT_EQ(g7.bestLowerable->plan.cls(Dim::k), 1);
  for (const Candidate &c : g7.rankedLowerable)
    EXPECT_EQ(c.plan.cls(Dim::k), 1);
}

// A single GEMM splits K past one m tile (of its token rows, swapped) only
// where K >= N: G5's up GEMM (K = 4096, N = 16384) at M = 600 and 800 ran
// its chain 1.06-1.11x faster unsplit, its down GEMM keeps the split (H200,
// fifty-fourth session). Over 4 or 8 only up to 640 rows: G9's down GEMM
// (K = 2048, N = 512) ran its chain 1.07x faster at M = 680-720 on
// unsplit 64 x 64 tiles than over 4 (fifty-fifth session).
TEST(SearchTest, SingleGemmSplitKRule) {
  const uint8_t mnk = bit(Dim::m) | bit(Dim::n) | bit(Dim::k);
  const std::array<Dim, 4> order{Dim::m, Dim::n, Dim::k, Dim::l};
  Plan up = makePlan({1, 1, 2, 1}, {128, 256, 2048, 16}, {7, 64, 1, 1}, mnk,
                     order, 3);
  EXPECT_FALSE(
      passesSplitKRule(up, chainOf(ChainKind::gemm, 896, 16384, 4096, 0)));
  EXPECT_TRUE(
      passesSplitKRule(up, chainOf(ChainKind::gemm, 128, 16384, 4096, 0)));
  Plan down = makePlan({1, 1, 2, 1}, {128, 128, 8192, 16}, {6, 32, 1, 1}, mnk,
                       order, 4);
  EXPECT_TRUE(
      passesSplitKRule(down, chainOf(ChainKind::gemm, 768, 4096, 16384, 0)));
  Plan over4 =
      makePlan({1, 1, 4, 1}, {128, 128, 512, 16}, {5, 4, 1, 1}, mnk, order, 4);
  EXPECT_TRUE(
      passesSplitKRule(over4, chainOf(ChainKind::gemm, 640, 512, 2048, 0)));
  over4.grid[0] = 6;
  EXPECT_FALSE(
      passesSplitKRule(over4, chainOf(ChainKind::gemm, 641, 512, 2048, 0)));
  // Swapped: m is the weight rows, n the token rows.
  Plan swapped = makePlan({1, 1, 2, 1}, {128, 160, 8192, 16}, {32, 2, 1, 1},
                          mnk, order, 5);
  ChainDesc swappedDown = chainOf(ChainKind::gemm, 4096, 300, 16384, 0);
  swappedDown.swappedProduct = true;
  EXPECT_TRUE(passesSplitKRule(swapped, swappedDown));
  ChainDesc swappedUp = chainOf(ChainKind::gemm, 16384, 300, 4096, 0);
  swappedUp.swappedProduct = true;
  EXPECT_FALSE(passesSplitKRule(swapped, swappedUp));
  swappedUp.n = 150;
  EXPECT_TRUE(passesSplitKRule(swapped, swappedUp));

  // The search: G5's up GEMM at M = 640 split over 2 before.
  ChainDesc g5up = chainOf(ChainKind::gemm, 640, 16384, 4096, 0);
  g5up.kMajorWeights = true;
  const Candidate *best = searchChain(g5up, h100()).getChosen(true);
  ASSERT_TRUE(best);
  EXPECT_EQ(best->plan.cls(Dim::k), 1);
  // G9's down GEMM at M = 720: split over 4 before.
  ChainDesc g9down = chainOf(ChainKind::gemm, 720, 512, 2048, 0);
  g9down.kMajorWeights = true;
  const Candidate *g9 = searchChain(g9down, h100()).getChosen(true);
  ASSERT_TRUE(g9);
  EXPECT_LT(g9->plan.cls(Dim::k), 4);
}

// Not over 8 on unswapped 128-row tiles: S6's down GEMM (128 x 1536 x 8960)
// on 12 x 8 CTAs of 128 x 128 ran its chain 1.06x slower than on 24 x 4 of
// 128 x 64 (H200, sixty-seventh session). 64-row tiles over 8 (G4's, G9's,
// G10's down GEMMs) and swapped 128-row weight tiles keep it.
TEST(SearchTest, SingleGemmSplitKOver8Rule) {
  const uint8_t mnk = bit(Dim::m) | bit(Dim::n) | bit(Dim::k);
  const std::array<Dim, 4> order{Dim::m, Dim::n, Dim::k, Dim::l};
  ChainDesc s6down = chainOf(ChainKind::gemm, 128, 1536, 8960, 0);
  s6down.kMajorWeights = true;
  Plan over8 = makePlan({1, 1, 8, 1}, {128, 128, 1120, 16}, {1, 12, 1, 1}, mnk,
                        order, 6);
  EXPECT_FALSE(passesSplitKRule(over8, s6down));
  Plan over4 =
      makePlan({1, 1, 4, 1}, {128, 64, 2240, 16}, {1, 24, 1, 1}, mnk, order, 8);
  EXPECT_TRUE(passesSplitKRule(over4, s6down));
  Plan rows64 =
      makePlan({1, 1, 8, 1}, {64, 128, 384, 16}, {2, 6, 1, 1}, mnk, order, 4);
  EXPECT_TRUE(
      passesSplitKRule(rows64, chainOf(ChainKind::gemm, 128, 768, 3072, 0)));
  ChainDesc swapped = chainOf(ChainKind::gemm, 1536, 128, 8960, 0);
  swapped.swappedProduct = true;
  Plan swapped8 = makePlan({1, 1, 8, 1}, {128, 128, 1120, 16}, {12, 1, 1, 1},
                           mnk, order, 6);
  EXPECT_TRUE(passesSplitKRule(swapped8, swapped));
  // The search then takes no such plan for it.
  for (const Candidate &c : searchChain(s6down, h100()).rankedLowerable)
    EXPECT_FALSE(c.plan.cls(Dim::k) == 8 && c.plan.blk(Dim::m) == 128);
}

TEST(SearchTest, SplitK64x64DeepRings) {
  const uint8_t mnk = bit(Dim::m) | bit(Dim::n) | bit(Dim::k);
  const std::array<Dim, 4> order{Dim::m, Dim::n, Dim::k, Dim::l};
  // 64 x 64 tiles over 4 take rings of up to 8 stages where two to four m
  // tiles cover M (65-256 rows); at M <= 64 or past 256, on 64 x 128 tiles
  // or over 8 the fitted families' 4.
  ChainDesc g4down = chainOf(ChainKind::gemm, 128, 768, 3072, 0);
  Plan deep =
      makePlan({1, 1, 4, 1}, {64, 64, 768, 16}, {2, 12, 1, 1}, mnk, order, 8);
  EXPECT_TRUE(isLowerable(deep, g4down));
  Plan oneTile = deep;
  oneTile.grid = {1, 12, 1, 1};
  EXPECT_FALSE(
      isLowerable(oneTile, chainOf(ChainKind::gemm, 64, 768, 3072, 0)));
  Plan fiveTiles = deep;
  fiveTiles.grid = {5, 12, 1, 1};
  EXPECT_FALSE(
      isLowerable(fiveTiles, chainOf(ChainKind::gemm, 320, 768, 3072, 0)));
  Plan wide =
      makePlan({1, 1, 4, 1}, {64, 128, 768, 16}, {2, 6, 1, 1}, mnk, order, 8);
  EXPECT_FALSE(isLowerable(wide, g4down));
  Plan over8 =
      makePlan({1, 1, 8, 1}, {64, 64, 384, 16}, {2, 12, 1, 1}, mnk, order, 8);
  EXPECT_FALSE(isLowerable(over8, g4down));
  // On an H200 the search then takes them for G4's and G9's down GEMMs at
  // M = 128 and G9's at 192 (64 x 128 over 8 on 4 stages before).
  GpuTarget h200 = llvm::cantFail(lookupTarget("h200"));
  for (auto [m, n, k] : {std::tuple<int64_t, int64_t, int64_t>{128, 768, 3072},
                         {128, 512, 2048},
                         {192, 512, 2048}}) {
    SearchResult r = searchChain(chainOf(ChainKind::gemm, m, n, k, 0), h200);
    ASSERT_FALSE(r.rankedLowerable.empty());
    const Plan &best = r.rankedLowerable.front().plan;
    EXPECT_EQ(best.cls(Dim::k), 4) << best.str();
    EXPECT_EQ(best.blk(Dim::m), 64) << best.str();
    EXPECT_EQ(best.blk(Dim::n), 64) << best.str();
    EXPECT_EQ(best.stages, 8) << best.str();
  }
}

TEST(SearchTest, Lowerable) {
  ChainDesc chain = chainOf(ChainKind::ffn, 200, 1024, 512, 768);
  Plan p;
  p.spatialMask = kMN;
  p.cluster = {1, 4, 1, 1};
  p.block = {128, 128, 64, 256};
  p.grid = {2, 2, 1, 1};
  p.stages = 4;
  EXPECT_TRUE(isLowerable(p, chain));
  Plan q = p;
  q.stages = 5;
  EXPECT_FALSE(isLowerable(q, chain));
  q = p;
  q.block[2] = 128;
  EXPECT_FALSE(isLowerable(q, chain));
  q = p;
  q.block[1] = 96;
  EXPECT_FALSE(isLowerable(q, chain));
  q = p;
  q.cluster = {1, 4, 1, 4};
  q.spatialMask = 11;
  EXPECT_FALSE(isLowerable(q, chain));
  q = p;
  q.order = {Dim::m, Dim::n, Dim::l, Dim::k};
  EXPECT_FALSE(isLowerable(q, chain));
  q = p;
  q.grid[0] = 3;
  EXPECT_FALSE(isLowerable(q, chain));
  // Dynamic M (m = 0) skips the M-grid check.
  ChainDesc dyn = chain;
  dyn.m = 0;
  EXPECT_TRUE(isLowerable(q, dyn));

  // Shuffle groups of 3 and 6 CTAs (G7: N = L = 768); not 12 (over the
  // portable 8), and no reduce-scatter cluster of 3 (blk_l over the ranks).
  ChainDesc g7 = chainOf(ChainKind::ffn, 128, 768, 768, 768);
  Plan sh;
  sh.spatialMask = kMN | bit(Dim::l);
  sh.order = {Dim::m, Dim::n, Dim::l, Dim::k};
  sh.cluster = {1, 3, 1, 3};
  sh.block = {64, 64, 64, 256};
  sh.grid = {2, 4, 1, 1};
  sh.stages = 4;
  EXPECT_TRUE(isLowerable(sh, g7));
  sh.cluster = {1, 6, 1, 6};
  sh.block = {64, 128, 64, 128};
  sh.grid = {2, 1, 1, 1};
  EXPECT_TRUE(isLowerable(sh, g7));
  sh.cluster = {1, 12, 1, 12};
  sh.block = {64, 64, 64, 64};
  EXPECT_FALSE(isLowerable(sh, g7));
  Plan rs;
  rs.spatialMask = kMN;
  rs.cluster = {1, 3, 1, 1};
  rs.block = {64, 256, 64, 256};
  rs.grid = {2, 1, 1, 1};
  rs.stages = 4;
  EXPECT_FALSE(isLowerable(rs, g7));

  // Streamed n (perf-anchors T3): a cluster of one, n temporal, blk_l = L,
  // GEMM0's and E's accumulators within 256 columns, plain FFNs only.
  ChainDesc t3 = chainOf(ChainKind::ffn, 4096, 2048, 64, 64);
  Plan st;
  st.spatialMask = bit(Dim::m);
  st.block = {64, 128, 64, 64};
  st.grid = {64, 1, 1, 1};
  st.stages = 4;
  EXPECT_TRUE(isLowerable(st, t3));
  EXPECT_EQ(getKernelFamily(st), KernelFamily::streamed);
  EXPECT_EQ(getKernelFamily(p), KernelFamily::reduceScatter);
  Plan sq = st;
  sq.block[3] = 32; // E must be whole
  EXPECT_FALSE(isLowerable(sq, t3));
  sq = st;
  sq.block[1] = 256; // 256 + 64 accumulator columns
  EXPECT_FALSE(isLowerable(sq, t3));
  sq = st;
  sq.block[1] = 2048; // one n tile: nothing to stream
  EXPECT_FALSE(isLowerable(sq, t3));
  sq = st;
  sq.grid[0] = 32;
  EXPECT_FALSE(isLowerable(sq, t3));
  EXPECT_FALSE(isLowerable(st, chainOf(ChainKind::ffn, 4096, 2048, 256, 256)));
  EXPECT_FALSE(
      isLowerable(st, chainOf(ChainKind::gatedFfn, 4096, 2048, 64, 64)));

  ChainDesc mm = chainOf(ChainKind::gemm, 4096, 4096, 4096, 0);
  Plan g;
  g.spatialMask = kMN;
  g.block = {128, 256, 64, 16};
  g.grid = {32, 16, 1, 1};
  EXPECT_TRUE(isLowerable(g, mm));
  g.cluster = {1, 2, 1, 1}; // A multicast along n
  g.grid = {32, 8, 1, 1};
  EXPECT_TRUE(isLowerable(g, mm));
  g.block[1] = 128;
  EXPECT_FALSE(isLowerable(g, mm));
  g = Plan();
  g.spatialMask = bit(Dim::m); // a temporal n: not the kernel's
  g.block = {128, 256, 64, 16};
  g.grid = {32, 1, 1, 1};
  EXPECT_FALSE(isLowerable(g, mm));

  // Split K: clusters of 2, 4 or 8 along spatial k, blk_k the CTA's slice.
  ChainDesc shortM = chainOf(ChainKind::gemm, 128, 4096, 4096, 0);
  Plan sk;
  sk.spatialMask = bit(Dim::m) | bit(Dim::n) | bit(Dim::k);
  sk.cluster = {1, 1, 4, 1};
  sk.block = {128, 256, 1024, 16};
  sk.grid = {1, 16, 1, 1};
  EXPECT_TRUE(isLowerable(sk, shortM));
  Plan rows64 = sk; // one consumer warpgroup, split K only
  rows64.block[0] = 64;
  rows64.grid[0] = 2;
  EXPECT_TRUE(isLowerable(rows64, shortM));
  rows64.cluster = {1, 1, 1, 1};
  rows64.spatialMask = kMN;
  rows64.block[2] = 64;
  EXPECT_FALSE(isLowerable(rows64, shortM, /*wideGemmTiles=*/false));
  EXPECT_TRUE(isLowerable(rows64, shortM));
  // The wide GEMM tiles (on by default): 64-wide tiles over all of K, up to
  // 8 stages, on a cluster of one only.
  Plan wide = rows64;
  wide.block = {64, 64, 64, 16};
  wide.grid = {2, 64, 1, 1};
  wide.stages = 8;
  EXPECT_FALSE(isLowerable(wide, shortM, /*wideGemmTiles=*/false));
  EXPECT_TRUE(isLowerable(wide, shortM));
  wide.stages = 9;
  EXPECT_FALSE(isLowerable(wide, shortM, true));
  wide.stages = 8;
  wide.block[1] = 96; // n tiles of 64, 128 or 256
  wide.grid[1] = 43;
  EXPECT_FALSE(isLowerable(wide, shortM, true));
  wide.block[1] = 64;
  wide.grid[1] = 32;
  wide.cluster = {1, 2, 1, 1}; // A multicast keeps its 128 x 256 tiles
  EXPECT_FALSE(isLowerable(wide, shortM, true));
  // Two-GEMM chains are unaffected by the option.
  Plan ffnWide = makePlan({1, 1, 1, 1}, {64, 64, 64, 64}, {2, 64, 1, 1}, kMN,
                          {Dim::m, Dim::n, Dim::k, Dim::l}, 8);
  EXPECT_FALSE(
      isLowerable(ffnWide, chainOf(ChainKind::ffn, 128, 4096, 4096, 64), true));
  Plan bad = sk;
  // 128- or 256-wide n tiles over 8 (64-wide: over 2 or 4 only,
  // SplitK128x64*).
  bad.cluster = {1, 1, 8, 1};
  bad.block = {128, 64, 512, 16};
  bad.grid[1] = 64;
  EXPECT_FALSE(isLowerable(bad, shortM));
  bad.block[1] = 128;
  bad.grid[1] = 32;
  EXPECT_TRUE(isLowerable(bad, shortM));
  bad = sk;
  bad.cluster = {1, 1, 16, 1};
  bad.block[2] = 256;
  EXPECT_FALSE(isLowerable(bad, shortM));
  bad = sk;
  bad.cluster = {1, 2, 2, 1}; // k and n at once
  bad.grid[1] = 8;
  EXPECT_FALSE(isLowerable(bad, shortM));
}

struct Workload {
  const char *name;
  ChainKind kind;
  int64_t m, n, k, l;
};

/// FlashFuser Tables V-VII; conv chains as GEMMs at batch 1 (1x1 conv:
/// [H*W, IC] x [IC, OC1]; 3x3: im2col [H*W, 9*IC] x [9*IC, OC1]).
const Workload kWorkloads[] = {
    {"G1", ChainKind::ffn, 128, 512, 32, 256},
    {"G2", ChainKind::ffn, 128, 256, 512, 64},
    {"G3", ChainKind::ffn, 128, 512, 416, 256},
    {"G4", ChainKind::ffn, 128, 3072, 768, 768},
    {"G5", ChainKind::ffn, 128, 16384, 4096, 4096},
    {"G6", ChainKind::ffn, 128, 4096, 1024, 1024},
    {"G7", ChainKind::ffn, 128, 768, 768, 768},
    {"G8", ChainKind::ffn, 128, 8192, 2048, 2048},
    {"G9", ChainKind::ffn, 128, 2048, 512, 512},
    {"G10", ChainKind::ffn, 128, 1536, 384, 384},
    {"S1", ChainKind::gatedFfn, 128, 8192, 3072, 3072},
    {"S2", ChainKind::gatedFfn, 128, 5632, 2048, 2048},
    {"S3", ChainKind::gatedFfn, 128, 11008, 4096, 4096},
    {"S4", ChainKind::gatedFfn, 128, 8192, 2048, 2048},
    {"S5", ChainKind::gatedFfn, 128, 11008, 2048, 2048},
    {"S6", ChainKind::gatedFfn, 128, 8960, 1536, 1536},
    {"S7", ChainKind::gatedFfn, 128, 9728, 2560, 2560},
    {"S8", ChainKind::gatedFfn, 128, 3072, 1024, 1024},
    {"C1", ChainKind::ffn, 3136, 256, 64, 64},
    {"C2", ChainKind::ffn, 784, 512, 128, 128},
    {"C3", ChainKind::ffn, 196, 1024, 256, 256},
    {"C4", ChainKind::ffn, 49, 2048, 512, 512},
    {"C5", ChainKind::ffn, 3136, 64, 576, 256},
    {"C6", ChainKind::ffn, 784, 128, 1152, 512},
    {"C7", ChainKind::ffn, 196, 256, 2304, 1024},
    {"C8", ChainKind::ffn, 49, 512, 4608, 2048},
    {"C8x32", ChainKind::ffn, 49 * 32, 512, 4608, 2048},
};

// Every paper workload: the chosen plan obeys every rule, fits the SM, the
// search is deterministic and takes well under a second.
TEST(SearchTest, PaperWorkloads) {
  GpuTarget t = h100();
  for (const Workload &w : kWorkloads) {
    SCOPED_TRACE(w.name);
    ChainDesc chain = chainOf(w.kind, w.m, w.n, w.k, w.l);
    auto start = std::chrono::steady_clock::now();
    SearchResult r = searchChain(chain, t);
    double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
            .count();
    EXPECT_LT(seconds, 1.0);
    EXPECT_EQ(r.stats.schedules, 41);
    EXPECT_EQ(r.stats.prunedActivation, 12);
    ASSERT_FALSE(r.ranked.empty());
    // Ranked best first (costs equal to the ns are ties, ranked by the
    // tie-breaks).
    for (size_t i = 1; i < r.ranked.size(); ++i)
      EXPECT_LE(std::llround(r.ranked[i - 1].cost.totalNs),
                std::llround(r.ranked[i].cost.totalNs));
    const Candidate *chosen = r.getChosen(/*lowerableOnly=*/true);
    ASSERT_TRUE(chosen);
    const Plan &p = chosen->plan;
    EXPECT_TRUE(passesTileRule(p, chain));
    EXPECT_TRUE(passesClusterRule(p, t.maxClusterNonportable));
    EXPECT_TRUE(passesDependencyRule(p));
    EXPECT_TRUE(chosen->flow.feasible);
    EXPECT_LE(chosen->flow.smemBytes, t.smemPerBlock);
    EXPECT_LE(chosen->flow.regsPerThread, 255);
    EXPECT_GE(chosen->cost.totalNs, chosen->cost.minimaxNs);
    // The lowerable family exists for every workload (G1's K = 32 is one
    // zero-filled 64-wide k step).
    EXPECT_TRUE(chosen->lowerable);
    // Deterministic.
    SearchResult again = searchChain(chain, t);
    EXPECT_TRUE(again.getChosen(true)->plan == p);
  }
}

TEST(SearchTest, PlausiblePlans) {
  GpuTarget t = h100();
  auto chosen = [&](const char *name) {
    for (const Workload &w : kWorkloads)
      if (std::string(w.name) == name)
        return searchChain(chainOf(w.kind, w.m, w.n, w.k, w.l), t)
            .getChosen(true)
            ->plan;
    return Plan();
  };
  // Tiny chains: one cluster along n holds the whole chain, so no partial
  // E tile goes through the fp32 workspace (measured on an H200: the
  // workspace's count-in and cast cost ~2.7 us, more than such a chain's
  // GEMMs; docs/benchmarks/fidelity-h200.md).
  for (const char *w : {"G1", "G2", "C1", "C5"})
    EXPECT_EQ(chosen(w).grd(Dim::n), 1) << w;
  // GPT-6.7B and Llama-2-7B: C (4 MiB) is far beyond one SM and one
  // cluster; N is split across clusters.
  for (const char *w : {"G5", "S3"})
    EXPECT_GT(chosen(w).grd(Dim::n), 1) << w;
  // G5 also reduces inside a cluster first (fewer workspace partials).
  EXPECT_GT(chosen("G5").cls(Dim::n), 1);
}

TEST(SearchTest, FullSpaceFindsDsmSchedules) {
  // G4 (GPT-2 small): the best plan of the full space shuffles C through
  // DSM (L split inside the cluster), the paper's Fig. 7 pattern.
  SearchResult r = searchChain(chainOf(ChainKind::ffn, 128, 3072, 768, 768),
                               h100(), {/*lowerableOnly=*/false, 8});
  const Plan &best = r.ranked.front().plan;
  EXPECT_GT(best.getShuffleGroup(), 1);
  EXPECT_EQ(r.ranked.front().flow.residency[0], Tier::dsm);
  EXPECT_FALSE(r.ranked.front().lowerable);
  EXPECT_TRUE(r.getChosen(false) == &r.ranked.front());
  EXPECT_TRUE(r.getChosen(true)->lowerable);
}

TEST(SearchTest, DynamicMBins) {
  llvm::SmallVector<MBin> bins = getDefaultMBins();
  ASSERT_FALSE(bins.empty());
  EXPECT_EQ(bins.front().lo, 1);
  for (size_t i = 1; i < bins.size(); ++i)
    EXPECT_EQ(bins[i].lo, bins[i - 1].hi + 1);
  EXPECT_EQ(bins.back().hi, kOpenBinHi);
  // 32 rows wide from 129 to 256, 64 from there.
  std::vector<int64_t> his;
  for (const MBin &b : bins)
    if (b.hi <= 384)
      his.push_back(b.hi);
  EXPECT_EQ(his, (std::vector<int64_t>{64, 128, 160, 192, 224, 256, 320, 384}));

  ChainDesc chain = chainOf(ChainKind::ffn, 0, 3072, 768, 768);
  std::vector<BinnedPlan> table = searchDynamicM(chain, h100());
  ASSERT_FALSE(table.empty());
  EXPECT_EQ(table.front().bin.lo, 1);
  EXPECT_EQ(table.back().bin.hi, kOpenBinHi);
  for (size_t i = 1; i < table.size(); ++i) {
    EXPECT_EQ(table[i].bin.lo, table[i - 1].bin.hi + 1);
    // Merged neighbours differ in more than the M grid.
    Plan a = table[i - 1].candidate.plan, b = table[i].candidate.plan;
    a.grid[0] = b.grid[0] = 0;
    EXPECT_FALSE(a == b);
  }
  for (const BinnedPlan &bp : table)
    EXPECT_TRUE(bp.candidate.lowerable);

  // searchMBins keeps one entry per default bin of the chain's own
  // (getFineMBinsHi); searchDynamicM is it with neighbours alike but for
  // the M grid merged, the later bin's entry serving the merged bin.
  std::vector<BinnedPlan> perBin = searchMBins(chain, h100());
  llvm::SmallVector<MBin> chainBins = getDefaultMBins(getFineMBinsHi(chain));
  ASSERT_EQ(perBin.size(), chainBins.size());
  size_t next = 0;
  for (size_t i = 0; i < perBin.size(); ++i) {
    EXPECT_EQ(perBin[i].bin.lo, chainBins[i].lo);
    EXPECT_EQ(perBin[i].bin.hi, chainBins[i].hi);
    ASSERT_LT(next, table.size());
    EXPECT_TRUE(
        sameButMGrid(perBin[i].candidate.plan, table[next].candidate.plan));
    if (perBin[i].bin.hi == table[next].bin.hi) {
      EXPECT_EQ(perBin[i].candidate.plan, table[next].candidate.plan);
      ++next;
    }
  }
  EXPECT_EQ(next, table.size());
}

// 64-row bins run from 257 to 1024 for an FFN, plain or gated, and a
// gated GEMM, to 768 for a lone plain GEMM (measured per chain kind); a
// sequence's halves take their FFN's bound through
// SearchOptions::fineMBinsHi.
TEST(SearchTest, FineMBinsPerChainKind) {
  EXPECT_EQ(getFineMBinsHi(chainOf(ChainKind::ffn, 0, 3072, 768, 768)), 1024);
  EXPECT_EQ(getFineMBinsHi(chainOf(ChainKind::gemm, 0, 3072, 768, 0)), 768);
  EXPECT_EQ(getFineMBinsHi(chainOf(ChainKind::gatedFfn, 0, 3072, 768, 768)),
            1024);
  EXPECT_EQ(getFineMBinsHi(chainOf(ChainKind::gatedGemm, 0, 3072, 768, 0)),
            1024);
  auto his = [](const llvm::SmallVector<MBin> &bins) {
    std::vector<int64_t> out;
    for (const MBin &b : bins)
      if (b.hi > 640 && b.hi <= 2048)
        out.push_back(b.hi);
    return out;
  };
  EXPECT_EQ(his(getDefaultMBins()),
            (std::vector<int64_t>{704, 768, 1024, 2048}));
  EXPECT_EQ(his(getDefaultMBins(1024)),
            (std::vector<int64_t>{704, 768, 832, 896, 960, 1024, 2048}));
  for (const MBin &b : getDefaultMBins(1024))
    EXPECT_EQ(b.rep, b.hi == kOpenBinHi ? 16384 : b.hi);

  // A plain down GEMM searched alone takes its own bins, as one of a gated
  // FFN's halves the FFN's.
  ChainDesc down = chainOf(ChainKind::gemm, 0, 2560, 9728, 0);
  down.kMajorWeights = true;
  SearchOptions halves;
  halves.binRegret = false;
  EXPECT_EQ(searchMBins(down, h100(), halves).size(), getDefaultMBins().size());
  halves.fineMBinsHi = 1024;
  EXPECT_EQ(searchMBins(down, h100(), halves).size(),
            getDefaultMBins(1024).size());
}

// A bin's plan serves its whole M range. An unsplit streamed-n plan, whose
// time does not shrink with M until the SMs fill, cost 2.3x at 1025 in the
// old 1025-4096 bin for T3-k128-n4096 (H100): the bin holding 1025 does not
// take it. Its n loop split over a cluster of 4 fills the SMs there (17.3
// us at M = 1025 against 27.2 for the best n-spatial plan and 42.2
// unsplit, H100, docs/validation.md, twenty-first session); the open bin
// streams too. And the bin takes the candidate of
// least worst regret at its lower end, middle and upper end, not the upper
// end's own choice: G7's open bin (4097 on) keeps the plan of 1025-4096,
// which measured 35.4 us at M = 4097 where the choice at 8192 took 60.4.
TEST(SearchTest, DynamicMBinsServeTheirLowerEnd) {
  auto binOf = [](const std::vector<BinnedPlan> &table,
                  int64_t m) -> const BinnedPlan * {
    for (const BinnedPlan &bp : table)
      if (bp.bin.lo <= m && m <= bp.bin.hi)
        return &bp;
    return nullptr;
  };
  std::vector<BinnedPlan> t3 =
      searchDynamicM(chainOf(ChainKind::ffn, 0, 4096, 128, 128), h100());
  ASSERT_TRUE(binOf(t3, 1025) && binOf(t3, 8192));
  const Plan &low = binOf(t3, 1025)->candidate.plan;
  EXPECT_FALSE(getKernelFamily(low) == KernelFamily::streamed &&
               low.cls(Dim::n) == 1);
  EXPECT_EQ(getKernelFamily(binOf(t3, 8192)->candidate.plan),
            KernelFamily::streamed);

  ChainDesc g7 = chainOf(ChainKind::ffn, 0, 768, 768, 768);
  std::vector<BinnedPlan> table = searchDynamicM(g7, h100());
  const BinnedPlan *open = binOf(table, 8192);
  ASSERT_TRUE(open);
  EXPECT_LE(open->bin.lo, 4097);
  g7.m = 8192;
  const Candidate *upper = searchChain(g7, h100()).getChosen(true);
  ASSERT_TRUE(upper);
  Plan a = open->candidate.plan, b = upper->plan;
  a.grid[0] = b.grid[0] = 0;
  EXPECT_FALSE(a == b);
}

// Without the regret rule (a sequence's halves) every bin takes its upper
// end's own best; GEMM-4096's bin 1025-2048 is one the rule moves (G5's up
// GEMM's 257-512 and 513-1024 were, measured slower on an H200, before the
// bins below 1025 were halved).
TEST(SearchTest, DynamicMBinsWithoutRegret) {
  ChainDesc up = chainOf(ChainKind::gemm, 0, 4096, 4096, 0);
  SearchOptions noRegret;
  noRegret.binRegret = false;
  std::vector<BinnedPlan> plain = searchMBins(up, h100(), noRegret);
  std::vector<BinnedPlan> regret = searchMBins(up, h100());
  ASSERT_EQ(plain.size(), getDefaultMBins().size());
  ASSERT_EQ(regret.size(), plain.size());
  int moved = 0;
  for (size_t i = 0; i < plain.size(); ++i) {
    ChainDesc at = up;
    at.m = plain[i].bin.rep;
    const Candidate *best = searchChain(at, h100()).getChosen(true);
    ASSERT_TRUE(best);
    EXPECT_EQ(plain[i].candidate.plan, best->plan);
    moved += !(regret[i].candidate.plan == best->plan);
  }
  EXPECT_GE(moved, 1);
}

// A wide gated plan takes the regret rule even without it where its bin
// spans m-tile counts: one wave at the bin's upper end, its time does not
// fall with M. S8's gate|up GEMM takes 128 x 192 at M = 1024 but not for
// a bin 769-1024 (as at 768 for the old bin 513-768); S2's 128 x 192 at M =
// 512 ran 1.11x slower at M = 300 for the old bin 257-512 on an H200, and keeps
// it for 385-512 (four m tiles throughout), S3's for 129-256 (1.15x faster at
// 200), S8's for the gated chains' 64-row bins 705-768 and 961-1024.
TEST(SearchTest, WideGatedBinsTakeRegret) {
  SearchOptions noRegret;
  noRegret.binRegret = false;
  auto binPlan = [&](int64_t n, int64_t k, int64_t rep) -> Plan {
    for (const BinnedPlan &bp : searchMBins(
             chainOf(ChainKind::gatedGemm, 0, n, k, 0), h100(), noRegret))
      if (bp.bin.rep == rep)
        return bp.candidate.plan;
    ADD_FAILURE() << "no bin with upper end " << rep;
    return Plan();
  };
  const Candidate *top =
      searchChain(chainOf(ChainKind::gatedGemm, 512, 5632, 2048, 0), h100())
          .getChosen(true);
  ASSERT_TRUE(top);
  EXPECT_EQ(top->plan.blk(Dim::n), 192);
  EXPECT_EQ(binPlan(5632, 2048, 512).blk(Dim::n), 192);
  const Candidate *s8 =
      searchChain(chainOf(ChainKind::gatedGemm, 1024, 3072, 1024, 0), h100())
          .getChosen(true);
  ASSERT_TRUE(s8);
  EXPECT_EQ(s8->plan.blk(Dim::n), 192);
  // The 64-row bins 705-768 and 961-1024 (six and eight m tiles
  // throughout) keep it; one bin 769-1024 does not.
  EXPECT_EQ(binPlan(3072, 1024, 768).blk(Dim::n), 192);
  EXPECT_EQ(binPlan(3072, 1024, 1024).blk(Dim::n), 192);
  noRegret.fineMBinsHi = 768;
  EXPECT_NE(binPlan(3072, 1024, 1024).blk(Dim::n), 192);
  EXPECT_EQ(binPlan(11008, 4096, 256).blk(Dim::n), 192);
}

// Gated GEMMs on K-major weights take n tiles sized to whole waves: S2's
// gate|up at M = 128 on 118 tiles of 48 (19.2 -> 14.8 us on an H200), S3's
// at M = 256 on 2 x 66 of 168 (81.5 us on 192-wide tiles, 73.6 on these);
// with wave-tiles=false, or row-major weights, the 64-multiple widths they
// ran on before.
TEST(SearchTest, WaveTiles) {
  // Unswapped: at M = 1024 the search swaps S3's
  // (SwappedGatedTileCountAndLastWave).
  auto chosen = [&](int64_t m, int64_t n, int64_t k, bool kMajor,
                    bool waveTiles) -> Plan {
    ChainDesc chain = chainOf(ChainKind::gatedGemm, m, n, k, 0);
    chain.kMajorWeights = kMajor;
    SearchOptions options;
    options.waveTiles = waveTiles;
    options.swapOperands = false;
    const Candidate *top = searchChain(chain, h100(), options).getChosen(true);
    if (!top) {
      ADD_FAILURE() << "no lowerable plan";
      return Plan();
    }
    return top->plan;
  };
  Plan s2 = chosen(128, 5632, 2048, true, true);
  EXPECT_EQ(s2.blk(Dim::n), 48);
  EXPECT_EQ(s2.grd(Dim::n), 118);
  EXPECT_TRUE(isLowerable(s2, [] {
    ChainDesc c = chainOf(ChainKind::gatedGemm, 128, 5632, 2048, 0);
    c.kMajorWeights = true;
    return c;
  }()));
  EXPECT_FALSE(
      isLowerable(s2, chainOf(ChainKind::gatedGemm, 128, 5632, 2048, 0)));
  EXPECT_EQ(chosen(128, 5632, 2048, true, false).blk(Dim::n), 64);
  EXPECT_EQ(chosen(128, 5632, 2048, false, true).blk(Dim::n), 64);
  // One-wave widths step by 8 columns: S3 at M = 256 on 2 x 66 tiles of
  // 168 (2 x 63 of 176 in 16-column steps), at M = 128 on 126 of 88 (115 of
  // 96; 1.02x faster as a chain on an H200).
  Plan s3 = chosen(256, 11008, 4096, true, true);
  EXPECT_EQ(s3.blk(Dim::n), 168);
  EXPECT_EQ(s3.grd(Dim::m) * s3.grd(Dim::n), 132);
  Plan s3m128 = chosen(128, 11008, 4096, true, true);
  EXPECT_EQ(s3m128.blk(Dim::n), 88);
  EXPECT_EQ(s3m128.grd(Dim::n), 126);
  EXPECT_EQ(chosen(256, 11008, 4096, false, true).blk(Dim::n), 192);
  // Two-wave widths keep 16-column steps: S7's 244 tiles of 40 ran its
  // chain 1.03x slower than 122 of 80, which the model prices as a tie.
  EXPECT_EQ(chosen(128, 9728, 2560, true, true).blk(Dim::n), 80);
  // At M = 1024 (8 m tiles) no wave width exists and 96 (7 waves) measured
  // slower than 128: passesWaveTileRule keeps widths off 64 to two waves.
  EXPECT_EQ(chosen(1024, 11008, 4096, true, true).blk(Dim::n) % 64, 0);
}

// A dynamic-M bin whose lower end has fewer m tiles than its upper end
// keeps widths of 64 multiples (wave widths and one-wave wide tiles leave
// SMs idle there): S8's gate|up bins 257-512 and 513-1024 ran 1.17-1.3x
// slower at their lower ends on 96- and 192-wide tiles (H200); now
// 769-1024. Bins of one m-tile count keep the wave widths (129-256: 2 x 64
// tiles of 48; the 64-row bins from 257 to 768, S8's chain 1.14x and 1.08x
// faster at M = 300 and 450 than on the old bin 257-512's 64-wide tiles,
// 705-768 on 144). The unswapped plans (SwappedMBins), in bins of a plain
// FFN (one 769-1024).
TEST(SearchTest, WaveTilesInMBins) {
  ChainDesc s8 = chainOf(ChainKind::gatedGemm, 0, 3072, 1024, 0);
  s8.kMajorWeights = true;
  SearchOptions halves;
  halves.binRegret = false;
  halves.swapOperands = false;
  halves.fineMBinsHi = 768;
  int64_t seen = 0;
  for (const BinnedPlan &bp : searchMBins(s8, h100(), halves)) {
    int64_t bn = bp.candidate.plan.blk(Dim::n);
    if (bp.bin.rep == 256 || bp.bin.rep == 384 || bp.bin.rep == 512 ||
        bp.bin.rep == 768) {
      EXPECT_NE(bn % 64, 0) << "bin upper end " << bp.bin.rep;
      ++seen;
    }
    if (bp.bin.rep == 1024) {
      EXPECT_EQ(bn % 64, 0) << "bin upper end " << bp.bin.rep;
      EXPECT_LE(bn, 128) << "bin upper end " << bp.bin.rep;
      ++seen;
    }
  }
  EXPECT_EQ(seen, 5);
}

// A plain GEMM on K-major weights takes 128-row tiles of the widths that
// fill one or two waves, 64 columns up (none for row-major weights or a
// two-GEMM chain): C4-b32's first GEMM on 13 x 10 tiles of 128 x 208, 1.03x
// faster in its chain than 13 x 8 of 128 x 256 on an H200.
TEST(SearchTest, PlainGemmWaveTiles) {
  const uint8_t mn = bit(Dim::m) | bit(Dim::n);
  auto gemm = [](bool kMajor) {
    ChainDesc c = chainOf(ChainKind::gemm, 1568, 2048, 512, 0);
    c.kMajorWeights = kMajor;
    return c;
  };
  auto tile = [&](int64_t blkN, int64_t stages) {
    return makePlan({1, 1, 1, 1}, {128, blkN, 64, 16},
                    {13, (2048 + blkN - 1) / blkN, 1, 1}, mn,
                    {Dim::m, Dim::n, Dim::k, Dim::l}, stages);
  };
  llvm::SmallVector<int64_t, 4> widths = getWaveWidths(gemm(true), 132, 13);
  EXPECT_TRUE(llvm::is_contained(widths, 208));
  for (int64_t w : widths)
    EXPECT_GE(w, 64);
  EXPECT_TRUE(getWaveWidths(gemm(false), 132, 13).empty());
  EXPECT_TRUE(
      getWaveWidths(chainOf(ChainKind::ffn, 1568, 2048, 512, 512), 132, 13)
          .empty());
  // At M = 128 one wave of one m tile would take 24 columns: none.
  EXPECT_TRUE(getWaveWidths(
                  [] {
                    ChainDesc c = chainOf(ChainKind::gemm, 128, 3072, 768, 0);
                    c.kMajorWeights = true;
                    return c;
                  }(),
                  132, 1)
                  .empty());
  EXPECT_TRUE(isLowerable(tile(208, 5), gemm(true)));
  EXPECT_FALSE(isLowerable(tile(208, 5), gemm(false)));
  EXPECT_FALSE(isLowerable(tile(192, 5), gemm(true)));
  EXPECT_TRUE(passesWaveTileRule(tile(208, 5), gemm(true), 132));
  // 96 is no wave width of this grid.
  EXPECT_FALSE(passesWaveTileRule(tile(96, 5), gemm(true), 132));
  // Among plans of 128-row m tiles (the transposed product, which the
  // model prices lower here, is SwappedOperands').
  SearchOptions unswapped;
  unswapped.swapOperands = false;
  const Candidate *c =
      searchChain(gemm(true), h100(), unswapped).getChosen(true);
  ASSERT_TRUE(c);
  EXPECT_EQ(c->plan.blk(Dim::n), 208);
  EXPECT_EQ(c->plan.grd(Dim::n), 10);
  EXPECT_EQ(searchChain(gemm(false), h100()).getChosen(true)->plan.blk(Dim::n),
            256);
}

// A dynamic-M bin keeps a plain GEMM's wave width, sized to its upper end,
// only where the model's mean time over the bin is no more than the plan's
// it would fall back to: S7's down GEMM takes 128 x 80 for 385-512 and
// 128 x 160 for 769-1024 (1.16x faster at M = 300 and 1.13-1.17x at
// 800-1024 on an H200 when the bins were 257-512 and 513-1024), but not
// for 1025-2048 (0.96-0.97x at 1100-1536). S1's took 128 x 96 for 513-1024
// and ran 1.12x slower at M = 600 (a thin second wave) than split over 2
// along k; for 769-1024 it takes 96 again (1.05x faster at M = 900).
// The unswapped plans (S7's 385-512 runs swapped: SwappedMBins).
TEST(SearchTest, PlainWaveTilesInMBins) {
  auto widthAt = [](int64_t n, int64_t k, int64_t rep) -> int64_t {
    ChainDesc down = chainOf(ChainKind::gemm, 0, n, k, 0);
    down.kMajorWeights = true;
    SearchOptions halves;
    halves.binRegret = false;
    halves.swapOperands = false;
    for (const BinnedPlan &bp : searchMBins(down, h100(), halves))
      if (bp.bin.rep == rep)
        return bp.candidate.plan.blk(Dim::n);
    return -1;
  };
  EXPECT_EQ(widthAt(2560, 9728, 512), 80);
  EXPECT_EQ(widthAt(2560, 9728, 1024), 160);
  EXPECT_EQ(widthAt(2560, 9728, 2048) % 64, 0);
  EXPECT_EQ(widthAt(3072, 8192, 512), 96);
  EXPECT_EQ(widthAt(3072, 8192, 1024), 96);
}

// A single GEMM's 128 x 64 tiles split over 2 along k take rings of up to
// 8 stages, for one m tile and slices of at least 4096 k only (where they
// were measured); the search picks them at 8 stages for G5's down GEMM,
// not the same tiles over 4 (256 CTAs: two waves).
TEST(SearchTest, SplitK128x64) {
  const uint8_t mnk = bit(Dim::m) | bit(Dim::n) | bit(Dim::k);
  auto split = [&](int64_t c, int64_t blkN, int64_t k, int64_t gridM,
                   int64_t stages) {
    return makePlan({1, 1, c, 1}, {128, blkN, k / c, 16},
                    {gridM, 4096 / blkN, 1, 1}, mnk,
                    {Dim::m, Dim::n, Dim::k, Dim::l}, stages);
  };
  ChainDesc down = chainOf(ChainKind::gemm, 128, 4096, 16384, 0);
  EXPECT_TRUE(isLowerable(split(2, 64, 16384, 1, 8), down));
  EXPECT_FALSE(isLowerable(split(2, 64, 16384, 1, 9), down));
  // Other split-K tiles keep rings of at most 4 stages, but 128 x 128 ones
  // on one m tile (DeepSplitKRings).
  EXPECT_TRUE(isLowerable(split(4, 128, 16384, 1, 4), down));
  EXPECT_TRUE(isLowerable(split(4, 128, 16384, 1, 8), down));
  EXPECT_FALSE(isLowerable(split(4, 256, 16384, 1, 5), down));
  EXPECT_TRUE(isLowerable(split(4, 64, 16384, 1, 8), down));
  // Slices of 2048 k, and two m tiles, were not measured.
  EXPECT_FALSE(isLowerable(split(2, 64, 4096, 1, 8),
                           chainOf(ChainKind::gemm, 128, 4096, 4096, 0)));
  EXPECT_FALSE(isLowerable(split(2, 64, 16384, 2, 8),
                           chainOf(ChainKind::gemm, 256, 4096, 16384, 0)));

  const Candidate *c = searchChain(down, h100()).getChosen(true);
  ASSERT_TRUE(c);
  EXPECT_EQ(c->plan.cluster, (std::array<int64_t, 4>{1, 1, 2, 1}));
  EXPECT_EQ(c->plan.blk(Dim::m), 128);
  EXPECT_EQ(c->plan.blk(Dim::n), 64);
  EXPECT_EQ(c->plan.stages, 8);
}

// 128 x 64 tiles split over 4 along k on 8-stage rings: S8's down GEMM at
// M = 128 (768-k slices, 64 CTAs) takes them where it took 128 x 128 over
// 8 (its chain 1.07x faster on an H200); not for M <= 64 (S6's down GEMM
// lost 1.5 % to 64-row tiles) nor slices an 8-stage ring holds whole
// (G9's 512: 5 % slower).
TEST(SearchTest, SplitK128x64Over4) {
  const uint8_t mnk = bit(Dim::m) | bit(Dim::n) | bit(Dim::k);
  auto over4 = [&](int64_t k) {
    return makePlan({1, 1, 4, 1}, {128, 64, k / 4, 16}, {1, 16, 1, 1}, mnk,
                    {Dim::m, Dim::n, Dim::k, Dim::l}, 8);
  };
  ChainDesc s8 = chainOf(ChainKind::gemm, 128, 1024, 3072, 0);
  EXPECT_TRUE(isLowerable(over4(3072), s8));
  EXPECT_FALSE(
      isLowerable(over4(3072), chainOf(ChainKind::gemm, 64, 1024, 3072, 0)));
  EXPECT_FALSE(
      isLowerable(over4(2048), chainOf(ChainKind::gemm, 128, 1024, 2048, 0)));
  const Candidate *c = searchChain(s8, h100()).getChosen(true);
  ASSERT_TRUE(c);
  EXPECT_EQ(c->plan.cluster, (std::array<int64_t, 4>{1, 1, 4, 1}));
  EXPECT_EQ(c->plan.blk(Dim::m), 128);
  EXPECT_EQ(c->plan.blk(Dim::n), 64);
  EXPECT_EQ(c->plan.stages, 8);
}

// 128 x 128 tiles split along k take rings of up to 8 stages where 65-128
// rows fill the one m tile (a weight stream): S2's down GEMM at M = 128 on
// 6 stages (its chain 1.03x faster on an H200); at M <= 64 and past one m
// tile the fitted families' 4 stages stay.
TEST(SearchTest, DeepSplitKRings) {
  const uint8_t mnk = bit(Dim::m) | bit(Dim::n) | bit(Dim::k);
  auto over4 = [&](int64_t m, int64_t stages) {
    return makePlan({1, 1, 4, 1}, {128, 128, 1408, 16},
                    {(m + 127) / 128, 16, 1, 1}, mnk,
                    {Dim::m, Dim::n, Dim::k, Dim::l}, stages);
  };
  auto down = [](int64_t m) {
    return chainOf(ChainKind::gemm, m, 2048, 5632, 0);
  };
  EXPECT_TRUE(isLowerable(over4(128, 6), down(128)));
  EXPECT_TRUE(isLowerable(over4(100, 8), down(100)));
  EXPECT_FALSE(isLowerable(over4(128, 9), down(128)));
  EXPECT_FALSE(isLowerable(over4(64, 5), down(64)));
  EXPECT_TRUE(isLowerable(over4(64, 4), down(64)));
  EXPECT_FALSE(isLowerable(over4(256, 5), down(256)));
  // Not for the 64-row or 256-wide split tiles.
  EXPECT_FALSE(
      isLowerable(makePlan({1, 1, 4, 1}, {64, 256, 1408, 16}, {2, 8, 1, 1}, mnk,
                           {Dim::m, Dim::n, Dim::k, Dim::l}, 5),
                  down(128)));
  const Candidate *c = searchChain(down(128), h100()).getChosen(true);
  ASSERT_TRUE(c);
  EXPECT_EQ(c->plan.cluster, (std::array<int64_t, 4>{1, 1, 4, 1}));
  EXPECT_EQ(c->plan.blk(Dim::m), 128);
  EXPECT_EQ(c->plan.blk(Dim::n), 128);
  EXPECT_EQ(c->plan.stages, 6);
}

// 256-wide tiles split over 8 along k never measured fastest (50 plans on
// H100s and H200s); 128-wide ones over 8 stay (S6's down GEMM). S5's down
// GEMM at M = 128 took 128 x 256 over 8 and now takes 128 x 128 over 4
// (its chain 1.026x faster on an H200).
TEST(SearchTest, SplitKOver8Tiles) {
  const uint8_t mnk = bit(Dim::m) | bit(Dim::n) | bit(Dim::k);
  ChainDesc down = chainOf(ChainKind::gemm, 128, 2048, 11008, 0);
  auto split = [&](int64_t c, int64_t blkM, int64_t blkN) {
    return makePlan({1, 1, c, 1}, {blkM, blkN, 11008 / c, 16},
                    {128 / blkM, 2048 / blkN, 1, 1}, mnk,
                    {Dim::m, Dim::n, Dim::k, Dim::l}, 4);
  };
  EXPECT_FALSE(isLowerable(split(8, 128, 256), down));
  EXPECT_FALSE(isLowerable(split(8, 64, 256), down));
  EXPECT_TRUE(isLowerable(split(8, 128, 128), down));
  EXPECT_TRUE(isLowerable(split(4, 128, 256), down));
  const Candidate *c = searchChain(down, h100()).getChosen(true);
  ASSERT_TRUE(c);
  EXPECT_EQ(c->plan.cluster, (std::array<int64_t, 4>{1, 1, 4, 1}));
  EXPECT_EQ(c->plan.blk(Dim::n), 128);
}

/// The search's chosen lowerable plan for a one-GEMM (or gated) chain of
/// K-major weights on the H100 target (a default plan, and a failure, if
/// none).
static Plan chosenKMajorPlan(ChainKind kind, int64_t m, int64_t n, int64_t k) {
  ChainDesc chain = chainOf(kind, m, n, k, 0);
  chain.kMajorWeights = true;
  const Candidate *c = searchChain(chain, h100()).getChosen(true);
  EXPECT_TRUE(c);
  return c ? c->plan : Plan();
}

// A gated pair's 128 x 192 tiles (one CTA per cluster, the last n tile
// partial): S3's gate|up GEMM at M = 256 is 2 x 58 of them, one wave on
// 132 SMs where 128 x 64 tiles take 2.6 (measured 1.23x faster on an H200,
// docs/validation.md); the search takes them there and not at M = 1024
// (passesWideGatedRule: 464 CTAs). Single GEMMs keep 64, 128, 256.
TEST(SearchTest, WideGatedTiles) {
  const uint8_t mn = bit(Dim::m) | bit(Dim::n);
  auto plan = [&](int64_t blkM, int64_t blkN, int64_t m, int64_t n,
                  int64_t stages) {
    return makePlan({1, 1, 1, 1}, {blkM, blkN, 64, 16},
                    {(m + blkM - 1) / blkM, (n + blkN - 1) / blkN, 1, 1}, mn,
                    {Dim::m, Dim::n, Dim::k, Dim::l}, stages);
  };
  ChainDesc s3 = chainOf(ChainKind::gatedGemm, 256, 11008, 4096, 0);
  EXPECT_TRUE(isLowerable(plan(128, 192, 256, 11008, 3), s3));
  // 64-row 192-wide tiles (240 registers) were not measured; nor single
  // GEMMs at 192, whose model picks ran 1.05-1.08x slower.
  EXPECT_FALSE(isLowerable(plan(64, 192, 256, 11008, 3), s3));
  EXPECT_FALSE(isLowerable(plan(128, 192, 256, 4096, 3),
                           chainOf(ChainKind::gemm, 256, 4096, 4096, 0)));
  // A partial last tile of 128 or 64 columns (N = 11072: not a multiple of
  // 64 with 128).
  EXPECT_TRUE(isLowerable(plan(128, 128, 256, 11008 + 64, 4),
                          chainOf(ChainKind::gatedGemm, 256, 11072, 4096, 0)));
  EXPECT_FALSE(isLowerable(plan(128, 128, 256, 11008 + 32, 4),
                           chainOf(ChainKind::gatedGemm, 256, 11040, 4096, 0)));

  EXPECT_TRUE(passesWideGatedRule(plan(128, 192, 256, 11008, 3), s3, 132));
  EXPECT_FALSE(passesWideGatedRule(
      plan(128, 192, 1024, 11008, 3),
      chainOf(ChainKind::gatedGemm, 1024, 11008, 4096, 0), 132));
  EXPECT_TRUE(passesWideGatedRule(
      plan(128, 128, 1024, 11008, 4),
      chainOf(ChainKind::gatedGemm, 1024, 11008, 4096, 0), 132));
  // Past one wave, up to two, on rings of four stages: S6's gated GEMM at
  // M = 440 on 4 x 63 tiles of 128 x 144 ran 1.27x faster than on 4 x 70
  // of 128 x 128 and 128 x 192 (3 stages) 0.97x (H200, fifty-ninth
  // session); the search now takes 144 there.
  ChainDesc s6 = chainOf(ChainKind::gatedGemm, 440, 8960, 1536, 0);
  EXPECT_TRUE(passesWideGatedRule(plan(128, 144, 440, 8960, 4), s6, 132));
  EXPECT_TRUE(passesWideGatedRule(plan(128, 160, 440, 8960, 4), s6, 132));
  EXPECT_FALSE(passesWideGatedRule(plan(128, 144, 440, 8960, 3), s6, 132));
  EXPECT_FALSE(passesWideGatedRule(plan(128, 192, 440, 8960, 3), s6, 132));
  EXPECT_FALSE(passesWideGatedRule(
      plan(128, 144, 1024, 11008, 4),
      chainOf(ChainKind::gatedGemm, 1024, 11008, 4096, 0), 132));
  const Plan s6Pick = chosenKMajorPlan(ChainKind::gatedGemm, 440, 8960, 1536);
  EXPECT_FALSE(s6Pick.swapAb);
  EXPECT_EQ(s6Pick.blk(Dim::m), 128);
  EXPECT_EQ(s6Pick.blk(Dim::n), 144);
  EXPECT_EQ(s6Pick.grd(Dim::m) * s6Pick.grd(Dim::n), 4 * 63);
  EXPECT_GE(s6Pick.stages, 4);

  const Candidate *c = searchChain(s3, h100()).getChosen(true);
  ASSERT_TRUE(c);
  EXPECT_EQ(c->plan.blk(Dim::m), 128);
  EXPECT_EQ(c->plan.blk(Dim::n), 192);
  EXPECT_EQ(c->plan.grd(Dim::n), 58);
  const Candidate *d =
      searchChain(chainOf(ChainKind::gatedGemm, 1024, 11008, 4096, 0), h100())
          .getChosen(true);
  ASSERT_TRUE(d);
  EXPECT_NE(d->plan.blk(Dim::n), 192);
}

// A short-M GEMM leaves most SMs idle with one CTA per 128 x 256 tile (16
// for N = 4096): at M = 64 the search splits K over a cluster; at M = 128
// it takes 64 x 64 tiles over all of K on 128 CTAs (both the fastest
// measured plans there, docs/validation.md); a square one does neither.
TEST(SearchTest, ShortGemmSplitsK) {
  SearchResult r =
      searchChain(chainOf(ChainKind::gemm, 64, 4096, 4096, 0), h100());
  const Candidate *c = r.getChosen(true);
  ASSERT_TRUE(c);
  EXPECT_TRUE(c->lowerable);
  EXPECT_GT(c->plan.cls(Dim::k), 1);
  EXPECT_TRUE(c->plan.isSpatial(Dim::k));
  EXPECT_EQ(
      c->plan.getCollectives(chainOf(ChainKind::gemm, 64, 4096, 4096, 0))[0],
      Collective::allExchange);

  SearchResult m128 =
      searchChain(chainOf(ChainKind::gemm, 128, 4096, 4096, 0), h100());
  const Candidate *w = m128.getChosen(true);
  ASSERT_TRUE(w);
  EXPECT_EQ(w->plan.getClusterSize(), 1);
  EXPECT_EQ(w->plan.blk(Dim::m), 64);
  EXPECT_EQ(w->plan.blk(Dim::n), 64);
  EXPECT_EQ(w->plan.stages, 8);

  SearchResult sq =
      searchChain(chainOf(ChainKind::gemm, 4096, 4096, 4096, 0), h100());
  ASSERT_TRUE(sq.getChosen(true));
  EXPECT_EQ(sq.getChosen(true)->plan.cls(Dim::k), 1);
}

// perf-anchors T3: narrow chains need no cluster. With L = 64 the search
// picks a streamed-n plan whose n tiles one CTA walks (E in registers), at
// M = 4096 and 16384 alike; with L = 256 (accumulators over 256 columns)
// too, as 64-row tiles whose two consumer warpgroups split the columns. A
// gated chain never streams.
TEST(SearchTest, NarrowChainsStreamN) {
  // At M = 4096 the 64 m tiles leave half the SMs idle: the n loop is split
  // over pairs of CTAs. At M = 16384 every SM has m tiles of its own.
  for (int64_t m : {4096, 16384}) {
    SearchResult r =
        searchChain(chainOf(ChainKind::ffn, m, 2048, 64, 64), h100());
    const Candidate *c = r.getChosen(true);
    ASSERT_TRUE(c);
    EXPECT_TRUE(c->lowerable);
    EXPECT_EQ(getKernelFamily(c->plan), KernelFamily::streamed);
    EXPECT_EQ(c->plan.cluster,
              (std::array<int64_t, 4>{1, m == 4096 ? 2 : 1, 1, 1}));
    EXPECT_EQ(c->plan.blk(Dim::l), 64);
    EXPECT_EQ(c->plan.grd(Dim::n), 1);
  }
  SearchResult wide =
      searchChain(chainOf(ChainKind::ffn, 16384, 2048, 256, 256), h100());
  const Candidate *w = wide.getChosen(true);
  ASSERT_TRUE(w);
  EXPECT_TRUE(w->lowerable);
  EXPECT_EQ(getKernelFamily(w->plan), KernelFamily::streamed);
  EXPECT_TRUE(splitsStreamedColumns(w->plan.blk(Dim::m), w->plan.blk(Dim::n),
                                    w->plan.blk(Dim::l)));
  EXPECT_EQ(w->flow.consumerWarpgroups, 2);
  SearchResult gated =
      searchChain(chainOf(ChainKind::gatedFfn, 4096, 2048, 64, 64), h100());
  ASSERT_TRUE(gated.getChosen(true));
  EXPECT_NE(getKernelFamily(gated.getChosen(true)->plan),
            KernelFamily::streamed);
}

// N = 256: 128 x 256 tiles would leave 100 of 132 SMs idle; the search
// fills the machine with narrower tiles, at most split along k. (Since the
// L2 term, 128 x 128 over 2 along k; on an H100 the split 64 x 256 plan
// measured 19.4 us, 64 x 128 over all of K 20.8: gemm-sweep-h100-s27.csv.)
TEST(SearchTest, OneGemm) {
  ChainDesc mm = chainOf(ChainKind::gemm, 4096, 256, 4096, 0);
  SearchResult r = searchChain(mm, h100());
  const Candidate *c = r.getChosen(true);
  ASSERT_TRUE(c);
  EXPECT_TRUE(c->lowerable);
  EXPECT_TRUE(c->flow.residency.empty());
  EXPECT_EQ(c->plan.getClusterSize(), c->plan.cls(Dim::k));
  EXPECT_LE(c->plan.cls(Dim::k), 2);
  EXPECT_GE(c->flow.numCtas, 128);
  EXPECT_EQ(c->plan.cls(Dim::n) * c->plan.grd(Dim::n) * c->plan.blk(Dim::n),
            256);
}

// A single GEMM of static M on K-major weights is also searched as its
// transposed product (Plan::swapAb). G5's up GEMM at M = 300 (128-row m
// tiles pad to 384 rows) takes it: the weight's 16384 rows in 256-row
// tiles (two accumulators per consumer warpgroup, one wave of 128 CTAs),
// the 300 rows on its n side in two tiles of 152 (H200: 1.08x its chain on
// 128-row tiles, 1.04x more on 256). G8's (8192 weight rows) keeps 128-row
// tiles: 256 would leave half the SMs idle (0.81x). Not at M = 512 or
// 1500 (no padding, 2 %), not for row-major
// weights, not without the option, not in its dynamic M's bins (each
// swapped plan estimated slower than the bin's somewhere in it:
// SwappedMBins), never on tiles of fewer than 128 rows.
TEST(SearchTest, SwappedOperands) {
  ChainDesc up = chainOf(ChainKind::gemm, 300, 16384, 4096, 0);
  up.kMajorWeights = true;
  const Candidate *c = searchChain(up, h100()).getChosen(true);
  ASSERT_TRUE(c);
  EXPECT_TRUE(c->plan.swapAb);
  EXPECT_EQ(c->plan.blk(Dim::m), 256);
  EXPECT_EQ(c->plan.grd(Dim::m), 64);
  // The width fitted to M: two tiles of 152 rows (304).
  EXPECT_EQ(c->plan.blk(Dim::n), 152);
  EXPECT_EQ(c->plan.grd(Dim::n), 2);
  EXPECT_EQ(c->plan.cluster, (std::array<int64_t, 4>{1, 1, 1, 1}));
  ChainDesc g8 = up;
  g8.n = 8192;
  g8.k = 2048;
  const Candidate *g8c = searchChain(g8, h100()).getChosen(true);
  ASSERT_TRUE(g8c);
  EXPECT_TRUE(g8c->plan.swapAb);
  EXPECT_EQ(g8c->plan.blk(Dim::m), 128);
  SearchOptions off;
  off.swapOperands = false;
  EXPECT_FALSE(searchChain(up, h100(), off).getChosen(true)->plan.swapAb);
  ChainDesc rowMajor = up;
  rowMajor.kMajorWeights = false;
  for (const Candidate &r : searchChain(rowMajor, h100()).rankedLowerable)
    EXPECT_FALSE(r.plan.swapAb);
  // Only where 128-row tiles pad M by a tenth: not at 512 or 1500.
  for (int64_t m : {512, 1500}) {
    ChainDesc at = up;
    at.m = m;
    for (const Candidate &r : searchChain(at, h100()).rankedLowerable)
      EXPECT_FALSE(r.plan.swapAb) << m;
  }
  ChainDesc dynamic = up;
  dynamic.m = 0;
  // Its dynamic M's 64-row bins whose upper end the 128-row tiles pad (257-320,
  // 385-448, 513-576) run swapped, on token widths fitted there, and so do
  // 577-640 and 641-704, where swapped plans are weighed though 128-row tiles
  // pad M by less than a tenth (SearchOptions::swapAtAnyM). At the swapped
  // products' own wgmma rate also 321-384 and 705-768, on 192 tokens (G5's
  // chain at 350 and 740 1.03x and 1.07x faster on an H200). The 32-row
  // bins 129-160, 161-192 and 193-224 run one tile of tokens as wide as
  // the bin's upper end (G5 at 150-210 1.11-1.20x faster on an H200); at
  // 225-256 two 128-row tiles pad nothing.
  for (const BinnedPlan &bp : searchMBins(dynamic, h100())) {
    bool oneTokenTile = bp.bin.lo >= 129 && bp.bin.lo <= 193;
    bool swapped = oneTokenTile || bp.bin.lo == 257 || bp.bin.lo == 321 ||
                   bp.bin.lo == 385 || bp.bin.lo == 513 || bp.bin.lo == 577 ||
                   bp.bin.lo == 641 || bp.bin.lo == 705;
    EXPECT_EQ(bp.candidate.plan.swapAb, swapped) << bp.bin.lo;
    if (bp.bin.lo == 321 || bp.bin.lo == 705) {
      EXPECT_EQ(bp.candidate.plan.blk(Dim::n), 192) << bp.bin.lo;
    }
    if (oneTokenTile) {
      EXPECT_EQ(bp.candidate.plan.blk(Dim::n), bp.bin.hi) << bp.bin.lo;
      EXPECT_EQ(bp.candidate.plan.grd(Dim::n), 1) << bp.bin.lo;
    }
  }
  // Static M keeps the tenth: at M = 600 (40 rows of padding) no swapped
  // plan is ranked unless asked.
  ChainDesc at600 = up;
  at600.m = 600;
  for (const Candidate &r : searchChain(at600, h100()).rankedLowerable)
    EXPECT_FALSE(r.plan.swapAb);
  SearchOptions anyM;
  anyM.swapAtAnyM = true;
  EXPECT_TRUE(llvm::any_of(searchChain(at600, h100(), anyM).rankedLowerable,
                           [](const Candidate &r) { return r.plan.swapAb; }));
  // Swapped tiles take at least 128 of the M rows: G5's down GEMM at
  // M = 300, which the model priced lower on 80-row swapped tiles (H200:
  // its chain 0.95x), takes 160-row ones split over 2 along k instead (one
  // wave of 128 CTAs; its chain 1.12x). G8's (2048 weight rows: 64 CTAs)
  // is not swapped.
  ChainDesc down = chainOf(ChainKind::gemm, 300, 4096, 16384, 0);
  down.kMajorWeights = true;
  SearchResult r = searchChain(down, h100());
  const Plan &split = r.getChosen(true)->plan;
  EXPECT_TRUE(split.swapAb);
  EXPECT_EQ(split.cls(Dim::k), 2);
  EXPECT_EQ(split.blk(Dim::m), 128);
  EXPECT_EQ(split.blk(Dim::n), 160);
  EXPECT_EQ(split.grd(Dim::m) * split.grd(Dim::n) * 2, 128);
  for (const Candidate &cand : r.rankedLowerable) {
    if (cand.plan.swapAb) {
      EXPECT_GE(cand.plan.blk(Dim::n), 128);
    }
  }
  ChainDesc g8Down = chainOf(ChainKind::gemm, 300, 2048, 8192, 0);
  g8Down.kMajorWeights = true;
  EXPECT_FALSE(searchChain(g8Down, h100()).getChosen(true)->plan.swapAb);
  // Nor with slices of fewer than 2048 k: G6's up GEMM at M = 300 (K =
  // 1024) split so ran its chain 0.78x.
  ChainDesc g6Up = chainOf(ChainKind::gemm, 300, 4096, 1024, 0);
  g6Up.kMajorWeights = true;
  const Plan &g6 = searchChain(g6Up, h100()).getChosen(true)->plan;
  EXPECT_FALSE(g6.swapAb && g6.cls(Dim::k) > 1);
}

} // namespace

// A gated GEMM of static M is also searched swapped: gate's and up's
// 128-row weight tiles against one fitted token tile, where the tiles fill
// their waves to 90 % (passesWaveTileRule). On an H200: S7's gate|up GEMM
// at M = 800 on 76 x 5 tiles of 160 tokens (2.9 waves) ran its chain 1.17x
// faster, S2's on 44 x 6 of 136 (2.0 waves) 1.19x, S1's at M = 300 on
// 64 x 2 of 152 (one wave of 128 CTAs) 1.12x; S7 at 300 (76 x 2 tiles,
// 58 % of two waves) 0.90x does not take 152 (it takes 104 tokens:
// SwappedGatedTileCountAndLastWave).
TEST(SearchTest, SwappedGatedPairs) {
  auto chosen = [](int64_t m, int64_t n, int64_t k) {
    return chosenKMajorPlan(ChainKind::gatedGemm, m, n, k);
  };
  const Plan s7 = chosen(800, 9728, 2560);
  EXPECT_TRUE(s7.swapAb);
  EXPECT_EQ(s7.blk(Dim::m), 128);
  EXPECT_EQ(s7.blk(Dim::n), 160);
  EXPECT_EQ(s7.grd(Dim::m) * s7.grd(Dim::n), 76 * 5);
  EXPECT_EQ(s7.cluster, (std::array<int64_t, 4>{1, 1, 1, 1}));
  const Plan s2 = chosen(800, 5632, 2048);
  EXPECT_TRUE(s2.swapAb);
  EXPECT_EQ(s2.blk(Dim::n), 136);
  const Plan s1 = chosen(300, 8192, 3072);
  EXPECT_TRUE(s1.swapAb);
  EXPECT_EQ(s1.blk(Dim::n), 152);
  EXPECT_NE(chosen(300, 9728, 2560).blk(Dim::n), 152);
  // The rule itself: 76 x 5 tiles fill 96 % of three waves, 76 x 6 of 136
  // tokens 86 % of four; an unfitted width never passes.
  ChainDesc product = swappedProductOf(ChainKind::gatedGemm, 9728, 800, 2560);
  const uint8_t mn = bit(Dim::m) | bit(Dim::n);
  auto tiles = [&](int64_t w, int64_t gn) {
    return makePlan({1, 1, 1, 1}, {128, w, 64, 16}, {76, gn, 1, 1}, mn,
                    {Dim::m, Dim::n, Dim::k, Dim::l}, 4);
  };
  EXPECT_TRUE(passesWaveTileRule(tiles(160, 5), product, 132));
  EXPECT_FALSE(passesWaveTileRule(tiles(136, 6), product, 132));
  EXPECT_FALSE(passesWaveTileRule(tiles(168, 5), product, 132));
  // Gate's and up's accumulators: 128 weight rows, at most 184 tokens.
  EXPECT_TRUE(isLowerable(tiles(160, 5), product));
  EXPECT_FALSE(isLowerable(tiles(192, 5), product));
  EXPECT_FALSE(
      isLowerable(makePlan({1, 1, 1, 1}, {160, 256, 64, 16}, {5, 38, 1, 1}, mn,
                           {Dim::m, Dim::n, Dim::k, Dim::l}, 4),
                  product));
}

// A dynamic M's bin runs swapped where the swapped plans searchChain ranks
// first at the bin's lower end, middle and upper end (each token width
// fitted there, not a multiple of 128) have a mean estimate over the bin
// below the unswapped choice's and none above it at any of the five M
// (getBinSwappedPlan), on the grid of the upper end (the runtime scales it
// by M). S7's down GEMM (the sequence's half: no regret rule) takes two
// token tiles of 112 rows split over 2 along k for 193-224 (80 CTAs:
// passesWaveTileRule), three of 160 rows for 385-448, 176 for
// 449-512, 192 for 513-576, 224 for 577-640 and 240 for 641-704 (the
// swapped plans of the bins whose 128-row tiles pad M by less than a tenth
// are weighed too: SearchOptions::swapAtAnyM). G5's down GEMM for 577-640
// takes cuBLAS's tiling at M = 600, four token tiles against 128 weight
// rows, estimated within 1 % of the unswapped 128 x 160 tiles (its chain
// 1.02x faster at M = 600 on an H200, S7's 1.04x: the 5 % margin the rule
// asked before kept both unswapped).
// S8's gate|up GEMM keeps its unswapped wave widths in every 64-row bin but
// 769-832 (168 tokens: its chain 1.05x faster at M = 800; on the old
// 513-768 it ran swapped 1.06-1.30x faster, its 64-row bins faster still:
// docs/validation.md, fifty-third and fifty-fifth sessions).
TEST(SearchTest, SwappedMBins) {
  ChainDesc s7Down = chainOf(ChainKind::gemm, 0, 2560, 9728, 0);
  s7Down.kMajorWeights = true;
  SearchOptions halves;
  halves.binRegret = false;
  int64_t swapped = 0;
  for (const BinnedPlan &bp : searchMBins(s7Down, h100(), halves)) {
    const Candidate &c = bp.candidate;
    const llvm::DenseMap<int64_t, int64_t> widths = {
        {193, 112}, {385, 160}, {449, 176}, {513, 192}, {577, 224}, {641, 240}};
    EXPECT_EQ(c.plan.swapAb, widths.count(bp.bin.lo) != 0) << bp.bin.lo;
    if (!c.plan.swapAb)
      continue;
    ++swapped;
    EXPECT_TRUE(c.lowerable);
    EXPECT_EQ(c.plan.blk(Dim::m), 128);
    EXPECT_EQ(c.plan.cls(Dim::k), 2);
    EXPECT_EQ(c.plan.blk(Dim::n), widths.lookup(bp.bin.lo));
    EXPECT_EQ(c.plan.grd(Dim::n), bp.bin.lo == 193 ? 2 : 3);
    EXPECT_GT(c.cost.kernelNs, 0);
  }
  EXPECT_EQ(swapped, 6);
  ChainDesc g5Down = chainOf(ChainKind::gemm, 0, 4096, 16384, 0);
  g5Down.kMajorWeights = true;
  int64_t seen = 0;
  for (const BinnedPlan &bp : searchMBins(g5Down, h100(), halves)) {
    if (bp.bin.lo != 577)
      continue;
    ++seen;
    const Plan &p = bp.candidate.plan;
    EXPECT_TRUE(p.swapAb);
    EXPECT_EQ(p.cluster, (std::array<int64_t, 4>{1, 1, 1, 1}));
    EXPECT_EQ(p.blk(Dim::m), 128);
    EXPECT_EQ(p.grd(Dim::m), 32);
    EXPECT_EQ(p.blk(Dim::n), 160);
    EXPECT_EQ(p.grd(Dim::n), 4);
  }
  EXPECT_EQ(seen, 1);
  // S8's gate|up GEMM: 769-832 on 168 tokens, and at the swapped products'
  // own wgmma rate 513-576, 641-768 and 833-896 too (its chain at 540 and
  // 680 1.04x and 1.05x faster on an H200, even at 740 and 870).
  ChainDesc s8 = chainOf(ChainKind::gatedGemm, 0, 3072, 1024, 0);
  s8.kMajorWeights = true;
  const llvm::DenseMap<int64_t, int64_t> s8Widths = {
      {513, 120}, {641, 144}, {705, 160}, {769, 168}, {833, 184}};
  for (const BinnedPlan &bp : searchMBins(s8, h100(), halves)) {
    EXPECT_EQ(bp.candidate.plan.swapAb, s8Widths.count(bp.bin.lo) != 0)
        << bp.bin.lo;
    if (bp.candidate.plan.swapAb) {
      EXPECT_EQ(bp.candidate.plan.blk(Dim::n), s8Widths.lookup(bp.bin.lo));
    }
  }
  halves.swapOperands = false;
  for (const BinnedPlan &bp : searchMBins(s7Down, h100(), halves))
    EXPECT_FALSE(bp.candidate.plan.swapAb);
}

// A bin whose swapped plan adds exactly one token tile inside it is split at
// that tile's edge, each part searched as a bin of its own: S7's gated GEMM
// (the sequence's half) on 184 tokens for 897-920 (five tiles) and on 120
// past 920, where 184 takes a sixth tile (ran 1.09x slower at M = 930 and
// 955, 1.05x faster at 905 on an H200: docs/validation.md, fifty-seventh
// session). Its 104-token bin 385-448 split at 416 until two waves of
// 128 x 160 tiles took 385-512 (1.05-1.10x faster at M = 400-512,
// fifty-ninth session): no swapped width, no split. No bounded bin of the
// tables below keeps a swapped width with one tile more at its upper end
// than at its lower; the bins stay sorted and contiguous.
TEST(SearchTest, SwappedBinSplitsAtTokenTileEdge) {
  SearchOptions halves;
  halves.binRegret = false;
  ChainDesc s7 = chainOf(ChainKind::gatedGemm, 0, 9728, 2560, 0);
  s7.kMajorWeights = true;
  std::vector<BinnedPlan> table = searchMBins(s7, h100(), halves);
  auto at = [&](int64_t lo) -> const BinnedPlan * {
    for (const BinnedPlan &bp : table)
      if (bp.bin.lo == lo)
        return &bp;
    return nullptr;
  };
  const BinnedPlan *mid = at(385);
  ASSERT_NE(mid, nullptr);
  EXPECT_EQ(mid->bin.hi, 448);
  EXPECT_FALSE(mid->candidate.plan.swapAb);
  EXPECT_EQ(mid->candidate.plan.blk(Dim::n), 160);
  for (auto [lo, hi, width] :
       {std::tuple<int64_t, int64_t, int64_t>{897, 920, 184},
        {921, 960, 120}}) {
    const BinnedPlan *bp = at(lo);
    ASSERT_NE(bp, nullptr) << lo;
    EXPECT_EQ(bp->bin.hi, hi);
    EXPECT_EQ(bp->bin.rep, hi);
    EXPECT_TRUE(bp->candidate.plan.swapAb);
    EXPECT_EQ(bp->candidate.plan.blk(Dim::n), width) << lo;
  }
  for (const ChainDesc &chain :
       {s7, chainOf(ChainKind::gatedGemm, 0, 11008, 4096, 0),
        chainOf(ChainKind::gemm, 0, 768, 3072, 0)}) {
    ChainDesc c = chain;
    c.kMajorWeights = true;
    int64_t next = 1;
    for (const BinnedPlan &bp : searchMBins(c, h100(), halves)) {
      EXPECT_EQ(bp.bin.lo, next);
      next = bp.bin.hi + 1;
      const Plan &p = bp.candidate.plan;
      if (!p.swapAb || bp.bin.hi != bp.bin.rep)
        continue;
      const int64_t w = p.blk(Dim::n) * p.cls(Dim::n);
      EXPECT_NE(llvm::divideCeil(bp.bin.rep, w),
                llvm::divideCeil(bp.bin.lo, w) + 1)
          << c.n << " at " << bp.bin.lo << "-" << bp.bin.hi;
    }
  }
}

// A swapped gated pair also takes the token width of as many tiles as 128
// rows take, where it is narrower than 128 (M = 300: 3 x 104, M = 800:
// 7 x 120), when those fill their waves to 75 %: S2, S3 and S5 at M = 300
// ran 1.015-1.047x faster so, S7 (76 x 3, 86 %) 1.033x, S6 at 800 1.04x;
// S8 at 300 (24 x 3, 55 %) 0.971x and stays unswapped. At M of little
// padding a gated GEMM is searched swapped
// where 128 x 128 tiles fill their last wave below 90 %: S8 at 1500 (288
// tiles over 3 x 132) on 24 x 11 of 144 tokens ran 1.16x faster, S3 at 512
// on 86 x 3 of 176 1.05x; S1 at 1500 (768 tiles, 97 %) is not (H200,
// fifty-second session).
TEST(SearchTest, SwappedGatedTileCountAndLastWave) {
  auto chosen = [](int64_t m, int64_t n, int64_t k) {
    return chosenKMajorPlan(ChainKind::gatedGemm, m, n, k);
  };
  for (auto [n, k] : {std::pair<int64_t, int64_t>{5632, 2048},
                      {11008, 4096},
                      {11008, 2048}}) {
    const Plan p = chosen(300, n, k);
    EXPECT_TRUE(p.swapAb) << n;
    EXPECT_EQ(p.blk(Dim::m), 128) << n;
    EXPECT_EQ(p.blk(Dim::n), 104) << n;
    EXPECT_EQ(p.grd(Dim::n), 3) << n;
  }
  const Plan s6 = chosen(800, 8960, 1536);
  EXPECT_TRUE(s6.swapAb);
  EXPECT_EQ(s6.blk(Dim::n), 120);
  const Plan s7 = chosen(300, 9728, 2560);
  EXPECT_TRUE(s7.swapAb);
  EXPECT_EQ(s7.blk(Dim::n), 104);
  EXPECT_FALSE(chosen(300, 3072, 1024).swapAb);
  // Since wide gated tiles run two waves (WideGatedTiles), 12 x 22 of
  // 128 x 144 are priced level with them; such a tie goes to the swapped
  // plan (the gated GEMM ran 0.977x on 128 x 144, H200, fifty-ninth
  // session).
  const Plan s8 = chosen(1500, 3072, 1024);
  EXPECT_TRUE(s8.swapAb);
  EXPECT_EQ(s8.blk(Dim::n), 144);
  EXPECT_EQ(s8.grd(Dim::m) * s8.grd(Dim::n), 24 * 11);
  const Plan s3 = chosen(512, 11008, 4096);
  EXPECT_TRUE(s3.swapAb);
  EXPECT_EQ(s3.blk(Dim::n), 176);
  // Level with its three-stage ring, the swapped plan keeps four (the
  // swapped tie rule judges wide unswapped tiles only).
  EXPECT_EQ(s3.stages, 4);
  EXPECT_EQ(s8.stages, 4);
  EXPECT_FALSE(chosen(1500, 8192, 3072).swapAb);
  // The width rule: 104 tokens pass with 3 x 44 tiles (one full wave)
  // and 3 x 76 (86 %), not with 3 x 24 (55 %).
  const uint8_t mn = bit(Dim::m) | bit(Dim::n);
  auto tiles = [&](int64_t wTiles) {
    return makePlan({1, 1, 1, 1}, {128, 104, 64, 16}, {wTiles, 3, 1, 1}, mn,
                    {Dim::m, Dim::n, Dim::k, Dim::l}, 4);
  };
  EXPECT_TRUE(passesWaveTileRule(
      tiles(44), swappedProductOf(ChainKind::gatedGemm, 5632, 300, 2048), 132));
  EXPECT_TRUE(passesWaveTileRule(
      tiles(76), swappedProductOf(ChainKind::gatedGemm, 9728, 300, 2560), 132));
  EXPECT_FALSE(passesWaveTileRule(
      tiles(24), swappedProductOf(ChainKind::gatedGemm, 3072, 300, 1024), 132));
}

// A swapped plain product also takes 64 weight rows (one consumer
// warpgroup) against narrow fitted token tiles, as one wave: S2's down
// GEMM at M = 300 on 32 x 4 tiles of 80 tokens (8 stages, 128 CTAs; H200:
// its chain 1.10x faster than split over 4 along k). Past one wave they
// lost (S7's down GEMM on 40 x 4: 0.72x), and S1's (48 weight tiles) keeps
// its split K.
TEST(SearchTest, SwappedNarrowTiles) {
  auto chosen = [](int64_t m, int64_t n, int64_t k) {
    return chosenKMajorPlan(ChainKind::gemm, m, n, k);
  };
  const Plan s2 = chosen(300, 2048, 5632);
  EXPECT_TRUE(s2.swapAb);
  EXPECT_EQ(s2.blk(Dim::m), 64);
  EXPECT_EQ(s2.blk(Dim::n), 80);
  EXPECT_EQ(s2.grd(Dim::m) * s2.grd(Dim::n), 32 * 4);
  EXPECT_EQ(s2.cluster, (std::array<int64_t, 4>{1, 1, 1, 1}));
  const Plan s7 = chosen(300, 2560, 9728);
  EXPECT_FALSE(s7.swapAb && s7.blk(Dim::m) == 64);
  const Plan s1 = chosen(300, 3072, 8192);
  EXPECT_FALSE(s1.swapAb && s1.blk(Dim::m) == 64);
  // The rule: the narrow fitted widths (M = 300: 80 and 64) in one wave.
  // S2's product (32 weight tiles) fills 128 CTAs on 80 tokens, S7's (40)
  // 160.
  const uint8_t mn = bit(Dim::m) | bit(Dim::n);
  auto tiles = [&](int64_t weightTiles, int64_t w) {
    return makePlan({1, 1, 1, 1}, {64, w, 64, 16},
                    {weightTiles, (304 + w - 1) / w, 1, 1}, mn,
                    {Dim::m, Dim::n, Dim::k, Dim::l}, 8);
  };
  ChainDesc s2Product = swappedProductOf(ChainKind::gemm, 2048, 304, 5632);
  ChainDesc s7Product = swappedProductOf(ChainKind::gemm, 2560, 304, 9728);
  EXPECT_TRUE(passesWaveTileRule(tiles(32, 80), s2Product, 132));
  EXPECT_FALSE(passesWaveTileRule(tiles(40, 80), s7Product, 132));
  // Any 8-row multiple below 128 lowers on 64 weight rows.
  EXPECT_TRUE(isLowerable(tiles(40, 104), s7Product));
  EXPECT_FALSE(isLowerable(tiles(40, 100), s7Product));
}

// A swapped plain product split over 2 along k on 128 weight rows also
// takes two token tiles narrowed to M (whole 16-row groups): G5's down
// GEMM at M = 200 on 32 x 2 tiles of 112 tokens, one wave of 128 CTAs,
// where 128-token tiles pad M by 56 rows (H200: GEMM-4096 at M = 150-210
// 1.03-1.11x faster, G5 and S3 1.01-1.02x). Not past two token tiles:
// three and four of 112 ran 0.94-0.98x (S7's down GEMM at M = 300, G8's
// at 420).
TEST(SearchTest, SwappedSplitTileCount) {
  auto chosen = [](int64_t m, int64_t n, int64_t k) {
    return chosenKMajorPlan(ChainKind::gemm, m, n, k);
  };
  for (auto [m, w] : {std::pair<int64_t, int64_t>{150, 80}, {200, 112}}) {
    const Plan g5 = chosen(m, 4096, 16384);
    EXPECT_TRUE(g5.swapAb) << m;
    EXPECT_EQ(g5.cls(Dim::k), 2) << m;
    EXPECT_EQ(g5.blk(Dim::m), 128) << m;
    EXPECT_EQ(g5.blk(Dim::n), w) << m;
    EXPECT_EQ(g5.grd(Dim::m) * g5.grd(Dim::n), 32 * 2) << m;
  }
  for (auto [m, n, k] : {std::tuple<int64_t, int64_t, int64_t>{300, 2560, 9728},
                         {420, 2048, 8192}}) {
    const Plan p = chosen(m, n, k);
    EXPECT_FALSE(p.swapAb && p.blk(Dim::n) < 128) << m;
  }
  // The rule: 112 tokens over 2 along k pass at M = 200 (two tiles), not
  // at M = 300 (three tiles, though their 120 CTAs fill the wave).
  const uint8_t mnk = bit(Dim::m) | bit(Dim::n) | bit(Dim::k);
  auto split = [&](int64_t weightTiles, int64_t tokenTiles, int64_t k) {
    return makePlan({1, 1, 2, 1}, {128, 112, k / 2, 16},
                    {weightTiles, tokenTiles, 1, 1}, mnk,
                    {Dim::m, Dim::n, Dim::k, Dim::l}, 6);
  };
  ChainDesc g5Product = swappedProductOf(ChainKind::gemm, 4096, 200, 16384);
  ChainDesc s7Product = swappedProductOf(ChainKind::gemm, 2560, 304, 9728);
  EXPECT_TRUE(passesWaveTileRule(split(32, 2, 16384), g5Product, 132));
  EXPECT_FALSE(passesWaveTileRule(split(20, 3, 9728), s7Product, 132));
  EXPECT_TRUE(isLowerable(split(32, 2, 16384), g5Product));
  // Whole 16-row groups per rank, at least 64 tokens.
  ChainDesc narrow = swappedProductOf(ChainKind::gemm, 4096, 96, 16384);
  EXPECT_FALSE(
      isLowerable(makePlan({1, 1, 2, 1}, {128, 48, 8192, 16}, {32, 2, 1, 1},
                           mnk, {Dim::m, Dim::n, Dim::k, Dim::l}, 6),
                  narrow));
}

// Two narrowed token tiles over 2 along k fill down to 60 % of the SMs:
// S1's and S7's down GEMMs (24 and 20 weight tiles: 96 and 80 CTAs) take
// them at M = 180 and 210; G8's 16 weight tiles (64 CTAs) do not.
TEST(SearchTest, SwappedSplitTileCountFill) {
  for (auto [m, n, k, w] :
       {std::tuple<int64_t, int64_t, int64_t, int64_t>{180, 3072, 8192, 96},
        {210, 2560, 9728, 112}}) {
    const Plan p = chosenKMajorPlan(ChainKind::gemm, m, n, k);
    EXPECT_TRUE(p.swapAb) << n;
    EXPECT_EQ(p.cls(Dim::k), 2) << n;
    EXPECT_EQ(p.blk(Dim::m), 128) << n;
    EXPECT_EQ(p.blk(Dim::n), w) << n;
    EXPECT_EQ(p.grd(Dim::m) * p.grd(Dim::n), n / 128 * 2) << n;
    EXPECT_GE(p.stages, 6) << n;
  }
  const uint8_t mnk = bit(Dim::m) | bit(Dim::n) | bit(Dim::k);
  auto split = [&](int64_t weightTiles, int64_t k) {
    return makePlan({1, 1, 2, 1}, {128, 112, k / 2, 16}, {weightTiles, 2, 1, 1},
                    mnk, {Dim::m, Dim::n, Dim::k, Dim::l}, 6);
  };
  EXPECT_TRUE(passesWaveTileRule(
      split(20, 9728), swappedProductOf(ChainKind::gemm, 2560, 210, 9728),
      132));
  EXPECT_FALSE(passesWaveTileRule(
      split(16, 8192), swappedProductOf(ChainKind::gemm, 2048, 210, 8192),
      132));
}

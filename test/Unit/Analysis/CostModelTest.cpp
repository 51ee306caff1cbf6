//===- CostModelTest.cpp - hand-computed dataflow and cost cases ----------===//
//
// Part of the FlashFuser project.
//
// Every expected number here is worked out by hand from the formulas in
// docs/cost-model.md (the arithmetic is in the comments).
//
//===----------------------------------------------------------------------===//

#include "AnalysisTestUtil.h"

#include "ff/Analysis/CostModel.h"
#include "ff/Analysis/Search.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <cmath>

using namespace mlir::ff;
using namespace mlir::ff::test;

namespace {

ChainDesc ffn(int64_t m, int64_t n, int64_t k, int64_t l) {
  return chainOf(ChainKind::ffn, m, n, k, l);
}

const CollectiveTraffic *find(const Dataflow &f, Collective kind) {
  for (const CollectiveTraffic &c : f.collectives)
    if (c.kind == kind)
      return &c;
  return nullptr;
}

// Fig. 7: cluster (2,4,2,4) gives shuffle 2 and reduce 2; (2,4,2,8) gives
// shuffle 4 and reduce 1.
TEST(CostModelTest, Fig7GroupSizes) {
  Plan a = makePlan({2, 4, 2, 4}, {128, 128, 128, 128}, {1, 1, 1, 1}, 15);
  EXPECT_EQ(a.getClusterSize(), 16);
  EXPECT_EQ(a.getShuffleGroup(), 2);
  EXPECT_EQ(a.getReduceGroup(), 2);
  Plan b = makePlan({2, 4, 2, 8}, {128, 128, 128, 128}, {1, 1, 1, 1}, 15);
  EXPECT_EQ(b.getShuffleGroup(), 4);
  EXPECT_EQ(b.getReduceGroup(), 1);

  ChainDesc chain = ffn(256, 512, 256, 512);
  EXPECT_EQ(a.getCollectives(chain),
            (llvm::SmallVector<Collective, 4>{Collective::allExchange,
                                              Collective::shuffle,
                                              Collective::reduceScatter}));
  EXPECT_EQ(b.getCollectives(chain),
            (llvm::SmallVector<Collective, 4>{Collective::allExchange,
                                              Collective::shuffle}));
  ChainDesc gated = chain;
  gated.kind = ChainKind::gatedFfn;
  llvm::SmallVector<Collective, 4> g = a.getCollectives(gated);
  EXPECT_TRUE(llvm::is_contained(g, Collective::multiply));
  EXPECT_FALSE(llvm::is_contained(g, Collective::allExchange));
}

// Fig. 7a as a whole plan: M 256 x N 512 x K 256 x L 512 on one cluster of
// 16 CTAs with 128-wide tiles everywhere.
TEST(CostModelTest, Fig7aDataflow) {
  ChainDesc chain = ffn(256, 512, 256, 512);
  Plan p = makePlan({2, 4, 2, 4}, {128, 128, 128, 128}, {1, 1, 1, 1}, 15);
  ASSERT_TRUE(passesTileRule(p, chain));
  Dataflow f = analyzeDataflow(chain, p, h100());
  ASSERT_TRUE(f.feasible) << f.reason;
  EXPECT_EQ(f.numCtas, 16);
  EXPECT_EQ(f.numClusters, 1);
  // All-exchange of the fp32 partial C tile with the one other K replica:
  // 1 x 128 x 128 x 4 B.
  const CollectiveTraffic *ex = find(f, Collective::allExchange);
  ASSERT_TRUE(ex);
  EXPECT_EQ(ex->groupSize, 2);
  EXPECT_DOUBLE_EQ(ex->bytesPerCta, 65536);
  EXPECT_EQ(ex->stepsPerCta, 1);
  // Ring shuffle of bf16 C tiles in groups of 2: (2 - 1) x 128 x 128 x 2 B.
  const CollectiveTraffic *sh = find(f, Collective::shuffle);
  ASSERT_TRUE(sh);
  EXPECT_DOUBLE_EQ(sh->bytesPerCta, 32768);
  // Reduce-scatter of the fp32 E tile over 2 groups: 1/2 x 128 x 128 x 4 B.
  const CollectiveTraffic *rs = find(f, Collective::reduceScatter);
  ASSERT_TRUE(rs);
  EXPECT_DOUBLE_EQ(rs->bytesPerCta, 32768);
  EXPECT_FALSE(find(f, Collective::interClusterReduce));
  EXPECT_DOUBLE_EQ(f.volume.dsm, 16.0 * (65536 + 32768 + 32768));
  // No padding: per-CTA FLOPs add up to the chain's.
  EXPECT_DOUBLE_EQ(f.ctaFlops * f.numCtas, chain.getFlops());
  // C is exchanged between CTAs: DSM tier.
  ASSERT_EQ(f.residency.size(), 1u);
  EXPECT_EQ(f.residency[0], Tier::dsm);
  // smem: 2 stages x (A 128x64 + B 64x128 + D 64x128) x 2 B = 98304,
  // 2 C tiles (own + ring buffer) = 65536, max(exchange, E staging) =
  // 65536, 1024 reserved.
  EXPECT_EQ(f.smemBytes, 98304 + 65536 + 65536 + 1024);
}

// A streamed-n CTA (perf-anchors T3: M = 16384, N = 2048, K = L = 64),
// 128 x 128 n tiles, 4 stages, 128 CTAs active. Per CTA it streams 16 n
// tiles of A 128x64 + B 64x128 + D 128x64 bf16 = 16 x 49152 B against the
// chain's (16384x64 + 64x2048 + 2048x64 + 16384x64) x 2 = 4718592 unique
// bytes: reuse 128 x 786432 / 4718592 = 21.3, so the HBM share (16.4 x
// 21.3 B/ns) does not bind and bw = streamL2Gbps / 128 = 78.125 B/ns.
// Per tile: the k step max(32768 / 78.125, 2x128x128x64 / 7500) = 419.43,
// the second GEMM max(16384 / 78.125, 2x128x64x128 / 7500) = 279.62, act(C)
// 128 x 128 x 0.06 = 983.04; x 16, plus E stored once (16384 / 78.125).
TEST(CostModelTest, StreamedCtaByHand) {
  GpuTarget t = h100();
  ChainDesc chain = ffn(16384, 2048, 64, 64);
  Plan p = streamedPlan({128, 128, 64, 64}, 128, 4);
  ASSERT_TRUE(isLowerable(p, chain));
  const double tile =
      32768 / 78.125 + 2.0 * 128 * 64 * 128 / 7500 + 128 * 128 * 0.06;
  EXPECT_NEAR(estimateCtaNs(chain, p, t, 128), 16 * tile + 16384 / 78.125,
              1e-6);
  // Half the n tiles, half the time (less the one E store).
  ChainDesc half = ffn(16384, 1024, 64, 64);
  EXPECT_NEAR(estimateCtaNs(half, p, t, 128), 8 * tile + 16384 / 78.125, 1e-6);
}

// A streamed-n plan with L = 256 (perf-anchors T3-k256): 128 + 256
// accumulator columns exceed one warpgroup's registers, so the 64-row tile's
// columns are split over two consumer warpgroups, each holding 64 of C's and
// 128 of E's (32 + 64 registers over the 32 of overhead). Both issue
// wgmmas: the plan runs at the two-warpgroup rate, not oneWarpgroupRate.
// With 16 CTAs active bw = smGbps = 100 B/ns; the k step is latency-bound
// (2 stages in flight x 24576 B / 670 ns); the second GEMM's D tile
// (128 x 256 bf16 = 655.36 ns) outlasts its wgmmas (2x64x256x128 / 7500 =
// 559.24 ns; at the one-warpgroup rate they would take 685.4).
// A solo plan (C6-b32: 3x3 convolution over 28 x 28 images, M = 25088, N =
// 128, K = 1152, L = 512): a cluster of one, grid_n = 1, each CTA computing
// its m tile's (four image rows, 112 pixels) whole chain. With a full wave
// of CTAs (224) it streams at the streamed family's rates: at 132 active bw
// = min(100, 10000 / 132) = 75.76 B/ns (the HBM share times the reuse does
// not bind); a k step of 32 KiB two stages deep (2 x 32768 / 670 = 97.8
// B/ns, not binding) against 2x128x128x64 / 7500 = 279.6 ns of wgmmas, 18
// of them; four l chunks of 128, each the larger of the D chunk (128 x 128
// bf16) and its wgmmas, plus soloChunkNs (no cluster exchange).
TEST(CostModelTest, SoloPlanByHand) {
  GpuTarget t = h100();
  const KernelFit &k = t.kernel;
  ChainDesc chain = ffn(25088, 128, 1152, 512);
  chain.convH = chain.convW = 28;
  Plan p =
      makePlan({1, 1, 1, 1}, {128, 128, 64, 128}, {196, 1, 1, 1},
               bit(Dim::m) | bit(Dim::n), {Dim::m, Dim::n, Dim::k, Dim::l}, 3);
  ASSERT_TRUE(isLowerable(p, chain));
  ASSERT_TRUE(p.isSolo(chain));
  const int64_t active = 132;
  ASSERT_GT(k.hbmEfficiency * t.hbmGbps / active *
                getStreamReuse(chain, p, h100()),
            k.streamL2Gbps / active);
  const double bw = k.streamL2Gbps / active;
  const double kStep =
      std::max(32768.0 / bw, 2.0 * 128 * 128 * 64 / (k.streamTflops * 1e3)) +
      k.kStepNs;
  const double chunk =
      std::max(128.0 * 128 * 2 / bw,
               2.0 * 128 * 128 * 128 / (k.streamTflops * 1e3)) +
      k.soloChunkNs;
  EXPECT_NEAR(estimateCtaNs(chain, p, t, active), 18 * kStep + 4 * chunk, 1e-6);
  // Alone on its SM, the CTA also waits for its last chunk's E store
  // (128 x 128 bf16 at the stream rate), which nothing overlaps.
  EXPECT_NEAR(estimateCtaNs(chain, p, t, active, /*alone=*/true),
              18 * kStep + 4 * chunk + 128 * 128 * 2 / bw, 1e-6);
  // One CTA per SM (the smem below) and 224 CTAs (tiles of four 28-pixel
  // image rows), more than a wave: the kernel is persistent. The CTAs with
  // two tiles set the time: the second finds its first stage loaded (one
  // ring latency less) and only it exposes its last E store.
  Dataflow f = analyzeDataflow(chain, p, t);
  ASSERT_TRUE(f.feasible) << f.reason;
  ASSERT_EQ(f.ctasPerSm, 1);
  ASSERT_EQ(chain.getMTileRows(128, /*gemmCluster=*/false), 112);
  ASSERT_TRUE(runsPersistent(chain, p, f, t));
  const double bw132 = std::min(
      {k.smGbps, k.streamL2Gbps / 132,
       t.hbmGbps * k.hbmEfficiency / 132 * getStreamReuse(chain, p, h100())});
  EXPECT_NEAR(estimateKernelNs(chain, p, f, t),
              k.launchNs + 2 * estimateCtaNs(chain, p, t, 132) -
                  k.streamLatencyNs + 128 * 128 * 2 / bw132,
              1e-6);
  // Not persistent: more than eight waves (the runtime then launches one
  // tile per CTA), fewer CTAs than SMs, or two CTAs per SM (the
  // co-resident CTA hides the epilogues already).
  ChainDesc huge = chain;
  huge.m = 112 * (8 * 132 + 1);
  Plan ph = p;
  ph.grid[0] = 8 * 132 + 1;
  EXPECT_FALSE(runsPersistent(huge, ph, f, t));
  ChainDesc small = chain;
  small.m = 112 * 132;
  Plan ps = p;
  ps.grid[0] = 132;
  EXPECT_FALSE(runsPersistent(small, ps, f, t));
  Dataflow two = f;
  two.ctasPerSm = 2;
  EXPECT_FALSE(runsPersistent(chain, p, two, t));
  // Shared memory as the kernel lays it out: the ring, the act(C) tile and
  // two whole 128 x 128 D stages, no E staging tile (it stores E from the
  // wgmma fragments). At 4 stages, 230400 bytes: C6-b32's fastest plan
  // (27.3 us on an H100), which fits the kernel's 227 KiB.
  Plan p4 = p;
  p4.stages = 4;
  Dataflow f4 = analyzeDataflow(chain, p4, t);
  ASSERT_TRUE(f4.feasible) << f4.reason;
  EXPECT_EQ(f4.smemBytes, 1024 + 4 * 32768 + 32768 + 2 * 32768);

  // Below a full wave (100 CTAs) the same plan keeps the cluster family's
  // rates and chunk cost (a solo G2 plan of 2 CTAs measured 1.54x the
  // fastest, one of C7-b32 with 49 CTAs 1.79x, at the streamed rates).
  ChainDesc fewer = chain;
  fewer.m = 112 * 100;
  Plan q = p;
  q.grid[0] = 88; // ceil(11200 / 128): the grid counts blk_m tiles
  ASSERT_TRUE(q.isSolo(fewer));
  const double bw1 = std::min(k.smGbps, k.l2Gbps / 100);
  ASSERT_GT(k.hbmEfficiency * t.hbmGbps / 100 *
                getStreamReuse(fewer, q, h100()),
            bw1);
  const double bw0 = std::min(bw1, 2 * 32768.0 / k.streamLatencyNs);
  const double kStep1 =
      std::max(32768.0 / bw0, 2.0 * 128 * 128 * 64 / (k.smTflops * 1e3)) +
      k.kStepNs;
  const double chunk1 = std::max(128.0 * 128 * 2 / bw1,
                                 2.0 * 128 * 128 * 128 / (k.smTflops * 1e3)) +
                        k.chunkNs;
  EXPECT_NEAR(estimateCtaNs(fewer, q, t, 100), 18 * kStep1 + 4 * chunk1, 1e-6);

  // A workspace (grid_n > 1) or a cluster makes a plan not solo.
  Plan ws = p;
  ws.grid[1] = 2;
  ws.block[1] = 64;
  EXPECT_FALSE(ws.isSolo(chain));
  Plan pair = p;
  pair.cluster[1] = 2;
  EXPECT_FALSE(pair.isSolo(chain));
}

// CTAs per SM as ptxas and the driver grant them: every thread of the CTA
// (the producer's too) gets the consumers' register count, in units of 8,
// unless the kernel moves registers with setmaxnreg (384 threads at a
// power-of-two stage count), which takes the whole file. C5-b32's solo
// plans on an H100 (ptxas: 97 registers at 256 threads, 63 at 384).
TEST(CostModelTest, OccupancyAsPtxasGrantsIt) {
  GpuTarget t = h100();
  ChainDesc chain = ffn(100352, 64, 576, 256);
  chain.convH = chain.convW = 56;
  auto solo = [](int64_t bm, int64_t bl, int64_t stages) {
    return makePlan({1, 1, 1, 1}, {bm, 64, 64, bl}, {100352 / bm, 1, 1, 1},
                    bit(Dim::m) | bit(Dim::n), {Dim::m, Dim::n, Dim::k, Dim::l},
                    stages);
  };
  // 64 x 128: 32 + 64 registers for 256 threads, 24576 of 65536: two CTAs
  // (the producer counted at 40 registers made it three).
  Dataflow a = analyzeDataflow(chain, solo(64, 128, 2), t);
  ASSERT_TRUE(a.feasible) << a.reason;
  EXPECT_EQ(a.threadsPerCta, 256);
  EXPECT_EQ(a.regsPerThread, 96);
  EXPECT_EQ(a.ctasPerSm, 2);
  // 128 x 64 at 3 stages: no reallocation, 384 x 64 registers and 105 KiB
  // of shared memory: two CTAs.
  Dataflow b = analyzeDataflow(chain, solo(128, 64, 3), t);
  ASSERT_TRUE(b.feasible) << b.reason;
  EXPECT_EQ(b.smemBytes, 1024 + 3 * 24576 + 16384 + 2 * 8192);
  EXPECT_EQ(b.ctasPerSm, 2);
  // At 2 stages the kernel reallocates: one CTA, whatever its smem.
  EXPECT_TRUE(reallocatesRegisters(2, /*singleGemm=*/false, 2));
  EXPECT_FALSE(reallocatesRegisters(2, /*singleGemm=*/false, 3));
  EXPECT_FALSE(reallocatesRegisters(1, /*singleGemm=*/true, 4));
  Dataflow c = analyzeDataflow(chain, solo(128, 64, 2), t);
  ASSERT_TRUE(c.feasible) << c.reason;
  EXPECT_LT(c.smemBytes, t.smemPerBlock / 2);
  EXPECT_EQ(c.ctasPerSm, 1);
}

TEST(CostModelTest, StreamedSplitColumnsByHand) {
  GpuTarget t = h100();
  ChainDesc chain = ffn(16384, 2048, 256, 256);
  Plan p = streamedPlan({64, 128, 64, 256}, 256, 3);
  ASSERT_TRUE(isLowerable(p, chain));
  Dataflow f = analyzeDataflow(chain, p, t);
  ASSERT_TRUE(f.feasible) << f.reason;
  EXPECT_EQ(f.consumerWarpgroups, 2);
  EXPECT_EQ(f.threadsPerCta, 384);
  EXPECT_EQ(f.regsPerThread, 32 + 32 + 64);
  EXPECT_EQ(f.eAccumulator, Tier::reg);

  const double step = 24576 / (2 * 24576 / 670.0);
  const double gemm1 = std::max(65536 / 100.0, 2.0 * 64 * 256 * 128 / 7500);
  const double tile = 4 * step + gemm1 + 64 * 128 * 0.06;
  EXPECT_NEAR(estimateCtaNs(chain, p, t, 16), 16 * tile + 32768 / 100.0, 1e-6);

  // Halves that are not whole 64-column chunks, or a 128-row tile (four
  // consumer warpgroups), are not lowered.
  EXPECT_FALSE(isLowerable(streamedPlan({64, 64, 64, 256}, 256, 3), chain));
  EXPECT_FALSE(isLowerable(streamedPlan({128, 128, 64, 256}, 128, 3), chain));
}

// A streamed-n plan on a cluster of one at one CTA per SM over more than a
// wave is persistent too (C2-b32's 64 x 128 x 64 x 128: 392 m tiles, 15.45
// us against 18.25 one tile per CTA on an H100); its CTA time already ends
// in the E store, which only the last m tile exposes. A plan whose two
// warpgroups split the columns has no registers left for the loop.
/// A 3x3 convolution chain on H x W images (im2col A), and a solo
/// plan of 128-row tiles with `bn`-wide n and `bl`-wide l tiles over
/// `tiles` m tiles.
static ChainDesc convChain(int64_t m, int64_t n, int64_t k, int64_t l,
                           int64_t hw) {
  ChainDesc chain = ffn(m, n, k, l);
  chain.convH = chain.convW = hw;
  return chain;
}
static Plan soloConvPlan(int64_t bn, int64_t bl, int64_t tiles) {
  return makePlan({1, 1, 1, 1}, {128, bn, 64, bl}, {tiles, 1, 1, 1},
                  bit(Dim::m) | bit(Dim::n), {Dim::m, Dim::n, Dim::k, Dim::l},
                  4);
}

// Resident weights: C5-b32's persistent solo plan (K = 576, N = 64, L =
// 256, 128-row tiles, 4 stages) holds its A ring (4 x 16 KB), all 9 k tiles
// of B (8 KB each), the act(C) tile (16 KB) and D (32 KB) in 184 KB plus a
// flag; 227 KB per CTA. C6-b32's (K = 1152, N = 128) B alone is 288 KB.
TEST(CostModelTest, ResidentWeightsByHand) {
  GpuTarget t = h100();
  ChainDesc chain = convChain(100352, 64, 576, 256, 56);
  Plan p = soloConvPlan(64, 256, 784);
  ASSERT_TRUE(p.isSolo(chain));
  EXPECT_EQ(getResidentWeightsSmemBytes(chain, p),
            (4 * 16384 + 9 * 8192 + 16384 + 32768 + 1024));
  // The regions KernelPlan lays out (C5-b32's manifest: 189440 bytes).
  ResidentLayout layout = getResidentLayout(4 * 16384, 9 * 8192, 16384, 32768);
  EXPECT_EQ(layout.b, 65536);
  EXPECT_EQ(layout.c, 65536 + 73728);
  EXPECT_EQ(layout.d, 65536 + 73728 + 16384);
  EXPECT_EQ(layout.flag, 65536 + 73728 + 16384 + 32768);
  EXPECT_EQ(layout.bytes, 189440);
  Dataflow f = analyzeDataflow(chain, p, t);
  ASSERT_TRUE(f.feasible) << f.reason;
  ASSERT_TRUE(runsPersistent(chain, p, f, t));
  EXPECT_TRUE(keepsWeightsResident(chain, p, f, t));

  ChainDesc c6 = convChain(25088, 128, 1152, 512, 28);
  Plan p6 = soloConvPlan(128, 128, 196);
  Dataflow f6 = analyzeDataflow(c6, p6, t);
  ASSERT_TRUE(f6.feasible) << f6.reason;
  ASSERT_TRUE(runsPersistent(c6, p6, f6, t));
  EXPECT_GT(getResidentWeightsSmemBytes(c6, p6), t.smemPerBlock);
  EXPECT_FALSE(keepsWeightsResident(c6, p6, f6, t));

  // One tile per CTA (fewer CTAs than SMs): nothing to keep.
  ChainDesc wave = chain;
  wave.m = 128 * 100;
  Plan pw = p;
  pw.grid[0] = 100;
  EXPECT_FALSE(keepsWeightsResident(wave, pw, analyzeDataflow(wave, pw, t), t));
}

TEST(CostModelTest, ConvHaloByHand) {
  GpuTarget t = h100();
  // C5-b32: 3x3, W = 56, C = 64; a 128-row tile is two image rows.
  ChainDesc chain = convChain(100352, 64, 576, 256, 56);
  Plan p = soloConvPlan(64, 256, 784);
  Dataflow f = analyzeDataflow(chain, p, t);
  ASSERT_TRUE(f.feasible) << f.reason;
  ASSERT_TRUE(keepsWeightsResident(chain, p, f, t));
  // A halo slot: the last tap's window reaches 2 * 58 + 2 + 64 = 182 rows
  // (past the 174 loaded), 23296 bytes, 23552 aligned; two per stage.
  const int64_t resident = 9 * 8192 + 16384 + 32768 + 1024;
  EXPECT_EQ(getConvHaloSmemBytes(chain, p, 2), 2 * 2 * 23552 + resident);
  EXPECT_EQ(getConvHaloSmemBytes(chain, p, 3), 3 * 2 * 23552 + resident);
  // 3 stages need 264208 bytes: the ring is cut to 2 (218112).
  EXPECT_EQ(getConvHaloStages(chain, p, f, t), 2);
  Plan noHalo = p;
  noHalo.block[size_t(Dim::k)] = 32; // the halo needs 64-channel k tiles
  EXPECT_EQ(getConvHaloStages(chain, noHalo, f, t), 0);
  // The halo's A bytes are priced: 10 % or more below the same GEMMs
  // without the image (priced as the resident kernel streaming A).
  ChainDesc flat = chain;
  flat.convH = flat.convW = 0;
  Dataflow ff = analyzeDataflow(flat, p, t);
  ASSERT_TRUE(ff.feasible) << ff.reason;
  EXPECT_LT(estimateKernelNs(chain, p, f, t),
            0.9 * estimateKernelNs(flat, p, ff, t));

  // C6-b32 (W = 28): a 128-row tile is four image rows, no halo.
  ChainDesc c6 = convChain(25088, 128, 1152, 512, 28);
  Plan p6 = soloConvPlan(64, 128, 196);
  EXPECT_EQ(getConvHaloStages(c6, p6, analyzeDataflow(c6, p6, t), t), 0);
  // Not resident (one wave of tiles, not persistent): no halo.
  ChainDesc wave = chain;
  wave.m = 56 * 2 * 100;
  Plan pw = p;
  pw.grid[0] = 100;
  EXPECT_EQ(getConvHaloStages(wave, pw, analyzeDataflow(wave, pw, t), t), 0);
}

TEST(CostModelTest, PersistentStreamedByHand) {
  GpuTarget t = h100();
  const KernelFit &k = t.kernel;
  ChainDesc chain = ffn(8960, 256, 64, 64);
  Plan p = streamedPlan({64, 128, 64, 64}, 140, 4);
  ASSERT_TRUE(isLowerable(p, chain));
  Dataflow f = analyzeDataflow(chain, p, t);
  ASSERT_TRUE(f.feasible) << f.reason;
  ASSERT_EQ(f.ctasPerSm, 1);
  ASSERT_TRUE(runsPersistent(chain, p, f, t));
  const double bw = std::min(
      {k.smGbps, k.streamL2Gbps / 132,
       t.hbmGbps * k.hbmEfficiency / 132 * getStreamReuse(chain, p, h100())});
  const double eStore = 64 * 64 * 2 / bw;
  EXPECT_NEAR(estimateKernelNs(chain, p, f, t),
              k.launchNs + 2 * (estimateCtaNs(chain, p, t, 132) - eStore) -
                  k.streamLatencyNs + eStore,
              1e-6);
  // Below a wave, one tile per CTA.
  ChainDesc wave = ffn(64 * 132, 256, 64, 64);
  Plan pw = streamedPlan({64, 128, 64, 64}, 132, 4);
  EXPECT_FALSE(runsPersistent(wave, pw, analyzeDataflow(wave, pw, t), t));

  ChainDesc wide = ffn(16384, 2048, 256, 256);
  Plan split = streamedPlan({64, 128, 64, 256}, 256, 3);
  ASSERT_TRUE(split.splitsColumns(wide));
  Dataflow g = analyzeDataflow(wide, split, t);
  ASSERT_TRUE(g.feasible) << g.reason;
  ASSERT_EQ(g.ctasPerSm, 1);
  EXPECT_FALSE(runsPersistent(wide, split, g, t));
}

// Streamed n split over a cluster of 2 (T3-k256-n2048 at M = 4096): each
// CTA walks half the n tiles, then the pair reduce-scatters E once.
TEST(CostModelTest, StreamedClusterSplitByHand) {
  GpuTarget t = h100();
  ChainDesc chain = ffn(4096, 2048, 256, 256);
  Plan one = streamedPlan({64, 128, 64, 256}, 64, 3);
  Plan p = streamedPlan({64, 128, 64, 256}, 64, 3, 2);
  ASSERT_TRUE(isLowerable(p, chain));
  Dataflow f = analyzeDataflow(chain, p, t);
  ASSERT_TRUE(f.feasible) << f.reason;
  EXPECT_EQ(f.numCtas, 128);
  EXPECT_EQ(f.clusterSize, 2);
  EXPECT_EQ(f.ctaTilePairs, 8);
  EXPECT_EQ(f.eAccumulator, Tier::reg);
  EXPECT_EQ(p.getCollectives(chain),
            (llvm::SmallVector<Collective, 4>{Collective::reduceScatter}));
  const CollectiveTraffic *rs = find(f, Collective::reduceScatter);
  ASSERT_TRUE(rs);
  EXPECT_EQ(rs->groupSize, 2);
  EXPECT_DOUBLE_EQ(rs->bytesPerCta, 0.5 * 64 * 256 * 4);
  // Half the flops of the unsplit CTA; the partial E (64 KiB) and the slice
  // (32 KiB) fit over the dead rings, and no bf16 staging tile of E
  // (64 x 256 x 2 B) is charged.
  Dataflow f1 = analyzeDataflow(chain, one, t);
  ASSERT_TRUE(f1.feasible);
  EXPECT_DOUBLE_EQ(f.ctaFlops, f1.ctaFlops / 2);
  EXPECT_EQ(f.smemBytes, f1.smemBytes - 64 * 256 * 2);

  // Kernel model: half the n tiles, then the pull of one 64 x 128 fp32
  // slice at the pair's per-SM DSM rate, two cluster barriers and this
  // rank's 128 columns stored (bw = 100 GB/s at 16 CTAs, as above).
  const double bw = 100;
  const double dsmPerSm = 3300.0 / 132;
  EXPECT_NEAR(estimateCtaNs(chain, p, t, 16),
              (estimateCtaNs(chain, one, t, 16) - 64 * 256 * 2 / bw) / 2 +
                  64 * 128 * 4 / dsmPerSm + 2 * t.kernel.barrierNs +
                  64 * 128 * 2 / bw,
              1e-6);
  // A split counts one CTA per SM: 128 CTAs are one wave, 256 are two.
  Plan four = streamedPlan({64, 128, 64, 256}, 64, 3, 4);
  ASSERT_TRUE(isLowerable(four, chain));
  EXPECT_GT(estimateKernelNs(chain, four, analyzeDataflow(chain, four, t), t),
            estimateKernelNs(chain, p, f, t));
}

// Split K in the shuffle family (C7 at batch 1 as a matrix chain): clusters
// of 8 = 4 n tiles x 2 halves of K, every dim spatial.
TEST(CostModelTest, GatheredSplitKByHand) {
  GpuTarget t = h100();
  const KernelFit &k = t.kernel;
  ChainDesc chain = ffn(196, 256, 2304, 1024);
  Plan p = makePlan({1, 4, 2, 8}, {64, 64, 1152, 128}, {4, 1, 1, 1}, 15,
                    {Dim::m, Dim::n, Dim::k, Dim::l}, 4);
  ASSERT_TRUE(isLowerable(p, chain));
  Dataflow f = analyzeDataflow(chain, p, t);
  ASSERT_TRUE(f.feasible) << f.reason;
  EXPECT_EQ(f.numCtas, 32);
  EXPECT_EQ(f.clusterSize, 8);
  // The paper's all-exchange over the k pair (one fp32 64 x 64 tile) and
  // the shuffle over cls_l / cls_k = 4 (three bf16 tiles).
  const CollectiveTraffic *ex = find(f, Collective::allExchange);
  ASSERT_TRUE(ex);
  EXPECT_EQ(ex->groupSize, 2);
  EXPECT_DOUBLE_EQ(ex->bytesPerCta, 64 * 64 * 4);
  const CollectiveTraffic *sh = find(f, Collective::shuffle);
  ASSERT_TRUE(sh);
  EXPECT_EQ(sh->groupSize, 4);
  EXPECT_FALSE(find(f, Collective::reduceScatter));
  // smem: the partial, the reduced half, the slice and the gathered tiles
  // (max(8 KiB / 2 + 4 x 8 KiB, 16 KiB x 1.5) = 36 KiB) lie over the four
  // 16 KiB GEMM0 stages; two D stages of 64 x 128 bf16; 1 KiB reserved.
  EXPECT_EQ(f.smemBytes, 1024 + 4 * 16384 + 2 * 16384);

  // The re-reads: each of the 32 CTAs streams its share of K (18 k steps
  // of 64 x (64 + 64) bf16, not all 36) and 4 n steps of a 64 x 128 D tile;
  // the chain holds A, B, D and E once.
  const double unique =
      (196.0 * 2304 + 2304.0 * 256 + 256.0 * 1024 + 196.0 * 1024) * 2;
  EXPECT_NEAR(getStreamReuse(chain, p, h100()),
              32 * (18 * 64 * 128 * 2.0 + 4 * 64 * 128 * 2.0) / unique, 1e-9);

  // Kernel model at 32 active CTAs: stream rate min(100, 3620 / 32, HBM
  // share x reuse) = 100 GB/s, a k step of 16 KiB in flight 3 stages deep
  // (Little's law), 18 k steps of the 36 (K / 2); the pull of one 64 x 32
  // fp32 half and the gather of seven 64 x 32 bf16 slices at the cluster of
  // 8's per-SM DSM rate, two cluster barriers each; one l sub-tile of 128
  // columns in 4 n steps of 64.
  const int64_t active = 32;
  ASSERT_GT(t.kernel.hbmEfficiency * t.hbmGbps / active *
                getStreamReuse(chain, p, h100()),
            100.0);
  const double bw = std::min(k.smGbps, k.l2Gbps / active);
  ASSERT_DOUBLE_EQ(bw, 100);
  const double flopsPerNs = k.smTflops * 1e3 * k.oneWarpgroupRate;
  const double bw0 = std::min(bw, 3 * 16384.0 / k.streamLatencyNs);
  const double kStep =
      std::max(16384.0 / bw0, 2.0 * 64 * 64 * 64 / flopsPerNs) + k.kStepNs;
  const double dsmPerSm = 3000.0 / 132;
  const double syncs = 2 * k.barrierNs * 3;
  const double dStep =
      std::max(64.0 * 128 * 2 / bw, 2.0 * 64 * 128 * 64 / flopsPerNs) +
      k.shuffleStepNs;
  EXPECT_NEAR(estimateCtaNs(chain, p, t, active),
              18 * kStep + (64 * 32 * 4 / dsmPerSm + syncs) +
                  (7 * 64 * 32 * 2 / dsmPerSm + syncs) + 4 * dStep,
              1e-6);
  // Twice the K: the same CTA with 18 more k steps.
  ChainDesc longer = ffn(196, 256, 4608, 1024);
  Plan q = p;
  q.block[2] = 2304;
  EXPECT_NEAR(estimateCtaNs(longer, q, t, active) -
                  estimateCtaNs(chain, p, t, active),
              18 * kStep, 1e-6);
}

// A single GEMM's stream (GEMM-4096 at M = 256): each CTA's ring covers
// S stages less the one its consumers hold for their wgmmas' time per
// gemmStreamLatencyNs, within its HBM share times the reuse (its streamed
// bytes over the GEMM's unique ones), at the GEMM wgmma rate. Measured on
// an H100 the split-K pair 128 x 128 ran 24.2 us, 64 x 256 26.3 and
// 128 x 256 33.4 (docs/validation.md, twenty-second session): the model
// ranks them in that order (a whole stage held put the first two within
// 1 % of each other and took 64 x 256), 128 x 256 well behind, which the
// plain HBM share chose.
TEST(CostModelTest, GemmStreamByHand) {
  GpuTarget t = h100();
  const KernelFit &k = t.kernel;
  ChainDesc chain = chainOf(ChainKind::gemm, 256, 4096, 4096, 0);
  auto splitK = [](int64_t bm, int64_t bn, int64_t stages) {
    return makePlan({1, 1, 2, 1}, {bm, bn, 2048, 16},
                    {256 / bm, 4096 / bn, 1, 1}, kMN | bit(Dim::k),
                    {Dim::m, Dim::n, Dim::k, Dim::l}, stages);
  };
  Plan p = splitK(128, 128, 4);
  ASSERT_TRUE(isLowerable(p, chain));
  // 2 x 32 x 2 = 128 CTAs, each 32 k steps of (128 + 128) x 64 bf16 = 1 MiB
  // against (256 x 4096 + 4096 x 4096 + 256 x 4096) x 2 B unique.
  const double unique = (256.0 * 4096 + 4096.0 * 4096 + 256.0 * 4096) * 2;
  EXPECT_DOUBLE_EQ(getStreamReuse(chain, p, h100()), 128 * 1048576.0 / unique);
  const int64_t active = 128;
  const double bw = std::min(k.smGbps, t.hbmGbps * k.gemmHbmEfficiency /
                                           active * 128 * 1048576.0 / unique);
  // The shared-memory port: the stage's TMA writes plus each of the two
  // consumer warpgroups' wgmma reads of its 64 A rows and all of B.
  const double smem =
      (32768.0 + (128 * 64 + 2 * 64 * 128) * 2) / k.gemmSmemGbps;
  const double mma = 2.0 * 128 * 128 * 64 / (k.gemmTflops * 1e3);
  // The consumers hold a stage for the longer of their wgmmas and port
  // reads, a fraction of the latency: a split K in one wave's.
  const double latency = k.gemmSplitKStreamLatencyNs;
  const double held = std::max(mma, smem) / latency;
  ASSERT_LT(held, 1.0);
  const double bw0 = std::min(bw, (4 - held) * 32768.0 / latency);
  // Every active CTA draws its stage from L2, an aggregate ceiling.
  const double l2 = 32768.0 * active / k.gemmL2Gbps;
  const double kStep = std::max({32768.0 / bw0, l2, mma, smem}) + k.kStepNs;
  // The pair's reduce-scatter: one 128 x 64 fp32 slice pulled at the
  // pair's per-SM DSM rate, two barriers, then this rank's 64 columns.
  const double dsmPerSm = 3300.0 / 132;
  EXPECT_NEAR(estimateCtaNs(chain, p, t, active),
              32 * kStep + 128 * 64 * 4 / dsmPerSm + 2 * k.barrierNs +
                  128 * 64 * 2 / bw,
              1e-6);
  auto kernelNs = [&](const Plan &q) {
    return estimateKernelNs(chain, q, analyzeDataflow(chain, q, t), t);
  };
  const double wide = kernelNs(splitK(128, 256, 4));
  EXPECT_LT(kernelNs(p), kernelNs(splitK(64, 256, 4)));
  EXPECT_LT(1.15 * kernelNs(p), wide);
  EXPECT_LT(1.15 * kernelNs(splitK(64, 256, 4)), wide);
}

// A gated GEMM split over a pair along k (the kernel lowers it from a
// hand-written schedule; the search leaves it out, isLowerable): one fp32
// partial tile over the dead ring at a time, so 4 stages of 128 x 128 fit,
// and two exchanges (gate's tile, then up's) priced at the DSM rate.
TEST(CostModelTest, GatedSplitKByHand) {
  GpuTarget t = h100();
  ChainDesc chain = chainOf(ChainKind::gatedGemm, 256, 4096, 4096, 0);
  Plan p = makePlan({1, 1, 2, 1}, {128, 128, 2048, 16}, {2, 32, 1, 1},
                    kMN | bit(Dim::k), {Dim::m, Dim::n, Dim::k, Dim::l}, 4);
  EXPECT_FALSE(isLowerable(p, chain));
  Dataflow flow = analyzeDataflow(chain, p, t);
  EXPECT_TRUE(flow.feasible) << flow.reason;
  // Doubling the DSM rate saves half of both exchanges: 128 x 64 fp32
  // slices pulled at the pair's per-SM rate, twice.
  GpuTarget fast = t;
  for (int64_t &gbps : fast.dsmGbps)
    gbps *= 2;
  const double exchange = 128 * 64 * 4 / (3300.0 / 132);
  EXPECT_NEAR(estimateCtaNs(chain, p, t, 128) -
                  estimateCtaNs(chain, p, fast, 128),
              2 * exchange / 2, 1e-6);
}

// Split-K GEMMs take 64 x 64 tiles (the small GEMMs of narrow chains, G7's
// 128 x 768 x 768), not 128 x 64 ones, which measured no faster
// (docs/validation.md, twenty-ninth session).
TEST(CostModelTest, SplitKTakes64By64Tiles) {
  ChainDesc chain = chainOf(ChainKind::gemm, 128, 768, 768, 0);
  auto splitK = [](int64_t bm, int64_t bn, int64_t cls) {
    return makePlan({1, 1, cls, 1}, {bm, bn, 768 / cls, 16},
                    {128 / bm, 768 / bn, 1, 1}, kMN | bit(Dim::k),
                    {Dim::m, Dim::n, Dim::k, Dim::l}, 4);
  };
  EXPECT_TRUE(isLowerable(splitK(64, 64, 4), chain));
  EXPECT_TRUE(isLowerable(splitK(64, 64, 8), chain));
  EXPECT_TRUE(isLowerable(splitK(64, 128, 4), chain));
  EXPECT_FALSE(isLowerable(splitK(128, 64, 4), chain));
}

// The shared-memory port of a single GEMM's SM: the TMA writes each stage
// and every consumer warpgroup's wgmmas read its 64 rows of A and all of
// B, so narrow tiles move more bytes per flop. At 4096^3 on an H100 the
// 128 x 128 tiles (7 stages) measured 253 us against 184 for 128 x 256 (4
// stages), which the wgmma rate alone priced alike (docs/cost-model.md,
// twenty-seventh session).
TEST(CostModelTest, GemmSmemPortByHand) {
  GpuTarget t = h100();
  const KernelFit &k = t.kernel;
  ChainDesc chain = chainOf(ChainKind::gemm, 4096, 4096, 4096, 0);
  auto tiles = [](int64_t bn, int64_t stages) {
    return makePlan({1, 1, 1, 1}, {128, bn, 64, 16}, {32, 4096 / bn, 1, 1}, kMN,
                    {Dim::m, Dim::n, Dim::k, Dim::l}, stages);
  };
  Plan narrow = tiles(128, 7), wide = tiles(256, 4);
  ASSERT_TRUE(isLowerable(narrow, chain));
  ASSERT_TRUE(isLowerable(wide, chain));
  // 128 x 128: 32768 B written and (128 x 64 + 2 x 64 x 128) x 2 = 49152
  // read per k step, above its 2 x 128 x 128 x 64 flops at gemmTflops.
  const double port = (32768.0 + 49152) / k.gemmSmemGbps;
  const double mma = 2.0 * 128 * 128 * 64 / (k.gemmTflops * 1e3);
  ASSERT_GT(port, mma);
  // 1024 CTAs in waves of 132: the full waves' CTAs stream at most
  // smGbps; the port binds before the stream does.
  const double bw =
      std::min(k.smGbps, t.hbmGbps * k.gemmHbmEfficiency / 132 *
                             getStreamReuse(chain, narrow, h100()));
  ASSERT_LT(32768.0 / std::min(bw, 6 * 32768.0 / k.gemmStreamLatencyNs), port);
  // A full wave's stages share L2 (gemmL2Gbps): 132 x 32768 B per k step
  // binds above the port; a wave of 66 CTAs is port-bound.
  const double l2 = 32768.0 * 132 / k.gemmL2Gbps;
  ASSERT_GT(l2, port);
  ASSERT_LT(32768.0 * 66 / k.gemmL2Gbps, port);
  EXPECT_NEAR(estimateCtaNs(chain, narrow, t, 132),
              64 * (l2 + k.kStepNs) + 128 * 128 * 2 / bw, 1e-6);
  const double bw66 =
      std::min(k.smGbps, t.hbmGbps * k.gemmHbmEfficiency / 66 *
                             getStreamReuse(chain, narrow, h100()));
  EXPECT_NEAR(estimateCtaNs(chain, narrow, t, 66),
              64 * (port + k.kStepNs) + 128 * 128 * 2 / bw66, 1e-6);
  // 128 x 256: 49152 B written and (128 x 64 + 2 x 64 x 256) x 2 = 81920
  // read against twice the flops: the wgmma rate binds.
  EXPECT_LT((49152.0 + 81920) / k.gemmSmemGbps, 2 * mma);
  auto kernelNs = [&](const Plan &q) {
    return estimateKernelNs(chain, q, analyzeDataflow(chain, q, t), t);
  };
  EXPECT_GT(kernelNs(narrow), 1.03 * kernelNs(wide));
}

// A gated GEMM (a gated FFN's first sequence kernel): two weights' tiles per
// k step, two accumulators, and the shared-memory port reads A once per
// weight. S3's gate and up (M = 128, N = 11008, K = 4096).
TEST(CostModelTest, GatedGemmByHand) {
  GpuTarget t = h100();
  const KernelFit &k = t.kernel;
  ChainDesc chain = chainOf(ChainKind::gatedGemm, 128, 11008, 4096, 0);
  EXPECT_TRUE(chain.isGated());
  EXPECT_FALSE(chain.hasSecondGemm());
  EXPECT_EQ(chain.getNumUpProjections(), 2);
  EXPECT_DOUBLE_EQ(chain.getFlops(), 4.0 * 128 * 11008 * 4096);
  auto tiles = [](int64_t bn, int64_t stages,
                  std::array<int64_t, 4> cluster = {1, 1, 1, 1}) {
    return makePlan(cluster, {128, bn, 64, 16},
                    {1, 11008 / bn / cluster[1], 1, 1}, kMN,
                    {Dim::m, Dim::n, Dim::k, Dim::l}, stages);
  };
  // Up to 8 stages whether or not the wide GEMM tiles are on; blk_n of
  // 256 (two 64 x 256 fp32 accumulators) and A-multicast clusters are not
  // lowered.
  Plan p = tiles(128, 4);
  EXPECT_TRUE(isLowerable(p, chain, /*wideGemmTiles=*/false));
  EXPECT_TRUE(isLowerable(tiles(128, 8), chain, false));
  EXPECT_FALSE(isLowerable(tiles(128, 9), chain));
  EXPECT_FALSE(isLowerable(tiles(256, 4), chain));
  EXPECT_FALSE(isLowerable(tiles(128, 4, {1, 2, 1, 1}), chain));
  EXPECT_FALSE(analyzeDataflow(chain, tiles(256, 2), t).feasible);

  Dataflow f = analyzeDataflow(chain, p, t);
  ASSERT_TRUE(f.feasible) << f.reason;
  // Four stages of A (16 KB) and both weights' tiles (32 KB).
  EXPECT_DOUBLE_EQ(f.stageBytes, 49152.0);
  // What the 86 CTAs stream (both weights) over what the chain holds.
  const double cta = 64 * 64.0 * (128 + 2 * 128) * 2;
  const double unique = (128.0 * 4096 + 2.0 * 4096 * 11008 + 128.0 * 11008) * 2;
  EXPECT_DOUBLE_EQ(getStreamReuse(chain, p, h100()),
                   std::max(1.0, 86 * cta / unique));
  // Per k step: the stage's bytes, both weights' wgmmas, or the port's
  // 49152 B written and 2 x (128 x 64 + 2 x 64 x 128) x 2 read.
  const double bw = std::min(k.smGbps, t.hbmGbps * k.gemmHbmEfficiency / 86 *
                                           getStreamReuse(chain, p, h100()));
  const double bw0 = std::min(bw, 3 * 49152.0 / k.gemmStreamLatencyNs);
  const double mma = 2.0 * 128 * 128 * 64 * 2 / (k.gemmTflops * 1e3);
  const double port = (49152.0 + 98304) / k.gemmSmemGbps;
  EXPECT_NEAR(estimateCtaNs(chain, p, t, 86),
              64 * (std::max({49152.0 / bw0, mma, port}) + k.kStepNs) +
                  128 * 128 * 2 / bw,
              1e-6);
  // The same tile of a plain GEMM streams half the weights.
  ChainDesc plain = chain;
  plain.kind = ChainKind::gemm;
  EXPECT_LT(estimateCtaNs(plain, p, t, 86), estimateCtaNs(chain, p, t, 86));
}

// A swapped gated GEMM's product: the two weights are its A (128 rows each
// per tile), the token tile its B, so a k step loads two weight tiles
// against one token tile, and DRAM holds both weights once.
// S7's gate and up at M = 800 on 76 x 5 tiles of 128 x 160.
TEST(CostModelTest, SwappedGatedGemmByHand) {
  GpuTarget t = h100();
  ChainDesc product = swappedProductOf(ChainKind::gatedGemm, 9728, 800, 2560);
  EXPECT_EQ(product.getAOperands(), 2);
  EXPECT_EQ(product.getBOperands(), 1);
  ChainDesc plain = product;
  plain.swappedProduct = false;
  EXPECT_EQ(plain.getAOperands(), 1);
  EXPECT_EQ(plain.getBOperands(), 2);
  Plan p = makePlan({1, 1, 1, 1}, {128, 160, 64, 16}, {76, 5, 1, 1}, kMN,
                    {Dim::m, Dim::n, Dim::k, Dim::l}, 4);
  Dataflow f = analyzeDataflow(product, p, t);
  ASSERT_TRUE(f.feasible) << f.reason;
  // Gate's and up's 128 x 64 tiles and the 160 x 64 token tile.
  EXPECT_DOUBLE_EQ(f.stageBytes, (2 * 128 + 160) * 64 * 2.0);
  // Two consumer warpgroups, each a gate and an up accumulator.
  EXPECT_EQ(f.consumerWarpgroups, 2);
  // Shared memory: the ring, then a store buffer for each of the eight
  // consumer warps (the 1 KB reserve on top); the unswapped plan stores
  // from registers.
  EXPECT_EQ(f.smemBytes, t.smemReserved + 4 * int64_t(f.stageBytes) +
                             8 * kSwappedStoreBufferBytes);
  Plan unswapped = makePlan({1, 1, 1, 1}, {128, 128, 64, 16}, {76, 7, 1, 1},
                            kMN, {Dim::m, Dim::n, Dim::k, Dim::l}, 4);
  Dataflow g = analyzeDataflow(plain, unswapped, t);
  ASSERT_TRUE(g.feasible) << g.reason;
  EXPECT_EQ(g.smemBytes, t.smemReserved + 4 * int64_t(g.stageBytes));
  // DRAM: both weights, the token rows and the output, once each.
  EXPECT_DOUBLE_EQ(f.volume.hbm,
                   (2.0 * 9728 * 2560 + 800.0 * 2560 + 9728.0 * 800) * 2);
}

// A swapped plain GEMM's wgmmas run at gemmSwappedTflops, above the plain
// family's gemmTflops: G5's up GEMM at M = 930 on 128 weight rows against
// 240 tokens (4 token tiles) or 192 (5). At gemmTflops both are
// wgmma-bound and tie (5 x 192 tokens = 4 x 240); the swapped kernels ran
// at 5.9 TFLOP/s per SM and waited on L2 (ncu: 1.46 against 1.86 GB drawn),
// the 240-token tile 1.07x faster, as the L2 term prices them once the
// wgmmas no longer bind (H200, docs/validation.md, fifty-sixth session).
TEST(CostModelTest, SwappedGemmRateByHand) {
  GpuTarget t = h100();
  const KernelFit &k = t.kernel;
  ASSERT_GT(k.gemmSwappedTflops, k.gemmTflops);
  ChainDesc product = swappedProductOf(ChainKind::gemm, 16384, 936, 4096);
  auto tiles = [](int64_t tokens, int64_t stages) {
    return makePlan({1, 1, 1, 1}, {128, tokens, 64, 16},
                    {128, (936 + tokens - 1) / tokens, 1, 1},
                    bit(Dim::m) | bit(Dim::n), {Dim::m, Dim::n, Dim::k, Dim::l},
                    stages);
  };
  Plan wide = tiles(240, 4), narrow = tiles(192, 5);
  ASSERT_TRUE(isLowerable(wide, product));
  // 192 tokens on 128 weight rows lower swapped; 192-wide weight tiles of
  // the plain GEMM do not.
  ASSERT_TRUE(isLowerable(narrow, product));
  ChainDesc plain = chainOf(ChainKind::gemm, 936, 16384, 4096, 0);
  plain.kMajorWeights = true;
  EXPECT_FALSE(isLowerable(makePlan({1, 1, 1, 1}, {128, 192, 64, 16},
                                    {8, 86, 1, 1}, bit(Dim::m) | bit(Dim::n),
                                    {Dim::m, Dim::n, Dim::k, Dim::l}, 5),
                           plain));
  // Per k step on a full wave: (128 + w) x 64 x 2 B drawn by each of 132
  // CTAs from L2, above the wgmmas at the swapped rate, below them at the
  // plain one.
  for (int64_t w : {240, 192}) {
    const double l2 = (128.0 + w) * 64 * 2 * 132 / k.gemmL2Gbps;
    EXPECT_GT(l2, 2.0 * 128 * w * 64 / (k.gemmSwappedTflops * 1e3));
    EXPECT_LT(l2, 2.0 * 128 * w * 64 / (k.gemmTflops * 1e3));
  }
  auto kernelNs = [&](const Plan &q, const GpuTarget &g) {
    return estimateKernelNs(product, q, analyzeDataflow(product, q, g), g);
  };
  EXPECT_LT(kernelNs(wide, t), 0.97 * kernelNs(narrow, t));
  GpuTarget plainRate = t;
  plainRate.kernel.gemmSwappedTflops = k.gemmTflops;
  EXPECT_NEAR(kernelNs(wide, plainRate), kernelNs(narrow, plainRate),
              1e-6 * kernelNs(wide, plainRate));
  // Past 960 token rows (gemmSwappedRateMaxRows) the plain rate: the
  // swapped rate's picks ran up to 1.16x slower at M = 1000-10000. A
  // 1024-row product's wgmmas bind at gemmTflops again, above the same
  // CTA's at 960 rows.
  EXPECT_EQ(k.gemmSwappedRateMaxRows, 960);
  ChainDesc at960 = product, at1024 = product;
  at960.n = 960;
  at1024.n = 1024;
  Plan tile =
      makePlan({1, 1, 1, 1}, {128, 240, 64, 16}, {128, 4, 1, 1},
               bit(Dim::m) | bit(Dim::n), {Dim::m, Dim::n, Dim::k, Dim::l}, 4);
  EXPECT_LT(estimateCtaNs(at960, tile, t, 132),
            0.9 * estimateCtaNs(at1024, tile, t, 132));
  EXPECT_NEAR(estimateCtaNs(at1024, tile, t, 132),
              estimateCtaNs(at1024, tile, plainRate, 132), 1e-6);
}

// A 64-row tile (one consumer warpgroup) and a 128-row tile of half the
// width at the same CTA count stream the same bytes per CTA: S1's down
// GEMM (M = 128, N = 3072, K = 8192) over clusters of 4 along k, 96 CTAs
// either way. Without the lone-warpgroup factor the two estimates tie
// within 0.5 %; with it the 128-row tile, measured 1.16x faster on an
// H100, ranks first.
TEST(CostModelTest, LoneWarpgroupBreaksTies) {
  GpuTarget t = h100();
  ChainDesc chain = chainOf(ChainKind::gemm, 128, 3072, 8192, 0);
  auto plan = [](int64_t bm, int64_t bn) {
    return makePlan({1, 1, 4, 1}, {bm, bn, 2048, 16},
                    {128 / bm, 3072 / bn, 1, 1}, kMN | bit(Dim::k),
                    {Dim::m, Dim::n, Dim::k, Dim::l}, 4);
  };
  Plan lone = plan(64, 256), pair = plan(128, 128);
  ASSERT_TRUE(isLowerable(lone, chain));
  ASSERT_TRUE(isLowerable(pair, chain));
  auto kernelNs = [&](const Plan &q, const GpuTarget &g) {
    return estimateKernelNs(chain, q, analyzeDataflow(chain, q, g), g);
  };
  EXPECT_EQ(analyzeDataflow(chain, lone, t).numCtas,
            analyzeDataflow(chain, pair, t).numCtas);
  GpuTarget even = t;
  even.kernel.gemmLoneWarpgroupFactor = 1.0;
  EXPECT_NEAR(kernelNs(lone, even) / kernelNs(pair, even), 1.0, 0.005);
  EXPECT_GT(kernelNs(lone, t), kernelNs(pair, t));
  // The factor scales the lone warpgroup's CTA time, launch excluded.
  EXPECT_NEAR(kernelNs(lone, t) - t.kernel.launchNs,
              t.kernel.gemmLoneWarpgroupFactor *
                  (kernelNs(lone, even) - t.kernel.launchNs),
              1e-6);
}

// A split-K GEMM whose CTAs fit one wave streams its ring at its own
// latency, shorter on an H200: S6's down GEMM at M = 440 (N = 1536, K =
// 8960) split over 2 on 4 x 12 tiles of 128 x 128 (96 CTAs) ran 1.06x
// faster there than over 4 on 4 x 6 of 128 x 256, which the H100 entries'
// latency ranks first. Past one wave, and unsplit, the latency stays.
TEST(CostModelTest, OneWaveSplitKLatency) {
  GpuTarget h200 = llvm::cantFail(lookupTarget("h200"));
  EXPECT_DOUBLE_EQ(h200.kernel.gemmSplitKStreamLatencyNs, 1700);
  EXPECT_DOUBLE_EQ(h100().kernel.gemmSplitKStreamLatencyNs,
                   h100().kernel.gemmStreamLatencyNs);
  ChainDesc down = chainOf(ChainKind::gemm, 440, 1536, 8960, 0);
  down.kMajorWeights = true;
  auto split = [](int64_t m, int64_t bn, int64_t ck) {
    return makePlan({1, 1, ck, 1}, {128, bn, 8960 / ck, 16},
                    {(m + 127) / 128, 1536 / bn, 1, 1}, kMN | bit(Dim::k),
                    {Dim::m, Dim::n, Dim::k, Dim::l}, 4);
  };
  auto kernelNs = [&](const ChainDesc &c, const Plan &q, const GpuTarget &g) {
    return estimateKernelNs(c, q, analyzeDataflow(c, q, g), g);
  };
  Plan pair = split(440, 128, 2), four = split(440, 256, 4);
  ASSERT_TRUE(isLowerable(pair, down));
  ASSERT_TRUE(isLowerable(four, down));
  GpuTarget h200Old = h200;
  h200Old.kernel.gemmSplitKStreamLatencyNs = h200.kernel.gemmStreamLatencyNs;
  EXPECT_GT(kernelNs(down, pair, h200Old), kernelNs(down, four, h200Old));
  EXPECT_LT(kernelNs(down, pair, h200), kernelNs(down, four, h200));
  // Past one wave (M = 1500: 12 x 12 x 2 CTAs) and without a split the
  // latency is gemmStreamLatencyNs.
  ChainDesc big = down;
  big.m = 1500;
  Plan wide = split(1500, 128, 2);
  ASSERT_GT(analyzeDataflow(big, wide, h200).numCtas, h200.sms);
  EXPECT_DOUBLE_EQ(kernelNs(big, wide, h200), kernelNs(big, wide, h200Old));
  Plan unsplit = makePlan({1, 1, 1, 1}, {128, 128, 64, 16}, {4, 12, 1, 1}, kMN,
                          {Dim::m, Dim::n, Dim::k, Dim::l}, 4);
  EXPECT_DOUBLE_EQ(kernelNs(down, unsplit, h200),
                   kernelNs(down, unsplit, h200Old));
}

// A gated pair's 64-row tiles past one wave run more rounds, each ending
// in the lone warpgroup's silu(gate) * up: S6's gate and up at M = 440
// (N = 8960, K = 1536) on 7 x 70 tiles of 64 x 128 (3.7 waves) against
// 4 x 70 of 128 x 128 (2.1), which measured faster; within one wave (S8's
// at M = 300: 5 x 24 tiles) the factor stays off.
TEST(CostModelTest, GatedLoneWarpgroupPastOneWave) {
  GpuTarget t = h100();
  auto kernelNs = [&](const ChainDesc &chain, const Plan &q,
                      const GpuTarget &g) {
    return estimateKernelNs(chain, q, analyzeDataflow(chain, q, g), g);
  };
  auto tiles = [](int64_t m, int64_t n, int64_t bm, int64_t stages) {
    return makePlan({1, 1, 1, 1}, {bm, 128, 64, 16},
                    {(m + bm - 1) / bm, n / 128, 1, 1}, kMN,
                    {Dim::m, Dim::n, Dim::k, Dim::l}, stages);
  };
  ChainDesc s6 = chainOf(ChainKind::gatedGemm, 440, 8960, 1536, 0);
  Plan lone = tiles(440, 8960, 64, 5), pair = tiles(440, 8960, 128, 4);
  ASSERT_TRUE(isLowerable(lone, s6));
  ASSERT_TRUE(isLowerable(pair, s6));
  ASSERT_GT(analyzeDataflow(s6, lone, t).numCtas, t.sms);
  GpuTarget off = t;
  off.kernel.gemmGatedLoneWaveFactor = 1.0;
  // Without the factor the 64-row tiles rank first; with it the 128-row.
  EXPECT_LT(kernelNs(s6, lone, off), kernelNs(s6, pair, off));
  EXPECT_GT(kernelNs(s6, lone, t), kernelNs(s6, pair, t));
  // It scales the waves, launch excluded, and leaves 128-row tiles alone.
  EXPECT_NEAR(kernelNs(s6, lone, t) - t.kernel.launchNs,
              t.kernel.gemmGatedLoneWaveFactor *
                  (kernelNs(s6, lone, off) - t.kernel.launchNs),
              1e-6);
  EXPECT_DOUBLE_EQ(kernelNs(s6, pair, t), kernelNs(s6, pair, off));
  // One wave: no factor; nor on a plain GEMM's 64-row tiles.
  ChainDesc s8 = chainOf(ChainKind::gatedGemm, 300, 3072, 1024, 0);
  Plan oneWave = tiles(300, 3072, 64, 5);
  ASSERT_LE(analyzeDataflow(s8, oneWave, t).numCtas, t.sms);
  EXPECT_DOUBLE_EQ(kernelNs(s8, oneWave, t), kernelNs(s8, oneWave, off));
  ChainDesc plain = s6;
  plain.kind = ChainKind::gemm;
  EXPECT_DOUBLE_EQ(kernelNs(plain, lone, t), kernelNs(plain, lone, off));
}

// A kernel sequence's intermediate act(C): free while it fits in L2 (50 MiB
// on an H100), else written and read back at HBM bandwidth.
TEST(CostModelTest, SequenceIntermediateByHand) {
  GpuTarget t = h100();
  // G8: 128 x 8192 bf16 = 2 MiB stays in L2.
  EXPECT_EQ(estimateSequenceIntermediateNs(128, 8192, 2, t), 0.0);
  // Exactly the L2 still fits.
  EXPECT_EQ(estimateSequenceIntermediateNs(t.l2Bytes / 2, 1, 2, t), 0.0);
  // T3 at M = 16384: 16384 x 2048 bf16 = 64 MiB, twice over HBM.
  const double bytes = 16384.0 * 2048 * 2;
  EXPECT_DOUBLE_EQ(estimateSequenceIntermediateNs(16384, 2048, 2, t),
                   2 * bytes / (t.hbmGbps * t.hbmEfficiency));
}

// The lowerable family: cluster (1,4,1,1) along N, two clusters along N.
TEST(CostModelTest, LowerableFfnByHand) {
  GpuTarget t = h100();
  ChainDesc chain = ffn(128, 1024, 512, 256);
  Plan p = makePlan({1, 4, 1, 1}, {128, 128, 64, 128}, {1, 2, 1, 1},
                    kMN);
  EXPECT_TRUE(isLowerable(p, chain));
  Dataflow f = analyzeDataflow(chain, p, t);
  ASSERT_TRUE(f.feasible) << f.reason;
  EXPECT_EQ(f.numCtas, 8);
  EXPECT_EQ(f.clusterSize, 4);
  EXPECT_EQ(f.consumerWarpgroups, 2);
  EXPECT_EQ(f.threadsPerCta, 384);
  // Registers: 32 + max(128/2, 128/2); budget (65536 - 128 x 40) / 256.
  EXPECT_EQ(f.regsPerThread, 96);
  EXPECT_EQ(f.regBudget, 236);
  // smem: 1024 + 2 x ((128x64 + 64x128) + 64x128) x 2 + 128x128x2 +
  // 128x128x4 (E staging for the reduce-scatter).
  EXPECT_EQ(f.smemBytes, 1024 + 98304 + 32768 + 65536);
  EXPECT_EQ(f.ctasPerSm, 1);
  // L2 per CTA: A 128x512x2 + B 512x128x2 + D 128x256x2 + E slices
  // 2 l-tiles x 128 x 128/4 x 4 B (fp32 inter-cluster reduce).
  EXPECT_DOUBLE_EQ(f.ctaL2Bytes, 131072 + 131072 + 65536 + 32768);
  const CollectiveTraffic *rs = find(f, Collective::reduceScatter);
  ASSERT_TRUE(rs);
  EXPECT_EQ(rs->groupSize, 4);
  EXPECT_DOUBLE_EQ(rs->bytesPerCta, 2 * 0.75 * 128 * 128 * 4);
  EXPECT_EQ(rs->stepsPerCta, 6);
  const CollectiveTraffic *icr = find(f, Collective::interClusterReduce);
  ASSERT_TRUE(icr);
  EXPECT_EQ(icr->groupSize, 2);
  EXPECT_DOUBLE_EQ(icr->bytesPerCta, 32768);
  // HBM: A + B + D in bf16, E as the fp32 reduction target.
  EXPECT_DOUBLE_EQ(f.volume.hbm, 128 * 512 * 2 + 512 * 1024 * 2 +
                                     1024 * 256 * 2 + 128 * 256 * 4);
  EXPECT_EQ(f.residency[0], Tier::smem);
  EXPECT_EQ(f.eAccumulator, Tier::reg);

  Cost c = estimateCost(chain, p, f, t);
  EXPECT_NEAR(c.hbmNs, f.volume.hbm / (3350 * 0.9), 1e-6);
  // Critical-path rounds: the last reduce-scatter (3 x 200 cycles at
  // cluster 4) and 2 cluster barriers of 380 cycles, at 1830 MHz.
  EXPECT_NEAR(c.ctaSyncNs, (3 * 200 + 2 * 380) * 1000.0 / 1830, 1e-6);
  // 30 clusters of 4 fit at once; 2 clusters are one partial wave.
  EXPECT_EQ(c.maxActiveClusters, 30);
  EXPECT_EQ(c.fullWaves, 0);
  EXPECT_EQ(c.tailClusters, 2);
  // Launch + zeroing E for the inter-cluster reduce.
  EXPECT_NEAR(c.launchNs, 2000 + 1000 + 128.0 * 256 * 4 / (3350 * 0.9), 1e-6);
  EXPECT_NEAR(c.totalNs, c.launchNs + c.ctaNs, 1e-6);
  EXPECT_GE(c.ctaNs, c.ctaComputeNs);
}

// n outside l with n temporal: E accumulators for every l tile persist
// across the n loop and spill reg -> smem -> global.
TEST(CostModelTest, PersistentEAccumulatorSpills) {
  ChainDesc chain = ffn(128, 1024, 64, 512);
  Plan p =
      makePlan({1, 1, 1, 1}, {128, 128, 64, 128}, {1, 1, 1, 1}, bit(Dim::m));
  Dataflow f = analyzeDataflow(chain, p, h100());
  ASSERT_TRUE(f.feasible) << f.reason;
  // 4 live E tiles of 64 KiB; registers hold (236 - 32 - 64) / 64 = 2.
  EXPECT_EQ(f.regsPerThread, 32 + 64 + 128);
  EXPECT_EQ(f.eAccumulator, Tier::global);
  const TensorTraffic &e = f.tensors.back();
  EXPECT_STREQ(e.name, "E");
  EXPECT_DOUBLE_EQ(e.placed[0], 131072);
  // Free smem: 232448 - (1024 + 98304 + 32768 + 32768 bf16 staging).
  EXPECT_DOUBLE_EQ(e.placed[1], 67584);
  EXPECT_DOUBLE_EQ(e.placed[3], 262144 - 131072 - 67584);
  // The spilled part is written and read back on 7 of the 8 n trips; the
  // rest is A + B + D (8 n tiles) + E.
  EXPECT_DOUBLE_EQ(f.ctaL2Bytes, 8 * 16384 + 8 * 16384 + 8 * 131072 + 131072 +
                                     63488.0 * 2 * 7);
}

// l outside n with n temporal: the CTA holds C for every n tile.
TEST(CostModelTest, CompleteCSpills) {
  ChainDesc chain = ffn(128, 1024, 64, 512);
  Plan p = makePlan({1, 1, 1, 1}, {128, 128, 64, 128}, {1, 1, 1, 1},
                    bit(Dim::m), {Dim::m, Dim::l, Dim::n, Dim::k});
  Dataflow f = analyzeDataflow(chain, p, h100());
  ASSERT_TRUE(f.feasible) << f.reason;
  ASSERT_EQ(f.residency.size(), 1u);
  EXPECT_EQ(f.residency[0], Tier::global);
  EXPECT_EQ(f.eAccumulator, Tier::reg);
  const TensorTraffic &c = f.tensors[2];
  EXPECT_STREQ(c.name, "C");
  // 8 C tiles of 32 KiB: 1 staged + 67584 B of free smem, the rest spills.
  EXPECT_DOUBLE_EQ(c.placed[1], 32768 + 67584);
  EXPECT_DOUBLE_EQ(c.placed[3], 262144 - 32768 - 67584);
  // Spill written once and read on each of the 4 l trips.
  EXPECT_DOUBLE_EQ(c.l2Bytes, (262144 - 32768 - 67584) * 5.0);
}

TEST(CostModelTest, RegisterLimit) {
  ChainDesc chain = ffn(128, 4096, 1024, 1024);
  chain.kind = ChainKind::gatedFfn;
  // Gate and up accumulators of 208 columns: 2 x 104 + 32 = 240 > 236, the
  // budget of two consumer warpgroups.
  Plan p = makePlan({1, 1, 1, 1}, {128, 208, 64, 128}, {1, 20, 1, 1},
                    kMN);
  Dataflow f = analyzeDataflow(chain, p, h100());
  EXPECT_FALSE(f.feasible);
  EXPECT_STREQ(f.reason,
               "registers: accumulator tile exceeds the per-thread budget");
  // One consumer warpgroup (blk_m = 64) may use 255 registers: fits.
  p.block[0] = 64;
  p.grid[0] = 2;
  f = analyzeDataflow(chain, p, h100());
  EXPECT_TRUE(f.feasible) << f.reason;
  EXPECT_EQ(f.regBudget, 255);
  EXPECT_EQ(f.regsPerThread, 32 + 208);
  // 256 columns need 288 registers: over the ISA limit either way.
  p.block[1] = 256;
  EXPECT_FALSE(analyzeDataflow(chain, p, h100()).feasible);
}

TEST(CostModelTest, SharedMemoryLimit) {
  ChainDesc chain = ffn(128, 4096, 1024, 1024);
  Plan p =
      makePlan({1, 1, 1, 1}, {128, 256, 128, 256}, {1, 16, 1, 1},
               bit(Dim::m) | bit(Dim::n), {Dim::m, Dim::n, Dim::k, Dim::l}, 4);
  Dataflow f = analyzeDataflow(chain, p, h100());
  EXPECT_FALSE(f.feasible);
  EXPECT_STREQ(f.reason,
               "capacity: operand pipeline and staging exceed shared memory");
}

// Wave quantisation: 16 clusters of 8 CTAs need two waves (15 fit).
TEST(CostModelTest, WaveQuantisation) {
  GpuTarget t = h100();
  ChainDesc chain = ffn(128, 16384, 1024, 1024);
  Plan p = makePlan({1, 8, 1, 1}, {128, 128, 64, 128}, {1, 16, 1, 1},
                    kMN);
  Dataflow f = analyzeDataflow(chain, p, t);
  ASSERT_TRUE(f.feasible) << f.reason;
  Cost c = estimateCost(chain, p, f, t);
  EXPECT_EQ(c.maxActiveClusters, 15);
  EXPECT_EQ(c.fullWaves, 1);
  EXPECT_EQ(c.tailClusters, 1);
  // Same work in clusters of 4 (30 fit): a full wave and a tail of 2.
  Plan q = p;
  q.cluster[1] = 4;
  q.grid[1] = 32;
  Dataflow g = analyzeDataflow(chain, q, t);
  ASSERT_TRUE(g.feasible);
  Cost d = estimateCost(chain, q, g, t);
  EXPECT_EQ(d.fullWaves, 1);
  EXPECT_EQ(d.tailClusters, 2);
  Plan r = p;
  r.cluster[1] = 2;
  r.grid[1] = 64;
  Dataflow h = analyzeDataflow(chain, r, t);
  Cost e = estimateCost(chain, r, h, t);
  EXPECT_EQ(e.fullWaves, 0);
  EXPECT_EQ(e.tailClusters, 64);
  EXPECT_LT(e.wavesNs, c.wavesNs);
}

// The cost grows with DSM latency from a calibration file.
TEST(CostModelTest, CalibrationMovesTheCost) {
  GpuTarget t = h100();
  ChainDesc chain = ffn(128, 1024, 512, 256);
  Plan p = makePlan({1, 4, 1, 1}, {128, 128, 64, 128}, {1, 2, 1, 1},
                    kMN);
  Dataflow f = analyzeDataflow(chain, p, t);
  Cost before = estimateCost(chain, p, f, t);
  ASSERT_FALSE(static_cast<bool>(
      applyCalibration(t, R"({"target": "h100-sxm", "dsm": [{"cluster": 4,
             "bandwidth_gbps": 3100, "latency_cycles": 1200}]})")));
  Cost after = estimateCost(chain, p, f, t);
  EXPECT_NEAR(after.ctaSyncNs - before.ctaSyncNs, 3 * 1000 * 1000.0 / 1830,
              1e-6);
}

} // namespace

TEST(CostModelTest, KernelFamilyModelHandComputed) {
  // estimateKernelNs restated by hand with the target's KernelFit (the
  // fitted defaults: per-SM stream, wgmma rate, per-k-step cost, per-chunk
  // cost, reduction throughput, barrier, finisher, launch).
  GpuTarget t = llvm::cantFail(lookupTarget("h200"));
  const KernelFit &c = t.kernel;
  const double flops = c.smTflops * 1e3; // per ns
  // One CTA: M = 128, N = 256, K = 256, L = 256, block 128x256x64x64 (a
  // solo CTA holds two whole 256 x blk_l D stages: 128 columns would not
  // fit beside its ring and C tile).
  ChainDesc one = ffn(128, 256, 256, 256);
  Plan p = makePlan({1, 1, 1, 1}, {128, 256, 64, 64}, {1, 1, 1, 1}, kMN);
  Dataflow f = analyzeDataflow(one, p, t);
  ASSERT_TRUE(f.feasible) << f.reason;
  // bw = min(smGbps, 4800 * 0.625 / 1) = smGbps; per k step the larger of
  // the stage's (128*64 + 64*256) * 2 bytes and its wgmma (the wgmma).
  ASSERT_LT((128.0 * 64 + 64 * 256) * 2 / c.smGbps,
            2.0 * 128 * 256 * 64 / flops);
  double k = 4 * (2.0 * 128 * 256 * 64 / flops + c.kStepNs);
  // l chunk: D 256*64*2 bytes or the wgmma 2*128*64*256 (the wgmma).
  ASSERT_LT(256.0 * 64 * 2 / c.smGbps, 2.0 * 128 * 64 * 256 / flops);
  double l = 4 * (2.0 * 128 * 64 * 256 / flops + c.chunkNs);
  EXPECT_NEAR(estimateKernelNs(one, p, f, t), c.launchNs + k + l, 1e-6);
  // Of two stages one loads while the consumers hold the other: 48 KiB per
  // streamLatencyNs, slower than the per-SM cap but still under the wgmma;
  // a deeper ring ties (the search's tie-break prefers it, SearchTest)...
  ASSERT_LT((128.0 * 64 + 64 * 256) * 2 / c.streamLatencyNs, c.smGbps);
  ASSERT_LT(c.streamLatencyNs, 2.0 * 128 * 256 * 64 / flops);
  Plan p4 = p;
  p4.stages = 4;
  EXPECT_NEAR(estimateKernelNs(one, p4, f, t), c.launchNs + k + l, 1e-6);
  // ... and one stage keeps one load in flight, as two do.
  Plan p1 = p;
  p1.stages = 1;
  double stage = (128.0 * 64 + 64 * 256) * 2;
  double k1 = 4 * (std::max(stage / (stage / c.streamLatencyNs),
                            2.0 * 128 * 256 * 64 / flops) +
                   c.kStepNs);
  EXPECT_NEAR(estimateKernelNs(one, p1, f, t), c.launchNs + k1 + l, 1e-6);

  // Cluster of 2, two clusters along n: N = 512, K = 128, block
  // 128x128x64x128; 4 CTAs, bw still smGbps.
  ChainDesc ws = ffn(128, 512, 128, 256);
  Plan q = makePlan({1, 2, 1, 1}, {128, 128, 64, 128}, {1, 2, 1, 1}, kMN);
  Dataflow g = analyzeDataflow(ws, q, t);
  ASSERT_TRUE(g.feasible) << g.reason;
  // k: 2 steps of the larger of 32768 bytes, one stage in flight (the
  // latency-bound stream), and the wgmma.
  double k2 =
      2 * (std::max(32768 / std::min(c.smGbps, 32768 / c.streamLatencyNs),
                    2.0 * 128 * 128 * 64 / flops) +
           c.kStepNs);
  // l: 2 chunks of the wgmma plus reductions of 128*128*4 / 2 bytes by
  // each of 4 resident CTAs, a fixed cost and two barriers of
  // barrierNs * log2(2); then the finisher, which reads back the 128 rows
  // x 256 / 2 columns its rank owns, after the count-in of the tile's 2
  // clusters.
  double red = 128.0 * 128 * 4 / 2 * 4 / c.reduceGbps;
  double l2 =
      2 * (2.0 * 128 * 128 * 128 / flops + red + c.chunkNs + 2 * c.barrierNs) +
      c.finisherNs + 128.0 * 256 / 2 * 4 / c.finisherGbps + 2 * c.countInNs;
  EXPECT_NEAR(estimateKernelNs(ws, q, g, t), c.launchNs + k2 + l2, 1e-6);
  // Deterministic planes: the last arriver also reads the other cluster's
  // plane of its owned columns, 128 rows x 256 / 2 columns of fp32.
  Plan qd = q;
  qd.deterministic = true;
  EXPECT_NEAR(estimateKernelNs(ws, qd, g, t),
              c.launchNs + k2 + l2 + 128.0 * 256 / 2 * 4 / c.smGbps, 1e-6);
  // One cluster along n: no workspace, nothing to add.
  Plan pd = p;
  pd.deterministic = true;
  EXPECT_NEAR(estimateKernelNs(one, pd, f, t), c.launchNs + k + l, 1e-6);

  // More CTAs than SMs: the per-SM stream is capped by the HBM share and
  // the grid runs in whole waves (256 CTAs: one full wave of 132, a tail
  // of 124 at their own HBM share).
  ChainDesc big = ffn(8192, 1024, 1024, 256);
  Plan r = makePlan({1, 1, 1, 1}, {128, 256, 64, 64}, {64, 4, 1, 1}, kMN);
  Dataflow h = analyzeDataflow(big, r, t);
  ASSERT_TRUE(h.feasible) << h.reason;
  ASSERT_EQ(h.ctasPerSm, 1);
  EXPECT_NEAR(estimateKernelNs(big, r, h, t),
              c.launchNs + estimateCtaNs(big, r, t, 132) +
                  estimateCtaNs(big, r, t, 124),
              1e-6);
  EXPECT_GT(estimateCtaNs(big, r, t, 132), estimateCtaNs(big, r, t, 124));
}

TEST(CostModelTest, StreamReuseByHand) {
  // M = 256, N = 1024, K = 512, L = 256; clusters of 4 along n, blocks of
  // 128x128x64x128, 2 x 2 clusters: 16 CTAs. Each streams 8 k steps of
  // (128*64 + 64*128) * 2 B and 2 D chunks of 128*128*2 B: 327680 B. The
  // chain holds A 262144 + B 1048576 + D 524288 + E 131072 = 1966080 B.
  ChainDesc chain = ffn(256, 1024, 512, 256);
  Plan p = makePlan({1, 4, 1, 1}, {128, 128, 64, 128}, {2, 2, 1, 1}, kMN);
  EXPECT_NEAR(getStreamReuse(chain, p, h100()), 16 * 327680.0 / 1966080, 1e-9);
  // A 3x3 convolution's A is im2col of an image 9x smaller (K = 9 C).
  ChainDesc conv = chain;
  conv.k = 9 * 64;
  conv.convH = conv.convW = 16;
  double cta = 9 * (128 * 64 + 64 * 128) * 2.0 + 2 * 128 * 128 * 2.0;
  double unique = 256.0 * 576 * 2 / 9 + 576.0 * 1024 * 2 + 1024.0 * 256 * 2 +
                  256.0 * 256 * 2;
  EXPECT_NEAR(getStreamReuse(conv, p, h100()), 16 * cta / unique, 1e-9);
  // One CTA streaming a chain it reads once: never below 1.
  ChainDesc one = ffn(128, 256, 256, 256);
  Plan q = makePlan({1, 1, 1, 1}, {128, 256, 64, 128}, {1, 1, 1, 1}, kMN);
  EXPECT_DOUBLE_EQ(getStreamReuse(one, q, h100()), 1.0);
  // The re-reads lift the per-CTA HBM share. N = 512: one cluster along n
  // (no workspace), 8 CTAs re-reading a 1179648-byte chain 2.22 times. At
  // 32 active CTAs the plain share would be 3350 x 0.625 / 32 = 65 B/ns;
  // with the re-reads it is 145, and the L2's 3620 / 32 = 113, so the
  // per-SM stream cap (100) still binds: the same CTA time as alone.
  ChainDesc narrow = ffn(256, 512, 512, 256);
  Plan r = makePlan({1, 4, 1, 1}, {128, 128, 64, 128}, {2, 1, 1, 1}, kMN);
  EXPECT_NEAR(getStreamReuse(narrow, r, h100()), 8 * 327680.0 / 1179648, 1e-9);
  GpuTarget t = llvm::cantFail(lookupTarget("h100-sxm"));
  const KernelFit &k = t.kernel;
  ASSERT_LT(t.hbmGbps * k.hbmEfficiency / 32, k.smGbps);
  ASSERT_GT(t.hbmGbps * k.hbmEfficiency * getStreamReuse(narrow, r, h100()) /
                32,
            k.smGbps);
  ASSERT_GT(k.l2Gbps / 32, k.smGbps);
  EXPECT_NEAR(estimateCtaNs(narrow, r, t, 32), estimateCtaNs(narrow, r, t, 1),
              1e-9);
  // At 132 the L2 share (33 B/ns) binds: slower.
  EXPECT_GT(estimateCtaNs(narrow, r, t, 132), estimateCtaNs(narrow, r, t, 1));
}

TEST(CostModelTest, ConvolutionTilesAreImageRows) {
  // A 3x3 convolution's kernel tiles m by whole image rows (R * W pixels,
  // R the largest divisor of H that fits blk_m), not by blk_m, unless no
  // row fits or a GEMM cluster (split K, A multicast) splits A: then by
  // blk_m pixels across rows and images (TMA im2col mode).
  ChainDesc conv = ffn(32 * 7 * 7, 512, 512 * 9, 2048);
  conv.convH = conv.convW = 7;
  EXPECT_EQ(conv.getMTileRows(64, false), 49);
  EXPECT_EQ(conv.getMTileRows(128, false), 49);
  EXPECT_EQ(conv.getMTileRows(64, /*gemmCluster=*/true), 64);
  EXPECT_EQ(conv.getMTileRows(128, true), 128);
  ChainDesc wide = conv;
  wide.convH = wide.convW = 56;
  EXPECT_EQ(wide.getMTileRows(64, false), 56);
  EXPECT_EQ(wide.getMTileRows(128, false), 112);
  EXPECT_EQ(wide.getMTileRows(32, false), 32);
  EXPECT_EQ(ffn(1568, 512, 4608, 2048).getMTileRows(128, false), 128);
  EXPECT_TRUE(usesConvImageRows(7, 7, 64, false));
  EXPECT_FALSE(usesConvImageRows(7, 7, 64, true));
  EXPECT_FALSE(usesConvImageRows(4, 80, 64, false));
  EXPECT_FALSE(usesConvImageRows(1, 300, 512, false));

  // C8 at batch 32 (M = 1568): 32 m tiles of one image each for either
  // blk_m, so blk_m = 128 launches as many CTAs as 64 (1568 / 128 would
  // be 13) and only its per-CTA work differs; where no image row fits
  // the tile, 1568 / 64 = 25 tiles of pixels.
  GpuTarget t = llvm::cantFail(lookupTarget("h100-sxm"));
  Plan p64 = makePlan({1, 1, 1, 1}, {64, 128, 64, 128}, {25, 4, 1, 1}, kMN);
  Plan p128 = p64;
  p128.block[0] = 128;
  Dataflow f = analyzeDataflow(conv, p64, t);
  ASSERT_TRUE(f.feasible) << f.reason;
  const KernelFit &c = t.kernel;
  auto waves = [&](const ChainDesc &chain, const Plan &p, int64_t ctas) {
    int64_t slots =
        t.getMaxActiveClusters(1, std::max<int64_t>(f.ctasPerSm, 1));
    double ns = c.launchNs;
    if (ctas / slots)
      ns += (ctas / slots) * estimateCtaNs(chain, p, t, slots);
    if (ctas % slots)
      ns += estimateCtaNs(chain, p, t, ctas % slots);
    return ns;
  };
  EXPECT_NEAR(estimateKernelNs(conv, p64, f, t), waves(conv, p64, 32 * 4),
              1e-6);
  EXPECT_NEAR(estimateKernelNs(conv, p128, f, t), waves(conv, p128, 32 * 4),
              1e-6);
  ChainDesc wideConv = conv;
  wideConv.convH = wideConv.convW = 112;
  EXPECT_NEAR(estimateKernelNs(wideConv, p64, f, t),
              waves(wideConv, p64, 25 * 4), 1e-6);
}

TEST(CostModelTest, StreamedHaloGemm) {
  constexpr std::array<Dim, 4> kMNKL = {Dim::m, Dim::n, Dim::k, Dim::l};
  // A single 3x3-convolution GEMM streams each warpgroup's input halo
  // where its row group fills 56 or more of 64 rows (W + 2 pixels per
  // row), C is two 64-channel steps or more and two halo slots and three
  // filter rows' B tiles fit.
  const int64_t smem = kMaxDynamicSmemBytes;
  EXPECT_EQ(getHaloGemmRows(7, 7, 512, 128, 64, smem), 7);   // 63 rows
  EXPECT_EQ(getHaloGemmRows(28, 28, 128, 64, 64, smem), 2);  // 60 rows
  EXPECT_EQ(getHaloGemmRows(56, 56, 128, 128, 64, smem), 1); // 58 rows
  EXPECT_EQ(getHaloGemmRows(14, 14, 256, 128, 64, smem), 0); // 32 rows
  EXPECT_EQ(getHaloGemmRows(7, 7, 64, 128, 64, smem), 0);    // one step
  EXPECT_EQ(getHaloGemmRows(7, 7, 512, 128, 256, smem), 0);  // 2 x 22528 +
                                                             // 9 x 32768
  EXPECT_EQ(getHaloGemmRows(7, 7, 512, 128, 128, smem), 7);
  // Its rings (C8-b32 at 128 x 64): halo slots of 2 x 11264 bytes, tap
  // slots of 3 x 8192: three halo slots and six tap slots (215040 bytes);
  // at 128 x 128 (tap slots of 49152) two and three.
  EXPECT_EQ(getConvHaloSlotBytes(7, 7), 11264);
  HaloGemmLayout rings = getHaloGemmLayout(7, 7, 128, 64, smem);
  EXPECT_EQ(rings.haloBytes, 22528);
  EXPECT_EQ(rings.tapBytes, 24576);
  EXPECT_EQ(rings.haloStages, 3);
  EXPECT_EQ(rings.tapStages, 6);
  rings = getHaloGemmLayout(7, 7, 128, 128, smem);
  EXPECT_EQ(rings.tapBytes, 49152);
  EXPECT_EQ(rings.haloStages, 2);
  EXPECT_EQ(rings.tapStages, 3);

  // C8-b32's 3x3 GEMM (M = 1568, N = 512, K = 9 x 512). At 128 x 64 the
  // halo takes two 7x7 images per tile (16 m tiles of 98 rows, 128 CTAs);
  // a cluster of two m tiles is lowerable only with the halo (B shared by
  // multicast) and, drawing half the B bytes from L2, priced below one
  // CTA per tile; both below the nine-box plan the search chose before
  // (64 x 128, one image of 49 rows per tile), as measured on an H100
  // (docs/validation.md, thirty-second session).
  GpuTarget t = llvm::cantFail(lookupTarget("h100-sxm"));
  ChainDesc gemm = chainOf(ChainKind::gemm, 1568, 512, 4608, 0);
  gemm.convH = gemm.convW = 7;
  Plan halo =
      makePlan({1, 1, 1, 1}, {128, 64, 64, 16}, {13, 8, 1, 1}, kMN, kMNKL, 4);
  Plan pair =
      makePlan({2, 1, 1, 1}, {128, 64, 64, 16}, {7, 8, 1, 1}, kMN, kMNKL, 4);
  EXPECT_EQ(getHaloGemmRows(gemm, halo, smem), 7);
  EXPECT_EQ(getHaloGemmRows(gemm, pair, smem), 7);
  EXPECT_TRUE(isLowerable(pair, gemm));
  Plan quad = pair; // clusters of 4: measured 1.55x slower, not searched
  quad.cluster[0] = 4;
  quad.grid[0] = 4;
  EXPECT_FALSE(isLowerable(quad, gemm));
  EXPECT_TRUE(passesTileRule(pair, gemm)); // 14 CTAs for 13 m tiles
  Plan idle = pair;
  idle.grid[0] = 8; // a whole cluster past M
  EXPECT_FALSE(passesTileRule(idle, gemm));
  ChainDesc plain = gemm;
  plain.convH = plain.convW = 0;
  EXPECT_FALSE(isLowerable(pair, plain));
  ChainDesc rows14 = chainOf(ChainKind::gemm, 6272, 256, 2304, 0);
  rows14.convH = rows14.convW = 14;
  EXPECT_FALSE(isLowerable(
      makePlan({2, 1, 1, 1}, {128, 64, 64, 16}, {25, 4, 1, 1}, kMN, kMNKL, 4),
      rows14));
  auto kernelNs = [&](const Plan &p) {
    Dataflow f = analyzeDataflow(gemm, p, t);
    EXPECT_TRUE(f.feasible) << f.reason;
    return estimateKernelNs(gemm, p, f, t);
  };
  const double single = kernelNs(halo), shared = kernelNs(pair);
  EXPECT_LT(shared, single);
  // The search's former plan is a halo one now too (one image per 64-row
  // tile); one 64-channel step is not.
  Plan boxes =
      makePlan({1, 1, 1, 1}, {64, 128, 64, 16}, {25, 4, 1, 1}, kMN, kMNKL, 8);
  EXPECT_GT(getHaloGemmRows(gemm, boxes, smem), 0);
  ChainDesc oneStep = gemm;
  oneStep.k = 9 * 64;
  EXPECT_EQ(getHaloGemmRows(oneStep, halo, smem), 0);
  EXPECT_LT(shared, kernelNs(boxes));
}

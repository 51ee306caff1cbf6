//===- CostModel.cpp - dataflow analyzer and cost model ---------*- C++ -*-===//
//
// Part of the FlashFuser project.
//
// docs/cost-model.md states every formula below with its assumptions; keep
// the two in sync.
//
//===----------------------------------------------------------------------===//

#include "ff/Analysis/CostModel.h"
#include "ff/Runtime/LaunchPolicy.h"

#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <cmath>
#include <limits>

using namespace mlir::ff;

namespace {
/// Registers of a consumer thread that are not accumulators: addresses,
/// loop counters, barrier phases, activation temporaries.
constexpr int64_t kRegOverhead = 32;
/// Registers of the producer (TMA) warpgroup after setmaxnreg.dec.
constexpr int64_t kProducerRegs = 40;
/// Bytes of the fp32 accumulators and of partial sums exchanged before
/// rounding.
constexpr int64_t kAccBytes = 4;
/// Cycles between the last GEMM0 wgmma of a tile and the first GEMM1 wgmma
/// (activation, conversion, store to smem, fence).
constexpr int64_t kPhaseSwitchCycles = 300;
/// Longest operand chunk one pipeline stage streams along a reduction.
constexpr int64_t kMaxChunk = 64;
/// Widest E sub-tile of the shuffle family (its second wgmma's n).
constexpr int64_t kShuffleSubTile = 128;
} // namespace

static int64_t ceilDiv(int64_t a, int64_t b) {
  return static_cast<int64_t>(llvm::divideCeil(a, b));
}

Dataflow mlir::ff::analyzeDataflow(const ChainDesc &chain, const Plan &plan,
                                   const GpuTarget &target) {
  Dataflow f;
  const bool two = chain.hasSecondGemm();
  const double b = getByteWidth(chain.dtype);
  const double acc = kAccBytes;
  const int64_t g = chain.getNumUpProjections();
  // A gated pair's weights: B's tiles, or A's in its swapped product.
  const int64_t ga = chain.getAOperands(), gb = chain.getBOperands();

  // Per-CTA extents (padded to whole tiles) and temporal trip counts.
  std::array<int64_t, 4> e = {}, trips = {};
  for (Dim d : kAllDims) {
    unsigned i = static_cast<unsigned>(d);
    if (d == Dim::l && !two) {
      e[i] = 0;
      trips[i] = 1;
      continue;
    }
    if (plan.isSpatial(d)) {
      e[i] = plan.block[i];
      trips[i] = 1;
    } else {
      // A temporal n split over the cluster: each CTA walks its share.
      trips[i] = ceilDiv(chain.getExtent(d), plan.cluster[i] * plan.block[i]);
      e[i] = trips[i] * plan.block[i];
    }
  }
  auto ext = [&](Dim d) { return e[static_cast<unsigned>(d)]; };
  auto tr = [&](Dim d) { return trips[static_cast<unsigned>(d)]; };
  const int64_t blkM = plan.blk(Dim::m), blkN = plan.blk(Dim::n),
                blkL = two ? plan.blk(Dim::l) : 0;
  const int64_t sh = two ? plan.getShuffleGroup() : 1;
  const int64_t rd = two ? plan.getReduceGroup() : 1;
  const int64_t clsK = plan.cls(Dim::k);
  const int64_t gridN = plan.grd(Dim::n);
  // The shuffle family (every CTA of a group gathers the group's act(C)
  // slices and computes its spatial l tile over them, no reduce-scatter):
  // the l tile is computed in sub-tiles of at most kShuffleSubTile columns,
  // each reduced straight from registers, so E needs no staging tile.
  // With cls_k > 1 (cls_l = cls_n * cls_k) the k groups first reduce their
  // partial C tiles, then the whole cluster gathers.
  const bool gathered = two && rd == 1 && plan.isSpatial(Dim::l) &&
                        ((sh > 1 && clsK == 1) || plan.splitsGatheredK());
  const bool solo = plan.isSolo(chain);
  const int64_t eW = gathered ? std::min<int64_t>(blkL, kShuffleSubTile) : blkL;
  const int64_t tp = tr(Dim::m) * tr(Dim::n);
  const int64_t flushes = two ? tr(Dim::m) * tr(Dim::l) : 0;
  const int64_t kc = plan.isSpatial(Dim::k)
                         ? std::min(kMaxChunk, plan.blk(Dim::k))
                         : plan.blk(Dim::k);
  const int64_t nc = std::min(kMaxChunk, blkN);

  f.numClusters = plan.getNumClusters();
  f.clusterSize = plan.getClusterSize();
  f.numCtas = plan.getNumCtas();
  f.ctaTilePairs = tp;
  // A streamed-n plan too wide for one warpgroup's registers splits a
  // 64-row tile's columns over two (each holds half of C's and E's).
  const bool splitCols = plan.splitsColumns(chain);
  const int64_t colParts = splitCols ? 2 : 1;
  // A swapped product's 256-row tiles: two 64-row blocks per warpgroup.
  const int64_t rowBlocks = getWarpgroupRowBlocks(chain, plan);
  f.consumerWarpgroups = std::max<int64_t>(1, blkM / 64 / rowBlocks) * colParts;
  f.threadsPerCta = 128 * (f.consumerWarpgroups + 1);
  f.usefulFlops = chain.getFlops();

  // Loop structure: does the CTA hold C for every n tile (l loop outside a
  // temporal n loop), or E accumulators across the n loop (n outside l)?
  const bool nLoops = tr(Dim::n) > 1;
  const bool lOuter = two && nLoops && !plan.isSpatial(Dim::l) &&
                      tr(Dim::l) > 1 &&
                      plan.getPosition(Dim::l) < plan.getPosition(Dim::n);
  const bool ePersist = two && nLoops && !lOuter;
  const int64_t eLiveTiles = ePersist ? tr(Dim::l) : 1;
  const int64_t cLiveTiles = lOuter ? tr(Dim::n) : 1;

  // Registers of one consumer thread: a 64 x w fp32 tile over a
  // warpgroup's 128 threads is w / 2 registers.
  f.regBudget = std::min<int64_t>(target.maxRegsPerThread,
                                  (target.regsPerSm - 128 * kProducerRegs) /
                                      (128 * f.consumerWarpgroups));
  const int64_t rC = g * rowBlocks * blkN / 2 / colParts;
  const int64_t rE = two ? eW / 2 / colParts : 0;
  if (kRegOverhead + rC > f.regBudget || kRegOverhead + rE > f.regBudget) {
    f.reason = "registers: accumulator tile exceeds the per-thread budget";
    return f;
  }
  int64_t eRegTiles = 0;
  if (ePersist && rE > 0)
    eRegTiles =
        std::min<int64_t>(eLiveTiles, (f.regBudget - kRegOverhead - rC) / rE);
  const int64_t persistentRegs = eRegTiles * rE;
  f.regsPerThread = kRegOverhead +
                    std::max(rC + persistentRegs, std::max(rE, persistentRegs));

  // Shared memory fixed by the plan: operand pipeline, the act(C) tile(s)
  // GEMM1 reads, collective receive buffers, the epilogue staging tile.
  const double stage0 = (blkM * kc * ga + kc * blkN * gb) * b;
  const double stage1 = two ? nc * eW * b : 0;
  f.stageBytes = stage0;
  const double cTile = blkM * blkN * b;
  double fixed = target.smemReserved;
  if (gathered) {
    // The published slice and the gathered ones lie over the (dead) GEMM0
    // ring; the D ring has at least two stages. A split K's fp32 partial
    // and the slice its reduce-scatter leaves precede them there.
    double act = (sh + 1) * cTile;
    if (clsK > 1)
      act = std::max(cTile / clsK + sh * cTile,
                     blkM * blkN * acc * (1 + 1.0 / clsK));
    fixed += std::max(plan.stages * stage0, act) + 2 * stage1;
  } else if (solo) {
    // A solo CTA (no cluster exchange, no workspace) has the GEMM0 ring,
    // its act(C) tile and two whole blk_n x blk_l D stages, and stores E
    // straight from the wgmma fragments: no staging tile. Counted like the
    // others, C6-b32's fastest plan (4 stages, 27.3 us on an H100) failed
    // the capacity check while the kernel fits it.
    fixed += plan.stages * stage0 + cTile + 2 * blkN * blkL * b;
  } else
    fixed +=
        plan.stages * (stage0 + stage1) + (two ? cTile * (sh > 1 ? 2 : 1) : 0);
  // The all-exchange receive buffer (end of GEMM0) and the E staging tile
  // (end of GEMM1) are never live together: they share one allocation.
  // (A gated split-K GEMM exchanges gate's tile, then up's, through one
  // buffer.)
  const double exchange = clsK > 1 ? blkM * blkN * acc * (two ? g : 1) : 0;
  const double eTileAcc = blkM * blkL * acc;
  // A single GEMM stores its tile from the wgmma fragments (a swapped one
  // through store buffers, below).
  double staging = 0;
  if (two && !gathered && !solo)
    staging = (rd > 1 || gridN > 1) ? eTileAcc : blkM * blkL * b;
  // A swapped one (C^T in registers) transposes it through a store buffer
  // per consumer warp at least.
  if (!two && chain.swappedProduct && clsK == 1)
    staging = f.consumerWarpgroups * 4 * kSwappedStoreBufferBytes;
  if (!two && clsK > 1)
    // A split-K GEMM publishes its fp32 tile over the dead ring; the slice
    // the reduce-scatter leaves in each rank comes on top.
    fixed += std::max(0.0, exchange - plan.stages * stage0) + exchange / clsK;
  else if (gathered)
    ; // the all-exchange's buffers lie over the dead ring (above)
  else if (plan.splitsStreamedN(chain))
    // A streamed n split over the cluster reduces E once, after the n
    // loop: its fp32 partial and the slice the reduce-scatter leaves lie
    // over the dead rings and C tile.
    fixed +=
        std::max(0.0, eTileAcc * (rd + 1) / rd - (fixed - target.smemReserved));
  else
    fixed += std::max(exchange, staging);
  if (fixed > target.smemPerBlock) {
    f.reason = "capacity: operand pipeline and staging exceed shared memory";
    return f;
  }
  double smemFree = target.smemPerBlock - fixed;

  // Greedy residency (Algorithm 1, step 4): reg -> smem -> dsm -> global.
  // Only tensors other CTAs read live in the DSM tier; a CTA's private
  // overflow cannot borrow a peer's smem because every peer needs the same.
  TensorTraffic cT, eT;
  cT.name = "C";
  eT.name = "E";
  if (two) {
    double live = cTile * cLiveTiles;
    double extra = live - cTile;
    double inSmem = cTile + std::min(extra, smemFree);
    smemFree -= inSmem - cTile;
    double spilled = live - inSmem;
    bool shared = clsK > 1 || sh > 1;
    cT.placed = {0, shared ? 0 : inSmem, shared ? inSmem : 0, spilled};
    cT.residency = spilled > 0 ? Tier::global : shared ? Tier::dsm : Tier::smem;
    double eLive = eTileAcc * eLiveTiles;
    double inReg = std::min(eLive, eTileAcc * std::max<int64_t>(eRegTiles, 1));
    double eSmem = std::min(eLive - inReg, smemFree);
    smemFree -= eSmem;
    double eGlobal = eLive - inReg - eSmem;
    eT.placed = {inReg, eSmem, 0, eGlobal};
    f.eAccumulator = eGlobal > 0 ? Tier::global
                     : eSmem > 0 ? Tier::smem
                                 : Tier::reg;
    eT.residency = f.eAccumulator;
    f.residency.push_back(cT.residency);
    if (chain.isGated())
      f.residency.push_back(cT.residency);
  }
  f.smemBytes = static_cast<int64_t>(target.smemPerBlock - smemFree);

  // ptxas gives every thread of the CTA the same count (in units of 8), the
  // producer's too, unless the kernel reallocates them, which compiles it
  // to the whole register file. Counting the producer at its 40 put
  // 256-thread solo kernels of 97 registers at 3 CTAs per SM (2 run) and
  // 384-thread ones with setmaxnreg at 2 (1 runs; C5-b32, twenty-fourth
  // session).
  const int64_t regsPerCta =
      reallocatesRegisters(f.consumerWarpgroups, !two, plan.stages)
          ? target.regsPerSm
          : f.threadsPerCta * llvm::alignTo(f.regsPerThread, 8);
  f.ctasPerSm = std::min({target.getCtasPerSmBySmem(f.smemBytes),
                          target.regsPerSm / regsPerCta,
                          target.maxThreadsPerSm / f.threadsPerCta});
  if (f.ctasPerSm < 1) {
    f.reason = "capacity: the CTA does not fit on one SM";
    return f;
  }
  if (target.getMaxActiveClusters(f.clusterSize, f.ctasPerSm) < 1) {
    f.reason = "occupancy: no GPC holds a cluster of this size";
    return f;
  }

  // Global (L2) traffic of one CTA.
  const double aL2 = tp * blkM * ext(Dim::k) * b * ga;
  // A one-GEMM cluster along M multicasts each B tile to its cls_m CTAs
  // (TMA .multicast::cluster): L2 serves it once per cluster.
  const double bL2 =
      tp * ext(Dim::k) * blkN * b * gb / (two ? 1 : plan.cls(Dim::m));
  const double dL2 = two ? tp * sh * blkN * ext(Dim::l) * b : 0;
  double eL2 = 0;
  if (two)
    eL2 = flushes * blkM * blkL / rd * (gridN > 1 ? acc : b);
  else
    eL2 = tp * cTile;
  const double cSpill = two ? tr(Dim::m) * cT.placed[3] * (1 + tr(Dim::l)) : 0;
  const double eSpill =
      two ? tr(Dim::m) * eT.placed[3] * 2 * (tr(Dim::n) - 1) : 0;
  f.ctaL2Bytes = aL2 + bL2 + dL2 + eL2 + cSpill + eSpill;

  // Collectives (bytes each CTA receives; steps are latency-bound rounds).
  auto addCollective = [&](Collective kind, int64_t group, double bytes,
                           int64_t steps) {
    f.collectives.push_back({kind, group, bytes, steps});
  };
  if (clsK > 1)
    addCollective(
        chain.isGated() ? Collective::multiply : Collective::allExchange, clsK,
        tp * (clsK - 1) * blkM * blkN * acc * g, tp * (clsK - 1));
  if (sh > 1)
    addCollective(Collective::shuffle, sh, tp * (sh - 1) * cTile,
                  tp * (sh - 1));
  if (rd > 1)
    addCollective(Collective::reduceScatter, rd,
                  flushes * double(rd - 1) / rd * eTileAcc, flushes * (rd - 1));
  if (gridN > 1 && two)
    addCollective(Collective::interClusterReduce, gridN, eL2, flushes);
  // Latency on the critical path: every all-exchange and shuffle round
  // (the activation and the next ring step wait on them) and the rounds of
  // the last reduce-scatter (earlier ones overlap the next E tile).
  f.ctaDsmBytes = 0;
  for (const CollectiveTraffic &c : f.collectives) {
    if (c.kind == Collective::interClusterReduce)
      continue;
    f.ctaDsmBytes += c.bytesPerCta;
    f.ctaCollectiveSteps +=
        c.kind == Collective::reduceScatter ? c.groupSize - 1 : c.stepsPerCta;
  }
  // Cluster-wide barriers: after mbarrier init and before exit (a CTA may
  // not leave while peers can still touch its smem); the rest of the
  // synchronisation is mbarrier hand-offs counted in the steps.
  if (f.clusterSize > 1)
    f.ctaBarriers = 2;

  // Shared-memory traffic: TMA writes of every operand, wgmma reads (each
  // consumer warpgroup reads all of B and D, its own rows of A and C; with
  // split columns all of A and C, its half of B and D), collective buffers
  // written and read, epilogue staging.
  // (A row block's wgmmas read all of B like a warpgroup's.)
  const int64_t wg = f.consumerWarpgroups / colParts * rowBlocks;
  const double lReads = two ? (plan.isSpatial(Dim::l) ? 1 : tr(Dim::l)) : 0;
  f.ctaSmemBytes = (aL2 + bL2 + dL2) + (colParts * aL2 + wg * bL2 + wg * dL2) +
                   (two ? tp * cTile * (1 + colParts * sh * lReads) : 0) +
                   2 * f.ctaDsmBytes + 2 * eL2 +
                   (two ? tr(Dim::m) * eT.placed[1] * 2 * (tr(Dim::n) - 1) : 0);

  f.ctaFlops = tp * 2.0 * blkM * blkN * ext(Dim::k) * g;
  if (two)
    f.ctaFlops += tp * 2.0 * blkM * sh * blkN * ext(Dim::l);

  // Whole-kernel volumes.
  const double ctas = f.numCtas;
  f.volume.l2 = ctas * f.ctaL2Bytes;
  f.volume.dsm = ctas * f.ctaDsmBytes;
  f.volume.smem = ctas * f.ctaSmemBytes;
  f.volume.reg =
      ctas * tp * (blkM * blkN * acc * g + (two ? blkM * blkL * acc : 0));
  const double M = chain.m, N = chain.n, K = chain.k, L = chain.l;
  const double eOut = two ? M * L : M * N;
  const double eHbm = eOut * ((two && gridN > 1) ? acc : b);
  const double spillHbm = ctas * (cSpill + eSpill);
  f.volume.hbm =
      M * K * b * ga + K * N * b * gb + (two ? N * L * b : 0) + eHbm + spillHbm;

  // Per-tensor report.
  auto io = [&](const char *name, double l2, double hbm) {
    TensorTraffic t;
    t.name = name;
    t.l2Bytes = l2;
    t.hbmBytes = hbm;
    t.residency = Tier::global;
    f.tensors.push_back(t);
  };
  io("A", ctas * aL2, M * K * b * ga);
  if (gb == 2) {
    io("B", ctas * bL2 / 2, K * N * b);
    io("Bu", ctas * bL2 / 2, K * N * b);
  } else {
    io("B", ctas * bL2, K * N * b);
  }
  if (two) {
    cT.l2Bytes = ctas * cSpill;
    cT.hbmBytes = ctas * cSpill;
    f.tensors.push_back(cT);
    io("D", ctas * dL2, N * L * b);
    eT.l2Bytes = ctas * (eL2 + eSpill);
    eT.hbmBytes = eHbm + ctas * eSpill;
    f.tensors.push_back(eT);
  } else {
    io("C", ctas * eL2, eHbm);
  }
  f.feasible = true;
  return f;
}

Cost mlir::ff::estimateCost(const ChainDesc &chain, const Plan &plan,
                            const Dataflow &flow, const GpuTarget &target) {
  Cost c;
  const double nsPerCycle = target.getNsPerCycle();
  const double peak = target.getPeakTflops(chain.dtype) * 1e3; // GFLOP/s
  const double peakPerSm = peak * target.computeEfficiency / target.sms;
  const double hbmGbps = target.hbmGbps * target.hbmEfficiency;
  const double smemGbpsPerSm =
      target.smemBytesPerClk * target.clockMhz / 1000.0;
  const double l2GbpsPerSm =
      target.l2BytesPerClkPerSm * target.clockMhz / 1000.0;
  const int64_t cs = flow.clusterSize;
  const double dsmGbps = cs > 1 ? target.getDsmGbps(cs) : 0;

  // The paper's minimax over memory levels (bytes / (GB/s) = ns).
  c.hbmNs = flow.volume.hbm / hbmGbps;
  c.l2Ns = flow.volume.l2 / target.l2Gbps;
  c.dsmNs = cs > 1 ? flow.volume.dsm / dsmGbps : 0;
  c.smemNs = flow.volume.smem / (smemGbpsPerSm * target.sms);
  c.minimaxNs = std::max({c.hbmNs, c.l2Ns, c.dsmNs, c.smemNs});
  const double busySms = std::min<double>(flow.numCtas, target.sms);
  c.computeNs = flow.ctaFlops * flow.numCtas / (peakPerSm * busySms);

  // The all-exchange (or multiply) blocks the activation, which needs the
  // complete sums; the shuffle ring runs inside GEMM1's loop and the
  // reduce-scatter of a finished E tile overlaps the next tile's GEMM1
  // (TMA + mbarrier, FlashFuser §IV), so their bytes compete as a resource.
  double blockingDsm = 0, overlappedDsm = 0, icrBytes = 0;
  for (const CollectiveTraffic &t : flow.collectives) {
    if (t.kind == Collective::interClusterReduce)
      icrBytes += t.bytesPerCta;
    else if (t.kind == Collective::allExchange ||
             t.kind == Collective::multiply)
      blockingDsm += t.bytesPerCta;
    else
      overlappedDsm += t.bytesPerCta;
  }
  const double loadBytes = flow.ctaL2Bytes - icrBytes;
  const double inflightGbps =
      plan.stages * flow.stageBytes / (target.globalLatencyCycles * nsPerCycle);

  auto waveNs = [&](int64_t clusters, Cost *terms) {
    const double w = double(clusters) * cs;
    const double share = std::max(1.0, std::ceil(w / target.sms));
    double comp = flow.ctaFlops * share / peakPerSm;
    double l2 = std::max(flow.ctaL2Bytes * w / target.l2Gbps,
                         flow.ctaL2Bytes * share / l2GbpsPerSm);
    double hbm = flow.volume.hbm * (w / flow.numCtas) / hbmGbps;
    double smem = flow.ctaSmemBytes * share / smemGbpsPerSm;
    double little = loadBytes / inflightGbps;
    double icr = icrBytes * w / target.l2ReduceGbps;
    double dsmPerSm = cs > 1 ? dsmGbps / target.sms : 1;
    double dsm = cs > 1 ? overlappedDsm * share / dsmPerSm : 0;
    double blocking = cs > 1 ? blockingDsm * share / dsmPerSm : 0;
    double mem = std::max({l2, hbm, smem, little, icr, dsm});
    double sync =
        (flow.ctaCollectiveSteps * (cs > 1 ? target.getDsmLatency(cs) : 0) +
         flow.ctaBarriers * target.clusterBarrierCycles) *
        nsPerCycle;
    double fill =
        (target.globalLatencyCycles + flow.ctaTilePairs * kPhaseSwitchCycles) *
        nsPerCycle;
    // One stage cannot overlap a load with the wgmma that consumes it.
    double body = plan.stages > 1 ? std::max(comp, mem) : comp + mem;
    double total = body + blocking + sync + fill;
    if (terms) {
      terms->ctaComputeNs = comp;
      terms->ctaMemoryNs = std::max(mem, 0.0) + blocking;
      terms->ctaSyncNs = sync;
      terms->ctaFillNs = fill;
      terms->ctaNs = total;
    }
    return total;
  };

  c.maxActiveClusters = target.getMaxActiveClusters(cs, flow.ctasPerSm);
  c.fullWaves = flow.numClusters / c.maxActiveClusters;
  c.tailClusters = flow.numClusters % c.maxActiveClusters;
  c.wavesNs = 0;
  if (c.fullWaves > 0)
    c.wavesNs += c.fullWaves * waveNs(c.maxActiveClusters, &c);
  if (c.tailClusters > 0)
    c.wavesNs += waveNs(c.tailClusters, c.fullWaves > 0 ? nullptr : &c);

  // Launch; an inter-cluster reduce also needs E zeroed first (a memset
  // node: half a launch plus the bytes).
  c.launchNs = target.launchOverheadNs;
  if (plan.grd(Dim::n) > 1 && chain.hasSecondGemm())
    c.launchNs += target.launchOverheadNs / 2.0 +
                  double(chain.m) * chain.l * kAccBytes / hbmGbps;
  c.totalNs = c.launchNs + c.wavesNs;
  return c;
}

/// A single GEMM (or gated pair) whose clusters split A: split K or A
/// multicast along n.
static bool isGemmCluster(const ChainDesc &chain, const Plan &plan) {
  return !chain.hasSecondGemm() && plan.cls(Dim::n) * plan.cls(Dim::k) > 1;
}

/// Dynamic shared memory one CTA may use on `target`.
static int64_t getKernelSmemBytes(const GpuTarget &target) {
  return target.smemPerBlock - target.smemReserved;
}

/// Output rows of one m tile: blk_m, a 3x3 convolution's whole image rows,
/// or a streamed halo GEMM's row group per consumer warpgroup.
static int64_t getTileRows(const ChainDesc &chain, const Plan &plan,
                           const GpuTarget &target) {
  if (int64_t rows = getHaloGemmRows(chain, plan, getKernelSmemBytes(target)))
    return plan.blk(Dim::m) / 64 * rows * chain.convW;
  return chain.getMTileRows(plan.blk(Dim::m), isGemmCluster(chain, plan));
}

/// CTAs of the kernel-family grid: m tiles (whole clusters of cls_m) x
/// grid_n x the cluster (along n, or along k for a split-K GEMM).
static int64_t getKernelCtas(const ChainDesc &chain, const Plan &plan,
                             const GpuTarget &target) {
  const int64_t clsM = plan.cls(Dim::m);
  const int64_t mTiles =
      ceilDiv(std::max<int64_t>(chain.m, 1), getTileRows(chain, plan, target));
  return ceilDiv(mTiles, clsM) * clsM * plan.grd(Dim::n) * plan.cls(Dim::n) *
         plan.cls(Dim::k);
}

bool mlir::ff::runsPersistent(const ChainDesc &chain, const Plan &plan,
                              const Dataflow &flow, const GpuTarget &target) {
  const int64_t ctas = getKernelCtas(chain, plan, target);
  // A streamed tile whose columns two warpgroups split has no registers
  // left for the loop (T3-k256 at M = 16384 spilled 28 bytes).
  const bool alone = plan.isSolo(chain) ||
                     (plan.streamsN(chain) && plan.getClusterSize() == 1 &&
                      plan.grd(Dim::n) == 1 && !plan.splitsColumns(chain));
  return alone && flow.ctasPerSm == 1 && ctas > target.sms &&
         uint64_t(ctas) <= ::ff::rt::kMaxPersistentWaves * uint64_t(target.sms);
}

ResidentLayout mlir::ff::getResidentLayout(int64_t ringBytes, int64_t bBytes,
                                           int64_t cBytes, int64_t dBytes) {
  ResidentLayout layout;
  layout.b = ringBytes;
  layout.c = layout.b + bBytes;
  layout.d = layout.c + cBytes;
  layout.flag = layout.d + dBytes;
  layout.bytes = ceilDiv(layout.flag + 16, 1024) * 1024;
  return layout;
}

/// The resident layout of `plan`'s weights behind an A ring of `ringBytes`.
static int64_t getResidentBytes(const ChainDesc &chain, const Plan &plan,
                                int64_t ringBytes) {
  const int64_t b = getByteWidth(chain.dtype);
  const int64_t bm = plan.blk(Dim::m), bn = plan.blk(Dim::n);
  const int64_t bk = plan.blk(Dim::k);
  return getResidentLayout(ringBytes,
                           ceilDiv(chain.k, bk) * chain.getNumUpProjections() *
                               bk * bn * b,
                           bm * bn * b, bn * chain.l * b)
      .bytes;
}

int64_t mlir::ff::getResidentWeightsSmemBytes(const ChainDesc &chain,
                                              const Plan &plan) {
  return getResidentBytes(chain, plan,
                          plan.stages * plan.blk(Dim::m) * plan.blk(Dim::k) *
                              getByteWidth(chain.dtype));
}

bool mlir::ff::keepsWeightsResident(const ChainDesc &chain, const Plan &plan,
                                    const Dataflow &flow,
                                    const GpuTarget &target) {
  return plan.isSolo(chain) && runsPersistent(chain, plan, flow, target) &&
         getResidentWeightsSmemBytes(chain, plan) <= getKernelSmemBytes(target);
}

int64_t mlir::ff::getConvHaloSlotBytes(int64_t convW, int64_t rows) {
  const int64_t w = convW + 2;
  return ceilDiv(std::max((rows + 2) * w, 2 * w + 2 + 64) * 128, 1024) * 1024;
}

int64_t mlir::ff::getHaloGemmRows(int64_t h, int64_t w, int64_t c, int64_t bm,
                                  int64_t bn, int64_t smemBytes) {
  if (w + 2 > 64 || c % 64 != 0 || c < 128 || (bm != 64 && bm != 128) ||
      bn % 64 != 0)
    return 0;
  const int64_t rows = getConvTileImageRows(h, w + 2, 64);
  if (rows * (w + 2) < 56)
    return 0;
  // Two halo slots and three tap slots.
  return getHaloGemmLayout(w, rows, bm, bn, smemBytes).tapStages >= 3 ? rows
                                                                      : 0;
}

HaloGemmLayout mlir::ff::getHaloGemmLayout(int64_t w, int64_t rows, int64_t bm,
                                           int64_t bn, int64_t smemBytes) {
  HaloGemmLayout l;
  l.haloBytes = (bm / 64) * getConvHaloSlotBytes(w, rows);
  l.tapBytes = 3 * bn * 64 * 2;
  l.haloStages = 3 * l.haloBytes + 6 * l.tapBytes <= smemBytes ? 3 : 2;
  l.tapStages = std::min<int64_t>(12, (smemBytes - l.haloStages * l.haloBytes) /
                                          l.tapBytes);
  return l;
}

int64_t mlir::ff::getHaloGemmRows(const ChainDesc &chain, const Plan &plan,
                                  int64_t smemBytes) {
  if (!chain.convW || chain.hasSecondGemm() || chain.isGated() ||
      plan.cls(Dim::n) * plan.cls(Dim::k) != 1 ||
      plan.blk(Dim::k) * getByteWidth(chain.dtype) != 128)
    return 0;
  return getHaloGemmRows(chain.convH, chain.convW, chain.k / 9,
                         plan.blk(Dim::m), plan.blk(Dim::n), smemBytes);
}

int64_t mlir::ff::getConvHaloSmemBytes(const ChainDesc &chain, const Plan &plan,
                                       int64_t stages) {
  // The resident layout with the plan's A stages replaced by halo slots.
  return getResidentBytes(chain, plan,
                          stages * (plan.blk(Dim::m) / 64) *
                              getConvHaloSlotBytes(chain.convW));
}

int64_t mlir::ff::getConvHaloStages(const ChainDesc &chain, const Plan &plan,
                                    const Dataflow &flow,
                                    const GpuTarget &target) {
  const int64_t bm = plan.blk(Dim::m), b = getByteWidth(chain.dtype);
  if (!chain.convW || bm != 128 || plan.blk(Dim::k) * b != 128 ||
      chain.convW + 2 > 256 || (chain.k / 9) % 64 != 0 ||
      getConvTileImageRows(chain.convH, chain.convW, bm) != 2 ||
      !keepsWeightsResident(chain, plan, flow, target))
    return 0;
  for (int64_t stages = plan.stages; stages >= 2; --stages)
    if (getConvHaloSmemBytes(chain, plan, stages) <= getKernelSmemBytes(target))
      return stages;
  return 0;
}

/// The shuffle family's second GEMM: 64-row n steps of D per CTA, in l
/// sub-tiles of `sub` columns.
static int64_t getShuffleSubTile(const Plan &plan) {
  return std::min<int64_t>(plan.blk(Dim::l), kShuffleSubTile);
}
static int64_t getShuffleSteps(const Plan &plan) {
  return ceilDiv(plan.blk(Dim::l), getShuffleSubTile(plan)) *
         (plan.cls(Dim::n) * plan.blk(Dim::n) / 64);
}

/// A streamed halo GEMM's A bytes per 64-wide k step, as a fraction of
/// blk_m rows: each warpgroup's R + 2 rows of W + 2 pixels per 64 channels
/// (nine k steps); 1 for every other kernel (`rows` = 0).
static double getHaloAScale(const ChainDesc &chain, const Plan &plan,
                            int64_t rows) {
  if (!rows)
    return 1.0;
  const int64_t bm = plan.blk(Dim::m);
  return (bm / 64) * double(rows + 2) * (chain.convW + 2) / (9.0 * bm);
}

double mlir::ff::getStreamReuse(const ChainDesc &chain, const Plan &plan,
                                const GpuTarget &target) {
  const double b = getByteWidth(chain.dtype);
  if (!chain.hasSecondGemm()) {
    // One GEMM: each CTA streams its k tiles (a split K's share) of A and
    // B; the chain holds A, B and C.
    const int64_t m = std::max<int64_t>(chain.m, 1);
    const int64_t bm = plan.blk(Dim::m), bn = plan.blk(Dim::n);
    const int64_t clsK = plan.cls(Dim::k);
    // A gated pair streams both weights' tiles and holds both.
    const int64_t ga = chain.getAOperands(), gb = chain.getBOperands();
    // A streamed halo GEMM's halo; B shared by a cluster along m.
    const double aScale = getHaloAScale(
        chain, plan, getHaloGemmRows(chain, plan, getKernelSmemBytes(target)));
    const double cta = ceilDiv(ceilDiv(chain.k, 64), clsK) * 64.0 *
                       (aScale * bm * ga + double(bn * gb) / plan.cls(Dim::m)) *
                       b;
    const double unique =
        (double(m) * chain.k * ga + double(chain.k) * chain.n * gb +
         double(m) * chain.n) *
        b;
    return std::max(1.0, getKernelCtas(chain, plan, target) * cta / unique);
  }
  const int64_t g = chain.getNumUpProjections();
  const int64_t m = std::max<int64_t>(chain.m, 1);
  const int64_t bm = plan.blk(Dim::m), bn = plan.blk(Dim::n);
  const int64_t bk = plan.blk(Dim::k), bl = plan.blk(Dim::l);
  // What one CTA streams: its GEMM0 ring (a gathered split K's share of
  // k, in 64-wide steps as estimateCtaNs runs it), then D (the second
  // GEMM).
  const double kStream =
      plan.splitsGatheredK()
          ? ceilDiv(ceilDiv(chain.k, 64), plan.cls(Dim::k)) * 64.0
          : double(ceilDiv(chain.k, bk) * bk);
  double cta = kStream * double(bm + bn * g) * b;
  cta += plan.isShuffleFamily()
             ? getShuffleSteps(plan) * 64.0 * getShuffleSubTile(plan) * b
             : ceilDiv(chain.l, bl) * double(bn * bl) * b;
  // Streamed n: the CTA streams A, its B tile and D tile per n tile (of
  // its share of the n loop).
  if (plan.streamsN(chain))
    cta *= ceilDiv(chain.n, bn * plan.cls(Dim::n));
  // What the chain holds: A (a 3x3 convolution's A is im2col of an image
  // 9x smaller), the weights and the output.
  double a = double(m) * chain.k * b;
  if (chain.convW)
    a /= 9;
  const double unique = a + double(chain.k) * chain.n * g * b +
                        double(chain.n) * chain.l * b + double(m) * chain.l * b;
  return std::max(1.0, getKernelCtas(chain, plan, target) * cta / unique);
}

/// Whether a solo plan fills a wave or more: its CTAs then run at the
/// streamed family's rates (getCtaStreamGbps, estimateCtaNs).
static bool isWaveSolo(const ChainDesc &chain, const Plan &plan,
                       const GpuTarget &target) {
  return plan.isSolo(chain) && getKernelCtas(chain, plan, target) >= target.sms;
}

/// One CTA's stream rate (B/ns) while `active` CTAs share HBM and L2
/// (estimateCtaNs).
static double getCtaStreamGbps(const ChainDesc &chain, const Plan &plan,
                               const GpuTarget &target, int64_t active) {
  const KernelFit &k = target.kernel;
  const bool two = chain.hasSecondGemm();
  // bytes / (GB/s) = ns: one SM's stream, capped by its share among the
  // `active` CTAs of the L2's stream rate and of HBM. Only the chain's
  // unique bytes come from HBM; the kernel streams each of them `reuse`
  // times on average (m tiles re-reading the weights, n tiles re-reading A),
  // and the re-reads hit L2. (Charging every streamed byte to HBM made the
  // model prefer fewer, larger CTAs: G9's first choice measured 1.46x the
  // fastest plan, docs/cost-model.md.)
  // Single GEMMs take the reuse term too, with their own HBM efficiency,
  // ring latency and wgmma rate (gemm*: fitted on a short-M GEMM-4096
  // sweep) and no l2Gbps term (the FFN fit that set it has no GEMM in it;
  // at M = 256 a GEMM's CTAs drew 5.5 TB/s from L2). With the plain HBM
  // share and the FFN constants the split-K pair 128 x 256 chosen at
  // M = 256 ran 1.38x the fastest plan, and the dynamic-M tables of
  // GEMM-4096/8192 1.45x the new ones at M >= 1024 (docs/validation.md,
  // twenty-second session).
  const double hbmShare = target.hbmGbps *
                          (two ? k.hbmEfficiency : k.gemmHbmEfficiency) /
                          double(active);
  // Streamed-n plans read the same tiles in every CTA at once: their own
  // L2 and wgmma rates. So do solo plans of a full wave or more (each CTA
  // runs its m tile's chain alone, as a streamed CTA does without its n
  // loop, and its l chunks have no cluster exchange): at the cluster
  // family's rates and chunk cost the model chose C6-b32's and C5-b32's
  // plans at 1.34x and 1.31x the fastest of their solo plans (H100,
  // docs/validation.md, twenty-third session). Fewer solo CTAs keep the
  // cluster family's rates: at the streamed ones a solo plan of G2 (2
  // CTAs) measured 1.54x the fastest and one of C7-b32 (49) 1.79x.
  const double l2 = plan.streamsN(chain) || isWaveSolo(chain, plan, target)
                        ? k.streamL2Gbps
                        : k.l2Gbps;
  const double streamShare = hbmShare * getStreamReuse(chain, plan, target);
  return two ? std::min({k.smGbps, l2 / double(active), streamShare})
             : std::min(k.smGbps, streamShare);
}

double mlir::ff::estimateKernelNs(const ChainDesc &chain, const Plan &plan,
                                  const Dataflow &flow,
                                  const GpuTarget &target) {
  const KernelFit &k = target.kernel;
  // The cluster: along n, for a split-K GEMM along k, or for a streamed
  // halo GEMM along m.
  const int64_t c = plan.cls(Dim::m) * plan.cls(Dim::n) * plan.cls(Dim::k);
  // A 3x3 convolution's m tile is whole image rows: up to blk_m pixels.
  const int64_t ctas = getKernelCtas(chain, plan, target);
  if (ctas <= 0)
    return std::numeric_limits<double>::infinity();
  // CTAs resident at once. Every CTA does the same work, so a grid of
  // more CTAs than slots runs in whole waves: a tail of a few clusters
  // costs a full CTA time (at the stream rate of the few CTAs it has), not
  // its fraction of a wave. Clusters never straddle GPCs, so the slots of
  // an uneven chip are fewer than SMs / c (GpuTarget::gpcSms).
  // A single GEMM streams its operands: two co-resident CTAs of a cluster
  // pack onto one SM and halve the SMs that stream (a split-K cluster of 4
  // at two CTAs per SM ran 28.5 us where a cluster of 2 at one per SM ran
  // 19.7, docs/validation.md), so its slots are counted at one per SM.
  // So does a streamed n split over a cluster: its point is to give idle
  // SMs a share of the n loop (T3-k64-n2048 at M = 4096 on an H100: 14.3 us
  // split over 2 CTAs on 128 SMs, 20.1 over 4 at two CTAs per SM).
  const int64_t perSm = chain.hasSecondGemm() && !plan.splitsStreamedN(chain)
                            ? std::max<int64_t>(flow.ctasPerSm, 1)
                            : 1;
  const int64_t slots = target.getMaxActiveClusters(c, perSm) * c;
  if (slots <= 0)
    return std::numeric_limits<double>::infinity();
  if (runsPersistent(chain, plan, flow, target)) {
    // The CTA with the most tiles runs them back to back: each tile after
    // its first finds its first stage loaded (the producer ran ahead while
    // the consumers finished the previous tile: one ring latency hidden),
    // and only its last tile's E store is exposed.
    const int64_t tiles = ceilDiv(ctas, slots);
    const double bw = getCtaStreamGbps(chain, plan, target, slots);
    const double eStore = plan.blk(Dim::m) * double(plan.blk(Dim::l)) *
                          getByteWidth(chain.dtype) / bw;
    // A streamed CTA's time already ends in its E store; a solo one's
    // (not alone) does not.
    // A conv halo loads 3 (W + 2) rows per warpgroup and 64 channels
    // where nine boxes load 9 W. Its ring is shallower (two whole-tile
    // slots per warpgroup for C5-b32) but runs a tile ahead: the plan's
    // depth is kept (Little's law over the halved ring priced C5-b32's halo
    // plan above a plan that measured 1.7x slower).
    const double aScale =
        getConvHaloStages(chain, plan, flow, target)
            ? 6.0 * (chain.convW + 2) / (9.0 * plan.blk(Dim::m))
            : 1.0;
    double cta = estimateCtaNs(chain, plan, target, slots, false, aScale);
    if (plan.streamsN(chain))
      cta -= eStore;
    return k.launchNs + tiles * cta - (tiles - 1) * k.streamLatencyNs + eStore;
  }
  const int64_t fullWaves = ctas / slots, tail = ctas % slots;
  double waves = 0;
  if (fullWaves)
    waves += fullWaves * estimateCtaNs(chain, plan, target, slots, perSm == 1);
  if (tail)
    waves += estimateCtaNs(chain, plan, target, tail,
                           perSm == 1 || tail <= target.sms);
  // A gated pair's lone consumer warpgroup past one wave (KernelFit).
  if (!chain.hasSecondGemm() && chain.isGated() && plan.blk(Dim::m) == 64 &&
      ctas > slots)
    waves *= k.gemmGatedLoneWaveFactor;
  return k.launchNs + waves;
}

double mlir::ff::estimateCtaNs(const ChainDesc &chain, const Plan &plan,
                               const GpuTarget &target, int64_t active,
                               bool alone, double aScale) {
  const KernelFit &k = target.kernel;
  const double b = getByteWidth(chain.dtype);
  const int64_t g = chain.getNumUpProjections();
  const int64_t c = plan.cls(Dim::n);
  const int64_t bm = plan.blk(Dim::m), bn = plan.blk(Dim::n);
  // A split K's blk_k is the CTA's k slice, run in 64-wide steps.
  const int64_t clsK = plan.cls(Dim::k);
  const bool two = chain.hasSecondGemm();
  const bool gemmSplitK = !two && clsK > 1;
  const bool splitK = gemmSplitK || plan.splitsGatheredK();
  const int64_t bk = splitK ? 64 : plan.blk(Dim::k);
  const int64_t kSteps =
      splitK ? ceilDiv(ceilDiv(chain.k, bk), clsK) : ceilDiv(chain.k, bk);
  // Streamed and solo plans (of a full wave) take the streamed family's
  // rates (getCtaStreamGbps).
  const bool streamed = plan.streamsN(chain);
  const bool solo = isWaveSolo(chain, plan, target);
  const double bw = getCtaStreamGbps(chain, plan, target, active);
  // One consumer warpgroup (64-row tiles) issues its wgmmas alone, unless
  // a streamed plan splits the tile's columns over two.
  const bool oneWarpgroup = bm == 64 && !plan.splitsColumns(chain);
  // A swapped product of up to gemmSwappedRateMaxRows token rows runs its
  // wgmmas at its own measured rate (KernelFit::gemmSwappedTflops).
  const double gemmTflops =
      chain.swappedProduct && chain.n <= k.gemmSwappedRateMaxRows
          ? k.gemmSwappedTflops
          : k.gemmTflops;
  const double tflops = !two               ? gemmTflops
                        : streamed || solo ? k.streamTflops
                                           : k.smTflops;
  const double flopsPerNs =
      tflops * 1e3 * (oneWarpgroup ? k.oneWarpgroupRate : 1.0);

  // A streamed halo GEMM: its halo's share of a k step's A, B shared by a
  // cluster along m, and a tap ring deeper than the plan's stages.
  const int64_t haloRows =
      two ? 0 : getHaloGemmRows(chain, plan, getKernelSmemBytes(target));
  if (haloRows)
    aScale = getHaloAScale(chain, plan, haloRows);
  const int64_t clsM = plan.cls(Dim::m);
  // GEMM0 mainloop: per k step the larger of the stage's bytes and its
  // wgmmas, plus a fixed hand-off cost (full/empty barriers, TMA latency).
  const int64_t ga = chain.getAOperands(), gb = chain.getBOperands();
  const double stage = (aScale * bm * bk * ga + bk * bn * gb) * b;
  // What the CTA draws from L2 (a cluster along m multicasts B).
  const double drawn =
      (aScale * bm * bk * ga + double(bk * bn * gb) / clsM) * b;
  const double mma0 = 2.0 * bm * bn * bk * g / flopsPerNs;
  // A single GEMM's k step also waits on the SM's shared-memory port: the
  // TMA writes the stage and each consumer warpgroup's wgmmas read its 64
  // rows of A and all of B (narrow tiles read B more often per flop; a
  // gated pair reads A once per weight).
  const double smem =
      two ? 0.0
          : (stage + g * (bm * bk + (bm / 64) * bk * bn) * b) / k.gemmSmemGbps;
  // While the consumers hold one stage of the ring the others load: below
  // smGbps · streamLatencyNs bytes in flight the stream is latency-bound
  // (Little's law). Counting all `stages` priced 2-stage rings like 4-stage
  // ones where they measured up to 27 % slower (S2, S8 on an H100). A
  // single GEMM's consumers hold a stage only while its wgmmas (or their
  // shared-memory reads) run, a fraction of the latency when the stream
  // binds: one whole stage held priced 4-stage split-K rings of 32 KB
  // stages at 48 B/ns per SM where they streamed 74 (S2's and S4's down
  // GEMMs, 1.17-1.23x the fastest plan; docs/validation.md, twenty-eighth
  // session).
  // A split K whose CTAs fit one wave streams at a shorter latency
  // (KernelFit::gemmSplitKStreamLatencyNs).
  const bool oneWaveSplitK =
      gemmSplitK && getKernelCtas(chain, plan, target) <= target.sms;
  const double latency = two             ? k.streamLatencyNs
                         : oneWaveSplitK ? k.gemmSplitKStreamLatencyNs
                                         : k.gemmStreamLatencyNs;
  const double held =
      two ? 1.0 : std::min(1.0, std::max(mma0, smem) / std::max(latency, 1.0));
  double depth = plan.stages;
  // Every active CTA of a single GEMM draws its stage from L2, an aggregate
  // ceiling (KernelFit::gemmL2Gbps); a halo's boxes at their own rate.
  double l2 = two ? 0.0 : drawn * active / k.gemmL2Gbps;
  if (haloRows) {
    // The kernel sizes its rings itself: a tap slot is three k steps. Its
    // halo boxes and B tiles come from L2 at gemmHaloL2Gbps in all.
    depth = 3 * getHaloGemmLayout(chain.convW, haloRows, bm, bn,
                                  getKernelSmemBytes(target))
                    .tapStages;
    l2 = drawn * active / k.gemmHaloL2Gbps;
  }
  const double inFlight = std::max(depth - held, 1.0);
  const double bw0 = std::min(bw, inFlight * stage / std::max(latency, 1.0));
  double cta = kSteps * (std::max({drawn / bw0, l2, mma0, smem}) + k.kStepNs);
  // A single GEMM's lone consumer warpgroup (KernelFit).
  const double lone = oneWarpgroup ? k.gemmLoneWarpgroupFactor : 1.0;
  if (gemmSplitK) {
    // The cluster reduce-scatters its fp32 tiles (c - 1 slices per rank
    // over DSM; two cluster barriers for a pull, one for the kernels'
    // default push, which measured within 2 % of the pull on these
    // plans), then each rank stores its 1/c of the tile.
    // A gated pair reduces gate's tile, then up's.
    const double dsmPerSm = double(target.getDsmGbps(clsK)) / target.sms;
    return lone * (cta +
                   g * ((clsK - 1) * bm * (bn / clsK) * 4.0 / dsmPerSm +
                        2 * k.barrierNs * std::log2(double(clsK))) +
                   bm * (bn / clsK) * b / bw);
  }
  if (!two)
    return lone * (cta + bm * bn * b / bw);

  const int64_t bl = plan.blk(Dim::l);
  const bool workspace = plan.grd(Dim::n) > 1;
  if (streamed) {
    // Streamed n: each n tile runs GEMM0, act(C) into shared memory and the
    // second GEMM over its D tile (the producer meanwhile loads the next
    // tile's operands); E stays in registers and is stored once.
    const double dTile = bn * double(bl) * b;
    const double mma1 = 2.0 * bm * bl * bn / flopsPerNs;
    const double tiles =
        ceilDiv(chain.n, bn * c) *
        (cta + std::max(dTile / bw, mma1) + bm * bn * k.streamElementNs);
    // Split over c > 1 CTAs: E's fp32 partials are reduce-scattered once (a
    // pull of c - 1 slices between two cluster barriers); then each rank
    // stores its 1/c of the columns.
    const double pull = c > 1 ? (c - 1) * bm * double(bl / c) * 4.0 /
                                    (double(target.getDsmGbps(c)) / target.sms)
                              : 0.0;
    const double barriers =
        c > 1 ? 2 * k.barrierNs * std::log2(double(c)) : 0.0;
    return tiles + pull + barriers + bm * double(bl / c) * b / bw;
  }
  if (plan.isShuffleFamily()) {
    // Shuffle family: the gather pulls c - 1 act(C) slices over DSM (at
    // the cluster's per-SM DSM rate) between two cluster barriers; then
    // every 64-row n step of D for each l sub-tile streams its bytes (or
    // runs its wgmmas) plus a fixed hand-off; each sub-tile is reduced from
    // registers into the workspace.
    // Split K: first each k group's reduce-scatter of its fp32 partials (a
    // pull between two cluster barriers), then the gather of the cluster's
    // c * cls_k slices of blk_n / cls_k columns (or rows).
    const int64_t sub = getShuffleSubTile(plan);
    const int64_t ranks = c * clsK;
    const double dsmPerSm = double(target.getDsmGbps(ranks)) / target.sms;
    const double syncs = 2 * k.barrierNs * std::log2(double(ranks));
    if (clsK > 1)
      cta += (clsK - 1) * bm * double(bn / clsK) * 4.0 / dsmPerSm + syncs;
    cta += (ranks - 1) * bm * double(bn / clsK) * b / dsmPerSm + syncs;
    const double dStep = 64.0 * sub * b;
    const double mma1 = 2.0 * bm * sub * 64 / flopsPerNs;
    cta +=
        getShuffleSteps(plan) * (std::max(dStep / bw, mma1) + k.shuffleStepNs);
    if (workspace)
      cta += bm * double(bl) * 4.0 * active / k.reduceGbps;
  } else {
    // GEMM1: per l chunk the D tile's bytes or its wgmmas plus the partial
    // tile's fp32 reductions (their L2 throughput shared by every resident
    // CTA), a fixed cost, and the cluster's two barriers.
    const double dChunk = bn * bl * b;
    const double mma1 = 2.0 * bm * bl * bn / flopsPerNs;
    const double reduce =
        workspace ? bm * bl * 4.0 / c * active / k.reduceGbps : 0;
    const double sync = c > 1 ? 2 * k.barrierNs * std::log2(double(c)) : 0;
    cta += ceilDiv(chain.l, bl) * (std::max(dChunk / bw, mma1 + reduce) +
                                   (solo ? k.soloChunkNs : k.chunkNs) + sync);
    // Each l chunk's E store drains under the next chunk's wgmmas; the
    // last one's only under a co-resident CTA's work. Alone on its SM, a
    // solo CTA exposes it (C5-b32 on an H100: a 256-wide chunk measured
    // 1.4x the estimate without it, 64-wide ones 1.0x; docs/validation.md,
    // twenty-fourth session).
    if (solo && alone)
      cta += bm * double(bl) * b / bw;
  }
  if (workspace) {
    // The last arriver reads back the fp32 sums of the columns its rank
    // owns, for the tile's valid rows only, a few loads in flight per
    // thread: latency-bound, so its time grows with those bytes (G7's
    // profile: 17 % of the consumer warps' samples, docs/validation.md).
    // Without this term the model preferred plans with wider per-rank
    // slices and fewer clusters (G9's choice measured 1.30x the fastest).
    const int64_t rows =
        std::min(chain.getMTileRows(bm, isGemmCluster(chain, plan)),
                 std::max<int64_t>(chain.m, 1));
    const double owned = plan.isShuffleFamily()
                             ? double(bl)
                             : ceilDiv(chain.l, bl) * double(bl) / c;
    cta += k.finisherNs + rows * owned * 4.0 / k.finisherGbps;
    // Every cluster of the tile counts itself in (fences, one counter's
    // atomics) and the last arriver waits for the slowest: more planes,
    // more of both (C3-b1's plan of 8 planes measured 1.14x one of 4 the
    // model ranked below it, S8's 1.09x, docs/cost-model.md).
    cta += k.countInNs * plan.grd(Dim::n);
  }
  // Deterministic planes: the last arriver reads every cluster's plane of
  // the L / c columns it owns (both families), not one summed tile (not
  // yet measured: the extra reads at the per-SM stream rate).
  if (workspace && plan.deterministic)
    cta += (plan.grd(Dim::n) - 1) * bm * double(chain.l) / c * 4.0 / bw;
  return cta;
}

double mlir::ff::estimateSequenceIntermediateNs(int64_t m, int64_t n,
                                                int64_t bytesPerElement,
                                                const GpuTarget &target) {
  const double bytes = double(m) * double(n) * double(bytesPerElement);
  if (bytes <= double(target.l2Bytes))
    return 0.0;
  return 2.0 * bytes / (target.hbmGbps * target.hbmEfficiency);
}

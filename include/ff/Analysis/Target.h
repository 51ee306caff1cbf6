//===- Target.h - Hopper hardware table for the schedule search -*- C++ -*-===//
//
// Part of the FlashFuser project.
//
// A POD database of the GPUs the cost model knows (IREE KnownTargets style),
// plus the DSM calibration file that replaces the documented defaults by
// measurements. Pure C++: no MLIR IR dependency.
//
//===----------------------------------------------------------------------===//

#ifndef FF_ANALYSIS_TARGET_H
#define FF_ANALYSIS_TARGET_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>

namespace mlir::ff {

/// Element types the cost model distinguishes (tensor-core peak and bytes).
enum class DType { bf16, f16, f32, f8 };

/// Bytes per element of `t`.
int64_t getByteWidth(DType t);

/// DSM figures are tabulated for cluster sizes 2, 4, 8 and 16.
inline constexpr std::array<int64_t, 4> kDsmClusterSizes = {2, 4, 8, 16};

/// Index into the DSM tables for `clusterSize` (a power of two in [2, 16]);
/// -1 for 1 (no DSM traffic) or an invalid size.
int getDsmIndex(int64_t clusterSize);

/// The measured run-time model of FlashFuser's own kernel family (the
/// warp-specialised FFN/GEMM kernels of --lower-to-nvvm): constants fitted
/// on an H100 to 470 timed plans of 41 workloads, both families
/// (docs/benchmarks/fidelity-h100-s18.csv) by scripts/bench/fit-kernel-model.py
/// with its choice objective (--objective choice); the stream cap, the HBM
/// efficiency, the launch cost and the wgmma rates are held, not fitted.
/// docs/cost-model.md §"Kernel-family model" states the formula and the fit.
struct KernelFit {
  double smGbps = 100;          ///< cap on one SM's TMA stream, bytes per ns
  double hbmEfficiency = 0.625; ///< of hbmGbps the family streams in total
  /// Aggregate L2 -> SM stream rate of the family (bytes per ns): the cap
  /// on re-read bytes, which the HBM share does not limit.
  double l2Gbps = 3620;
  double smTflops = 3.356; ///< achieved bf16 wgmma rate of one SM
  /// The wgmma rate of a CTA with one consumer warpgroup (blk_m = 64) over
  /// that of two.
  double oneWarpgroupRate = 0.8159;
  double kStepNs = 0;           ///< fixed cost of one mainloop k step
  double chunkNs = 1873;        ///< fixed cost of one l chunk of GEMM1
  /// The same for a solo plan (Plan::isSolo): its chunk has no cluster
  /// reduce-scatter, only the D wait and E's stores (fitted on 72 timed
  /// solo plans of C5-C7 on an H100, docs/cost-model.md).
  double soloChunkNs = 600;
  double reduceGbps = 7247;     ///< aggregate fp32 workspace reductions
  double barrierNs = 220.1;     ///< per cluster barrier and log2(cluster)
  double finisherNs = 2485;     ///< workspace count-in and last-arriver cast
  /// The last arriver's read-back of the fp32 sums it casts (bytes per ns
  /// of one CTA): its loads are latency-bound, a few in flight per thread.
  double finisherGbps = 28.78;
  /// Per cluster counted in on a workspace tile (grid_n of them): their
  /// gpu-scope fences and atomics on one counter, and the last arriver
  /// waits for the slowest of them.
  double countInNs = 163.2;
  double launchNs = 2000;       ///< back-to-back launch of one kernel
  /// Fixed cost of one 64-row n step of the shuffle family's second GEMM
  /// (a D-only stream through a ring of up to four stages); the fit drives
  /// it to 0.
  double shuffleStepNs = 0;
  /// Streamed-n plans (fitted on 19 T3 and conv kernels on an H100,
  /// docs/cost-model.md): act(C) of one element of an n tile (the
  /// epilogue's ALU work, which the two consumer warpgroups do not hide
  /// behind each other's wgmmas), the wgmma rate of one SM (long
  /// uninterrupted chains: the dense peak), and the aggregate L2 -> SM
  /// rate, the CTAs reading the same B and D tiles at about the same time
  /// (6.8 TB/s measured without being the bound).
  double streamElementNs = 0.06;
  double streamTflops = 7.5;
  double streamL2Gbps = 10000;
  /// Latency one in-flight stage of the mainloop ring covers: of S stages
  /// of B bytes the consumers hold one, so the ring streams at most
  /// max(S - 1, 1)·B / streamLatencyNs bytes per ns (Little's law), which
  /// is what makes shallow rings slow.
  double streamLatencyNs = 670;
  /// Single GEMMs: the latency streamLatencyNs stands for in their rings.
  /// A short-M GEMM-4096 sweep on an H100 (docs/validation.md,
  /// twenty-second session) streamed per CTA what (S - 1) stages cover in
  /// about 2 us (128 x 256 tiles 66-73 GB/s, 64 x 256 58-62, 128 x 128
  /// 43-52 at four stages), far below smGbps, while its L2 served several
  /// times the HBM rate (A and the B panels re-read by other CTAs).
  double gemmStreamLatencyNs = 2000;
  /// The same for a split-K single GEMM whose CTAs fit one wave. The H100
  /// entries keep gemmStreamLatencyNs: on an H100 the twenty-seventh
  /// session's sweep ran GEMM-4096 at M = 16-128 fastest on the plans that
  /// latency picks, and 1700 would take splits over 2 there that measured
  /// 1.26-1.31x slower. The h200 entry takes 1700: on an H200 S6's down
  /// GEMM at M = 440 split over 2 on 128 x 128 tiles (4 stages of 32 KB)
  /// ran a k step in about 370 ns, not the 530 that 2000 prices, 1.06x
  /// faster than over 4 on 128 x 256 (the pick); over the 51 single GEMMs
  /// timed alone on an H200 (fifty-sixth and fifty-eighth sessions) the
  /// picks went from 1.026x to 1.016x the fastest in geomean; with the
  /// default model so changed, 40 of 43 points of the 12 tables and
  /// GEMM-4096 it moves ran 1.00-1.25x faster on an H200, S8 at 680-800
  /// 0.98-0.99x. For every single GEMM (past one wave too) it moved 171
  /// kernels of 14 tables and lost up to 1.3x (G7 at small M, G4 at 3000,
  /// S7 at 1500; docs/validation.md, fifty-eighth session).
  double gemmSplitKStreamLatencyNs = 2000;
  /// Single GEMMs: of hbmGbps their CTAs stream in total (the unique bytes;
  /// the same sweep reached 2.3-2.6 TB/s of them on one wave).
  double gemmHbmEfficiency = 0.8;
  /// Single GEMMs: the achieved wgmma rate of one SM (TFLOP/s). smTflops
  /// is the FFN fit's, which also absorbs their epilogues and exchanges.
  /// Fitted with gemmSmemGbps on 111 timed plans of 16 single GEMMs (M =
  /// 16 to 8192) on an H100 (docs/benchmarks/gemm-sweep-h100-s27.csv,
  /// scripts/bench/fit-gemm-model.py; the twenty-second session's 5.6 had
  /// no shared-memory term).
  double gemmTflops = 4.938;
  /// The same for a swapped product (ChainDesc::swappedProduct: weights as
  /// wgmma's m, tokens as its n). G5's up GEMM at M = 930 sustained 5.9
  /// per SM on 240-token tiles and waited on L2 (ncu: tensor pipe 87 %
  /// active), 1.07x faster than on 192 tokens, which gemmTflops prices as
  /// a tie of two wgmma-bound plans. From 5.8 up, where the L2 and port
  /// terms bind, the model's choice among 332 timed plans of 48 single
  /// GEMMs at M = 300-6000 (H200, docs/benchmarks/gemm-sweep-h200-s56.csv)
  /// went from 1.025x to 1.019x the fastest (G5's, G8's and S1's swapped
  /// picks); the plain family at 6.0 took 128 x 256 tiles that ran 4-13 %
  /// slower there and its tables' chains up to 1.21x slower
  /// (docs/validation.md, fifty-sixth session). Up to
  /// gemmSwappedRateMaxRows token rows.
  double gemmSwappedTflops = 6.0;
  /// The most token rows (a swapped product's n) whose wgmmas run at
  /// gemmSwappedTflops; more take gemmTflops. The swapped rate's picks ran
  /// G4's, G5's, G8's, S1's, S3's and S8's chains 1.02-1.24x faster at M =
  /// 350-930 on an H200, but G5's 0.96x at 1000 and at 1500-10000 up to
  /// 0.87x (G8 at 1500).
  double gemmSwappedRateMaxRows = 960;
  /// Single GEMMs: one SM's shared-memory port (bytes per ns), which the
  /// TMA's writes of a stage and the consumer warpgroups' wgmma reads of it
  /// (each its 64 rows of A and all of B) share. Without it 128 x 128 tiles
  /// tied with 128 x 256 ones at 4096^3 and 8192^3 and measured 1.25-1.37x
  /// slower.
  double gemmSmemGbps = 180.0;
  /// Single GEMMs: the factor on a CTA of one consumer warpgroup (a 64-row
  /// tile). Against a 128-row tile of half the width at the same CTA count
  /// the terms above come out even (same bytes per CTA, the port and wgmma
  /// rate apart), and the 128-row tile measured faster in 11 of 11 such
  /// pairs on an H100, 1.01-1.28x (docs/validation.md, twenty-eighth
  /// session); one warpgroup issues every wgmma and runs the epilogue and
  /// a split K's reduction alone. A tie-break (1 %): 3 % or more loses the
  /// 64 x 64 plans that win by CTA count (GEMM-4096 at M = 128).
  double gemmLoneWarpgroupFactor = 1.01;
  /// Single GEMMs: the factor on a gated pair's 64-row tiles (one consumer
  /// warpgroup) whose CTAs take more than one wave. Each round ends in the
  /// warpgroup's silu(gate) * up over its 64 rows, as a 128-row tile's
  /// round does over twice the rows: past one wave the 64-row tiles run
  /// more rounds for the same rows. The wgmma and port terms priced S6's
  /// gated GEMM at M = 440 on 64 x 128 tiles (3.7 waves) 0.92x the 128 x
  /// 128 tiles (2.1), which measured 1.02-1.06x faster, and at 700-930
  /// (S6, S7, S1, S3) the pairs' ratio 1.2-1.4x within 2-12 % of measured;
  /// with the factor S6's chain at M = 400-448 ran 1.04-1.05x faster. In
  /// one wave it does not hold: applied there, S8's at 257-320 moved onto
  /// 128 x 72 tiles and ran 0.99x (H200, docs/validation.md, fifty-eighth
  /// session).
  double gemmGatedLoneWaveFactor = 1.12;
  /// Single 3x3-convolution GEMMs with a streamed halo (getHaloGemmRows):
  /// the aggregate rate (GB/s) at which L2 serves their halo boxes and B
  /// tiles. C8-b32's 3x3 GEMM at 128 x 64 on an H100 (docs/validation.md,
  /// thirty-second session) ran 72 k steps of 10.5 KB per CTA over 128
  /// CTAs in ~21 us, about 4.6 TB/s, above its shared-memory port bound;
  /// sharing B between two m tiles by multicast (6.4 KB drawn per step)
  /// brought it down to that bound. A fit of that one kernel pair.
  double gemmHaloL2Gbps = 4600;
  /// Single GEMMs: the aggregate rate (GB/s) at which L2 serves the stages
  /// of all active CTAs. Without it a wave of 132 lone-warpgroup CTAs was
  /// priced at its wgmma rate where it streamed ~40 KB per k step at about
  /// 8.6 TB/s in all, taking its three waves as equal (S3's gated GEMM at
  /// M = 256: 64 x 128 ranked first, measured 1.21x the 128 x 64 tile;
  /// G8's down GEMM at M = 512 1.38x). Chosen over
  /// 160 plans of the sequence halves at M = 256-1024 on an H200
  /// (docs/benchmarks/gemm-sweep-h200-s38.csv): 8000-9500 pick the same
  /// plans there and improve or keep both H100 sweeps' picks; 9000 has the
  /// lowest log error on the H100 one.
  double gemmL2Gbps = 9000;
};

/// One GPU. Integers where the `#dsm.target` attribute holds integers.
struct GpuTarget {
  std::string name; ///< e.g. "h100-sxm"
  /// What the CUDA driver calls the part (cudaDeviceProp::name); measured
  /// calibration files may name their target either way.
  std::string deviceName;
  std::string chip; ///< LLVM chip, "sm_90a"
  int64_t sms = 0;
  /// SMs per GPC; a cluster's CTAs all sit in one GPC.
  llvm::SmallVector<int64_t, 8> gpcSms;
  /// Measured co-resident clusters (cluster size, clusters) at one CTA per
  /// SM where the GPC split overestimates them (clusters of 3 and 6 on an
  /// H100: scripts/gpu/cluster_occupancy.cu).
  llvm::SmallVector<std::pair<int64_t, int64_t>, 4> residentClusters;
  int64_t smemPerSm = 0;    ///< bytes
  int64_t smemPerBlock = 0; ///< bytes, opt-in maximum for one CTA
  int64_t smemReserved = 0; ///< bytes of the per-block budget taken by
                            ///< mbarriers and static smem
  /// Bytes the driver reserves per resident CTA on top of its own shared
  /// memory (cudaDevAttrReservedSharedMemoryPerBlock, 1 KiB on sm_80 and
  /// later): counted against smemPerSm, not against smemPerBlock.
  int64_t smemSystemPerBlock = 1024;
  int64_t regsPerSm = 0;    ///< 32-bit registers
  int64_t maxRegsPerThread = 0;
  int64_t maxThreadsPerSm = 0;
  int64_t maxCluster = 0; ///< portable
  int64_t maxClusterNonportable = 0;
  int64_t clockMhz = 0;
  int64_t hbmGbps = 0; ///< spec HBM bandwidth, GB/s
  int64_t l2Bytes = 0;
  int64_t l2Gbps = 0;             ///< aggregate L2 bandwidth, GB/s
  int64_t smemBytesPerClk = 0;    ///< per SM
  int64_t l2BytesPerClkPerSm = 0; ///< L2 -> SM port of one SM
  int64_t l2ReduceGbps = 0;       ///< aggregate throughput of bulk reductions
                                  ///< (cp.reduce.async.bulk) into L2, GB/s
  int64_t globalLatencyCycles = 0;
  /// Aggregate (whole-GPU) DSM bandwidth in GB/s and remote-smem latency in
  /// cycles, per cluster size 2, 4, 8, 16.
  std::array<int64_t, 4> dsmGbps = {};
  std::array<int64_t, 4> dsmLatencyCycles = {};
  /// Cycles of one mbarrier arrive/wait round across the cluster.
  int64_t clusterBarrierCycles = 0;
  /// Dense tensor-core peaks, TFLOP/s (f32 means TF32).
  int64_t tflopsBf16 = 0, tflopsF16 = 0, tflopsF32 = 0, tflopsF8 = 0;
  /// Fraction of the spec peaks / bandwidths a good kernel reaches.
  double computeEfficiency = 0.8;
  double hbmEfficiency = 0.9;
  /// Launch plus prologue/epilogue of one kernel, ns.
  int64_t launchOverheadNs = 0;
  /// How FlashFuser's own kernels run on this part (measured).
  KernelFit kernel;

  /// Dense tensor-core peak for `t` in TFLOP/s.
  int64_t getPeakTflops(DType t) const;
  /// Aggregate DSM bandwidth (GB/s) at `clusterSize` (>= 2).
  int64_t getDsmGbps(int64_t clusterSize) const;
  /// Remote shared-memory latency (cycles) at `clusterSize` (>= 2).
  int64_t getDsmLatency(int64_t clusterSize) const;
  /// Clusters of `clusterSize` CTAs that can be resident at once, with
  /// `ctasPerSm` CTAs per SM: clusters never straddle GPCs, so SMs of a GPC
  /// that do not fill a whole cluster stay idle; capped by the measured
  /// `residentClusters` (times `ctasPerSm`).
  int64_t getMaxActiveClusters(int64_t clusterSize,
                               int64_t ctasPerSm = 1) const;
  /// CTAs whose shared memory (`blockBytes`: dynamic, static and
  /// mbarriers) fits on one SM at once, the driver's per-CTA reserve
  /// included.
  int64_t getCtasPerSmBySmem(int64_t blockBytes) const {
    return smemPerSm / std::max<int64_t>(blockBytes + smemSystemPerBlock, 1);
  }
  /// Nanoseconds per cycle.
  double getNsPerCycle() const { return 1000.0 / clockMhz; }
};

/// The names of the known targets, default first.
llvm::SmallVector<llvm::StringRef> getKnownTargetNames();

/// The table entry called `name` (h100-sxm, h100-pcie, h200, h800), or an
/// error that lists the known names.
llvm::Expected<GpuTarget> lookupTarget(llvm::StringRef name);

/// Replaces the DSM bandwidth/latency defaults of `target` by the contents
/// of a calibration file:
///   {"target": "h100-sxm",
///    "dsm": [{"cluster": 2, "bandwidth_gbps": 3300, "latency_cycles": 190},
///            ...]}
/// `target` must name `target.name`; entries may cover a subset of the
/// cluster sizes 2, 4, 8, 16; values must be positive. An optional
///   "kernel": {"sm_gbps": 36.15, "k_step_ns": 1361, ...}
/// replaces constants of the kernel-family model (KernelFit; snake_case
/// names; "dsm" may then be left out).
llvm::Error applyCalibration(GpuTarget &target, llvm::StringRef json);

/// Reads `path` and applies it with applyCalibration.
llvm::Error applyCalibrationFile(GpuTarget &target, llvm::StringRef path);

} // namespace mlir::ff

#endif // FF_ANALYSIS_TARGET_H

//===- CostModel.h - dataflow analyzer and cost model -----------*- C++ -*-===//
//
// Part of the FlashFuser project.
//
// FlashFuser's dataflow analyzer (Algorithm 1: per-tier data volumes, greedy
// reg -> smem -> dsm -> global residency of the reused tensors, traffic of
// every dsm_comm collective) and a cost model that extends the paper's
// minimax of volume/bandwidth with tensor-core time, collective and barrier
// latency, launch overhead and wave quantisation. Every formula is written
// down in docs/cost-model.md.
//
//===----------------------------------------------------------------------===//

#ifndef FF_ANALYSIS_COSTMODEL_H
#define FF_ANALYSIS_COSTMODEL_H

#include "ff/Analysis/Plan.h"
#include "ff/Analysis/Target.h"

#include "llvm/ADT/SmallVector.h"

#include <string>

namespace mlir::ff {

/// Bytes moved at each tier, summed over the whole kernel.
struct TierVolumes {
  double hbm = 0;  ///< DRAM
  double l2 = 0;   ///< L2 <-> SM (every global load/store/reduce)
  double dsm = 0;  ///< SM-to-SM (collectives)
  double smem = 0; ///< local shared-memory reads + writes
  double reg = 0;  ///< accumulator bytes kept in registers (not a cost)
};

/// Traffic of one tensor of the chain.
struct TensorTraffic {
  const char *name = ""; ///< A, B, Bu (gated up), C (intermediate), D, E
  double l2Bytes = 0, hbmBytes = 0;
  /// Live bytes per CTA placed on each tier by the greedy placement
  /// (reg, smem, dsm, global); zero for streamed I/O tensors.
  std::array<double, 4> placed = {0, 0, 0, 0};
  Tier residency = Tier::global;
};

/// Traffic of one collective.
struct CollectiveTraffic {
  Collective kind;
  int64_t groupSize = 1;   ///< CTAs taking part
  double bytesPerCta = 0;  ///< received over DSM (or L2 for the
                           ///< inter-cluster reduce), whole kernel
  int64_t stepsPerCta = 0; ///< latency-bound rounds, whole kernel
};

/// Result of the dataflow analyzer for one plan.
struct Dataflow {
  bool feasible = false;
  /// Which rule rejected the plan (empty when feasible).
  const char *reason = "";

  int64_t numCtas = 0, numClusters = 0, clusterSize = 0;
  int64_t consumerWarpgroups = 0, threadsPerCta = 0;
  int64_t regsPerThread = 0; ///< consumer threads, incl. overhead
  int64_t regBudget = 0;     ///< per consumer thread
  int64_t smemBytes = 0;     ///< per CTA, incl. the reserved budget
  int64_t ctasPerSm = 0;

  /// Per-CTA quantities.
  double ctaFlops = 0;   ///< incl. tile padding
  double ctaL2Bytes = 0; ///< loads + stores + reduces through L2
  double ctaDsmBytes = 0;
  double ctaSmemBytes = 0;
  int64_t ctaCollectiveSteps = 0;
  int64_t ctaBarriers = 0;
  int64_t ctaTilePairs = 0; ///< (m, n) tiles a CTA computes
  double stageBytes = 0;    ///< bytes one pipeline stage brings in

  double usefulFlops = 0;
  TierVolumes volume;
  llvm::SmallVector<TensorTraffic, 6> tensors;
  llvm::SmallVector<CollectiveTraffic, 4> collectives;
  /// Residency of each intermediate in chain order (what #dsm.schedule
  /// records): one entry for ffn/chain, two for gated (gate, up), none for
  /// one GEMM.
  llvm::SmallVector<Tier, 2> residency;
  /// Where the fp32 accumulator of E lives (reported, not recorded).
  Tier eAccumulator = Tier::reg;
};

/// Runs the dataflow analyzer (Algorithm 1) on `plan`. Plans that break a
/// capacity rule (registers, shared memory, no co-resident cluster) come
/// back with feasible = false and the reason.
Dataflow analyzeDataflow(const ChainDesc &chain, const Plan &plan,
                         const GpuTarget &target);

/// Cost terms of one plan, all in nanoseconds except where noted.
struct Cost {
  // Paper's minimax over levels (whole kernel, all SMs): V_l / B_l.
  double hbmNs = 0, l2Ns = 0, dsmNs = 0, smemNs = 0;
  double minimaxNs = 0; ///< max of the four above
  // Tensor cores at computeEfficiency of the peak, all SMs.
  double computeNs = 0;
  // Per-CTA (wave) model.
  double ctaComputeNs = 0, ctaMemoryNs = 0, ctaSyncNs = 0, ctaFillNs = 0;
  double ctaNs = 0;
  int64_t maxActiveClusters = 0;
  int64_t fullWaves = 0, tailClusters = 0;
  double wavesNs = 0;
  double launchNs = 0;
  double totalNs = 0;
  /// The kernel-family model (estimateKernelNs) for plans --lower-to-nvvm
  /// carries out; 0 for the rest of the space.
  double kernelNs = 0;
  /// CTAs per SM that model assumed (the kernel's own shared memory).
  int64_t kernelCtasPerSm = 0;
};

/// Estimates the run time of an analysed plan.
Cost estimateCost(const ChainDesc &chain, const Plan &plan,
                  const Dataflow &flow, const GpuTarget &target);

/// What a kernel sequence (an FFN as two GEMM kernels) pays for its
/// intermediate act(C), M x N elements of `bytesPerElement`, beyond the two
/// GEMM estimates: nothing while it fits in L2, else its write and read
/// back at HBM bandwidth. The single-GEMM estimates stream C's store and
/// load at their L2-inflated rates; at M = 16384 two narrow-chain
/// sequences with 64-134 MB intermediates ran 1.25-1.27x their fused plans
/// on an H100 where the estimates put them at 0.76-0.80x.
double estimateSequenceIntermediateNs(int64_t m, int64_t n,
                                      int64_t bytesPerElement,
                                      const GpuTarget &target);

/// Run time of `plan` as FlashFuser's kernel family executes it (the plan
/// must be in that family: cluster along n, spatial m and n, temporal k and
/// l), from the measured constants of `target.kernel`. The search ranks the
/// plans it can lower by this figure; estimateCost stays the analytical
/// model of the whole space.
double estimateKernelNs(const ChainDesc &chain, const Plan &plan,
                        const Dataflow &flow, const GpuTarget &target);

/// Whether the lowering makes `plan`'s kernel persistent and the runtime
/// launches it so (--dsm-materialize=persistent-solo): a plan whose CTA
/// runs its m tile's chain alone (Plan::isSolo, or a streamed n on a
/// cluster of one) at one CTA per SM whose CTAs fill more than one wave of
/// the SMs and at most ff::rt::kMaxPersistentWaves. Each CTA then runs its
/// tiles in turn and the next tile's operands load while the current one
/// finishes; at two CTAs per SM the co-resident CTA hides that already.
bool runsPersistent(const ChainDesc &chain, const Plan &plan,
                    const Dataflow &flow, const GpuTarget &target);

/// Shared memory of a resident-weights kernel, regions in order from offset
/// 0, in bytes: the A ring (`ringBytes`), every k tile of B, the act(C)
/// tile, every l chunk of D and a 16-byte flag; `bytes` is the 1024-aligned
/// total. KernelPlan lays the kernel out by it and the cost model sizes the
/// kernel by it, so the two agree.
struct ResidentLayout {
  int64_t b = 0, c = 0, d = 0, flag = 0, bytes = 0;
};
ResidentLayout getResidentLayout(int64_t ringBytes, int64_t bBytes,
                                 int64_t cBytes, int64_t dBytes);

/// Shared memory of a solo kernel whose weights stay resident
/// (keepsWeightsResident): getResidentLayout of the plan's A ring, every k
/// tile of B (gate and up), the act(C) tile and all of D.
int64_t getResidentWeightsSmemBytes(const ChainDesc &chain, const Plan &plan);

/// Bytes of one warpgroup's halo slot in a conv-halo kernel for images
/// `convW` pixels wide and tiles of `rows` image rows: the rows + 2 loaded
/// rows of W + 2 pixels (128 B each), or the rows the last tap's 64-row
/// window reaches if more (they feed only accumulator rows outside the
/// image, never stored), 1024-aligned.
int64_t getConvHaloSlotBytes(int64_t convW, int64_t rows = 1);

/// Image rows of the row group each consumer warpgroup takes in a single
/// 3x3-convolution GEMM that streams its input halo (images H x W with C
/// input channels, `bm` x `bn` tiles, at most `smemBytes` of shared
/// memory; KernelPlan::useHaloGemm): the largest divisor R of H with
/// R (W + 2) <= 64, where those rows fill at least 56 of the warpgroup's 64
/// accumulator rows (7x7: 63; 14x14 would leave half of them idle), C is
/// two 64-channel halo steps or more, and two halo slots and three filter
/// rows' B tiles fit. 0: nine shifted boxes. With one step (C = 64) the
/// halo's load has nothing to overlap, and on an H100 C5-b1 as a sequence
/// around such a kernel ran 6.2 us in CUDA graphs against 4.85 for the
/// fused plan the model priced 3 % above it (docs/validation.md,
/// thirty-second session).
int64_t getHaloGemmRows(int64_t h, int64_t w, int64_t c, int64_t bm, int64_t bn,
                        int64_t smemBytes);
/// The two rings of a streamed halo GEMM for images `w` pixels wide, row
/// groups of `rows` image rows and `bm` x `bn` bf16 tiles in `smemBytes`:
/// halo slots of `haloBytes` (every consumer warpgroup's halo of 64
/// channels) and tap slots of `tapBytes` (a filter row's three B tiles).
/// Three halo slots where six tap slots still fit beside them, else two;
/// the tap ring takes the rest, up to 12 slots. KernelPlan lays the kernel
/// out by it and the cost model prices the kernel by it.
struct HaloGemmLayout {
  int64_t haloBytes = 0, tapBytes = 0, haloStages = 0, tapStages = 0;
};
HaloGemmLayout getHaloGemmLayout(int64_t w, int64_t rows, int64_t bm,
                                 int64_t bn, int64_t smemBytes);
/// getHaloGemmRows of `plan`'s kernel: a single GEMM (not gated) of a 3x3
/// convolution in 64-wide k steps, with no cluster along n or k (a
/// cluster along m shares B by multicast), in `smemBytes` of shared
/// memory.
int64_t getHaloGemmRows(const ChainDesc &chain, const Plan &plan,
                        int64_t smemBytes);

/// Whether the lowering keeps a persistent solo kernel's weights in shared
/// memory (--dsm-materialize=resident-weights): every tile of a solo plan
/// reads the same B (N = blk_n) and D, so the CTA loads them once and only
/// A streams through the ring per tile. Holds for plans that
/// runsPersistent and whose resident layout fits one CTA.
/// estimateKernelNs prices these kernels as the streaming ones: measured
/// 8-10 % faster on an H100 (C1-b32, C5-b32), while dropping B and D from
/// the model's streamed bytes put them 16-19 % below their measured times
/// (docs/cost-model.md, "Resident weights").
bool keepsWeightsResident(const ChainDesc &chain, const Plan &plan,
                          const Dataflow &flow, const GpuTarget &target);

/// Shared memory of a resident-weights conv-halo kernel (getConvHaloStages)
/// at a ring of `stages`, as KernelPlan lays it out: per stage one halo slot
/// per consumer warpgroup (3 (W + 2) rows of 128 B, or the rows the last
/// tap's 64-row window reaches), then B, the act(C) tile, D and a flag.
int64_t getConvHaloSmemBytes(const ChainDesc &chain, const Plan &plan,
                             int64_t stages);

/// The ring depth of the lowering's conv-halo kernel for `plan`, 0 where it
/// does not apply (--dsm-materialize=conv-halo): a resident-weights
/// (keepsWeightsResident) 3x3 convolution whose 128-row CTA tile is two
/// image rows, one per consumer warpgroup, with W + 2 <= 256. Each
/// warpgroup then walks tiles of its own and reads the nine taps of a 64
/// channel step as windows of one halo (rows h - 1 .. h + 1) instead of
/// nine boxes: 3 (W + 2) rows of A from L2 instead of 9 W. The deepest ring
/// of at most plan.stages (and at least 2) that fits.
int64_t getConvHaloStages(const ChainDesc &chain, const Plan &plan,
                          const Dataflow &flow, const GpuTarget &target);

/// Bytes the kernel family streams into its CTAs (every CTA's GEMM0 ring and,
/// in a two-GEMM chain, its D stream) over the chain's unique bytes (A, the
/// weights, the output), at least 1: how many times the average byte leaves
/// L2 for an SM.
double getStreamReuse(const ChainDesc &chain, const Plan &plan,
                      const GpuTarget &target);

/// One CTA's time in estimateKernelNs while `active` CTAs share HBM and L2;
/// `alone`: no other CTA shares its SM (so none hides its last output).
/// `aScale`: the share of A's ring bytes the kernel loads (a conv halo's
/// 6 (W + 2) / (9 blk_m)).
double estimateCtaNs(const ChainDesc &chain, const Plan &plan,
                     const GpuTarget &target, int64_t active,
                     bool alone = false, double aScale = 1.0);

} // namespace mlir::ff

#endif // FF_ANALYSIS_COSTMODEL_H

//===- KernelPlan.h - what --dsm-materialize can lower ----------*- C++ -*-===//
//
// Part of the FlashFuser project.
//
// The kernel family --dsm-materialize implements and the analysis that maps a
// scheduled dsm.fused_chain onto it. --dsm-search uses isLowerable() to keep
// its plans inside that family.
//
//===----------------------------------------------------------------------===//

#ifndef FF_DIALECT_DSM_TRANSFORMS_KERNELPLAN_H
#define FF_DIALECT_DSM_TRANSFORMS_KERNELPLAN_H

#include "ff/Analysis/Plan.h"
#include "ff/Dialect/DSM/IR/DSMOps.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "llvm/ADT/DenseMap.h"

#include <string>

namespace mlir::dsm {

/// Shared memory a kernel may use for its dynamic buffer (ff's).
constexpr int64_t kMaxDynamicSmemBytes = ff::kMaxDynamicSmemBytes;

/// Threads of one warpgroup.
constexpr int64_t kWarpgroupThreads = 128;

/// A scheduled chain mapped onto the warp-specialized kernel family:
/// 1 TMA producer warpgroup + blk_m/64 wgmma consumer warpgroups.
struct KernelPlan {
  ChainKind kind = ChainKind::gemm;
  ChainShape shape;
  ScheduleAttr schedule;

  /// Block-argument indices of the chain operands. `gemm`: a, b. `ffn`:
  /// a, b (W1), d (W2). `gated_ffn`: a, b (gate), b2 (up), d (down).
  /// `gated_gemm`: a, b (the first matmul's weight), b2 (the second's).
  unsigned argA = 0, argB = 0, argB2 = 0, argD = 0;
  /// Inputs read through a rank-2 tensor.collapse_shape (conv chains): the
  /// [rows, cols] view (-1: dynamic) their TMA descriptors must describe.
  llvm::SmallDenseMap<unsigned, SmallVector<int64_t, 2>> inputViews;
  /// 3x3, stride 1, pad 1 convolutions (A is the im2col of the NHWC chain
  /// input argA): the image extents H, W and channels C of that input and R,
  /// the whole image rows one m tile covers (R * W <= blk_m) where the
  /// kernel tiles m by image rows (ff::usesConvImageRows). convRows = 0
  /// when A is a matrix or read in TMA im2col mode (convIm2col).
  int64_t convH = 0, convW = 0, convC = 0, convRows = 0;
  /// A 3x3 convolution tiled like a GEMM (blk_m consecutive output pixels,
  /// across image rows and images): each k tile of A is one TMA load in
  /// im2col mode of the tile's pixels, shifted by the k tile's filter tap.
  bool convIm2col = false;
  /// The elementwise generic applied to the first GEMM(s) (for `gemm`, the
  /// final one); may be null for `gemm` (store the accumulator).
  linalg::GenericOp firstEpilogue;
  /// FFN kinds and `gated_gemm`: every elementwise generic from the first
  /// GEMM(s) to the bf16 intermediate (`gated_gemm`: to the result), in
  /// def-before-use order (the last one is `firstEpilogue`); `firstLeaves`
  /// are the GEMM results they start from (gate and up for the gated kinds).
  SmallVector<linalg::GenericOp> firstStages;
  SmallVector<Value, 2> firstLeaves;
  /// Whether the weights are stored K-major ([N, K] for B and the gated up
  /// weight, [L, N] for D: PyTorch Linear layout) rather than row-major
  /// [K, N] / [N, L].
  bool bKMajor = false, dKMajor = false;
  /// The elementwise generic applied to the last GEMM of an FFN; may be null.
  linalg::GenericOp lastEpilogue;
  /// Element type of the chain result (bf16 or f32).
  Type resultElementType;
  /// A name for the manifest (gelu_tanh, silu, relu, gelu, identity, ...).
  std::string activation;

  // Tiles and parallelism.
  int64_t bm = 128, bn = 256, bk = 64, bl = 0;
  int64_t stages = 4;
  /// wgmma k16 steps per k tile: 4 (bk = 64) unless K < 64 fits in one tile.
  int64_t k16Steps = 4;
  /// CTAs per cluster along n (the kernel's x cluster extent).
  int64_t clusterN = 1;
  /// CTAs along n for one m tile: clusterN * clusters along n.
  int64_t ctasN = 1;
  /// A GEMM kernel whose last n tile runs past N (ctasN * bn > N, N a
  /// multiple of 8 or 64): B's boxes there are zero-filled by TMA and the
  /// epilogue stores only columns below N.
  bool partialN = false;
  /// Swapped operands (the schedule's swap_ab): the kernel computes C^T =
  /// B^T A^T, so from here on `shape`'s m and n, argA and argB, and bm and
  /// bn describe that product: the weight's [N, K] rows are A's, the
  /// chain's [M, K] input is a K-major B whose bn = blk_m rows per tile
  /// (any multiple of 8) are wgmma's N side, and the epilogue stores each
  /// value at out[col, row]. A single plain or gated GEMM kernel
  /// (gatesA()); with a dynamic M (swapsDynamicM()) its token tiles are
  /// counted at launch.
  bool swapAb = false;
  /// Swapped operands of a dynamic M: the product's n (the chain's M) is
  /// the kernel's i64 argument, its CTAs along n ceil(M / (bn * clusterN))
  /// * clusterN at run time, and the grid scales with M (gridMTile()).
  bool swapsDynamicM() const {
    return swapAb && ShapedType::isDynamic(shape.n);
  }
  /// The chain's own shape (a swapped plan's `shape` is its product's).
  ChainShape chainShape() const {
    ChainShape s = shape;
    if (swapAb)
      std::swap(s.m, s.n);
    return s;
  }
  /// A swapped gated GEMM: gate's and up's weight tiles are both A
  /// operands of the product, each aSlotRows rows of every ring stage (up's
  /// after gate's), against one token tile (B); each consumer warpgroup
  /// keeps a gate and an up accumulator of its 64 weight rows.
  bool gatesA() const { return swapAb && isGated(); }
  /// Weight tiles in each A ring stage: 2 for gatesA(), else 1.
  int64_t aOperands() const { return gatesA() ? 2 : 1; }
  /// Swapped operands: the launch's m tiles (the weight's rows), fixed by
  /// the weight's static shape.
  int64_t swappedMTiles() const;
  /// The manifest's launch: grid x per unit of gridMTile() rows of M (the
  /// runtime launches grid x * ceil(M / gridMTile())), or the whole grid
  /// where gridMTile() is 0 (a swapped static M).
  int64_t launchGridX() const;
  int64_t gridMTile() const;
  /// Swapped operands with a bf16 result and no split K: each consumer
  /// warp stages its 16 weight rows of the tile through its own
  /// `storeBuffers` buffers at smemStores (ff::kSwappedStoreBufferBytes),
  /// stmatrix writing 16 tokens at a time transposed, and stores them as
  /// 16-byte rows of the result.
  bool stagesSwappedStores() const;
  /// Two where they fit in shared memory (one warp barrier per 16 tokens),
  /// else one (two).
  int64_t storeBuffers = 0;
  /// Split K (cls_k > 1): the cluster's CTAs (the x cluster extent) each
  /// run kTiles() of the k tiles, rank r from (r mod clusterK) * kTiles(),
  /// and reduce-scatter their fp32 tiles over DSM. GEMM kind: rank r stores
  /// columns [k * bn / clusterK, (k + 1) * bn / clusterK) of the output
  /// tile, k = r mod clusterK (a split pair, clusterN = 2, holds two n
  /// tiles, ranks n * clusterK + k, and multicasts A). Shuffle family: ranks n * clusterK + k share an n tile (k
  /// fastest); rank k of the group keeps 1 / clusterK of the summed C tile
  /// (columns, or rows where reduceRows()), applies the activation and
  /// publishes that slice of act(C) to the cluster's gather.
  int64_t clusterK = 1;
  /// GEMM kind: CTAs per cluster along m (the kernel's x cluster extent
  /// with clusterN = clusterK = 1): clusterM consecutive m tiles of one n
  /// tile share each k tile of B by multicast (bMulticast), rank r loading
  /// B's 64-wide boxes j with j mod clusterM = r into every CTA.
  int64_t clusterM = 1;
  int64_t numConsumers = 2;
  /// 64-row blocks of the m tile each consumer warpgroup computes, one
  /// accumulator each: 2 for a 256-row tile of swapped operands (two
  /// accumulators per warpgroup against one token tile, as cuBLAS's
  /// 256 x 152 kernels), else 1.
  int64_t wgRowBlocks = 1;
  /// Whether partial E tiles of several clusters meet in an fp32 workspace.
  bool needsWorkspace = false;
  /// Plain FFNs with n temporal (spatial = [m], a cluster of one): the CTA
  /// walks the nTiles = N / blk_n n tiles of its m tile in turn, each
  /// through GEMM0, act(C) in shared memory and the second GEMM, and keeps
  /// E (blk_l = L columns) in registers across them: no workspace and no
  /// reduction, the per-CTA fusion of narrow chains (perf-anchors T3).
  /// 1 for every other plan.
  int64_t nTiles = 1;
  bool streamsN() const { return nTiles > 1; }
  /// Streamed n with E too wide for one warpgroup's registers
  /// (ff::splitsStreamedColumns): a 64-row tile's two consumer warpgroups
  /// each compute columns [wg * bn/2, (wg + 1) * bn/2) of C and [wg * bl/2,
  /// (wg + 1) * bl/2) of E, both reading the whole act(C) tile.
  bool splitColumns = false;
  /// Rows of one TMA box of B (and of the gated up weight): 64 (64 x 64
  /// boxes, bn / 64 of them per weight), or bn where a K-major B's tile is
  /// not whole 64-row boxes (a solo GEMM kernel's wave-sized n tile: one box
  /// of bn rows of 128 B, the layout of stacked 64-row boxes).
  int64_t bBoxRows() const { return bKMajor && bn % 64 != 0 ? bn : 64; }
  int64_t bBoxes() const { return bn / bBoxRows(); }
  /// The columns of C and of E one consumer warpgroup computes.
  int64_t consumerN() const { return splitColumns ? bn / 2 : bn; }
  int64_t consumerL() const { return splitColumns ? bl / 2 : bl; }
  /// FFN kinds, the shuffle family (cls_l = cls_n * cls_k): the cluster splits
  /// L as well as N. Every rank gathers the cluster's act(C) slices by
  /// dsm.shuffle and computes its own blk_l columns of E over the cluster's
  /// whole n range, in sub-tiles of `subL` columns: no reduce-scatter, and
  /// E crosses clusters only (the workspace) when grid_n > 1.
  bool shuffle = false;
  int64_t subL = 0;
  /// Depth of the D ring (FFN kinds).
  int64_t dStages = 2;
  /// Shuffle family: slots [0, dOwnStages) of the D ring lie at smemD; the
  /// rest at smemDLate over the main-loop ring, which is dead once the
  /// exchange's cluster barrier has passed (the producer fills them only
  /// after it). dOwnStages = dStages when every slot is at smemD.
  int64_t dOwnStages = 2;
  int64_t smemDLate = 0;
  /// --dsm-materialize=late-d-stages=false: only the slots at smemD.
  void useOwnDStagesOnly() {
    dStages = dOwnStages;
    smemDLate = 0;
  }
  /// Epilogues lower f32 math.tanh to tanh.approx.f32
  /// (--dsm-materialize=approx-tanh).
  bool approxTanh = false;
  /// Epilogues' f32 arith.divf carry the `afn` fast-math flag, which NVPTX
  /// lowers to div.approx.f32 (--dsm-materialize=approx-div).
  bool approxDiv = false;
  /// Testing only: drop the barrier between the workspace finisher's flag
  /// write and its reads (a race for compute-sanitizer to find).
  bool testOmitBarrier = false;
  /// Atomic workspaces: finishers clear the sums they read and reset their
  /// counters, so the runtime clears the workspace only when it allocates it
  /// (--dsm-materialize=self-cleaning-workspace-max-kib).
  bool selfCleaningWorkspace = false;

  // Shared-memory layout (bytes from the 1024-aligned dynamic base).
  /// smemGathered: the shuffle family's gathered act(C) of the cluster
  /// (cls_n slices of blk_m x blk_n, rank order).
  int64_t smemA = 0, smemB = 0, smemC = 0, smemD = 0, smemE = 0,
          smemReduced = 0, smemGathered = 0, smemFlag = 0, smemBytes = 0;
  /// stagesSwappedStores: the consumer warps' store buffers (warp w of
  /// consumer warpgroup g's from (4g + w) * storeBuffers *
  /// ff::kSwappedStoreBufferBytes).
  int64_t smemStores = 0;
  /// A is multicast across the cluster (set for GEMM clusters by
  /// planKernel; for FFN clusters by --dsm-materialize=multicast-a).
  bool aMulticast = false;
  /// B is multicast across a cluster along m (clusterM > 1, GEMM kind).
  bool bMulticast = false;
  /// A or B multicast: the consumers release each stage on the barrier of
  /// every CTA that loads into it (remote mbarrier arrives).
  bool multicasts() const { return aMulticast || bMulticast; }
  /// GEMM kernels: consecutive clusters walk groups of this many m tiles
  /// m-fastest, so that the B panels one wave reads are shared by the
  /// group's m tiles in L2 (--dsm-materialize=raster-group-m); 0 or 1:
  /// n-fastest over all m tiles.
  int64_t rasterGroupM = 0;
  /// GEMM and solo FFN kernels: each CTA loops over tiles (stride: the
  /// clusters in the grid) and the runtime launches at most as many CTAs
  /// as fit at once (manifest `persistent`), so a tile's epilogue overlaps
  /// the loads of the next (--dsm-materialize=persistent-gemm,
  /// persistent-solo).
  bool persistent = false;
  /// A persistent kernel's odd rounds (a round: one tile per cluster slot
  /// of the grid) take their tiles in reverse slot order
  /// (--dsm-materialize=snake-rounds). With m tiles fastest (one raster
  /// group) and a slot count that is a multiple of the m tiles (132 CTAs,
  /// 3 m tiles), slot s gets m tile s mod 3 in every round: the slots of a
  /// partial last m tile run it every round, the kernel's stragglers.
  /// Gated GEMM kernels (gate|up), where a partial tile costs ~1.3x a full
  /// one, ran 1.04-1.18x faster at such M (dynamic S chains, H200,
  /// docs/validation.md, forty-fifth session); other GEMM and conv kernels
  /// gained nothing (-3.6 to +2 %), so only gated ones snake. Only where
  /// the last of several m tiles may be partial and a raster group may
  /// hold every m tile; at run time the parity flips only while one does.
  bool snakeRounds = false;
  bool canSnakeRounds() const {
    return persistent && isGated() && !warpgroupTiles && !isConv() &&
           rasterGroupM > 1 && maxM() > wgTileRows() &&
           int64_t(llvm::divideCeil(minM(), wgTileRows())) <= rasterGroupM &&
           mayEndInPartialTile();
  }
  /// Programmatic dependent launch between a sequence's kernels
  /// (--dsm-materialize=programmatic-launch): the first lets its successor
  /// launch once all its CTAs run (griddepcontrol.launch_dependents); the
  /// successor waits for it (griddepcontrol.wait) after its setup, before
  /// any global access but, with prefetchWeights, the L2 prefetch of its
  /// weight's first ring pass; the manifest marks it `programmatic_launch`.
  bool launchDependents = false;
  bool waitsForPredecessor = false;
  bool prefetchWeights = false;
  /// Persistent solo FFN kernels (ff::keepsWeightsResident): B's k tiles
  /// and D's l chunks stay in shared memory for all of the CTA's m tiles,
  /// loaded once onto their own barrier; the ring carries A only
  /// (--dsm-materialize=resident-weights, useResidentWeights()).
  bool residentWeights = false;
  /// The producer loads ring steps in pairs once both slots are free, B box
  /// by B box with the box's two k tiles back to back, then both A boxes
  /// (--dsm-materialize=paired-loads). With a K-major B the two k tiles of
  /// a box are the two 128-byte halves of 256 contiguous bytes of each of
  /// its weight rows; requested together they stream from HBM markedly
  /// faster than one half per ring step (docs/lowering.md). Needs three
  /// stages: with two, the consumer frees a step's slot only after the
  /// next step landed, which the producer would not issue.
  bool pairedLoads = false;
  /// B's loads carry an L2 evict-first policy
  /// (--dsm-materialize=weight-evict-first, where the call's weights
  /// exceed L2): where the kernel has one m tile for any M, each weight
  /// byte is read by one CTA once, so it should not push out of L2 what is
  /// read again (A, which every CTA reads, and the intermediate).
  bool evictFirstWeights = false;
  bool canEvictFirstWeights() const {
    return !residentWeights && maxM() <= launchTileRows();
  }
  /// The consumers wait for each k step's wgmmas before releasing its
  /// stage, instead of releasing stage k - 1 once step k is issued
  /// (--dsm-materialize=early-release): the producer then has every stage
  /// but the one being read to fill, one more than with the late release,
  /// at the price of the wgmma overlap across steps, which a kernel that
  /// streams its weights does not need. One m tile for any M, not the conv
  /// halo's loops.
  bool earlyRelease = false;
  bool canReleaseEarly() const {
    return maxM() <= launchTileRows() && !convHalo;
  }
  /// A's TMA box holds min(aRowsPerCta(), M) rows instead of a whole tile
  /// (--dsm-materialize=fit-a-box): TMA's zero fill of the rows past M is
  /// slow (G5's M = 128 plan ran 131 us at M = 16, 73 us with the box
  /// fitted; docs/lowering.md). The stage's rows past the box keep stale
  /// shared memory; they reach only accumulator rows >= M, which no store
  /// writes. One CTA's 2-D box over one m tile for any M of the kernel: no
  /// convolution, A multicast, warpgroup tiles or cluster along m. Not for
  /// conv chains' GEMMs (operands read through views): fitted, C4-b1 ran
  /// 10.9 us against 8.9 and C8-b1 hung (H200, docs/validation.md).
  bool fitABox = false;
  bool canFitABox() const {
    return hasFittableABox() && maxM() <= bm &&
           (ShapedType::isDynamic(shape.m) || shape.m < aRowsPerCta());
  }
  /// Rows of A's slot in each ring stage: blk_m, or for a single GEMM (or
  /// gated pair) whose box is fitted to an M below one tile, that M (a
  /// bin's upper end) rounded up to the 8-row swizzle atom. The consumers'
  /// wgmmas still read blk_m rows: those past the slot are the next slots'
  /// bytes (A's, then B's ring) and reach only accumulator rows >= M, which
  /// no store writes. The search's plans do not count on it (a deeper ring
  /// in the space it frees measured slower); the kernel takes less shared
  /// memory, and measured up to 1.17x faster (docs/lowering.md).
  int64_t aSlotRows = 0;
  /// Zero A's ring once before the first load (--dsm-materialize
  /// zero-stale-a; fitABox and tailABox kernels only): the rows past the
  /// box are then zeros, or an earlier tile's A, for every stage.
  bool zeroStaleA = false;
  /// A read as one CTA's 2-D box per tile, the form fitABox and tailABox
  /// cut to M.
  bool hasFittableABox() const {
    return !isConv() && inputViews.empty() && !aMulticast && !warpgroupTiles &&
           clusterM == 1;
  }
  /// Rows of A's box in the manifest and the kernel's tensor map type: a
  /// fitted box of a static M has M rows; one of a dynamic M is clamped to
  /// M by the runtime (manifest box_fits_m) and by the kernel's expected
  /// bytes.
  int64_t aBoxRows() const {
    return fitABox && !fitsABoxAtLaunch() ? std::min(aRowsPerCta(), shape.m)
                                          : aRowsPerCta();
  }
  /// A fitted box whose rows the launch's M sets (a dynamic M).
  bool fitsABoxAtLaunch() const {
    return fitABox && ShapedType::isDynamic(shape.m);
  }
  /// The last m tile of a kernel with several loads A through a second map
  /// whose box holds only the rows left past the full tiles (fit-a-box for
  /// several m tiles): its zero-filled rows cost as above (a dynamic G5 ran
  /// 153 us at M = 129, 119 at M = 256 on the same kernels). Same operand
  /// forms as fitABox; a static M whose tiles are all full needs none.
  bool tailABox = false;
  bool canTailABox() const {
    return hasFittableABox() && maxM() > aRowsPerCta() &&
           (ShapedType::isDynamic(shape.m) || shape.m % aRowsPerCta() != 0);
  }
  /// Rows of the tail map's box: those of a static M's last tile; with a
  /// dynamic M a whole tile, which the runtime cuts to the launch's last
  /// tile (manifest box_tail_m).
  int64_t aTailBoxRows() const {
    return ShapedType::isDynamic(shape.m)
               ? aRowsPerCta()
               : shape.m - (shape.m - 1) / aRowsPerCta() * aRowsPerCta();
  }
  bool canPairLoads() const {
    return bKMajor && !bMulticast && !residentWeights && !convHalo &&
           stages >= 3 && ringSteps() >= 2;
  }
  /// Lays shared memory out for residentWeights: the A ring, then every k
  /// tile of B, the act(C) tile and every l chunk of D
  /// (ff::getResidentLayout, which the cost model sizes them by).
  void useResidentWeights();
  /// Resident-weights kernels: each consumer warpgroup walks m tiles of its
  /// own (wgTileRows() rows: tile j of CTA c's stride is number c * NC + w
  /// of warpgroup w), fed by producer warp w through its own barriers of
  /// the A ring (slot s of warpgroup w: the warpgroup's rows of ring stage
  /// s). Nothing couples the warpgroups but the weights, so one's act(C)
  /// and E store run under the other's GEMMs
  /// (--dsm-materialize=warpgroup-tiles).
  bool warpgroupTiles = false;
  /// Whether warpgroupTiles applies: resident weights, two consumer
  /// warpgroups of 64 rows each, and a 3x3 convolution's image rows split
  /// evenly between them.
  bool canUseWarpgroupTiles() const {
    return residentWeights && numConsumers == 2 && !splitColumns &&
           !aMulticast && bm == 64 * numConsumers &&
           (!isConv() || convRows % numConsumers == 0);
  }
  /// Output rows of a warpgroup's m tile (warpgroupTiles), else of the
  /// CTA's.
  int64_t wgTileRows() const {
    return warpgroupTiles ? tileRows() / numConsumers : tileRows();
  }
  /// Image rows of a 3x3 convolution's A box.
  int64_t convBoxRows() const {
    return warpgroupTiles ? convRows / numConsumers : convRows;
  }
  /// Warpgroup tiles of a 3x3 convolution, one image row each: per 64
  /// channels of the input the producer loads the row's halo (rows h - 1,
  /// h, h + 1 of W + 2 pixels, the padding zero-filled) once, and the nine
  /// taps are nine 64-row windows of it, (r * (W + 2) + s) rows in: a third
  /// of the bytes of nine shifted boxes (--dsm-materialize=conv-halo).
  bool convHalo = false;
  /// Whether convHalo applies (ff::getConvHaloStages decides it).
  bool canUseConvHalo() const {
    return canUseWarpgroupTiles() && isConv() && convRows == numConsumers &&
           convW + 2 <= 256 && convC % 64 == 0;
  }
  /// Bytes of one warpgroup's halo slot: its haloRowsPerWg() + 2 rows of
  /// W + 2 pixels, or the last tap's 64-row window past them.
  int64_t haloSlotBytes() const;
  /// Image rows of a warpgroup's halo tile (conv-halo: one; a streamed
  /// halo GEMM: a row group of up to 64 / (W + 2) rows).
  int64_t haloRowsPerWg() const { return convRows / numConsumers; }
  /// Bytes one warpgroup's halo box lands: R + 2 rows of W + 2 pixels of
  /// 64 channels (128 B each).
  int64_t haloLoadBytes() const {
    return (haloRowsPerWg() + 2) * (convW + 2) * 128;
  }
  /// A single GEMM's 3x3 convolution whose halo is reused across the nine
  /// taps with B streamed (--dsm-materialize=conv-halo-gemm): per 64 input
  /// channels, every consumer warpgroup's halo goes through the main ring
  /// (`stages` slots) and the B tiles of the three filter rows (three taps
  /// each) through a ring of their own (`tapStages` slots), so that a
  /// filter row's 3 * bTapBytes() are refilled as soon as its wgmmas
  /// retire; a cluster along m shares the tap slots by multicast. Unset:
  /// 0; else the warpgroup's row group (ff::getHaloGemmRows, which the
  /// cost model prices the plan by).
  int64_t haloGemmRows() const;
  /// Switches an image-row GEMM layout to the streamed halo (convHalo
  /// without warpgroup tiles or resident weights) with its two rings.
  void useHaloGemm();
  /// A streamed halo GEMM (useHaloGemm): bStageBytes is one tap-ring slot.
  bool isHaloGemm() const { return convHalo && !warpgroupTiles; }
  /// Depth of a streamed halo GEMM's tap ring.
  int64_t tapStages = 0;
  /// One tap's B tile of a streamed halo GEMM.
  int64_t bTapBytes() const { return bn * 64 * 2; }
  /// Main-loop ring steps of one tile: its k tiles, or with convHalo one
  /// per 64 input channels.
  int64_t ringSteps() const { return convHalo ? convC / 64 : kTiles(); }
  /// Switches a resident-weights layout to warpgroup tiles with a ring of
  /// `ringStages` halo slots (ff::getConvHaloStages chose the depth).
  void useConvHalo(int64_t ringStages);
  /// Per ring slot, the barriers of each warpgroup that keeps its own.
  int64_t ringBarrierGroups() const {
    return warpgroupTiles ? numConsumers : 1;
  }
  /// Shuffle family with an atomic workspace: each consumer warp stages
  /// this many columns of its 16 rows of a sub-tile in shared memory (over
  /// the act(C) slice, dead after the gather) and the TMA unit adds each
  /// row into the workspace (cp.reduce.async.bulk .add.f32) instead of the
  /// warp's red.global (--dsm-materialize=workspace-bulk-reduce); 0: red.
  int64_t bulkCols = 0;
  /// Shuffle family: the act(C) gather is an in-place push (act(C) stored
  /// in the rank's slot, copied to the peers by cp.async.bulk onto their
  /// mbarriers, one cluster barrier) instead of a pull between two cluster
  /// barriers (--dsm-materialize=shuffle-push).
  bool shufflePush = false;
  /// Whether a push's cluster barrier is arrived at right after the main
  /// loop (the epilogue then overlaps the peers' skew). With split K the
  /// slot lies over the partial the k group reads until its reduce-scatter's
  /// second barrier, so the arrive follows the slot's writes.
  bool arrivesBeforeGather() const { return shufflePush && clusterK == 1; }
  /// The cluster reduce-scatter (split K, or the FFN's E chunks with
  /// cls_n > 1) pushes each peer's slice into a scratch slot of that peer
  /// by st.async onto its mbarrier (one cluster barrier) instead of pulling
  /// between two (--dsm-materialize=reduce-push, useReducePush()). The
  /// partial tile is then laid out slice-major ([group * blk_m, w]) and the
  /// sum lands in this rank's slice unless a workspace reads it (then in
  /// the reduced slice).
  bool reducePush = false;
  /// The push's layout, computed by planKernel: scratch slots (0 where the
  /// push does not fit), and the reduced slice, flag and total it implies.
  int64_t pushScratch = 0, pushReduced = 0, pushFlag = 0, pushSmemBytes = 0;
  /// The push reduces the tile in this many column parts in turn (one
  /// exchange each): 2 where a whole tile's scratch does not fit, which
  /// then fits in the partial's own region (no workspace plans).
  int64_t reduceParts = 1;
  int64_t aStageBytes = 0, bStageBytes = 0, dStageBytes = 0;

  /// Whether the reduce-scatter's push layout fits (see reducePush).
  bool canReducePush() const { return pushSmemBytes > 0; }
  /// Switches to the push layout; canReducePush() must hold.
  void useReducePush() {
    reducePush = true;
    smemReduced = pushReduced;
    smemFlag = pushFlag;
    smemBytes = pushSmemBytes;
  }
  /// Group of the cluster reduce-scatter, and the width of its slices.
  int64_t reduceGroup() const { return clusterK > 1 ? clusterK : clusterN; }
  int64_t reduceWidth() const { return clusterK > 1 ? bn : bl; }
  /// Split-K shuffle family: whether the group's slices are blk_m / clusterK
  /// rows of the (one 64-column chunk) tile instead of blk_n / clusterK
  /// columns (ff::splitsGatheredKByRows), and the extent of the slice of C
  /// each rank's reduce-scatter leaves, rows x columns.
  bool reduceRows() const;
  int64_t reducedSliceRows() const { return reduceRows() ? bm / clusterK : bm; }
  int64_t reducedSliceCols() const { return reduceRows() ? bn : bn / clusterK; }

  bool isConv() const { return convRows > 0; }
  /// Rows of an m tile that are output rows (the launch's grid_m_tile):
  /// R * W whole image rows for convolutions, else blk_m.
  int64_t tileRows() const { return isConv() ? convRows * convW : bm; }
  int64_t numThreads() const { return kWarpgroupThreads * (numConsumers + 1); }
  /// k tiles a CTA runs: all of K, or with split K its share (the last
  /// ranks' tiles may lie past K, which TMA zero-fills).
  int64_t kTiles() const {
    return llvm::divideCeil(llvm::divideCeil(shape.k, bk), clusterK);
  }
  /// One GEMM stage and no second GEMM: `gemm` and `gated_gemm` kernels.
  bool isSingleGemm() const { return isSingleGemmKind(kind); }
  /// Gate and up GEMMs sharing A: two B tiles per stage, two accumulators.
  bool isGated() const { return isGatedKind(kind); }
  /// CTAs of one cluster (the launch's x cluster extent).
  int64_t clusterSize() const { return clusterM * clusterN * clusterK; }
  /// FFN kinds with a cluster of one and one CTA per m tile, n spatial
  /// (ff::Plan::isSolo) or streamed: each CTA runs its m tile's whole
  /// chain alone, so it can walk m tiles in turn (persistent).
  bool runsMTileAlone() const {
    return !isSingleGemm() && clusterSize() == 1 && ctasN == 1 && !shuffle &&
           !needsWorkspace;
  }
  /// CTAs per launch m tile (the manifest's grid x): a cluster along m
  /// launches clusterM m tiles as one unit of launchTileRows() rows (its
  /// tiles past M load zeros and store nothing).
  int64_t ctasPerMTile() const { return ctasN * clusterK * clusterM; }
  /// Rows of a launch m tile (the manifest's grid_m_tile).
  int64_t launchTileRows() const { return tileRows() * clusterM; }
  /// l chunks a CTA computes: of the whole L (reduce-scatter family), or
  /// sub-tiles of its own blk_l columns (shuffle family).
  int64_t lTiles() const {
    if (shuffle)
      return bl / subL;
    return bl ? shape.l / bl : 0;
  }
  /// Shuffle family: 64-wide n steps of the second GEMM per l sub-tile
  /// (the cluster's whole n range).
  int64_t gatheredSteps() const { return clusterN * bn / 64; }
  /// Shuffle family: rows of 128 B (64 bf16 columns) of the act(C) slice a
  /// rank publishes, 64-column chunk after chunk: its blk_n / 64 chunks of
  /// blk_m rows, or with split K its 1 / clusterK of them.
  int64_t sliceRows() const { return bn / 64 * bm / clusterK; }
  /// Width of a D ring stage's l extent.
  int64_t dChunkL() const { return shuffle ? subL : bl; }
  /// Rows of A one load of a stage brings: with A multicast, the CTA's
  /// slice of the tile the cluster shares, delivered into every CTA; with
  /// warpgroup tiles, one warpgroup's.
  int64_t aRowsPerCta() const {
    return aMulticast ? bm / clusterN : warpgroupTiles ? bm / numConsumers : bm;
  }
  /// Whether the CTAs of an n-cluster can share A by multicast: every CTA
  /// then loads a slice of whole 128B-swizzle atoms (8 rows). Always the
  /// case for the GEMM clusters the family takes; 3x3 convolutions load A
  /// in whole image rows as one 4-D box and do not split it.
  bool canMulticastA() const {
    return clusterN > 1 && clusterK == 1 && !isConv() &&
           bm % (8 * clusterN) == 0;
  }
  /// Bytes between staged rows of `cols` fp32 columns in the bulk
  /// reduction: 32 bytes of padding put the 4 rows a half-warp stores in
  /// different banks.
  static int64_t bulkRowBytes(int64_t cols) { return cols * 4 + 32; }
  int64_t bulkRowBytes() const { return bulkRowBytes(bulkCols); }
  /// Staged columns for the bulk workspace reduction: the widest of 128,
  /// 64, 32 that divides the sub-tile and whose rows, for every consumer
  /// warp, fit in the act(C) slice (a split K's 1 / cls_k of the tile: past
  /// it lie the gathered slices the second GEMM still reads). 0 (red.global)
  /// where none does, the plan has no atomic shuffle-family workspace, or the
  /// bulk path was measured slower on an H200 (docs/validation.md, ninth
  /// session): one consumer warpgroup (blk_m = 64, G4 +16 %), or 32 staged
  /// columns with blk_l < 2048 (four single-buffered rounds per sub-tile; S1,
  /// S4, S7 +2-3 %). Where it is used it was 3-10 % faster (G5, the G5/S3 M
  /// sweeps, C3/C4 at batch 32).
  int64_t chooseBulkCols() const {
    if (!shuffle || !needsWorkspace || isDeterministic() || bm < 128)
      return 0;
    for (int64_t cols : {128, 64, 32})
      if (subL % cols == 0 && bm * bulkRowBytes(cols) <= sliceRows() * 128)
        return cols >= 64 || bl >= 2048 ? cols : 0;
    return 0;
  }
  /// The schedule asks for bitwise-reproducible results: the workspace
  /// holds one plane per cluster along n (plain stores) that the last
  /// arriver sums in cluster order, instead of one tile fed by atomics.
  bool isDeterministic() const { return schedule.getDeterministic(); }
  /// `[M, L]` fp32 planes of the workspace: grid_n when deterministic.
  int64_t numPlanes() const {
    return isDeterministic() ? schedule.getGrid()[1] : 1;
  }
  /// Workspace bytes per row of M: fp32 E plus the arrival counters.
  int64_t workspaceBytesPerM() const;
  /// The largest of the product's m rows the kernel serves: the weight's N
  /// where swapped, else maxChainM().
  int64_t maxM() const;
  /// The largest chain M the kernel serves: its M bin's upper bound, else
  /// the static M (2^20 for a dynamic M without a bin).
  int64_t maxChainM() const;
  /// Whether bf16 row stores skip the epilogue of rows past M, not only
  /// their stores: GEMM tiles that may hold such rows (a dynamic M, or a
  /// static one that is not a multiple of the tile rows) whose epilogue
  /// divides. Those rows' accumulators are zero where A's rows past M are
  /// (fitted boxes and tail maps zero the ring), and silu's g / (1 + e^-g)
  /// at g = 0 takes div.rn.f32's slow path. On an H200 the dynamic S
  /// chains ran 1.02-1.10x faster at partial M tiles and 1.07-1.26x at
  /// decode sizes; GELU and ReLU epilogues gained nothing (C4-b32 lost
  /// 3.7 %), and C5-b32's halo kernel spilled (docs/validation.md,
  /// forty-fifth session). Timed before approxDiv, which has no slow path:
  /// with it the skip saves only the rows' epilogue work. Not for gated
  /// tiles wider than 168 columns: beside their two accumulators the row
  /// values the branch carries out spilled (S1's 128 x 192 tiles at
  /// M = 300 232 bytes, S8's 128 x 176 at 800 4 bytes; the dynamic S
  /// chains' 136-168 none; forty-eighth session).
  bool skipsUnstoredEpilogue() const {
    return !isConv() && epilogueDivides() && mayEndInPartialTile() &&
           !(isGated() && bn > kMaxSkippedGatedWidth);
  }
  static constexpr int64_t kMaxSkippedGatedWidth = 168;
  /// Whether a consumer warpgroup whose 64 rows of the tile lie wholly past
  /// M skips its wgmmas after the first k step (it still waits on and
  /// releases every stage): single and gated GEMM kernels of two
  /// warpgroups splitting a 128-row tile's rows, not split along K, that
  /// serve at most 64 rows (the second warpgroup idles on every tile). The
  /// first step runs, on A's zero rows, so the accumulators are defined.
  /// On an H200 G5's and S3's kernels at M = 16 and 64 ran 1.01-1.02x
  /// faster so; where only the last of several m tiles has an idle
  /// warpgroup (M = 300-2100, dynamic G and S tables) the chains moved
  /// 0.95-1.18x, 1.01x in geomean, C4-b32 and C8-b32 0.99x (forty-eighth
  /// session), and keep one loop.
  bool skipsEmptyWarpgroups() const {
    return isSingleGemm() && !isConv() && bm == 128 && !splitColumns &&
           clusterK == 1 && maxM() <= 64;
  }
  /// Whether the last m tile (of wgTileRows() rows) may be partial: a
  /// dynamic M, or a static one that is not a multiple of the tile rows.
  bool mayEndInPartialTile() const {
    return ShapedType::isDynamic(shape.m) || shape.m % wgTileRows() != 0;
  }
  /// Whether an epilogue of the kernel holds a floating-point division.
  bool epilogueDivides() const;
  /// The smallest M the kernel serves: its M bin's lower bound, else the
  /// static M (1 for a dynamic M without a bin).
  int64_t minM() const;
};

/// Maps `op` under `schedule` onto the kernel family. On failure returns a
/// reason in `why` (and no diagnostic).
/// `fitABox`: the plan will fit A's box to M (KernelPlan::fitABox,
/// --dsm-materialize's fit-a-box), which lets a single GEMM's A slots shrink
/// to the box (aSlotRows).
FailureOr<KernelPlan> planKernel(FusedChainOp op, ScheduleAttr schedule,
                                 std::string &why, bool fitABox = true);

/// The image's (H, W) when `op`'s first GEMM reads the im2col of a 3x3
/// convolution that the kernels lower, else nullopt.
std::optional<std::pair<int64_t, int64_t>> getConvImageShape(FusedChainOp op);

/// Whether `op`'s first GEMM reads K-major [N, K] weights (PyTorch Linear
/// layout), which the kernels load as boxes of any 8-row multiple.
bool hasKMajorWeights(FusedChainOp op);

/// Whether --dsm-materialize implements `schedule` for `op`.
bool isLowerable(FusedChainOp op, ScheduleAttr schedule,
                 std::string *why = nullptr);

} // namespace mlir::dsm

#endif // FF_DIALECT_DSM_TRANSFORMS_KERNELPLAN_H

//===- Plan.h - GEMM-chain descriptions and execution plans -----*- C++ -*-===//
//
// Part of the FlashFuser project.
//
// The library-side mirror of `#dsm.schedule`: a chain C[M,N] = A[M,K]·B[K,N],
// E[M,L] = act(C)·D[N,L] and one point of FlashFuser's search space (loop
// schedule, cluster shape, tiles, grid, pipeline depth). Enumerators have the
// values of the dsm dialect's LoopDim / MemTier / CollectiveKind so the pass
// converts with a static_cast.
//
//===----------------------------------------------------------------------===//

#ifndef FF_ANALYSIS_PLAN_H
#define FF_ANALYSIS_PLAN_H

#include "ff/Analysis/Target.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <array>
#include <cstdint>
#include <string>

namespace mlir::ff {

/// Unified loop dimensions, in the order of `#dsm.schedule` lists.
enum class Dim : uint8_t { m = 0, n = 1, k = 2, l = 3 };
inline constexpr std::array<Dim, 4> kAllDims = {Dim::m, Dim::n, Dim::k, Dim::l};
/// Memory tiers, fastest first (dsm::MemTier).
enum class Tier : uint8_t { reg = 0, smem = 1, dsm = 2, global = 3 };
/// dsm_comm patterns (dsm::CollectiveKind).
enum class Collective : uint8_t {
  allExchange = 0,
  shuffle = 1,
  reduceScatter = 2,
  multiply = 3,
  interClusterReduce = 4
};
/// What --dsm-fuse recognised (dsm::ChainKind).
enum class ChainKind : uint8_t {
  gemm = 0,
  ffn = 1,
  gatedFfn = 2,
  chain = 3,
  gatedGemm = 4
};

llvm::StringRef stringifyDim(Dim d);
llvm::StringRef stringifyTier(Tier t);
llvm::StringRef stringifyCollective(Collective c);

/// Shared memory a kernel may use for its dynamic buffer: the H100/H200
/// per-block opt-in maximum (227 KiB) less the 1 KiB that the 1024-aligned
/// dynamic buffer leaves for static barriers.
constexpr int64_t kMaxDynamicSmemBytes = 232448 - 1024;

/// A store buffer of a swapped GEMM's consumer warp (Plan::swapAb): 16
/// tokens x 16 weight rows of its bf16 result, which stmatrix fills
/// transposed and the warp stores in 16-byte rows of the result. Each warp
/// has two where they fit, else one.
constexpr int64_t kSwappedStoreBufferBytes = 512;

/// Image rows of one m tile of a 3x3 convolution's kernel: the largest
/// divisor R of `h` with R * `w` <= `bm`, or 0 when no image row fits.
int64_t getConvTileImageRows(int64_t h, int64_t w, int64_t bm);

/// Whether a 3x3 convolution's kernel tiles m by whole image rows (one 4-D
/// TMA box of R rows per k tile) rather than by `bm` consecutive output
/// pixels across rows and images (TMA im2col mode). Whole rows wherever a
/// row fits one box and the kernel is not a GEMM cluster (split K, A
/// multicast), which splits or shares A by pixel ranges: on an H100 the
/// im2col loads cost more per byte (C8-b32's 3x3 GEMM at 64 x 128: 34.4 us
/// dense against 32.4 in 7 of its 8 rows per tile; C6-b32 at 128 x 128:
/// 27.1 against 26.3, docs/validation.md), so packing the idle rows paid
/// only where it opened split K to the short batch-1 images.
bool usesConvImageRows(int64_t h, int64_t w, int64_t bm, bool gemmCluster);

/// A GEMM chain as the cost model sees it. `l` is 0 for one GEMM (or one
/// gated pair); longer chains are described by their first pair. Gated FFNs
/// and gated GEMMs have two up-projections (gate and up) sharing A.
struct ChainDesc {
  ChainKind kind = ChainKind::ffn;
  int64_t m = 0, n = 0, k = 0, l = 0;
  DType dtype = DType::bf16;
  /// 3x3 convolutions (im2col A): the image's H and W, 0 otherwise. Their
  /// kernels tile m by output pixels or whole image rows
  /// (usesConvImageRows).
  int64_t convH = 0, convW = 0;
  /// The first GEMM's weights are K-major ([N, K], PyTorch Linear layout):
  /// a solo gated GEMM then takes n tiles of any 8-column multiple
  /// (getSoloGemmNTileViolation); the search offers ones sized to fill the
  /// GPU in one wave (8-column steps) or two (16-column steps).
  bool kMajorWeights = false;
  /// A single (or gated) GEMM's transposed product (searched for
  /// Plan::swapAb): its n is the GEMM's M rows, which also take the widths
  /// that cover n in the fewest tiles of 128-256 with the least padding
  /// (getFitWidths); a gated pair's weights are its A (getAOperands).
  bool swappedProduct = false;

  bool isGated() const {
    return kind == ChainKind::gatedFfn || kind == ChainKind::gatedGemm;
  }
  /// Output rows of an m tile of `bm` rows: R * W for a 3x3 convolution
  /// tiled by image rows (usesConvImageRows; R the largest divisor of H
  /// with R * W <= bm), else bm.
  int64_t getMTileRows(int64_t bm, bool gemmCluster) const;
  bool hasSecondGemm() const {
    return kind != ChainKind::gemm && kind != ChainKind::gatedGemm;
  }
  /// Up-projection matrices sharing A: 2 for gated chains, else 1.
  int64_t getNumUpProjections() const { return isGated() ? 2 : 1; }
  /// Weight tiles a k step loads per tile row of A and of B: a gated
  /// pair's two weights are B's, or A's in its swapped product (two weight
  /// tiles against one token tile).
  int64_t getAOperands() const {
    return swappedProduct ? getNumUpProjections() : 1;
  }
  int64_t getBOperands() const {
    return swappedProduct ? 1 : getNumUpProjections();
  }
  int64_t getExtent(Dim d) const;
  /// Useful FLOPs of the chain (without tile padding).
  double getFlops() const;
};

/// One point of the search space. `cluster`, `block`, `grid` are indexed by
/// Dim. `order` is the loop nest outermost first; dimensions in `spatial`
/// are mapped on cluster x grid (one block tile per CTA), the others are
/// loops inside each CTA.
struct Plan {
  std::array<int64_t, 4> cluster = {1, 1, 1, 1};
  std::array<int64_t, 4> block = {16, 16, 16, 16};
  std::array<int64_t, 4> grid = {1, 1, 1, 1};
  std::array<Dim, 4> order = {Dim::m, Dim::n, Dim::k, Dim::l};
  /// Bit i set: Dim(i) is spatial.
  uint8_t spatialMask = 0;
  int64_t stages = 2;
  /// Bitwise-reproducible results: with grid_n > 1, E is reduced through
  /// one workspace plane per cluster summed in cluster order, not atomics.
  bool deterministic = false;
  /// A single GEMM searched as its transposed product C^T = W A^T
  /// (SearchOptions::swapOperands): cluster, block and grid are that
  /// product's (m along the weight's N, n along the chain's M); its
  /// schedule records them in the chain's dimensions with swap_ab.
  bool swapAb = false;

  int64_t cls(Dim d) const { return cluster[static_cast<unsigned>(d)]; }
  int64_t blk(Dim d) const { return block[static_cast<unsigned>(d)]; }
  int64_t grd(Dim d) const { return grid[static_cast<unsigned>(d)]; }
  bool isSpatial(Dim d) const {
    return spatialMask & (1u << static_cast<unsigned>(d));
  }
  llvm::SmallVector<Dim, 4> getSpatialDims() const;
  /// Position of `d` in `order`.
  unsigned getPosition(Dim d) const;
  /// CTAs per cluster: cls_m * cls_n * cls_k.
  int64_t getClusterSize() const {
    return cls(Dim::m) * cls(Dim::n) * cls(Dim::k);
  }
  /// cls_shuffle = cls_l / cls_k (FlashFuser §III-A).
  int64_t getShuffleGroup() const { return cls(Dim::l) / cls(Dim::k); }
  /// Whether cls_l = cls_n * cls_k > 1: the cluster splits L over all of
  /// its CTAs, each computing its blk_l columns of E from the act(C) of the
  /// cluster's whole n range, the shape of the shuffle kernel family. With
  /// cls_k > 1 the CTAs of a k group first reduce their partial C tiles
  /// (the all-exchange) before the activation.
  bool isShuffleFamily() const {
    return cls(Dim::l) > 1 && cls(Dim::l) == cls(Dim::n) * cls(Dim::k);
  }
  /// Whether a shuffle-family plan splits GEMM0's K over cls_k > 1 CTAs.
  bool splitsGatheredK() const { return isShuffleFamily() && cls(Dim::k) > 1; }
  /// Whether a plan of `chain` walks n inside the CTA: a two-GEMM chain
  /// with n temporal, the streamed-n family (cls_n > 1 splits that loop
  /// over the cluster).
  bool streamsN(const ChainDesc &chain) const {
    return chain.hasSecondGemm() && !isSpatial(Dim::n);
  }
  /// Whether a plan of two-GEMM `chain` has each CTA compute its m tile's
  /// whole chain alone: a cluster of one, grid_n = 1 and n spatial (all of
  /// C in one CTA), so no cluster exchange and no workspace.
  bool isSolo(const ChainDesc &chain) const {
    return chain.hasSecondGemm() && !streamsN(chain) && getClusterSize() == 1 &&
           cls(Dim::l) == 1 && grd(Dim::n) == 1;
  }
  /// Whether a streamed-n plan of `chain` splits its n loop over cls_n > 1
  /// CTAs of a cluster (which reduce-scatter E once, after the loop).
  bool splitsStreamedN(const ChainDesc &chain) const {
    return streamsN(chain) && cls(Dim::n) > 1;
  }
  /// Whether a streamed-n plan of `chain` splits a 64-row tile's columns
  /// over two consumer warpgroups (splitsStreamedColumns).
  bool splitsColumns(const ChainDesc &chain) const;
  /// cls_reduce = cls_n * cls_k / cls_l.
  int64_t getReduceGroup() const {
    return cls(Dim::n) * cls(Dim::k) / cls(Dim::l);
  }
  int64_t getNumClusters() const {
    return grd(Dim::m) * grd(Dim::n) * grd(Dim::k) * grd(Dim::l);
  }
  int64_t getNumCtas() const { return getNumClusters() * getClusterSize(); }

  /// The dsm_comm collectives this plan needs on `chain`, in the order of
  /// dsm::CollectiveKind.
  llvm::SmallVector<Collective, 4> getCollectives(const ChainDesc &chain) const;

  /// Compact one-line form, e.g.
  /// "cluster=[1,4,1,1] block=[128,128,64,128] grid=[1,8,1,1] order=[m,n,k,l]
  /// spatial=[m,n] stages=4".
  std::string str() const;
  /// This plan with m and n of cluster, block and grid exchanged: a swapped
  /// plan between its transposed product's dimensions and its chain's (the
  /// schedule's), either way.
  Plan withMNExchanged() const {
    Plan p = *this;
    std::swap(p.cluster[0], p.cluster[1]);
    std::swap(p.block[0], p.block[1]);
    std::swap(p.grid[0], p.grid[1]);
    return p;
  }
  bool operator==(const Plan &o) const {
    return cluster == o.cluster && block == o.block && grid == o.grid &&
           order == o.order && spatialMask == o.spatialMask &&
           stages == o.stages && swapAb == o.swapAb;
  }
};

/// Streamed-n plans keep GEMM0's and E's fp32 accumulators live together:
/// blk_n plus blk_l columns per consumer row at most this many (128 registers a
/// thread; ptxas spilled every kernel of 320, e.g. blk_n = 64 with blk_l = 256,
/// under the consumers' 232).
constexpr int64_t kMaxStreamedAccColumns = 256;

/// Whether a streamed-n plan of a blk_m x blk_n GEMM0 tile and blk_l columns
/// of E splits the columns over two consumer warpgroups: where one
/// warpgroup's blk_n + blk_l accumulator columns exceed
/// kMaxStreamedAccColumns (L = 256), a 64-row tile's two warpgroups each
/// compute half of GEMM0's n tile and half of E's columns from the whole
/// act(C) tile. Halves of whole 64-column chunks (blk_n and blk_l multiples
/// of 128), so that either operand layout splits at a swizzle-atom column.
inline bool splitsStreamedColumns(int64_t blkM, int64_t blkN, int64_t blkL) {
  return blkM == 64 && blkN + blkL > kMaxStreamedAccColumns &&
         blkN % 128 == 0 && blkL % 128 == 0 &&
         (blkN + blkL) / 2 <= kMaxStreamedAccColumns;
}

/// The widest token tile (wgmma n) of a swapped product's 256-row weight
/// tile: each consumer thread holds two accumulators of width / 2 fp32
/// registers (ptxas spilled at 192 and 200 under setmaxnreg 232).
constexpr int64_t kMaxRowBlockWidth = 184;

/// 64-row blocks of A each consumer warpgroup of a `plan` of `chain`
/// computes: 2 for a swapped plain product's 256-row weight tiles (two
/// accumulators per warpgroup), else 1 (a swapped gated pair's two
/// accumulators are gate's and up's of one block).
inline int64_t getWarpgroupRowBlocks(const ChainDesc &chain, const Plan &plan) {
  return chain.swappedProduct && !chain.isGated() && plan.blk(Dim::m) == 256
             ? 2
             : 1;
}

/// The tile rules every kernel of the lowering shares: blk_m of one or two
/// consumer warpgroups (64 or 128), one 128B-swizzled bf16 row per k step
/// (blk_k = 64, or 32 when K <= 32: one zero-filled tile) and a wgmma-wide
/// blk_n (64, 128 or 256; any multiple of 8 for a `soloGemm`, see
/// getSoloGemmNTileViolation). Empty when they hold, else why not, as a
/// diagnostic: one statement for isLowerable and planKernel.
std::string getTileViolation(int64_t k, int64_t blkM, int64_t blkN,
                             int64_t blkK, bool soloGemm = false);

/// The n tiles of a GEMM kernel (single or gated) run by one CTA per cluster
/// over all of K (no split, no multicast, not a convolution): blk_n may be
/// any multiple of 8 up to 256 (up to 192 for a gated pair,
/// whose two accumulators stay live) where the weights are K-major ([N, K]:
/// B's tile is one TMA box of blk_n rows), a multiple of 64 where they are
/// row-major; the last n tile may be partial where N is a multiple of 8
/// (K-major) or 64 (its B boxes past N are zero-filled, its stores
/// guarded). At M = 256 a gated GEMM of 2 x 58 tiles of 128 x 192 (one
/// wave on 132 SMs) ran 1.23x faster than the best 64- or 128-wide plan's
/// 2.6 waves (docs/validation.md, fortieth session). Empty when `blkN` over
/// `ctasN` CTAs covers `n` so, else why not.
std::string getSoloGemmNTileViolation(bool gated, int64_t n, int64_t blkN,
                                      int64_t ctasN, bool bKMajor = false);

/// The second GEMM's l tiles of a chain with L = `l`: in the shuffle family
/// blk_l = L / cls (the cluster extent), a multiple of 64 (the kernel's
/// sub-tiles); otherwise blk_l in {64, 128, 256} dividing L. Empty when
/// they hold, else why not.
std::string getLTileViolation(bool shuffle, int64_t l, int64_t cls,
                              int64_t blkL);

/// The streamed-n family's tile rules for a chain of N = `n` and L = `l`
/// (gated or not) whose n loop is split over `clsN` CTAs of a cluster:
/// plain FFNs only, blk_l = L, cls_n in {1, 2, 4}, at least two blk_n tiles
/// per CTA dividing N, and the accumulators within a consumer warpgroup's
/// registers (above). Empty when they hold, else why not, as a diagnostic:
/// one statement of the rules for isLowerable and for the lowering's
/// planKernel.
std::string getStreamedTileViolation(bool gated, int64_t n, int64_t l,
                                     int64_t blkM, int64_t blkN, int64_t blkL,
                                     int64_t clsN = 1);

/// The shuffle family's split-K rules (cls_k > 1: each CTA of a k group runs
/// K / cls_k of GEMM0 and the group reduce-scatters the fp32 partials before
/// the activation): plain FFNs, cls_k in {2, 4, 8}, whole 64-wide k tiles
/// per CTA (K a multiple of 64 * cls_k), and a slice of act(C) per CTA that
/// the gather concatenates in rank order: whole 64-column chunks (blk_n a
/// multiple of 64 * cls_k) or, for blk_n = 64, blk_m / cls_k whole rows
/// (splitsGatheredKByRows). Empty when they hold, else why not, as a
/// diagnostic for isLowerable and planKernel.
std::string getGatheredSplitKViolation(bool gated, int64_t k, int64_t blkM,
                                       int64_t blkN, int64_t clsK);

/// Whether a split-K shuffle plan's ranks reduce and publish row slices of
/// act(C) (blk_n = 64 split into fewer than 64 columns) rather than column
/// chunks.
inline bool splitsGatheredKByRows(int64_t blkN, int64_t clsK) {
  return (blkN / clsK) % 64 != 0;
}

/// Whether the kernel of `consumers` consumer warpgroups moves registers
/// from its producer warpgroup to them (setmaxnreg.dec 40 / inc 232): only
/// the 1 + 2 warpgroup layout (ptxas ignores it at 256 threads), and for a
/// two-GEMM chain only at a power-of-two stage count (with S = 3 such
/// kernels hung on an H200, docs/lowering.md). Such a kernel is compiled
/// to the whole register file: one CTA per SM.
inline bool reallocatesRegisters(int64_t consumers, bool singleGemm,
                                 int64_t stages) {
  return consumers == 2 &&
         (singleGemm || (stages > 0 && (stages & (stages - 1)) == 0));
}

/// Whether the lowering can carry `plan` out today (docs/cost-model.md,
/// "The lowerable family"):
/// - two-GEMM chains (ffn, gated_ffn), reduce-scatter family: cluster
///   (1, cls_n, 1, 1) with cls_n in {1, 2, 4, 8}; spatial = [m, n]; order =
///   [m, n, k, l]; blk_l in {64, 128, 256}, blk_l | L;
/// - shuffle family: cluster (1, c, 1, c) with c in {2, 4, 8}; spatial =
///   [m, n, l]; order = [m, n, l, k]; blk_l = L / c, a multiple of 64; or
///   split K: cluster (1, c, k, c * k) of at most 8 CTAs, spatial = [m, n,
///   k, l], order = [m, n, k, l], blk_k = K / k (getGatheredSplitKViolation);
/// - both: grid = [ceil(M/blk_m), g_n, 1, 1]; blk_m in {64, 128}, blk_k =
///   64 (unless split), blk_n in {64, 128, 256}, cls_n * g_n * blk_n = N; 2 <=
///   stages <= 4.
/// - streamed n (per-CTA fusion): cluster (1, c, 1, 1) with c in {1, 2, 4}
///   (the n loop split over c CTAs, E reduce-scattered in the cluster);
///   spatial = [m]; order = [m, n, k, l]; grid = [ceil(M/blk_m), 1, 1, 1];
///   blk_l = L in {64, 128, 256}; c * blk_n | N, N / (c * blk_n) >= 2;
///   blk_n + blk_l <=
///   kMaxStreamedAccColumns, or split over two warpgroups
///   (splitsStreamedColumns); plain FFNs (not gated);
/// - one GEMM: cluster (1,1,1,1) or (1,2,1,1) (A multicast), block
///   128 x 256 x 64, order [m, n, k, l], m and n spatial, 2 <= stages <= 4;
///   or split K: cluster (1,1,c,1), c in {2, 4, 8}, blk_m in {64, 128},
///   blk_n in {128, 256}.
/// `m` may be unknown (dynamic): pass chain.m = 0 to skip the grid check.
/// `wideGemmTiles` (--dsm-search=wide-gemm-tiles, on by default): one GEMM
/// on a cluster of one also takes blk_m in {64, 128} and blk_n in {64, 128,
/// 256} over all of K (blk_k = 64) at 2 to 8 stages.
/// - one gated GEMM (gate and up accumulators): those wide tiles with blk_n
///   in {64, 128}, on a cluster of one, whatever `wideGemmTiles` says; on
///   128-row tiles also 192, or with K-major weights (kMajorWeights) any
///   width getSoloGemmNTileViolation admits;
/// - one plain GEMM on K-major weights, a cluster of one: with
///   `wideGemmTiles` also 128-row tiles of any width no 64-row box divides
///   (the search offers the wave widths, passesWaveTileRule).
bool isLowerable(const Plan &plan, const ChainDesc &chain,
                 bool wideGemmTiles = true);

} // namespace mlir::ff

#endif // FF_ANALYSIS_PLAN_H

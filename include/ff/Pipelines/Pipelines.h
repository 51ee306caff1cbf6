//===- Pipelines.h - FlashFuser pass pipelines ------------------*- C++ -*-===//
//
// Part of the FlashFuser project.
//
//===----------------------------------------------------------------------===//

#ifndef FF_PIPELINES_PIPELINES_H
#define FF_PIPELINES_PIPELINES_H

#include "mlir/Pass/PassOptions.h"

#include <string>

namespace mlir {
class OpPassManager;

namespace ff {

/// Options of --lower-to-nvvm.
struct LowerToNVVMOptions : public PassPipelineOptions<LowerToNVVMOptions> {
  PassOptions::Option<std::string> chip{*this, "chip",
                                        llvm::cl::desc("Target chip"),
                                        llvm::cl::init("sm_90a")};
  PassOptions::Option<std::string> features{
      *this, "features",
      llvm::cl::desc("PTX features (+ptx86 for cluster-scoped mbarriers)"),
      llvm::cl::init("+ptx86")};
  PassOptions::Option<std::string> format{
      *this, "format",
      llvm::cl::desc("isa: PTX in gpu.binary; bin: cubin (bundles: PTX and "
                     "cubin)"),
      llvm::cl::init("isa")};
  PassOptions::Option<int> optLevel{*this, "opt-level",
                                    llvm::cl::desc("LLVM/ptxas opt level"),
                                    llvm::cl::init(3)};
  PassOptions::Option<std::string> emitBundle{
      *this, "emit-bundle",
      llvm::cl::desc("Write a kernel bundle (manifest.json + PTX/cubin) into "
                     "this directory"),
      llvm::cl::init("")};
  PassOptions::Option<std::string> sourceHash{
      *this, "source-hash",
      llvm::cl::desc("The caller's SHA-256 of its source text, recorded in "
                     "the bundle manifest"),
      llvm::cl::init("")};
  PassOptions::Option<bool> testOmitBarrier{
      *this, "test-omit-barrier",
      llvm::cl::desc("Testing only: forwarded to --dsm-materialize (builds a "
                     "kernel with a known race)"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> multicastA{
      *this, "multicast-a",
      llvm::cl::desc("Forwarded to --dsm-materialize: FFN clusters share A "
                     "by TMA multicast"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> workspaceBulkReduce{
      *this, "workspace-bulk-reduce",
      llvm::cl::desc("Forwarded to --dsm-materialize: shuffle-family "
                     "workspace reductions by cp.reduce.async.bulk where "
                     "measured faster"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> shufflePush{
      *this, "shuffle-push",
      llvm::cl::desc("Forwarded to --dsm-materialize: the shuffle family "
                     "gathers act(C) by an in-place cp.async.bulk push onto "
                     "the peers' mbarriers (false: a pull)"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> reducePush{
      *this, "reduce-push",
      llvm::cl::desc("Forwarded to --dsm-materialize: the cluster "
                     "reduce-scatter pushes slices by st.async onto the "
                     "peers' mbarriers where its scratch fits (false: a "
                     "pull)"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> approxTanh{
      *this, "approx-tanh",
      llvm::cl::desc("Forwarded to --dsm-materialize: epilogues compute "
                     "f32 tanh with tanh.approx.f32 (false: the exact "
                     "expansion)"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> approxDiv{
      *this, "approx-div",
      llvm::cl::desc("Forwarded to --dsm-materialize: epilogues divide f32 "
                     "values with div.approx.f32 (false: div.rn.f32)"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> lateDStages{
      *this, "late-d-stages",
      llvm::cl::desc("Forwarded to --dsm-materialize: shuffle-family D "
                     "rings of two stages get up to two more over the dead "
                     "main-loop ring (false: two stages)"),
      llvm::cl::init(true)};
  PassOptions::Option<int64_t> rasterGroupM{
      *this, "raster-group-m",
      llvm::cl::desc("Forwarded to --dsm-materialize: GEMM kernels walk "
                     "groups of this many m tiles (0: n fastest; 16, the "
                     "default, measured best)"),
      llvm::cl::init(16)};
  PassOptions::Option<bool> persistentGemm{
      *this, "persistent-gemm",
      llvm::cl::desc("Forwarded to --dsm-materialize: GEMM kernels loop "
                     "over tiles and the runtime launches only the CTAs "
                     "that fit at once"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> snakeRounds{
      *this, "snake-rounds",
      llvm::cl::desc("Forwarded to --dsm-materialize: persistent gated "
                     "GEMM kernels whose last m tile may be partial take "
                     "every other round of tiles in reverse order"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> persistentSolo{
      *this, "persistent-solo",
      llvm::cl::desc("Forwarded to --dsm-materialize: solo and streamed-n "
                     "FFN kernels the cost model prices persistent loop "
                     "over m tiles and the runtime launches only the CTAs "
                     "that fit at once"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> residentWeights{
      *this, "resident-weights",
      llvm::cl::desc("Forwarded to --dsm-materialize: persistent solo FFN "
                     "kernels whose weights fit beside the A ring load "
                     "them once per CTA"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> warpgroupTiles{
      *this, "warpgroup-tiles",
      llvm::cl::desc("Forwarded to --dsm-materialize: resident-weights "
                     "kernels run one m tile per consumer warpgroup"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> convHalo{
      *this, "conv-halo",
      llvm::cl::desc("Forwarded to --dsm-materialize: resident-weights "
                     "3x3 convolutions read the taps from one halo per "
                     "image row"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> convHaloGemm{
      *this, "conv-halo-gemm",
      llvm::cl::desc("Forwarded to --dsm-materialize: single-GEMM 3x3 "
                     "convolutions reuse each warpgroup's halo across the "
                     "taps"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> programmaticLaunch{
      *this, "programmatic-launch",
      llvm::cl::desc("Forwarded to --dsm-materialize: a kernel sequence's "
                     "second kernel launches while the first runs and "
                     "waits for it in-kernel (PDL)"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> programmaticEntry{
      *this, "programmatic-entry",
      llvm::cl::desc("Forwarded to --dsm-materialize: a call's first "
                     "kernel waits for its stream predecessor in-kernel "
                     "and is launched with programmatic stream "
                     "serialization (not where its weights have 16 MiB "
                     "or more)"),
      llvm::cl::init(true)};
  PassOptions::Option<int64_t> pairedLoadsMinStages{
      *this, "paired-loads-min-stages",
      llvm::cl::desc("Forwarded to --dsm-materialize: kernels with a "
                     "K-major B and at least this many ring stages (0: "
                     "none) load two ring steps at a time, each weight "
                     "row's two k tiles back to back"),
      llvm::cl::init(0)};
  PassOptions::Option<bool> weightEvictFirst{
      *this, "weight-evict-first",
      llvm::cl::desc("Forwarded to --dsm-materialize: kernels with one m "
                     "tile load their weights with an L2 evict-first "
                     "policy where the call's weights exceed L2"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> earlyRelease{
      *this, "early-release",
      llvm::cl::desc("Forwarded to --dsm-materialize: kernels with one m "
                     "tile release each ring stage once its wgmmas retire"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> fitABox{
      *this, "fit-a-box",
      llvm::cl::desc("Forwarded to --dsm-materialize: A's boxes load only "
                     "the rows M has (one m tile, or the last of several)"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> zeroStaleA{
      *this, "zero-stale-a",
      llvm::cl::desc("Forwarded to --dsm-materialize: kernels with a fitted "
                     "A box or a tail map zero A's ring before the first "
                     "load"),
      llvm::cl::init(true)};
  PassOptions::Option<int64_t> selfCleaningMaxKiB{
      *this, "self-cleaning-workspace-max-kib",
      llvm::cl::desc("Forwarded to --dsm-materialize: atomic workspaces up "
                     "to this size are cleared by the kernel, not before "
                     "every launch (0: never; 400, the default, is the "
                     "measured choice)"),
      llvm::cl::init(400)};
};

/// dsm-materialize -> convert-dsm-to-nvgpu -> NVVM/LLVM conversions ->
/// dsm-finalize-kernels -> gpu-module-to-binary [-> dsm-emit-bundle].
void buildLowerToNVVMPipeline(OpPassManager &pm,
                              const LowerToNVVMOptions &options);

/// Registers --lower-to-nvvm.
void registerLowerToNVVMPipeline();

} // namespace ff
} // namespace mlir

#endif // FF_PIPELINES_PIPELINES_H

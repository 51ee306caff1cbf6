//===- Materialize.cpp - scheduled chains to cluster kernels ----*- C++ -*-===//
//
// Part of the FlashFuser project.
//
//===----------------------------------------------------------------------===//

#include "KernelBuilder.h"

#include "ff/Analysis/CostModel.h"
#include "ff/Dialect/DSM/IR/DSMOps.h"
#include "ff/Dialect/DSM/Transforms/KernelPlan.h"
#include "ff/Dialect/DSM/Transforms/Passes.h"
#include "ff/Dialect/DSM/Transforms/SearchSchedule.h"
#include "ff/Dialect/DSM/Transforms/SequenceChains.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir::dsm {
#define GEN_PASS_DEF_DSMMATERIALIZE
#include "ff/Dialect/DSM/Transforms/Passes.h.inc"
} // namespace mlir::dsm

using namespace mlir;
using namespace mlir::dsm;

namespace {

std::string toHex(ArrayRef<uint8_t> bytes) {
  std::string s;
  llvm::raw_string_ostream os(s);
  for (uint8_t c : bytes)
    os << llvm::format_hex_no_prefix(c, 2);
  return s;
}

std::string typeName(Type t) {
  if (t.isBF16())
    return "bf16";
  if (t.isF16())
    return "f16";
  if (t.isF32())
    return "f32";
  std::string s;
  llvm::raw_string_ostream os(s);
  os << t;
  return s;
}

/// A tensor's manifest entry (docs/bundle.md): name, shape (-1 for a
/// dynamic extent) and dtype; weights stored [out, in] (K-major) also say
/// "layout": "nk" (the default "kn" is left implicit).
DictionaryAttr getTensorInfo(Builder &b, StringRef name, Type type,
                             bool nk = false) {
  auto shaped = cast<ShapedType>(type);
  SmallVector<int64_t> dims(shaped.getShape());
  for (int64_t &x : dims)
    if (ShapedType::isDynamic(x))
      x = -1;
  SmallVector<NamedAttribute> attrs = {
      b.getNamedAttr("name", b.getStringAttr(name)),
      b.getNamedAttr("shape", b.getDenseI64ArrayAttr(dims)),
      b.getNamedAttr("dtype",
                     b.getStringAttr(typeName(shaped.getElementType())))};
  if (nk)
    attrs.push_back(b.getNamedAttr("layout", b.getStringAttr("nk")));
  return b.getDictionaryAttr(attrs);
}

struct DSMMaterializePass
    : public dsm::impl::DSMMaterializeBase<DSMMaterializePass> {
  using DSMMaterializeBase::DSMMaterializeBase;
  void runOnOperation() override;

  /// Materialises one plan of `chain` as kernel `name`; returns its
  /// manifest entry. The kernel's tensors are the bundle's "in<i>" and
  /// "out", or for a kernel of a sequence `inputNames[i]` and `outName`.
  DictionaryAttr materialize(FusedChainOp chain, const KernelPlan &plan,
                             StringRef name,
                             ArrayRef<std::string> inputNames = {},
                             StringRef outName = "out");
  /// The kernel plan of `sched` for `chain` as the pass's options and the
  /// target's pricing configure it; fails after a diagnostic.
  FailureOr<KernelPlan> configurePlan(FusedChainOp chain, ScheduleAttr sched,
                                      const std::optional<ff::GpuTarget> &t);
  /// Sets evictFirstWeights on the kernels of one call (a fused chain's
  /// kernel, or a sequence's two) by the call's weights in all.
  void decideWeightEviction(MutableArrayRef<KernelPlan> call,
                            const std::optional<ff::GpuTarget> &t) const;
  /// One pair of sequence schedules and its kernels' base name.
  struct SequencePair {
    ScheduleAttr first, second;
    std::string name;
  };
  /// The kernels of `chain`'s sequence pairs (two per pair, "<name>_s0"
  /// and "<name>_s1") into `kernels`, the bundle's intermediate into
  /// `intermediates`.
  LogicalResult materializeSequence(FusedChainOp chain,
                                    ArrayRef<SequencePair> pairs,
                                    const std::optional<ff::GpuTarget> &t,
                                    SmallVectorImpl<Attribute> &kernels,
                                    SmallVectorImpl<Attribute> &intermediates);
  DictionaryAttr chainInfo(FusedChainOp chain, const KernelPlan &plan);
  DictionaryAttr planInfo(ScheduleAttr sched);
};

} // namespace

DictionaryAttr DSMMaterializePass::chainInfo(FusedChainOp chain,
                                             const KernelPlan &plan) {
  Builder b(chain.getContext());
  // The chain's own roles and shape (a swapped plan exchanges them).
  unsigned argB = plan.swapAb ? plan.argA : plan.argB;
  ChainShape s = plan.chainShape();
  auto isNK = [&](unsigned i) {
    return ((plan.bKMajor || plan.swapAb) &&
            (i == argB || (plan.isGated() && i == plan.argB2))) ||
           (plan.dKMajor && !plan.isSingleGemm() && i == plan.argD);
  };
  SmallVector<Attribute> inputs, outputs;
  for (auto [i, v] : llvm::enumerate(chain.getInputs()))
    inputs.push_back(getTensorInfo(b, "in" + std::to_string(i), v.getType(),
                                   isNK(unsigned(i))));
  outputs.push_back(getTensorInfo(b, "out", chain->getResult(0).getType()));
  return b.getDictionaryAttr(
      {b.getNamedAttr("kind", b.getStringAttr(stringifyChainKind(plan.kind))),
       b.getNamedAttr("activation", b.getStringAttr(plan.activation)),
       b.getNamedAttr("dtype", b.getStringAttr(typeName(s.elementType))),
       b.getNamedAttr("m", b.getI64IntegerAttr(
                               ShapedType::isDynamic(s.m) ? -1 : s.m)),
       b.getNamedAttr("n", b.getI64IntegerAttr(s.n)),
       b.getNamedAttr("k", b.getI64IntegerAttr(s.k)),
       b.getNamedAttr("l", b.getI64IntegerAttr(s.l)),
       b.getNamedAttr("inputs", b.getArrayAttr(inputs)),
       b.getNamedAttr("outputs", b.getArrayAttr(outputs))});
}

DictionaryAttr DSMMaterializePass::planInfo(ScheduleAttr sched) {
  Builder b(sched.getContext());
  SmallVector<NamedAttribute> fields{
      b.getNamedAttr("cluster", b.getDenseI64ArrayAttr(sched.getCluster())),
      b.getNamedAttr("block", b.getDenseI64ArrayAttr(sched.getBlock())),
      b.getNamedAttr("grid", b.getDenseI64ArrayAttr(sched.getGrid())),
      b.getNamedAttr("stages", b.getI64IntegerAttr(sched.getStages())),
      b.getNamedAttr("cost_ns", b.getI64IntegerAttr(sched.getCostNs())),
      b.getNamedAttr("deterministic", b.getBoolAttr(sched.getDeterministic()))};
  if (sched.getSwapAb())
    fields.push_back(b.getNamedAttr("swap_ab", b.getBoolAttr(true)));
  return b.getDictionaryAttr(fields);
}

DictionaryAttr DSMMaterializePass::materialize(FusedChainOp chain,
                                               const KernelPlan &plan,
                                               StringRef name,
                                               ArrayRef<std::string> inputNames,
                                               StringRef outName) {
  ModuleOp module = getOperation();
  MLIRContext *ctx = module.getContext();
  Location loc = chain.getLoc();
  OpBuilder b(ctx);

  // One gpu.module per kernel: one PTX/cubin file per kernel in the bundle.
  b.setInsertionPointToEnd(module.getBody());
  auto gpuModule = gpu::GPUModuleOp::create(b, loc, (name + "_module").str());
  gpu::GPUFuncOp kernel = buildKernel(b, loc, gpuModule, name, plan);

  // Host side: a launch function taking the kernel ABI; the grid grows with
  // the run-time M.
  b.setInsertionPointToEnd(module.getBody());
  auto launch = func::FuncOp::create(b, loc, (name + "_launch").str(),
                                     kernel.getFunctionType());
  Block *entry = launch.addEntryBlock();
  b.setInsertionPointToStart(entry);
  Value mArg = entry->getArguments().back();
  Value m = arith::IndexCastUIOp::create(b, loc, b.getIndexType(), mArg);
  auto cst = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  // Swapped operands of a static M: a fixed grid (gridMTile() 0).
  Value gridX = cst(plan.launchGridX());
  if (plan.gridMTile())
    gridX = arith::MulIOp::create(
        b, loc, arith::CeilDivUIOp::create(b, loc, m, cst(plan.gridMTile())),
        gridX);
  Value one = cst(1);
  Value smem = arith::ConstantIntOp::create(b, loc, b.getI32Type(),
                                            plan.smemBytes);
  std::optional<gpu::KernelDim3> cluster;
  if (plan.clusterSize() > 1)
    cluster = gpu::KernelDim3{cst(plan.clusterSize()), one, one};
  gpu::LaunchFuncOp::create(b, loc, kernel, {gridX, one, one},
                            {cst(plan.numThreads()), one, one}, smem,
                            entry->getArguments(), Type(), ValueRange(),
                            cluster);
  func::ReturnOp::create(b, loc);

  // Manifest entry of the kernel (docs/bundle.md).
  SmallVector<Attribute> params;
  for (const KernelParam &param : getKernelParams(plan)) {
    SmallVector<NamedAttribute> attrs;
    switch (param.kind) {
    case KernelParam::Kind::TensorMap:
      attrs = {
          b.getNamedAttr("kind", b.getStringAttr("tensormap")),
          b.getNamedAttr(
              "tensor", b.getStringAttr(inputNames.empty()
                                            ? "in" + std::to_string(param.input)
                                            : inputNames[param.input])),
          b.getNamedAttr("box", b.getDenseI64ArrayAttr(param.box)),
          b.getNamedAttr("swizzle", b.getStringAttr("128B")),
          b.getNamedAttr("l2_promotion", b.getStringAttr("256B")),
          b.getNamedAttr("oob_fill", b.getStringAttr("zero")),
          b.getNamedAttr("interleave", b.getStringAttr("none"))};
      // A fitted to a dynamic M: the runtime clamps the box's rows to M.
      if (param.boxFitsM)
        attrs.push_back(b.getNamedAttr("box_fits_m", b.getBoolAttr(true)));
      // A's last-tile map of a dynamic M: the runtime cuts the box's rows
      // to those of the launch's last m tile.
      if (param.boxTailM)
        attrs.push_back(b.getNamedAttr("box_tail_m", b.getBoolAttr(true)));
      // A 3x3, pad 1 convolution's image in TMA im2col mode: the pixel box
      // spans W and H positions -1 .. extent - 2 at filter offset 0.
      if (param.im2col) {
        SmallVector<int64_t> corner{-1, -1};
        attrs.push_back(b.getNamedAttr(
            "im2col",
            b.getDictionaryAttr(
                {b.getNamedAttr("lower", b.getDenseI64ArrayAttr(corner)),
                 b.getNamedAttr("upper", b.getDenseI64ArrayAttr(corner))})));
      }
      // A conv chain's input seen as a 2-d GEMM operand: the runtime builds
      // the tensormap over this [rows, cols] view of the row-major tensor.
      if (auto it = plan.inputViews.find(param.input);
          it != plan.inputViews.end())
        attrs.push_back(
            b.getNamedAttr("view", b.getDenseI64ArrayAttr(it->second)));
      break;
    case KernelParam::Kind::Ptr:
      attrs = {b.getNamedAttr("kind", b.getStringAttr("ptr")),
               b.getNamedAttr("tensor", b.getStringAttr(outName))};
      break;
    case KernelParam::Kind::Workspace:
      attrs = {b.getNamedAttr("kind", b.getStringAttr("workspace")),
               b.getNamedAttr("bytes_per_m",
                              b.getI64IntegerAttr(plan.workspaceBytesPerM())),
               b.getNamedAttr("zero", b.getBoolAttr(true))};
      // Deterministic planes are written in full before they are read:
      // only the trailing arrival counters need clearing, before each launch
      // (their offset moves with M, onto rows an earlier launch's planes may
      // have left non-zero).
      if (plan.isDeterministic())
        attrs.push_back(b.getNamedAttr(
            "zero_bytes_per_m", b.getI64IntegerAttr(plan.clusterSize() * 4)));
      // A self-cleaning (small, atomic) workspace is left all-zero
      // by its finishers (sums cleared as read, counters reset): the runtime
      // clears it when it allocates it.
      else if (plan.selfCleaningWorkspace)
        attrs.push_back(b.getNamedAttr("self_cleaning", b.getBoolAttr(true)));
      break;
    case KernelParam::Kind::I64:
      attrs = {b.getNamedAttr("kind", b.getStringAttr("i64")),
               b.getNamedAttr("value", b.getStringAttr("M"))};
      break;
    }
    params.push_back(b.getDictionaryAttr(attrs));
  }
  ScheduleAttr sched = plan.schedule;
  int64_t mLo = sched.hasMBin() ? sched.getMLo() : 1;
  int64_t mHi = plan.maxChainM();
  SmallVector<NamedAttribute> fields{
      b.getNamedAttr("name", b.getStringAttr(name)),
      b.getNamedAttr("module", b.getStringAttr(gpuModule.getName())),
      b.getNamedAttr("m_lo", b.getI64IntegerAttr(mLo)),
      b.getNamedAttr("m_hi", b.getI64IntegerAttr(mHi)),
      b.getNamedAttr("block",
                     b.getDenseI64ArrayAttr({plan.numThreads(), 1, 1})),
      b.getNamedAttr("cluster",
                     b.getDenseI64ArrayAttr({plan.clusterSize(), 1, 1})),
      b.getNamedAttr("grid",
                     b.getDenseI64ArrayAttr({plan.launchGridX(), 1, 1})),
      // 0: a swapped static M's fixed grid, not scaled by M.
      b.getNamedAttr("grid_m_tile", b.getI64IntegerAttr(plan.gridMTile())),
      b.getNamedAttr("dynamic_smem", b.getI64IntegerAttr(plan.smemBytes)),
      b.getNamedAttr("plan", planInfo(sched)),
      b.getNamedAttr("params", b.getArrayAttr(params))};
  // Any grid of whole clusters computes every tile; the runtime launches
  // only the clusters that fit at once.
  if (plan.persistent)
    fields.push_back(b.getNamedAttr("persistent", b.getBoolAttr(true)));
  if (plan.waitsForPredecessor)
    fields.push_back(
        b.getNamedAttr("programmatic_launch", b.getBoolAttr(true)));
  return b.getDictionaryAttr(fields);
}

/// Whether `host`, which is replaced by the launch functions of its chains,
/// holds nothing else the program would lose: chain inputs must be function
/// arguments, the function must return exactly chain results, and any other
/// op must be side-effect free (it then feeds neither a chain nor the
/// return: dead code).
static LogicalResult verifyReplaceableHost(FunctionOpInterface host) {
  auto fail = [&](Operation *op, const Twine &why) {
    return op->emitOpError("cannot be replaced by kernel launches: ")
           << why;
  };
  if (!host.getFunctionBody().hasOneBlock())
    return fail(host, "the function has more than one block");
  for (Operation &op : host.getFunctionBody().front()) {
    if (auto chain = dyn_cast<FusedChainOp>(op)) {
      for (Value in : chain.getInputs())
        if (!isa<BlockArgument>(in) || in.getParentBlock() !=
                                           &host.getFunctionBody().front())
          return fail(chain, "a chain input is computed in the function; "
                             "the runtime passes chain inputs as they are");
      continue;
    }
    if (op.hasTrait<OpTrait::IsTerminator>()) {
      for (Value v : op.getOperands())
        if (!v.getDefiningOp<FusedChainOp>())
          return fail(&op, "the function returns a value that is not a "
                           "fused chain result");
      continue;
    }
    if (!isMemoryEffectFree(&op))
      return fail(&op, "the function computes something besides its fused "
                       "chains");
  }
  return success();
}

/// How the Analysis library runs `sched` on the module's target at the
/// kernel's largest M, `maxM`: persistent (ff::runsPersistent, which the
/// search priced), and with its weights resident (ff::keepsWeightsResident,
/// priced as the streaming kernel), and the ring depth of its conv halo
/// (ff::getConvHaloStages, 0: none). The lowering builds it so. Without a
/// known target (a hand-written module) kernels stay one tile per CTA.
struct PricedAs {
  bool persistent = false;
  bool residentWeights = false;
  int64_t haloStages = 0;
};
static PricedAs getPricedAs(FusedChainOp op, ScheduleAttr sched, int64_t maxM,
                            const std::optional<ff::GpuTarget> &target) {
  if (!target)
    return {};
  FailureOr<ff::ChainDesc> chain = getChainDesc(op);
  if (failed(chain))
    return {};
  chain->m = maxM;
  ff::Plan plan = getPlan(sched);
  ff::Dataflow flow = ff::analyzeDataflow(*chain, plan, *target);
  if (!flow.feasible)
    return {};
  return {ff::runsPersistent(*chain, plan, flow, *target),
          ff::keepsWeightsResident(*chain, plan, flow, *target),
          ff::getConvHaloStages(*chain, plan, flow, *target)};
}

/// The smallest weight (bytes) whose first tiles a programmatically launched
/// kernel prefetches into L2 before its wait. On an H100 (twenty-ninth
/// session) the prefetch sped up the sequences with 33-50 MB down weights
/// (S1, S4, S5, G8) by 1.5-2 %; with 6-8 MB ones (S8, G6), which the
/// benchmark's repeated calls keep in L2, its issue time cost 2.5-3 %.
/// Also the smallest weight of a first kernel that does not wait for its
/// predecessor (programmatic-entry, thirty-third session).
static constexpr int64_t kMinPrefetchWeightBytes = int64_t(16) << 20;

/// The bytes of a kernel's weights: B (gated: both), and D when it runs the
/// second GEMM too.
static int64_t getWeightBytes(const KernelPlan &plan) {
  const ChainShape s = plan.chainShape();
  int64_t elems = s.n * s.k * (plan.isGated() ? 2 : 1);
  if (!plan.isSingleGemm())
    elems += s.n * s.l;
  return elems * s.elementType.getIntOrFloatBitWidth() / 8;
}

/// A kernel loads B with an L2 evict-first policy
/// (--dsm-materialize=weight-evict-first) only with one m tile (each
/// weight byte read once, by one CTA), and only where the call's weights
/// exceed L2, where they cannot stay resident from one call to the next
/// anyway. There the policy keeps the weight stream from pushing out what
/// is read again (A, the intermediate): on an H200 S5-S7 ran 4-5 % faster,
/// G5, G8 and S4 3 %; applied where the weights fit L2 (S8, G6, C4-b1),
/// 1-3 % slower (docs/validation.md, thirty-fourth session).
void DSMMaterializePass::decideWeightEviction(
    MutableArrayRef<KernelPlan> call,
    const std::optional<ff::GpuTarget> &t) const {
  int64_t callWeights = 0;
  for (const KernelPlan &plan : call)
    callWeights += getWeightBytes(plan);
  for (KernelPlan &plan : call)
    plan.evictFirstWeights = weightEvictFirst && t &&
                             callWeights > t->l2Bytes &&
                             plan.canEvictFirstWeights();
}

/// A kernel launched while its predecessor runs gets the SMs around it: two
/// of its CTAs may share one where a launch on an idle GPU spreads them
/// (G4's and G9's second kernels, 96 KiB each, ran 9-14 % slower launched
/// early). Where its grid fits one CTA per SM (its clusters all resident
/// at once), its dynamic shared memory is raised past half an SM's, so no
/// two can share (G4 then ran 3 % faster than launched after its
/// predecessor).
static void spreadOnePerSm(KernelPlan &plan, const ff::GpuTarget &t) {
  int64_t ctas = plan.ctasPerMTile() *
                 llvm::divideCeil(plan.maxM(), plan.launchTileRows());
  // Only a grid whose clusters are all resident at one CTA per SM: else
  // one CTA per SM would add a wave.
  if (plan.persistent || ctas > t.sms ||
      ctas / plan.clusterSize() >
          t.getMaxActiveClusters(plan.clusterSize(), /*ctasPerSm=*/1))
    return;
  int64_t half = t.smemPerSm / 2 - t.smemSystemPerBlock + 1;
  plan.smemBytes =
      std::max<int64_t>(plan.smemBytes, int64_t(llvm::alignTo(half, 1024)));
}

LogicalResult DSMMaterializePass::materializeSequence(
    FusedChainOp chain, ArrayRef<SequencePair> pairs,
    const std::optional<ff::GpuTarget> &t, SmallVectorImpl<Attribute> &kernels,
    SmallVectorImpl<Attribute> &intermediates) {
  OpBuilder b(chain);
  std::string why;
  FailureOr<std::pair<FusedChainOp, FusedChainOp>> halves =
      buildSequenceChains(b, chain, why);
  if (failed(halves))
    return chain.emitOpError("kernel sequence cannot be lowered: ") << why;
  auto [first, second] = *halves;
  // Kernel 0 reads the chain's A and up weight(s) and writes the
  // intermediate "c"; kernel 1 reads "c" and the down weight and writes the
  // chain's output. Each half's inputs by their names in the bundle.
  const std::string cName = "c";
  FusedChainOp halvesInOrder[] = {first, second};
  SmallVector<SmallVector<std::string>> inputs(2);
  for (auto [half, names] : llvm::zip(halvesInOrder, inputs))
    for (Value in : half.getInputs()) {
      if (in == first->getResult(0)) {
        names.push_back(cName);
        continue;
      }
      auto pos = llvm::find(chain.getInputs(), in);
      assert(pos != chain.getInputs().end() &&
             "a sequence half reads chain inputs or the intermediate");
      names.push_back(
          "in" + std::to_string(std::distance(chain.getInputs().begin(), pos)));
    }
  LogicalResult result = success();
  for (const SequencePair &pair : pairs) {
    ScheduleAttr scheds[] = {pair.first, pair.second};
    SmallVector<KernelPlan, 2> plans;
    for (unsigned i = 0; i < 2 && succeeded(result); ++i) {
      halvesInOrder[i].setScheduleAttr(scheds[i]);
      FailureOr<KernelPlan> plan =
          configurePlan(halvesInOrder[i], scheds[i], t);
      if (failed(plan))
        result = failure();
      else
        plans.push_back(std::move(*plan));
    }
    if (failed(result))
      break;
    decideWeightEviction(plans, t);
    // Programmatic dependent launch (docs/lowering.md).
    if (programmaticLaunch) {
      plans[0].launchDependents = true;
      KernelPlan &second = plans[1];
      second.waitsForPredecessor = true;
      // A swapped kernel's B is the predecessor's output, not a weight.
      second.prefetchWeights =
          !second.swapAb && getWeightBytes(second) >= kMinPrefetchWeightBytes;
      if (t)
        spreadOnePerSm(second, *t);
    }
    for (unsigned i = 0; i < 2; ++i)
      kernels.push_back(materialize(
          halvesInOrder[i], plans[i], (pair.name + "_s" + Twine(i)).str(),
          inputs[i], i == 0 ? StringRef(cName) : "out"));
  }
  // The intermediate: act(A B) (gated: act(A Bg) * (A Bu)), [M, N] (-1
  // for a dynamic M).
  intermediates.push_back(
      getTensorInfo(b, cName, first->getResult(0).getType()));
  second->erase();
  first->erase();
  return result;
}

FailureOr<KernelPlan>
DSMMaterializePass::configurePlan(FusedChainOp chain, ScheduleAttr sched,
                                  const std::optional<ff::GpuTarget> &target) {
  std::string why;
  FailureOr<KernelPlan> plan = planKernel(chain, sched, why, fitABox);
  if (failed(plan)) {
    chain.emitOpError("schedule cannot be lowered: ") << why;
    return failure();
  }
  plan->testOmitBarrier = testOmitBarrier;
  if (convHaloGemm && plan->haloGemmRows())
    plan->useHaloGemm();
  // Deterministic planes are not cleared by their readers (see the
  // workspace param); small atomic workspaces are cheaper to clear in
  // the finishers than with a memset launch, large ones are not.
  plan->selfCleaningWorkspace =
      plan->needsWorkspace && !plan->isDeterministic() &&
      selfCleaningMaxKiB > 0 &&
      plan->workspaceBytesPerM() * plan->maxM() <= selfCleaningMaxKiB * 1024;
  // Measured on plain GEMMs only (docs/lowering.md); a lone n tile has
  // nothing to share.
  // Split-K clusters are one tile each (not persistent); they take the
  // raster where B outgrows L2: n fastest, S3's gated GEMM at M = 256
  // split over pairs read B from DRAM once per m tile (ncu), and on an
  // H200 the raster took G5's down GEMM (128 MB) 1.3 % faster, but G7's
  // (1.2 MB) 14 % slower (docs/validation.md, thirty-ninth session).
  // Clusters along m map their tiles by block index (not persistent).
  bool tiled = plan->isSingleGemm() && plan->clusterK == 1;
  bool splitKRaster = plan->isSingleGemm() && plan->clusterK > 1 && target &&
                      getWeightBytes(*plan) > target->l2Bytes;
  if ((tiled || splitKRaster) && !plan->isConv() && plan->ctasN > 1 &&
      plan->clusterM == 1)
    plan->rasterGroupM = rasterGroupM;
  // FFN kernels whose CTA runs its m tile alone (solo or streamed n):
  // where the model prices them persistent (one CTA per SM, one to
  // eight waves of tiles).
  PricedAs priced;
  if (!tiled && plan->runsMTileAlone())
    priced = getPricedAs(chain, sched, plan->maxM(), target);
  plan->persistent = tiled ? persistentGemm && plan->clusterM == 1
                           : persistentSolo && priced.persistent;
  // A persistent solo kernel whose B and D fit beside the A ring loads
  // them once. KernelPlan lays it out by ff::getResidentLayout, which
  // also sized it for ff::keepsWeightsResident; the checks below fail
  // only if the two sides' region sizes ever differ.
  auto exceedsSmem = [&](StringRef layout) {
    if (plan->smemBytes <= kMaxDynamicSmemBytes)
      return false;
    chain.emitOpError() << layout << " layout needs " << plan->smemBytes
                        << " bytes of shared memory; at most "
                        << kMaxDynamicSmemBytes;
    return true;
  };
  if (plan->persistent && residentWeights && priced.residentWeights) {
    plan->useResidentWeights();
    if (exceedsSmem("resident-weights"))
      return failure();
    plan->warpgroupTiles = warpgroupTiles && plan->canUseWarpgroupTiles();
    // A 3x3 convolution of two image rows per tile reads each
    // warpgroup's row from one halo per 64 channels.
    if (convHalo && priced.haloStages) {
      if (!plan->canUseConvHalo()) {
        chain.emitOpError("conv-halo does not fit the kernel plan");
        return failure();
      }
      plan->useConvHalo(priced.haloStages);
      if (exceedsSmem("conv-halo"))
        return failure();
    }
  }
  // KernelPlan::canSnakeRounds says where snake rounds paid on an H200.
  plan->snakeRounds = snakeRounds && plan->canSnakeRounds();
  if (multicastA && !plan->isSingleGemm())
    plan->aMulticast = plan->canMulticastA();
  if (workspaceBulkReduce)
    plan->bulkCols = plan->chooseBulkCols();
  plan->shufflePush = shufflePush && plan->shuffle;
  if (!lateDStages)
    plan->useOwnDStagesOnly();
  plan->approxTanh = approxTanh;
  plan->approxDiv = approxDiv;
  if (reducePush && plan->canReducePush())
    plan->useReducePush();
  plan->pairedLoads = pairedLoadsMinStages > 0 &&
                      plan->stages >= pairedLoadsMinStages &&
                      plan->canPairLoads();
  plan->earlyRelease = earlyRelease && plan->canReleaseEarly();
  plan->fitABox = fitABox && plan->canFitABox();
  plan->tailABox = fitABox && plan->canTailABox();
  // A tail tile's rows past its box read stale shared memory too: zeroed,
  // dynamic S chains with a partial last m tile ran 1.02-1.05x faster on an
  // H200 (docs/validation.md, forty-fourth session).
  plan->zeroStaleA = zeroStaleA && (plan->fitABox || plan->tailABox);
  if (plan->aSlotRows < plan->bm && !plan->fitABox) {
    chain.emitOpError("A's ring slots hold ")
        << plan->aSlotRows << " rows but its box is not fitted to M";
    return failure();
  }
  if (testOmitBarrier && !plan->needsWorkspace) {
    chain.emitOpError("test-omit-barrier needs a plan with an "
                      "inter-cluster workspace reduction (grid_n > 1)");
    return failure();
  }
  // After every layout decision (spreadOnePerSm raises the final size).
  // Every kernel lets the kernel after it on the stream launch while it
  // runs, and overlaps its own launch and barrier setup with whatever kernel
  // precedes it, unless it streams a large weight (docs/lowering.md):
  // bandwidth-bound, it is slowed more by starting on the SMs its
  // predecessor leaves free than sped up by the overlap (S2, S3, S5-S7 ran
  // 2-6 % slower on an H100). A sequence's second kernel waits for its
  // first whatever its weight (materializeSequence).
  if (programmaticEntry) {
    plan->launchDependents = true;
    if (getWeightBytes(*plan) < kMinPrefetchWeightBytes) {
      plan->waitsForPredecessor = true;
      if (target)
        spreadOnePerSm(*plan, *target);
    }
  }
  return plan;
}

void DSMMaterializePass::runOnOperation() {
  ModuleOp module = getOperation();
  MLIRContext *ctx = module.getContext();
  std::optional<ff::GpuTarget> target;
  if (auto attr = module->getAttrOfType<TargetAttr>("dsm.target")) {
    if (llvm::Expected<ff::GpuTarget> t = ff::lookupTarget(attr.getName()))
      target = *t;
    else
      llvm::consumeError(t.takeError());
  }
  SmallVector<FusedChainOp> chains;
  module.walk([&](FusedChainOp op) { chains.push_back(op); });

  // Linalg left outside a chain (--dsm-fuse refused it, or did not run) has
  // no lowering in this pipeline: refuse it here, by name, rather than let a
  // later conversion fail on a half-converted body. Name a contraction when
  // there is one: it is what --dsm-fuse reported.
  Operation *left = nullptr;
  module.walk([&](linalg::LinalgOp op) {
    if (op->getParentOfType<FusedChainOp>())
      return WalkResult::advance();
    if (!left || linalg::isaContractionOpInterface(op))
      left = op;
    return linalg::isaContractionOpInterface(op) ? WalkResult::interrupt()
                                                 : WalkResult::advance();
  });
  if (left) {
    left->emitError("'")
        << left->getName()
        << "' outside a dsm.fused_chain cannot be lowered "
           "(--dsm-fuse=report=true says why it was not fused)";
    return signalPassFailure();
  }
  if (chains.empty())
    return;

  // The manifest records a hash of the program as it reached this pass.
  std::string source;
  {
    llvm::raw_string_ostream os(source);
    module.print(os);
  }
  std::string sourceHash = toHex(llvm::SHA256::hash(
      ArrayRef<uint8_t>((const uint8_t *)source.data(), source.size())));

  // The host functions are erased below: refuse before emitting anything if
  // that would drop code.
  llvm::SetVector<FunctionOpInterface> hostFuncs;
  for (FusedChainOp chain : chains)
    if (auto fn = chain->getParentOfType<FunctionOpInterface>())
      hostFuncs.insert(fn);
  for (FunctionOpInterface fn : hostFuncs)
    if (failed(verifyReplaceableHost(fn)))
      return signalPassFailure();

  Builder b(ctx);
  SmallVector<Attribute> bundles;
  llvm::SetVector<Operation *> hosts;
  for (auto [chainIdx, chain] : llvm::enumerate(chains)) {
    if (!chain.getSchedule()) {
      chain.emitOpError("requires a #dsm.schedule; run --dsm-search first");
      return signalPassFailure();
    }
    SmallVector<ScheduleAttr> plans;
    if (auto sched = dyn_cast<ScheduleAttr>(*chain.getSchedule()))
      plans.push_back(sched);
    else
      llvm::append_range(
          plans, cast<ScheduleTableAttr>(*chain.getSchedule()).getPlans());

    auto parent = chain->getParentOfType<FunctionOpInterface>();
    std::string base = (parent ? parent.getName().str() : "chain") + "_" +
                       std::to_string(chainIdx);
    SmallVector<Attribute> kernels;
    DictionaryAttr chainDict, planDict;
    // The plans (M bins) a `sequence` runs as two GEMM kernels instead.
    SmallVector<SequencePair> pairs;
    for (auto [planIdx, sched] : llvm::enumerate(plans)) {
      std::string name =
          plans.size() == 1 ? base : base + "_m" + std::to_string(planIdx);
      if (auto pair = getSequencePair(chain, sched)) {
        pairs.push_back({pair->first, pair->second, name});
        continue;
      }
      FailureOr<KernelPlan> plan = configurePlan(chain, sched, target);
      if (failed(plan))
        return signalPassFailure();
      decideWeightEviction(*plan, target);
      kernels.push_back(materialize(chain, *plan, name));
      if (!chainDict) {
        chainDict = chainInfo(chain, *plan);
        planDict = planInfo(sched);
      }
    }
    SmallVector<Attribute> intermediates;
    if (!pairs.empty()) {
      if (failed(materializeSequence(chain, pairs, target, kernels,
                                     intermediates)))
        return signalPassFailure();
      // The chain's description from its fused plan (kind, activation,
      // weight layouts) when no bin runs fused; a static chain's plan is
      // its sequence.
      if (!chainDict) {
        std::string why;
        FailureOr<KernelPlan> fused = planKernel(chain, plans.front(), why);
        if (failed(fused)) {
          chain.emitOpError("schedule cannot be lowered: ") << why;
          return signalPassFailure();
        }
        chainDict = chainInfo(chain, *fused);
        planDict = planInfo(plans.front());
      }
      if (plans.size() == 1) {
        planDict = b.getDictionaryAttr({b.getNamedAttr(
            "sequence", b.getArrayAttr({planInfo(pairs[0].first),
                                        planInfo(pairs[0].second)}))});
      }
    }
    SmallVector<NamedAttribute> bundle{
        b.getNamedAttr("name", b.getStringAttr(base)),
        b.getNamedAttr("source_hash", b.getStringAttr(sourceHash)),
        b.getNamedAttr("chain", chainDict), b.getNamedAttr("plan", planDict),
        b.getNamedAttr("kernels", b.getArrayAttr(kernels))};
    if (!intermediates.empty())
      bundle.push_back(
          b.getNamedAttr("intermediates", b.getArrayAttr(intermediates)));
    bundles.push_back(b.getDictionaryAttr(bundle));
    if (parent)
      hosts.insert(parent);
  }

  // The tensor-level functions that held the chains are replaced by the
  // launch functions: the runtime drives the kernels through the bundle.
  for (Operation *host : hosts)
    host->erase();
  module->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                  UnitAttr::get(ctx));
  module->setAttr("dsm.bundles", b.getArrayAttr(bundles));
}

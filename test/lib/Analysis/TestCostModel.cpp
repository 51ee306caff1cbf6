//===- TestCostModel.cpp - print the cost model's estimates -----*- C++ -*-===//
//
// Part of the FlashFuser project.
//
// --test-dsm-cost-model: for every dsm.fused_chain, analyses the plan in its
// `schedule` (or, without one, the plan --dsm-search would choose) and
// prints the dataflow analyzer's volumes and the cost terms as remarks, so
// lit tests can pin them with expected-remark.
//
//===----------------------------------------------------------------------===//

#include "ff/Analysis/CostModel.h"
#include "ff/Analysis/Search.h"
#include "ff/Dialect/DSM/IR/DSMOps.h"
#include "ff/Dialect/DSM/Transforms/SearchSchedule.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::dsm;

namespace {

std::string num(double v) { return llvm::formatv("{0:F0}", v).str(); }

struct TestCostModelPass
    : public PassWrapper<TestCostModelPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestCostModelPass)

  TestCostModelPass() = default;
  TestCostModelPass(const TestCostModelPass &other) : PassWrapper(other) {}

  StringRef getArgument() const final { return "test-dsm-cost-model"; }
  StringRef getDescription() const final {
    return "Print the dataflow volumes and cost terms of each fused chain's "
           "plan as remarks";
  }

  Option<std::string> targetName{*this, "target",
                                 llvm::cl::desc("Target of the cost model"),
                                 llvm::cl::init("h100-sxm")};
  Option<std::string> calibration{*this, "calibration",
                                  llvm::cl::desc("DSM calibration JSON file"),
                                  llvm::cl::init("")};

  void report(FusedChainOp op, const ff::ChainDesc &chain, const ff::Plan &plan,
              const ff::GpuTarget &target) {
    ff::Dataflow f = ff::analyzeDataflow(chain, plan, target);
    op.emitRemark("plan ") << plan.str()
                           << (ff::isLowerable(plan, chain) ? " (lowerable)"
                                                            : "");
    if (!f.feasible) {
      op.emitRemark("infeasible: ") << f.reason;
      return;
    }
    op.emitRemark("ctas = ")
        << f.numCtas << ", clusters = " << f.numClusters << " of "
        << f.clusterSize << ", smem = " << f.smemBytes
        << " B, regs/thread = " << f.regsPerThread << " of " << f.regBudget
        << ", ctas/sm = " << f.ctasPerSm;
    op.emitRemark("volume hbm = ")
        << num(f.volume.hbm) << ", l2 = " << num(f.volume.l2)
        << ", dsm = " << num(f.volume.dsm) << ", smem = " << num(f.volume.smem)
        << " B";
    for (const ff::TensorTraffic &t : f.tensors)
      op.emitRemark("tensor ") << t.name << ": l2 = " << num(t.l2Bytes)
                               << ", hbm = " << num(t.hbmBytes)
                               << ", tier = " << ff::stringifyTier(t.residency);
    for (const ff::CollectiveTraffic &c : f.collectives)
      op.emitRemark("collective ")
          << ff::stringifyCollective(c.kind) << ": group = " << c.groupSize
          << ", bytes/cta = " << num(c.bytesPerCta)
          << ", steps/cta = " << c.stepsPerCta;
    ff::Cost c = ff::estimateCost(chain, plan, f, target);
    op.emitRemark("minimax hbm = ")
        << num(c.hbmNs) << ", l2 = " << num(c.l2Ns)
        << ", dsm = " << num(c.dsmNs) << ", smem = " << num(c.smemNs) << " -> "
        << num(c.minimaxNs) << " ns; compute = " << num(c.computeNs) << " ns";
    op.emitRemark("cta compute = ")
        << num(c.ctaComputeNs) << ", memory = " << num(c.ctaMemoryNs)
        << ", sync = " << num(c.ctaSyncNs) << ", fill = " << num(c.ctaFillNs)
        << " -> " << num(c.ctaNs) << " ns";
    op.emitRemark("waves: ")
        << c.fullWaves << " full of " << c.maxActiveClusters << " clusters + "
        << c.tailClusters << " tail; launch = " << num(c.launchNs)
        << " ns; total = " << num(c.totalNs) << " ns";
    if (ff::isLowerable(plan, chain))
      op.emitRemark("kernel-family model = ")
          << num(ff::estimateKernelNs(chain, plan, f, target)) << " ns";
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    FailureOr<ff::GpuTarget> target =
        loadSearchTarget(targetName, calibration, [&] {
          return module.emitError("--test-dsm-cost-model: ");
        });
    if (failed(target))
      return signalPassFailure();
    WalkResult walk = module.walk([&](FusedChainOp op) {
      FailureOr<ff::ChainDesc> chain = getChainDesc(op);
      if (failed(chain))
        return WalkResult::interrupt();
      auto sched = dyn_cast_or_null<ScheduleAttr>(op.getScheduleAttr());
      if (chain->m == 0) {
        op.emitRemark("dynamic M: analyse a bin of a schedule_table with "
                      "--dsm-search top-k instead");
        return WalkResult::advance();
      }
      if (sched) {
        report(op, *chain, getPlan(sched), *target);
        return WalkResult::advance();
      }
      ff::SearchResult r = ff::searchChain(*chain, *target);
      const ff::Candidate *chosen = r.getChosen(/*lowerableOnly=*/true);
      if (!chosen) {
        op.emitRemark("no legal plan");
        return WalkResult::advance();
      }
      report(op, *chain, chosen->plan, *target);
      return WalkResult::advance();
    });
    if (walk.wasInterrupted())
      signalPassFailure();
  }
};

} // namespace

namespace mlir::ff::test {
void registerTestAnalysisPasses() { PassRegistration<TestCostModelPass>(); }
} // namespace mlir::ff::test

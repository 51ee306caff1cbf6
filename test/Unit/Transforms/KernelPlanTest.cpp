//===- KernelPlanTest.cpp - unit tests of isLowerable ---------------------===//
//
// Part of the FlashFuser project.
//
// The predicate --dsm-search uses to keep plans inside the kernel family
// that --dsm-materialize implements.
//
//===----------------------------------------------------------------------===//

#include "ff/Dialect/DSM/Transforms/KernelPlan.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::dsm;

namespace {

// M = 256, K = 512, N = 1024, L = 512, GELU (tanh) between the matmuls.
const char *kFfn =
    "func.func @ffn(%a0: tensor<256x512xbf16>, %a1: tensor<512x1024xbf16>, %a2: tensor<1024x512xbf16>) -> tensor<256x512xbf16> {\n"
    "  %r = dsm.fused_chain ffn (%a0, %a1, %a2)\n"
    "      : (tensor<256x512xbf16>, tensor<512x1024xbf16>, tensor<1024x512xbf16>) -> tensor<256x512xbf16> {\n"
    "  ^bb0(%x: tensor<256x512xbf16>, %w1: tensor<512x1024xbf16>, %w2: tensor<1024x512xbf16>):\n"
    "    %zero = arith.constant 0.0 : f32\n"
    "    %g_e = tensor.empty() : tensor<256x1024xf32>\n"
    "    %g_f = linalg.fill ins(%zero : f32) outs(%g_e : tensor<256x1024xf32>) -> tensor<256x1024xf32>\n"
    "    %g = linalg.matmul ins(%x, %w1 : tensor<256x512xbf16>, tensor<512x1024xbf16>) outs(%g_f : tensor<256x1024xf32>) -> tensor<256x1024xf32>\n"
    "    %h_e = tensor.empty() : tensor<256x1024xbf16>\n"
    "    %h = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = [\"parallel\", \"parallel\"]} ins(%g : tensor<256x1024xf32>) outs(%h_e : tensor<256x1024xbf16>) {\n"
    "    ^bb0(%gv: f32, %o: bf16):\n"
    "      %half = arith.constant 0.5 : f32\n"
    "      %one = arith.constant 1.0 : f32\n"
    "      %k0 = arith.constant 0.7978845608 : f32\n"
    "      %k1 = arith.constant 0.044715 : f32\n"
    "      %x2 = arith.mulf %gv, %gv : f32\n"
    "      %x3 = arith.mulf %x2, %gv : f32\n"
    "      %a3 = arith.mulf %x3, %k1 : f32\n"
    "      %in = arith.addf %gv, %a3 : f32\n"
    "      %sc = arith.mulf %in, %k0 : f32\n"
    "      %th = math.tanh %sc : f32\n"
    "      %p1 = arith.addf %th, %one : f32\n"
    "      %hx = arith.mulf %gv, %half : f32\n"
    "      %y = arith.mulf %hx, %p1 : f32\n"
    "      %t = arith.truncf %y : f32 to bf16\n"
    "      linalg.yield %t : bf16\n"
    "    } -> tensor<256x1024xbf16>\n"
    "    %e_e = tensor.empty() : tensor<256x512xf32>\n"
    "    %e_f = linalg.fill ins(%zero : f32) outs(%e_e : tensor<256x512xf32>) -> tensor<256x512xf32>\n"
    "    %e = linalg.matmul ins(%h, %w2 : tensor<256x1024xbf16>, tensor<1024x512xbf16>) outs(%e_f : tensor<256x512xf32>) -> tensor<256x512xf32>\n"
    "    %o_e = tensor.empty() : tensor<256x512xbf16>\n"
    "    %o = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = [\"parallel\", \"parallel\"]} ins(%e : tensor<256x512xf32>) outs(%o_e : tensor<256x512xbf16>) {\n"
    "    ^bb0(%ev: f32, %oo: bf16):\n"
    "      %t = arith.truncf %ev : f32 to bf16\n"
    "      linalg.yield %t : bf16\n"
    "    } -> tensor<256x512xbf16>\n"
    "    dsm.yield %o : tensor<256x512xbf16>\n"
    "  }\n"
    "  return %r : tensor<256x512xbf16>\n"
    "}\n"
    "\n";

class KernelPlanTest : public ::testing::Test {
protected:
  KernelPlanTest() {
    ctx.loadDialect<DSMDialect, arith::ArithDialect, func::FuncDialect,
                    linalg::LinalgDialect, math::MathDialect,
                    tensor::TensorDialect>();
    module = parseSourceString<ModuleOp>(kFfn, &ctx);
    if (module)
      module->walk([&](FusedChainOp op) { chain = op; });
  }

  ScheduleAttr schedule(StringRef cluster, StringRef block, StringRef grid,
                        StringRef collectives, int stages,
                        bool deterministic = false) {
    std::string text =
        ("#dsm.schedule<cluster = " + cluster + ", block = " + block +
         ", grid = " + grid +
         ", order = [m, n, k, l], spatial = [m, n], residency "
         "= [smem], collectives = " +
         collectives + ", stages = " + Twine(stages) + ", cost_ns = 1" +
         (deterministic ? ", deterministic = true>" : ">"))
            .str();
    return dyn_cast_or_null<ScheduleAttr>(parseAttribute(text, &ctx));
  }

  /// The plan most tests start from: 4-CTA clusters along n, 2 x 2 of
  /// them, 128 x 128 x 64 x 64 blocks, 3 stages.
  ScheduleAttr clusterFfn(bool deterministic = false) {
    return schedule("[1, 4, 1, 1]", "[128, 128, 64, 64]", "[2, 2, 1, 1]",
                    "[reduce_scatter, inter_cluster_reduce]", 3, deterministic);
  }

  /// planKernel on the test chain; a failure's reason goes to `why`.
  FailureOr<KernelPlan> plan(ScheduleAttr s) {
    if (!chain || !s) {
      why = "no chain or no schedule";
      return failure();
    }
    return planKernel(chain, s, why);
  }

  MLIRContext ctx;
  OwningOpRef<ModuleOp> module;
  FusedChainOp chain;
  std::string why;
};

TEST_F(KernelPlanTest, ClusterFfnIsLowerable) {
  ASSERT_TRUE(chain);
  EXPECT_TRUE(isLowerable(chain, clusterFfn(), &why)) << why;
  FailureOr<KernelPlan> plan = this->plan(clusterFfn());
  ASSERT_TRUE(succeeded(plan)) << why;
  EXPECT_EQ(plan->activation, "gelu_tanh");
  EXPECT_EQ(plan->ctasN, 8);
  EXPECT_TRUE(plan->needsWorkspace);
  EXPECT_EQ(plan->numThreads(), 384);
  EXPECT_EQ(plan->smemBytes % 1024, 0);
  EXPECT_LE(plan->smemBytes, kMaxDynamicSmemBytes);
  // A static M of 256 and no M bin: the kernel serves M = 256 only.
  EXPECT_EQ(plan->maxM(), 256);
}

TEST_F(KernelPlanTest, RejectsWhatTheKernelCannotDo) {
  ASSERT_TRUE(chain);
  // Shared memory: blk_n = blk_l = 256 with 4 stages does not fit.
  ScheduleAttr big = schedule("[1, 4, 1, 1]", "[128, 256, 64, 256]",
                              "[2, 1, 1, 1]", "[reduce_scatter]", 4);
  ASSERT_TRUE(big);
  EXPECT_FALSE(isLowerable(chain, big, &why));
  EXPECT_NE(why.find("shared memory"), std::string::npos) << why;
  // blk_k must be 64.
  ScheduleAttr bk = schedule("[1, 4, 1, 1]", "[128, 128, 128, 64]",
                             "[2, 2, 1, 1]",
                             "[reduce_scatter, inter_cluster_reduce]", 2);
  ASSERT_TRUE(bk);
  EXPECT_FALSE(isLowerable(chain, bk, &why));
  EXPECT_NE(why.find("blk_k"), std::string::npos) << why;
  // N must be covered exactly by cls_n * grid_n * blk_n.
  ScheduleAttr cover = schedule("[1, 2, 1, 1]", "[128, 128, 64, 64]",
                                "[2, 2, 1, 1]",
                                "[reduce_scatter, inter_cluster_reduce]", 2);
  ASSERT_TRUE(cover);
  EXPECT_FALSE(isLowerable(chain, cover, &why));
  EXPECT_NE(why.find("N must be"), std::string::npos) << why;
}

TEST_F(KernelPlanTest, ClusterBuffersReuseTheDeadRings) {
  FailureOr<KernelPlan> plan = this->plan(clusterFfn());
  ASSERT_TRUE(succeeded(plan)) << why;
  // The reduced slice (128 x 64/4 fp32) lies over the A/B rings, which the
  // main loop no longer uses; the partial chunk follows C and the D ring.
  EXPECT_EQ(plan->smemReduced, plan->smemA);
  EXPECT_LE(128 * 16 * 4, plan->smemC - plan->smemA);
  EXPECT_EQ(plan->smemE, plan->smemD + 2 * plan->dStageBytes);
  EXPECT_EQ(plan->smemFlag, plan->smemE + 128 * 64 * 4);
  // Nothing was appended for the slice.
  EXPECT_EQ(plan->smemBytes,
            llvm::alignTo(3 * (128 * 64 * 2 + 64 * 128 * 2) + 128 * 128 * 2 +
                              2 * 128 * 64 * 2 + 128 * 64 * 4 + 16,
                          1024));
}

TEST_F(KernelPlanTest, DeterministicWorkspaceHoldsOnePlanePerCluster) {
  FailureOr<KernelPlan> a = plan(clusterFfn());
  FailureOr<KernelPlan> d = plan(clusterFfn(/*deterministic=*/true));
  ASSERT_TRUE(succeeded(a) && succeeded(d)) << why;
  // L = 512 fp32 per row (one tile, or 2 planes) + 4 counters per row.
  EXPECT_EQ(a->workspaceBytesPerM(), 512 * 4 + 4 * 4);
  EXPECT_EQ(d->workspaceBytesPerM(), 2 * 512 * 4 + 4 * 4);
  EXPECT_TRUE(d->isDeterministic());
  EXPECT_FALSE(a->isDeterministic());
}

TEST_F(KernelPlanTest, FfnClustersMayMulticastA) {
  // 128 rows over 4 CTAs: slices of 32 rows, whole 8-row swizzle atoms.
  FailureOr<KernelPlan> c4 = plan(clusterFfn());
  ASSERT_TRUE(succeeded(c4)) << why;
  EXPECT_TRUE(c4->canMulticastA());
  // Off unless --dsm-materialize=multicast-a asks: every CTA loads all rows.
  EXPECT_FALSE(c4->aMulticast);
  EXPECT_EQ(c4->aRowsPerCta(), 128);
  c4->aMulticast = true;
  EXPECT_EQ(c4->aRowsPerCta(), 32);
  // One CTA per cluster has nobody to share with.
  FailureOr<KernelPlan> c1 =
      plan(schedule("[1, 1, 1, 1]", "[128, 128, 64, 64]", "[2, 8, 1, 1]",
                    "[inter_cluster_reduce]", 3));
  ASSERT_TRUE(succeeded(c1)) << why;
  EXPECT_FALSE(c1->canMulticastA());
}

} // namespace

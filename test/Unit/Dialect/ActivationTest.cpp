//===- ActivationTest.cpp - unit tests of the activation matcher ----------===//
//
// Part of the FlashFuser project.
//
//===----------------------------------------------------------------------===//

#include "ff/Dialect/DSM/Utils/Activation.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "gtest/gtest.h"

#include <string>

using namespace mlir;
using namespace mlir::dsm;

namespace {

class ActivationTest : public ::testing::Test {
protected:
  ActivationTest() {
    ctx.loadDialect<arith::ArithDialect, func::FuncDialect,
                    linalg::LinalgDialect, math::MathDialect,
                    tensor::TensorDialect>();
  }

  /// Parses `ir` and matches the activation of its last linalg op.
  std::optional<ActivationKind> matchIn(const std::string &ir) {
    module = parseSourceString<ModuleOp>(ir, &ctx);
    // A test whose IR does not parse must fail, not pass as "no match".
    EXPECT_TRUE(module) << ir;
    if (!module)
      return std::nullopt;
    linalg::LinalgOp last;
    module->walk([&](linalg::LinalgOp op) { last = op; });
    EXPECT_TRUE(last) << ir;
    if (!last)
      return std::nullopt;
    std::optional<ElementwiseActivation> act = matchActivation(last);
    if (!act)
      return std::nullopt;
    EXPECT_EQ(act->input->getOperandNumber(), 0u);
    return act->kind;
  }

  /// Matches a scalar body y = f(%a) on tensors of `type` (f32 or bf16).
  std::optional<ActivationKind> matchBody(const std::string &body,
                                          const std::string &type = "f32") {
    std::string t = "tensor<8x" + type + ">";
    return matchIn(
        "func.func @f(%x: " + t + ", %e: " + t + ") -> " + t +
        " {\n"
        "  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, "
        "affine_map<(i) -> (i)>], iterator_types = [\"parallel\"]} ins(%x : " +
        t + ") outs(%e : " + t + ") {\n  ^bb0(%a: " + type + ", %o: " + type +
        "):\n" + body + "\n  } -> " + t + "\n  return %r : " + t + "\n}\n");
  }

  MLIRContext ctx;
  OwningOpRef<ModuleOp> module;
};

TEST_F(ActivationTest, Identity) {
  EXPECT_EQ(matchBody("linalg.yield %a : f32"), ActivationKind::identity);
  EXPECT_EQ(matchBody(R"(
    %0 = arith.extf %a : bf16 to f32
    %1 = arith.truncf %0 : f32 to bf16
    linalg.yield %1 : bf16)",
                      "bf16"),
            ActivationKind::identity);
}

TEST_F(ActivationTest, Scale) {
  EXPECT_EQ(matchBody(R"(
    %c = arith.constant 0.125 : f32
    %0 = arith.mulf %c, %a : f32
    linalg.yield %0 : f32)"),
            ActivationKind::scale);
}

TEST_F(ActivationTest, Relu) {
  EXPECT_EQ(matchBody(R"(
    %z = arith.constant 0.0 : f32
    %0 = arith.maximumf %a, %z : f32
    linalg.yield %0 : f32)"),
            ActivationKind::relu);
  EXPECT_EQ(matchBody(R"(
    %z = arith.constant 0.0 : f32
    %0 = arith.maxnumf %z, %a : f32
    linalg.yield %0 : f32)"),
            ActivationKind::relu);
  // torch-mlir: select(x > 0, x, 0).
  EXPECT_EQ(matchBody(R"(
    %z = arith.constant 0.0 : f32
    %0 = arith.cmpf ugt, %a, %z : f32
    %1 = arith.select %0, %a, %z : f32
    linalg.yield %1 : f32)"),
            ActivationKind::relu);
  // select(0 < x, x, 0) and select(x < 0, 0, x).
  EXPECT_EQ(matchBody(R"(
    %z = arith.constant 0.0 : f32
    %0 = arith.cmpf olt, %z, %a : f32
    %1 = arith.select %0, %a, %z : f32
    linalg.yield %1 : f32)"),
            ActivationKind::relu);
  EXPECT_EQ(matchBody(R"(
    %z = arith.constant 0.0 : f32
    %0 = arith.cmpf olt, %a, %z : f32
    %1 = arith.select %0, %z, %a : f32
    linalg.yield %1 : f32)"),
            ActivationKind::relu);
  // Not ReLU: the wrong branch order, or a non-zero threshold.
  EXPECT_EQ(matchBody(R"(
    %z = arith.constant 0.0 : f32
    %0 = arith.cmpf ogt, %a, %z : f32
    %1 = arith.select %0, %z, %a : f32
    linalg.yield %1 : f32)"),
            std::nullopt);
  EXPECT_EQ(matchBody(R"(
    %z = arith.constant 1.0 : f32
    %0 = arith.maximumf %a, %z : f32
    linalg.yield %0 : f32)"),
            std::nullopt);
}

TEST_F(ActivationTest, ReluAsNamedMaxAgainstZeroFill) {
  EXPECT_EQ(matchIn(R"(
    func.func @f(%x: tensor<8x16xf32>, %e: tensor<8x16xf32>) -> tensor<8x16xf32> {
      %z = arith.constant 0.0 : f32
      %f = linalg.fill ins(%z : f32) outs(%e : tensor<8x16xf32>) -> tensor<8x16xf32>
      %r = linalg.max ins(%x, %f : tensor<8x16xf32>, tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) -> tensor<8x16xf32>
      return %r : tensor<8x16xf32>
    })"),
            ActivationKind::relu);
}

TEST_F(ActivationTest, GeluErf) {
  // torch-mlir's form.
  EXPECT_EQ(matchBody(R"(
    %one = arith.constant 1.0 : f32
    %half = arith.constant 0.5 : f32
    %sqrt2 = arith.constant 1.41421356 : f32
    %0 = arith.divf %a, %sqrt2 : f32
    %1 = math.erf %0 : f32
    %2 = arith.addf %1, %one : f32
    %3 = arith.mulf %2, %half : f32
    %4 = arith.mulf %a, %3 : f32
    linalg.yield %4 : f32)"),
            ActivationKind::gelu_erf);
  // x·(0.5 + 0.5·erf(x·(1/√2))), constants rounded to bf16, bf16 body.
  EXPECT_EQ(matchBody(R"(
    %half = arith.constant 0.5 : bf16
    %rs2 = arith.constant 0.70703125 : bf16
    %0 = arith.mulf %rs2, %a : bf16
    %1 = math.erf %0 : bf16
    %2 = arith.mulf %half, %1 : bf16
    %3 = arith.addf %half, %2 : bf16
    %4 = arith.mulf %3, %a : bf16
    linalg.yield %4 : bf16)",
                      "bf16"),
            ActivationKind::gelu_erf);
  // A wrong scale inside erf is not GELU.
  EXPECT_EQ(matchBody(R"(
    %one = arith.constant 1.0 : f32
    %half = arith.constant 0.5 : f32
    %0 = arith.mulf %a, %half : f32
    %1 = math.erf %0 : f32
    %2 = arith.addf %1, %one : f32
    %3 = arith.mulf %2, %half : f32
    %4 = arith.mulf %a, %3 : f32
    linalg.yield %4 : f32)"),
            std::nullopt);
}

TEST_F(ActivationTest, GeluTanh) {
  EXPECT_EQ(matchBody(R"(
    %one = arith.constant 1.0 : f32
    %half = arith.constant 0.5 : f32
    %c = arith.constant 0.044715 : f32
    %s = arith.constant 0.797884583 : f32
    %0 = arith.mulf %a, %a : f32
    %1 = arith.mulf %0, %a : f32
    %2 = arith.mulf %1, %c : f32
    %3 = arith.addf %a, %2 : f32
    %4 = arith.mulf %3, %s : f32
    %5 = math.tanh %4 : f32
    %6 = arith.addf %5, %one : f32
    %7 = arith.mulf %a, %half : f32
    %8 = arith.mulf %7, %6 : f32
    linalg.yield %8 : f32)"),
            ActivationKind::gelu_tanh);
  // With math.fpowi and the constants distributed.
  EXPECT_EQ(matchBody(R"(
    %one = arith.constant 1.0 : f32
    %half = arith.constant 0.5 : f32
    %c1 = arith.constant 0.797884583 : f32
    %c3 = arith.constant 0.0356774 : f32
    %three = arith.constant 3 : i32
    %0 = math.fpowi %a, %three : f32, i32
    %1 = arith.mulf %c3, %0 : f32
    %2 = arith.mulf %c1, %a : f32
    %3 = arith.addf %2, %1 : f32
    %4 = math.tanh %3 : f32
    %5 = arith.mulf %half, %a : f32
    %6 = arith.mulf %5, %4 : f32
    %7 = arith.addf %5, %6 : f32
    linalg.yield %7 : f32)"),
            ActivationKind::gelu_tanh);
}

TEST_F(ActivationTest, SigmoidAndSilu) {
  EXPECT_EQ(matchBody(R"(
    %one = arith.constant 1.0 : f32
    %0 = arith.negf %a : f32
    %1 = math.exp %0 : f32
    %2 = arith.addf %1, %one : f32
    %3 = arith.divf %one, %2 : f32
    linalg.yield %3 : f32)"),
            ActivationKind::sigmoid);
  // 0.5 + 0.5·tanh(x/2).
  EXPECT_EQ(matchBody(R"(
    %half = arith.constant 0.5 : f32
    %0 = arith.mulf %a, %half : f32
    %1 = math.tanh %0 : f32
    %2 = arith.mulf %1, %half : f32
    %3 = arith.addf %2, %half : f32
    linalg.yield %3 : f32)"),
            ActivationKind::sigmoid);
  // x·sigmoid(x), with exp(0 − x).
  EXPECT_EQ(matchBody(R"(
    %zero = arith.constant 0.0 : f32
    %one = arith.constant 1.0 : f32
    %0 = arith.subf %zero, %a : f32
    %1 = math.exp %0 : f32
    %2 = arith.addf %one, %1 : f32
    %3 = arith.divf %one, %2 : f32
    %4 = arith.mulf %a, %3 : f32
    linalg.yield %4 : f32)"),
            ActivationKind::silu);
  // x / (1 + exp(−x)) in bf16.
  EXPECT_EQ(matchBody(R"(
    %one = arith.constant 1.0 : bf16
    %m1 = arith.constant -1.0 : bf16
    %0 = arith.mulf %a, %m1 : bf16
    %1 = math.exp %0 : bf16
    %2 = arith.addf %one, %1 : bf16
    %3 = arith.divf %a, %2 : bf16
    linalg.yield %3 : bf16)",
                      "bf16"),
            ActivationKind::silu);
  // exp(+x) is not a sigmoid.
  EXPECT_EQ(matchBody(R"(
    %one = arith.constant 1.0 : f32
    %1 = math.exp %a : f32
    %2 = arith.addf %1, %one : f32
    %3 = arith.divf %one, %2 : f32
    linalg.yield %3 : f32)"),
            std::nullopt);
}

TEST_F(ActivationTest, SiluOnTwoBindingsOfTheSameTensor) {
  // torch-mlir passes the gate twice when it fuses x·sigmoid(x).
  EXPECT_EQ(matchIn(R"(
    func.func @f(%x: tensor<8xf32>, %e: tensor<8xf32>) -> tensor<8xf32> {
      %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%x, %x : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) {
      ^bb0(%a: f32, %b: f32, %o: f32):
        %one = arith.constant 1.0 : f32
        %0 = arith.negf %b : f32
        %1 = math.exp %0 : f32
        %2 = arith.addf %1, %one : f32
        %3 = arith.divf %a, %2 : f32
        linalg.yield %3 : f32
      } -> tensor<8xf32>
      return %r : tensor<8xf32>
    })"),
            ActivationKind::silu);
}

TEST_F(ActivationTest, NotActivations) {
  // Squares, sums of two tensors and ops that read their init are not
  // activations.
  EXPECT_EQ(matchBody(R"(
    %0 = arith.mulf %a, %a : f32
    linalg.yield %0 : f32)"),
            std::nullopt);
  EXPECT_EQ(matchBody(R"(
    %0 = arith.addf %a, %o : f32
    linalg.yield %0 : f32)"),
            std::nullopt);
  EXPECT_EQ(matchIn(R"(
    func.func @f(%x: tensor<8xf32>, %y: tensor<8xf32>, %e: tensor<8xf32>) -> tensor<8xf32> {
      %r = linalg.add ins(%x, %y : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) -> tensor<8xf32>
      return %r : tensor<8xf32>
    })"),
            std::nullopt);
}

TEST_F(ActivationTest, DeepDagsStayCheap) {
  // Forty repeated squarings: a tree walk would take 2^40 steps and the
  // expanded product 2^40 factors; the memoised, capped flattening gives up
  // at once.
  std::string body;
  std::string prev = "%a";
  for (int i = 0; i < 40; ++i) {
    std::string next = "%s" + std::to_string(i);
    body += "    " + next + " = arith.mulf " + prev + ", " + prev + " : f32\n";
    prev = next;
  }
  body += "    linalg.yield " + prev + " : f32";
  EXPECT_EQ(matchBody(body), std::nullopt);
}

TEST_F(ActivationTest, Stringify) {
  EXPECT_EQ(stringifyActivationKind(ActivationKind::gelu_tanh), "gelu_tanh");
  EXPECT_TRUE(isNonLinear(ActivationKind::silu));
  EXPECT_FALSE(isNonLinear(ActivationKind::scale));
}

} // namespace

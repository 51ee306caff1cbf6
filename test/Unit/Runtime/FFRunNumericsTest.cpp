//===- FFRunNumericsTest.cpp - ff-run's inputs, decoding and checks -------===//
//
// The host side of ff-run --inputs / --check / --repeat (tools/ff-run/
// Numerics.h), which the GPU runs rely on: the input distributions, the NaN
// poison told apart from a kernel's NaN/Inf, the NaN/Inf rules of the
// comparison and the bitwise difference count. No GPU needed.
//
//===----------------------------------------------------------------------===//

#include "Numerics.h"

#include "gtest/gtest.h"

#include <cfloat>
#include <cmath>
#include <cstring>

using namespace ff::rt;
using namespace ff::run;

namespace {

std::vector<uint8_t> bf16Bytes(std::initializer_list<uint16_t> bits) {
  std::vector<uint8_t> b;
  for (uint16_t h : bits) {
    b.push_back(uint8_t(h));
    b.push_back(uint8_t(h >> 8));
  }
  return b;
}

TEST(FFRunNumericsTest, ParsesInputModes) {
  InputMode mode = InputMode::Random;
  EXPECT_TRUE(parseInputMode("large", mode));
  EXPECT_EQ(mode, InputMode::Large);
  EXPECT_TRUE(parseInputMode("denormal", mode));
  EXPECT_EQ(mode, InputMode::Denormal);
  EXPECT_TRUE(parseInputMode("random", mode));
  EXPECT_EQ(mode, InputMode::Random);
  EXPECT_FALSE(parseInputMode("huge", mode));
  EXPECT_FALSE(parseInputMode("", mode));
  EXPECT_STREQ(inputModeName(InputMode::Denormal), "denormal");
}

TEST(FFRunNumericsTest, RoundsLikeTheDevice) {
  // bf16: round to nearest even on the upper 16 bits.
  EXPECT_EQ(roundValue(DType::BF16, 1.00390625f), 1.f);        // tie, even
  EXPECT_EQ(roundValue(DType::BF16, 1.01171875f), 1.015625f);  // tie, up
  EXPECT_TRUE(std::isinf(roundValue(DType::BF16, FLT_MAX)));
  EXPECT_TRUE(std::isnan(roundValue(DType::BF16, NAN)));
  // bf16 keeps fp32's subnormals, in steps of 2^-133.
  float tiny = 1e-39f;
  EXPECT_NE(roundValue(DType::BF16, tiny), 0.f);
  EXPECT_LE(std::fabs(roundValue(DType::BF16, tiny) - tiny),
            std::ldexp(1.f, -134));
  // f16: overflow to Inf, NaN stays NaN, subnormals down to 2^-24.
  EXPECT_TRUE(std::isinf(roundValue(DType::F16, 70000.f)));
  EXPECT_TRUE(std::isnan(roundValue(DType::F16, NAN)));
  EXPECT_EQ(roundValue(DType::F16, 5.9604645e-08f), 5.9604645e-08f);
  EXPECT_EQ(roundValue(DType::F16, 1e-9f), 0.f);
  EXPECT_EQ(roundValue(DType::F32, 1e-40f), 1e-40f);
}

TEST(FFRunNumericsTest, RandomInputsAreBoundedAndNeverZero) {
  std::mt19937_64 rng(1);
  InputValues in = drawInput(InputMode::Random, DType::BF16, 4096, 0.5f, rng);
  ASSERT_EQ(in.values.size(), 4096u);
  ASSERT_EQ(in.bytes.size(), 2 * 4096u);
  EXPECT_EQ(in.subnormals, 0u);
  for (float v : in.values) {
    EXPECT_GE(std::fabs(v), 0.5f / 64 * 0.99f);
    EXPECT_LE(std::fabs(v), 0.5f);
  }
  // Same seed, same values.
  std::mt19937_64 again(1);
  EXPECT_EQ(drawInput(InputMode::Random, DType::BF16, 4096, 0.5f, again).bytes,
            in.bytes);
}

TEST(FFRunNumericsTest, LargeInputsAreScaledBf16Values) {
  std::mt19937_64 a(7), b(7);
  InputValues small = drawInput(InputMode::Random, DType::F32, 1000, 1.f, a);
  InputValues large = drawInput(InputMode::Large, DType::BF16, 1000, 1.f, b);
  float maxAbs = 0;
  for (size_t i = 0; i < 1000; ++i) {
    maxAbs = std::max(maxAbs, std::fabs(large.values[i]));
    // The same draws times 1e4, rounded to bf16 (relative error <= 2^-9).
    EXPECT_NEAR(large.values[i], small.values[i] * kLargeScale,
                std::fabs(small.values[i] * kLargeScale) / 256);
    EXPECT_EQ(roundValue(DType::BF16, large.values[i]), large.values[i]);
  }
  EXPECT_GT(maxAbs, 9000.f);
  EXPECT_LE(maxAbs, 10000.f);
}

TEST(FFRunNumericsTest, DenormalInputsMixSubnormalsWithNormals) {
  for (DType t : {DType::BF16, DType::F32, DType::F16}) {
    std::mt19937_64 rng(3);
    InputValues in = drawInput(InputMode::Denormal, t, 20000, 1.f, rng);
    float normalMin = t == DType::F16 ? 6.103515625e-05f : FLT_MIN;
    size_t tiny = 0, normal = 0;
    for (float v : in.values) {
      EXPECT_NE(v, 0.f);
      if (std::fabs(v) < normalMin)
        ++tiny;
      else
        ++normal;
    }
    // About one in four, nearly all subnormal (bf16's smallest is ~9e-41,
    // f16's 6e-8, so nothing in the range flushes to zero).
    EXPECT_EQ(tiny, in.subnormals) << dtypeName(t);
    EXPECT_GT(tiny, 20000u / 5) << dtypeName(t);
    EXPECT_LT(tiny, 20000u / 3) << dtypeName(t);
    EXPECT_GT(normal, 20000u * 2 / 3) << dtypeName(t);
  }
}

TEST(FFRunNumericsTest, PoisonIsToldApartFromKernelNaNAndInf) {
  std::vector<float> v;
  // poison, 1.0, kernel NaN (0x7fc0), +Inf, -Inf, 2.0
  auto raw = bf16Bytes({0xffff, 0x3f80, 0x7fc0, 0x7f80, 0xff80, 0x4000});
  OutputStats s = decodeOutput(raw.data(), 6, DType::BF16, v);
  EXPECT_EQ(s.unwritten, 1u);
  EXPECT_EQ(s.nonfinite, 4u);
  EXPECT_EQ(v[1], 1.f);
  EXPECT_EQ(v[5], 2.f);

  uint32_t words[3] = {0xffffffffu, 0x7fffffffu, 0x3f800000u};
  std::vector<uint8_t> raw32(12);
  std::memcpy(raw32.data(), words, 12);
  s = decodeOutput(raw32.data(), 3, DType::F32, v);
  EXPECT_EQ(s.unwritten, 1u);
  EXPECT_EQ(s.nonfinite, 2u);
  EXPECT_EQ(v[2], 1.f);
}

TEST(FFRunNumericsTest, ComparisonFailsOnNaNOrInfWhereTheReferenceIsFinite) {
  std::vector<float> ref = {1, -2, 3, 4};
  std::vector<float> out = {1, -2, 3, 4};
  Comparison c = compareWithReference(out, DType::F32, ref, 1e-2, 4e-2);
  EXPECT_TRUE(c.pass);
  EXPECT_EQ(c.relL2, 0);
  EXPECT_EQ(c.nonfiniteRef, 0u);

  out[2] = INFINITY;
  c = compareWithReference(out, DType::F32, ref, 1e-2, 4e-2);
  EXPECT_FALSE(c.pass);
  EXPECT_EQ(c.badNonfinite, 1u);
  EXPECT_EQ(c.worst, 2u);

  out[2] = NAN;
  c = compareWithReference(out, DType::F32, ref, 1e-2, 4e-2);
  EXPECT_FALSE(c.pass);
  EXPECT_EQ(c.badNonfinite, 1u);

  // Relative bounds: 1% off everywhere passes 1e-2 L2 only just.
  out = {1.005f, -2.01f, 3.015f, 4.02f};
  c = compareWithReference(out, DType::F32, ref, 1e-2, 4e-2);
  EXPECT_TRUE(c.pass);
  EXPECT_NEAR(c.relL2, 5e-3, 1e-4);
  c = compareWithReference(out, DType::F32, ref, 1e-3, 4e-2);
  EXPECT_FALSE(c.pass);
}

TEST(FFRunNumericsTest, BoundsAreScaleInvariant) {
  // --inputs large keeps the default bounds: the same relative errors at
  // 1e12 compare the same.
  std::vector<float> ref = {1, -2, 3, 4}, out = {1.001f, -2.f, 3.f, 4.f};
  Comparison small = compareWithReference(out, DType::F32, ref, 1e-2, 4e-2);
  for (float &v : ref)
    v *= 1e12f;
  for (float &v : out)
    v *= 1e12f;
  Comparison large = compareWithReference(out, DType::F32, ref, 1e-2, 4e-2);
  EXPECT_NEAR(large.relL2, small.relL2, 1e-6);
  EXPECT_NEAR(large.relMax, small.relMax, 1e-6);
  EXPECT_TRUE(large.pass);
}

TEST(FFRunNumericsTest, OverflowingReferenceMustBeMatched) {
  // f16 output: a reference of 1e5 rounds to +Inf, which the output must
  // hold too; that element stays out of the norms.
  std::vector<float> ref = {1, 1e5f, 3}, out = {1, INFINITY, 3};
  Comparison c = compareWithReference(out, DType::F16, ref, 1e-2, 4e-2);
  EXPECT_TRUE(c.pass);
  EXPECT_EQ(c.nonfiniteRef, 1u);
  EXPECT_EQ(c.nonfiniteMismatch, 0u);
  EXPECT_EQ(c.relL2, 0);

  out[1] = 65504.f;
  c = compareWithReference(out, DType::F16, ref, 1e-2, 4e-2);
  EXPECT_FALSE(c.pass);
  EXPECT_EQ(c.nonfiniteMismatch, 1u);

  // In bf16 or f32 the same reference is finite: an Inf output fails.
  out[1] = INFINITY;
  c = compareWithReference(out, DType::BF16, ref, 1e-2, 4e-2);
  EXPECT_FALSE(c.pass);
  EXPECT_EQ(c.nonfiniteRef, 0u);
  EXPECT_EQ(c.badNonfinite, 1u);
}

TEST(FFRunNumericsTest, CountsBitwiseDifferences) {
  auto a = bf16Bytes({1, 2, 3, 4}), b = a;
  size_t first;
  EXPECT_EQ(countDifferences(a, b, 2, first), 0u);
  EXPECT_EQ(first, SIZE_MAX);
  b[5] ^= 0x80; // element 2: -0 vs +0 style sign flip
  b[7] ^= 0x01; // element 3
  EXPECT_EQ(countDifferences(a, b, 2, first), 2u);
  EXPECT_EQ(first, 2u);
  // Bitwise, not by value: +0 and -0 differ.
  float pz = 0.f, nz = -0.f;
  std::vector<uint8_t> p(4), n(4);
  std::memcpy(p.data(), &pz, 4);
  std::memcpy(n.data(), &nz, 4);
  EXPECT_EQ(countDifferences(p, n, 4, first), 1u);
}

} // namespace

//===- ValidateTest.cpp - Launch-argument validation without a GPU --------===//

#include "TestManifest.h"

#include "ff/Runtime/Validate.h"

#include "gtest/gtest.h"

#include <map>

using namespace ff::rt;
using ff::rt::test::validManifest;

namespace {

class ValidateTest : public ::testing::Test {
protected:
  void SetUp() override {
    std::string error;
    ASSERT_TRUE(parseManifest(validManifest(), man, error)) << error;
  }

  /// x, w1, w2, out for a given M at distinct, aligned fake addresses.
  std::vector<TensorArg> args(int64_t m) {
    auto t = [](uint64_t p, std::vector<int64_t> shape) {
      TensorArg a;
      a.data = p;
      a.dtype = DType::BF16;
      a.shape = std::move(shape);
      return a;
    };
    return {t(0x10000000, {m, 512}), t(0x20000000, {512, 2048}),
            t(0x30000000, {2048, 512}), t(0x40000000, {m, 512})};
  }

  std::string fail(const std::vector<TensorArg> &a,
                   const PointerQuery *query = nullptr, int device = -1) {
    LaunchPlan plan;
    std::string error;
    EXPECT_FALSE(validateArgs(man, a, query, device, plan, error));
    return error;
  }

  Manifest man;
};

TEST_F(ValidateTest, AcceptsGoodArgumentsAndPlansTheLaunch) {
  LaunchPlan plan;
  std::string error;
  ASSERT_TRUE(validateArgs(man, args(200), nullptr, -1, plan, error)) << error;
  EXPECT_EQ(plan.m, 200);
  EXPECT_EQ(plan.kernel, 0);
  // grid [4,1,1], x scaled by ceil(200 / 128) = 2.
  EXPECT_EQ(plan.grid, (std::array<uint32_t, 3>{8, 1, 1}));

  ASSERT_TRUE(validateArgs(man, args(1024), nullptr, -1, plan, error)) << error;
  EXPECT_EQ(plan.kernel, 1);
  // grid [2,4,1], x scaled by ceil(1024 / 256) = 4.
  EXPECT_EQ(plan.grid, (std::array<uint32_t, 3>{8, 4, 1}));
}

// A sequence plans every kernel of the bin, each with its own grid, and
// takes only the chain's inputs and outputs as arguments.
TEST(ValidateSequenceTest, PlansEveryKernelOfTheBin) {
  Manifest man;
  std::string error;
  ASSERT_TRUE(parseManifest(ff::rt::test::sequenceManifest(), man, error))
      << error;
  auto t = [](uint64_t p, std::vector<int64_t> shape) {
    TensorArg a;
    a.data = p;
    a.shape = std::move(shape);
    return a;
  };
  std::vector<TensorArg> args{
      t(0x10000000, {128, 512}), t(0x20000000, {2048, 512}),
      t(0x30000000, {512, 2048}), t(0x40000000, {128, 512})};
  LaunchPlan plan;
  ASSERT_TRUE(validateArgs(man, args, nullptr, -1, plan, error)) << error;
  EXPECT_EQ(plan.kernels, (std::vector<int>{0, 1}));
  ASSERT_EQ(plan.grids.size(), 2u);
  // grid x scaled by ceil(128 / 128) = 1, then by ceil(128 / 64) = 2.
  EXPECT_EQ(plan.grids[0], (std::array<uint32_t, 3>{32, 1, 1}));
  EXPECT_EQ(plan.grids[1], (std::array<uint32_t, 3>{16, 1, 1}));
  EXPECT_EQ(plan.kernel, 0);
  EXPECT_EQ(plan.grid, plan.grids[0]);
  args.push_back(t(0x50000000, {128, 2048}));
  EXPECT_FALSE(validateArgs(man, args, nullptr, -1, plan, error));
  EXPECT_NE(error.find("expected 4 arguments (x, w1, w2, out), got 5"),
            std::string::npos)
      << error;
}

TEST_F(ValidateTest, ExplicitContiguousStridesAndUnitDims) {
  auto a = args(1);
  a[0].strides = {512, 1};
  a[3].strides = {999, 1}; // stride of an extent-1 dim is irrelevant
  LaunchPlan plan;
  std::string error;
  EXPECT_TRUE(validateArgs(man, a, nullptr, -1, plan, error)) << error;
  EXPECT_EQ(plan.grid[0], 4u);
}

TEST_F(ValidateTest, ErrorsNameTheArgument) {
  auto a = args(128);
  a.pop_back();
  EXPECT_EQ(fail(a), "expected 4 arguments (x, w1, w2, out), got 3");

  a = args(128);
  a[1].dtype = DType::F16;
  EXPECT_EQ(fail(a), "input 'w1': dtype f16 does not match the bundle's bf16");

  a = args(128);
  a[2].shape = {2048, 256};
  EXPECT_EQ(fail(a), "input 'w2': dimension 1 is 256, the bundle needs 512 "
                     "(shape [2048, 512])");

  a = args(128);
  a[0].shape = {128, 512, 1};
  EXPECT_EQ(fail(a),
            "input 'x': rank 3 does not match the bundle's shape [M, 512]");

  a = args(128);
  a[3].shape = {64, 512};
  EXPECT_EQ(fail(a), "output 'out': M = 64 is inconsistent with M = 128 from "
                     "input 'x'");

  a = args(128);
  a[0].strides = {1024, 1};
  EXPECT_EQ(fail(a), "input 'x': not contiguous row-major (stride of "
                     "dimension 0 is 1024, expected 512); call .contiguous() "
                     "first");

  a = args(128);
  a[1].strides = {1, 512}; // a transposed view
  EXPECT_NE(fail(a).find("input 'w1': not contiguous row-major"),
            std::string::npos);

  a = args(128);
  a[2].data += 8;
  EXPECT_EQ(fail(a), "input 'w2': data pointer 0x30000008 is not 16-byte "
                     "aligned (TMA needs 16)");

  a = args(128);
  a[0].data = 0;
  EXPECT_EQ(fail(a), "input 'x': null data pointer");

  a = args(128);
  a[0].shape[0] = 0;
  a[3].shape[0] = 0;
  EXPECT_EQ(fail(a), "input 'x': dimension 0 is 0 (must be positive)");
}

TEST_F(ValidateTest, RejectsOverlappingOutput) {
  auto a = args(128);
  a[3].data = a[0].data + 1024; // inside x
  EXPECT_EQ(fail(a), "output 'out' overlaps input 'x'");
}

TEST_F(ValidateTest, RejectsMOutsideBinsAndMultiples) {
  auto a = args(2000000);
  EXPECT_EQ(fail(a), "M = 2000000 is outside every kernel's M bin ([1, 256], "
                     "[257, 1048576])");
  a = args(300);
  EXPECT_EQ(fail(a), "M = 300 is not a multiple of 64, which kernel "
                     "ff_chain1 requires");
}

TEST_F(ValidateTest, StaticMMustMatch) {
  std::string text = validManifest();
  text.replace(text.find("\"m\": -1"), 7, "\"m\": 128");
  std::string error;
  ASSERT_TRUE(parseManifest(text, man, error)) << error;
  EXPECT_EQ(fail(args(64)), "M = 64 but the bundle was built for M = 128");
}

TEST_F(ValidateTest, PointerQueryChecksDeviceMemoryAndOrdinal) {
  std::map<uint64_t, int> devices = {
      {0x10000000, 0}, {0x20000000, 0}, {0x30000000, 1}, {0x40000000, 0}};
  PointerQuery query = [&](uint64_t p, int &device, std::string &why) {
    auto it = devices.find(p);
    if (it == devices.end()) {
      why = "pointer is not a CUDA allocation (host memory?)";
      return false;
    }
    device = it->second;
    return true;
  };
  EXPECT_EQ(fail(args(128), &query, 0),
            "input 'w2': lives on device 1, the launch targets device 0");
  devices[0x30000000] = 0;
  LaunchPlan plan;
  std::string error;
  EXPECT_TRUE(validateArgs(man, args(128), &query, 0, plan, error)) << error;
  auto a = args(128);
  a[3].data = 0x50000000;
  EXPECT_EQ(fail(a, &query, 0), "output 'out': pointer is not a CUDA "
                                "allocation (host memory?)");
}

TEST_F(ValidateTest, TmaOperandsNeed16ByteRows) {
  // x is read through TMA; a row of 8 bf16 is 16 bytes, 4 would be 8.
  std::string text = validManifest();
  for (const char *from : {"[-1, 512]", "[-1, 512]"})
    text.replace(text.find(from), 9, "[-1, 4]");
  text.replace(text.find("[512, 2048]"), 11, "[4, 2048]");
  text.replace(text.find("\"box\": [64, 128]"), 16, "\"box\": [8, 128]");
  std::string error;
  ASSERT_TRUE(parseManifest(text, man, error)) << error;
  auto a = args(128);
  a[0].shape = {128, 4};
  a[1].shape = {4, 2048};
  a[3].shape = {128, 4};
  EXPECT_EQ(fail(a), "input 'x': row of 8 bytes is not a multiple of 16 (TMA "
                     "stride rule)");
}

// An im2col map reads an NHWC image: M is N, the launch checks the 4-D
// shape, and the channel row (the TMA stride unit) must be 16-byte aligned.
TEST_F(ValidateTest, Im2colOperandIsAnNhwcImage) {
  std::string error;
  ASSERT_TRUE(parseManifest(ff::rt::test::im2colManifest(), man, error))
      << error;
  auto a = args(128);
  a[0].shape = {2, 16, 16, 64};
  a[3].shape = {2, 512};
  LaunchPlan plan;
  ASSERT_TRUE(validateArgs(man, a, nullptr, -1, plan, error)) << error;
  EXPECT_EQ(plan.m, 2);
  a[0].shape = {2, 16, 64};
  EXPECT_EQ(fail(a), "input 'x': rank 3 does not match the bundle's shape "
                     "[M, 16, 16, 64]");
  // Four channels are 8 bytes: the box's 8 channels parse, the image not.
  std::string text = ff::rt::test::im2colManifest();
  text.replace(text.find("[-1, 16, 16, 64]"), 16, "[-1, 16, 16, 4]");
  text.replace(text.find("\"box\": [64, 128]"), 16, "\"box\": [8, 128]");
  ASSERT_TRUE(parseManifest(text, man, error)) << error;
  a[0].shape = {2, 16, 16, 4};
  EXPECT_EQ(fail(a), "input 'x': row of 8 bytes is not a multiple of 16 (TMA "
                     "stride rule)");
}

TEST(GridTest, CapsPersistentGridsAtResidentClusters) {
  KernelSpec k;
  k.grid = {16, 1, 1};
  k.cluster = {2, 1, 1};
  k.gridMTile = 128;
  std::array<uint32_t, 3> grid{512, 1, 1};
  capPersistentGrid(k, 66, grid);
  EXPECT_EQ(grid[0], 512u); // not persistent: one tile per CTA
  k.persistent = true;
  capPersistentGrid(k, 66, grid);
  EXPECT_EQ(grid[0], 132u); // 66 whole clusters of 2
  grid[0] = 132 * 8;
  capPersistentGrid(k, 66, grid);
  EXPECT_EQ(grid[0], 132u); // 8 waves: still persistent
  grid[0] = 132 * 8 + 2;
  capPersistentGrid(k, 66, grid);
  EXPECT_EQ(grid[0], 132u * 8 + 2); // more: one tile per CTA
  grid[0] = 16;
  capPersistentGrid(k, 66, grid);
  EXPECT_EQ(grid[0], 16u); // fewer tiles than resident clusters
  capPersistentGrid(k, -1, grid);
  EXPECT_EQ(grid[0], 16u); // occupancy unknown: left alone
}

TEST(GridTest, ScalesXByMTilesAndChecksClusters) {
  KernelSpec k;
  k.name = "k";
  k.grid = {2, 3, 1};
  k.cluster = {2, 1, 1};
  k.gridMTile = 128;
  std::array<uint32_t, 3> grid;
  std::string error;
  ASSERT_TRUE(computeGrid(k, 1, grid, error));
  EXPECT_EQ(grid, (std::array<uint32_t, 3>{2, 3, 1}));
  ASSERT_TRUE(computeGrid(k, 129, grid, error));
  EXPECT_EQ(grid, (std::array<uint32_t, 3>{4, 3, 1}));
  ASSERT_TRUE(computeGrid(k, 4096, grid, error));
  EXPECT_EQ(grid[0], 64u);

  k.grid = {1, 1, 1};
  EXPECT_FALSE(computeGrid(k, 128, grid, error));
  EXPECT_EQ(error, "kernel k: grid x = 1 for M = 128 is not a multiple of "
                   "the cluster x = 2");
  EXPECT_TRUE(computeGrid(k, 256, grid, error));

  k.gridMTile = 0; // grid independent of M
  k.grid = {4, 1, 1};
  ASSERT_TRUE(computeGrid(k, 100000, grid, error));
  EXPECT_EQ(grid[0], 4u);

  k.gridMTile = 1;
  k.grid = {2, 1, 1};
  EXPECT_FALSE(computeGrid(k, int64_t(1) << 31, grid, error));
  EXPECT_NE(error.find("exceeds 2^31-1"), std::string::npos) << error;
}

} // namespace

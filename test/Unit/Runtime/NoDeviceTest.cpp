//===- NoDeviceTest.cpp - The runtime without a CUDA driver ---------------===//
//
// On machines without a GPU (CI) every device entry point must fail cleanly
// with "no CUDA driver found" / "no CUDA device found", while bundle reading
// and validation keep working. Skipped where a driver is present.
//
//===----------------------------------------------------------------------===//

#include "TestManifest.h"

#include "ff/Runtime/CudaDriver.h"
#include "ff/Runtime/Runtime.h"
#include "ff/Runtime/ffrt.h"

#include "gtest/gtest.h"

#include <cstdlib>
#include <fstream>
#include <unistd.h>

using namespace ff::rt;

namespace {

TEST(NoDeviceTest, DeviceEntryPointsFailCleanly) {
  std::string error;
  if (cu::getDriver(error))
    GTEST_SKIP() << "a CUDA driver and device are present";
  EXPECT_EQ(error.rfind("no CUDA", 0), 0u) << error;

  std::string name;
  int major, minor, sms;
  std::string derr;
  EXPECT_FALSE(describeDevice(name, major, minor, sms, derr));
  EXPECT_EQ(derr, error);

  EXPECT_EQ(ffrt_driver_available(), FFRT_ERROR_NO_DEVICE);
  EXPECT_EQ(std::string(ffrt_last_error()), error);

  // A valid bundle opens and validates, but cannot launch.
  char tmpl[] = "/tmp/ffrt-nodev-XXXXXX";
  ASSERT_NE(mkdtemp(tmpl), nullptr);
  std::string dir = tmpl;
  std::string text = test::validManifest();
  for (const char *f : {"ff_chain0.cubin", "ff_chain0.ptx", "ff_chain1.cubin"})
    std::ofstream(dir + "/" + f) << f;
  std::ofstream(dir + "/manifest.json") << text;

  ffrt_bundle *b = nullptr;
  ASSERT_EQ(ffrt_bundle_open(dir.c_str(), /*verify_hash=*/0, &b), FFRT_OK)
      << ffrt_last_error();
  // Nothing allocated, nothing freed.
  EXPECT_EQ(ffrt_bundle_epoch(b), 0u);
  EXPECT_EQ(ffrt_bundle_epoch(nullptr), 0u);
  ffrt_tensor t[4] = {};
  int64_t shapes[4][2] = {{128, 512}, {512, 2048}, {2048, 512}, {128, 512}};
  for (int i = 0; i < 4; ++i) {
    t[i].data = 0x10000000ull * uint64_t(i + 1);
    t[i].dtype = "bf16";
    t[i].ndim = 2;
    t[i].shape[0] = shapes[i][0];
    t[i].shape[1] = shapes[i][1];
  }
  ffrt_plan plan;
  EXPECT_EQ(ffrt_validate(b, t, 4, /*query_pointers=*/0, &plan), FFRT_OK)
      << ffrt_last_error();
  EXPECT_EQ(plan.m, 128);
  EXPECT_EQ(plan.grid[0], 4u);
  EXPECT_EQ(ffrt_validate(b, t, 4, /*query_pointers=*/1, &plan),
            FFRT_ERROR_NO_DEVICE);
  EXPECT_EQ(ffrt_launch(b, t, 4, nullptr), FFRT_ERROR_NO_DEVICE);
  EXPECT_EQ(std::string(ffrt_last_error()), error);
  EXPECT_EQ(ffrt_prepare(b), FFRT_ERROR_NO_DEVICE);
  EXPECT_EQ(ffrt_bundle_epoch(b), 0u);
  // Graph capture needs the driver too; misuse is caught before it.
  ffrt_graph *g = reinterpret_cast<ffrt_graph *>(0x1);
  EXPECT_EQ(ffrt_graph_capture(b, t, 4, &g), FFRT_ERROR_NO_DEVICE);
  EXPECT_EQ(g, nullptr);
  EXPECT_EQ(std::string(ffrt_last_error()), error);
  EXPECT_EQ(ffrt_graph_capture(nullptr, t, 4, &g), FFRT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(ffrt_graph_capture(b, t, 4, nullptr), FFRT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(ffrt_graph_launch(nullptr, nullptr), FFRT_ERROR_INVALID_ARGUMENT);
  ffrt_graph_destroy(nullptr);
  // Without a driver the capture state is unknown (-1), and the last error
  // is left alone: the cached call asks this on every replay.
  EXPECT_EQ(ffrt_stream_capturing(nullptr), -1);
  EXPECT_EQ(ffrt_current_device(), -1);
  EXPECT_EQ(std::string(ffrt_last_error()), "null graph");
  t[1].dtype = "f64";
  EXPECT_EQ(ffrt_validate(b, t, 4, 0, &plan), FFRT_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(ffrt_last_error()).find("unsupported dtype \"f64\""),
            std::string::npos);
  ffrt_bundle_close(b);

  // Verification catches the all-zero placeholder hash.
  EXPECT_EQ(ffrt_bundle_open(dir.c_str(), 1, &b), FFRT_ERROR_BUNDLE);
  EXPECT_NE(std::string(ffrt_last_error()).find("hash mismatch"),
            std::string::npos);
  std::string cmd = "rm -rf '" + dir + "'";
  (void)std::system(cmd.c_str());
}

} // namespace

//===- TargetTest.cpp - unit tests of the target table and calibration ----===//
//
// Part of the FlashFuser project.
//
//===----------------------------------------------------------------------===//

#include "AnalysisTestUtil.h"

#include "ff/Analysis/Target.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"

using namespace mlir::ff;
using namespace mlir::ff::test;

namespace {

/// The message of an error that must have happened.
std::string errorOf(llvm::Error err) {
  EXPECT_TRUE(static_cast<bool>(err));
  return llvm::toString(std::move(err));
}

TEST(TargetTest, KnownTargets) {
  llvm::SmallVector<llvm::StringRef> names = getKnownTargetNames();
  ASSERT_EQ(names.size(), 4u);
  EXPECT_EQ(names.front(), "h100-sxm");
  for (llvm::StringRef name : names) {
    GpuTarget t = llvm::cantFail(lookupTarget(name));
    EXPECT_EQ(t.name, name);
    EXPECT_EQ(t.chip, "sm_90a");
    int64_t sum = 0;
    for (int64_t g : t.gpcSms)
      sum += g;
    EXPECT_EQ(sum, t.sms) << name.str();
    EXPECT_EQ(t.smemPerBlock, 227 * 1024);
    EXPECT_EQ(t.smemReserved, 1024);
    EXPECT_EQ(t.maxCluster, 8);
    EXPECT_EQ(t.maxClusterNonportable, 16);
  }
  EXPECT_EQ(llvm::cantFail(lookupTarget("h100-pcie")).sms, 114);
  EXPECT_EQ(llvm::cantFail(lookupTarget("h200")).hbmGbps, 4800);
}

TEST(TargetTest, UnknownTarget) {
  llvm::Expected<GpuTarget> t = lookupTarget("b200");
  ASSERT_FALSE(static_cast<bool>(t));
  std::string msg = llvm::toString(t.takeError());
  EXPECT_NE(msg.find("unknown target 'b200'"), std::string::npos);
  EXPECT_NE(msg.find("h100-sxm, h100-pcie, h200, h800"), std::string::npos);
}

TEST(TargetTest, PeaksAndBytes) {
  GpuTarget t = h100();
  EXPECT_EQ(t.getPeakTflops(DType::bf16), 989);
  EXPECT_EQ(t.getPeakTflops(DType::f32), 494);
  EXPECT_EQ(t.getPeakTflops(DType::f8), 1979);
  EXPECT_EQ(getByteWidth(DType::bf16), 2);
  EXPECT_EQ(getByteWidth(DType::f8), 1);
  // 4096 FLOP/clk/SM x 132 SMs x 1.83 GHz = 989 TFLOP/s.
  EXPECT_NEAR(4096.0 * t.sms * t.clockMhz * 1e6 / 1e12, 989.0, 1.0);
}

TEST(TargetTest, DsmDefaults) {
  GpuTarget t = h100();
  EXPECT_EQ(getDsmIndex(1), -1);
  EXPECT_EQ(getDsmIndex(3), -1);
  EXPECT_EQ(getDsmIndex(16), 3);
  // ClusterFusion: ~190 cycles at 2, ~280 at 16, 2.90 TB/s at 16.
  EXPECT_EQ(t.getDsmLatency(2), 190);
  EXPECT_EQ(t.getDsmLatency(16), 280);
  EXPECT_EQ(t.getDsmGbps(16), 2900);
  // Bandwidth falls and latency rises with the cluster size (Fig. 4).
  for (int i = 0; i + 1 < 4; ++i) {
    EXPECT_GT(t.dsmGbps[i], t.dsmGbps[i + 1]);
    EXPECT_LT(t.dsmLatencyCycles[i], t.dsmLatencyCycles[i + 1]);
  }
}

// Clusters never straddle GPCs: 30 clusters of 4, 15 of 8 (120 of 132
// SMs) and 7 of 16, as cudaOccupancyMaxActiveClusters reported on an H200
// (scripts/gpu/cluster_occupancy.cu).
TEST(TargetTest, CtasPerSmCountTheDriverReserve) {
  // 228 KiB per SM; each resident CTA also costs the driver's 1 KiB. A
  // kernel of 115712 dynamic + 1024 static bytes fits once, not twice
  // (ncu on an H100: block limit shared mem 1 for S3's 4 x 4 plan), and
  // 1 KiB less fits twice.
  GpuTarget t = llvm::cantFail(lookupTarget("h100-sxm"));
  EXPECT_EQ(t.smemSystemPerBlock, 1024);
  EXPECT_EQ(t.getCtasPerSmBySmem(115712 + 1024), 1);
  EXPECT_EQ(t.getCtasPerSmBySmem(114688 + 1024), 2);
  EXPECT_EQ(t.getCtasPerSmBySmem(227 * 1024), 1);
}

TEST(TargetTest, MaxActiveClusters) {
  GpuTarget t = h100();
  EXPECT_EQ(t.getMaxActiveClusters(1), 132);
  EXPECT_EQ(t.getMaxActiveClusters(2), 66);
  EXPECT_EQ(t.getMaxActiveClusters(4), 30);
  EXPECT_EQ(t.getMaxActiveClusters(8), 15);
  EXPECT_EQ(t.getMaxActiveClusters(16), 7);
  // Measured, below the GPC split's 43, 20 and 7.
  EXPECT_EQ(t.getMaxActiveClusters(3), 39);
  EXPECT_EQ(t.getMaxActiveClusters(6), 17);
  EXPECT_EQ(t.getMaxActiveClusters(12), 7);
  EXPECT_EQ(t.getMaxActiveClusters(6, 2), 34);
  EXPECT_EQ(t.getMaxActiveClusters(16, 2), 15);
  EXPECT_EQ(t.getMaxActiveClusters(0), 0);
}

TEST(TargetTest, CalibrationOverridesListedSizes) {
  GpuTarget t = h100();
  llvm::Error err = applyCalibration(t, R"({"target": "h100-sxm", "dsm": [
      {"cluster": 2, "bandwidth_gbps": 3412.4, "latency_cycles": 181},
      {"cluster": 16, "bandwidth_gbps": 2500, "latency_cycles": 301}]})");
  ASSERT_FALSE(static_cast<bool>(err)) << llvm::toString(std::move(err));
  EXPECT_EQ(t.getDsmGbps(2), 3412);
  EXPECT_EQ(t.getDsmLatency(2), 181);
  EXPECT_EQ(t.getDsmGbps(16), 2500);
  EXPECT_EQ(t.getDsmLatency(16), 301);
  // Untouched sizes keep their defaults.
  EXPECT_EQ(t.getDsmGbps(4), 3100);
  EXPECT_EQ(t.getDsmLatency(8), 240);
}

// The DSM microbenchmark names its file after the device it ran on.
TEST(TargetTest, CalibrationNamedByDevice) {
  llvm::Expected<GpuTarget> t = lookupTarget("h200");
  ASSERT_TRUE(static_cast<bool>(t)) << llvm::toString(t.takeError());
  llvm::Error err = applyCalibration(*t, R"({"target": "NVIDIA H200", "dsm": [
      {"cluster": 4, "bandwidth_gbps": 3442, "latency_cycles": 213}]})");
  ASSERT_FALSE(static_cast<bool>(err)) << llvm::toString(std::move(err));
  EXPECT_EQ(t->getDsmGbps(4), 3442);
  GpuTarget h = h100();
  llvm::Error wrong = applyCalibration(h, R"({"target": "NVIDIA H200",
      "dsm": []})");
  EXPECT_TRUE(static_cast<bool>(wrong));
  llvm::consumeError(std::move(wrong));
}

TEST(TargetTest, CalibrationErrors) {
  struct Case {
    const char *json;
    const char *message;
  } cases[] = {
      {"{", "invalid DSM calibration"},
      {"[]", "expected a JSON object"},
      {R"({"dsm": []})", "expected a string field 'target'"},
      {R"({"target": "h200", "dsm": []})",
       "file is for target 'h200' but the search targets 'h100-sxm'"},
      {R"({"target": "h100-sxm"})", "expected an array field 'dsm'"},
      {R"({"target": "h100-sxm", "dsm": []})", "'dsm' has no entries"},
      {R"({"target": "h100-sxm", "dsm": [3]})", "dsm[0] is not an object"},
      {R"({"target": "h100-sxm", "dsm": [{"bandwidth_gbps": 1}]})",
       "dsm[0] has no integer 'cluster'"},
      {R"({"target": "h100-sxm", "dsm": [{"cluster": 3,
          "bandwidth_gbps": 1, "latency_cycles": 1}]})",
       "cluster 3 is not one of 2, 4, 8, 16"},
      {R"({"target": "h100-sxm", "dsm": [
          {"cluster": 2, "bandwidth_gbps": 1, "latency_cycles": 1},
          {"cluster": 2, "bandwidth_gbps": 1, "latency_cycles": 1}]})",
       "dsm[1]: cluster 2 is listed twice"},
      {R"({"target": "h100-sxm", "dsm": [{"cluster": 4,
          "bandwidth_gbps": 1000}]})",
       "needs numbers 'bandwidth_gbps' and 'latency_cycles'"},
      {R"({"target": "h100-sxm", "dsm": [{"cluster": 4,
          "bandwidth_gbps": -5, "latency_cycles": 100}]})",
       "must be positive"},
      {R"({"target": "h100-sxm", "kernel": 3})", "'kernel' is not an object"},
      {R"({"target": "h100-sxm", "kernel": {"k_step": 1}})",
       "kernel.k_step is not a kernel-model constant"},
      {R"({"target": "h100-sxm", "kernel": {"chunk_ns": 0}})",
       "kernel.chunk_ns must be a positive number"},
      // Fixed per-step costs may be zero (the fit drives k_step_ns there).
      {R"({"target": "h100-sxm", "kernel": {"k_step_ns": -1}})",
       "kernel.k_step_ns must be a non-negative number"},
      {R"({"target": "h100-sxm", "kernel": {"hbm_efficiency": 1.5}})",
       "kernel.hbm_efficiency must be a number in (0, 1]"},
      {R"({"target": "h100-sxm", "kernel": {"chunk_ns": 5}, "dsm": []})",
       "'dsm' has no entries"},
  };
  for (const Case &c : cases) {
    GpuTarget t = h100();
    std::array<int64_t, 4> before = t.dsmGbps;
    std::string msg = errorOf(applyCalibration(t, c.json));
    EXPECT_NE(msg.find(c.message), std::string::npos)
        << "got: " << msg << "\nfor: " << c.json;
    // A rejected file changes nothing.
    EXPECT_EQ(t.dsmGbps, before);
    EXPECT_EQ(t.kernel.chunkNs, h100().kernel.chunkNs);
  }
}

TEST(TargetTest, CalibrationOfTheKernelModel) {
  // A file with only kernel-model constants (fit-kernel-model.py --json)
  // replaces the ones it lists and leaves the DSM figures alone.
  GpuTarget t = h100();
  llvm::Error err = applyCalibration(t, R"({"target": "h100-sxm",
      "kernel": {"k_step_ns": 900, "sm_gbps": 50, "hbm_efficiency": 0.8,
                 "count_in_ns": 0, "gemm_stream_latency_ns": 1500,
                 "gemm_hbm_efficiency": 0.7, "gemm_tflops": 6,
                 "gemm_swapped_tflops": 7, "gemm_swapped_rate_max_rows": 1024,
                 "gemm_lone_warpgroup_factor": 1, "solo_chunk_ns": 250,
                 "gemm_gated_lone_wave_factor": 1.2,
                 "gemm_split_k_stream_latency_ns": 1600}})");
  ASSERT_FALSE(static_cast<bool>(err)) << llvm::toString(std::move(err));
  EXPECT_DOUBLE_EQ(t.kernel.kStepNs, 900);
  EXPECT_DOUBLE_EQ(t.kernel.countInNs, 0); // may be zero: the term is off
  EXPECT_DOUBLE_EQ(t.kernel.smGbps, 50);
  EXPECT_DOUBLE_EQ(t.kernel.hbmEfficiency, 0.8);
  EXPECT_DOUBLE_EQ(t.kernel.gemmStreamLatencyNs, 1500);
  EXPECT_DOUBLE_EQ(t.kernel.gemmHbmEfficiency, 0.7);
  EXPECT_DOUBLE_EQ(t.kernel.gemmTflops, 6);
  EXPECT_DOUBLE_EQ(t.kernel.gemmSwappedTflops, 7);
  EXPECT_DOUBLE_EQ(t.kernel.gemmSwappedRateMaxRows, 1024);
  EXPECT_DOUBLE_EQ(t.kernel.gemmLoneWarpgroupFactor, 1);
  EXPECT_DOUBLE_EQ(h100().kernel.gemmLoneWarpgroupFactor, 1.01);
  EXPECT_DOUBLE_EQ(t.kernel.gemmGatedLoneWaveFactor, 1.2);
  EXPECT_DOUBLE_EQ(t.kernel.gemmSplitKStreamLatencyNs, 1600);
  EXPECT_DOUBLE_EQ(h100().kernel.gemmGatedLoneWaveFactor, 1.12);
  EXPECT_DOUBLE_EQ(t.kernel.soloChunkNs, 250);
  EXPECT_DOUBLE_EQ(t.kernel.chunkNs, h100().kernel.chunkNs);
  EXPECT_EQ(t.dsmGbps, h100().dsmGbps);
  // An efficiency is a fraction.
  GpuTarget u = h100();
  EXPECT_NE(errorOf(applyCalibration(u, R"({"target": "h100-sxm",
      "kernel": {"gemm_hbm_efficiency": 1.2}})"))
                .find("kernel.gemm_hbm_efficiency must be a number in (0, 1]"),
            std::string::npos);
}

TEST(TargetTest, CalibrationFile) {
  GpuTarget t = h100();
  std::string msg =
      errorOf(applyCalibrationFile(t, "/nonexistent/calibration.json"));
  EXPECT_NE(msg.find("cannot read calibration file"), std::string::npos);

  llvm::SmallString<128> path;
  int fd;
  ASSERT_FALSE(llvm::sys::fs::createTemporaryFile("calib", "json", fd, path));
  {
    llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
    os << R"({"target": "h100-sxm", "dsm": [{"cluster": 8,
             "bandwidth_gbps": 2750, "latency_cycles": 250}]})";
  }
  llvm::Error err = applyCalibrationFile(t, path);
  EXPECT_FALSE(static_cast<bool>(err)) << llvm::toString(std::move(err));
  EXPECT_EQ(t.getDsmGbps(8), 2750);
  llvm::sys::fs::remove(path);
}

} // namespace

//===- Target.cpp - Hopper hardware table and DSM calibration ---*- C++ -*-===//
//
// Part of the FlashFuser project.
//
// Sources of the numbers (docs/cost-model.md has the full table):
// - SM counts, clocks, peaks, HBM: NVIDIA H100/H200 datasheets; dense peaks
//   are 4096 bf16 FLOP/clk/SM at the listed clock.
// - GPC sizes: H100 SXM has 8 GPCs of 16-18 SMs with one floor-swept GPC;
//   {18,18,18,16,16,16,16,14} reproduces the measured 15 active clusters of
//   8 CTAs (120 of 132 SMs, accel-sim PR #87) and 7 clusters of 16.
// - DSM bandwidth/latency: DEFAULTS, to be replaced by the runtime's
//   microbenchmark through a calibration file. Latency 190/200/280 cycles at
//   cluster 2/4/16 and 2.90 TB/s at 16 are ClusterFusion's measurements; 8 is
//   interpolated. FlashFuser Fig. 4 puts DSM bandwidth above HBM (2.96 TB/s
//   measured) for clusters 2-8 and on a 0-3 TB/s axis.
//
//===----------------------------------------------------------------------===//

#include "ff/Analysis/Target.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cmath>
#include <vector>

using namespace mlir::ff;

int64_t mlir::ff::getByteWidth(DType t) {
  switch (t) {
  case DType::bf16:
  case DType::f16:
    return 2;
  case DType::f32:
    return 4;
  case DType::f8:
    return 1;
  }
  llvm_unreachable("unknown dtype");
}

int mlir::ff::getDsmIndex(int64_t clusterSize) {
  for (auto [i, c] : llvm::enumerate(kDsmClusterSizes))
    if (c == clusterSize)
      return static_cast<int>(i);
  return -1;
}

int64_t GpuTarget::getPeakTflops(DType t) const {
  switch (t) {
  case DType::bf16:
    return tflopsBf16;
  case DType::f16:
    return tflopsF16;
  case DType::f32:
    return tflopsF32;
  case DType::f8:
    return tflopsF8;
  }
  llvm_unreachable("unknown dtype");
}

/// Cluster sizes that are not a tabulated power of two use the next larger
/// entry (more CTAs never communicate faster).
static int dsmIndexAtLeast(int64_t clusterSize) {
  for (auto [i, c] : llvm::enumerate(kDsmClusterSizes))
    if (c >= clusterSize)
      return static_cast<int>(i);
  return kDsmClusterSizes.size() - 1;
}

int64_t GpuTarget::getDsmGbps(int64_t clusterSize) const {
  return dsmGbps[dsmIndexAtLeast(clusterSize)];
}

int64_t GpuTarget::getDsmLatency(int64_t clusterSize) const {
  return dsmLatencyCycles[dsmIndexAtLeast(clusterSize)];
}

int64_t GpuTarget::getMaxActiveClusters(int64_t clusterSize,
                                        int64_t ctasPerSm) const {
  if (clusterSize <= 0 || ctasPerSm <= 0)
    return 0;
  int64_t n = 0;
  for (int64_t g : gpcSms)
    n += g * ctasPerSm / clusterSize;
  for (auto [size, clusters] : residentClusters)
    if (size == clusterSize)
      n = std::min(n, clusters * ctasPerSm);
  return n;
}

//===----------------------------------------------------------------------===//
// Known targets
//===----------------------------------------------------------------------===//

/// The H100 SXM5 entry; the others are edits of it.
static GpuTarget makeH100Sxm() {
  GpuTarget t;
  t.name = "h100-sxm";
  t.deviceName = "NVIDIA H100 80GB HBM3";
  t.chip = "sm_90a";
  t.sms = 132;
  // A split with the co-resident clusters measured on an H100 SXM and an
  // H200 alike (scripts/gpu/cluster_occupancy.cu, one CTA per SM): 132 / 66
  // / 30 / 15 / 7 clusters of 1 / 2 / 4 / 8 / 16.
  t.gpcSms = {18, 18, 18, 18, 18, 16, 16, 10};
  // The split predicts 43 and 20 clusters of 3 and 6; an H100 SXM holds
  // 39 and 17 (12: 7, as predicted).
  t.residentClusters = {{3, 39}, {6, 17}};
  t.smemPerSm = 228 * 1024;
  t.smemPerBlock = 227 * 1024;
  t.smemReserved = 1024;
  t.regsPerSm = 65536;
  t.maxRegsPerThread = 255;
  t.maxThreadsPerSm = 2048;
  t.maxCluster = 8;
  t.maxClusterNonportable = 16;
  t.clockMhz = 1830;
  t.hbmGbps = 3350;
  t.l2Bytes = 50 * 1024 * 1024;
  t.l2Gbps = 12000;
  t.smemBytesPerClk = 128;
  t.l2BytesPerClkPerSm = 64;
  t.l2ReduceGbps = 1350;
  t.globalLatencyCycles = 830;
  t.dsmGbps = {3300, 3100, 3000, 2900};
  t.dsmLatencyCycles = {190, 200, 240, 280};
  t.clusterBarrierCycles = 380;
  t.tflopsBf16 = 989;
  t.tflopsF16 = 989;
  t.tflopsF32 = 494;
  t.tflopsF8 = 1979;
  t.launchOverheadNs = 2000;
  return t;
}

static std::vector<GpuTarget> buildTable() {
  std::vector<GpuTarget> table;
  table.push_back(makeH100Sxm());

  GpuTarget pcie = makeH100Sxm();
  pcie.name = "h100-pcie";
  pcie.deviceName = "NVIDIA H100 PCIe";
  pcie.sms = 114;
  pcie.gpcSms = {16, 16, 14, 14, 14, 14, 14, 12};
  pcie.residentClusters.clear(); // not measured on this part
  pcie.clockMhz = 1620;
  pcie.hbmGbps = 2000;
  pcie.l2Gbps = 9300;
  pcie.l2ReduceGbps = 1030;
  // Aggregate DSM bandwidth scales with SMs x clock: 114/132 * 1620/1830.
  pcie.dsmGbps = {2520, 2370, 2290, 2220};
  pcie.tflopsBf16 = 756;
  pcie.tflopsF16 = 756;
  pcie.tflopsF32 = 378;
  pcie.tflopsF8 = 1513;
  table.push_back(pcie);

  GpuTarget h200 = makeH100Sxm();
  h200.name = "h200";
  h200.deviceName = "NVIDIA H200";
  h200.hbmGbps = 4800;
  // Measured on an H200 (KernelFit::gemmSplitKStreamLatencyNs).
  h200.kernel.gemmSplitKStreamLatencyNs = 1700;
  table.push_back(h200);

  // H800: the H100 SXM die with cut NVLink; on-chip figures are the same.
  GpuTarget h800 = makeH100Sxm();
  h800.name = "h800";
  h800.deviceName = "NVIDIA H800";
  table.push_back(h800);
  return table;
}

static const std::vector<GpuTarget> &getTable() {
  static const std::vector<GpuTarget> table = buildTable();
  return table;
}

llvm::SmallVector<llvm::StringRef> mlir::ff::getKnownTargetNames() {
  llvm::SmallVector<llvm::StringRef> names;
  for (const GpuTarget &t : getTable())
    names.push_back(t.name);
  return names;
}

llvm::Expected<GpuTarget> mlir::ff::lookupTarget(llvm::StringRef name) {
  for (const GpuTarget &t : getTable())
    if (t.name == name)
      return t;
  return llvm::createStringError(
      "unknown target '" + name.str() +
      "' (known: " + llvm::join(getKnownTargetNames(), ", ") + ")");
}

//===----------------------------------------------------------------------===//
// Calibration
//===----------------------------------------------------------------------===//

static llvm::Error calibrationError(const llvm::Twine &msg) {
  return llvm::createStringError("invalid DSM calibration: " + msg.str());
}

llvm::Error mlir::ff::applyCalibration(GpuTarget &target,
                                       llvm::StringRef json) {
  llvm::Expected<llvm::json::Value> parsed = llvm::json::parse(json);
  if (!parsed)
    return calibrationError(llvm::toString(parsed.takeError()));
  const llvm::json::Object *root = parsed->getAsObject();
  if (!root)
    return calibrationError("expected a JSON object at the top level");
  std::optional<llvm::StringRef> name = root->getString("target");
  if (!name)
    return calibrationError("expected a string field 'target'");
  if (*name != target.name && *name != target.deviceName)
    return calibrationError("file is for target '" + *name +
                            "' but the search targets '" + target.name + "'");
  // Optional: the kernel-family constants (docs/cost-model.md), as
  // scripts/bench/fit-kernel-model.py --json writes them.
  KernelFit kernel = target.kernel;
  const llvm::json::Value *kernelJson = root->get("kernel");
  if (kernelJson) {
    const llvm::json::Object *obj = kernelJson->getAsObject();
    if (!obj)
      return calibrationError("'kernel' is not an object");
    struct Field {
      const char *key;
      double *value;
      bool fraction;
      bool mayBeZero = false;
    } fields[] = {
        {"sm_gbps", &kernel.smGbps, false},
        {"hbm_efficiency", &kernel.hbmEfficiency, true},
        {"l2_gbps", &kernel.l2Gbps, false},
        {"sm_tflops", &kernel.smTflops, false},
        {"one_warpgroup_rate", &kernel.oneWarpgroupRate, false},
        {"k_step_ns", &kernel.kStepNs, false, true},
        {"chunk_ns", &kernel.chunkNs, false},
        {"solo_chunk_ns", &kernel.soloChunkNs, false, true},
        {"reduce_gbps", &kernel.reduceGbps, false},
        {"barrier_ns", &kernel.barrierNs, false, true},
        {"finisher_ns", &kernel.finisherNs, false},
        {"finisher_gbps", &kernel.finisherGbps, false},
        {"count_in_ns", &kernel.countInNs, false, true},
        {"launch_ns", &kernel.launchNs, false},
        {"shuffle_step_ns", &kernel.shuffleStepNs, false, true},
        {"stream_element_ns", &kernel.streamElementNs, false, true},
        {"stream_tflops", &kernel.streamTflops, false},
        {"stream_l2_gbps", &kernel.streamL2Gbps, false},
        {"stream_latency_ns", &kernel.streamLatencyNs, false},
        {"gemm_stream_latency_ns", &kernel.gemmStreamLatencyNs, false},
        {"gemm_hbm_efficiency", &kernel.gemmHbmEfficiency, true},
        {"gemm_tflops", &kernel.gemmTflops, false},
        {"gemm_swapped_tflops", &kernel.gemmSwappedTflops, false},
        {"gemm_swapped_rate_max_rows", &kernel.gemmSwappedRateMaxRows, false},
        {"gemm_smem_gbps", &kernel.gemmSmemGbps, false},
        {"gemm_split_k_stream_latency_ns", &kernel.gemmSplitKStreamLatencyNs,
         false},
        {"gemm_lone_warpgroup_factor", &kernel.gemmLoneWarpgroupFactor, false},
        {"gemm_gated_lone_wave_factor", &kernel.gemmGatedLoneWaveFactor, false},
        {"gemm_halo_l2_gbps", &kernel.gemmHaloL2Gbps, false},
        {"gemm_l2_gbps", &kernel.gemmL2Gbps, false}};
    for (const auto &[key, value] : *obj) {
      auto *f = llvm::find_if(
          fields, [&](const Field &f) { return key == f.key; });
      if (f == std::end(fields))
        return calibrationError("kernel." + key.str() +
                                " is not a kernel-model constant");
      std::optional<double> v = value.getAsNumber();
      if (!v || !(*v > 0 || (f->mayBeZero && *v == 0)) || !std::isfinite(*v) ||
          (f->fraction && *v > 1))
        return calibrationError("kernel." + key.str() + " must be a " +
                                (f->fraction    ? "number in (0, 1]"
                                 : f->mayBeZero ? "non-negative number"
                                                : "positive number"));
      *f->value = *v;
    }
  }

  const llvm::json::Array *entries = root->getArray("dsm");
  if (!entries && kernelJson) {
    target.kernel = kernel;
    return llvm::Error::success();
  }
  if (!entries)
    return calibrationError("expected an array field 'dsm'");
  if (entries->empty())
    return calibrationError("'dsm' has no entries");

  std::array<int64_t, 4> gbps = target.dsmGbps,
                         latency = target.dsmLatencyCycles;
  std::array<bool, 4> seen = {};
  for (auto [i, entry] : llvm::enumerate(*entries)) {
    std::string where = "dsm[" + std::to_string(i) + "]";
    const llvm::json::Object *obj = entry.getAsObject();
    if (!obj)
      return calibrationError(where + " is not an object");
    std::optional<int64_t> cluster = obj->getInteger("cluster");
    if (!cluster)
      return calibrationError(where + " has no integer 'cluster'");
    int idx = getDsmIndex(*cluster);
    if (idx < 0)
      return calibrationError(where + ": cluster " + std::to_string(*cluster) +
                              " is not one of 2, 4, 8, 16");
    if (seen[idx])
      return calibrationError(where + ": cluster " + std::to_string(*cluster) +
                              " is listed twice");
    seen[idx] = true;
    std::optional<double> bw = obj->getNumber("bandwidth_gbps");
    std::optional<double> lat = obj->getNumber("latency_cycles");
    if (!bw || !lat)
      return calibrationError(where + " needs numbers 'bandwidth_gbps' and "
                                      "'latency_cycles'");
    if (!(*bw > 0) || !(*lat > 0))
      return calibrationError(where + ": bandwidth and latency must be "
                                      "positive");
    gbps[idx] = static_cast<int64_t>(*bw + 0.5);
    latency[idx] = static_cast<int64_t>(*lat + 0.5);
    if (gbps[idx] <= 0 || latency[idx] <= 0)
      return calibrationError(where + ": bandwidth and latency must be at "
                                      "least 1 after rounding");
  }
  target.dsmGbps = gbps;
  target.dsmLatencyCycles = latency;
  target.kernel = kernel;
  return llvm::Error::success();
}

llvm::Error mlir::ff::applyCalibrationFile(GpuTarget &target,
                                           llvm::StringRef path) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
  if (!buffer)
    return llvm::createStringError("cannot read calibration file '" +
                                   path.str() +
                                   "': " + buffer.getError().message());
  return applyCalibration(target, (*buffer)->getBuffer());
}

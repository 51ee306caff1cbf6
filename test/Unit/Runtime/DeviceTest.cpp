//===- DeviceTest.cpp - Pointer checks against a real CUDA driver ---------===//
//
// ValidateTest checks the rules with a fake pointer query; these tests ask the
// real driver about real allocations: a pageable host pointer, pinned host
// memory, a misaligned device pointer and (with two GPUs) memory of another
// device are refused, by validate() and by launch() before anything reaches
// the GPU; the capture check sees a real stream capture. DeviceIm2colTest
// launches a PTX kernel that reads an image through the runtime's im2col
// tensor map. Skipped without a CUDA driver and
// device (CI); the wrong-device test also needs a second GPU, the im2col one
// an sm_90 device. scripts/gpu/reliability.sh and validate.sh run them on
// the GPU machine.
//
//===----------------------------------------------------------------------===//

#include "TestManifest.h"

#include "ff/Runtime/CudaDriver.h"
#include "ff/Runtime/Runtime.h"
#include "ff/Runtime/ffrt.h"

#include "gtest/gtest.h"

#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <fstream>
#include <unistd.h>

using namespace ff::rt;
using namespace ff::rt::cu;

namespace {

/// The validManifest() bundle (fake kernel files: nothing may load them) in
/// a temporary directory, and its four tensors in device memory at M = 128.
class DeviceTest : public ::testing::Test {
protected:
  void SetUp() override {
    std::string error;
    d = getDriver(error);
    if (!d)
      GTEST_SKIP() << error;
    char tmpl[] = "/tmp/ffrt-device-XXXXXX";
    ASSERT_NE(mkdtemp(tmpl), nullptr);
    dir = tmpl;
    for (const char *f :
         {"ff_chain0.cubin", "ff_chain0.ptx", "ff_chain1.cubin"})
      std::ofstream(dir + "/" + f) << f;
    std::ofstream(dir + "/manifest.json") << test::validManifest();
    bundle = LoadedBundle::open(dir, /*verifyHash=*/false, error);
    ASSERT_TRUE(bundle) << error;
    // Makes device 0's primary context current.
    std::string name;
    int major, minor, sms;
    ASSERT_TRUE(describeDevice(name, major, minor, sms, error)) << error;
    ASSERT_EQ(d->cuCtxGetCurrent(&ctx0), CUDA_SUCCESS);
    const int64_t shapes[4][2] = {
        {128, 512}, {512, 2048}, {2048, 512}, {128, 512}};
    for (const auto &s : shapes) {
      CUdeviceptr p = 0;
      ASSERT_EQ(d->cuMemAlloc(&p, size_t(s[0] * s[1] * 2)), CUDA_SUCCESS);
      allocations.push_back(p);
      TensorArg a;
      a.data = p;
      a.dtype = DType::BF16;
      a.shape = {s[0], s[1]};
      args.push_back(a);
    }
  }

  void TearDown() override {
    if (!d)
      return;
    d->cuCtxSetCurrent(ctx0);
    for (CUdeviceptr p : allocations)
      d->cuMemFree(p);
    if (!dir.empty()) {
      std::string cmd = "rm -rf '" + dir + "'";
      (void)std::system(cmd.c_str());
    }
  }

  /// validate() with pointer queries must refuse `a`; launch() too, with the
  /// same message (it validates before loading the fake kernels).
  std::string refused(const std::vector<TensorArg> &a) {
    LaunchPlan plan;
    std::string error, launchError;
    EXPECT_FALSE(bundle->validate(a, /*queryPointers=*/true, plan, error));
    EXPECT_FALSE(bundle->launch(a, nullptr, launchError));
    EXPECT_EQ(launchError, error);
    return error;
  }

  /// A driver entry point the runtime does not use itself.
  template <typename Fn> Fn lookup(const char *name) {
    void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
    if (!lib)
      if (const char *env = std::getenv("FF_CUDA_DRIVER_LIB"))
        lib = dlopen(env, RTLD_NOW | RTLD_NOLOAD);
    return lib ? reinterpret_cast<Fn>(dlsym(lib, name)) : nullptr;
  }

  const Driver *d = nullptr;
  CUcontext ctx0 = nullptr;
  std::string dir;
  std::unique_ptr<LoadedBundle> bundle;
  std::vector<TensorArg> args;
  std::vector<CUdeviceptr> allocations;
};

TEST_F(DeviceTest, AcceptsDeviceMemory) {
  LaunchPlan plan;
  std::string error;
  EXPECT_TRUE(bundle->validate(args, /*queryPointers=*/true, plan, error))
      << error;
  EXPECT_EQ(plan.m, 128);
}

TEST_F(DeviceTest, RejectsPageableHostPointer) {
  void *host = std::aligned_alloc(256, 512 * 2048 * 2);
  ASSERT_NE(host, nullptr);
  auto a = args;
  a[1].data = reinterpret_cast<uint64_t>(host);
  std::string error = refused(a);
  std::free(host);
  // Normally "not a CUDA allocation (host memory?)"; a driver that maps
  // pageable memory for the GPU (HMM) may call it host memory instead.
  EXPECT_EQ(error.rfind("input 'w1': pointer is ", 0), 0u) << error;
  EXPECT_NE(error.find("host memory"), std::string::npos) << error;
}

TEST_F(DeviceTest, RejectsPinnedHostPointer) {
  using AllocHost = CUresult (*)(void **, size_t);
  using FreeHost = CUresult (*)(void *);
  auto allocHost = lookup<AllocHost>("cuMemAllocHost_v2");
  auto freeHost = lookup<FreeHost>("cuMemFreeHost");
  ASSERT_TRUE(allocHost && freeHost);
  void *pinned = nullptr;
  ASSERT_EQ(allocHost(&pinned, 128 * 512 * 2), CUDA_SUCCESS);
  auto a = args;
  a[3].data = reinterpret_cast<uint64_t>(pinned);
  std::string error = refused(a);
  freeHost(pinned);
  EXPECT_EQ(error,
            "output 'out': pointer is pinned host memory, not device memory");
}

TEST_F(DeviceTest, RejectsMisalignedDevicePointer) {
  auto a = args;
  a[0].data += 8;
  std::string error = refused(a);
  char expected[128];
  std::snprintf(expected, sizeof(expected),
                "input 'x': data pointer 0x%llx is not 16-byte aligned (TMA "
                "needs 16)",
                (unsigned long long)a[0].data);
  EXPECT_EQ(error, expected);
}

TEST_F(DeviceTest, RejectsMemoryOfAnotherDevice) {
  int count = 0;
  ASSERT_EQ(d->cuDeviceGetCount(&count), CUDA_SUCCESS);
  if (count < 2)
    GTEST_SKIP() << "needs two GPUs, found " << count;
  CUdevice dev1;
  CUcontext ctx1;
  ASSERT_EQ(d->cuDeviceGet(&dev1, 1), CUDA_SUCCESS);
  ASSERT_EQ(d->cuDevicePrimaryCtxRetain(&ctx1, dev1), CUDA_SUCCESS);
  ASSERT_EQ(d->cuCtxSetCurrent(ctx1), CUDA_SUCCESS);
  CUdeviceptr other = 0;
  ASSERT_EQ(d->cuMemAlloc(&other, 2048 * 512 * 2), CUDA_SUCCESS);
  ASSERT_EQ(d->cuCtxSetCurrent(ctx0), CUDA_SUCCESS);
  auto a = args;
  a[2].data = other;
  std::string error = refused(a);
  d->cuCtxSetCurrent(ctx1);
  d->cuMemFree(other);
  d->cuCtxSetCurrent(ctx0);
  d->cuDevicePrimaryCtxRelease(dev1);
  EXPECT_EQ(error, "input 'w2': lives on device 1, the launch targets "
                   "device 0");
}

// The cached call's capture check (ffrt_stream_capturing) against a real
// capture: 1 while one is under way on the stream, 0 before and after.
TEST_F(DeviceTest, ReportsStreamCapture) {
  CUstream s = nullptr;
  ASSERT_EQ(d->cuStreamCreate(&s, CU_STREAM_NON_BLOCKING), CUDA_SUCCESS);
  EXPECT_EQ(ffrt_stream_capturing(s), 0);
  EXPECT_EQ(ffrt_stream_capturing(nullptr), 0);
  ASSERT_EQ(d->cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_THREAD_LOCAL),
            CUDA_SUCCESS);
  EXPECT_EQ(ffrt_stream_capturing(s), 1);
  CUgraph g = nullptr;
  ASSERT_EQ(d->cuStreamEndCapture(s, &g), CUDA_SUCCESS);
  if (g)
    d->cuGraphDestroy(g);
  EXPECT_EQ(ffrt_stream_capturing(s), 0);
  d->cuStreamDestroy(s);
}

// The cached call's device check (ffrt_current_device): the device of the
// thread's current context, -1 with none current.
TEST_F(DeviceTest, ReportsCurrentDevice) {
  CUdevice dev = -1;
  ASSERT_EQ(d->cuCtxGetDevice(&dev), CUDA_SUCCESS);
  EXPECT_EQ(ffrt_current_device(), dev);
  ASSERT_EQ(d->cuCtxSetCurrent(nullptr), CUDA_SUCCESS);
  EXPECT_EQ(ffrt_current_device(), -1);
  ASSERT_EQ(d->cuCtxSetCurrent(ctx0), CUDA_SUCCESS);
  EXPECT_EQ(ffrt_current_device(), dev);
}

/// Each of 3 CTAs TMA-loads 128 pixels (64 channels) of the im2col box of a
/// [2, 16, 16, 64] NHWC image through the tensor map of param 0, starting
/// at box pixel 160 * ctaid, once per tap (r, s) of a 3x3 filter (offsets
/// W = s, H = r), and stores them to out[ctaid][3r + s][pixel][channel].
const char *const kIm2colProbePtx = R"(.version 8.0
.target sm_90a
.address_size 64

.extern .shared .align 1024 .b8 dsmem[];

.visible .entry im2col_probe(
	.param .align 64 .b8 im2col_probe_param_0[128],
	.param .u64 im2col_probe_param_1
)
{
	.reg .pred 	%p<4>;
	.reg .b16 	%rs<4>;
	.reg .b32 	%r<32>;
	.reg .b64 	%rd<8>;
	.shared .align 8 .b64 bar;

	mov.b64 	%rd0, im2col_probe_param_0;
	cvta.param.u64 	%rd1, %rd0;
	ld.param.u64 	%rd2, [im2col_probe_param_1];
	cvta.to.global.u64 	%rd2, %rd2;
	mov.u32 	%r0, %tid.x;
	mov.u32 	%r1, %ctaid.x;
	mov.u32 	%r2, bar;
	mov.u32 	%r3, dsmem;
	setp.eq.u32 	%p0, %r0, 0;
	@%p0 mbarrier.init.shared.b64 	[%r2], 1;
	fence.mbarrier_init.release.cluster;
	bar.sync 	0;
	// Box pixel j0 = 160 ctaid: n = j0 / 224, h = (j0 % 224) / 16 + 0,
	// w = j0 % 16 - 1 (tensor coordinates of the first pixel).
	mul.lo.u32 	%r4, %r1, 160;
	div.u32 	%r14, %r4, 224;
	rem.u32 	%r5, %r4, 224;
	div.u32 	%r13, %r5, 16;
	rem.u32 	%r6, %r5, 16;
	sub.s32 	%r12, %r6, 1;
	mov.u32 	%r11, 0;
	// This thread's pixel in shared memory (128 bytes a pixel).
	mul.lo.u32 	%r7, %r0, 128;
	add.u32 	%r16, %r3, %r7;
	mov.u32 	%r8, 0;
$L_tap:
	div.u32 	%r9, %r8, 3;
	rem.u32 	%r10, %r8, 3;
	cvt.u16.u32 	%rs0, %r10;
	cvt.u16.u32 	%rs1, %r9;
	@%p0 fence.proxy.async.shared::cta;
	@%p0 mbarrier.arrive.expect_tx.shared.b64 	%rd3, [%r2], 16384;
	@%p0 cp.async.bulk.tensor.4d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes [%r3], [%rd1, {%r11, %r12, %r13, %r14}], [%r2], {%rs0, %rs1};
	and.b32 	%r15, %r8, 1;
$L_wait:
	mbarrier.try_wait.parity.shared.b64 	%p1, [%r2], %r15;
	@!%p1 bra 	$L_wait;
	// out + (((ctaid * 9 + tap) * 128 + tid) * 128) bytes.
	mad.lo.u32 	%r17, %r1, 9, %r8;
	mad.lo.u32 	%r18, %r17, 128, %r0;
	mul.wide.u32 	%rd4, %r18, 128;
	add.s64 	%rd5, %rd2, %rd4;
	ld.shared.v4.u32 	{%r20, %r21, %r22, %r23}, [%r16+0];
	st.global.v4.u32 	[%rd5+0], {%r20, %r21, %r22, %r23};
	ld.shared.v4.u32 	{%r20, %r21, %r22, %r23}, [%r16+16];
	st.global.v4.u32 	[%rd5+16], {%r20, %r21, %r22, %r23};
	ld.shared.v4.u32 	{%r20, %r21, %r22, %r23}, [%r16+32];
	st.global.v4.u32 	[%rd5+32], {%r20, %r21, %r22, %r23};
	ld.shared.v4.u32 	{%r20, %r21, %r22, %r23}, [%r16+48];
	st.global.v4.u32 	[%rd5+48], {%r20, %r21, %r22, %r23};
	ld.shared.v4.u32 	{%r20, %r21, %r22, %r23}, [%r16+64];
	st.global.v4.u32 	[%rd5+64], {%r20, %r21, %r22, %r23};
	ld.shared.v4.u32 	{%r20, %r21, %r22, %r23}, [%r16+80];
	st.global.v4.u32 	[%rd5+80], {%r20, %r21, %r22, %r23};
	ld.shared.v4.u32 	{%r20, %r21, %r22, %r23}, [%r16+96];
	st.global.v4.u32 	[%rd5+96], {%r20, %r21, %r22, %r23};
	ld.shared.v4.u32 	{%r20, %r21, %r22, %r23}, [%r16+112];
	st.global.v4.u32 	[%rd5+112], {%r20, %r21, %r22, %r23};
	bar.sync 	0;
	add.u32 	%r8, %r8, 1;
	setp.lt.u32 	%p2, %r8, 9;
	@%p2 bra 	$L_tap;
	ret;
}
)";

/// A real im2col TMA load through a map the runtime built from the manifest:
/// the corners are asymmetric (W padded by 1 on both sides, H unpadded and
/// 2 short), so swapped corners, dims or strides give other pixels.
TEST(DeviceIm2colTest, LoadsEveryTapThroughTheManifestsMap) {
  std::string error;
  const Driver *d = getDriver(error);
  if (!d)
    GTEST_SKIP() << error;
  std::string device;
  int major = 0, minor = 0, sms = 0;
  ASSERT_TRUE(describeDevice(device, major, minor, sms, error)) << error;
  if (major != 9 || minor != 0)
    GTEST_SKIP() << "the probe kernel is sm_90a, " << device << " is sm_"
                 << major << minor;
  ASSERT_NE(d->cuTensorMapEncodeIm2col, nullptr);
  char tmpl[] = "/tmp/ffrt-im2col-XXXXXX";
  ASSERT_NE(mkdtemp(tmpl), nullptr);
  std::string dir = tmpl;
  std::ofstream(dir + "/probe.ptx") << kIm2colProbePtx;
  std::ofstream(dir + "/manifest.json") << R"({
  "format": "flashfuser-bundle", "version": 1, "compiler": "DeviceTest",
  "source_hash": "1111111111111111111111111111111111111111111111111111111111111111",
  "target": {"name": "h100-sxm", "chip": "sm_90a"},
  "chain": {"kind": "chain", "dtype": "bf16", "m": -1, "n": 64, "k": 576,
            "inputs": [{"name": "x", "shape": [-1, 16, 16, 64], "dtype": "bf16"}],
            "outputs": [{"name": "out", "shape": [3456, 64], "dtype": "bf16"}]},
  "kernels": [{"name": "im2col_probe", "ptx": "probe.ptx", "m_lo": 1, "m_hi": 2,
     "block": [128, 1, 1], "cluster": [1, 1, 1], "grid": [3, 1, 1],
     "dynamic_smem": 16384,
     "params": [{"kind": "tensormap", "tensor": "x", "box": [64, 128],
                 "im2col": {"lower": [-1, 0], "upper": [-1, -2]}},
                {"kind": "ptr", "tensor": "out"}]}],
  "hash": "0000000000000000000000000000000000000000000000000000000000000000"
})";
  auto bundle = LoadedBundle::open(dir, /*verifyHash=*/false, error);
  (void)std::system(("rm -rf '" + dir + "'").c_str());
  ASSERT_TRUE(bundle) << error;

  // Small integers are exact in bf16; 0 is what out-of-bounds pixels read.
  const int N = 2, H = 16, W = 16, C = 64, kOut = 3 * 9 * 128;
  auto value = [&](int n, int h, int w, int c) -> uint16_t {
    float f = float(1 + (n * 97 + h * 31 + w * 7 + c) % 251);
    uint32_t bits;
    std::memcpy(&bits, &f, sizeof(bits));
    return uint16_t(bits >> 16);
  };
  std::vector<uint16_t> x(size_t(N * H * W * C)), out(size_t(kOut * C));
  for (int n = 0; n < N; ++n)
    for (int h = 0; h < H; ++h)
      for (int w = 0; w < W; ++w)
        for (int c = 0; c < C; ++c)
          x[size_t(((n * H + h) * W + w) * C + c)] = value(n, h, w, c);
  CUdeviceptr dx = 0, dout = 0;
  ASSERT_EQ(d->cuMemAlloc(&dx, x.size() * 2), CUDA_SUCCESS);
  ASSERT_EQ(d->cuMemAlloc(&dout, out.size() * 2), CUDA_SUCCESS);
  ASSERT_EQ(d->cuMemcpyHtoD(dx, x.data(), x.size() * 2), CUDA_SUCCESS);
  ASSERT_EQ(d->cuMemsetD16(dout, 0xffff, out.size()), CUDA_SUCCESS);
  TensorArg ax, aout;
  ax.data = dx;
  ax.shape = {N, H, W, C};
  aout.data = dout;
  aout.shape = {kOut, C};
  bool launched = bundle->launch({ax, aout}, nullptr, error);
  EXPECT_TRUE(launched) << error;
  CUresult r = launched ? d->cuCtxSynchronize() : CUDA_SUCCESS;
  EXPECT_EQ(r, CUDA_SUCCESS) << d->errorString("cuCtxSynchronize", r);
  if (launched && r == CUDA_SUCCESS)
    EXPECT_EQ(d->cuMemcpyDtoH(out.data(), dout, out.size() * 2), CUDA_SUCCESS);
  d->cuMemFree(dx);
  d->cuMemFree(dout);
  if (!launched || r != CUDA_SUCCESS)
    return;

  // Box pixel j is (n, h, w) = (j / 224, j % 224 / 16 + 0, j % 16 - 1);
  // tap (r, s) reads the image at (h + r, w + s).
  int mismatches = 0;
  for (int cta = 0; cta < 3; ++cta)
    for (int tap = 0; tap < 9; ++tap)
      for (int i = 0; i < 128; ++i) {
        int j = 160 * cta + i, n = j / 224;
        int h = j % 224 / 16 + tap / 3, w = j % 16 - 1 + tap % 3;
        bool inside = h >= 0 && h < H && w >= 0 && w < W;
        for (int c = 0; c < C; ++c) {
          uint16_t want = inside ? value(n, h, w, c) : 0;
          uint16_t got = out[size_t(((cta * 9 + tap) * 128 + i) * C + c)];
          if (got != want && mismatches++ < 8)
            ADD_FAILURE() << "cta " << cta << " tap " << tap << " pixel " << i
                          << " channel " << c << ": got 0x" << std::hex << got
                          << ", want 0x" << want << std::dec << " (n " << n
                          << ", h " << h << ", w " << w << ")";
        }
      }
  EXPECT_EQ(mismatches, 0);
}

} // namespace

//===- DeviceTest.cpp - Pointer checks against a real CUDA driver ---------===//
//
// ValidateTest checks the rules with a fake pointer query; these tests ask the
// real driver about real allocations: a pageable host pointer, pinned host
// memory, a misaligned device pointer and (with two GPUs) memory of another
// device are refused, by validate() and by launch() before anything reaches
// the GPU. Skipped without a CUDA driver and device (CI); the wrong-device
// test also needs a second GPU. scripts/gpu/reliability.sh and validate.sh
// run them on the GPU machine.
//
//===----------------------------------------------------------------------===//

#include "TestManifest.h"

#include "ff/Runtime/CudaDriver.h"
#include "ff/Runtime/Runtime.h"

#include "gtest/gtest.h"

#include <cstdlib>
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

} // namespace

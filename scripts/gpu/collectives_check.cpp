//===- collectives_check.cpp - run the dsm collectives on a GPU ----------===//
//
// Part of the FlashFuser project.
//
// Runs test/Pipelines/Inputs/collectives-check.mlir (lowered to PTX by
// scripts/gpu/make-collectives-check.py) on one 4-CTA cluster and compares
// every destination element of every collective with the value computed
// here. The sources are exact in their types and the combinations are exact
// in fp32 (multiply: one bf16 rounding, reproduced here), so the comparison
// is for equality. The output is poisoned (all bits set: NaN) first, so an
// element the kernel never writes fails.
//
// usage: collectives_check KERNEL.ptx     exit 0: all equal; 1: mismatches;
//        2: usage or CUDA error; 5: no GPU (a skip)
//
// Build (GPU machine): nvcc -O2 -std=c++17 collectives_check.cpp -lcuda
//
//===----------------------------------------------------------------------===//

#include <cuda.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace {

constexpr int kRanks = 4, kThreads = 256, kPerRank = 9984;
constexpr unsigned kDynamicSmem = 18432; // P at 0, Q at 8192, M at 10240

bool check(CUresult r, const char *what) {
  if (r == CUDA_SUCCESS)
    return true;
  const char *msg = nullptr;
  cuGetErrorString(r, &msg);
  std::fprintf(stderr, "collectives_check: %s: %s\n", what,
               msg ? msg : "unknown error");
  return false;
}

/// Round-to-nearest-even to bf16, back as a float.
float bf16(float x) {
  uint32_t u;
  std::memcpy(&u, &x, 4);
  u += 0x7FFF + ((u >> 16) & 1);
  u &= 0xFFFF0000u;
  std::memcpy(&x, &u, 4);
  return x;
}

float p(int r, int i) { return float(r + 1) + float(i) / 1024.0f; }
float s(int r, int i) { return bf16(float(r + 1) + float(i % 8) / 8.0f); }

/// The expected out[r, 0 .. kPerRank).
std::vector<float> expected(int r) {
  std::vector<float> e;
  // reduce_scatter add, axis 1, group(4, 1): Q (64x8) = columns [8r, 8r+8)
  // of the sum over all four ranks.
  for (int row = 0; row < 64; ++row)
    for (int c = 0; c < 8; ++c) {
      float sum = 0;
      for (int k = 0; k < kRanks; ++k)
        sum += p(k, row * 32 + 8 * r + c);
      e.push_back(sum);
    }
  // all_reduce max, group(2, 2): ranks {0, 2} and {1, 3}.
  for (int i = 0; i < 2048; ++i)
    e.push_back(std::fmax(p(r, i), p(r ^ 2, i)));
  // pull shuffle, axis 1, group(2, 1): G (16x128) = [S_base | S_base+1].
  int base2 = r - r % 2;
  for (int row = 0; row < 16; ++row)
    for (int c = 0; c < 128; ++c)
      e.push_back(s(base2 + c / 64, row * 64 + c % 64));
  // push shuffle, axis 1, group(4, 1): GP (16x256) = [S_0 | S_1 | S_2 | S_3].
  for (int row = 0; row < 16; ++row)
    for (int c = 0; c < 256; ++c)
      e.push_back(s(c / 64, row * 64 + c % 64));
  // multiply, group(2, 2): H = S_base * S_base+2 rounded to bf16.
  int baseM = r % 2;
  for (int i = 0; i < 1024; ++i)
    e.push_back(bf16(s(baseM, i) * s(baseM + 2, i)));
  // pushed reduce_scatter add, axis 0, group(4, 1), of T (64x8, P's first
  // 512 values): slice r (rows [16r, 16r + 16)) of the sum, in place in T
  // and again into V.
  for (int copy = 0; copy < 2; ++copy)
    for (int i = 0; i < 128; ++i) {
      float sum = 0;
      for (int k = 0; k < kRanks; ++k)
        sum += p(k, 128 * r + i);
      e.push_back(sum);
    }
  return e;
}

} // namespace

int main(int argc, char **argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: collectives_check KERNEL.ptx\n");
    return 2;
  }
  std::ifstream in(argv[1]);
  if (!in) {
    std::fprintf(stderr, "collectives_check: cannot read %s\n", argv[1]);
    return 2;
  }
  std::stringstream text;
  text << in.rdbuf();
  std::string ptx = text.str();

  int count = 0;
  if (cuInit(0) != CUDA_SUCCESS || cuDeviceGetCount(&count) != CUDA_SUCCESS ||
      count == 0) {
    std::printf("collectives_check: no GPU, skipped\n");
    return 5;
  }
  CUdevice dev;
  CUcontext ctx;
  CUmodule mod;
  CUfunction fn;
  CUdeviceptr out;
  size_t bytes = sizeof(float) * kRanks * kPerRank;
  if (!check(cuDeviceGet(&dev, 0), "cuDeviceGet") ||
      !check(cuDevicePrimaryCtxRetain(&ctx, dev), "cuDevicePrimaryCtxRetain") ||
      !check(cuCtxSetCurrent(ctx), "cuCtxSetCurrent") ||
      !check(cuModuleLoadData(&mod, ptx.c_str()), "cuModuleLoadData") ||
      !check(cuModuleGetFunction(&fn, mod, "collectives_check"),
             "cuModuleGetFunction") ||
      !check(cuMemAlloc(&out, bytes), "cuMemAlloc") ||
      !check(cuMemsetD8(out, 0xFF, bytes), "cuMemsetD8"))
    return 2;

  // memref<4x9984xf32>: allocated, aligned, offset, sizes, strides.
  uint64_t words[7] = {out, out, 0, kRanks, kPerRank, kPerRank, 1};
  void *params[7];
  for (int i = 0; i < 7; ++i)
    params[i] = &words[i];
  CUlaunchAttribute attr;
  attr.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
  attr.value.clusterDim.x = kRanks;
  attr.value.clusterDim.y = 1;
  attr.value.clusterDim.z = 1;
  CUlaunchConfig cfg = {};
  cfg.gridDimX = kRanks;
  cfg.gridDimY = cfg.gridDimZ = 1;
  cfg.blockDimX = kThreads;
  cfg.blockDimY = cfg.blockDimZ = 1;
  cfg.sharedMemBytes = kDynamicSmem;
  cfg.attrs = &attr;
  cfg.numAttrs = 1;
  if (!check(cuLaunchKernelEx(&cfg, fn, params, nullptr), "cuLaunchKernelEx") ||
      !check(cuCtxSynchronize(), "kernel"))
    return 2;
  std::vector<float> got(size_t(kRanks) * kPerRank);
  if (!check(cuMemcpyDtoH(got.data(), out, bytes), "cuMemcpyDtoH"))
    return 2;

  struct Region {
    const char *name;
    int begin, end;
  } regions[] = {{"reduce_scatter add", 0, 512},
                 {"all_reduce max", 512, 2560},
                 {"shuffle (pull)", 2560, 4608},
                 {"shuffle (push, st.async)", 4608, 8704},
                 {"multiply", 8704, 9728},
                 {"reduce_scatter push (in place)", 9728, 9856},
                 {"reduce_scatter push (into V)", 9856, 9984}};
  int failed = 0;
  for (const Region &g : regions) {
    int bad = 0, first = -1, firstRank = -1;
    for (int r = 0; r < kRanks; ++r) {
      std::vector<float> e = expected(r);
      for (int i = g.begin; i < g.end; ++i) {
        float x = got[size_t(r) * kPerRank + i];
        if (!(x == e[i])) {
          if (!bad++) {
            first = i;
            firstRank = r;
          }
        }
      }
    }
    if (bad) {
      float x = got[size_t(firstRank) * kPerRank + first];
      std::printf("%-32s FAIL  %d of %d elements differ; first: rank %d "
                  "element %d: got %g, expected %g\n",
                  g.name, bad, kRanks * (g.end - g.begin), firstRank,
                  first - g.begin, double(x),
                  double(expected(firstRank)[first]));
      ++failed;
    } else {
      std::printf("%-32s PASS  %d elements equal\n", g.name,
                  kRanks * (g.end - g.begin));
    }
  }
  cuMemFree(out);
  cuModuleUnload(mod);
  cuDevicePrimaryCtxRelease(dev);
  int total = sizeof(regions) / sizeof(regions[0]);
  std::printf("%d passed, %d failed\n", total - failed, failed);
  return failed ? 1 : 0;
}

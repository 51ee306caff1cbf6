//===- ff-run.cpp - Run, check and time a FlashFuser kernel bundle --------===//
//
//   ff-run BUNDLE [--m M] [--check] [--bench N] [--seed S] [--verify]
//
// Allocates random inputs (scaled so bf16 results are well conditioned and
// never zero), poisons the outputs with NaN, launches the bundle through the
// runtime, and reports whether every output element was written. --check
// compares against an fp32 cuBLAS + host-double reference (Reference.cpp);
// --bench N reports the median over N event-timed batches of 10 back-to-back
// launches, after warm-up. --verify only reads the bundle, checks its
// manifest and hash and prints its kernels (no GPU needed).
//
// Exit status: 0 ok; 1 check failed or output not fully written; 2 usage or
// bundle error; 3 no CUDA driver/device; 4 CUDA error; 5 the bundle does not
// serve this M (outside every kernel's bin, or not a required multiple).
//
//===----------------------------------------------------------------------===//

#include "Reference.h"

#include "ff/Runtime/CudaDriver.h"
#include "ff/Runtime/Runtime.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>

using namespace ff;
using namespace ff::rt;
using namespace ff::rt::cu;
using ff::run::HostTensor;

namespace {
enum Exit {
  kOk = 0,
  kCheckFailed = 1,
  kUsage = 2,
  kNoDevice = 3,
  kCuda = 4,
  kUnsupportedM = 5
};

void usage() {
  std::fprintf(stderr,
               "usage: ff-run BUNDLE [--m M] [--check] [--bench N] [--seed S]\n"
               "              [--tol-l2 X] [--tol-max X] [--verify]\n");
}

uint16_t toBf16(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  if ((u & 0x7fffffff) > 0x7f800000)
    return 0x7fc0;
  u += 0x7fff + ((u >> 16) & 1); // round to nearest even
  return uint16_t(u >> 16);
}

float fromBf16(uint16_t h) {
  uint32_t u = uint32_t(h) << 16;
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

uint16_t toF16(float f) {
  // Round-to-nearest-even float -> IEEE half (finite inputs in range).
  uint32_t u;
  std::memcpy(&u, &f, 4);
  uint32_t sign = (u >> 16) & 0x8000;
  int32_t exp = int32_t((u >> 23) & 0xff) - 127 + 15;
  uint32_t mant = u & 0x7fffff;
  if (exp <= 0) {
    if (exp < -10)
      return uint16_t(sign);
    mant |= 0x800000;
    uint32_t shift = uint32_t(14 - exp);
    uint32_t half = mant >> shift;
    uint32_t rem = mant & ((1u << shift) - 1), mid = 1u << (shift - 1);
    if (rem > mid || (rem == mid && (half & 1)))
      ++half;
    return uint16_t(sign | half);
  }
  if (exp >= 31)
    return uint16_t(sign | 0x7c00);
  uint32_t half = sign | uint32_t(exp) << 10 | (mant >> 13);
  uint32_t rem = mant & 0x1fff;
  if (rem > 0x1000 || (rem == 0x1000 && (half & 1)))
    ++half;
  return uint16_t(half);
}

float fromF16(uint16_t h) {
  uint32_t sign = uint32_t(h & 0x8000) << 16;
  int32_t exp = (h >> 10) & 0x1f;
  uint32_t mant = h & 0x3ff;
  uint32_t u;
  if (exp == 0x1f) {
    u = sign | 0x7f800000 | (mant << 13);
  } else if (exp == 0) {
    if (mant == 0) {
      u = sign;
    } else {
      exp = 1;
      while (!(mant & 0x400)) {
        mant <<= 1;
        --exp;
      }
      mant &= 0x3ff;
      u = sign | uint32_t(exp - 15 + 127) << 23 | (mant << 13);
    }
  } else {
    u = sign | uint32_t(exp - 15 + 127) << 23 | (mant << 13);
  }
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

/// Rounds `v` to `t` and returns the stored bit pattern appended to `bytes`.
float roundTo(DType t, float v, std::vector<uint8_t> &bytes) {
  if (t == DType::F32) {
    uint8_t b[4];
    std::memcpy(b, &v, 4);
    bytes.insert(bytes.end(), b, b + 4);
    return v;
  }
  uint16_t h = t == DType::BF16 ? toBf16(v) : toF16(v);
  bytes.push_back(uint8_t(h));
  bytes.push_back(uint8_t(h >> 8));
  return t == DType::BF16 ? fromBf16(h) : fromF16(h);
}

int64_t numel(const std::vector<int64_t> &shape) {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

std::vector<int64_t> resolve(const std::vector<int64_t> &shape, int64_t m) {
  std::vector<int64_t> out = shape;
  for (int64_t &d : out)
    if (d == -1)
      d = m;
  return out;
}

int cudaFail(const Driver &d, const char *what, CUresult r) {
  std::fprintf(stderr, "ff-run: %s\n", d.errorString(what, r).c_str());
  return kCuda;
}
} // namespace

int main(int argc, char **argv) {
  std::string bundleDir;
  int64_t m = 0;
  bool check = false, verifyOnly = false;
  int bench = 0;
  uint64_t seed = 1;
  double tolL2 = 1e-2, tolMax = 4e-2;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto next = [&](const char *flag) -> const char * {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "ff-run: %s needs a value\n", flag);
        std::exit(kUsage);
      }
      return argv[++i];
    };
    if (a == "--m")
      m = std::atoll(next("--m"));
    else if (a == "--check")
      check = true;
    else if (a == "--verify")
      verifyOnly = true;
    else if (a == "--bench")
      bench = std::atoi(next("--bench"));
    else if (a == "--seed")
      seed = std::strtoull(next("--seed"), nullptr, 10);
    else if (a == "--tol-l2")
      tolL2 = std::atof(next("--tol-l2"));
    else if (a == "--tol-max")
      tolMax = std::atof(next("--tol-max"));
    else if (a == "-h" || a == "--help") {
      usage();
      return kOk;
    } else if (!a.empty() && a[0] == '-') {
      std::fprintf(stderr, "ff-run: unknown option %s\n", a.c_str());
      usage();
      return kUsage;
    } else if (bundleDir.empty())
      bundleDir = a;
    else {
      usage();
      return kUsage;
    }
  }
  if (bundleDir.empty() || bench < 0) {
    usage();
    return kUsage;
  }

  std::string error;
  auto bundle = LoadedBundle::open(bundleDir, /*verifyHash=*/true, error);
  if (!bundle) {
    std::fprintf(stderr, "ff-run: %s\n", error.c_str());
    return kUsage;
  }
  const Manifest &man = bundle->manifest();
  if (verifyOnly) {
    // Manifest and hash checked by open(); no GPU needed.
    std::printf("bundle %s: valid, hash %s\n", bundleDir.c_str(),
                man.hash.c_str());
    for (const KernelSpec &k : man.kernels)
      std::printf("kernel %s: M in [%lld, %lld], grid %u x %u x %u, cluster "
                  "%u x %u x %u, block %u, %u B dynamic smem, %zu params\n",
                  k.name.c_str(), (long long)k.mLo, (long long)k.mHi,
                  k.grid[0], k.grid[1], k.grid[2], k.cluster[0], k.cluster[1],
                  k.cluster[2], k.block[0], k.dynamicSmem, k.params.size());
    return kOk;
  }
  if (m <= 0)
    m = man.chain.m > 0
            ? man.chain.m
            : (man.selectKernel(128) >= 0 ? 128 : man.kernels[0].mLo);

  int sel = man.selectKernel(m);
  if (sel < 0 || (man.chain.m > 0 && m != man.chain.m) ||
      m % man.kernels[size_t(sel)].mMultiple != 0) {
    std::fprintf(stderr,
                 "ff-run: M=%lld is not served by this bundle (static M "
                 "%lld, kernel bins and multiples in manifest.json)\n",
                 (long long)m, (long long)man.chain.m);
    return kUnsupportedM;
  }

  const Driver *dp = getDriver(error);
  if (!dp) {
    std::fprintf(stderr, "ff-run: %s\n", error.c_str());
    return kNoDevice;
  }
  const Driver &d = *dp;
  std::string gpu;
  int ccMajor = 0, ccMinor = 0, sms = 0;
  if (!describeDevice(gpu, ccMajor, ccMinor, sms, error)) {
    std::fprintf(stderr, "ff-run: %s\n", error.c_str());
    return kNoDevice;
  }
  std::printf("device: %s (sm_%d%d, %d SMs)\n", gpu.c_str(), ccMajor, ccMinor,
              sms);
  std::printf("bundle: %s  chain %s %s %s  M=%lld N=%lld K=%lld L=%lld\n",
              bundleDir.c_str(), chainKindName(man.chain.kind),
              activationName(man.chain.activation), dtypeName(man.chain.dtype),
              (long long)m, (long long)man.chain.n, (long long)man.chain.k,
              (long long)man.chain.l);
  if (!bundle->prepare(error)) {
    std::fprintf(stderr, "ff-run: %s\n", error.c_str());
    return error.find(" failed: ") != std::string::npos ? kCuda : kUsage;
  }
  for (size_t i = 0; i < man.kernels.size(); ++i) {
    const KernelSpec &k = man.kernels[i];
    std::printf("kernel %s: M in [%lld, %lld], block %ux%ux%u, cluster "
                "%ux%ux%u, smem %u B, %d regs, max active clusters %d\n",
                k.name.c_str(), (long long)k.mLo, (long long)k.mHi, k.block[0],
                k.block[1], k.block[2], k.cluster[0], k.cluster[1],
                k.cluster[2], k.dynamicSmem, bundle->numRegisters(i),
                bundle->maxActiveClusters(i));
  }

  // Inputs: x ~ U(-1, 1); weights ~ U(-1, 1) * sqrt(3 / fan_in) so every
  // GEMM output has about unit variance. Zero is never drawn.
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> uni(-1.f, 1.f);
  std::vector<HostTensor> inputs;
  std::vector<TensorArg> args;
  std::vector<CUdeviceptr> allocations;
  auto freeAll = [&]() {
    for (CUdeviceptr p : allocations)
      d.cuMemFree(p);
  };
  for (size_t i = 0; i < man.chain.inputs.size(); ++i) {
    const TensorSpec &spec = man.chain.inputs[i];
    HostTensor t;
    t.shape = resolve(spec.shape, m);
    t.dtype = spec.dtype;
    t.layout = spec.layout;
    float scale = 1.f;
    if (i > 0 && t.shape.size() >= 2) {
      // A weight's fan-in: [out, in] for "nk", else all but the innermost
      // (out) extent, which also covers a 1x1 conv's HWCF filter.
      int64_t fanIn =
          t.layout == "nk" ? t.shape[1] : numel(t.shape) / t.shape.back();
      scale = std::sqrt(3.f / float(fanIn));
    }
    std::vector<uint8_t> bytes;
    int64_t count = numel(t.shape);
    t.values.reserve(size_t(count));
    bytes.reserve(size_t(count * dtypeSize(t.dtype)));
    for (int64_t e = 0; e < count; ++e) {
      float v = uni(rng);
      if (std::fabs(v) < 1.f / 64)
        v = v < 0 ? -1.f / 64 : 1.f / 64;
      t.values.push_back(roundTo(t.dtype, v * scale, bytes));
    }
    CUresult r = d.cuMemAlloc(&t.device, bytes.size());
    if (r != CUDA_SUCCESS) {
      freeAll();
      return cudaFail(d, "cuMemAlloc", r);
    }
    allocations.push_back(t.device);
    if ((r = d.cuMemcpyHtoD(t.device, bytes.data(), bytes.size())) !=
        CUDA_SUCCESS) {
      freeAll();
      return cudaFail(d, "cuMemcpyHtoD", r);
    }
    TensorArg a;
    a.data = t.device;
    a.dtype = t.dtype;
    a.shape = t.shape;
    args.push_back(a);
    inputs.push_back(std::move(t));
  }
  // Outputs are poisoned with NaN so unwritten elements show up.
  std::vector<TensorArg> outputs;
  for (const TensorSpec &spec : man.chain.outputs) {
    TensorArg a;
    a.dtype = spec.dtype;
    a.shape = resolve(spec.shape, m);
    size_t count = size_t(numel(a.shape));
    CUdeviceptr p = 0;
    CUresult r = d.cuMemAlloc(&p, count * size_t(dtypeSize(a.dtype)));
    if (r != CUDA_SUCCESS) {
      freeAll();
      return cudaFail(d, "cuMemAlloc", r);
    }
    allocations.push_back(p);
    r = a.dtype == DType::F32 ? d.cuMemsetD32(p, 0xffffffffu, count)
                              : d.cuMemsetD16(p, 0xffff, count);
    if (r != CUDA_SUCCESS) {
      freeAll();
      return cudaFail(d, "cuMemset", r);
    }
    a.data = p;
    args.push_back(a);
    outputs.push_back(a);
  }

  LaunchPlan plan;
  if (!bundle->launch(args, nullptr, error, &plan)) {
    std::fprintf(stderr, "ff-run: %s\n", error.c_str());
    freeAll();
    return kUsage;
  }
  CUresult r = d.cuCtxSynchronize();
  if (r != CUDA_SUCCESS) {
    std::fprintf(stderr, "ff-run: kernel failed: %s\n",
                 d.errorString("cuCtxSynchronize", r).c_str());
    return kCuda;
  }
  const KernelSpec &ks = man.kernels[size_t(plan.kernel)];
  std::printf("launch: kernel %s grid %ux%ux%u\n", ks.name.c_str(),
              plan.grid[0], plan.grid[1], plan.grid[2]);

  // Read the first output back; count elements still NaN.
  const TensorArg &out = outputs[0];
  size_t count = size_t(numel(out.shape));
  std::vector<float> result(count);
  {
    std::vector<uint8_t> raw(count * size_t(dtypeSize(out.dtype)));
    if ((r = d.cuMemcpyDtoH(raw.data(), out.data, raw.size())) !=
        CUDA_SUCCESS) {
      freeAll();
      return cudaFail(d, "cuMemcpyDtoH", r);
    }
    for (size_t i = 0; i < count; ++i) {
      if (out.dtype == DType::F32) {
        std::memcpy(&result[i], &raw[4 * i], 4);
      } else {
        uint16_t h = uint16_t(raw[2 * i] | raw[2 * i + 1] << 8);
        result[i] = out.dtype == DType::BF16 ? fromBf16(h) : fromF16(h);
      }
    }
  }
  size_t unwritten = 0;
  for (float v : result)
    if (std::isnan(v))
      ++unwritten;
  bool ok = unwritten == 0;
  std::printf("written: %s (%zu of %zu elements NaN)\n", ok ? "all" : "NOT ALL",
              unwritten, count);

  double relL2 = -1, relMax = -1;
  if (check) {
    std::vector<float> ref;
    if (!run::computeReference(d, man, m, inputs, ref, error)) {
      std::fprintf(stderr, "ff-run: reference: %s\n", error.c_str());
      freeAll();
      return kCheckFailed;
    }
    if (ref.size() != count) {
      std::fprintf(stderr,
                   "ff-run: reference has %zu elements, output has %zu\n",
                   ref.size(), count);
      freeAll();
      return kCheckFailed;
    }
    double num = 0, den = 0, maxAbs = 0, maxRef = 0;
    size_t worst = 0;
    for (size_t i = 0; i < count; ++i) {
      double diff =
          std::isnan(result[i]) ? INFINITY : double(result[i]) - double(ref[i]);
      num += diff * diff;
      den += double(ref[i]) * double(ref[i]);
      if (std::fabs(diff) > maxAbs) {
        maxAbs = std::fabs(diff);
        worst = i;
      }
      maxRef = std::max(maxRef, std::fabs(double(ref[i])));
    }
    relL2 = den > 0 ? std::sqrt(num / den) : INFINITY;
    relMax = maxRef > 0 ? maxAbs / maxRef : INFINITY;
    bool pass = relL2 <= tolL2 && relMax <= tolMax;
    int64_t cols = out.shape.back();
    std::printf("check: |out-ref|/|ref| = %.3e (tol %.1e), max|out-ref|/"
                "max|ref| = %.3e (tol %.1e); worst at [%lld, %lld]: out %g "
                "ref %g -> %s\n",
                relL2, tolL2, relMax, tolMax,
                (long long)(int64_t(worst) / cols),
                (long long)(int64_t(worst) % cols), double(result[worst]),
                double(ref[worst]), pass ? "PASS" : "FAIL");
    ok = ok && pass;
  }

  double medianUs = -1;
  if (bench > 0) {
    CUevent e0, e1;
    d.cuEventCreate(&e0, 0);
    d.cuEventCreate(&e1, 0);
    for (int i = 0; i < 5; ++i)
      bundle->launch(args, nullptr, error);
    // Each sample times a batch of back-to-back launches, so the GPU queue
    // (not the host's launch latency) sets the pace unless the kernel is
    // shorter than the host's launch rate.
    constexpr int kBatch = 10;
    std::vector<float> samples;
    for (int i = 0; i < bench; ++i) {
      d.cuEventRecord(e0, nullptr);
      for (int j = 0; j < kBatch; ++j)
        if (!bundle->launch(args, nullptr, error)) {
          std::fprintf(stderr, "ff-run: %s\n", error.c_str());
          return kCuda;
        }
      d.cuEventRecord(e1, nullptr);
      if ((r = d.cuEventSynchronize(e1)) != CUDA_SUCCESS)
        return cudaFail(d, "cuEventSynchronize", r);
      float ms = 0;
      d.cuEventElapsedTime(&ms, e0, e1);
      samples.push_back(ms / kBatch);
    }
    std::sort(samples.begin(), samples.end());
    medianUs = 1e3 * samples[samples.size() / 2];
    const ChainSpec &c = man.chain;
    double flops = 2.0 * double(m) * double(c.n) * double(c.k);
    if (c.kind == ChainKind::Ffn)
      flops += 2.0 * double(m) * double(c.n) * double(c.l);
    if (c.kind == ChainKind::GatedFfn)
      flops = 4.0 * double(m) * double(c.n) * double(c.k) +
              2.0 * double(m) * double(c.n) * double(c.l);
    std::printf("bench: median %.2f us per launch over %d batches of 10 "
                "(min %.2f, max %.2f), "
                "%.1f TFLOP/s\n",
                medianUs, bench, 1e3 * samples.front(), 1e3 * samples.back(),
                flops / (medianUs * 1e-6) / 1e12);
    d.cuEventDestroy(e0);
    d.cuEventDestroy(e1);
  }
  std::printf("RESULT bundle=%s M=%lld kernel=%s written=%s rel_l2=%.3e "
              "max_rel=%.3e median_us=%.2f status=%s\n",
              bundleDir.c_str(), (long long)m, ks.name.c_str(),
              unwritten ? "no" : "all", relL2, relMax, medianUs,
              ok ? "PASS" : "FAIL");
  freeAll();
  return ok ? kOk : kCheckFailed;
}

//===- ff-run.cpp - Run, check and time a FlashFuser kernel bundle --------===//
//
//   ff-run BUNDLE [--m M] [--check] [--bench N] [--graph] [--cold]
//                 [--sustain MS] [--seed S] [--verify]
//                 [--inputs random|large|denormal] [--repeat N]
//
// Allocates random inputs (scaled so bf16 results are well conditioned and
// never zero), poisons the outputs with NaN, launches the bundle through the
// runtime, and reports whether every output element was written and how many
// are NaN/Inf. --check compares against an fp32 cuBLAS + host-double
// reference (Reference.cpp); --bench N reports the median over N event-timed
// batches of 10 back-to-back launches, after warm-up; with --graph each
// batch is one replay of a CUDA graph of the 10 launches, so kernels shorter
// than the host's launch path are timed on the GPU, as in a model's forward
// graph, not at the host's launch rate. --cold times single launches (a
// graph of one with --graph) instead, each after a 256 MiB memset that
// evicts the inputs and weights from L2, as a call whose weights were not
// used since (bench.py's cold column). Such a run lasts
// milliseconds, at the GPU's boost clock; --sustain MS first keeps the GPU
// busy with the bundle for MS milliseconds, so the figure is the steady-state
// one a long run sees (an H200 held at its power cap ran S3 at M = 256 in
// 169 us after 3 s, against 141 at once; docs/validation.md). --verify only
// reads the bundle, checks its manifest and hash and prints its kernels (no
// GPU needed); with --m it also exits 5 when the bundle does not serve M.
//
// --inputs picks the input distribution: "random" (default, above), "large"
// (the same values times 1e4) or "denormal" (a quarter of the elements
// replaced by subnormals of the input dtype). --repeat N launches N times on
// the same inputs, re-poisoning the outputs before each launch, and compares
// every result bitwise with the first.
//
// The last line is "RESULT key=value ...". Exit status: 0 ok; 1 check
// failed, output not fully written, NaN/Inf where the reference is finite, or
// repeated launches not bitwise identical (kernels without an fp32-atomic
// workspace, i.e. also deterministic-plane ones); 2
// usage or bundle error; 3 no CUDA driver/device; 4 CUDA error; 5 the bundle
// does not serve this M (outside every kernel's bin, or not a required
// multiple).
//
//===----------------------------------------------------------------------===//

#include "Numerics.h"
#include "Reference.h"

#include "ff/Runtime/CudaDriver.h"
#include "ff/Runtime/Runtime.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>

using namespace ff;
using namespace ff::rt;
using namespace ff::rt::cu;
using ff::run::HostTensor;
using ff::run::InputMode;

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
  std::fprintf(
      stderr,
      "usage: ff-run BUNDLE [--m M] [--check] [--bench N] [--graph] [--cold]\n"
      "              [--sustain MS] [--seed S] [--tol-l2 X] [--tol-max X]\n"
      "              [--verify]\n"
      "              [--inputs random|large|denormal] [--repeat N]\n");
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

/// Whether a kernel of the bundle runs M (its bin, its multiple, the static
/// M).
bool servesM(const Manifest &man, int64_t m) {
  int sel = man.selectKernel(m);
  return sel >= 0 && (man.chain.m <= 0 || m == man.chain.m) &&
         m % man.kernels[size_t(sel)].mMultiple == 0;
}

int cudaFail(const Driver &d, const char *what, CUresult r) {
  std::fprintf(stderr, "ff-run: %s\n", d.errorString(what, r).c_str());
  return kCuda;
}
} // namespace

int main(int argc, char **argv) {
  std::string bundleDir;
  int64_t m = 0;
  bool check = false, verifyOnly = false, graph = false, cold = false;
  int bench = 0, repeat = 1, sustainMs = 0;
  uint64_t seed = 1;
  double tolL2 = 1e-2, tolMax = 4e-2;
  InputMode inputMode = InputMode::Random;
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
    else if (a == "--graph")
      graph = true;
    else if (a == "--cold")
      cold = true;
    else if (a == "--sustain") {
      const char *v = next("--sustain");
      char *end = nullptr;
      long n = std::strtol(v, &end, 10);
      if (*v == 0 || *end != 0 || n < 0 || n > 600000) {
        std::fprintf(stderr,
                     "ff-run: --sustain needs milliseconds in "
                     "[0, 600000], got '%s'\n",
                     v);
        return kUsage;
      }
      sustainMs = int(n);
    } else if (a == "--seed")
      seed = std::strtoull(next("--seed"), nullptr, 10);
    else if (a == "--tol-l2")
      tolL2 = std::atof(next("--tol-l2"));
    else if (a == "--tol-max")
      tolMax = std::atof(next("--tol-max"));
    else if (a == "--repeat") {
      const char *v = next("--repeat");
      char *end = nullptr;
      long n = std::strtol(v, &end, 10);
      if (*v == 0 || *end != 0 || n < 1 || n > 1000000) {
        std::fprintf(stderr, "ff-run: --repeat needs a count in [1, 1000000], "
                             "got '%s'\n", v);
        return kUsage;
      }
      repeat = int(n);
    } else if (a == "--inputs") {
      std::string v = next("--inputs");
      if (!run::parseInputMode(v, inputMode)) {
        std::fprintf(stderr, "ff-run: --inputs must be random, large or "
                             "denormal, got '%s'\n", v.c_str());
        return kUsage;
      }
    }
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
  if (sustainMs > 0 && bench <= 0) {
    std::fprintf(stderr, "ff-run: --sustain only precedes --bench\n");
    return kUsage;
  }
  if (graph && bench <= 0) {
    std::fprintf(stderr, "ff-run: --graph only changes how --bench times\n");
    return kUsage;
  }
  if (cold && bench <= 0) {
    std::fprintf(stderr, "ff-run: --cold only changes how --bench times\n");
    return kUsage;
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
    std::printf("chain: %s, M %s\n", chainKindName(man.chain.kind),
                man.chain.m > 0 ? std::to_string(man.chain.m).c_str()
                                : "dynamic");
    for (const KernelSpec &k : man.kernels) {
      bool workspace = false;
      for (const ParamSpec &p : k.params)
        workspace |= p.kind == ParamKind::Workspace;
      std::printf("kernel %s: M in [%lld, %lld], grid %u x %u x %u, cluster "
                  "%u x %u x %u, block %u, %u B dynamic smem, %zu params%s%s\n",
                  k.name.c_str(), (long long)k.mLo, (long long)k.mHi, k.grid[0],
                  k.grid[1], k.grid[2], k.cluster[0], k.cluster[1],
                  k.cluster[2], k.block[0], k.dynamicSmem, k.params.size(),
                  workspace ? ", workspace" : "",
                  k.persistent ? ", persistent" : "");
    }
    // With --m, also whether the bundle serves that M (scripts ask this
    // before they launch).
    if (m > 0 && !servesM(man, m)) {
      std::fprintf(stderr, "ff-run: M=%lld is not served by this bundle\n",
                   (long long)m);
      return kUnsupportedM;
    }
    return kOk;
  }
  if (m <= 0)
    m = man.chain.m > 0
            ? man.chain.m
            : (man.selectKernel(128) >= 0 ? 128 : man.kernels[0].mLo);

  if (!servesM(man, m)) {
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
  // GEMM output has about unit variance; --inputs scales them or mixes in
  // subnormals (Numerics.h, drawInput).
  std::mt19937_64 rng(seed);
  std::vector<HostTensor> inputs;
  std::vector<TensorArg> args;
  std::vector<CUdeviceptr> allocations;
  auto freeAll = [&]() {
    for (CUdeviceptr p : allocations)
      d.cuMemFree(p);
  };
  size_t subnormals = 0, inputElements = 0;
  for (size_t i = 0; i < man.chain.inputs.size(); ++i) {
    const TensorSpec &spec = man.chain.inputs[i];
    HostTensor t;
    t.shape = resolve(spec.shape, m);
    t.dtype = spec.dtype;
    t.layout = spec.layout;
    float scale = 1.f;
    if (i > 0 && t.shape.size() >= 2) {
      // A weight's fan-in: all but the outermost (out) extent for "nk"
      // ([out, in], or a conv's FHWC filter), else all but the innermost
      // one (a conv's HWCF filter).
      int64_t fanIn =
          numel(t.shape) / (t.layout == "nk" ? t.shape[0] : t.shape.back());
      scale = std::sqrt(3.f / float(fanIn));
    }
    run::InputValues drawn =
        run::drawInput(inputMode, t.dtype, numel(t.shape), scale, rng);
    t.values = std::move(drawn.values);
    const std::vector<uint8_t> &bytes = drawn.bytes;
    subnormals += drawn.subnormals;
    inputElements += t.values.size();
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
  std::printf("inputs: %s, %zu elements, %zu subnormal\n",
              run::inputModeName(inputMode), inputElements, subnormals);

  // Outputs are poisoned with NaN (all bits set) so unwritten elements show
  // up; a kernel's own NaN has another bit pattern.
  std::vector<TensorArg> outputs;
  auto poison = [&](const TensorArg &a) {
    size_t count = size_t(numel(a.shape));
    return a.dtype == DType::F32 ? d.cuMemsetD32(a.data, 0xffffffffu, count)
                                 : d.cuMemsetD16(a.data, 0xffff, count);
  };
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
    a.data = p;
    if ((r = poison(a)) != CUDA_SUCCESS) {
      freeAll();
      return cudaFail(d, "cuMemset", r);
    }
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
  bool usesWorkspace = false;
  for (int ki : plan.kernels)
    for (const ParamSpec &p : man.kernels[size_t(ki)].params)
      usesWorkspace |= p.kind == ParamKind::Workspace;
  // A deterministic plan (#dsm.schedule deterministic = true) sums its
  // workspace planes in cluster order: only atomic workspaces may differ.
  const JsonValue *det = man.plan.get("deterministic");
  bool deterministic = det && det->isBool() && det->boolean;
  bool atomicWorkspace = usesWorkspace && !deterministic;
  // A sequence's kernels are named in order, "k0+k1".
  std::string kernelNames;
  for (int ki : plan.kernels)
    kernelNames +=
        (kernelNames.empty() ? "" : "+") + man.kernels[size_t(ki)].name;
  const KernelSpec &ks = man.kernels[size_t(plan.kernel)];
  std::printf("launch: kernel %s grid %ux%ux%u%s%s\n", ks.name.c_str(),
              plan.grid[0], plan.grid[1], plan.grid[2],
              plan.kernels.size() > 1
                  ? (", then " + std::to_string(plan.kernels.size() - 1) +
                     " more kernel(s) of its sequence")
                        .c_str()
                  : "",
              usesWorkspace ? ", with a workspace" : "");

  // Reads every output's bytes back.
  auto readOutputs = [&](std::vector<std::vector<uint8_t>> &raw) {
    raw.resize(outputs.size());
    for (size_t o = 0; o < outputs.size(); ++o) {
      const TensorArg &a = outputs[o];
      raw[o].resize(size_t(numel(a.shape)) * size_t(dtypeSize(a.dtype)));
      CUresult rr = d.cuMemcpyDtoH(raw[o].data(), a.data, raw[o].size());
      if (rr != CUDA_SUCCESS)
        return rr;
    }
    return CUresult(CUDA_SUCCESS);
  };
  // One more launch on the same inputs with the outputs re-poisoned, read
  // back into `raw`: -1 when it worked, else ff-run's exit status.
  auto launchAgain = [&](std::vector<std::vector<uint8_t>> &raw) -> int {
    for (const TensorArg &a : outputs)
      if (CUresult rr = poison(a); rr != CUDA_SUCCESS) {
        freeAll();
        return cudaFail(d, "cuMemset", rr);
      }
    if (!bundle->launch(args, nullptr, error)) {
      std::fprintf(stderr, "ff-run: %s\n", error.c_str());
      freeAll();
      return kCuda;
    }
    if (CUresult rr = d.cuCtxSynchronize(); rr != CUDA_SUCCESS) {
      std::fprintf(stderr, "ff-run: kernel failed: %s\n",
                   d.errorString("cuCtxSynchronize", rr).c_str());
      return kCuda;
    }
    if (CUresult rr = readOutputs(raw); rr != CUDA_SUCCESS) {
      freeAll();
      return cudaFail(d, "cuMemcpyDtoH", rr);
    }
    return -1;
  };
  std::vector<std::vector<uint8_t>> first;
  if ((r = readOutputs(first)) != CUDA_SUCCESS) {
    freeAll();
    return cudaFail(d, "cuMemcpyDtoH", r);
  }

  // The first output as floats; elements still holding the poison and
  // NaN/Inf elements (the poison included).
  const TensorArg &out = outputs[0];
  const size_t count = size_t(numel(out.shape));
  std::vector<float> result;
  run::OutputStats stats =
      run::decodeOutput(first[0].data(), count, out.dtype, result);
  const size_t unwritten = stats.unwritten, nonfiniteOut = stats.nonfinite;
  bool ok = unwritten == 0;
  std::printf("written: %s (%zu of %zu elements still the NaN poison)\n",
              ok ? "all" : "NOT ALL", unwritten, count);

  double relL2 = -1, relMax = -1;
  long long nonfiniteRef = -1;
  std::vector<float> ref;
  if (check) {
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
    run::Comparison c =
        run::compareWithReference(result, out.dtype, ref, tolL2, tolMax);
    relL2 = c.relL2;
    relMax = c.relMax;
    nonfiniteRef = (long long)c.nonfiniteRef;
    size_t worst = c.worst;
    bool pass = c.pass;
    int64_t cols = out.shape.back();
    std::printf("check: |out-ref|/|ref| = %.3e (tol %.1e), max|out-ref|/"
                "max|ref| = %.3e (tol %.1e); worst at [%lld, %lld]: out %g "
                "ref %g -> %s\n",
                relL2, tolL2, relMax, tolMax,
                (long long)(int64_t(worst) / cols),
                (long long)(int64_t(worst) % cols), double(result[worst]),
                double(ref[worst]), pass ? "PASS" : "FAIL");
    std::printf("nonfinite: %zu NaN/Inf in the output (%zu where the "
                "reference is finite), %lld in the reference (%zu not "
                "matched)\n",
                nonfiniteOut, c.badNonfinite, nonfiniteRef,
                c.nonfiniteMismatch);
    ok = ok && pass;
  } else {
    // Without a reference every NaN/Inf is unexplained.
    std::printf("nonfinite: %zu NaN/Inf in the output (no reference)\n",
                nonfiniteOut);
    ok = ok && nonfiniteOut == 0;
  }

  // --repeat: the same inputs, outputs re-poisoned before each launch, every
  // result compared bitwise with the first. A kernel with a workspace sums
  // partial results with fp32 atomics across clusters, in whatever order
  // they arrive, so differences there are only reported.
  bool identical = true;
  if (repeat > 1) {
    int differingRuns = 0;
    std::string firstDiff;
    std::vector<std::vector<uint8_t>> again;
    for (int run = 1; run < repeat; ++run) {
      if (int rc = launchAgain(again); rc >= 0)
        return rc;
      if (again == first)
        continue;
      ++differingRuns;
      if (!firstDiff.empty())
        continue;
      for (size_t o = 0; o < outputs.size() && firstDiff.empty(); ++o) {
        size_t at;
        size_t elems = run::countDifferences(
            first[o], again[o], size_t(dtypeSize(outputs[o].dtype)), at);
        if (!elems)
          continue;
        int64_t cols = outputs[o].shape.back();
        char buf[256];
        std::snprintf(buf, sizeof(buf),
                      "launch %d: %zu elements of %s differ, first at "
                      "[%lld, %lld]",
                      run + 1, elems, man.chain.outputs[o].name.c_str(),
                      (long long)(int64_t(at) / cols),
                      (long long)(int64_t(at) % cols));
        firstDiff = buf;
      }
    }
    identical = differingRuns == 0;
    if (identical)
      std::printf("repeat: %d launches, bitwise identical\n", repeat);
    else
      std::printf("repeat: %d launches, %d differ from the first (%s)%s\n",
                  repeat, differingRuns, firstDiff.c_str(),
                  atomicWorkspace ? "; warning only: the kernel reduces "
                                    "through a workspace with fp32 atomics"
                                  : "");
    if (!identical && !atomicWorkspace)
      ok = false;
  }

  double medianUs = -1;
  int sustainLaunches = 0;
  if (bench > 0) {
    CUevent e0, e1;
    d.cuEventCreate(&e0, 0);
    d.cuEventCreate(&e1, 0);
    for (int i = 0; i < 5; ++i)
      bundle->launch(args, nullptr, error);
    // `ms` of `launches` back-to-back launches (or of one replay of `exec`)
    // between two events; kOk, or ff-run's exit status for a failure.
    auto timeBatch = [&](int launches, void *exec, float &ms) -> int {
      d.cuEventRecord(e0, nullptr);
      if (exec) {
        if ((r = d.cuGraphLaunch(static_cast<CUgraphExec>(exec), nullptr)) !=
            CUDA_SUCCESS)
          return cudaFail(d, "cuGraphLaunch", r);
      } else {
        for (int j = 0; j < launches; ++j)
          if (!bundle->launch(args, nullptr, error)) {
            std::fprintf(stderr, "ff-run: %s\n", error.c_str());
            return kCuda;
          }
      }
      d.cuEventRecord(e1, nullptr);
      if ((r = d.cuEventSynchronize(e1)) != CUDA_SUCCESS)
        return cudaFail(d, "cuEventSynchronize", r);
      d.cuEventElapsedTime(&ms, e0, e1);
      return kOk;
    };
    // Back-to-back batches until the GPU has been busy for --sustain ms.
    for (float busyMs = 0, ms = 0; busyMs < float(sustainMs); busyMs += ms) {
      if (int rc = timeBatch(100, nullptr, ms))
        return rc;
      sustainLaunches += 100;
    }
    if (sustainMs > 0)
      std::printf("sustain: %d launches over %d ms before timing\n",
                  sustainLaunches, sustainMs);
    // Each sample times a batch of back-to-back launches, so the GPU queue
    // (not the host's launch latency) sets the pace unless the kernel is
    // shorter than the host's launch rate; a graph of the batch takes the
    // host out for those too. A cold sample is one launch queued behind
    // the memset that flushes L2, so the GPU starts it as soon as the
    // memset ends.
    const int kBatch = cold ? 1 : 10;
    constexpr size_t kFlushBytes = size_t(256) << 20;
    CUdeviceptr flush = 0;
    if (cold && (r = d.cuMemAlloc(&flush, kFlushBytes)) != CUDA_SUCCESS)
      return cudaFail(d, "cuMemAlloc", r);
    void *exec = nullptr;
    if (graph && !bundle->captureLaunch(args, exec, error, kBatch)) {
      std::fprintf(stderr, "ff-run: %s\n", error.c_str());
      return kCuda;
    }
    std::vector<float> samples;
    for (int i = 0; i < bench; ++i) {
      float ms = 0;
      if (cold && (r = d.cuMemsetD8Async(flush, uint8_t(i), kFlushBytes,
                                         nullptr)) != CUDA_SUCCESS)
        return cudaFail(d, "cuMemsetD8Async", r);
      if (int rc = timeBatch(kBatch, exec, ms))
        return rc;
      samples.push_back(ms / kBatch);
    }
    if (exec)
      d.cuGraphExecDestroy(static_cast<CUgraphExec>(exec));
    if (flush)
      d.cuMemFree(flush);
    std::sort(samples.begin(), samples.end());
    medianUs = 1e3 * samples[samples.size() / 2];
    const ChainSpec &c = man.chain;
    double flops = 2.0 * double(m) * double(c.n) * double(c.k);
    if (c.kind == ChainKind::Ffn)
      flops += 2.0 * double(m) * double(c.n) * double(c.l);
    if (c.kind == ChainKind::GatedFfn)
      flops = 4.0 * double(m) * double(c.n) * double(c.k) +
              2.0 * double(m) * double(c.n) * double(c.l);
    if (c.kind == ChainKind::GatedGemm)
      flops = 4.0 * double(m) * double(c.n) * double(c.k);
    std::printf("bench: median %.2f us per launch over %d %s of %d%s "
                "(min %.2f, max %.2f), "
                "%.1f TFLOP/s\n",
                medianUs, bench, exec ? "graph replays" : "batches", kBatch,
                cold ? ", L2 flushed before each" : "", 1e3 * samples.front(),
                1e3 * samples.back(), flops / (medianUs * 1e-6) / 1e12);
    d.cuEventDestroy(e0);
    d.cuEventDestroy(e1);
  }

  // After many launches the output must still match: a kernel that leaves
  // its workspace dirty (self-cleaning workspaces are cleared only when
  // allocated) or depends on stale state fails here, not on the first run.
  if (check && (repeat > 1 || bench > 0)) {
    int launches =
        repeat +
        (bench > 0 ? 5 + sustainLaunches + (cold ? 1 : 10) * bench : 0);
    std::vector<std::vector<uint8_t>> last;
    if (int rc = launchAgain(last); rc >= 0)
      return rc;
    std::vector<float> again;
    run::OutputStats st =
        run::decodeOutput(last[0].data(), count, out.dtype, again);
    run::Comparison c =
        run::compareWithReference(again, out.dtype, ref, tolL2, tolMax);
    bool pass = c.pass && st.unwritten == 0;
    std::printf("recheck: launch %d: |out-ref|/|ref| = %.3e, max rel %.3e, "
                "%zu unwritten -> %s\n",
                launches + 1, c.relL2, c.relMax, st.unwritten,
                pass ? "PASS" : "FAIL");
    ok = ok && pass;
  }
  // key=value pairs, status last; -1 marks a figure that was not measured.
  std::printf("RESULT bundle=%s M=%lld kernel=%s written=%s rel_l2=%.3e "
              "max_rel=%.3e median_us=%.2f inputs=%s nonfinite_out=%zu "
              "nonfinite_ref=%lld identical=%d runs=%d workspace=%d "
              "deterministic=%d status=%s\n",
              bundleDir.c_str(), (long long)m, kernelNames.c_str(),
              unwritten ? "no" : "all", relL2, relMax, medianUs,
              run::inputModeName(inputMode), nonfiniteOut, nonfiniteRef,
              identical ? 1 : 0, repeat, usesWorkspace ? 1 : 0,
              deterministic ? 1 : 0, ok ? "PASS" : "FAIL");
  freeAll();
  return ok ? kOk : kCheckFailed;
}

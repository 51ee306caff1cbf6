//===- Runtime.cpp - Load and launch FlashFuser kernel bundles ------------===//

#include "ff/Runtime/Runtime.h"
#include "ff/Runtime/CudaDriver.h"

#include <array>
#include <cctype>
#include <cstring>
#include <map>
#include <tuple>

using namespace ff::rt;
using namespace ff::rt::cu;

const char *ff::rt::runtimeVersion() { return "0.1.0"; }

namespace {
/// Makes a context current: the caller's if there is one, else device 0's
/// primary context (what the CUDA runtime and PyTorch use too).
bool currentContext(const Driver &d, CUcontext &ctx, CUdevice &dev,
                    std::string &error) {
  CUresult r = d.cuCtxGetCurrent(&ctx);
  if (r != CUDA_SUCCESS) {
    error = d.errorString("cuCtxGetCurrent", r);
    return false;
  }
  if (!ctx) {
    if ((r = d.cuDeviceGet(&dev, 0)) != CUDA_SUCCESS ||
        (r = d.cuDevicePrimaryCtxRetain(&ctx, dev)) != CUDA_SUCCESS ||
        (r = d.cuCtxSetCurrent(ctx)) != CUDA_SUCCESS) {
      error = d.errorString("activating the primary context of device 0", r);
      return false;
    }
  }
  if ((r = d.cuCtxGetDevice(&dev)) != CUDA_SUCCESS) {
    error = d.errorString("cuCtxGetDevice", r);
    return false;
  }
  return true;
}

PointerQuery makePointerQuery(const Driver &d) {
  return [&d](uint64_t ptr, int &device, std::string &why) {
    unsigned memType = 0;
    CUresult r = d.cuPointerGetAttribute(
        &memType, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, CUdeviceptr(ptr));
    if (r != CUDA_SUCCESS) {
      why = "pointer is not a CUDA allocation (host memory?)";
      return false;
    }
    if (memType == CU_MEMORYTYPE_HOST) {
      why = "pointer is pinned host memory, not device memory";
      return false;
    }
    int ordinal = -1;
    r = d.cuPointerGetAttribute(&ordinal, CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL,
                                CUdeviceptr(ptr));
    if (r != CUDA_SUCCESS) {
      why = d.errorString("cuPointerGetAttribute(DEVICE_ORDINAL)", r);
      return false;
    }
    device = ordinal;
    return true;
  };
}

int tmaDataType(DType t) {
  switch (t) {
  case DType::BF16:
    return CU_TENSOR_MAP_DATA_TYPE_BFLOAT16;
  case DType::F16:
    return CU_TENSOR_MAP_DATA_TYPE_FLOAT16;
  case DType::F32:
    return CU_TENSOR_MAP_DATA_TYPE_FLOAT32;
  }
  return CU_TENSOR_MAP_DATA_TYPE_BFLOAT16;
}

/// Parses "sm_90a" / "sm_90" into (9, 0); the manifest parser has already
/// checked the form.
bool parseChip(const std::string &chip, int &major, int &minor) {
  int value = 0;
  size_t i = 3;
  for (; i < chip.size() && isdigit((unsigned char)chip[i]); ++i)
    value = value * 10 + (chip[i] - '0');
  if (chip.rfind("sm_", 0) != 0 || i < 5 || i > 6)
    return false;
  major = value / 10;
  minor = value % 10;
  return true;
}

/// A cuLaunchKernelEx configuration for `ks` on `grid`, with the cluster
/// attribute and, with `programmatic`, programmatic stream serialization
/// (stored in `attrs`, which must outlive the configuration).
template <typename Grid>
CUlaunchConfig makeLaunchConfig(const KernelSpec &ks, const Grid &grid,
                                CUstream stream, bool programmatic,
                                CUlaunchAttribute (&attrs)[2]) {
  std::memset(attrs, 0, sizeof(attrs));
  attrs[0].id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
  attrs[0].value.clusterDim.x = ks.cluster[0];
  attrs[0].value.clusterDim.y = ks.cluster[1];
  attrs[0].value.clusterDim.z = ks.cluster[2];
  attrs[1].id = CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION;
  attrs[1].value.programmaticStreamSerializationAllowed = 1;
  CUlaunchConfig cfg;
  std::memset(&cfg, 0, sizeof(cfg));
  cfg.gridDimX = uint32_t(grid[0]);
  cfg.gridDimY = uint32_t(grid[1]);
  cfg.gridDimZ = uint32_t(grid[2]);
  cfg.blockDimX = ks.block[0];
  cfg.blockDimY = ks.block[1];
  cfg.blockDimZ = ks.block[2];
  cfg.sharedMemBytes = ks.dynamicSmem;
  cfg.hStream = stream;
  cfg.attrs = attrs;
  cfg.numAttrs = programmatic ? 2 : 1;
  return cfg;
}
} // namespace

bool ff::rt::describeDevice(std::string &name, int &ccMajor, int &ccMinor,
                            int &smCount, std::string &error) {
  const Driver *d = getDriver(error);
  if (!d)
    return false;
  CUcontext ctx;
  CUdevice dev;
  if (!currentContext(*d, ctx, dev, error))
    return false;
  char buf[256] = {0};
  d->cuDeviceGetName(buf, sizeof(buf) - 1, dev);
  name = buf;
  d->cuDeviceGetAttribute(&ccMajor,
                          CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev);
  d->cuDeviceGetAttribute(&ccMinor,
                          CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev);
  d->cuDeviceGetAttribute(&smCount, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT,
                          dev);
  return true;
}

//===----------------------------------------------------------------------===//
// Per-context state
//===----------------------------------------------------------------------===//

struct LoadedBundle::ContextState {
  CUcontext ctx = nullptr;
  CUdevice device = 0;
  bool loaded = false;
  struct Kernel {
    CUmodule module = nullptr;
    CUfunction function = nullptr;
    int registers = -1;
    int maxActiveClusters = -1;
  };
  std::vector<Kernel> kernels;
  /// Workspace buffer per (kernel, param).
  std::map<std::pair<int, int>, std::pair<CUdeviceptr, size_t>> workspaces;
  /// Buffer per intermediate tensor (sequences), grown with M.
  std::vector<std::pair<CUdeviceptr, size_t>> intermediates;
  /// Encoded tensor maps keyed by (kernel, param, pointer, shape, and the
  /// launch's M for a box_fits_m map, whose box it sets).
  struct MapEntry {
    CUtensorMap map;
    CUdeviceptr deviceCopy = 0;
  };
  using MapKey = std::tuple<int, int, uint64_t, std::vector<int64_t>, int64_t>;
  std::map<MapKey, std::unique_ptr<MapEntry>> maps;
  /// Pointers the launch path has seen to be device memory of this context's
  /// device (a small ring): a steady stream of launches on the same tensors
  /// then costs no cuPointerGetAttribute calls. Unified addressing keeps
  /// device and host ranges apart, so a recycled device address is still
  /// device memory of this device.
  std::array<uint64_t, 16> devicePointers{};
  size_t nextDevicePointer = 0;
};

static constexpr size_t kMaxCachedMaps = 1024;

/// Grows `buf` (device pointer, bytes) to at least `bytes`. A buffer that
/// is too small is freed first, after a synchronize (an in-flight launch
/// may still use it; a captured one may replay it later), which bumps
/// `epoch`. Sets `grown` when it allocated.
static CUresult growBuffer(const Driver &d, std::atomic<uint64_t> &epoch,
                           std::pair<CUdeviceptr, size_t> &buf, size_t bytes,
                           bool &grown) {
  grown = false;
  if (buf.second >= bytes)
    return CUDA_SUCCESS;
  if (buf.first) {
    d.cuCtxSynchronize();
    d.cuMemFree(buf.first);
    buf = {0, 0};
    epoch.fetch_add(1, std::memory_order_acq_rel);
  }
  CUresult r = d.cuMemAlloc(&buf.first, bytes);
  if (r != CUDA_SUCCESS) {
    buf = {0, 0};
    return r;
  }
  buf.second = bytes;
  grown = true;
  return CUDA_SUCCESS;
}

LoadedBundle::~LoadedBundle() {
  std::string ignored;
  const Driver *d = getDriver(ignored);
  if (!d)
    return;
  for (auto &ctx : contexts) {
    CUcontext prev = nullptr;
    d->cuCtxGetCurrent(&prev);
    if (d->cuCtxSetCurrent(ctx->ctx) != CUDA_SUCCESS)
      continue;
    d->cuCtxSynchronize();
    for (auto &[key, entry] : ctx->maps)
      if (entry->deviceCopy)
        d->cuMemFree(entry->deviceCopy);
    for (auto &[key, ws] : ctx->workspaces)
      d->cuMemFree(ws.first);
    for (auto &buf : ctx->intermediates)
      if (buf.first)
        d->cuMemFree(buf.first);
    for (auto &k : ctx->kernels)
      if (k.module)
        d->cuModuleUnload(k.module);
    d->cuCtxSetCurrent(prev);
  }
}

std::unique_ptr<LoadedBundle> LoadedBundle::open(const std::string &dir,
                                                 bool verifyHash,
                                                 std::string &error) {
  std::unique_ptr<LoadedBundle> b(new LoadedBundle());
  if (!readBundle(dir, verifyHash, b->bundle, error))
    return nullptr;
  return b;
}

LoadedBundle::ContextState *LoadedBundle::getContext(std::string &error) {
  const Driver *d = getDriver(error);
  if (!d)
    return nullptr;
  CUcontext ctx;
  CUdevice dev;
  if (!currentContext(*d, ctx, dev, error))
    return nullptr;
  for (auto &c : contexts)
    if (c->ctx == ctx)
      return c.get();
  auto state = std::make_unique<ContextState>();
  state->ctx = ctx;
  state->device = dev;
  contexts.push_back(std::move(state));
  return contexts.back().get();
}

bool LoadedBundle::loadKernels(ContextState &c, std::string &error) {
  if (c.loaded)
    return true;
  std::string ignored;
  const Driver &d = *getDriver(ignored);
  const Manifest &man = bundle.manifest;
  int major = 0, minor = 0, wantMajor = 0, wantMinor = 0;
  d.cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR,
                         c.device);
  d.cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR,
                         c.device);
  char name[256] = {0};
  d.cuDeviceGetName(name, sizeof(name) - 1, c.device);
  if (parseChip(man.chip, wantMajor, wantMinor)) {
    bool archSpecific = !man.chip.empty() && man.chip.back() == 'a';
    bool ok = archSpecific ? (major == wantMajor && minor == wantMinor)
                           : (major * 10 + minor >= wantMajor * 10 + wantMinor);
    if (!ok) {
      error = "bundle " + bundle.dir + " targets " + man.chip + " but device " +
              std::to_string(c.device) + " (" + name + ") is sm_" +
              std::to_string(major) + std::to_string(minor);
      return false;
    }
  }
  int smemOptin = 0;
  d.cuDeviceGetAttribute(&smemOptin,
                         CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN,
                         c.device);
  std::vector<ContextState::Kernel> kernels(man.kernels.size());
  auto cleanup = [&] {
    for (auto &k : kernels)
      if (k.module)
        d.cuModuleUnload(k.module);
  };
  for (size_t i = 0; i < man.kernels.size(); ++i) {
    const KernelSpec &ks = man.kernels[i];
    ContextState::Kernel &k = kernels[i];
    std::string where =
        "kernel " + ks.name + " (" + (ks.cubin.empty() ? ks.ptx : ks.cubin) +
        ")";
    if (int64_t(ks.dynamicSmem) > smemOptin) {
      error = where + ": needs " + std::to_string(ks.dynamicSmem) +
              " bytes of dynamic shared memory, device allows " +
              std::to_string(smemOptin);
      cleanup();
      return false;
    }
    // A PTX-only bundle (format=isa) is compiled by the driver at load.
    CUresult r = bundle.cubins[i].empty()
                     ? CUDA_ERROR_INVALID_IMAGE
                     : d.cuModuleLoadData(&k.module, bundle.cubins[i].data());
    if (r != CUDA_SUCCESS && !bundle.ptxs[i].empty()) {
      // The cubin may be for another chip revision; let the driver JIT the PTX.
      r = d.cuModuleLoadData(&k.module, bundle.ptxs[i].c_str());
      where += " (PTX fallback)";
    }
    if (r != CUDA_SUCCESS) {
      error = where + ": " + d.errorString("cuModuleLoadData", r);
      k.module = nullptr;
      cleanup();
      return false;
    }
    if ((r = d.cuModuleGetFunction(&k.function, k.module, ks.name.c_str())) !=
        CUDA_SUCCESS) {
      error = where + ": no kernel function named " + ks.name + " (" +
              d.errorString("cuModuleGetFunction", r) + ")";
      cleanup();
      return false;
    }
    if ((r = d.cuFuncSetAttribute(
             k.function, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
             int(ks.dynamicSmem))) != CUDA_SUCCESS) {
      error =
          where + ": " +
          d.errorString("cuFuncSetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES)", r);
      cleanup();
      return false;
    }
    unsigned clusterCtas = ks.cluster[0] * ks.cluster[1] * ks.cluster[2];
    if (clusterCtas > 8 &&
        (r = d.cuFuncSetAttribute(
             k.function, CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED,
             1)) != CUDA_SUCCESS) {
      error = where + ": " +
              d.errorString(
                  "cuFuncSetAttribute(NON_PORTABLE_CLUSTER_SIZE_ALLOWED)", r);
      cleanup();
      return false;
    }
    d.cuFuncGetAttribute(&k.registers, CU_FUNC_ATTRIBUTE_NUM_REGS, k.function);
    // One cluster's worth of grid is what the occupancy query needs.
    CUlaunchAttribute attrs[2];
    CUlaunchConfig cfg = makeLaunchConfig(ks, ks.cluster, nullptr,
                                          /*programmatic=*/false, attrs);
    std::string shape = std::to_string(ks.cluster[0]) + "x" +
                        std::to_string(ks.cluster[1]) + "x" +
                        std::to_string(ks.cluster[2]);
    r = d.cuOccupancyMaxActiveClusters(&k.maxActiveClusters, k.function, &cfg);
    if (r != CUDA_SUCCESS || k.maxActiveClusters < 1) {
      error = where + ": cluster shape " + shape + " with " +
              std::to_string(ks.block[0] * ks.block[1] * ks.block[2]) +
              " threads and " + std::to_string(ks.dynamicSmem) +
              " bytes of dynamic shared memory per CTA cannot be scheduled "
              "on " +
              name + " (" +
              (r != CUDA_SUCCESS
                   ? d.errorString("cuOccupancyMaxActiveClusters", r)
                   : std::string("cuOccupancyMaxActiveClusters = 0")) +
              ")";
      cleanup();
      return false;
    }
  }
  c.kernels = std::move(kernels);
  c.loaded = true;
  return true;
}

bool LoadedBundle::validate(const std::vector<TensorArg> &args,
                            bool queryPointers, LaunchPlan &plan,
                            std::string &error) {
  if (!queryPointers)
    return validateArgs(bundle.manifest, args, nullptr, -1, plan, error);
  std::lock_guard<std::mutex> lock(mutex);
  ContextState *c = getContext(error);
  if (!c)
    return false;
  const Driver &d = *getDriver(error);
  PointerQuery q = makePointerQuery(d);
  return validateArgs(bundle.manifest, args, &q, c->device, plan, error);
}

bool LoadedBundle::prepare(std::string &error) {
  std::lock_guard<std::mutex> lock(mutex);
  ContextState *c = getContext(error);
  return c && loadKernels(*c, error);
}

bool LoadedBundle::captureLaunch(const std::vector<TensorArg> &args,
                                 void *&exec, std::string &error, int copies) {
  exec = nullptr;
  if (copies < 1) {
    error = "a graph captures at least one launch";
    return false;
  }
  if (!prepare(error)) // makes a context current
    return false;
  const Driver &d = *getDriver(error);
  CUstream s = nullptr;
  CUresult r = d.cuStreamCreate(&s, CU_STREAM_NON_BLOCKING);
  if (r != CUDA_SUCCESS) {
    error = d.errorString("cuStreamCreate", r);
    return false;
  }
  // Thread-local mode: other threads' unsafe calls do not break the
  // capture, and this thread's would fail it rather than run.
  CUgraph graph = nullptr;
  r = d.cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_THREAD_LOCAL);
  if (r != CUDA_SUCCESS) {
    error = d.errorString("cuStreamBeginCapture", r);
  } else {
    bool launched = true;
    for (int i = 0; i < copies && launched; ++i)
      launched = launch(args, s, error);
    r = d.cuStreamEndCapture(s, &graph);
    if (launched && r != CUDA_SUCCESS)
      error = d.errorString("cuStreamEndCapture", r);
    if (!launched || r != CUDA_SUCCESS) {
      if (graph)
        d.cuGraphDestroy(graph);
      graph = nullptr;
    }
  }
  if (graph) {
    CUgraphExec e = nullptr;
    r = d.cuGraphInstantiateWithFlags(&e, graph, 0);
    if (r == CUDA_SUCCESS)
      exec = e;
    else
      error = d.errorString("cuGraphInstantiateWithFlags", r);
    d.cuGraphDestroy(graph);
  }
  d.cuStreamDestroy(s);
  return exec != nullptr;
}

int LoadedBundle::numRegisters(size_t i) const {
  for (auto &c : contexts)
    if (c->loaded && i < c->kernels.size())
      return c->kernels[i].registers;
  return -1;
}

int LoadedBundle::maxActiveClusters(size_t i) const {
  for (auto &c : contexts)
    if (c->loaded && i < c->kernels.size())
      return c->kernels[i].maxActiveClusters;
  return -1;
}

bool LoadedBundle::launch(const std::vector<TensorArg> &args, void *stream,
                          std::string &error, LaunchPlan *planOut) {
  std::lock_guard<std::mutex> lock(mutex);
  ContextState *c = getContext(error);
  if (!c)
    return false;
  const Driver &d = *getDriver(error);
  const Manifest &man = bundle.manifest;
  PointerQuery query = makePointerQuery(d);
  PointerQuery q = [&](uint64_t ptr, int &device, std::string &why) {
    for (uint64_t known : c->devicePointers)
      if (known == ptr && ptr) {
        device = int(c->device);
        return true;
      }
    if (!query(ptr, device, why))
      return false;
    if (device == int(c->device))
      c->devicePointers[c->nextDevicePointer++ % c->devicePointers.size()] =
          ptr;
    return true;
  };
  LaunchPlan plan;
  if (!validateArgs(man, args, &q, c->device, plan, error))
    return false;
  if (!loadKernels(*c, error))
    return false;
  for (size_t i = 0; i < plan.kernels.size(); ++i)
    capPersistentGrid(man.kernels[size_t(plan.kernels[i])],
                      c->kernels[size_t(plan.kernels[i])].maxActiveClusters,
                      plan.grids[i]);
  plan.grid = plan.grids.front();
  if (planOut)
    *planOut = plan;
  CUstream s = static_cast<CUstream>(stream);

  // The intermediates a sequence passes between its kernels (tensors
  // indexed after the caller's): buffers of this context, grown for a
  // larger M.
  std::vector<TensorArg> intermediates(man.intermediates.size());
  c->intermediates.resize(man.intermediates.size());
  for (size_t t = 0; t < man.intermediates.size(); ++t) {
    const TensorSpec &spec = man.intermediates[t];
    TensorArg &a = intermediates[t];
    a.dtype = spec.dtype;
    a.shape = spec.shape;
    size_t bytes = size_t(dtypeSize(spec.dtype));
    for (int64_t &e : a.shape) {
      e = e == -1 ? plan.m : e;
      bytes *= size_t(e);
    }
    bool grown;
    CUresult r = growBuffer(d, epoch, c->intermediates[t], bytes, grown);
    if (r != CUDA_SUCCESS) {
      error = "intermediate '" + spec.name +
              "': " + d.errorString("cuMemAlloc", r) + " for " +
              std::to_string(bytes) + " bytes";
      return false;
    }
    a.data = c->intermediates[t].first;
  }
  for (size_t i = 0; i < plan.kernels.size(); ++i)
    if (!launchKernel(*c, plan.kernels[i], plan.grids[i], plan.m, args,
                      intermediates, s, error))
      return false;
  return true;
}

bool LoadedBundle::launchKernel(ContextState &cs, int kernel,
                                const std::array<uint32_t, 3> &grid, int64_t m,
                                const std::vector<TensorArg> &args,
                                const std::vector<TensorArg> &intermediates,
                                CUstream s, std::string &error) {
  ContextState *c = &cs;
  // Tensor i of the manifest: an argument, or past them an intermediate.
  auto tensorArg = [&](int i) -> const TensorArg & {
    return size_t(i) < args.size() ? args[size_t(i)]
                                   : intermediates[size_t(i) - args.size()];
  };
  const Driver &d = *getDriver(error);
  const Manifest &man = bundle.manifest;
  const KernelSpec &ks = man.kernels[size_t(kernel)];
  const ContextState::Kernel &k = c->kernels[size_t(kernel)];

  // Every scalar and pointer param lives in `words`; reserve so the addresses
  // handed to the driver stay valid.
  size_t wordCount = 0;
  for (const ParamSpec &p : ks.params)
    wordCount += p.kind == ParamKind::Memref
                     ? 3 + 2 * man.tensor(size_t(p.tensor)).shape.size()
                     : 1;
  std::vector<uint64_t> words;
  words.reserve(wordCount);
  std::vector<void *> params;
  params.reserve(wordCount);
  bool memsetBefore = false; // a workspace cleared on `s` for this launch
  auto push = [&](uint64_t v) {
    words.push_back(v);
    params.push_back(&words.back());
  };

  // Flush the tensor-map cache before building params when this launch
  // could overflow it, so no param points into an evicted entry.
  size_t mapParams = 0;
  for (const ParamSpec &p : ks.params)
    mapParams +=
        p.kind == ParamKind::TensorMap || p.kind == ParamKind::TensorMapPtr;
  if (c->maps.size() + mapParams > kMaxCachedMaps) {
    // Launches in flight may still read the device copies; captured ones
    // may replay later.
    d.cuCtxSynchronize();
    for (auto &[key, entry] : c->maps)
      if (entry->deviceCopy)
        d.cuMemFree(entry->deviceCopy);
    c->maps.clear();
    epoch.fetch_add(1, std::memory_order_acq_rel);
  }

  for (size_t pi = 0; pi < ks.params.size(); ++pi) {
    const ParamSpec &p = ks.params[pi];
    // Built only on the error path: the launch path stays allocation-light.
    auto where = [&] {
      return "kernel " + ks.name + " param " + std::to_string(pi) + " (" +
             paramKindName(p.kind) + ")";
    };
    switch (p.kind) {
    case ParamKind::Ptr:
      push(tensorArg(p.tensor).data);
      break;
    case ParamKind::Memref: {
      const TensorArg &a = tensorArg(p.tensor);
      push(a.data);
      push(a.data);
      push(0);
      for (int64_t e : a.shape)
        push(uint64_t(e));
      int64_t stride = 1;
      std::vector<int64_t> strides(a.shape.size());
      for (size_t dim = a.shape.size(); dim-- > 0;) {
        strides[dim] = stride;
        stride *= a.shape[dim];
      }
      for (int64_t st : strides)
        push(uint64_t(st));
      break;
    }
    case ParamKind::I64:
      push(uint64_t(p.scalarIsM ? m : p.scalarValue));
      break;
    case ParamKind::I32: {
      int32_t v = int32_t(p.scalarIsM ? m : p.scalarValue);
      uint64_t w = 0;
      std::memcpy(&w, &v, sizeof(v));
      push(w);
      break;
    }
    case ParamKind::Workspace: {
      size_t bytes = size_t(p.bytesFixed + p.bytesPerM * m);
      bytes = bytes ? bytes : 16;
      auto &ws = c->workspaces[{kernel, int(pi)}];
      bool grown;
      CUresult r = growBuffer(d, epoch, ws, bytes, grown);
      if (r != CUDA_SUCCESS) {
        error = where() + ": " + d.errorString("cuMemAlloc", r) + " for " +
                std::to_string(bytes) + " bytes of workspace";
        return false;
      }
      // A self-cleaning workspace starts zero and stays zero between
      // launches; cleared whole here, on the launch's stream.
      memsetBefore |= grown && p.selfCleaning;
      if (grown && p.selfCleaning &&
          (r = d.cuMemsetD8Async(ws.first, 0, bytes, s)) != CUDA_SUCCESS) {
        error = where() + ": " + d.errorString("cuMemsetD8Async", r);
        return false;
      }
      if (p.zero && !p.selfCleaning) {
        // All of it, or only the trailing zero_bytes_per_m * M bytes.
        size_t from =
            p.zeroBytesPerM
                ? size_t(p.bytesFixed + (p.bytesPerM - p.zeroBytesPerM) * m)
                : 0;
        size_t count = p.zeroBytesPerM ? size_t(p.zeroBytesPerM * m) : bytes;
        memsetBefore |= count > 0;
        CUresult r = count ? d.cuMemsetD8Async(ws.first + from, 0, count, s)
                           : CUDA_SUCCESS;
        if (r != CUDA_SUCCESS) {
          error = where() + ": " + d.errorString("cuMemsetD8Async", r);
          return false;
        }
      }
      push(ws.first);
      break;
    }
    case ParamKind::TensorMap:
    case ParamKind::TensorMapPtr: {
      const TensorArg &a = tensorArg(p.tensor);
      ContextState::MapKey key{kernel, int(pi), a.data, a.shape,
                               p.boxFitsM || p.boxTailM ? m : 0};
      auto it = c->maps.find(key);
      if (it == c->maps.end()) {
        auto entry = std::make_unique<ContextState::MapEntry>();
        // The map's shape: the tensor's, or the row-major reshape the
        // manifest names (its -1 inferred from the element count): the same
        // contiguous memory, e.g. an FHWC filter [F, 3, 3, C] as [F, 9C].
        std::vector<int64_t> shape = a.shape;
        if (!p.view.empty()) {
          int64_t total = 1, known = 1;
          for (int64_t e : a.shape)
            total *= e;
          for (int64_t e : p.view)
            known *= e == -1 ? 1 : e;
          shape = p.view;
          for (int64_t &e : shape)
            if (e == -1)
              e = known ? total / known : 0;
          int64_t viewTotal = 1;
          for (int64_t e : shape)
            viewTotal *= e;
          if (viewTotal != total) {
            error = where() + ": tensor '" + man.tensor(size_t(p.tensor)).name +
                    "' cannot be viewed with the manifest's shape";
            return false;
          }
        }
        size_t rank = shape.size();
        uint64_t dims[5], strides[5];
        int64_t elem = dtypeSize(a.dtype), stride = elem;
        for (size_t i = 0; i < rank; ++i) {
          dims[i] = uint64_t(shape[rank - 1 - i]);
          if (i > 0)
            strides[i - 1] = uint64_t(stride);
          stride *= shape[rank - 1 - i];
        }
        const char *encoder =
            p.im2col ? "cuTensorMapEncodeIm2col" : "cuTensorMapEncodeTiled";
        auto mapError = [&](const std::string &why) {
          error = where() + " for tensor '" +
                  man.tensor(size_t(p.tensor)).name + "': " + why;
          return false;
        };
        if (p.im2col && !d.cuTensorMapEncodeIm2col)
          return mapError(std::string("the CUDA driver lacks ") + encoder +
                          " (an im2col tensor map needs a newer driver)");
        std::vector<uint32_t> box = tensorMapBox(p, m);
        CUresult r =
            p.im2col ? d.cuTensorMapEncodeIm2col(
                           &entry->map, tmaDataType(a.dtype), uint32_t(rank),
                           reinterpret_cast<void *>(a.data), dims, strides,
                           p.im2colLower.data(), p.im2colUpper.data(), p.box[0],
                           p.box[1], p.elementStrides.data(), p.interleave,
                           p.swizzle, p.l2Promotion, p.oobFill)
                     : d.cuTensorMapEncodeTiled(
                           &entry->map, tmaDataType(a.dtype), uint32_t(rank),
                           reinterpret_cast<void *>(a.data), dims, strides,
                           box.data(), p.elementStrides.data(), p.interleave,
                           p.swizzle, p.l2Promotion, p.oobFill);
        if (r != CUDA_SUCCESS)
          return mapError(d.errorString(encoder, r));
        if (p.kind == ParamKind::TensorMapPtr) {
          if ((r = d.cuMemAlloc(&entry->deviceCopy, sizeof(CUtensorMap))) !=
                  CUDA_SUCCESS ||
              (r = d.cuMemcpyHtoD(entry->deviceCopy, &entry->map,
                                  sizeof(CUtensorMap))) != CUDA_SUCCESS) {
            error = where() + ": " + d.errorString("copying a tensor map", r);
            if (entry->deviceCopy)
              d.cuMemFree(entry->deviceCopy);
            return false;
          }
        }
        it = c->maps.emplace(std::move(key), std::move(entry)).first;
      }
      if (p.kind == ParamKind::TensorMap) {
        params.push_back(&it->second->map);
      } else {
        push(it->second->deviceCopy);
      }
      break;
    }
    }
  }

  // A kernel marked programmatic waits for its stream predecessor in-kernel,
  // so it may launch while that kernel runs: the call's previous kernel, or
  // for a call's first kernel whatever kernel precedes the call on `s` (the
  // attribute overlaps only a predecessor kernel that releases its
  // dependents). Not right after this launch's own workspace memset.
  CUlaunchAttribute attrs[2];
  CUlaunchConfig cfg = makeLaunchConfig(
      ks, grid, s, ks.programmaticLaunch && !memsetBefore, attrs);
  CUresult r = d.cuLaunchKernelEx(&cfg, k.function, params.data(), nullptr);
  if (r != CUDA_SUCCESS) {
    error = "kernel " + ks.name + ": " + d.errorString("cuLaunchKernelEx", r);
    return false;
  }
  return true;
}

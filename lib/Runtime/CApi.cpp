//===- CApi.cpp - C API of the FlashFuser runtime -------------------------===//

#include "ff/Runtime/CudaDriver.h"
#include "ff/Runtime/Runtime.h"
#include "ff/Runtime/Sha256.h"
#include "ff/Runtime/ffrt.h"

#include <cstring>

using namespace ff::rt;

struct ffrt_bundle {
  std::unique_ptr<LoadedBundle> impl;
};

struct ffrt_graph {
  void *exec; ///< CUgraphExec
};

static thread_local std::string lastError;

static int fail(int code, std::string message) {
  lastError = std::move(message);
  return code;
}

/// Maps a runtime error message to an FFRT_* code. The runtime reports
/// errors as text; these prefixes and phrases are the ones it emits.
static int classify(const std::string &error) {
  if (error.rfind("no CUDA", 0) == 0)
    return FFRT_ERROR_NO_DEVICE;
  if (error.find(" failed: ") != std::string::npos)
    return FFRT_ERROR_CUDA;
  if (error.rfind("bundle ", 0) == 0 ||
      error.find("cannot be scheduled") != std::string::npos ||
      error.find("bytes of dynamic shared memory, device allows") !=
          std::string::npos)
    return FFRT_ERROR_BUNDLE;
  return FFRT_ERROR_INVALID_ARGUMENT;
}

static bool convertArgs(const ffrt_tensor *args, int nargs,
                        std::vector<TensorArg> &out, std::string &error) {
  if (nargs < 0 || (nargs > 0 && !args)) {
    error = "null or negative argument list";
    return false;
  }
  for (int i = 0; i < nargs; ++i) {
    const ffrt_tensor &t = args[i];
    TensorArg a;
    a.data = t.data;
    auto dt = parseDType(t.dtype ? t.dtype : "");
    if (!dt) {
      error = "argument " + std::to_string(i) + ": unsupported dtype \"" +
              (t.dtype ? t.dtype : "(null)") + "\" (expected bf16, f16, f32)";
      return false;
    }
    a.dtype = *dt;
    if (t.ndim < 1 || t.ndim > FFRT_MAX_RANK) {
      error = "argument " + std::to_string(i) + ": rank " +
              std::to_string(t.ndim) + " out of range [1, 8]";
      return false;
    }
    a.shape.assign(t.shape, t.shape + t.ndim);
    if (t.has_strides)
      a.strides.assign(t.strides, t.strides + t.ndim);
    out.push_back(std::move(a));
  }
  return true;
}

extern "C" {

const char *ffrt_last_error(void) { return lastError.c_str(); }

const char *ffrt_version(void) { return runtimeVersion(); }

int ffrt_driver_available(void) {
  std::string error;
  if (!cu::getDriver(error))
    return fail(FFRT_ERROR_NO_DEVICE, error);
  return FFRT_OK;
}

int ffrt_sha256_hex(const void *data, size_t size, char out[65]) {
  if ((!data && size) || !out)
    return fail(FFRT_ERROR_INVALID_ARGUMENT, "null buffer");
  Sha256 h;
  h.update(data, size);
  std::string hex = h.finishHex();
  std::memcpy(out, hex.c_str(), 65);
  return FFRT_OK;
}

int ffrt_bundle_compute_hash(const char *dir, char out[65]) {
  if (!dir || !out)
    return fail(FFRT_ERROR_INVALID_ARGUMENT, "null argument");
  Bundle b;
  std::string error;
  if (!readBundle(dir, /*verifyHash=*/false, b, error))
    return fail(FFRT_ERROR_BUNDLE, error);
  std::string hex = computeBundleHash(
      b.manifestText, b.manifest.hashDigitsBegin, b.cubins, b.ptxs);
  std::memcpy(out, hex.c_str(), 65);
  return FFRT_OK;
}

int ffrt_bundle_open(const char *dir, int verify_hash, ffrt_bundle **out) {
  if (!dir || !out)
    return fail(FFRT_ERROR_INVALID_ARGUMENT, "null argument");
  *out = nullptr;
  std::string error;
  auto impl = LoadedBundle::open(dir, verify_hash != 0, error);
  if (!impl)
    return fail(FFRT_ERROR_BUNDLE, error);
  *out = new ffrt_bundle{std::move(impl)};
  return FFRT_OK;
}

void ffrt_bundle_close(ffrt_bundle *bundle) { delete bundle; }

int ffrt_validate(ffrt_bundle *bundle, const ffrt_tensor *args, int nargs,
                  int query_pointers, ffrt_plan *plan) {
  if (!bundle)
    return fail(FFRT_ERROR_INVALID_ARGUMENT, "null bundle");
  std::vector<TensorArg> converted;
  std::string error;
  if (!convertArgs(args, nargs, converted, error))
    return fail(FFRT_ERROR_INVALID_ARGUMENT, error);
  LaunchPlan p;
  if (!bundle->impl->validate(converted, query_pointers != 0, p, error))
    return fail(classify(error), error);
  if (plan) {
    plan->m = p.m;
    plan->kernel = p.kernel;
    for (int i = 0; i < 3; ++i)
      plan->grid[i] = p.grid[size_t(i)];
  }
  return FFRT_OK;
}

int ffrt_prepare(ffrt_bundle *bundle) {
  if (!bundle)
    return fail(FFRT_ERROR_INVALID_ARGUMENT, "null bundle");
  std::string error;
  if (!bundle->impl->prepare(error))
    return fail(classify(error), error);
  return FFRT_OK;
}

int ffrt_launch(ffrt_bundle *bundle, const ffrt_tensor *args, int nargs,
                void *stream) {
  if (!bundle)
    return fail(FFRT_ERROR_INVALID_ARGUMENT, "null bundle");
  std::vector<TensorArg> converted;
  std::string error;
  if (!convertArgs(args, nargs, converted, error))
    return fail(FFRT_ERROR_INVALID_ARGUMENT, error);
  if (!bundle->impl->launch(converted, stream, error))
    return fail(classify(error), error);
  return FFRT_OK;
}

uint64_t ffrt_bundle_epoch(const ffrt_bundle *bundle) {
  return bundle ? bundle->impl->memoryEpoch() : 0;
}

int ffrt_graph_capture(ffrt_bundle *bundle, const ffrt_tensor *args, int nargs,
                       ffrt_graph **out) {
  if (!bundle || !out)
    return fail(FFRT_ERROR_INVALID_ARGUMENT, "null bundle or output pointer");
  *out = nullptr;
  std::vector<TensorArg> converted;
  std::string error;
  if (!convertArgs(args, nargs, converted, error))
    return fail(FFRT_ERROR_INVALID_ARGUMENT, error);
  void *exec = nullptr;
  if (!bundle->impl->captureLaunch(converted, exec, error))
    return fail(classify(error), error);
  *out = new ffrt_graph{exec};
  return FFRT_OK;
}

int ffrt_graph_launch(ffrt_graph *graph, void *stream) {
  if (!graph)
    return fail(FFRT_ERROR_INVALID_ARGUMENT, "null graph");
  std::string error;
  const cu::Driver *d = cu::getDriver(error);
  if (!d)
    return fail(FFRT_ERROR_NO_DEVICE, error);
  cu::CUresult r = d->cuGraphLaunch(static_cast<cu::CUgraphExec>(graph->exec),
                                    static_cast<cu::CUstream>(stream));
  if (r != cu::CUDA_SUCCESS)
    return fail(FFRT_ERROR_CUDA, d->errorString("cuGraphLaunch", r));
  return FFRT_OK;
}

void ffrt_graph_destroy(ffrt_graph *graph) {
  if (!graph)
    return;
  std::string error;
  if (const cu::Driver *d = cu::getDriver(error))
    d->cuGraphExecDestroy(static_cast<cu::CUgraphExec>(graph->exec));
  delete graph;
}

int ffrt_stream_capturing(void *stream) {
  std::string error;
  const cu::Driver *d = cu::getDriver(error);
  int status = cu::CU_STREAM_CAPTURE_STATUS_NONE;
  if (!d || d->cuStreamIsCapturing(static_cast<cu::CUstream>(stream),
                                   &status) != cu::CUDA_SUCCESS)
    return -1;
  return status != cu::CU_STREAM_CAPTURE_STATUS_NONE;
}

int ffrt_current_device(void) {
  std::string error;
  const cu::Driver *d = cu::getDriver(error);
  cu::CUdevice dev = 0;
  if (!d || d->cuCtxGetDevice(&dev) != cu::CUDA_SUCCESS)
    return -1;
  return static_cast<int>(dev);
}

} // extern "C"

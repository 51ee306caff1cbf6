//===- CudaDriver.cpp - dlopen'ed CUDA driver API -------------------------===//

#include "ff/Runtime/CudaDriver.h"

#include <cstdlib>
#include <dlfcn.h>
#include <mutex>

using namespace ff::rt::cu;

std::string Driver::errorString(const char *call, CUresult r) const {
  const char *name = nullptr, *text = nullptr;
  if (cuGetErrorName)
    cuGetErrorName(r, &name);
  if (cuGetErrorString)
    cuGetErrorString(r, &text);
  std::string s = std::string(call) + " failed: ";
  s += name ? name : ("CUresult " + std::to_string(r));
  if (text)
    s += std::string(" (") + text + ")";
  return s;
}

namespace {
struct DriverState {
  Driver driver{};
  bool ok = false;
  std::string error;
};

template <typename Fn>
bool resolve(void *lib, Fn &fn, std::initializer_list<const char *> names,
             std::string &missing) {
  for (const char *name : names) {
    if (void *sym = dlsym(lib, name)) {
      fn = reinterpret_cast<Fn>(sym);
      return true;
    }
  }
  missing = *names.begin();
  return false;
}

void loadDriver(DriverState &st) {
  const char *override = std::getenv("FF_CUDA_DRIVER_LIB");
  const char *path = override && *override ? override : "libcuda.so.1";
  void *lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  std::string why;
  if (!lib) {
    const char *e = dlerror();
    why = e ? e : "";
  }
  if (!lib && !override)
    lib = dlopen("libcuda.so", RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    st.error = std::string("no CUDA driver found: cannot load ") + path +
               (why.empty() ? std::string() : " (" + why + ")");
    return;
  }
  Driver &d = st.driver;
  std::string missing;
  bool ok =
      resolve(lib, d.cuInit, {"cuInit"}, missing) &&
      resolve(lib, d.cuDriverGetVersion, {"cuDriverGetVersion"}, missing) &&
      resolve(lib, d.cuGetErrorString, {"cuGetErrorString"}, missing) &&
      resolve(lib, d.cuGetErrorName, {"cuGetErrorName"}, missing) &&
      resolve(lib, d.cuDeviceGetCount, {"cuDeviceGetCount"}, missing) &&
      resolve(lib, d.cuDeviceGet, {"cuDeviceGet"}, missing) &&
      resolve(lib, d.cuDeviceGetName, {"cuDeviceGetName"}, missing) &&
      resolve(lib, d.cuDeviceGetAttribute, {"cuDeviceGetAttribute"}, missing) &&
      resolve(lib, d.cuDevicePrimaryCtxRetain, {"cuDevicePrimaryCtxRetain"},
              missing) &&
      resolve(lib, d.cuDevicePrimaryCtxRelease,
              {"cuDevicePrimaryCtxRelease_v2", "cuDevicePrimaryCtxRelease"},
              missing) &&
      resolve(lib, d.cuCtxGetCurrent, {"cuCtxGetCurrent"}, missing) &&
      resolve(lib, d.cuCtxSetCurrent, {"cuCtxSetCurrent"}, missing) &&
      resolve(lib, d.cuCtxGetDevice, {"cuCtxGetDevice"}, missing) &&
      resolve(lib, d.cuCtxSynchronize, {"cuCtxSynchronize"}, missing) &&
      resolve(lib, d.cuModuleLoadData, {"cuModuleLoadData"}, missing) &&
      resolve(lib, d.cuModuleUnload, {"cuModuleUnload"}, missing) &&
      resolve(lib, d.cuModuleGetFunction, {"cuModuleGetFunction"}, missing) &&
      resolve(lib, d.cuFuncSetAttribute, {"cuFuncSetAttribute"}, missing) &&
      resolve(lib, d.cuFuncGetAttribute, {"cuFuncGetAttribute"}, missing) &&
      resolve(lib, d.cuTensorMapEncodeTiled, {"cuTensorMapEncodeTiled"},
              missing) &&
      resolve(lib, d.cuOccupancyMaxActiveClusters,
              {"cuOccupancyMaxActiveClusters"}, missing) &&
      resolve(lib, d.cuLaunchKernelEx, {"cuLaunchKernelEx"}, missing) &&
      resolve(lib, d.cuMemAlloc, {"cuMemAlloc_v2"}, missing) &&
      resolve(lib, d.cuMemFree, {"cuMemFree_v2"}, missing) &&
      resolve(lib, d.cuMemcpyHtoD, {"cuMemcpyHtoD_v2"}, missing) &&
      resolve(lib, d.cuMemcpyDtoH, {"cuMemcpyDtoH_v2"}, missing) &&
      resolve(lib, d.cuMemsetD8, {"cuMemsetD8_v2"}, missing) &&
      resolve(lib, d.cuMemsetD16, {"cuMemsetD16_v2"}, missing) &&
      resolve(lib, d.cuMemsetD32, {"cuMemsetD32_v2"}, missing) &&
      resolve(lib, d.cuMemsetD8Async, {"cuMemsetD8Async"}, missing) &&
      resolve(lib, d.cuPointerGetAttribute, {"cuPointerGetAttribute"},
              missing) &&
      resolve(lib, d.cuStreamSynchronize, {"cuStreamSynchronize"}, missing) &&
      resolve(lib, d.cuStreamCreate, {"cuStreamCreate"}, missing) &&
      resolve(lib, d.cuStreamDestroy, {"cuStreamDestroy_v2"}, missing) &&
      resolve(lib, d.cuStreamBeginCapture, {"cuStreamBeginCapture_v2"},
              missing) &&
      resolve(lib, d.cuStreamEndCapture, {"cuStreamEndCapture"}, missing) &&
      resolve(lib, d.cuStreamIsCapturing, {"cuStreamIsCapturing"}, missing) &&
      resolve(lib, d.cuGraphInstantiateWithFlags,
              {"cuGraphInstantiateWithFlags"}, missing) &&
      resolve(lib, d.cuGraphLaunch, {"cuGraphLaunch"}, missing) &&
      resolve(lib, d.cuGraphExecDestroy, {"cuGraphExecDestroy"}, missing) &&
      resolve(lib, d.cuGraphDestroy, {"cuGraphDestroy"}, missing) &&
      resolve(lib, d.cuEventCreate, {"cuEventCreate"}, missing) &&
      resolve(lib, d.cuEventDestroy, {"cuEventDestroy_v2"}, missing) &&
      resolve(lib, d.cuEventRecord, {"cuEventRecord"}, missing) &&
      resolve(lib, d.cuEventSynchronize, {"cuEventSynchronize"}, missing) &&
      resolve(lib, d.cuEventElapsedTime,
              {"cuEventElapsedTime_v2", "cuEventElapsedTime"}, missing);
  if (!ok) {
    st.error = std::string("no CUDA driver found: ") + path + " lacks " +
               missing + " (driver too old for sm_90 clusters and TMA?)";
    return;
  }
  // Optional entry points stay null; the launches that need one report it.
  std::string optional;
  resolve(lib, d.cuTensorMapEncodeIm2col, {"cuTensorMapEncodeIm2col"},
          optional);
  CUresult r = d.cuInit(0);
  if (r != CUDA_SUCCESS) {
    st.error = "no CUDA driver found: " + d.errorString("cuInit", r);
    return;
  }
  int count = 0;
  r = d.cuDeviceGetCount(&count);
  if (r != CUDA_SUCCESS || count == 0) {
    st.error = "no CUDA device found";
    return;
  }
  st.ok = true;
}
} // namespace

const Driver *ff::rt::cu::getDriver(std::string &error) {
  static DriverState state;
  static std::once_flag once;
  std::call_once(once, [] { loadDriver(state); });
  if (!state.ok) {
    error = state.error;
    return nullptr;
  }
  return &state.driver;
}

//===- Runtime.h - Load and launch FlashFuser kernel bundles ----*- C++ -*-===//
//
// The C++ API over the CUDA driver (loaded with dlopen, see CudaDriver.h):
// open a bundle (manifest + cubins, hash-checked), then launch it on tensors.
// Each launch validates every argument first (Validate.h) and never reaches
// the GPU with bad input. Modules, functions, workspaces and encoded tensor
// maps are cached per CUDA context, so the steady-state launch path is a few
// map lookups plus cuLaunchKernelEx.
//
//===----------------------------------------------------------------------===//

#ifndef FF_RUNTIME_RUNTIME_H
#define FF_RUNTIME_RUNTIME_H

#include "ff/Runtime/Manifest.h"
#include "ff/Runtime/Validate.h"

#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

struct CUstream_st;

namespace ff::rt {

/// Version string of the runtime ("0.1.0").
const char *runtimeVersion();

/// Describes the GPU the current (or primary) context runs on; false with
/// "no CUDA driver found" / "no CUDA device found" when there is none.
bool describeDevice(std::string &name, int &ccMajor, int &ccMinor, int &smCount,
                    std::string &error);

class LoadedBundle {
public:
  ~LoadedBundle();
  LoadedBundle(const LoadedBundle &) = delete;
  LoadedBundle &operator=(const LoadedBundle &) = delete;

  /// Reads and validates a bundle directory; needs no GPU.
  static std::unique_ptr<LoadedBundle>
  open(const std::string &dir, bool verifyHash, std::string &error);

  const Manifest &manifest() const { return bundle.manifest; }
  const Bundle &files() const { return bundle; }

  /// Validates `args` without launching. With `queryPointers`, also asks the
  /// driver where each pointer lives (needs a GPU).
  bool validate(const std::vector<TensorArg> &args, bool queryPointers,
                LaunchPlan &plan, std::string &error);

  /// Loads every kernel into the current context (or device 0's primary
  /// context when none is current), checks the device and that each cluster
  /// shape can be scheduled.
  bool prepare(std::string &error);

  /// Validates and launches on `stream` (a CUstream; null is the legacy
  /// default stream) in the current context.
  bool launch(const std::vector<TensorArg> &args, void *stream,
              std::string &error, LaunchPlan *planOut = nullptr);

  /// Records `copies` back-to-back launches of `args` into a CUDA graph on a
  /// stream of its own, without running them, and instantiates it: `exec` (a
  /// CUgraphExec) replays them with cuGraphLaunch on any stream. The arguments
  /// should have been launched once (so that workspaces and tensor maps exist:
  /// nothing is allocated while capturing); the graph stays valid while
  /// memoryEpoch() keeps the value it had before the call and the tensors
  /// stay allocated.
  bool captureLaunch(const std::vector<TensorArg> &args, void *&exec,
                     std::string &error, int copies = 1);

  /// Number of registers / max active clusters of kernel `i` once prepared
  /// (-1 before).
  int numRegisters(size_t i) const;
  int maxActiveClusters(size_t i) const;

  /// Incremented whenever device memory that an earlier launch may reference
  /// is freed (a workspace grown for a larger M, the tensor-map cache
  /// flushed): a CUDA graph that captured a launch is valid while this keeps
  /// the value it had before the capture.
  uint64_t memoryEpoch() const { return epoch.load(std::memory_order_acquire); }

private:
  struct ContextState;
  LoadedBundle() = default;
  ContextState *getContext(std::string &error);
  bool loadKernels(ContextState &ctx, std::string &error);
  /// Launches kernel `kernel` of the manifest on the caller's `args` and
  /// the sequence's `intermediates` (the manifest's tensors past the
  /// arguments) with the mutex held (see KernelSpec::programmaticLaunch).
  bool launchKernel(ContextState &ctx, int kernel,
                    const std::array<uint32_t, 3> &grid, int64_t m,
                    const std::vector<TensorArg> &args,
                    const std::vector<TensorArg> &intermediates,
                    CUstream_st *stream, std::string &error);

  Bundle bundle;
  std::mutex mutex;
  std::atomic<uint64_t> epoch{0};
  std::vector<std::unique_ptr<ContextState>> contexts;
};

} // namespace ff::rt

#endif // FF_RUNTIME_RUNTIME_H

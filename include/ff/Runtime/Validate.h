//===- Validate.h - Launch-argument validation ------------------*- C++ -*-===//
//
// Checks launch arguments against a manifest before anything reaches the GPU:
// dtype, rank, static extents, one consistent M, contiguous row-major strides,
// 16-byte alignment, output/input overlap and (through a query callback) the
// device that owns each pointer. Also picks the kernel for M and computes its
// launch grid. Pure host code, so it is unit-tested without a GPU.
//
//===----------------------------------------------------------------------===//

#ifndef FF_RUNTIME_VALIDATE_H
#define FF_RUNTIME_VALIDATE_H

#include "ff/Runtime/LaunchPolicy.h"
#include "ff/Runtime/Manifest.h"

#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace ff::rt {

/// One launch argument as the caller sees it.
struct TensorArg {
  uint64_t data = 0;
  DType dtype = DType::BF16;
  std::vector<int64_t> shape;
  /// Strides in elements; empty means contiguous row-major.
  std::vector<int64_t> strides;
};

/// Where a pointer lives: returns false and sets `why` when it is not device
/// memory; otherwise sets `device` to the owning ordinal.
using PointerQuery =
    std::function<bool(uint64_t ptr, int &device, std::string &why)>;

struct LaunchPlan {
  int64_t m = 0;
  /// The first kernel to launch and its grid.
  int kernel = -1;
  std::array<uint32_t, 3> grid{1, 1, 1};
  /// Every kernel to launch, in order (a sequence shares one M bin), and
  /// their grids; kernels[0] == kernel.
  std::vector<int> kernels;
  std::vector<std::array<uint32_t, 3>> grids;
};

/// Launch grid for `kernel` at `m`: grid with x scaled by ceil(m / tile).
/// Fails when the result overflows or is not a whole number of clusters.
bool computeGrid(const KernelSpec &kernel, int64_t m,
                 std::array<uint32_t, 3> &grid, std::string &error);

/// A persistent kernel's grid: x cut to `maxActiveClusters` whole clusters
/// (the clusters resident at once, cuOccupancyMaxActiveClusters) when the
/// one-tile-per-CTA grid is larger but at most kMaxPersistentWaves times
/// that; other kernels' grids are left alone.
void capPersistentGrid(const KernelSpec &kernel, int maxActiveClusters,
                       std::array<uint32_t, 3> &grid);

/// Validates `args` (inputs then outputs, manifest order). When `query` is
/// set, every pointer must be device memory on `device`. On success fills
/// `plan`; on failure `error` names the argument.
bool validateArgs(const Manifest &manifest, const std::vector<TensorArg> &args,
                  const PointerQuery *query, int device, LaunchPlan &plan,
                  std::string &error);

} // namespace ff::rt

#endif // FF_RUNTIME_VALIDATE_H

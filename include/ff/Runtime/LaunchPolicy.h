//===- LaunchPolicy.h - Launch decisions the cost model prices ---*- C++
//-*-===//
//
// Part of the FlashFuser project.
//
// The runtime's launch policy as constants both the runtime and the cost
// model (lib/Analysis) read, so --dsm-search prices a kernel the way
// ff_launch will run it. Standard C++ only: the runtime builds without LLVM.
//
//===----------------------------------------------------------------------===//

#ifndef FF_RUNTIME_LAUNCHPOLICY_H
#define FF_RUNTIME_LAUNCHPOLICY_H

#include <cstdint>

namespace ff::rt {

/// Grids of more waves than this launch a persistent kernel one tile per
/// CTA: past a few waves the hardware's block scheduling and the
/// wave-synchronous L2 reuse of a one-tile-per-CTA grid win over the
/// epilogue overlap (GEMM-8192, 15.5 waves on an H100: 4 % slower
/// persistent; docs/validation.md).
constexpr uint64_t kMaxPersistentWaves = 8;

} // namespace ff::rt

#endif // FF_RUNTIME_LAUNCHPOLICY_H

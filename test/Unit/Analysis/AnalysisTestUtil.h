//===- AnalysisTestUtil.h - shared helpers of the FFAnalysis tests ---------===//
//
// Part of the FlashFuser project.
//
//===----------------------------------------------------------------------===//

#ifndef FF_TEST_UNIT_ANALYSIS_ANALYSISTESTUTIL_H
#define FF_TEST_UNIT_ANALYSIS_ANALYSISTESTUTIL_H

#include "ff/Analysis/Plan.h"
#include "ff/Analysis/Target.h"

namespace mlir::ff::test {

constexpr uint8_t bit(Dim d) { return 1u << static_cast<unsigned>(d); }
/// Spatial m and n: the lowerable family's loop schedule.
constexpr uint8_t kMN = bit(Dim::m) | bit(Dim::n);

inline GpuTarget h100() { return llvm::cantFail(lookupTarget("h100-sxm")); }

inline ChainDesc chainOf(ChainKind kind, int64_t m, int64_t n, int64_t k,
                         int64_t l) {
  ChainDesc c;
  c.kind = kind;
  c.m = m;
  c.n = n;
  c.k = k;
  c.l = l;
  return c;
}

/// The transposed product a swapped search prices for a one-GEMM (or
/// gated) chain on K-major weights: m the weight's rows, n the M rows
/// rounded up to 8.
inline ChainDesc swappedProductOf(ChainKind kind, int64_t m, int64_t n,
                                  int64_t k) {
  ChainDesc c = chainOf(kind, m, n, k, 0);
  c.kMajorWeights = true;
  c.swappedProduct = true;
  return c;
}

inline Plan makePlan(std::array<int64_t, 4> cluster,
                     std::array<int64_t, 4> block, std::array<int64_t, 4> grid,
                     uint8_t spatial,
                     std::array<Dim, 4> order = {Dim::m, Dim::n, Dim::k,
                                                 Dim::l},
                     int64_t stages = 2) {
  Plan p;
  p.cluster = cluster;
  p.block = block;
  p.grid = grid;
  p.spatialMask = spatial;
  p.order = order;
  p.stages = stages;
  return p;
}

/// A streamed-n plan (the lowering's per-CTA fusion): m the only spatial
/// dim, order [m, n, k, l], `gridM` m tiles, the n loop split over a
/// cluster of `clsN` CTAs.
inline Plan streamedPlan(std::array<int64_t, 4> block, int64_t gridM,
                         int64_t stages, int64_t clsN = 1) {
  return makePlan({1, clsN, 1, 1}, block, {gridM, 1, 1, 1}, bit(Dim::m),
                  {Dim::m, Dim::n, Dim::k, Dim::l}, stages);
}

} // namespace mlir::ff::test

#endif // FF_TEST_UNIT_ANALYSIS_ANALYSISTESTUTIL_H

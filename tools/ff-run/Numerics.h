//===- Numerics.h - ff-run's inputs, output decoding and checks -*- C++ -*-===//
//
// The host-side numerics of ff-run, free of CUDA so that unit tests cover
// them: bf16/f16 rounding, the input distributions of --inputs, decoding an
// output (the NaN poison told apart from a kernel's own NaN/Inf) and the
// comparison with the fp32 reference.
//
//===----------------------------------------------------------------------===//

#ifndef FF_TOOLS_FFRUN_NUMERICS_H
#define FF_TOOLS_FFRUN_NUMERICS_H

#include "ff/Runtime/Manifest.h"

#include <cstddef>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace ff::run {

/// Rounds `v` to `t` (round to nearest even), appends the stored bytes
/// (little endian) to `bytes` and returns the stored value as a float.
float roundTo(rt::DType t, float v, std::vector<uint8_t> &bytes);
/// The same without the bytes; NaN stays NaN.
float roundValue(rt::DType t, float v);
float fromBf16(uint16_t h);
float fromF16(uint16_t h);

/// Input distributions (--inputs).
enum class InputMode { Random, Large, Denormal };
const char *inputModeName(InputMode mode);
/// False for an unknown name.
bool parseInputMode(const std::string &name, InputMode &mode);

/// Factor of --inputs large over the random values. bf16 has fp32's
/// exponent range, so the scaled values round with the same relative error,
/// and the GEMM outputs (about 1e8 after the first GEMM, 1e12 after the
/// second) stay far from bf16/fp32 overflow.
constexpr float kLargeScale = 1e4f;
/// Share of the elements --inputs denormal replaces by tiny values.
constexpr unsigned kDenormalOneIn = 4;

/// One input tensor's values: as stored (`values`, rounded to the dtype) and
/// as bytes for the device.
struct InputValues {
  std::vector<float> values;
  std::vector<uint8_t> bytes;
  size_t subnormals = 0; ///< nonzero stored values below the dtype's normals
};

/// Draws `count` values: U(-1, 1) with |v| >= 1/64 (zero never drawn) times
/// `scale`; for Large also times kLargeScale; for Denormal one element in
/// kDenormalOneIn becomes a value of random sign, log-uniform in
/// [1e-40, 1e-38] (bf16/f32: below FLT_MIN, subnormal) or [6e-8, 6e-5]
/// (f16's subnormal range).
InputValues drawInput(InputMode mode, rt::DType t, int64_t count, float scale,
                      std::mt19937_64 &rng);

/// What one output holds.
struct OutputStats {
  size_t unwritten = 0; ///< elements still holding the all-ones NaN poison
  size_t nonfinite = 0; ///< NaN or Inf elements, the poison included
};

/// Decodes `count` elements of `t` from `raw` into `values`.
OutputStats decodeOutput(const uint8_t *raw, size_t count, rt::DType t,
                         std::vector<float> &values);

/// The output against the fp32 reference. The reference is first rounded to
/// the output's dtype: where that is not finite (f16 overflow) the output
/// must hold the same value and the element stays out of the norms.
struct Comparison {
  double relL2 = 0;  ///< |out - ref| / |ref| over finite reference elements
  double relMax = 0; ///< max |out - ref| / max |ref|
  size_t worst = 0;  ///< index of max |out - ref|
  size_t badNonfinite = 0;      ///< NaN/Inf outputs where ref is finite
  size_t nonfiniteRef = 0;      ///< NaN/Inf elements of the rounded ref
  size_t nonfiniteMismatch = 0; ///< of those, outputs that differ
  bool pass = false;
};
Comparison compareWithReference(const std::vector<float> &out, rt::DType t,
                                const std::vector<float> &ref, double tolL2,
                                double tolMax);

/// Number of `elemSize`-byte elements that differ bitwise between `a` and
/// `b` (same size); `first` gets the index of the first (SIZE_MAX if none).
size_t countDifferences(const std::vector<uint8_t> &a,
                        const std::vector<uint8_t> &b, size_t elemSize,
                        size_t &first);

} // namespace ff::run

#endif // FF_TOOLS_FFRUN_NUMERICS_H

//===- Numerics.cpp - ff-run's inputs, output decoding and checks ---------===//

#include "Numerics.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstring>

using namespace ff;
using namespace ff::rt;

namespace {
uint16_t toBf16(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  if ((u & 0x7fffffff) > 0x7f800000)
    return 0x7fc0;
  u += 0x7fff + ((u >> 16) & 1); // round to nearest even
  return uint16_t(u >> 16);
}

uint16_t toF16(float f) {
  // Round-to-nearest-even float -> IEEE half; NaN becomes the quiet NaN,
  // overflow Inf.
  uint32_t u;
  std::memcpy(&u, &f, 4);
  uint32_t sign = (u >> 16) & 0x8000;
  if ((u & 0x7fffffff) > 0x7f800000)
    return uint16_t(sign | 0x7e00);
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
} // namespace

float ff::run::fromBf16(uint16_t h) {
  uint32_t u = uint32_t(h) << 16;
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

float ff::run::fromF16(uint16_t h) {
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

float ff::run::roundTo(DType t, float v, std::vector<uint8_t> &bytes) {
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

float ff::run::roundValue(DType t, float v) {
  if (t == DType::F32)
    return v;
  return t == DType::BF16 ? fromBf16(toBf16(v)) : fromF16(toF16(v));
}

const char *ff::run::inputModeName(InputMode mode) {
  switch (mode) {
  case InputMode::Random:
    return "random";
  case InputMode::Large:
    return "large";
  case InputMode::Denormal:
    return "denormal";
  }
  return "random";
}

bool ff::run::parseInputMode(const std::string &name, InputMode &mode) {
  for (InputMode m :
       {InputMode::Random, InputMode::Large, InputMode::Denormal})
    if (name == inputModeName(m)) {
      mode = m;
      return true;
    }
  return false;
}

run::InputValues ff::run::drawInput(InputMode mode, DType t, int64_t count,
                                    float scale, std::mt19937_64 &rng) {
  std::uniform_real_distribution<float> uni(-1.f, 1.f);
  std::uniform_real_distribution<double> uni01(0.0, 1.0);
  if (mode == InputMode::Large)
    scale *= kLargeScale;
  const bool f16 = t == DType::F16;
  const double tinyLo = f16 ? 6e-8 : 1e-40, tinyHi = f16 ? 6e-5 : 1e-38;
  const float normalMin = f16 ? 6.103515625e-05f : FLT_MIN;
  InputValues in;
  in.values.reserve(size_t(count));
  in.bytes.reserve(size_t(count) * (t == DType::F32 ? 4 : 2));
  for (int64_t e = 0; e < count; ++e) {
    float v = uni(rng);
    if (std::fabs(v) < 1.f / 64)
      v = v < 0 ? -1.f / 64 : 1.f / 64;
    v *= scale;
    if (mode == InputMode::Denormal && rng() % kDenormalOneIn == 0) {
      double mag = tinyLo * std::pow(tinyHi / tinyLo, uni01(rng));
      v = float(v < 0 ? -mag : mag);
    }
    float stored = roundTo(t, v, in.bytes);
    if (stored != 0 && std::fabs(stored) < normalMin)
      ++in.subnormals;
    in.values.push_back(stored);
  }
  return in;
}

run::OutputStats ff::run::decodeOutput(const uint8_t *raw, size_t count,
                                       DType t, std::vector<float> &values) {
  OutputStats s;
  values.resize(count);
  for (size_t i = 0; i < count; ++i) {
    bool poisoned;
    if (t == DType::F32) {
      uint32_t u;
      std::memcpy(&u, &raw[4 * i], 4);
      std::memcpy(&values[i], &u, 4);
      poisoned = u == 0xffffffffu;
    } else {
      uint16_t h = uint16_t(raw[2 * i] | raw[2 * i + 1] << 8);
      values[i] = t == DType::BF16 ? fromBf16(h) : fromF16(h);
      poisoned = h == 0xffff;
    }
    s.unwritten += poisoned;
    s.nonfinite += !std::isfinite(values[i]);
  }
  return s;
}

run::Comparison ff::run::compareWithReference(const std::vector<float> &out,
                                              DType t,
                                              const std::vector<float> &ref,
                                              double tolL2, double tolMax) {
  Comparison c;
  double num = 0, den = 0, maxAbs = 0, maxRef = 0;
  for (size_t i = 0; i < out.size() && i < ref.size(); ++i) {
    float rounded = roundValue(t, ref[i]);
    if (!std::isfinite(rounded)) {
      ++c.nonfiniteRef;
      bool same = out[i] == rounded ||
                  (std::isnan(out[i]) && std::isnan(rounded));
      c.nonfiniteMismatch += !same;
      continue;
    }
    double diff = INFINITY;
    if (std::isfinite(out[i]))
      diff = double(out[i]) - double(ref[i]);
    else
      ++c.badNonfinite;
    num += diff * diff;
    den += double(ref[i]) * double(ref[i]);
    if (std::fabs(diff) > maxAbs) {
      maxAbs = std::fabs(diff);
      c.worst = i;
    }
    maxRef = std::max(maxRef, std::fabs(double(ref[i])));
  }
  c.relL2 = den > 0 ? std::sqrt(num / den) : INFINITY;
  c.relMax = maxRef > 0 ? maxAbs / maxRef : INFINITY;
  c.pass = out.size() == ref.size() && c.relL2 <= tolL2 &&
           c.relMax <= tolMax && c.badNonfinite == 0 &&
           c.nonfiniteMismatch == 0;
  return c;
}

size_t ff::run::countDifferences(const std::vector<uint8_t> &a,
                                 const std::vector<uint8_t> &b,
                                 size_t elemSize, size_t &first) {
  size_t n = 0;
  first = SIZE_MAX;
  for (size_t e = 0; (e + 1) * elemSize <= a.size() && (e + 1) * elemSize <=
                     b.size(); ++e)
    if (std::memcmp(&a[e * elemSize], &b[e * elemSize], elemSize)) {
      ++n;
      first = std::min(first, e);
    }
  return n;
}

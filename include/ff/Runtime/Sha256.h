//===- Sha256.h - SHA-256 (FIPS 180-4) --------------------------*- C++ -*-===//
//
// A small streaming SHA-256, used for bundle integrity (docs/bundle.md).
//
//===----------------------------------------------------------------------===//

#ifndef FF_RUNTIME_SHA256_H
#define FF_RUNTIME_SHA256_H

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace ff::rt {

class Sha256 {
public:
  Sha256();
  void update(const void *data, size_t size);
  void update(std::string_view s) { update(s.data(), s.size()); }
  /// Finishes the digest; the object must not be updated afterwards.
  std::array<uint8_t, 32> finish();
  /// Finishes and returns the digest as 64 lowercase hex characters.
  std::string finishHex();

  static std::string hex(std::string_view data) {
    Sha256 h;
    h.update(data);
    return h.finishHex();
  }

private:
  void compress(const uint8_t *block);
  uint32_t state[8];
  uint8_t buffer[64];
  size_t buffered = 0;
  uint64_t totalBytes = 0;
};

} // namespace ff::rt

#endif // FF_RUNTIME_SHA256_H

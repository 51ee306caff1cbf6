//===- Sha256Test.cpp - SHA-256 against FIPS 180-4 vectors ----------------===//

#include "ff/Runtime/Sha256.h"

#include "gtest/gtest.h"

using namespace ff::rt;

namespace {

TEST(Sha256Test, KnownVectors) {
  EXPECT_EQ(Sha256::hex(""),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(Sha256::hex("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(
      Sha256::hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
      "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  EXPECT_EQ(Sha256::hex("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijkl"
                        "mnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopq"
                        "rstu"),
            "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1");
}

TEST(Sha256Test, MillionAs) {
  Sha256 h;
  std::string chunk(1000, 'a');
  for (int i = 0; i < 1000; ++i)
    h.update(chunk);
  EXPECT_EQ(h.finishHex(),
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST(Sha256Test, StreamingMatchesOneShot) {
  std::string data;
  for (int i = 0; i < 1000; ++i)
    data += char(i * 7 + 3);
  std::string whole = Sha256::hex(data);
  // Split at every offset around the 64-byte block and 56-byte pad bounds.
  for (size_t split : {0u, 1u, 55u, 56u, 63u, 64u, 65u, 127u, 128u, 999u}) {
    Sha256 h;
    h.update(data.substr(0, split));
    h.update(data.substr(split));
    EXPECT_EQ(h.finishHex(), whole) << "split at " << split;
  }
}

} // namespace

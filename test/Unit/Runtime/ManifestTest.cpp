//===- ManifestTest.cpp - Bundle manifest parsing and hashing -------------===//

#include "TestManifest.h"

#include "ff/Runtime/Manifest.h"
#include "ff/Runtime/Sha256.h"

#include "gtest/gtest.h"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <unistd.h>

using namespace ff::rt;
using ff::rt::test::validManifest;

namespace {

/// Replaces the first occurrence of `from` (which must exist).
std::string edit(const std::string &text, const std::string &from,
                 const std::string &to) {
  size_t pos = text.find(from);
  EXPECT_NE(pos, std::string::npos) << from;
  if (pos == std::string::npos)
    return text;
  return text.substr(0, pos) + to + text.substr(pos + from.size());
}

TEST(ManifestTest, ParsesEveryField) {
  Manifest m;
  std::string error;
  ASSERT_TRUE(parseManifest(validManifest(), m, error)) << error;
  EXPECT_EQ(m.compiler, "FlashFuser 0.1.0");
  EXPECT_EQ(m.targetName, "h100-sxm");
  EXPECT_EQ(m.chip, "sm_90a");
  EXPECT_EQ(m.chain.kind, ChainKind::Ffn);
  EXPECT_EQ(m.chain.activation, Activation::GeluTanh);
  EXPECT_EQ(m.chain.m, -1);
  EXPECT_EQ(m.chain.l, 512);
  ASSERT_EQ(m.numTensors(), 4u);
  EXPECT_EQ(m.tensor(3).name, "out");
  EXPECT_TRUE(m.isOutput(3));
  EXPECT_EQ(m.tensor(1).layout, "kn");
  ASSERT_EQ(m.kernels.size(), 2u);
  const KernelSpec &k = m.kernels[0];
  EXPECT_EQ(k.cluster[0], 4u);
  EXPECT_EQ(k.gridMTile, 128);
  EXPECT_EQ(k.dynamicSmem, 200704u);
  EXPECT_FALSE(k.persistent); // absent: one tile per CTA
  ASSERT_EQ(k.params.size(), 7u);
  EXPECT_EQ(k.params[0].kind, ParamKind::TensorMap);
  EXPECT_EQ(k.params[0].tensor, 0);
  EXPECT_EQ(k.params[0].box, (std::vector<uint32_t>{64, 128}));
  EXPECT_EQ(k.params[0].elementStrides, (std::vector<uint32_t>{1, 1}));
  EXPECT_EQ(k.params[0].swizzle, 3);
  EXPECT_EQ(k.params[0].l2Promotion, 3);
  EXPECT_EQ(k.params[1].kind, ParamKind::TensorMapPtr);
  EXPECT_EQ(k.params[1].l2Promotion, 0); // default "none"
  EXPECT_EQ(k.params[3].kind, ParamKind::Memref);
  EXPECT_TRUE(k.params[4].scalarIsM);
  EXPECT_EQ(k.params[5].kind, ParamKind::I32);
  EXPECT_EQ(k.params[5].scalarValue, 7);
  EXPECT_EQ(k.params[6].bytesPerM, 16384);
  EXPECT_TRUE(k.params[6].zero);
  EXPECT_EQ(k.params[6].zeroBytesPerM, 0); // absent: clear all of it
  EXPECT_EQ(m.kernels[1].mMultiple, 64);
  EXPECT_TRUE(m.kernels[1].ptx.empty());
  EXPECT_EQ(m.plan.get("cost_ns")->integer, 17500);
}

TEST(ManifestTest, SelectsKernelByMBin) {
  Manifest m;
  std::string error;
  ASSERT_TRUE(parseManifest(validManifest(), m, error)) << error;
  EXPECT_EQ(m.selectKernel(1), 0);
  EXPECT_EQ(m.selectKernel(256), 0);
  EXPECT_EQ(m.selectKernel(257), 1);
  EXPECT_EQ(m.selectKernel(1048576), 1);
  EXPECT_EQ(m.selectKernel(1048577), -1);
  EXPECT_EQ(m.selectKernel(0), -1);
}

struct Mutation {
  const char *from, *to, *message;
};

// A sequence: kernels with one M bin run in manifest order, passing the
// intermediate "c" (indexed after the arguments, not an argument itself).
TEST(ManifestTest, ParsesSequencesWithIntermediates) {
  Manifest m;
  std::string error;
  ASSERT_TRUE(parseManifest(ff::rt::test::sequenceManifest(), m, error))
      << error;
  EXPECT_EQ(m.numTensors(), 4u);
  ASSERT_EQ(m.numAllTensors(), 5u);
  EXPECT_EQ(m.tensor(4).name, "c");
  EXPECT_TRUE(m.isIntermediate(4));
  EXPECT_FALSE(m.isOutput(4));
  EXPECT_TRUE(m.isOutput(3));
  EXPECT_EQ(m.kernels[0].params[2].tensor, 4);
  EXPECT_EQ(m.kernels[1].params[0].tensor, 4);
  // The second waits for the first in-kernel (PDL); absent: false.
  EXPECT_FALSE(m.kernels[0].programmaticLaunch);
  EXPECT_TRUE(m.kernels[1].programmaticLaunch);
  EXPECT_EQ(m.selectKernels(128), (std::vector<int>{0, 1}));
  EXPECT_EQ(m.selectKernel(128), 0);
  EXPECT_TRUE(m.selectKernels(129).empty());
}

TEST(ManifestTest, RejectsBrokenSequences) {
  const Mutation cases[] = {
      // A bin that overlaps another without equalling it is ambiguous.
      {"\"cubin\": \"k1.cubin\", \"m_lo\": 1",
       "\"cubin\": \"k1.cubin\", \"m_lo\": 2",
       "kernels[1]: M bin [2, 128] overlaps kernels[0] without equalling it"},
      // The second kernel would read "c" before anything wrote it.
      {"{\"kind\": \"ptr\", \"tensor\": \"c\"}",
       "{\"kind\": \"ptr\", \"tensor\": \"out\"}",
       "kernels[1]: reads intermediate \"c\" that no earlier kernel of its "
       "sequence writes"},
      {"\"name\": \"c\", \"shape\": [-1, 2048]",
       "\"name\": \"x\", \"shape\": [-1, 2048]", "duplicate tensor name \"x\""},
      {"\"shape\": [-1, 2048], \"dtype\": \"bf16\"}]",
       "\"shape\": [-1, 2047], \"dtype\": \"bf16\"}]",
       "intermediates[0].shape: an intermediate needs rank >= 2 and rows of a "
       "multiple of 16 bytes"},
      {"\"intermediates\": [", "\"intermediates\": {\"a\": 1}, \"unused\": [",
       "intermediates: expected an array"},
      {"\"programmatic_launch\": true", "\"programmatic_launch\": \"yes\"",
       "kernels[1].programmatic_launch"},
  };
  for (const Mutation &c : cases) {
    std::string text = edit(ff::rt::test::sequenceManifest(), c.from, c.to);
    Manifest m;
    std::string error;
    EXPECT_FALSE(parseManifest(text, m, error)) << c.from;
    EXPECT_NE(error.find(c.message), std::string::npos)
        << "got: " << error << "\nwant: " << c.message;
  }
}

TEST(ManifestTest, RejectsInvalidManifestsNamingTheField) {
  const Mutation cases[] = {
      {"\"flashfuser-bundle\"", "\"other\"", "format: expected"},
      {"\"version\": 1", "\"version\": 4", "unsupported bundle version 4"},
      // box_fits_m came with version 2, for tiled maps only.
      {"\"tensor\": \"x\", \"box\": [64, 128],",
       "\"tensor\": \"x\", \"box\": [64, 128], \"box_fits_m\": true,",
       "kernels[0].params[0].box_fits_m: needs bundle version 2"},
      {"\"tensor\": \"x\", \"box\": [64, 128],",
       "\"tensor\": \"x\", \"box\": [64, 128], \"box_fits_m\": 1,",
       "kernels[0].params[0].box_fits_m"},
      // box_tail_m came with version 3.
      {"\"tensor\": \"x\", \"box\": [64, 128],",
       "\"tensor\": \"x\", \"box\": [64, 128], \"box_tail_m\": true,",
       "kernels[0].params[0].box_tail_m: needs bundle version 3"},
      {"\"source_hash\": \"1111", "\"source_hash\": \"111X",
       "source_hash: expected 64 lowercase hex digits"},
      {"\"chip\": \"sm_90a\"", "\"chip\": \"hopper\"",
       "target.chip: expected sm_XY or sm_XYa, got \"hopper\""},
      {"\"chip\": \"sm_90a\"", "\"chip\": \"sm_9000000000000\"",
       "target.chip: expected sm_XY or sm_XYa"},
      {"\"kind\": \"ffn\"", "\"kind\": \"conv\"",
       "chain.kind: unknown value \"conv\""},
      {"\"activation\": \"gelu_tanh\"", "\"activation\": \"swish\"",
       "chain.activation: unknown value"},
      {"\"dtype\": \"bf16\",\n            \"m\"",
       "\"dtype\": \"fp8\",\n            \"m\"", "chain.dtype: unknown dtype"},
      {"\"m\": -1", "\"m\": 0", "chain.m: M must be positive"},
      {"\"l\": 512", "\"l\": 0", "chain.l: a ffn chain needs L >= 1"},
      {"\"shape\": [512, 2048]", "\"shape\": [512, -1]",
       "chain.inputs[1].shape[1]: only the outermost dimension may be M"},
      {"\"name\": \"w2\"", "\"name\": \"w1\"", "duplicate tensor name \"w1\""},
      {"{\"name\": \"w2\", \"shape\": [2048, 512], \"dtype\": \"bf16\"}",
       "{\"name\": \"w2\", \"shape\": [2048, 512], \"dtype\": \"bf16\", "
       "\"layout\": \"t\"}",
       "chain.inputs[2].layout: unknown layout"},
      {"\"m_hi\": 256", "\"m_hi\": 300",
       "kernels[1]: M bin [257, 1048576] overlaps kernels[0]"},
      {"\"block\": [384, 1, 1]", "\"block\": [2048, 1, 1]",
       "kernels[0].block[0]: value 2048 out of range"},
      {"\"cluster\": [4, 1, 1]", "\"cluster\": [4, 4, 2]",
       "kernels[0].cluster: 32 CTAs per cluster exceeds 16"},
      {"\"grid\": [2, 4, 1]", "\"grid\": [2, 3, 1]",
       "kernels[1].grid: grid[1] = 3 is not a multiple of cluster[1] = 2"},
      {"\"dynamic_smem\": 200704", "\"dynamic_smem\": 300000",
       "kernels[0].dynamic_smem: value 300000 out of range"},
      {"\"cubin\": \"ff_chain0.cubin\"", "\"cubin\": \"../x.cubin\"",
       "kernels[0].cubin: must be a file name inside the bundle"},
      {"\"tensor\": \"x\", \"box\"", "\"tensor\": \"y\", \"box\"",
       "kernels[0].params[0].tensor: no chain input, output or intermediate "
       "named \"y\""},
      {"\"box\": [64, 128]", "\"box\": [64]",
       "kernels[0].params[0].box: expected 2 elements, got 1"},
      {"\"box\": [64, 128]", "\"box\": [128, 128]",
       "exceeds the swizzle span of 128"},
      {"\"box\": [64, 128]", "\"box\": [4, 128]",
       "inner box extent 8 bytes is not a multiple of 16"},
      {"\"swizzle\": \"128B\", \"l2", "\"swizzle\": \"256B\", \"l2",
       "kernels[0].params[0].swizzle: unknown value \"256B\""},
      {"{\"kind\": \"i64\", \"value\": \"M\"}",
       "{\"kind\": \"i64\", \"value\": \"N\"}",
       "kernels[0].params[4].value: expected \"M\" or an integer"},
      {"{\"kind\": \"i32\", \"value\": 7}",
       "{\"kind\": \"i32\", \"value\": 7000000000}", "does not fit in i32"},
      {"{\"kind\": \"ptr\", \"tensor\": \"w2\"}", "{\"kind\": \"float\"}",
       "kernels[0].params[2].kind: unknown value \"float\""},
      {"\"bytes_per_m\": 16384, \"zero\": true}",
       "\"bytes_per_m\": 16384, \"zero\": true, \"zero_bytes_per_m\": 16385}",
       "params[6].zero_bytes_per_m: value 16385 out of range [0, 16384]"},
      {"\"bytes_per_m\": 16384, \"zero\": true}",
       "\"bytes_per_m\": 16384, \"zero\": false, \"zero_bytes_per_m\": 32}",
       "params[6].zero_bytes_per_m: needs \"zero\": true"},
      {"\"bytes_per_m\": 16384, \"zero\": true}",
       "\"bytes_per_m\": 16384, \"zero\": false, \"self_cleaning\": true}",
       "params[6].self_cleaning: needs \"zero\": true"},
      {"\"bytes_per_m\": 16384, \"zero\": true}",
       "\"bytes_per_m\": 16384, \"zero\": true, \"zero_bytes_per_m\": 32, "
       "\"self_cleaning\": true}",
       "params[6].self_cleaning: and \"zero_bytes_per_m\" are exclusive"},
      {"\"bytes_per_m\": 16384, \"zero\": true}",
       "\"bytes_per_m\": 16384, \"zero\": true, \"self_cleaning\": 1}",
       "params[6].self_cleaning"},
      {"\"dynamic_smem\": 200704",
       "\"dynamic_smem\": 200704, "
       "\"persistent\": 1",
       "kernels[0].persistent"},
      {"\"hash\": \"0000", "\"hash\": \"000", "hash: expected 64"},
      {"\"kernels\": [", "\"kernelz\": [", "missing field \"kernels\""},
  };
  for (const Mutation &c : cases) {
    Manifest m;
    std::string error;
    std::string text = edit(validManifest(), c.from, c.to);
    EXPECT_FALSE(parseManifest(text, m, error)) << c.to;
    EXPECT_NE(error.find(c.message), std::string::npos)
        << "expected \"" << c.message << "\", got \"" << error << "\"";
  }
}

TEST(ManifestTest, FitsVersionTwoBoxesToM) {
  std::string text =
      edit(edit(validManifest(), "\"version\": 1", "\"version\": 2"),
           "\"tensor\": \"x\", \"box\": [64, 128],",
           "\"tensor\": \"x\", \"box\": [64, 128], \"box_fits_m\": true,");
  Manifest m;
  std::string error;
  ASSERT_TRUE(parseManifest(text, m, error)) << error;
  EXPECT_EQ(m.version, 2);
  const ParamSpec &x = m.kernels[0].params[0];
  ASSERT_TRUE(x.boxFitsM);
  // The outer (row) extent is clamped to M, never raised past the box.
  EXPECT_EQ(tensorMapBox(x, 1), (std::vector<uint32_t>{64, 1}));
  EXPECT_EQ(tensorMapBox(x, 77), (std::vector<uint32_t>{64, 77}));
  EXPECT_EQ(tensorMapBox(x, 128), (std::vector<uint32_t>{64, 128}));
  EXPECT_EQ(tensorMapBox(x, 4096), (std::vector<uint32_t>{64, 128}));
  // Other maps keep their box whatever M.
  const ParamSpec &w1 = m.kernels[0].params[1];
  EXPECT_FALSE(w1.boxFitsM);
  EXPECT_EQ(tensorMapBox(w1, 1), w1.box);
}

// A last-tile map of a dynamic M (version 3): the box's rows are those of
// the launch's last tile of 128 rows.
TEST(ManifestTest, CutsVersionThreeTailBoxesToTheLastTile) {
  std::string text =
      edit(edit(validManifest(), "\"version\": 1", "\"version\": 3"),
           "\"tensor\": \"x\", \"box\": [64, 128],",
           "\"tensor\": \"x\", \"box\": [64, 128], \"box_tail_m\": true,");
  Manifest m;
  std::string error;
  ASSERT_TRUE(parseManifest(text, m, error)) << error;
  const ParamSpec &x = m.kernels[0].params[0];
  ASSERT_TRUE(x.boxTailM);
  EXPECT_EQ(tensorMapBox(x, 1), (std::vector<uint32_t>{64, 1}));
  EXPECT_EQ(tensorMapBox(x, 128), (std::vector<uint32_t>{64, 128}));
  EXPECT_EQ(tensorMapBox(x, 129), (std::vector<uint32_t>{64, 1}));
  EXPECT_EQ(tensorMapBox(x, 300), (std::vector<uint32_t>{64, 44}));
  EXPECT_EQ(tensorMapBox(x, 4096), (std::vector<uint32_t>{64, 128}));
  // Not together with box_fits_m.
  std::string both = edit(text, "\"box_tail_m\": true,",
                          "\"box_tail_m\": true, \"box_fits_m\": true,");
  EXPECT_FALSE(parseManifest(both, m, error));
  EXPECT_NE(error.find("cannot be combined with box_fits_m"), std::string::npos)
      << error;
}

TEST(ManifestTest, ParsesIm2colTensorMaps) {
  Manifest m;
  std::string error;
  ASSERT_TRUE(parseManifest(ff::rt::test::im2colManifest(), m, error)) << error;
  const ParamSpec &x = m.kernels[0].params[0];
  EXPECT_TRUE(x.im2col);
  // {channelsPerPixel, pixelsPerColumn}; corners W first.
  EXPECT_EQ(x.box, (std::vector<uint32_t>{64, 128}));
  EXPECT_EQ(x.im2colLower, (std::vector<int>{-1, -1}));
  EXPECT_EQ(x.im2colUpper, (std::vector<int>{-1, -1}));
  // One element stride per tensor dimension, not per box entry.
  EXPECT_EQ(x.elementStrides, (std::vector<uint32_t>{1, 1, 1, 1}));
  EXPECT_EQ(x.swizzle, 3);
  EXPECT_FALSE(m.kernels[0].params[1].im2col);
  EXPECT_TRUE(m.kernels[0].params[1].im2colLower.empty());

  // tensormap_ptr takes it too, over a view; rank 3 allows 16-bit corners.
  std::string text = edit(
      ff::rt::test::im2colManifest(), "\"tensor\": \"w1\", \"box\": [64, 64],",
      "\"tensor\": \"w1\", \"view\": [32, 16, 2048], "
      "\"box\": [64, 1024], \"element_strides\": [1, 2, 1], "
      "\"im2col\": {\"lower\": [-300], \"upper\": [32767]},");
  ASSERT_TRUE(parseManifest(text, m, error)) << error;
  const ParamSpec &w1 = m.kernels[0].params[1];
  EXPECT_EQ(w1.kind, ParamKind::TensorMapPtr);
  EXPECT_TRUE(w1.im2col);
  EXPECT_EQ(w1.box, (std::vector<uint32_t>{64, 1024}));
  EXPECT_EQ(w1.im2colLower, (std::vector<int>{-300}));
  EXPECT_EQ(w1.im2colUpper, (std::vector<int>{32767}));
  EXPECT_EQ(w1.elementStrides, (std::vector<uint32_t>{1, 2, 1}));

  // An im2col box is not clamped to M.
  text = edit(
      edit(ff::rt::test::im2colManifest(), "\"version\": 1", "\"version\": 2"),
      "\"tensor\": \"x\", \"box\": [64, 128],",
      "\"tensor\": \"x\", \"box\": [64, 128], \"box_fits_m\": true,");
  EXPECT_FALSE(parseManifest(text, m, error));
  EXPECT_NE(error.find("params[0].box_fits_m: applies to tiled maps"),
            std::string::npos)
      << error;
}

TEST(ManifestTest, RejectsMalformedIm2colMaps) {
  const char *corners =
      "\"im2col\": {\"lower\": [-1, -1], \"upper\": [-1, -1]}";
  const Mutation cases[] = {
      {"\"lower\": [-1, -1]", "\"lower\": [-1]",
       "kernels[0].params[0].im2col.lower: expected 2 elements, got 1"},
      {"\"upper\": [-1, -1]", "\"upper\": [-1, -1, -1]",
       "kernels[0].params[0].im2col.upper: expected 2 elements, got 3"},
      // Rank 4: 8-bit corner offsets.
      {"\"upper\": [-1, -1]", "\"upper\": [-1, 128]",
       "kernels[0].params[0].im2col.upper[1]: value 128 out of range [-128, "
       "127]"},
      {"\"lower\": [-1, -1]", "\"lower\": [-129, -1]",
       "kernels[0].params[0].im2col.lower[0]: value -129 out of range [-128, "
       "127]"},
      {"\"lower\": [-1, -1]", "\"lower\": [-1, 0.5]",
       "kernels[0].params[0].im2col.lower[1]: expected an integer"},
      {", \"upper\": [-1, -1]}", "}",
       "kernels[0].params[0].im2col: missing field \"upper\""},
      {"\"lower\": [-1, -1]", "\"low\": [-1, -1]",
       "kernels[0].params[0].im2col: missing field \"lower\""},
      {"\"lower\": [-1, -1]", "\"lower\": {\"w\": -1}",
       "kernels[0].params[0].im2col.lower: expected array, got object"},
      {corners, "\"im2col\": [-1, -1]",
       "kernels[0].params[0].im2col: expected object, got array"},
      {corners, "\"im2col\": true",
       "kernels[0].params[0].im2col: expected object, got bool"},
      // The box is {channels, pixels}, whatever the rank.
      {"\"box\": [64, 128]", "\"box\": [64, 128, 1, 1]",
       "kernels[0].params[0].box: expected 2 elements, got 4"},
      {"\"box\": [64, 128]", "\"box\": [512, 128]",
       "kernels[0].params[0].box[0]: value 512 out of range [1, 256]"},
      {"\"box\": [64, 128]", "\"box\": [64, 2048]",
       "kernels[0].params[0].box[1]: value 2048 out of range [1, 1024]"},
      // The inner box rules apply to the channels.
      {"\"box\": [64, 128]", "\"box\": [128, 1024]",
       "kernels[0].params[0].box: inner box extent 256 bytes exceeds the "
       "swizzle span of 128"},
      {"\"box\": [64, 128]", "\"box\": [4, 128]",
       "kernels[0].params[0].box: inner box extent 8 bytes is not a multiple "
       "of 16"},
      {"\"box\": [64, 128]", "\"box\": [64, 128], \"element_strides\": [1, 1]",
       "kernels[0].params[0].element_strides: expected 4 elements, got 2"},
      // Rank 2 has no spatial dimension.
      {"\"shape\": [-1, 16, 16, 64]", "\"shape\": [-1, 1024]",
       "kernels[0].params[0].im2col: needs a tensor of rank 3 to 5 (channels "
       "innermost), \"x\" has rank 2"},
      // Rank 5: 5-bit corner offsets over D, H, W.
      {"\"shape\": [-1, 16, 16, 64]", "\"shape\": [-1, 4, 4, 16, 64]",
       "kernels[0].params[0].im2col.lower: expected 3 elements, got 2"},
      // Rank 3 corners are 16-bit.
      {"\"shape\": [-1, 16, 16, 64]", "\"shape\": [-1, 256, 64]",
       "kernels[0].params[0].im2col.lower: expected 1 elements, got 2"},
  };
  for (const Mutation &c : cases) {
    Manifest m;
    std::string error;
    std::string text = edit(ff::rt::test::im2colManifest(), c.from, c.to);
    EXPECT_FALSE(parseManifest(text, m, error)) << c.to;
    EXPECT_NE(error.find(c.message), std::string::npos)
        << "expected \"" << c.message << "\", got \"" << error << "\"";
  }
  // Rank 5's range, with three corners.
  Manifest m;
  std::string error;
  std::string rank5 =
      edit(edit(ff::rt::test::im2colManifest(), "\"shape\": [-1, 16, 16, 64]",
                "\"shape\": [-1, 4, 4, 16, 64]"),
           corners,
           "\"im2col\": {\"lower\": [-1, -1, -16], \"upper\": [15, -1, -1]}");
  ASSERT_TRUE(parseManifest(rank5, m, error)) << error;
  EXPECT_EQ(m.kernels[0].params[0].im2colLower,
            (std::vector<int>{-1, -1, -16}));
  EXPECT_FALSE(
      parseManifest(edit(rank5, "[15, -1, -1]", "[16, -1, -1]"), m, error));
  EXPECT_EQ(error, "kernels[0].params[0].im2col.upper[0]: value 16 out of "
                   "range [-16, 15]");
}

TEST(ManifestTest, ParsesPersistentKernels) {
  Manifest m;
  std::string error;
  std::string text = edit(validManifest(), "\"dynamic_smem\": 200704",
                          "\"dynamic_smem\": 200704, \"persistent\": true");
  ASSERT_TRUE(parseManifest(text, m, error)) << error;
  EXPECT_TRUE(m.kernels[0].persistent);
  EXPECT_FALSE(m.kernels[1].persistent);
}

TEST(ManifestTest, RejectsWrongInputCountForKind) {
  Manifest m;
  std::string error;
  std::string text =
      edit(validManifest(), "\"kind\": \"ffn\"", "\"kind\": \"gated_ffn\"");
  EXPECT_FALSE(parseManifest(text, m, error));
  EXPECT_NE(error.find("a gated_ffn chain takes 4 inputs, got 3"),
            std::string::npos)
      << error;
}

// A gated GEMM (x, wg, wu: the first kernel of a gated FFN's sequence,
// bundled alone) takes three inputs, like an FFN.
TEST(ManifestTest, ParsesGatedGemm) {
  Manifest m;
  std::string error;
  std::string text =
      edit(validManifest(), "\"kind\": \"ffn\"", "\"kind\": \"gated_gemm\"");
  ASSERT_TRUE(parseManifest(text, m, error)) << error;
  EXPECT_EQ(m.chain.kind, ChainKind::GatedGemm);
  EXPECT_STREQ(chainKindName(m.chain.kind), "gated_gemm");
  text = edit(validManifest(), "\"kind\": \"ffn\"", "\"kind\": \"gemm\"");
  EXPECT_FALSE(parseManifest(text, m, error));
  EXPECT_NE(error.find("a gemm chain takes 2 inputs, got 3"), std::string::npos)
      << error;
}

TEST(ManifestTest, StaticMMustFallInABin) {
  Manifest m;
  std::string error;
  std::string text = edit(validManifest(), "\"m\": -1", "\"m\": 2000000");
  EXPECT_FALSE(parseManifest(text, m, error));
  EXPECT_NE(error.find("no kernel's M bin holds the static M 2000000"),
            std::string::npos)
      << error;
}

/// A temporary bundle directory written by the test.
class BundleDir : public ::testing::Test {
protected:
  void SetUp() override {
    char tmpl[] = "/tmp/ffrt-bundle-XXXXXX";
    ASSERT_NE(mkdtemp(tmpl), nullptr);
    dir = tmpl;
  }
  void TearDown() override {
    std::string cmd = "rm -rf '" + dir + "'";
    (void)std::system(cmd.c_str());
  }
  void write(const std::string &name, const std::string &data) {
    std::ofstream f(dir + "/" + name, std::ios::binary);
    f << data;
  }
  /// Writes the valid manifest with a correct hash and two kernel files.
  void writeValid() {
    std::string text = validManifest();
    write("ff_chain0.cubin", "cubin-bytes-0");
    write("ff_chain0.ptx", "ptx text 0");
    write("ff_chain1.cubin", "cubin-bytes-1");
    Manifest m;
    std::string error;
    ASSERT_TRUE(parseManifest(text, m, error)) << error;
    std::string hash = computeBundleHash(text, m.hashDigitsBegin,
                                         {"cubin-bytes-0", "cubin-bytes-1"},
                                         {"ptx text 0", ""});
    text.replace(m.hashDigitsBegin, 64, hash);
    write("manifest.json", text);
    expectedHash = hash;
  }
  std::string dir, expectedHash;
};

TEST_F(BundleDir, HashIsShaOfZeroedManifestAndFiles) {
  writeValid();
  // Recompute by the documented rule, independently of computeBundleHash.
  std::string text = validManifest();
  Sha256 h;
  h.update(text); // validManifest() already carries 64 zeros
  h.update("cubin-bytes-0");
  h.update("ptx text 0");
  h.update("cubin-bytes-1");
  EXPECT_EQ(h.finishHex(), expectedHash);
  Bundle b;
  std::string error;
  ASSERT_TRUE(readBundle(dir, /*verifyHash=*/true, b, error)) << error;
  EXPECT_EQ(b.cubins[1], "cubin-bytes-1");
  EXPECT_EQ(b.ptxs[0], "ptx text 0");
  EXPECT_EQ(b.manifest.hash, expectedHash);
}

TEST_F(BundleDir, DetectsCorruptedKernelFile) {
  writeValid();
  write("ff_chain1.cubin", "cubin-bytes-X");
  Bundle b;
  std::string error;
  EXPECT_FALSE(readBundle(dir, true, b, error));
  EXPECT_NE(error.find("hash mismatch"), std::string::npos) << error;
  // Without verification the same bundle reads.
  EXPECT_TRUE(readBundle(dir, false, b, error)) << error;
}

TEST_F(BundleDir, DetectsEditedManifest) {
  writeValid();
  std::string text;
  ASSERT_TRUE(readFile(dir + "/manifest.json", text));
  write("manifest.json", edit(text, "\"stages\": 4", "\"stages\": 5"));
  Bundle b;
  std::string error;
  EXPECT_FALSE(readBundle(dir, true, b, error));
  EXPECT_NE(error.find("hash mismatch"), std::string::npos) << error;
}

TEST_F(BundleDir, MissingFilesAreNamed) {
  Bundle b;
  std::string error;
  EXPECT_FALSE(readBundle(dir, true, b, error));
  EXPECT_NE(error.find("cannot read " + dir + "/manifest.json"),
            std::string::npos)
      << error;
  writeValid();
  std::remove((dir + "/ff_chain0.ptx").c_str());
  EXPECT_FALSE(readBundle(dir, true, b, error));
  EXPECT_NE(error.find("cannot read kernel file ff_chain0.ptx"),
            std::string::npos)
      << error;
}

} // namespace

TEST(ManifestTest, WorkspaceMayClearOnlyItsTrailingCounters) {
  // Deterministic plans: planes written in full, counters cleared.
  Manifest m;
  std::string error;
  std::string text =
      edit(validManifest(), "\"bytes_per_m\": 16384, \"zero\": true}",
           "\"bytes_per_m\": 16384, \"zero\": true, \"zero_bytes_per_m\": 32}");
  ASSERT_TRUE(parseManifest(text, m, error)) << error;
  EXPECT_EQ(m.kernels[0].params[6].zeroBytesPerM, 32);
}

TEST(ManifestTest, SelfCleaningWorkspaceIsClearedOnlyWhenAllocated) {
  Manifest m;
  std::string error;
  ASSERT_TRUE(parseManifest(validManifest(), m, error)) << error;
  EXPECT_FALSE(m.kernels[0].params[6].selfCleaning);
  std::string text =
      edit(validManifest(), "\"bytes_per_m\": 16384, \"zero\": true}",
           "\"bytes_per_m\": 16384, \"zero\": true, \"self_cleaning\": true}");
  ASSERT_TRUE(parseManifest(text, m, error)) << error;
  EXPECT_TRUE(m.kernels[0].params[6].selfCleaning);
  EXPECT_TRUE(m.kernels[0].params[6].zero);
}

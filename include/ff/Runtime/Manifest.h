//===- Manifest.h - FlashFuser kernel bundle manifest -----------*- C++ -*-===//
//
// The in-memory form of a bundle's manifest.json (format "flashfuser-bundle",
// version 1; the normative description is docs/bundle.md). Parsing validates
// the whole manifest, so a Manifest that exists is well formed. Nothing here
// needs a GPU.
//
//===----------------------------------------------------------------------===//

#ifndef FF_RUNTIME_MANIFEST_H
#define FF_RUNTIME_MANIFEST_H

#include "ff/Runtime/Json.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ff::rt {

enum class DType { BF16, F16, F32 };

/// Parses "bf16" | "f16" | "f32".
std::optional<DType> parseDType(std::string_view name);
const char *dtypeName(DType dtype);
int64_t dtypeSize(DType dtype);

/// What a bundle computes (dsm::ChainKind): GatedGemm is act(x wg) * (x wu).
enum class ChainKind { Gemm, Ffn, GatedFfn, Chain, GatedGemm };
enum class Activation { Identity, Relu, GeluErf, GeluTanh, Silu, Sigmoid };
std::optional<Activation> parseActivation(std::string_view name);
const char *activationName(Activation act);
const char *chainKindName(ChainKind kind);

/// One chain input or output: a row-major tensor. A dimension of -1 is M.
struct TensorSpec {
  std::string name;
  std::vector<int64_t> shape;
  DType dtype = DType::BF16;
  /// Weights only: "kn" (row-major [K, N], the default) or "nk" (PyTorch
  /// Linear's [out, in]).
  std::string layout = "kn";
};

enum class ParamKind {
  TensorMap,    ///< CUtensorMap by value (128-byte __grid_constant__ param).
  TensorMapPtr, ///< Pointer to a device copy of the CUtensorMap.
  Ptr,          ///< Raw device pointer to the tensor.
  Memref,       ///< Expanded memref: alloc, aligned, offset, sizes, strides.
  I64,          ///< 64-bit scalar: "M" or a literal.
  I32,          ///< 32-bit scalar: "M" or a literal.
  Workspace,    ///< Device scratch the runtime allocates.
};
const char *paramKindName(ParamKind kind);

struct ParamSpec {
  ParamKind kind = ParamKind::Ptr;
  /// TensorMap, TensorMapPtr, Ptr, Memref: index into Manifest::tensors().
  int tensor = -1;
  // TMA descriptor fields (innermost dimension first, as the driver wants).
  /// Optional row-major reshape (outermost first) the map is built over, e.g.
  /// the [N*H*W, C] view of an NHWC activation; at most one -1 (inferred).
  std::vector<int64_t> view;
  /// Tiled: one extent per dimension. Im2col: {channelsPerPixel,
  /// pixelsPerColumn}.
  std::vector<uint32_t> box;
  std::vector<uint32_t> elementStrides;
  int swizzle = 0, l2Promotion = 0, oobFill = 0, interleave = 0;
  /// An im2col map (cuTensorMapEncodeIm2col) over a rank 3-5 channels-last
  /// tensor: pixel box corners, innermost spatial dimension first (W, H).
  bool im2col = false;
  std::vector<int> im2colLower, im2colUpper;
  /// Tiled map (version 2): the box's outermost extent is clamped to the
  /// launch's M, the rows the kernel expects (tensorMapBox).
  bool boxFitsM = false;
  /// Tiled map (version 3): the box's outermost extent is that of the
  /// launch's last tile of M, ((m - 1) mod box) + 1 (tensorMapBox).
  bool boxTailM = false;
  // Scalars.
  bool scalarIsM = false;
  int64_t scalarValue = 0;
  // Workspace: bytes = bytesFixed + bytesPerM * M. With zero, cleared
  // before each launch: all of it, or with zeroBytesPerM > 0 only the last
  // zeroBytesPerM * M bytes. With selfCleaning as well, the kernel leaves
  // the workspace all-zero, so it is cleared only when it is allocated.
  int64_t bytesPerM = 0, bytesFixed = 0, zeroBytesPerM = 0;
  bool zero = false, selfCleaning = false;
};

/// The box a tensor map of `p` is encoded with for a launch at `m` rows:
/// `p.box`, its outermost extent clamped to `m` where `p.boxFitsM`, or the
/// rows of `m`'s last tile of box rows where `p.boxTailM`.
std::vector<uint32_t> tensorMapBox(const ParamSpec &p, int64_t m);

struct KernelSpec {
  std::string name, cubin, ptx;
  int64_t mLo = 1, mHi = 1, mMultiple = 1;
  std::array<uint32_t, 3> block{1, 1, 1}, cluster{1, 1, 1}, grid{1, 1, 1};
  /// Launch grid x = grid[0] * ceil(M / gridMTile); 0 leaves grid as is.
  int64_t gridMTile = 0;
  /// The kernel loops over its tiles: any grid of whole clusters up to the
  /// full one is correct, and the runtime launches at most the clusters
  /// that are resident at once (capPersistentGrid).
  bool persistent = false;
  /// The kernel waits (griddepcontrol.wait) for the grids before it before
  /// it touches global memory: it is launched programmatically (PDL), its
  /// setup overlapping the tail of the kernel before it on the stream,
  /// unless a workspace memset of the same launch precedes it.
  bool programmaticLaunch = false;
  uint32_t dynamicSmem = 0;
  std::vector<ParamSpec> params;
};

struct ChainSpec {
  ChainKind kind = ChainKind::Gemm;
  Activation activation = Activation::Identity;
  DType dtype = DType::BF16;
  int64_t m = -1, n = 0, k = 0, l = 0;
  std::vector<TensorSpec> inputs, outputs;
};

struct Manifest {
  int version = 1;
  std::string compiler, sourceHash, targetName, chip;
  ChainSpec chain;
  JsonValue plan;
  std::vector<KernelSpec> kernels;
  /// Tensors that one kernel of a sequence writes and a later one reads
  /// (a chain run as two kernels): allocated by the runtime, never passed
  /// in; a -1 extent is M. Indexed after the inputs and outputs.
  std::vector<TensorSpec> intermediates;
  std::string hash;
  /// Byte range of the hash string's 64 hex digits in the manifest text.
  size_t hashDigitsBegin = 0;

  /// Inputs then outputs: the order of launch arguments.
  std::vector<const TensorSpec *> tensors() const;
  size_t numTensors() const {
    return chain.inputs.size() + chain.outputs.size();
  }
  /// Arguments, then intermediates.
  size_t numAllTensors() const { return numTensors() + intermediates.size(); }
  const TensorSpec &tensor(size_t i) const {
    if (i < chain.inputs.size())
      return chain.inputs[i];
    if (i < numTensors())
      return chain.outputs[i - chain.inputs.size()];
    return intermediates[i - numTensors()];
  }
  bool isOutput(size_t i) const {
    return i >= chain.inputs.size() && i < numTensors();
  }
  bool isIntermediate(size_t i) const { return i >= numTensors(); }
  /// Index of the first kernel whose [m_lo, m_hi] holds m, or -1.
  int selectKernel(int64_t m) const;
  /// The kernels to launch for m, in order: those whose bin holds m. Kernels
  /// with the same bin form a sequence; bins that differ do not overlap.
  std::vector<int> selectKernels(int64_t m) const;
};

/// Parses and validates manifest text. The error names the offending field
/// ("kernels[0].params[2].box: ...").
bool parseManifest(std::string_view text, Manifest &out, std::string &error);

/// A bundle read from disk: manifest plus the bytes of every kernel file.
struct Bundle {
  std::string dir;
  std::string manifestText;
  Manifest manifest;
  std::vector<std::string> cubins, ptxs;
};

/// The bundle hash (docs/bundle.md): SHA-256 over the manifest text with the
/// 64 hash digits replaced by '0', then for each kernel in order its cubin
/// bytes and, when named, its ptx bytes.
std::string computeBundleHash(const std::string &manifestText,
                              size_t hashDigitsBegin,
                              const std::vector<std::string> &cubins,
                              const std::vector<std::string> &ptxs);

/// Reads `dir`/manifest.json and the kernel files, validates the manifest and,
/// when `verifyHash`, checks the hash. Errors are complete sentences naming
/// the bundle.
bool readBundle(const std::string &dir, bool verifyHash, Bundle &out,
                std::string &error);

bool readFile(const std::string &path, std::string &out);

} // namespace ff::rt

#endif // FF_RUNTIME_MANIFEST_H

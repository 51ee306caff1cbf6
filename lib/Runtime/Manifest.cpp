//===- Manifest.cpp - FlashFuser kernel bundle manifest -------------------===//

#include "ff/Runtime/Manifest.h"
#include "ff/Runtime/Sha256.h"

#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>

using namespace ff::rt;

std::optional<DType> ff::rt::parseDType(std::string_view name) {
  if (name == "bf16")
    return DType::BF16;
  if (name == "f16")
    return DType::F16;
  if (name == "f32")
    return DType::F32;
  return std::nullopt;
}

const char *ff::rt::dtypeName(DType dtype) {
  switch (dtype) {
  case DType::BF16:
    return "bf16";
  case DType::F16:
    return "f16";
  case DType::F32:
    return "f32";
  }
  return "?";
}

int64_t ff::rt::dtypeSize(DType dtype) { return dtype == DType::F32 ? 4 : 2; }

std::optional<Activation> ff::rt::parseActivation(std::string_view name) {
  if (name == "identity" || name == "none")
    return Activation::Identity;
  if (name == "relu")
    return Activation::Relu;
  if (name == "gelu_erf")
    return Activation::GeluErf;
  if (name == "gelu_tanh")
    return Activation::GeluTanh;
  if (name == "silu")
    return Activation::Silu;
  if (name == "sigmoid")
    return Activation::Sigmoid;
  return std::nullopt;
}

const char *ff::rt::activationName(Activation act) {
  switch (act) {
  case Activation::Identity:
    return "identity";
  case Activation::Relu:
    return "relu";
  case Activation::GeluErf:
    return "gelu_erf";
  case Activation::GeluTanh:
    return "gelu_tanh";
  case Activation::Silu:
    return "silu";
  case Activation::Sigmoid:
    return "sigmoid";
  }
  return "?";
}

const char *ff::rt::chainKindName(ChainKind kind) {
  switch (kind) {
  case ChainKind::Gemm:
    return "gemm";
  case ChainKind::Ffn:
    return "ffn";
  case ChainKind::GatedFfn:
    return "gated_ffn";
  case ChainKind::Chain:
    return "chain";
  case ChainKind::GatedGemm:
    return "gated_gemm";
  }
  return "?";
}

const char *ff::rt::paramKindName(ParamKind kind) {
  switch (kind) {
  case ParamKind::TensorMap:
    return "tensormap";
  case ParamKind::TensorMapPtr:
    return "tensormap_ptr";
  case ParamKind::Ptr:
    return "ptr";
  case ParamKind::Memref:
    return "memref";
  case ParamKind::I64:
    return "i64";
  case ParamKind::I32:
    return "i32";
  case ParamKind::Workspace:
    return "workspace";
  }
  return "?";
}

std::vector<const TensorSpec *> Manifest::tensors() const {
  std::vector<const TensorSpec *> out;
  for (const TensorSpec &t : chain.inputs)
    out.push_back(&t);
  for (const TensorSpec &t : chain.outputs)
    out.push_back(&t);
  return out;
}

int Manifest::selectKernel(int64_t m) const {
  for (size_t i = 0; i < kernels.size(); ++i)
    if (m >= kernels[i].mLo && m <= kernels[i].mHi)
      return int(i);
  return -1;
}

std::vector<int> Manifest::selectKernels(int64_t m) const {
  std::vector<int> out;
  for (size_t i = 0; i < kernels.size(); ++i)
    if (m >= kernels[i].mLo && m <= kernels[i].mHi)
      out.push_back(int(i));
  return out;
}

//===----------------------------------------------------------------------===//
// Field readers
//===----------------------------------------------------------------------===//

namespace {
/// Reads typed fields of one JSON object, recording the first error with the
/// field's path.
class Reader {
public:
  Reader(const JsonValue &obj, std::string path, std::string &error)
      : obj(obj), path(std::move(path)), error(error) {}

  bool fail(const std::string &field, const std::string &what) {
    if (error.empty())
      error = (field.empty() ? path : path + field) + ": " + what;
    return false;
  }

  std::string sub(const std::string &key) const {
    return path.empty() ? key : path + "." + key;
  }

  const JsonValue *need(const std::string &key, JsonValue::Kind kind) {
    const JsonValue *v = obj.get(key);
    if (!v) {
      fail("", "missing field \"" + key + "\"");
      return nullptr;
    }
    if (v->kind != kind) {
      fail(pre(key), std::string("expected ") + JsonValue::kindName(kind) +
                         ", got " + JsonValue::kindName(v->kind));
      return nullptr;
    }
    return v;
  }

  std::string pre(const std::string &key) const {
    return path.empty() ? key : "." + key;
  }

  bool str(const std::string &key, std::string &out, bool optional = false) {
    if (optional && !obj.get(key))
      return true;
    const JsonValue *v = need(key, JsonValue::Kind::String);
    if (!v)
      return false;
    out = v->string;
    return true;
  }

  bool integer(const std::string &key, int64_t &out, int64_t lo, int64_t hi,
               bool optional = false) {
    if (optional && !obj.get(key))
      return true;
    const JsonValue *v = need(key, JsonValue::Kind::Number);
    if (!v)
      return false;
    if (!v->isInteger)
      return fail(pre(key), "expected an integer");
    if (v->integer < lo || v->integer > hi)
      return fail(pre(key), "value " + std::to_string(v->integer) +
                                " out of range [" + std::to_string(lo) + ", " +
                                std::to_string(hi) + "]");
    out = v->integer;
    return true;
  }

  bool intArray(const std::string &key, std::vector<int64_t> &out,
                size_t minLen, size_t maxLen, int64_t lo, int64_t hi,
                bool optional = false) {
    if (optional && !obj.get(key))
      return true;
    const JsonValue *v = need(key, JsonValue::Kind::Array);
    if (!v)
      return false;
    if (v->array.size() < minLen || v->array.size() > maxLen)
      return fail(pre(key),
                  "expected " +
                      (minLen == maxLen ? std::to_string(minLen)
                                        : std::to_string(minLen) + " to " +
                                              std::to_string(maxLen)) +
                      " elements, got " + std::to_string(v->array.size()));
    out.clear();
    for (size_t i = 0; i < v->array.size(); ++i) {
      const JsonValue &e = v->array[i];
      std::string at = pre(key) + "[" + std::to_string(i) + "]";
      if (!e.isNumber() || !e.isInteger)
        return fail(at, "expected an integer");
      if (e.integer < lo || e.integer > hi)
        return fail(at, "value " + std::to_string(e.integer) +
                            " out of range [" + std::to_string(lo) + ", " +
                            std::to_string(hi) + "]");
      out.push_back(e.integer);
    }
    return true;
  }

  bool dim3(const std::string &key, std::array<uint32_t, 3> &out, int64_t hi) {
    std::vector<int64_t> v;
    if (!intArray(key, v, 3, 3, 1, hi))
      return false;
    for (int i = 0; i < 3; ++i)
      out[i] = uint32_t(v[i]);
    return true;
  }

  bool boolean(const std::string &key, bool &out) {
    if (!obj.get(key))
      return true;
    const JsonValue *v = need(key, JsonValue::Kind::Bool);
    if (!v)
      return false;
    out = v->boolean;
    return true;
  }

  template <typename T>
  bool choice(const std::string &key, T &out,
              std::initializer_list<std::pair<const char *, T>> options,
              const char *defaultName) {
    std::string s = defaultName ? defaultName : "";
    if (!obj.get(key) && !defaultName)
      return fail("", "missing field \"" + key + "\"");
    if (obj.get(key) && !str(key, s))
      return false;
    std::string names;
    for (const auto &[name, value] : options) {
      if (s == name) {
        out = value;
        return true;
      }
      names += names.empty() ? "" : ", ";
      names += name;
    }
    return fail(pre(key),
                "unknown value \"" + s + "\" (expected " + names + ")");
  }

  const JsonValue &obj;
  std::string path;
  std::string &error;
};

bool isHex64(const std::string &s) {
  if (s.size() != 64)
    return false;
  return std::all_of(s.begin(), s.end(), [](char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
  });
}

/// "sm_" followed by two or three digits and an optional "a".
bool isChipName(const std::string &s) {
  if (s.rfind("sm_", 0) != 0)
    return false;
  size_t i = 3;
  while (i < s.size() && s[i] >= '0' && s[i] <= '9')
    ++i;
  if (i - 3 < 2 || i - 3 > 3)
    return false;
  return i == s.size() || (i + 1 == s.size() && s[i] == 'a');
}

bool isPlainFileName(const std::string &s) {
  return !s.empty() && s.find('/') == std::string::npos &&
         s.find('\\') == std::string::npos && s != "." && s != "..";
}

bool parseTensor(const JsonValue &v, const std::string &path, TensorSpec &t,
                 std::string &error) {
  if (!v.isObject()) {
    error = path + ": expected an object";
    return false;
  }
  Reader r(v, path, error);
  std::string dtype;
  if (!r.str("name", t.name) ||
      !r.intArray("shape", t.shape, 1, 8, -1, int64_t(1) << 40) ||
      !r.str("dtype", dtype) || !r.str("layout", t.layout, true))
    return false;
  if (t.name.empty())
    return r.fail(".name", "empty tensor name");
  auto dt = parseDType(dtype);
  if (!dt)
    return r.fail(".dtype",
                  "unknown dtype \"" + dtype + "\" (expected bf16, f16, f32)");
  t.dtype = *dt;
  if (t.layout != "kn" && t.layout != "nk")
    return r.fail(".layout",
                  "unknown layout \"" + t.layout + "\" (expected kn, nk)");
  for (size_t i = 0; i < t.shape.size(); ++i) {
    if (t.shape[i] == 0)
      return r.fail(".shape[" + std::to_string(i) + "]", "zero extent");
    if (t.shape[i] == -1 && i != 0)
      return r.fail(".shape[" + std::to_string(i) + "]",
                    "only the outermost dimension may be M (-1)");
  }
  return true;
}

size_t countOf(const std::vector<int64_t> &v, int64_t x) {
  return size_t(std::count(v.begin(), v.end(), x));
}

bool parseParam(const JsonValue &v, const std::string &path, ParamSpec &p,
                const Manifest &m, std::string &error) {
  if (!v.isObject()) {
    error = path + ": expected an object";
    return false;
  }
  Reader r(v, path, error);
  if (!r.choice<ParamKind>("kind", p.kind,
                           {{"tensormap", ParamKind::TensorMap},
                            {"tensormap_ptr", ParamKind::TensorMapPtr},
                            {"ptr", ParamKind::Ptr},
                            {"memref", ParamKind::Memref},
                            {"i64", ParamKind::I64},
                            {"i32", ParamKind::I32},
                            {"workspace", ParamKind::Workspace}},
                           nullptr))
    return false;
  switch (p.kind) {
  case ParamKind::TensorMap:
  case ParamKind::TensorMapPtr:
  case ParamKind::Ptr:
  case ParamKind::Memref: {
    std::string name;
    if (!r.str("tensor", name))
      return false;
    for (size_t i = 0; i < m.numAllTensors(); ++i)
      if (m.tensor(i).name == name)
        p.tensor = int(i);
    if (p.tensor < 0)
      return r.fail(".tensor", "no chain input, output or intermediate "
                               "named \"" +
                                   name + "\"");
    if (p.kind != ParamKind::TensorMap && p.kind != ParamKind::TensorMapPtr)
      return true;
    const TensorSpec &t = m.tensor(size_t(p.tensor));
    if (!r.intArray("view", p.view, 1, 5, -1, int64_t(1) << 40, true))
      return false;
    if (countOf(p.view, -1) > 1 || countOf(p.view, 0) > 0)
      return r.fail(".view", "expected positive extents and at most one -1");
    size_t rank = p.view.empty() ? t.shape.size() : p.view.size();
    if (rank > 5)
      return r.fail(".tensor", "TMA supports rank <= 5, \"" + name +
                                   "\" has rank " + std::to_string(rank));
    std::vector<int64_t> box, es;
    if (const JsonValue *im2col = v.get("im2col")) {
      // cuTensorMapEncodeIm2col: a channels-last image of rank 3-5, a box
      // of {channelsPerPixel, pixelsPerColumn} and one pixel-box corner
      // offset per spatial dimension, whose range the driver ties to rank.
      if (!r.need("im2col", JsonValue::Kind::Object))
        return false;
      if (rank < 3)
        return r.fail(".im2col", "needs a tensor of rank 3 to 5 (channels "
                                 "innermost), \"" +
                                     name + "\" has rank " +
                                     std::to_string(rank));
      p.im2col = true;
      int64_t reach = rank == 3 ? 32768 : rank == 4 ? 128 : 16;
      Reader ir(*im2col, path + ".im2col", error);
      std::vector<int64_t> lower, upper;
      if (!ir.intArray("lower", lower, rank - 2, rank - 2, -reach, reach - 1) ||
          !ir.intArray("upper", upper, rank - 2, rank - 2, -reach, reach - 1))
        return false;
      p.im2colLower.assign(lower.begin(), lower.end());
      p.im2colUpper.assign(upper.begin(), upper.end());
      if (!r.intArray("box", box, 2, 2, 1, 1024))
        return false;
      if (box[0] > 256)
        return r.fail(".box[0]", "value " + std::to_string(box[0]) +
                                     " out of range [1, 256] (channels per "
                                     "pixel)");
    } else if (!r.intArray("box", box, rank, rank, 1, 256)) {
      return false;
    }
    if (!r.intArray("element_strides", es, rank, rank, 1, 8, true))
      return false;
    for (int64_t b : box)
      p.box.push_back(uint32_t(b));
    if (es.empty())
      es.assign(rank, 1);
    for (int64_t e : es)
      p.elementStrides.push_back(uint32_t(e));
    if (!r.choice<int>("swizzle", p.swizzle,
                       {{"none", 0}, {"32B", 1}, {"64B", 2}, {"128B", 3}},
                       "none") ||
        !r.choice<int>("l2_promotion", p.l2Promotion,
                       {{"none", 0}, {"64B", 1}, {"128B", 2}, {"256B", 3}},
                       "none") ||
        !r.choice<int>("oob_fill", p.oobFill, {{"zero", 0}, {"nan", 1}},
                       "zero") ||
        !r.choice<int>("interleave", p.interleave,
                       {{"none", 0}, {"16B", 1}, {"32B", 2}}, "none") ||
        !r.boolean("box_fits_m", p.boxFitsM) ||
        !r.boolean("box_tail_m", p.boxTailM))
      return false;
    if (p.boxFitsM && p.im2col)
      return r.fail(".box_fits_m", "applies to tiled maps, not im2col ones");
    if (p.boxTailM && p.im2col)
      return r.fail(".box_tail_m", "applies to tiled maps, not im2col ones");
    if (p.boxFitsM && p.boxTailM)
      return r.fail(".box_tail_m", "cannot be combined with box_fits_m");
    if (p.boxFitsM && m.version < 2)
      return r.fail(".box_fits_m", "needs bundle version 2 (the manifest "
                                   "says version " +
                                       std::to_string(m.version) + ")");
    if (p.boxTailM && m.version < 3)
      return r.fail(".box_tail_m", "needs bundle version 3 (the manifest "
                                   "says version " +
                                       std::to_string(m.version) + ")");
    int64_t innerBytes = int64_t(p.box[0]) * dtypeSize(t.dtype);
    if (p.interleave == 0 && innerBytes % 16 != 0)
      return r.fail(".box", "inner box extent " + std::to_string(innerBytes) +
                                " bytes is not a multiple of 16");
    static const int64_t span[] = {0, 32, 64, 128};
    if (p.interleave == 0 && p.swizzle != 0 && innerBytes > span[p.swizzle])
      return r.fail(".box", "inner box extent " + std::to_string(innerBytes) +
                                " bytes exceeds the swizzle span of " +
                                std::to_string(span[p.swizzle]));
    return true;
  }
  case ParamKind::I64:
  case ParamKind::I32: {
    const JsonValue *value = v.get("value");
    if (!value)
      return r.fail("", "missing field \"value\"");
    if (value->isString() && value->string == "M") {
      p.scalarIsM = true;
      return true;
    }
    if (value->isNumber() && value->isInteger) {
      p.scalarValue = value->integer;
      if (p.kind == ParamKind::I32 &&
          (p.scalarValue < INT32_MIN || p.scalarValue > INT32_MAX))
        return r.fail(".value", "does not fit in i32");
      return true;
    }
    return r.fail(".value", "expected \"M\" or an integer");
  }
  case ParamKind::Workspace:
    if (!r.integer("bytes_per_m", p.bytesPerM, 0, int64_t(1) << 32, true) ||
        !r.integer("bytes", p.bytesFixed, 0, int64_t(1) << 40, true) ||
        !r.boolean("zero", p.zero) ||
        !r.integer("zero_bytes_per_m", p.zeroBytesPerM, 0, p.bytesPerM, true) ||
        !r.boolean("self_cleaning", p.selfCleaning))
      return false;
    if (p.zeroBytesPerM && !p.zero)
      return r.fail(".zero_bytes_per_m", "needs \"zero\": true");
    if (p.selfCleaning && !p.zero)
      return r.fail(".self_cleaning", "needs \"zero\": true");
    if (p.selfCleaning && p.zeroBytesPerM)
      return r.fail(".self_cleaning", "and \"zero_bytes_per_m\" are exclusive");
    return true;
  }
  return true;
}

bool parseKernel(const JsonValue &v, const std::string &path, KernelSpec &k,
                 const Manifest &m, std::string &error) {
  if (!v.isObject()) {
    error = path + ": expected an object";
    return false;
  }
  Reader r(v, path, error);
  int64_t smem = 0;
  if (!r.str("name", k.name) || !r.str("cubin", k.cubin, true) ||
      !r.str("ptx", k.ptx, true) ||
      !r.integer("m_lo", k.mLo, 1, int64_t(1) << 40) ||
      !r.integer("m_hi", k.mHi, 1, int64_t(1) << 40) ||
      !r.integer("m_multiple", k.mMultiple, 1, 1 << 20, true) ||
      !r.dim3("block", k.block, 1024) || !r.dim3("cluster", k.cluster, 16) ||
      !r.dim3("grid", k.grid, int64_t(1) << 31) ||
      !r.integer("grid_m_tile", k.gridMTile, 0, int64_t(1) << 31, true) ||
      !r.integer("dynamic_smem", smem, 0, 232448) ||
      !r.boolean("persistent", k.persistent) ||
      !r.boolean("programmatic_launch", k.programmaticLaunch))
    return false;
  k.dynamicSmem = uint32_t(smem);
  if (k.name.empty())
    return r.fail(".name", "empty kernel name");
  if (k.cubin.empty() && k.ptx.empty())
    return r.fail("", "needs a \"cubin\" or a \"ptx\" file (or both)");
  if (!k.cubin.empty() && !isPlainFileName(k.cubin))
    return r.fail(".cubin", "must be a file name inside the bundle");
  if (!k.ptx.empty() && !isPlainFileName(k.ptx))
    return r.fail(".ptx", "must be a file name inside the bundle");
  if (k.mHi < k.mLo)
    return r.fail(".m_hi", "m_hi " + std::to_string(k.mHi) + " < m_lo " +
                               std::to_string(k.mLo));
  uint64_t threads = uint64_t(k.block[0]) * k.block[1] * k.block[2];
  if (threads > 1024)
    return r.fail(".block",
                  std::to_string(threads) + " threads per block exceeds 1024");
  uint64_t ctas = uint64_t(k.cluster[0]) * k.cluster[1] * k.cluster[2];
  if (ctas > 16)
    return r.fail(".cluster",
                  std::to_string(ctas) + " CTAs per cluster exceeds 16");
  for (int i = 0; i < 3; ++i) {
    // The M-scaled x extent is checked per launch; y and z are static.
    if (i > 0 && k.grid[i] % k.cluster[i] != 0)
      return r.fail(".grid", "grid[" + std::to_string(i) +
                                 "] = " + std::to_string(k.grid[i]) +
                                 " is not a multiple of cluster[" +
                                 std::to_string(i) +
                                 "] = " + std::to_string(k.cluster[i]));
  }
  if (k.gridMTile == 0 && k.grid[0] % k.cluster[0] != 0)
    return r.fail(".grid", "grid[0] is not a multiple of cluster[0]");
  const JsonValue *params = r.need("params", JsonValue::Kind::Array);
  if (!params)
    return false;
  for (size_t i = 0; i < params->array.size(); ++i) {
    ParamSpec p;
    if (!parseParam(params->array[i],
                    path + ".params[" + std::to_string(i) + "]", p, m, error))
      return false;
    k.params.push_back(std::move(p));
  }
  return true;
}
} // namespace

bool ff::rt::parseManifest(std::string_view text, Manifest &m,
                           std::string &error) {
  m = Manifest();
  error.clear();
  JsonValue root;
  std::string jsonError;
  if (!parseJson(text, root, jsonError)) {
    error = "manifest.json is not valid JSON: " + jsonError;
    return false;
  }
  if (!root.isObject()) {
    error = "manifest: expected a JSON object";
    return false;
  }
  Reader r(root, "", error);
  std::string format;
  int64_t version = 0;
  if (!r.str("format", format))
    return false;
  if (format != "flashfuser-bundle")
    return r.fail("format",
                  "expected \"flashfuser-bundle\", got \"" + format + "\"");
  if (!r.integer("version", version, 0, INT32_MAX))
    return false;
  if (version < 1 || version > 3)
    return r.fail("version", "unsupported bundle version " +
                                 std::to_string(version) +
                                 " (this runtime reads versions 1 to 3)");
  m.version = int(version);
  if (!r.str("compiler", m.compiler) || !r.str("source_hash", m.sourceHash) ||
      !r.str("hash", m.hash))
    return false;
  if (!isHex64(m.sourceHash))
    return r.fail("source_hash", "expected 64 lowercase hex digits");
  if (!isHex64(m.hash))
    return r.fail("hash", "expected 64 lowercase hex digits");
  // The hash string literal holds exactly 64 hex digits (no escapes), so its
  // digits start right after the opening quote.
  m.hashDigitsBegin = root.get("hash")->begin + 1;

  const JsonValue *target = r.need("target", JsonValue::Kind::Object);
  if (!target)
    return false;
  Reader tr(*target, "target", error);
  if (!tr.str("name", m.targetName) || !tr.str("chip", m.chip))
    return false;
  if (!isChipName(m.chip))
    return tr.fail(".chip", "expected sm_XY or sm_XYa, got \"" + m.chip + "\"");

  const JsonValue *chain = r.need("chain", JsonValue::Kind::Object);
  if (!chain)
    return false;
  Reader cr(*chain, "chain", error);
  ChainSpec &c = m.chain;
  std::string dtype;
  if (!cr.choice<ChainKind>("kind", c.kind,
                            {{"gemm", ChainKind::Gemm},
                             {"ffn", ChainKind::Ffn},
                             {"gated_ffn", ChainKind::GatedFfn},
                             {"chain", ChainKind::Chain},
                             {"gated_gemm", ChainKind::GatedGemm}},
                            nullptr) ||
      !cr.choice<Activation>("activation", c.activation,
                             {{"identity", Activation::Identity},
                              {"relu", Activation::Relu},
                              {"gelu_erf", Activation::GeluErf},
                              {"gelu_tanh", Activation::GeluTanh},
                              {"silu", Activation::Silu},
                              {"sigmoid", Activation::Sigmoid}},
                             "identity") ||
      !cr.str("dtype", dtype) || !cr.integer("m", c.m, -1, int64_t(1) << 40) ||
      !cr.integer("n", c.n, 1, int64_t(1) << 40) ||
      !cr.integer("k", c.k, 1, int64_t(1) << 40) ||
      !cr.integer("l", c.l, 0, int64_t(1) << 40, true))
    return false;
  if (c.m == 0)
    return cr.fail(".m", "M must be positive or -1 (dynamic)");
  if ((c.kind == ChainKind::Ffn || c.kind == ChainKind::GatedFfn) && c.l < 1)
    return cr.fail(".l", std::string("a ") + chainKindName(c.kind) +
                             " chain needs L >= 1");
  auto dt = parseDType(dtype);
  if (!dt)
    return cr.fail(".dtype", "unknown dtype \"" + dtype + "\"");
  c.dtype = *dt;
  for (const char *list : {"inputs", "outputs"}) {
    const JsonValue *arr = cr.need(list, JsonValue::Kind::Array);
    if (!arr)
      return false;
    if (arr->array.empty())
      return cr.fail(std::string(".") + list, "empty list");
    auto &dst = std::string(list) == "inputs" ? c.inputs : c.outputs;
    for (size_t i = 0; i < arr->array.size(); ++i) {
      TensorSpec t;
      if (!parseTensor(arr->array[i],
                       std::string("chain.") + list + "[" + std::to_string(i) +
                           "]",
                       t, error))
        return false;
      dst.push_back(std::move(t));
    }
  }
  if (const JsonValue *inter = root.get("intermediates")) {
    if (!inter->isArray())
      return r.fail("intermediates", "expected an array");
    for (size_t i = 0; i < inter->array.size(); ++i) {
      TensorSpec t;
      std::string where = "intermediates[" + std::to_string(i) + "]";
      if (!parseTensor(inter->array[i], where, t, error))
        return false;
      // The runtime allocates it contiguous; TMA needs 16-byte rows.
      if (t.shape.size() < 2 || t.shape.back() * dtypeSize(t.dtype) % 16 != 0)
        return r.fail(where + ".shape",
                      "an intermediate needs rank >= 2 and rows of a "
                      "multiple of 16 bytes");
      m.intermediates.push_back(std::move(t));
    }
  }
  std::set<std::string> names;
  for (size_t i = 0; i < m.numAllTensors(); ++i)
    if (!names.insert(m.tensor(i).name).second)
      return cr.fail("", "duplicate tensor name \"" + m.tensor(i).name + "\"");
  size_t expectedInputs = c.kind == ChainKind::Gemm        ? 2
                          : c.kind == ChainKind::Ffn       ? 3
                          : c.kind == ChainKind::GatedGemm ? 3
                          : c.kind == ChainKind::GatedFfn  ? 4
                                                           : 0;
  if (expectedInputs && c.inputs.size() != expectedInputs)
    return cr.fail(".inputs",
                   std::string("a ") + chainKindName(c.kind) + " chain takes " +
                       std::to_string(expectedInputs) + " inputs, got " +
                       std::to_string(c.inputs.size()));

  if (const JsonValue *plan = root.get("plan"))
    m.plan = *plan;

  const JsonValue *kernels = r.need("kernels", JsonValue::Kind::Array);
  if (!kernels)
    return false;
  if (kernels->array.empty())
    return r.fail("kernels", "a bundle needs at least one kernel");
  for (size_t i = 0; i < kernels->array.size(); ++i) {
    KernelSpec k;
    if (!parseKernel(kernels->array[i], "kernels[" + std::to_string(i) + "]", k,
                     m, error))
      return false;
    m.kernels.push_back(std::move(k));
  }
  // M bins are equal (a sequence, launched in manifest order) or disjoint,
  // so the kernels for an M are unambiguous.
  for (size_t i = 0; i < m.kernels.size(); ++i)
    for (size_t j = i + 1; j < m.kernels.size(); ++j) {
      const KernelSpec &a = m.kernels[i], &b = m.kernels[j];
      if (a.mLo <= b.mHi && b.mLo <= a.mHi &&
          (a.mLo != b.mLo || a.mHi != b.mHi))
        return r.fail("kernels[" + std::to_string(j) + "]",
                      "M bin [" + std::to_string(b.mLo) + ", " +
                          std::to_string(b.mHi) + "] overlaps kernels[" +
                          std::to_string(i) + "] without equalling it");
    }
  // Every intermediate is written by a kernel of its sequence (a raw
  // pointer param) before a later kernel of it reads the tensor.
  for (size_t t = m.numTensors(); t < m.numAllTensors(); ++t) {
    for (size_t i = 0; i < m.kernels.size(); ++i) {
      auto uses = [&](const KernelSpec &k, bool write) {
        for (const ParamSpec &p : k.params)
          if (p.tensor == int(t) && (p.kind == ParamKind::Ptr ||
                                     p.kind == ParamKind::Memref) == write)
            return true;
        return false;
      };
      if (!uses(m.kernels[i], false))
        continue;
      bool written = false;
      for (size_t w = 0; w < i && !written; ++w)
        written = m.kernels[w].mLo == m.kernels[i].mLo &&
                  m.kernels[w].mHi == m.kernels[i].mHi &&
                  uses(m.kernels[w], true);
      if (!written)
        return r.fail("kernels[" + std::to_string(i) + "]",
                      "reads intermediate \"" + m.tensor(t).name +
                          "\" that no earlier kernel of its sequence writes");
    }
  }
  if (c.m > 0 && m.selectKernel(c.m) < 0)
    return r.fail("chain.m", "no kernel's M bin holds the static M " +
                                 std::to_string(c.m));
  return true;
}

//===----------------------------------------------------------------------===//
// Bundles on disk
//===----------------------------------------------------------------------===//

bool ff::rt::readFile(const std::string &path, std::string &out) {
  std::ifstream f(path, std::ios::binary);
  if (!f)
    return false;
  std::ostringstream s;
  s << f.rdbuf();
  out = s.str();
  return bool(f) || f.eof();
}

std::vector<uint32_t> ff::rt::tensorMapBox(const ParamSpec &p, int64_t m) {
  std::vector<uint32_t> box = p.box;
  if (p.boxFitsM && !box.empty() && m > 0 && m < int64_t(box.back()))
    box.back() = uint32_t(m);
  if (p.boxTailM && !box.empty() && m > 0)
    box.back() = uint32_t((m - 1) % int64_t(box.back()) + 1);
  return box;
}

std::string ff::rt::computeBundleHash(const std::string &manifestText,
                                      size_t hashDigitsBegin,
                                      const std::vector<std::string> &cubins,
                                      const std::vector<std::string> &ptxs) {
  std::string zeroed = manifestText;
  if (hashDigitsBegin + 64 <= zeroed.size())
    zeroed.replace(hashDigitsBegin, 64, std::string(64, '0'));
  Sha256 h;
  h.update(zeroed);
  for (size_t i = 0; i < cubins.size(); ++i) {
    h.update(cubins[i]);
    if (i < ptxs.size())
      h.update(ptxs[i]);
  }
  return h.finishHex();
}

bool ff::rt::readBundle(const std::string &dir, bool verifyHash, Bundle &b,
                        std::string &error) {
  b = Bundle();
  b.dir = dir;
  std::string manifestPath = dir + "/manifest.json";
  if (!readFile(manifestPath, b.manifestText)) {
    error = "bundle " + dir + ": cannot read " + manifestPath;
    return false;
  }
  std::string why;
  if (!parseManifest(b.manifestText, b.manifest, why)) {
    error = "bundle " + dir + ": invalid manifest: " + why;
    return false;
  }
  for (const KernelSpec &k : b.manifest.kernels) {
    std::string cubin, ptx;
    if (!k.cubin.empty() && !readFile(dir + "/" + k.cubin, cubin)) {
      error = "bundle " + dir + ": cannot read kernel file " + k.cubin;
      return false;
    }
    if (!k.ptx.empty() && !readFile(dir + "/" + k.ptx, ptx)) {
      error = "bundle " + dir + ": cannot read kernel file " + k.ptx;
      return false;
    }
    b.cubins.push_back(std::move(cubin));
    b.ptxs.push_back(std::move(ptx));
  }
  if (verifyHash) {
    std::string actual = computeBundleHash(
        b.manifestText, b.manifest.hashDigitsBegin, b.cubins, b.ptxs);
    if (actual != b.manifest.hash) {
      error = "bundle " + dir + ": hash mismatch (manifest says " +
              b.manifest.hash + ", contents hash to " + actual +
              "); the bundle is corrupted or was edited";
      return false;
    }
  }
  return true;
}

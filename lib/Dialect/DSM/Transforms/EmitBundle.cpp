//===- EmitBundle.cpp - write FlashFuser kernel bundles ---------*- C++ -*-===//
//
// Part of the FlashFuser project.
//
//===----------------------------------------------------------------------===//

#include "ff/Dialect/DSM/IR/DSMOps.h"
#include "ff/Dialect/DSM/Transforms/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir::dsm {
#define GEN_PASS_DEF_DSMEMITBUNDLE
#include "ff/Dialect/DSM/Transforms/Passes.h.inc"
} // namespace mlir::dsm

using namespace mlir;

namespace {

struct DSMEmitBundlePass
    : public dsm::impl::DSMEmitBundleBase<DSMEmitBundlePass> {
  using Base::Base;
  void runOnOperation() override;
  LogicalResult emitBundle(DictionaryAttr bundle, StringRef outDir);
  std::string findPtxas();
};

} // namespace

/// The JSON form of the manifest data recorded by --dsm-materialize.
static llvm::json::Value toJson(Attribute attr) {
  if (auto s = dyn_cast<StringAttr>(attr))
    return s.str();
  if (auto b = dyn_cast<BoolAttr>(attr))
    return b.getValue();
  if (auto i = dyn_cast<IntegerAttr>(attr))
    return i.getInt();
  if (auto a = dyn_cast<DenseI64ArrayAttr>(attr)) {
    llvm::json::Array arr;
    for (int64_t v : a.asArrayRef())
      arr.push_back(v);
    return arr;
  }
  if (auto a = dyn_cast<ArrayAttr>(attr)) {
    llvm::json::Array arr;
    for (Attribute e : a)
      arr.push_back(toJson(e));
    return arr;
  }
  if (auto d = dyn_cast<DictionaryAttr>(attr)) {
    llvm::json::Object obj;
    for (NamedAttribute n : d)
      obj[n.getName().str()] = toJson(n.getValue());
    return obj;
  }
  return nullptr;
}

static LogicalResult writeFile(StringRef path, StringRef data, Location loc) {
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec, llvm::sys::fs::OF_None);
  if (ec)
    return emitError(loc) << "cannot write '" << path << "': " << ec.message();
  os << data;
  return success();
}

std::string DSMEmitBundlePass::findPtxas() {
  if (!ptxas.empty())
    return ptxas;
  SmallVector<StringRef> hints;
  std::string cudaBin;
  if (const char *home = std::getenv("CUDA_HOME")) {
    cudaBin = (llvm::Twine(home) + "/bin").str();
    hints.push_back(cudaBin);
  }
  if (auto p = llvm::sys::findProgramByName("ptxas"))
    return *p;
  hints.push_back("/usr/local/cuda/bin");
  if (auto p = llvm::sys::findProgramByName("ptxas", hints))
    return *p;
  return "";
}

LogicalResult DSMEmitBundlePass::emitBundle(DictionaryAttr bundle,
                                            StringRef outDir) {
  ModuleOp module = getOperation();
  Location loc = module.getLoc();
  if (std::error_code ec = llvm::sys::fs::create_directories(outDir))
    return emitError(loc) << "cannot create '" << outDir
                          << "': " << ec.message();

  // Per kernel, in manifest order: the cubin (if any) and the PTX.
  SmallVector<std::pair<std::string, std::string>> payloads;
  llvm::json::Array kernels;
  auto kernelList = dyn_cast_or_null<ArrayAttr>(bundle.get("kernels"));
  if (!kernelList)
    return emitError(loc) << "malformed dsm.bundles entry: expected an array "
                             "of kernels, as --dsm-materialize writes";
  for (Attribute k : kernelList) {
    auto kernel = dyn_cast<DictionaryAttr>(k);
    auto nameAttr =
        kernel ? dyn_cast_or_null<StringAttr>(kernel.get("name")) : nullptr;
    auto modAttr =
        kernel ? dyn_cast_or_null<StringAttr>(kernel.get("module")) : nullptr;
    if (!nameAttr || !modAttr)
      return emitError(loc) << "malformed dsm.bundles kernel: expected a "
                               "dictionary with string 'name' and 'module'";
    StringRef name = nameAttr.getValue();
    StringRef modName = modAttr.getValue();
    auto binary = module.lookupSymbol<gpu::BinaryOp>(modName);
    if (!binary)
      return emitError(loc) << "no gpu.binary @" << modName << " for kernel '"
                            << name << "'; run gpu-module-to-binary first";
    ArrayAttr objects = binary.getObjects();
    auto object =
        objects.empty() ? nullptr : dyn_cast<gpu::ObjectAttr>(objects[0]);
    if (!object)
      return binary.emitOpError("holds no #gpu.object to write");
    if (object.getFormat() != gpu::CompilationTarget::Assembly)
      return binary.emitOpError("bundles are written from PTX; run "
                                "gpu-module-to-binary with format=isa");
    std::string ptxFile = (name + ".ptx").str();
    StringRef ptx = object.getObject().getValue();
    SmallString<256> ptxPath(outDir);
    llvm::sys::path::append(ptxPath, ptxFile);
    if (failed(writeFile(ptxPath, ptx, loc)))
      return failure();
    payloads.push_back({"", ptx.str()});

    llvm::json::Object entry = *toJson(kernel).getAsObject();
    entry.erase("module");
    entry["ptx"] = ptxFile;
    if (format == "bin") {
      std::string tool = findPtxas();
      if (tool.empty())
        return emitError(loc) << "format=bin needs ptxas; none found";
      std::string cubinFile = (name + ".cubin").str();
      SmallString<256> cubinPath(outDir);
      llvm::sys::path::append(cubinPath, cubinFile);
      std::string arch = "-arch=" + chip;
      SmallVector<StringRef> args = {tool, arch, "-O3", ptxPath, "-o",
                                     cubinPath};
      // ptxas chatter goes to a log next to the cubin; shown on failure.
      SmallString<256> logPath(cubinPath);
      logPath += ".log";
      std::optional<StringRef> redirects[] = {std::nullopt, StringRef(logPath),
                                              StringRef(logPath)};
      std::string err;
      int rc = llvm::sys::ExecuteAndWait(tool, args, std::nullopt, redirects,
                                         0, 0, &err);
      auto log = llvm::MemoryBuffer::getFile(logPath);
      std::string logText = log ? (*log)->getBuffer().str() : "";
      llvm::sys::fs::remove(logPath);
      if (rc != 0)
        return emitError(loc) << "ptxas failed on '" << ptxPath << "': "
                              << err << logText;
      auto buf = llvm::MemoryBuffer::getFile(cubinPath);
      if (!buf)
        return emitError(loc) << "cannot read '" << cubinPath << "'";
      payloads.back().first = (*buf)->getBuffer().str();
      entry["cubin"] = cubinFile;
    }
    kernels.push_back(std::move(entry));
  }

  std::string targetName = "h100-sxm";
  if (auto target = module->getAttrOfType<dsm::TargetAttr>("dsm.target"))
    targetName = target.getName().str();
  // The lowest version that has every field the bundle uses: 2 where a
  // tensor map's box fits the launch's M, 3 where one takes its last m
  // tile's rows (docs/bundle.md).
  int version = 1;
  for (const llvm::json::Value &k : kernels)
    if (const llvm::json::Array *params = k.getAsObject()->getArray("params"))
      for (const llvm::json::Value &param : *params) {
        const llvm::json::Object *o = param.getAsObject();
        if (o->getBoolean("box_tail_m").value_or(false))
          version = std::max(version, 3);
        if (o->getBoolean("box_fits_m").value_or(false))
          version = std::max(version, 2);
      }
  llvm::json::Object manifest{
      {"format", "flashfuser-bundle"},
      {"version", version},
      {"compiler", "FlashFuser 0.1.0"},
      {"source_hash", sourceHash.empty() ? toJson(bundle.get("source_hash"))
                                         : llvm::json::Value(sourceHash)},
      {"target", llvm::json::Object{{"name", targetName}, {"chip", chip}}},
      {"chain", toJson(bundle.get("chain"))},
      {"plan", toJson(bundle.get("plan"))},
      {"kernels", std::move(kernels)}};
  // A kernel sequence's intermediates (docs/bundle.md).
  if (Attribute inter = bundle.get("intermediates"))
    manifest["intermediates"] = toJson(inter);

  // The bundle hash of docs/bundle.md: SHA-256 over the manifest text with
  // the hash's 64 digits written as '0', then each kernel's cubin and PTX.
  const std::string zeros(64, '0');
  manifest["hash"] = zeros;
  std::string text =
      llvm::formatv("{0:2}", llvm::json::Value(std::move(manifest))).str() +
      "\n";
  llvm::SHA256 hasher;
  hasher.update(text);
  for (const auto &[cubin, ptx] : payloads) {
    hasher.update(cubin);
    hasher.update(ptx);
  }
  std::string hex = llvm::toHex(hasher.final(), /*LowerCase=*/true);
  size_t at = text.find("\"hash\": \"" + zeros + "\"");
  text.replace(at + strlen("\"hash\": \""), 64, hex);

  SmallString<256> manifestPath(outDir);
  llvm::sys::path::append(manifestPath, "manifest.json");
  return writeFile(manifestPath, text, loc);
}

void DSMEmitBundlePass::runOnOperation() {
  ModuleOp module = getOperation();
  if (dir.empty()) {
    module.emitError("--dsm-emit-bundle needs dir=<directory>");
    return signalPassFailure();
  }
  if (format != "isa" && format != "bin") {
    module.emitError("format must be isa or bin, got '") << format << "'";
    return signalPassFailure();
  }
  auto bundles = module->getAttrOfType<ArrayAttr>("dsm.bundles");
  if (!bundles) {
    module.emitError("no dsm.bundles attribute; run --dsm-materialize first");
    return signalPassFailure();
  }
  for (Attribute attr : bundles) {
    auto bundle = dyn_cast<DictionaryAttr>(attr);
    auto name =
        bundle ? dyn_cast_or_null<StringAttr>(bundle.get("name")) : nullptr;
    if (!name) {
      module.emitError("malformed dsm.bundles entry: expected a dictionary "
                       "with a string 'name', as --dsm-materialize writes");
      return signalPassFailure();
    }
    SmallString<256> outDir(dir);
    if (bundles.size() > 1)
      llvm::sys::path::append(outDir, name.getValue());
    if (failed(emitBundle(bundle, outDir)))
      return signalPassFailure();
  }
}

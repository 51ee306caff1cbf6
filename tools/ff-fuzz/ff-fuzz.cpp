//===- ff-fuzz.cpp - libFuzzer target over FlashFuser's front half --------===//
//
// Part of the FlashFuser project.
//
// Parses one input as MLIR, verifies it, and runs the compiler up to the
// NVGPU level:
//
//   dsm-fuse, dsm-search, dsm-materialize, convert-dsm-to-nvgpu
//
// gpu-module-to-binary (LLVM's NVPTX back end and ptxas) is left out: it is
// slow per input and not our code. Diagnostics are swallowed; the target only
// looks for crashes, assertions, sanitizer reports and hangs.
//
//===----------------------------------------------------------------------===//

#include "ff/Conversion/Passes.h"
#include "ff/Dialect/DSM/Transforms/Passes.h"
#include "ff/InitAll.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

using namespace mlir;

namespace {
/// One context for the whole run: creating one per input costs more than the
/// passes. Threading is off so that a crash has a single stack.
MLIRContext &getContext() {
  static std::unique_ptr<MLIRContext> context = [] {
    DialectRegistry registry;
    ff::registerAllDialects(registry);
    auto ctx = std::make_unique<MLIRContext>(registry,
                                             MLIRContext::Threading::DISABLED);
    ctx->loadAllAvailableDialects();
    ctx->allowUnregisteredDialects(false);
    return ctx;
  }();
  return *context;
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  MLIRContext &context = getContext();
  // Keep diagnostics off stderr: libFuzzer's own output stays readable.
  ScopedDiagnosticHandler silence(&context, [](Diagnostic &) {
    return success();
  });

  // A copy with a terminating NUL, as every file ff-opt reads has: MLIR's
  // lexer reads the byte at the end of the buffer to detect end of input.
  std::string source(reinterpret_cast<const char *>(data), size);
  OwningOpRef<ModuleOp> module =
      parseSourceString<ModuleOp>(source, ParserConfig(&context));
  if (!module || failed(verify(*module)))
    return 0;

  PassManager pm(&context);
  pm.addPass(dsm::createDSMFuseGemmChains());
  pm.addPass(dsm::createDSMSearch());
  pm.addPass(dsm::createDSMMaterialize());
  pm.addPass(ff::createConvertDSMToNVGPU());
  (void)pm.run(*module);
  return 0;
}

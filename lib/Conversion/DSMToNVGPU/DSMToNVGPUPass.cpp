//===- DSMToNVGPUPass.cpp - the --convert-dsm-to-nvgpu pass -----*- C++ -*-===//
//
// Part of the FlashFuser project.
//
//===----------------------------------------------------------------------===//

#include "ff/Conversion/Passes.h"
#include "ff/Dialect/DSM/IR/DSMDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::ff {
#define GEN_PASS_DEF_CONVERTDSMTONVGPU
#include "ff/Conversion/Passes.h.inc"
} // namespace mlir::ff

using namespace mlir;

namespace {
struct ConvertDSMToNVGPUPass
    : public ff::impl::ConvertDSMToNVGPUBase<ConvertDSMToNVGPUPass> {
  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    RewritePatternSet patterns(ctx);
    dsm::populateDSMToNVGPUPatterns(patterns);
    TypeConverter converter;
    converter.addConversion([](Type type) { return type; });
    dsm::populateDSMBarrierToNVVMTypeConversion(converter);
    dsm::populateDSMBarrierToNVVMPatterns(converter, patterns);
    dsm::populateDSMBufferToNVVMTypeConversion(converter);
    dsm::populateDSMBufferToNVVMPatterns(converter, patterns);
    dsm::populateDSMCollectiveToNVVMPatterns(converter, patterns);
    ConversionTarget target(*ctx);
    // Every dsm op must go: one its pattern refuses fails the pass.
    target.addIllegalDialect<dsm::DSMDialect>();
    target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
    if (failed(applyPartialConversion(getOperation(), target,
                                      std::move(patterns)))) {
      signalPassFailure();
      return;
    }
    dsm::replaceDSMSharedClusterMemorySpace(getOperation());
  }
};
} // namespace

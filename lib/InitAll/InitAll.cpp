//===- InitAll.cpp - register FlashFuser dialects and passes ---*- C++ -*-===//
//
// Part of the FlashFuser project.
//
//===----------------------------------------------------------------------===//

#include "ff/InitAll.h"

#include "ff/Dialect/DSM/IR/DSMDialect.h"
#include "ff/Dialect/DSM/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Transforms/Passes.h"

void mlir::ff::registerAllDialects(DialectRegistry &registry) {
  registry.insert<dsm::DSMDialect, arith::ArithDialect,
                  bufferization::BufferizationDialect, func::FuncDialect,
                  gpu::GPUDialect, LLVM::LLVMDialect, linalg::LinalgDialect,
                  math::MathDialect, memref::MemRefDialect,
                  NVVM::NVVMDialect, nvgpu::NVGPUDialect, scf::SCFDialect,
                  tensor::TensorDialect>();
}

void mlir::ff::registerAllPasses() {
  // Upstream passes that users run between ours.
  registerCanonicalizerPass();
  registerCSEPass();
  registerSymbolDCEPass();

  dsm::registerDSMPasses();
}

const char *mlir::ff::getVersion() { return FF_VERSION_STRING; }

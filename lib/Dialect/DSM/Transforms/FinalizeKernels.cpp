//===- FinalizeKernels.cpp - fix the ABI of NVVM kernels --------*- C++ -*-===//
//
// Part of the FlashFuser project.
//
//===----------------------------------------------------------------------===//

#include "ff/Dialect/DSM/IR/DSMOps.h"
#include "ff/Dialect/DSM/Transforms/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::dsm {
#define GEN_PASS_DEF_DSMFINALIZEKERNELS
#include "ff/Dialect/DSM/Transforms/Passes.h.inc"
} // namespace mlir::dsm

using namespace mlir;

namespace {

/// Alignment of the dynamic shared-memory base: a 128B-swizzle atom, which
/// TMA boxes and wgmma descriptors (base_offset = 0) require.
constexpr int64_t kDynamicSmemAlign = 1024;

/// Size of a CUtensorMap.
constexpr int64_t kTensorMapBytes = 128;

struct DSMFinalizeKernelsPass
    : public dsm::impl::DSMFinalizeKernelsBase<DSMFinalizeKernelsPass> {
  void runOnOperation() override;
};

} // namespace

/// Makes `__dynamic_shmem__N` an external, 1024-aligned extern array so that
/// NVPTX emits `.extern .shared .align 1024 .b8 __dynamic_shmem__N[]` that
/// follows (instead of overlapping) the static shared variables.
static LogicalResult fixDynamicSharedMemory(LLVM::GlobalOp global) {
  if (global.getAddrSpace() !=
          static_cast<unsigned>(NVVM::NVVMMemorySpace::Shared) ||
      !global.getSymName().starts_with("__dynamic_shmem__"))
    return success();
  auto array = dyn_cast<LLVM::LLVMArrayType>(global.getGlobalType());
  if (!array || array.getNumElements() != 0)
    return global.emitOpError(
        "dynamic shared memory must be a zero-length array");
  global.setLinkage(LLVM::Linkage::External);
  global.setAlignment(kDynamicSmemAlign);
  return success();
}

/// Turns the tensormap arguments of kernel `func` into byval
/// `__grid_constant__` 128-byte parameters.
static LogicalResult fixTensorMapArgs(LLVM::LLVMFuncOp func) {
  auto args = func->getAttrOfType<DenseI32ArrayAttr>("dsm.tensormap_args");
  if (!args)
    return success();
  MLIRContext *ctx = func.getContext();
  Builder b(ctx);
  auto byvalType = LLVM::LLVMArrayType::get(b.getI64Type(), kTensorMapBytes / 8);
  for (int32_t i : args.asArrayRef()) {
    if (i < 0 || i >= (int32_t)func.getNumArguments() ||
        !isa<LLVM::LLVMPointerType>(func.getArgument(i).getType()))
      return func.emitOpError("dsm.tensormap_args names argument ")
             << i << ", which is not a pointer argument";
    func.setArgAttr(i, LLVM::LLVMDialect::getByValAttrName(),
                    TypeAttr::get(byvalType));
    func.setArgAttr(i, LLVM::LLVMDialect::getAlignAttrName(),
                    b.getI64IntegerAttr(64));
    func.setArgAttr(i, NVVM::NVVMDialect::getGridConstantAttrName(),
                    UnitAttr::get(ctx));
  }
  func->removeAttr("dsm.tensormap_args");
  return success();
}

void DSMFinalizeKernelsPass::runOnOperation() {
  ModuleOp module = getOperation();
  WalkResult result = module.walk([&](gpu::GPUModuleOp gpuModule) {
    for (Operation &op : gpuModule.getBody()->getOperations()) {
      if (auto global = dyn_cast<LLVM::GlobalOp>(op))
        if (failed(fixDynamicSharedMemory(global)))
          return WalkResult::interrupt();
      if (auto func = dyn_cast<LLVM::LLVMFuncOp>(op))
        if (failed(fixTensorMapArgs(func)))
          return WalkResult::interrupt();
      if (isa<gpu::GPUFuncOp>(op)) {
        op.emitOpError("run --dsm-finalize-kernels after convert-gpu-to-nvvm");
        return WalkResult::interrupt();
      }
    }
    return WalkResult::advance();
  });
  if (result.wasInterrupted())
    signalPassFailure();
}

//===- LowerToNVVM.cpp - the --lower-to-nvvm pipeline -----------*- C++ -*-===//
//
// Part of the FlashFuser project.
//
// The upstream gpu-lower-to-nvvm-pipeline, split before gpu-module-to-binary
// so that --dsm-finalize-kernels can fix the kernel ABI (dynamic shared
// memory placement, grid-constant TMA descriptors) in between.
//
//===----------------------------------------------------------------------===//

#include "ff/Pipelines/Pipelines.h"

#include "ff/Conversion/Passes.h"
#include "ff/Dialect/DSM/Transforms/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

void ff::buildLowerToNVVMPipeline(OpPassManager &pm,
                                  const LowerToNVVMOptions &options) {
  // 1. Materialise the cluster programs; 2. lower the dsm ops they use.
  dsm::DSMMaterializeOptions materialize;
  materialize.testOmitBarrier = options.testOmitBarrier;
  materialize.multicastA = options.multicastA;
  materialize.workspaceBulkReduce = options.workspaceBulkReduce;
  materialize.shufflePush = options.shufflePush;
  materialize.reducePush = options.reducePush;
  materialize.lateDStages = options.lateDStages;
  materialize.approxTanh = options.approxTanh;
  materialize.approxDiv = options.approxDiv;
  materialize.selfCleaningMaxKiB = options.selfCleaningMaxKiB;
  materialize.rasterGroupM = options.rasterGroupM;
  materialize.persistentGemm = options.persistentGemm;
  materialize.persistentSolo = options.persistentSolo;
  materialize.snakeRounds = options.snakeRounds;
  materialize.residentWeights = options.residentWeights;
  materialize.warpgroupTiles = options.warpgroupTiles;
  materialize.convHalo = options.convHalo;
  materialize.convHaloGemm = options.convHaloGemm;
  materialize.programmaticLaunch = options.programmaticLaunch;
  materialize.programmaticEntry = options.programmaticEntry;
  materialize.pairedLoadsMinStages = options.pairedLoadsMinStages;
  materialize.weightEvictFirst = options.weightEvictFirst;
  materialize.earlyRelease = options.earlyRelease;
  materialize.fitABox = options.fitABox;
  materialize.zeroStaleA = options.zeroStaleA;
  pm.addPass(dsm::createDSMMaterialize(materialize));
  pm.addPass(ff::createConvertDSMToNVGPU());

  // 3. Upstream NVVM/LLVM conversions (hopper-mlir-notes §2).
  pm.addPass(createConvertNVGPUToNVVMPass());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(createConvertNVVMToLLVMPass());
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  GpuNVVMAttachTargetOptions target;
  target.chip = options.chip;
  target.features = options.features;
  target.optLevel = options.optLevel;
  pm.addPass(createGpuNVVMAttachTarget(target));
  pm.addPass(createLowerAffinePass());
  pm.addPass(createArithToLLVMConversionPass());
  ConvertIndexToLLVMPassOptions index;
  index.indexBitwidth = 64;
  pm.addPass(createConvertIndexToLLVMPass(index));
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  ConvertGpuOpsToNVVMOpsOptions gpuToNVVM;
  gpuToNVVM.indexBitwidth = 64;
  OpPassManager &kernels = pm.nest<gpu::GPUModuleOp>();
  kernels.addPass(createConvertGpuOpsToNVVMOps(gpuToNVVM));
  kernels.addPass(createCanonicalizerPass());
  kernels.addPass(createCSEPass());
  kernels.addPass(createReconcileUnrealizedCastsPass());
  pm.addPass(createGpuToLLVMConversionPass());

  // Kernel ABI fix-up, then PTX/cubin. Bundles are written from PTX.
  pm.addPass(dsm::createDSMFinalizeKernels());
  GpuModuleToBinaryPassOptions binary;
  binary.compilationTarget =
      options.emitBundle.empty() ? options.format.getValue() : "isa";
  pm.addPass(createGpuModuleToBinaryPass(binary));
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  pm.addPass(createReconcileUnrealizedCastsPass());

  // 4. Bundle.
  if (!options.emitBundle.empty()) {
    dsm::DSMEmitBundleOptions bundle;
    bundle.dir = options.emitBundle;
    bundle.format = options.format;
    bundle.chip = options.chip;
    bundle.sourceHash = options.sourceHash;
    pm.addPass(dsm::createDSMEmitBundle(bundle));
  }
}

void ff::registerLowerToNVVMPipeline() {
  PassPipelineRegistration<LowerToNVVMOptions>(
      "lower-to-nvvm",
      "Lower scheduled dsm.fused_chains to Hopper cluster kernels in PTX or "
      "cubin (and optionally a kernel bundle)",
      buildLowerToNVVMPipeline);
}

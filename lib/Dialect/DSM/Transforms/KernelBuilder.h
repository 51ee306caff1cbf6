//===- KernelBuilder.h - build Hopper cluster kernels -----------*- C++ -*-===//
//
// Part of the FlashFuser project.
//
// Builds the gpu.func of one KernelPlan: warp-specialized TMA + wgmma GEMMs,
// register epilogues, the swizzled shared-memory intermediate and the
// cluster / inter-cluster reductions of FFN chains.
//
//===----------------------------------------------------------------------===//

#ifndef FF_LIB_DIALECT_DSM_TRANSFORMS_KERNELBUILDER_H
#define FF_LIB_DIALECT_DSM_TRANSFORMS_KERNELBUILDER_H

#include "ff/Dialect/DSM/Transforms/KernelPlan.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"

namespace mlir::dsm {

/// One kernel parameter, in ABI order (docs/lowering.md, docs/bundle.md).
struct KernelParam {
  enum class Kind { TensorMap, Ptr, Workspace, I64 };
  Kind kind;
  /// Chain input index (TensorMap) or -1.
  int input = -1;
  /// TMA box, innermost first (TensorMap); for an im2col map
  /// {channels per pixel, pixels}.
  SmallVector<int64_t, 4> box;
  /// TensorMap in im2col mode over an NHWC image: the pixel box of a 3x3,
  /// pad 1 convolution (corners -1, -1 in W and H).
  bool im2col = false;
  /// The runtime clamps the box's outer extent to the launch's M
  /// (manifest box_fits_m; KernelPlan::fitABox with a dynamic M).
  bool boxFitsM = false;
  /// A's map for the last m tile (KernelPlan::tailABox); with boxTailM the
  /// runtime sets its box's outer extent to the launch's last tile's rows
  /// (manifest box_tail_m).
  bool aTail = false;
  bool boxTailM = false;
};

/// The parameters of the kernel of `plan`, in order.
SmallVector<KernelParam> getKernelParams(const KernelPlan &plan);

/// Creates the kernel `name` of `plan` at the end of `module`.
gpu::GPUFuncOp buildKernel(OpBuilder &builder, Location loc,
                           gpu::GPUModuleOp module, StringRef name,
                           const KernelPlan &plan);

} // namespace mlir::dsm

#endif // FF_LIB_DIALECT_DSM_TRANSFORMS_KERNELBUILDER_H

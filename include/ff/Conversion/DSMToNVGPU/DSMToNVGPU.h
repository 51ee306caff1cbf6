//===- DSMToNVGPU.h - dsm to nvgpu/nvvm patterns ----------------*- C++ -*-===//
//
// Part of the FlashFuser project.
//
//===----------------------------------------------------------------------===//

#ifndef FF_CONVERSION_DSMTONVGPU_DSMTONVGPU_H
#define FF_CONVERSION_DSMTONVGPU_DSMTONVGPU_H

namespace mlir {
class RewritePatternSet;

namespace dsm {

/// dsm.cluster_rank / dsm.cluster_shape -> NVVM special registers.
void populateDSMClusterIdentityToNVVMPatterns(RewritePatternSet &patterns);

/// dsm.cluster_arrive / dsm.cluster_wait -> barrier.cluster.
void populateDSMSynchronizationToNVVMPatterns(RewritePatternSet &patterns);

/// All of the above.
void populateDSMToNVGPUPatterns(RewritePatternSet &patterns);

} // namespace dsm
} // namespace mlir

#endif // FF_CONVERSION_DSMTONVGPU_DSMTONVGPU_H

//===- DSMToNVGPU.h - dsm to nvgpu/nvvm patterns ----------------*- C++ -*-===//
//
// Part of the FlashFuser project.
//
//===----------------------------------------------------------------------===//

#ifndef FF_CONVERSION_DSMTONVGPU_DSMTONVGPU_H
#define FF_CONVERSION_DSMTONVGPU_DSMTONVGPU_H

namespace mlir {
class RewritePatternSet;
class TypeConverter;

namespace dsm {

/// dsm.cluster_rank / dsm.cluster_shape -> NVVM special registers.
void populateDSMClusterIdentityToNVVMPatterns(RewritePatternSet &patterns);

/// dsm.cluster_arrive / dsm.cluster_wait -> barrier.cluster.
void populateDSMSynchronizationToNVVMPatterns(RewritePatternSet &patterns);

/// !dsm.barrier -> !llvm.ptr<3> (an mbarrier in static shared memory).
void populateDSMBarrierToNVVMTypeConversion(TypeConverter &converter);

/// dsm.barrier_create / expect_tx / signal / wait -> nvvm.mbarrier.*;
/// needs the type conversion above.
void populateDSMBarrierToNVVMPatterns(const TypeConverter &converter,
                                      RewritePatternSet &patterns);

/// The identity and cluster-barrier patterns (no type conversion).
void populateDSMToNVGPUPatterns(RewritePatternSet &patterns);

} // namespace dsm
} // namespace mlir

#endif // FF_CONVERSION_DSMTONVGPU_DSMTONVGPU_H

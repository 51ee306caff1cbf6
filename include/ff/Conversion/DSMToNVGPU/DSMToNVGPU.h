//===- DSMToNVGPU.h - dsm to nvgpu/nvvm patterns ----------------*- C++ -*-===//
//
// Part of the FlashFuser project.
//
//===----------------------------------------------------------------------===//

#ifndef FF_CONVERSION_DSMTONVGPU_DSMTONVGPU_H
#define FF_CONVERSION_DSMTONVGPU_DSMTONVGPU_H

namespace mlir {
class Operation;
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

/// !dsm.buffer -> !llvm.ptr<3> (this rank's piece in shared memory).
void populateDSMBufferToNVVMTypeConversion(TypeConverter &converter);

/// dsm.alloc (dynamic shared memory at its offset, or a static array),
/// dsm.local_view / dsm.remote_view (mapa) -> memref descriptors; needs the
/// buffer type conversion. Remote views keep #dsm.shared_cluster until
/// replaceDSMSharedClusterMemorySpace() runs.
void populateDSMBufferToNVVMPatterns(const TypeConverter &converter,
                                     RewritePatternSet &patterns);

/// dsm.reduce / dsm.shuffle / dsm.multiply -> pull exchanges over mapa +
/// ld.shared::cluster between two cluster barriers; dsm.inter_cluster_reduce
/// -> fp32 vector red.global (or stores) inside the destination's bounds;
/// needs the buffer type conversion.
void populateDSMCollectiveToNVVMPatterns(const TypeConverter &converter,
                                         RewritePatternSet &patterns);

/// Rewrites the #dsm.shared_cluster memory space to NVVM's shared::cluster
/// address space (7) in every type and attribute under `root`.
void replaceDSMSharedClusterMemorySpace(Operation *root);

/// The identity and cluster-barrier patterns (no type conversion).
void populateDSMToNVGPUPatterns(RewritePatternSet &patterns);

} // namespace dsm
} // namespace mlir

#endif // FF_CONVERSION_DSMTONVGPU_DSMTONVGPU_H

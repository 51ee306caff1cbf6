//===- Passes.td - FlashFuser conversion passes ------------*- tablegen -*-===//
//
// Part of the FlashFuser project.
//
//===----------------------------------------------------------------------===//

#ifndef FF_CONVERSION_PASSES_TD
#define FF_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertDSMToNVGPU : Pass<"convert-dsm-to-nvgpu"> {
  let summary = "Lower dsm cluster ops inside kernels to nvgpu and nvvm";
  let description = [{
    Rewrites the dsm ops that `--dsm-materialize` leaves in kernel bodies,
    one pattern set per op family:

    - cluster identity: `dsm.cluster_rank` -> `%cluster_ctarank`,
      `dsm.cluster_shape` -> `%cluster_nctaid.{x,y,z}`;
    - synchronisation: `dsm.cluster_arrive [relaxed]` ->
      `barrier.cluster.arrive[.relaxed]`, `dsm.cluster_wait` ->
      `barrier.cluster.wait`;
    - transaction barriers: `!dsm.barrier` -> `!llvm.ptr<3>` of a static
      shared mbarrier; `dsm.barrier_create` (CTA-collective: thread 0 inits,
      then `bar.sync`), `dsm.expect_tx` -> `mbarrier.arrive.expect_tx`,
      `dsm.signal` -> `mapa` + remote `mbarrier.arrive` (`.release.cta`),
      `dsm.wait` -> `mbarrier.try_wait.parity` loop;
    - cluster buffers: `!dsm.buffer` -> `!llvm.ptr<3>` of this rank's piece;
      `dsm.alloc at OFFSET` -> dynamic shared memory + offset, `dsm.alloc`
      -> a static shared array; `dsm.local_view` / `dsm.remote_view`
      (`mapa`) -> contiguous memref descriptors (`#dsm.shared_cluster`
      becomes address space 7 afterwards);
    - collectives: `dsm.reduce` (all_reduce, reduce_scatter), `dsm.shuffle`
      (all-gather) and `dsm.multiply` -> pull exchanges: cluster barrier,
      vector loads of the group's sources through `mapa` +
      `ld.shared::cluster` in rank order, combine, local store, cluster
      barrier; `dsm.inter_cluster_reduce` -> fp32 vector
      `red.relaxed.gpu.global.add` (plain stores with `deterministic`)
      inside the destination's bounds.

    A dsm op a pattern cannot lower is an error (the whole dialect is
    illegal): leaving it would produce wrong code later.

    Example:

    ```mlir
    %r = dsm.cluster_rank : index
    // becomes
    %0 = nvvm.read.ptx.sreg.cluster.ctarank : i32
    %r = arith.index_castui %0 : i32 to index
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::gpu::GPUDialect",
                           "::mlir::LLVM::LLVMDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::NVVM::NVVMDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::nvgpu::NVGPUDialect"];
}

#endif // FF_CONVERSION_PASSES_TD

//===- Passes.td - dsm dialect passes ----------------------*- tablegen -*-===//
//
// Part of the FlashFuser project.
//
// Keep alphabetical. Test files are named after the pass flag.
//
//===----------------------------------------------------------------------===//

#ifndef FF_DIALECT_DSM_TRANSFORMS_PASSES_TD
#define FF_DIALECT_DSM_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"


def DSMEmitBundle : Pass<"dsm-emit-bundle", "ModuleOp"> {
  let summary = "Write the kernels and manifest.json of a lowered module";
  let description = [{
    Reads the `gpu.binary` ops (PTX, i.e. `gpu-module-to-binary{format=isa}`)
    and the `dsm.bundles` module attribute recorded by `--dsm-materialize`,
    and writes one FlashFuser bundle (docs/bundle.md) per fused chain into
    `dir` (or `dir/<chain>` when the module holds several): `<kernel>.ptx`,
    `<kernel>.cubin` with `format=bin` (assembled by ptxas), and
    `manifest.json`. The IR is left unchanged. Fails when a kernel has no
    PTX binary.

    Example: `ff-opt k.mlir --lower-to-nvvm --dsm-emit-bundle=dir=out/ffn`
  }];
  let options = [
    Option<"dir", "dir", "std::string", "\"\"", "Bundle output directory">,
    Option<"format", "format", "std::string", "\"isa\"",
           "isa: PTX only; bin: also assemble each PTX into a cubin">,
    Option<"chip", "chip", "std::string", "\"sm_90a\"", "Target chip">,
    Option<"ptxas", "ptxas", "std::string", "\"\"",
           "ptxas to run for format=bin (default: PATH, $CUDA_HOME/bin, "
           "/usr/local/cuda/bin)">,
  ];
}

def DSMFinalizeKernels : Pass<"dsm-finalize-kernels", "ModuleOp"> {
  let summary = "Fix the kernel ABI of NVVM-lowered gpu.modules";
  let description = [{
    Runs on `gpu.module`s after `convert-gpu-to-nvvm` and before
    `gpu-module-to-binary`, and works around two MLIR 22 limitations:

    - `gpu.dynamic_shared_memory` lowers to an `internal` zero-length global
      that NVPTX emits as a 1-byte *static* `.shared` variable overlapping the
      static barriers. The global is made `external` with 1024-byte alignment
      (`.extern .shared .align 1024 .b8 __dynamic_shmem__0[]`), which 128B
      swizzled TMA/wgmma tiles require.
    - TMA descriptors cannot be `gpu.func` arguments of nvgpu type, and
      `nvvm.grid_constant` is rejected on `gpu.func`. Kernel arguments listed
      in the `dsm.tensormap_args` attribute of the kernel's `llvm.func`
      become byval `__grid_constant__` 128-byte parameters.

    Example: `ff-opt k.llvm.mlir --dsm-finalize-kernels`
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect", "::mlir::NVVM::NVVMDialect"];
}

def DSMMaterialize : Pass<"dsm-materialize", "ModuleOp"> {
  let summary = "Materialise scheduled fused chains as Hopper cluster kernels";
  let description = [{
    Turns every `dsm.fused_chain` carrying a `#dsm.schedule` (or
    `#dsm.schedule_table`, one kernel per plan) into
    - a `gpu.func` kernel in a `gpu.module @dsm_kernels`: one TMA producer
      warpgroup and `blk_m / 64` wgmma consumer warpgroups, an `S`-stage
      mbarrier pipeline, the chain's elementwise epilogues cloned into
      registers, the intermediate stored in 128B-swizzled shared memory for
      the next GEMM, and the cluster reduce-scatter / inter-cluster reduce
      the schedule names; `known_block_size` and `known_cluster_size` are set;
    - a host `func.func @<kernel>_launch` holding the `gpu.launch_func`
      with the cluster shape, taking the kernel ABI as arguments;
    - an entry of the `dsm.kernels` module attribute (the manifest data).

    The tensor-level functions that held the chains are erased: the runtime
    drives the kernels through the bundle. Chains without a schedule are an
    error (`--dsm-search` writes it); schedules outside the supported kernel
    family get a diagnostic.

    Example: `ff-opt ffn.mlir --dsm-search --dsm-materialize`
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::func::FuncDialect",
    "::mlir::gpu::GPUDialect", "::mlir::LLVM::LLVMDialect",
    "::mlir::math::MathDialect", "::mlir::memref::MemRefDialect",
    "::mlir::NVVM::NVVMDialect", "::mlir::nvgpu::NVGPUDialect",
    "::mlir::scf::SCFDialect"];
}

#endif // FF_DIALECT_DSM_TRANSFORMS_PASSES_TD

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
    Option<"sourceHash", "source-hash", "std::string", "\"\"",
           "The caller's SHA-256 of its source text, recorded as the "
           "manifest's source_hash (default: the hash of the module as "
           "--dsm-materialize saw it)">,
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

def DSMFuseGemmChains : Pass<"dsm-fuse"> {
  let summary = "Group GEMM chains in linalg into dsm.fused_chain regions";
  let description = [{
    Finds chains of contractions in linalg on tensors (linalg.matmul in all
    its indexing-map forms, linalg.batch_matmul, contraction linalg.generic
    ops, linalg.conv_2d_nhwc_hwcf and linalg.conv_2d_nhwc_fhwc) connected
    through elementwise ops and reshapes of the rows (torch-mlir's
    [B, S, H] <-> [B*S, H]), and moves
    each legal chain into one `dsm.fused_chain` region:

    - `ffn`: C = A·B, elementwise ops (activation, bias, casts), E = C'·D;
    - `gated_ffn`: two GEMMs sharing their input, an activation on the gate,
      an elementwise product, then the down GEMM (body order: gate, up,
      down);
    - conv chains (1×1 then 1×1, or k×k then 1×1) are rewritten inside the
      body as matmuls on [N·H·W, C] (collapse_shape or an im2col generic),
      with the elementwise ops between them collapsed to 2-D (bodies with
      row reshapes are flattened the same way), so that every body is a
      chain of matmuls;
    - `gemm` (only with `fuse-single-gemms`): one GEMM and its epilogue;
    - `gated_gemm` (only with `fuse-single-gemms`): two GEMMs in no chain
      sharing their LHS and shape whose results meet first in an
      elementwise product, act(x wg) * (x wu), with the links between and
      the epilogue.

    Elementwise epilogue ops (bias, residual, activation, casts) that are
    the only user of the chain's result are pulled in, one after the other.
    A chain is legal when its intermediates are used only inside it (the
    region yields only the final result), its GEMMs take f16/bf16 operands
    (f32, int8 and f64 are left alone), N and K are static (M may be
    dynamic), at least `min-dim` and multiples of 8. Chains of three or more GEMMs are cut into consecutive
    pairs of kind `ffn` (the lowering supports two GEMMs plus the gated
    form); the GEMM left over gets a remark. With `report`, every GEMM left
    alone gets a remark that says why. Running the pass twice changes
    nothing. See docs/fuse.md.

    Example:

    ```mlir
    %c = linalg.matmul ins(%a, %b : tensor<128x512xbf16>, tensor<512x2048xbf16>)
                       outs(%zero : tensor<128x2048xf32>) -> tensor<128x2048xf32>
    %r = linalg.generic {relu, truncf} ins(%c) ... -> tensor<128x2048xbf16>
    %e = linalg.matmul ins(%r, %d : ...) outs(%zero2 : ...) -> tensor<128x512xf32>
    ```

    becomes

    ```mlir
    %e = dsm.fused_chain ffn(%a, %b, %d) : (...) -> tensor<128x512xf32> {
    ^bb0(%x: ..., %w1: ..., %w2: ...):
      ... the three ops above, on the block arguments ...
      dsm.yield %e2 : tensor<128x512xf32>
    }
    ```
  }];
  let dependentDialects = [
    "::mlir::dsm::DSMDialect", "::mlir::arith::ArithDialect",
    "::mlir::linalg::LinalgDialect", "::mlir::tensor::TensorDialect"
  ];
  let options = [
    Option<"report", "report", "bool", /*default=*/"false",
           "Emit a remark on every GEMM that is not fused, saying why">,
    Option<"fuseSingleGemms", "fuse-single-gemms", "bool", /*default=*/"false",
           "Wrap legal GEMMs that are in no chain as kind gemm (a lone "
           "gated pair as gated_gemm)">,
    Option<"minDim", "min-dim", "int64_t", /*default=*/"16",
           "Smallest N, K and L worth fusing">,
  ];
}

def DSMMaterialize : Pass<"dsm-materialize", "ModuleOp"> {
  let summary = "Materialise scheduled fused chains as Hopper cluster kernels";
  let description = [{
    Turns every `dsm.fused_chain` carrying a `#dsm.schedule` (or
    `#dsm.schedule_table`, one kernel per plan) into
    - a `gpu.func` kernel in its own `gpu.module @<kernel>_module`: one TMA
      producer warpgroup and `blk_m / 64` wgmma consumer warpgroups, an
      `S`-stage mbarrier pipeline, the chain's elementwise epilogues cloned
      into registers, the intermediate stored in 128B-swizzled shared memory
      for the next GEMM, and the collectives the schedule names as dsm ops
      (`dsm.alloc at` cluster buffers, `dsm.reduce reduce_scatter`,
      `dsm.inter_cluster_reduce`; `--convert-dsm-to-nvgpu` lowers them);
      `known_block_size` and `known_cluster_size` are set;
    - a host `func.func @<kernel>_launch` holding the `gpu.launch_func`
      with the cluster shape, taking the kernel ABI as arguments;
    - an entry of the `dsm.bundles` module attribute (the manifest data).

    The tensor-level functions that held the chains are erased: the runtime
    drives the kernels through the bundle. Chains without a schedule are an
    error (`--dsm-search` writes it); schedules outside the supported kernel
    family get a diagnostic.

    Example: `ff-opt ffn.mlir --dsm-search --dsm-materialize`
  }];
  let options = [
    Option<"testOmitBarrier", "test-omit-barrier", "bool", "false",
           "Testing only: build a kernel with a known shared-memory race "
           "(the workspace finisher's flag barrier is dropped) to prove that "
           "compute-sanitizer racecheck catches it">,
    Option<"multicastA", "multicast-a", "bool", "false",
           "FFN clusters along n share their A tile by TMA multicast (each "
           "CTA loads blk_m/cls_n rows into every CTA; stages are released "
           "in every CTA) where blk_m/cls_n is a multiple of 8 and A is not "
           "a 3x3 convolution; GEMM clusters always multicast">,
    Option<"workspaceBulkReduce", "workspace-bulk-reduce", "bool", "true",
           "Shuffle-family plans with an atomic workspace stage each "
           "sub-tile's rows in shared memory and add them into the workspace "
           "with cp.reduce.async.bulk (the TMA unit) instead of red.global "
           "from registers, where the rows fit over the act(C) slice and the "
           "plan is of a shape this measured faster on (blk_m = 128, and 64+ "
           "staged columns or blk_l >= 2048); false: always red.global">,
    Option<"shufflePush", "shuffle-push", "bool", "true",
           "Shuffle-family plans gather the act(C) slices by an in-place "
           "push (each rank stores act(C) into its slot, one thread copies "
           "it to every peer with cp.async.bulk onto the peer's mbarrier; one "
           "cluster barrier, arrived at right after the main loop, or with "
           "split K after the slot is written); false: a pull "
           "(ld.shared::cluster between two cluster barriers). The push "
           "measured faster on 23 of 31 shuffle workloads on an H200 (up to "
           "13 %; geomean -2.3 %), at most 4.3 % slower (S8), and on both "
           "split-K defaults on an H100 (C7-b1 1.08x)">,
    Option<"reducePush", "reduce-push", "bool", "true",
           "The cluster reduce-scatter (split-K GEMMs, FFN E chunks with "
           "cls_n > 1) pushes each peer's slice into a scratch slot of that "
           "peer by st.async onto its mbarrier (one cluster barrier; the "
           "sum in rank order, as the pull's) where the scratch fits in "
           "shared memory; false: a pull (ld.shared::cluster between two "
           "cluster barriers)">,
    Option<"approxTanh", "approx-tanh", "bool", "true",
           "Epilogues compute math.tanh on f32 (GELU's tanh form) with "
           "tanh.approx.f32 (relative error at most 2^-11, below the bf16 "
           "rounding of act(C)) instead of the exact expansion through "
           "ex2/rcp, a quarter of its ALU instructions">,
    Option<"approxDiv", "approx-div", "bool", "true",
           "Epilogues divide f32 values (silu's g / (1 + e^-g)) with "
           "div.approx.f32 (2 ulp, then rounded to bf16; a denominator past "
           "2^126 gives 0) instead of div.rn.f32, whose fast path checks "
           "its operands and branches to a slow one (H200: S1-S8 at M = 128 "
           "1.01-1.10x faster but S2 0.95x, dynamic S chains 1.02-1.10x)">,
    Option<"lateDStages", "late-d-stages", "bool", "true",
           "Shuffle-family plans whose D ring gets only two stages beside a "
           "full main-loop ring take up to two more over the main-loop ring, "
           "past the act(C) regions, once the exchange's cluster barrier has "
           "passed (false: two stages)">,
    Option<"rasterGroupM", "raster-group-m", "int64_t", "16",
           "GEMM kernels: consecutive clusters cover groups of this many m "
           "tiles, m fastest (L2 reuse of B across a wave); 0 or 1: "
           "n fastest. 16 measured best on an H100 (4096^3 -3.5 %, "
           "8192^3 -6 % against n fastest)">,
    Option<"persistentGemm", "persistent-gemm", "bool", "true",
           "GEMM kernels are persistent: each CTA computes tiles in a loop "
           "(the tiles a one-tile-per-CTA grid would give it and every "
           "grid-stride after) and the manifest marks the kernel "
           "`persistent`, so the runtime launches only the CTAs that fit at "
           "once; a tile's epilogue then overlaps the next tile's loads">,
    Option<"snakeRounds", "snake-rounds", "bool", "true",
           "Persistent gated GEMM kernels whose last m tile may be partial "
           "take the tiles of every other round (one tile per cluster "
           "slot) in reverse slot order while one raster group holds every "
           "m tile, so that a slot count that is a multiple of the m tiles "
           "does not give the same slots the partial tile round after round "
           "(KernelPlan::canSnakeRounds; dynamic S chains 1.04-1.18x faster "
           "at such M on an H200)">,
    Option<"persistentSolo", "persistent-solo", "bool", "true",
           "FFN kernels whose CTA runs its m tile's whole chain alone (a "
           "cluster of one, grid n = 1: solo or streamed n) that the cost "
           "model prices persistent "
           "(ff::runsPersistent: one CTA per SM, one to eight waves of "
           "tiles on the module's dsm.target) loop over tiles like GEMM "
           "kernels: the producer loads the next tile's operands while the "
           "consumers run the last l chunks and store E">,
    Option<"residentWeights", "resident-weights", "bool", "true",
           "Persistent solo FFN kernels whose B and D fit beside the A ring "
           "(ff::keepsWeightsResident) load them into shared memory once per "
           "CTA; only A streams per m tile">,
    Option<"warpgroupTiles", "warpgroup-tiles", "bool", "false",
           "Resident-weights kernels with two consumer warpgroups give each "
           "warpgroup its own m tiles (half the CTA's rows), its own A ring "
           "barriers and producer warp: the warpgroups drift apart, so one's "
           "act(C) and E store overlap the other's GEMMs">,
    Option<"convHalo", "conv-halo", "bool", "true",
           "Resident-weights 3x3 convolutions of two image rows per tile "
           "(ff::getConvHaloStages) run warpgroup tiles of one row each, "
           "load the row's halo (three input rows, padding zero-filled) "
           "once per 64 channels and read the nine taps as shifted windows "
           "of it, instead of nine shifted boxes">,
    Option<"convHaloGemm", "conv-halo-gemm", "bool", "true",
           "Single-GEMM 3x3 convolutions whose row groups fill a warpgroup's "
           "64 rows (ff::getHaloGemmRows) load each consumer warpgroup's "
           "input halo once per 64 channels, the nine taps shifted windows "
           "of it, and stream B per filter row through a second ring; false: "
           "nine shifted boxes (the cost model still prices the halo)">,
    Option<"programmaticLaunch", "programmatic-launch", "bool", "true",
           "Kernel sequences use programmatic dependent launch: the first "
           "kernel lets the second launch while it runs "
           "(griddepcontrol.launch_dependents at entry); the second waits "
           "for it after its barrier setup (griddepcontrol.wait), first "
           "prefetching its weight's first tiles into L2 where the weight "
           "has 16 MiB or more, and where its grid fits one CTA per SM of "
           "the module's dsm.target its shared memory is raised past half "
           "an SM so that no two of its CTAs share one; the manifest marks "
           "it `programmatic_launch`, so the runtime launches it with "
           "programmatic stream serialization">,
    Option<"programmaticEntry", "programmatic-entry", "bool", "true",
           "Every kernel lets its dependents launch at entry "
           "(griddepcontrol.launch_dependents), and a call's first kernel "
           "also waits for its stream predecessor after its barrier setup "
           "(griddepcontrol.wait; where its grid fits one CTA per SM its "
           "shared memory is raised past half an SM) and is marked "
           "`programmatic_launch`, unless its weights have 16 MiB or more "
           "(a bandwidth-bound stream, slowed by starting early on the SMs "
           "its predecessor leaves free): back-to-back calls, and a call "
           "after any kernel that releases its dependents, overlap the next "
           "call's launch and setup with the previous one's tail">,
    Option<"pairedLoadsMinStages", "paired-loads-min-stages", "int64_t", "0",
           "Kernels with a K-major B (PyTorch Linear weights) and a ring of "
           "at least this many stages (3 or more; 0: none) load two ring "
           "steps at a time once both "
           "slots are free, B box by B box with a box's two k tiles back to "
           "back, so that each weight row is requested 256 contiguous bytes "
           "at a time instead of 128 (KernelPlan::pairedLoads)">,
    Option<"weightEvictFirst", "weight-evict-first", "bool", "true",
           "Kernels with one m tile for any M (every weight byte read once, "
           "by one CTA) load B with an L2 evict-first cache policy where "
           "the call's weights exceed the L2 of the module's dsm.target "
           "(they cannot stay resident between calls anyway), so that the "
           "weight stream does not push what is read again (A, the "
           "intermediate) out of L2 (KernelPlan::evictFirstWeights)">,
    Option<"earlyRelease", "early-release", "bool", "true",
           "Kernels with one m tile for any M (weight streams) wait for each "
           "k step's wgmmas and release its ring stage at once, instead of "
           "releasing stage k - 1 after issuing step k: one more stage in "
           "flight, no wgmma overlap across steps "
           "(KernelPlan::earlyRelease)">,
    Option<"fitABox", "fit-a-box", "bool", "true",
           "Kernels with one m tile for any M whose M can be smaller than "
           "the tile load A's box with only M rows (a dynamic M: the "
           "runtime clamps the box to the launch's M, manifest "
           "box_fits_m), and kernels with several load their last tile "
           "through a second map of A with only that tile's rows "
           "(manifest box_tail_m for a dynamic M), instead of letting TMA "
           "zero-fill the rest, which is slow (KernelPlan::fitABox, "
           "tailABox)">,
    Option<"zeroStaleA", "zero-stale-a", "bool", "true",
           "Kernels whose A box is fitted to M, or whose last m tile "
           "loads through a tail map, zero A's ring once before the first "
           "load, so that the rows no load writes (read by the wgmmas into "
           "accumulator rows >= M) hold zeros rather than whatever an "
           "earlier kernel left (KernelPlan::zeroStaleA)">,
    Option<"selfCleaningMaxKiB", "self-cleaning-workspace-max-kib",
           "int64_t", "400",
           "Atomic inter-cluster workspaces of at most this many KiB (at the "
           "kernel's largest M) are left all-zero by the kernel: each "
           "finisher clears the sums it reads and resets its counter, so "
           "the runtime clears them only when it allocates them instead of "
           "before every launch (manifest self_cleaning). Measured on an "
           "H100: faster up to ~0.4 MiB, slower above (the finishers' tail "
           "grows), so 400 (the default) is the measured choice; the kernels "
           "it selects are compute-sanitizer clean. 0 disables it">
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::func::FuncDialect",
    "::mlir::gpu::GPUDialect", "::mlir::LLVM::LLVMDialect",
    "::mlir::math::MathDialect", "::mlir::memref::MemRefDialect",
    "::mlir::NVVM::NVVMDialect", "::mlir::nvgpu::NVGPUDialect",
    "::mlir::scf::SCFDialect", "::mlir::vector::VectorDialect"];
}

def DSMSearch : Pass<"dsm-search", "ModuleOp"> {
  let summary = "Choose the execution plan of every fused GEMM chain";
  let description = [{
    FlashFuser's search engine (Algorithm 2 without on-device profiling):
    for every `dsm.fused_chain` it enumerates the plan space (the 41 loop
    schedules of Table IV, cluster shapes over {1, 2, 4, 8, 16}^4 plus
    shuffle groups cls_n = cls_l of 3, 6 or 12, wgmma
    block tiles, grid splits, pipeline depth), prunes it with the paper's
    five rules plus register and cluster-occupancy limits, runs the dataflow
    analyzer and the cost model of docs/cost-model.md on every survivor and
    records the best plan as `schedule`: a `#dsm.schedule` for static M, a
    `#dsm.schedule_table` over M bins for dynamic M. The module gets the
    `#dsm.target` the model used as `dsm.target`. This pass is the only
    writer of `schedule`.

    With `lowerable-only` (the default) the chosen plan is the best one the
    lowering can carry out (ff::isLowerable); the whole space is still
    ranked, reported by `top-k` remarks and written by `dump`.

    Example: `ff-opt --dsm-search="target=h100-sxm top-k=3" in.mlir` turns

    ```mlir
    %e = dsm.fused_chain ffn (%a, %b, %d) : (...) -> tensor<128x4096xbf16> {...}
    ```

    into

    ```mlir
    module attributes {dsm.target = #dsm.target<name = "h100-sxm", ...>} {
      %e = dsm.fused_chain ffn (%a, %b, %d) {schedule = #dsm.schedule<
          cluster = [1, 2, 1, 1], block = [64, 256, 64, 64],
          grid = [2, 32, 1, 1], order = [m, n, k, l], spatial = [m, n],
          residency = [smem], collectives = [reduce_scatter,
          inter_cluster_reduce], stages = 2, cost_ns = 94909>} ...
    ```
  }];
  let dependentDialects = ["::mlir::dsm::DSMDialect"];
  let options = [
    Option<"targetName", "target", "std::string", "\"h100-sxm\"",
           "GPU of the cost model: h100-sxm, h100-pcie, h200, h800">,
    Option<"calibration", "calibration", "std::string", "\"\"",
           "JSON file of measured DSM bandwidth/latency per cluster size">,
    Option<"topK", "top-k", "unsigned", "0",
           "Report the best N candidates of each chain as remarks">,
    Option<"dumpFile", "dump", "std::string", "\"\"",
           "Write the ranked candidates of every chain to this JSON file">,
    Option<"lowerableOnly", "lowerable-only", "bool", "true",
           "Choose only plans the lowering can carry out">,
    Option<"deterministic", "deterministic", "bool", "false",
           "Bitwise-reproducible results: mark every plan deterministic "
           "(inter-cluster reductions through per-cluster workspace planes "
           "summed in cluster order, costed, instead of fp32 atomics); a "
           "chain with no lowerable plan is an error">,
    Option<"rank", "rank", "unsigned", "0",
           "Record the candidate of this rank instead of the best (0); for "
           "measuring the model's ranking on a GPU (static M only)">,
    Option<"wideGemmTiles", "wide-gemm-tiles", "bool", "true",
           "Single GEMMs: also rank 64- and 128-wide tiles over all of K at "
           "up to 8 stages (false: 128 x 256 tiles and split K only, the "
           "family before the twenty-seventh session)">,
    Option<"waveTiles", "wave-tiles", "bool", "true",
           "Single GEMMs on K-major ([N, K]) weights: also rank the "
           "narrowest n tiles that fill one wave of the GPU (8-column "
           "steps) or two (16-column steps), 64 columns up for a plain "
           "GEMM (false: a gated GEMM's 64, 128 and 192 only, a plain "
           "GEMM's 64, 128 and 256, the family before the forty-second "
           "and forty-seventh sessions)">,
    Option<"swapOperands", "swap-operands", "bool", "true",
           "Single and gated GEMMs (and sequence halves) of static M on "
           "K-major weights: also rank the transposed product, the weights "
           "as wgmma's m and the M rows as its n in tiles of any multiple "
           "of 8 (swap_ab)">,
    Option<"family", "family", "::mlir::ff::KernelFamily",
           "::mlir::ff::KernelFamily::any",
           "Restrict the lowerable plans of two-GEMM chains to one kernel "
           "family (for side-by-side measurements); the full-space ranking "
           "is unchanged",
           [{::llvm::cl::values(
             clEnumValN(::mlir::ff::KernelFamily::any, "any",
                        "every family"),
             clEnumValN(::mlir::ff::KernelFamily::reduceScatter,
                        "reduce-scatter",
                        "clusters along n, E reduce-scattered over DSM"),
             clEnumValN(::mlir::ff::KernelFamily::shuffle, "shuffle",
                        "clusters along n and l, act(C) gathered over DSM"),
             clEnumValN(::mlir::ff::KernelFamily::streamed, "streamed",
                        "n temporal: one CTA per m tile walks the n tiles, "
                        "E in registers"))}]>,
    Option<"sequences", "sequences", "bool", "true",
           "Also price a plain FFN chain as two single-GEMM kernels (act(A "
           "B) into an intermediate, then C D) and record them in the "
           "chain's `sequence` attribute where the model puts them below "
           "the best fused plan (per M bin for a dynamic M; not with rank, "
           "family or deterministic)">
  ];
}

#endif // FF_DIALECT_DSM_TRANSFORMS_PASSES_TD

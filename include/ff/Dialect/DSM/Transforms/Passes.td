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

def DSMFuseGemmChains : Pass<"dsm-fuse"> {
  let summary = "Group GEMM chains in linalg into dsm.fused_chain regions";
  let description = [{
    Finds chains of contractions in linalg on tensors (linalg.matmul in all
    its indexing-map forms, linalg.batch_matmul, contraction linalg.generic
    ops, and linalg.conv_2d_nhwc_hwcf) connected through elementwise ops and
    reshapes of the rows (torch-mlir's [B, S, H] <-> [B*S, H]), and moves
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
    - `gemm` (only with `fuse-single-gemms`): one GEMM and its epilogue.

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
           "Wrap legal GEMMs that are in no chain as kind gemm">,
    Option<"minDim", "min-dim", "int64_t", /*default=*/"16",
           "Smallest N, K and L worth fusing">,
  ];
}

def DSMSearch : Pass<"dsm-search", "ModuleOp"> {
  let summary = "Choose the execution plan of every fused GEMM chain";
  let description = [{
    FlashFuser's search engine (Algorithm 2 without on-device profiling):
    for every `dsm.fused_chain` it enumerates the plan space (the 41 loop
    schedules of Table IV, cluster shapes over {1, 2, 4, 8, 16}^4, wgmma
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
           "Choose only plans the lowering can carry out">
  ];
}

#endif // FF_DIALECT_DSM_TRANSFORMS_PASSES_TD

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

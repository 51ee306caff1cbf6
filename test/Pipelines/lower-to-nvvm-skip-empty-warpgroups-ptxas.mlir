// REQUIRES: ptxas
// A GEMM kernel of 128-row tiles at M = 48 whose second consumer
// warpgroup skips its wgmmas (dsm-materialize-skip-empty-warpgroups.mlir)
// assembles without serialised wgmmas (ptxas's C7520: a branch around
// each step's wgmmas caused it) and without spills.
// RUN: rm -rf %t && ff-opt %s --lower-to-nvvm="emit-bundle=%t format=bin" -o /dev/null
// RUN: %ptxas -arch=sm_90a -O3 -v %t/gemm_48_0.ptx -o %t/g.cubin 2>&1 | FileCheck %s
// CHECK-NOT: C7520
// CHECK: 0 bytes spill stores, 0 bytes spill loads
// CHECK-NOT: C7520

module attributes {dsm.target = #dsm.target<name = "h100-sxm", chip = "sm_90a", sms = 132, smem_per_sm = 233472, smem_per_block = 232448, regs_per_sm = 65536, max_cluster = 8, max_cluster_nonportable = 16, clock_mhz = 1830, hbm_gbps = 3350, l2_bytes = 52428800, dsm_gbps = [3300, 3100, 3000, 2900], dsm_latency = [190, 200, 240, 280], tflops_bf16 = 989, tflops_f16 = 989, tflops_f32 = 494>} {
  func.func @gemm_48(%a: tensor<48x512xbf16>, %b: tensor<512x1024xbf16>) -> tensor<48x1024xbf16> {
    %r = dsm.fused_chain gemm (%a, %b) {schedule = #dsm.schedule<cluster = [1, 1, 1, 1], block = [128, 256, 64, 16], grid = [1, 4, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [], stages = 3, cost_ns = 1000>}
        : (tensor<48x512xbf16>, tensor<512x1024xbf16>) -> tensor<48x1024xbf16> {
    ^bb0(%x: tensor<48x512xbf16>, %w: tensor<512x1024xbf16>):
      %cst = arith.constant 0.0 : f32
      %e = tensor.empty() : tensor<48x1024xf32>
      %f = linalg.fill ins(%cst : f32) outs(%e : tensor<48x1024xf32>) -> tensor<48x1024xf32>
      %mm = linalg.matmul ins(%x, %w : tensor<48x512xbf16>, tensor<512x1024xbf16>) outs(%f : tensor<48x1024xf32>) -> tensor<48x1024xf32>
      %e2 = tensor.empty() : tensor<48x1024xbf16>
      %t = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%mm : tensor<48x1024xf32>) outs(%e2 : tensor<48x1024xbf16>) {
      ^bb0(%in: f32, %o: bf16):
        %v = arith.truncf %in : f32 to bf16
        linalg.yield %v : bf16
      }  -> tensor<48x1024xbf16>
      dsm.yield %t : tensor<48x1024xbf16>
    }
    return %r : tensor<48x1024xbf16>
  }
}

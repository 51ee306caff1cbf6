// REQUIRES: ptxas
// A split-K GEMM on n tiles sized to the H200's cluster slots (30 clusters
// of 4): G8's down GEMM (128 x 2048 x 8192, PyTorch weight layout) on 22
// tiles of 128 x 96 over k groups of 4, the last tile past N, on a 7-stage
// ring, lowers to 88 CTAs in clusters of 4 and assembles for sm_90a
// without spills. Hand-written: --dsm-search does not offer these widths
// for unswapped tiles (on an H200 they ran G8, S2, S4, S5 and S7 0.98-1.03x
// the search's 128 x 128 split; docs/validation.md, sixty-seventh session).
// RUN: rm -rf %t && ff-opt %s --lower-to-nvvm="emit-bundle=%t format=bin" -o /dev/null
// RUN: FileCheck %s --check-prefix=PTX < %t/down_0.ptx
// RUN: FileCheck %s --check-prefix=MANIFEST < %t/manifest.json
// RUN: %ptxas -arch=sm_90a -O3 -v %t/down_0.ptx -o %t/g.cubin 2>&1 | FileCheck %s
// PTX: .reqnctapercluster 4, 1, 1
// PTX: barrier.cluster.arrive
// MANIFEST: "dynamic_smem": 200704
// MANIFEST: "grid": [
// MANIFEST-NEXT: 88,
// MANIFEST: "box": [
// MANIFEST-NEXT: 64,
// MANIFEST-NEXT: 128
// MANIFEST: "box": [
// MANIFEST-NEXT: 64,
// MANIFEST-NEXT: 96
// CHECK-NOT: error
// CHECK: 0 bytes spill stores, 0 bytes spill loads

#mk = affine_map<(d0, d1, d2) -> (d0, d2)>
#nk = affine_map<(d0, d1, d2) -> (d1, d2)>
#mn = affine_map<(d0, d1, d2) -> (d0, d1)>
#id = affine_map<(d0, d1) -> (d0, d1)>
module attributes {dsm.target = #dsm.target<name = "h100-sxm", chip = "sm_90a", sms = 132, smem_per_sm = 233472, smem_per_block = 232448, regs_per_sm = 65536, max_cluster = 8, max_cluster_nonportable = 16, clock_mhz = 1830, hbm_gbps = 3350, l2_bytes = 52428800, dsm_gbps = [3300, 3100, 3000, 2900], dsm_latency = [190, 200, 240, 280], tflops_bf16 = 989, tflops_f16 = 989, tflops_f32 = 494>} {
  func.func @down(%a: tensor<128x8192xbf16>, %b: tensor<2048x8192xbf16>) -> tensor<128x2048xbf16> {
    %r = dsm.fused_chain gemm (%a, %b) {schedule = #dsm.schedule<cluster = [1, 1, 4, 1], block = [128, 96, 2048, 16], grid = [1, 22, 1, 1], order = [m, n, k, l], spatial = [m, n, k], residency = [], collectives = [all_exchange], stages = 7, cost_ns = 1000>}
        : (tensor<128x8192xbf16>, tensor<2048x8192xbf16>) -> tensor<128x2048xbf16> {
    ^bb0(%x: tensor<128x8192xbf16>, %w: tensor<2048x8192xbf16>):
      %cst = arith.constant 0.0 : f32
      %e = tensor.empty() : tensor<128x2048xf32>
      %f = linalg.fill ins(%cst : f32) outs(%e : tensor<128x2048xf32>) -> tensor<128x2048xf32>
      %mm = linalg.matmul indexing_maps = [#mk, #nk, #mn] ins(%x, %w : tensor<128x8192xbf16>, tensor<2048x8192xbf16>) outs(%f : tensor<128x2048xf32>) -> tensor<128x2048xf32>
      %e2 = tensor.empty() : tensor<128x2048xbf16>
      %t = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%mm : tensor<128x2048xf32>) outs(%e2 : tensor<128x2048xbf16>) {
      ^bb0(%in: f32, %o: bf16):
        %v = arith.truncf %in : f32 to bf16
        linalg.yield %v : bf16
      } -> tensor<128x2048xbf16>
      dsm.yield %t : tensor<128x2048xbf16>
    }
    return %r : tensor<128x2048xbf16>
  }
}

// REQUIRES: ptxas
// A single GEMM's 128 x 64 tiles split over a pair of CTAs along k on an
// 8-stage ring (the plan --dsm-search picks for long-K GEMMs at M = 128,
// search-split-k-gemm-128x64.mlir) lowers to a cluster of 2 with eight
// full and eight empty barriers, 192 KiB of ring, and assembles for sm_90a
// without spills. The schedule is hand-written (G5's down GEMM, PyTorch
// weight layout).
// RUN: rm -rf %t && ff-opt %s --lower-to-nvvm="emit-bundle=%t format=bin" -o /dev/null
// RUN: FileCheck %s --check-prefix=PTX < %t/down_0.ptx
// RUN: FileCheck %s --check-prefix=MANIFEST < %t/manifest.json
// RUN: %ptxas -arch=sm_90a -O3 -v %t/down_0.ptx -o %t/g.cubin 2>&1 | FileCheck %s
// PTX: .reqnctapercluster 2, 1, 1
// PTX: .shared .align 8 .b8 __mbarrier_0[64];
// PTX: .shared .align 8 .b8 __mbarrier[64];
// PTX: barrier.cluster.arrive
// MANIFEST: "dynamic_smem": 196608
// MANIFEST: "grid": [
// MANIFEST-NEXT: 128,
// CHECK-NOT: error
// CHECK: 0 bytes spill stores, 0 bytes spill loads

#mk = affine_map<(d0, d1, d2) -> (d0, d2)>
#nk = affine_map<(d0, d1, d2) -> (d1, d2)>
#mn = affine_map<(d0, d1, d2) -> (d0, d1)>
#id = affine_map<(d0, d1) -> (d0, d1)>
module attributes {dsm.target = #dsm.target<name = "h100-sxm", chip = "sm_90a", sms = 132, smem_per_sm = 233472, smem_per_block = 232448, regs_per_sm = 65536, max_cluster = 8, max_cluster_nonportable = 16, clock_mhz = 1830, hbm_gbps = 3350, l2_bytes = 52428800, dsm_gbps = [3300, 3100, 3000, 2900], dsm_latency = [190, 200, 240, 280], tflops_bf16 = 989, tflops_f16 = 989, tflops_f32 = 494>} {
  func.func @down(%a: tensor<128x16384xbf16>, %b: tensor<4096x16384xbf16>) -> tensor<128x4096xbf16> {
    %r = dsm.fused_chain gemm (%a, %b) {schedule = #dsm.schedule<cluster = [1, 1, 2, 1], block = [128, 64, 8192, 16], grid = [1, 64, 1, 1], order = [m, n, k, l], spatial = [m, n, k], residency = [], collectives = [all_exchange], stages = 8, cost_ns = 1000>}
        : (tensor<128x16384xbf16>, tensor<4096x16384xbf16>) -> tensor<128x4096xbf16> {
    ^bb0(%x: tensor<128x16384xbf16>, %w: tensor<4096x16384xbf16>):
      %cst = arith.constant 0.0 : f32
      %e = tensor.empty() : tensor<128x4096xf32>
      %f = linalg.fill ins(%cst : f32) outs(%e : tensor<128x4096xf32>) -> tensor<128x4096xf32>
      %mm = linalg.matmul indexing_maps = [#mk, #nk, #mn] ins(%x, %w : tensor<128x16384xbf16>, tensor<4096x16384xbf16>) outs(%f : tensor<128x4096xf32>) -> tensor<128x4096xf32>
      %e2 = tensor.empty() : tensor<128x4096xbf16>
      %t = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%mm : tensor<128x4096xf32>) outs(%e2 : tensor<128x4096xbf16>) {
      ^bb0(%in: f32, %o: bf16):
        %v = arith.truncf %in : f32 to bf16
        linalg.yield %v : bf16
      } -> tensor<128x4096xbf16>
      dsm.yield %t : tensor<128x4096xbf16>
    }
    return %r : tensor<128x4096xbf16>
  }
}

// REQUIRES: ptxas
// A gated GEMM split over a pair of CTAs along k (S3's gate|up at M = 256:
// 128 x 128 tiles of both weights, 2 x 86 tiles that fill 1.3 waves on
// 132 SMs unsplit): the pair reduces gate's fp32 tile, then up's, through
// one buffer over the dead ring, each rank holding its 64 columns of
// gate's sum in registers until up's arrive, and stores silu(gate) * up
// of its half. Lowers to a cluster of 2 and assembles for sm_90a without
// spills. The schedule is hand-written (PyTorch weight layout).
// RUN: rm -rf %t && ff-opt %s --lower-to-nvvm="emit-bundle=%t format=bin" -o /dev/null
// RUN: FileCheck %s --check-prefix=PTX < %t/gate_up_0.ptx
// RUN: FileCheck %s --check-prefix=MANIFEST < %t/manifest.json
// RUN: %ptxas -arch=sm_90a -O3 -v %t/gate_up_0.ptx -o %t/g.cubin 2>&1 | FileCheck %s
// PTX: .reqnctapercluster 2, 1, 1
// Six cluster barriers: the setup one, two pushes (gate's, then up's)
// each opened by one barrier in the producer and in the consumers, and
// the exit (a split K without the gated pair has four).
// PTX-COUNT-6: barrier.cluster.arrive
// PTX-NOT: barrier.cluster.arrive
// MANIFEST: "cluster": [
// MANIFEST-NEXT: 2,
// MANIFEST: "dynamic_smem": 196608
// 86 n tiles of a pair each per 128-row m tile.
// MANIFEST: "grid": [
// MANIFEST-NEXT: 172,
// MANIFEST: "grid_m_tile": 128
// CHECK-NOT: error
// CHECK: 0 bytes spill stores, 0 bytes spill loads

#mk = affine_map<(d0, d1, d2) -> (d0, d2)>
#nk = affine_map<(d0, d1, d2) -> (d1, d2)>
#mn = affine_map<(d0, d1, d2) -> (d0, d1)>
#id = affine_map<(d0, d1) -> (d0, d1)>
module attributes {dsm.target = #dsm.target<name = "h100-sxm", chip = "sm_90a", sms = 132, smem_per_sm = 233472, smem_per_block = 232448, regs_per_sm = 65536, max_cluster = 8, max_cluster_nonportable = 16, clock_mhz = 1830, hbm_gbps = 3350, l2_bytes = 52428800, dsm_gbps = [3300, 3100, 3000, 2900], dsm_latency = [190, 200, 240, 280], tflops_bf16 = 989, tflops_f16 = 989, tflops_f32 = 494>} {
  func.func @gate_up(%a: tensor<256x4096xbf16>, %wg: tensor<11008x4096xbf16>, %wu: tensor<11008x4096xbf16>) -> tensor<256x11008xbf16> {
    %r = dsm.fused_chain gated_gemm (%a, %wg, %wu) {schedule = #dsm.schedule<cluster = [1, 1, 2, 1], block = [128, 128, 2048, 16], grid = [2, 86, 1, 1], order = [m, n, k, l], spatial = [m, n, k], residency = [], collectives = [all_exchange], stages = 4, cost_ns = 1000>}
        : (tensor<256x4096xbf16>, tensor<11008x4096xbf16>, tensor<11008x4096xbf16>) -> tensor<256x11008xbf16> {
    ^bb0(%x: tensor<256x4096xbf16>, %g: tensor<11008x4096xbf16>, %u: tensor<11008x4096xbf16>):
      %z = arith.constant 0.0 : f32
      %one = arith.constant 1.0 : f32
      %e0 = tensor.empty() : tensor<256x11008xf32>
      %f0 = linalg.fill ins(%z : f32) outs(%e0 : tensor<256x11008xf32>) -> tensor<256x11008xf32>
      %cg = linalg.matmul indexing_maps = [#mk, #nk, #mn] ins(%x, %g : tensor<256x4096xbf16>, tensor<11008x4096xbf16>) outs(%f0 : tensor<256x11008xf32>) -> tensor<256x11008xf32>
      %e1 = tensor.empty() : tensor<256x11008xf32>
      %f1 = linalg.fill ins(%z : f32) outs(%e1 : tensor<256x11008xf32>) -> tensor<256x11008xf32>
      %cu = linalg.matmul indexing_maps = [#mk, #nk, #mn] ins(%x, %u : tensor<256x4096xbf16>, tensor<11008x4096xbf16>) outs(%f1 : tensor<256x11008xf32>) -> tensor<256x11008xf32>
      %hb = tensor.empty() : tensor<256x11008xbf16>
      %h = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%cg, %cu : tensor<256x11008xf32>, tensor<256x11008xf32>) outs(%hb : tensor<256x11008xbf16>) {
      ^bb0(%gv: f32, %uv: f32, %out: bf16):
        %n = arith.negf %gv : f32
        %ex = math.exp %n : f32
        %den = arith.addf %ex, %one : f32
        %s = arith.divf %gv, %den : f32
        %p = arith.mulf %s, %uv : f32
        %t = arith.truncf %p : f32 to bf16
        linalg.yield %t : bf16
      } -> tensor<256x11008xbf16>
      dsm.yield %h : tensor<256x11008xbf16>
    }
    return %r : tensor<256x11008xbf16>
  }
}

// REQUIRES: ptxas
// The gated 128 x 192 tiles of lower-to-nvvm-gated-wide-partial-ptxas.mlir
// at M = 300: the last of three m tiles is partial (44 rows), as S1's and
// S4's gate|up GEMMs at M = 300 run them. Rows past M are not stored, but
// their epilogue is not skipped either: the branch that skips it carries
// every row value out of an scf.if, and beside two accumulators of 64 x 192
// per consumer warpgroup that spilled 232 bytes
// (KernelPlan::skipsUnstoredEpilogue). Assembles for sm_90a without spills.
// RUN: rm -rf %t && ff-opt %s --lower-to-nvvm="emit-bundle=%t format=bin" -o /dev/null
// RUN: FileCheck %s --check-prefix=PTX < %t/gate_up_0.ptx
// RUN: %ptxas -arch=sm_90a -O3 -v %t/gate_up_0.ptx -o %t/g.cubin 2>&1 | FileCheck %s
// PTX: .maxntid 384, 1, 1
// PTX: setp.gt.u64 {{.*}}, 11007;
// CHECK-NOT: error
// CHECK: 0 bytes spill stores, 0 bytes spill loads

#mk = affine_map<(d0, d1, d2) -> (d0, d2)>
#nk = affine_map<(d0, d1, d2) -> (d1, d2)>
#mn = affine_map<(d0, d1, d2) -> (d0, d1)>
#id = affine_map<(d0, d1) -> (d0, d1)>
module attributes {dsm.target = #dsm.target<name = "h100-sxm", chip = "sm_90a", sms = 132, smem_per_sm = 233472, smem_per_block = 232448, regs_per_sm = 65536, max_cluster = 8, max_cluster_nonportable = 16, clock_mhz = 1830, hbm_gbps = 3350, l2_bytes = 52428800, dsm_gbps = [3300, 3100, 3000, 2900], dsm_latency = [190, 200, 240, 280], tflops_bf16 = 989, tflops_f16 = 989, tflops_f32 = 494>} {
  func.func @gate_up(%a: tensor<300x4096xbf16>, %wg: tensor<11008x4096xbf16>, %wu: tensor<11008x4096xbf16>) -> tensor<300x11008xbf16> {
    %r = dsm.fused_chain gated_gemm (%a, %wg, %wu) {schedule = #dsm.schedule<cluster = [1, 1, 1, 1], block = [128, 192, 64, 16], grid = [3, 58, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [], stages = 3, cost_ns = 1000>}
        : (tensor<300x4096xbf16>, tensor<11008x4096xbf16>, tensor<11008x4096xbf16>) -> tensor<300x11008xbf16> {
    ^bb0(%x: tensor<300x4096xbf16>, %g: tensor<11008x4096xbf16>, %u: tensor<11008x4096xbf16>):
      %z = arith.constant 0.0 : f32
      %one = arith.constant 1.0 : f32
      %e0 = tensor.empty() : tensor<300x11008xf32>
      %f0 = linalg.fill ins(%z : f32) outs(%e0 : tensor<300x11008xf32>) -> tensor<300x11008xf32>
      %cg = linalg.matmul indexing_maps = [#mk, #nk, #mn] ins(%x, %g : tensor<300x4096xbf16>, tensor<11008x4096xbf16>) outs(%f0 : tensor<300x11008xf32>) -> tensor<300x11008xf32>
      %e1 = tensor.empty() : tensor<300x11008xf32>
      %f1 = linalg.fill ins(%z : f32) outs(%e1 : tensor<300x11008xf32>) -> tensor<300x11008xf32>
      %cu = linalg.matmul indexing_maps = [#mk, #nk, #mn] ins(%x, %u : tensor<300x4096xbf16>, tensor<11008x4096xbf16>) outs(%f1 : tensor<300x11008xf32>) -> tensor<300x11008xf32>
      %hb = tensor.empty() : tensor<300x11008xbf16>
      %h = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%cg, %cu : tensor<300x11008xf32>, tensor<300x11008xf32>) outs(%hb : tensor<300x11008xbf16>) {
      ^bb0(%gv: f32, %uv: f32, %out: bf16):
        %n = arith.negf %gv : f32
        %ex = math.exp %n : f32
        %den = arith.addf %ex, %one : f32
        %s = arith.divf %gv, %den : f32
        %p = arith.mulf %s, %uv : f32
        %t = arith.truncf %p : f32 to bf16
        linalg.yield %t : bf16
      } -> tensor<300x11008xbf16>
      dsm.yield %h : tensor<300x11008xbf16>
    }
    return %r : tensor<300x11008xbf16>
  }
}

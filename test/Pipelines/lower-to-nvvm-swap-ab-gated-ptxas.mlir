// REQUIRES: ptxas
// A swapped gated GEMM kernel (dsm-materialize-swap-ab.mlir) on the tiles
// measured on an H200 (S7's gate|up GEMM at M = 800): gate's and up's
// accumulators of 160 token columns per consumer thread under setmaxnreg:
// wgmma m64n160k16, no spill, no serialised wgmma (C7520, C7514).
// RUN: rm -rf %t && ff-opt %s --lower-to-nvvm="emit-bundle=%t format=bin" -o /dev/null
// RUN: FileCheck %s --check-prefix=PTX < %t/gated_800_0.ptx
// RUN: %ptxas -arch=sm_90a -O3 -v %t/gated_800_0.ptx -o %t/g.cubin 2>&1 | FileCheck %s
// PTX: wgmma.mma_async.sync.aligned.m64n160k16.f32.bf16.bf16
// CHECK-NOT: {{C7520|C7514}}
// CHECK: 0 bytes spill stores, 0 bytes spill loads
// CHECK-NOT: {{C7520|C7514}}

func.func @gated_800(%a: tensor<800x2560xbf16>, %wg: tensor<1024x2560xbf16>, %wu: tensor<1024x2560xbf16>) -> tensor<800x1024xbf16> {
  %r = dsm.fused_chain gated_gemm (%a, %wg, %wu) {schedule = #dsm.schedule<cluster = [1, 1, 1, 1], block = [160, 128, 64, 16], grid = [5, 8, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [], stages = 4, cost_ns = 1000, swap_ab = true>}
      : (tensor<800x2560xbf16>, tensor<1024x2560xbf16>, tensor<1024x2560xbf16>) -> tensor<800x1024xbf16> {
  ^bb0(%x: tensor<800x2560xbf16>, %g: tensor<1024x2560xbf16>, %u: tensor<1024x2560xbf16>):
    %z = arith.constant 0.0 : f32
    %one = arith.constant 1.0 : f32
    %e0 = tensor.empty() : tensor<800x1024xf32>
    %f0 = linalg.fill ins(%z : f32) outs(%e0 : tensor<800x1024xf32>) -> tensor<800x1024xf32>
    %cg = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%x, %g : tensor<800x2560xbf16>, tensor<1024x2560xbf16>) outs(%f0 : tensor<800x1024xf32>) -> tensor<800x1024xf32>
    %e1 = tensor.empty() : tensor<800x1024xf32>
    %f1 = linalg.fill ins(%z : f32) outs(%e1 : tensor<800x1024xf32>) -> tensor<800x1024xf32>
    %cu = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%x, %u : tensor<800x2560xbf16>, tensor<1024x2560xbf16>) outs(%f1 : tensor<800x1024xf32>) -> tensor<800x1024xf32>
    %hb = tensor.empty() : tensor<800x1024xbf16>
    %h = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%cg, %cu : tensor<800x1024xf32>, tensor<800x1024xf32>) outs(%hb : tensor<800x1024xbf16>) {
    ^bb0(%gv: f32, %uv: f32, %out: bf16):
      %n = arith.negf %gv : f32
      %ex = math.exp %n : f32
      %den = arith.addf %ex, %one : f32
      %s = arith.divf %gv, %den : f32
      %p = arith.mulf %s, %uv : f32
      %t = arith.truncf %p : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<800x1024xbf16>
    dsm.yield %h : tensor<800x1024xbf16>
  }
  return %r : tensor<800x1024xbf16>
}

// REQUIRES: ptxas
// A swapped-operand GEMM kernel (dsm-materialize-swap-ab.mlir) on the
// tiles measured on an H200: wgmma m64n152k16, no spill, no serialised
// wgmma (C7520: a branch around wgmmas; C7514: scalar cvt.rn.bf16.f32 of
// accumulator registers, which element-wise stores had; the staged stores
// pack pairs with cvt.rn.bf16x2.f32 for stmatrix). Six stages leave room
// for two store buffers per warp: one warp barrier per 16-token chunk.
// RUN: rm -rf %t && ff-opt %s --lower-to-nvvm="emit-bundle=%t format=bin" -o /dev/null
// RUN: FileCheck %s --check-prefix=PTX < %t/gemm_300_0.ptx
// RUN: %ptxas -arch=sm_90a -O3 -v %t/gemm_300_0.ptx -o %t/g.cubin 2>&1 | FileCheck %s
// PTX: wgmma.mma_async.sync.aligned.m64n152k16.f32.bf16.bf16
// PTX: cvt.rn.bf16x2.f32
// PTX: stmatrix.sync.aligned.m8n8.x4.trans.shared.b16
// PTX-NEXT: bar.warp.sync
// PTX: st.global.v4.b32
// PTX-NOT: bar.warp.sync
// PTX: stmatrix.sync.aligned.m8n8.x4.trans.shared.b16
// CHECK-NOT: {{C7520|C7514}}
// CHECK: 0 bytes spill stores, 0 bytes spill loads
// CHECK-NOT: {{C7520|C7514}}

func.func @gemm_300(%a: tensor<300x4096xbf16>, %b: tensor<1024x4096xbf16>) -> tensor<300x1024xbf16> {
  %r = dsm.fused_chain gemm (%a, %b) {schedule = #dsm.schedule<cluster = [1, 1, 1, 1], block = [152, 128, 64, 16], grid = [2, 8, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [], stages = 6, cost_ns = 1000, swap_ab = true>}
      : (tensor<300x4096xbf16>, tensor<1024x4096xbf16>) -> tensor<300x1024xbf16> {
  ^bb0(%x: tensor<300x4096xbf16>, %w: tensor<1024x4096xbf16>):
    %cst = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<300x1024xf32>
    %f = linalg.fill ins(%cst : f32) outs(%e : tensor<300x1024xf32>) -> tensor<300x1024xf32>
    %mm = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%x, %w : tensor<300x4096xbf16>, tensor<1024x4096xbf16>) outs(%f : tensor<300x1024xf32>) -> tensor<300x1024xf32>
    %e2 = tensor.empty() : tensor<300x1024xbf16>
    %t = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%mm : tensor<300x1024xf32>) outs(%e2 : tensor<300x1024xbf16>) {
    ^bb0(%in: f32, %o: bf16):
      %v = arith.truncf %in : f32 to bf16
      linalg.yield %v : bf16
    }  -> tensor<300x1024xbf16>
    dsm.yield %t : tensor<300x1024xbf16>
  }
  return %r : tensor<300x1024xbf16>
}

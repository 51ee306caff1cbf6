// REQUIRES: ptxas
// A dynamic M's table with a swapped bin (KernelPlan::swapsDynamicM): the
// gated GEMM of lower-to-nvvm-swap-ab-gated-ptxas.mlir on 160-token tiles
// for M = 513-1024. Its manifest entry scales the grid with M like an
// unswapped kernel's: 8 weight tiles per launch unit of 160 tokens
// (grid_m_tile); the kernel counts its token tiles from its M argument
// (ceil(M / 160)) and stores tokens below it. It assembles without spills
// or serialised wgmmas.
// RUN: rm -rf %t && ff-opt %s --lower-to-nvvm="emit-bundle=%t format=bin" -o /dev/null
// RUN: FileCheck %s --check-prefix=MANIFEST < %t/manifest.json
// RUN: FileCheck %s --check-prefix=PTX < %t/gated_dyn_0_m1.ptx
// RUN: %ptxas -arch=sm_90a -O3 -v %t/gated_dyn_0_m1.ptx -o %t/g.cubin 2>&1 | FileCheck %s
// MANIFEST: "grid_m_tile": 128,
// MANIFEST: "name": "gated_dyn_0_m0",
// MANIFEST: "ptx": "gated_dyn_0_m0.ptx"
// MANIFEST: "grid": [
// MANIFEST-NEXT: 8,
// MANIFEST-NEXT: 1,
// MANIFEST-NEXT: 1
// MANIFEST-NEXT: ],
// MANIFEST-NEXT: "grid_m_tile": 160,
// MANIFEST-NEXT: "m_hi": 1024,
// MANIFEST-NEXT: "m_lo": 513,
// MANIFEST-NEXT: "name": "gated_dyn_0_m1",
// MANIFEST: 160
// MANIFEST: "swap_ab": true
// PTX: wgmma.mma_async.sync.aligned.m64n160k16.f32.bf16.bf16
// CHECK-NOT: {{C7520|C7514}}
// CHECK: 0 bytes spill stores, 0 bytes spill loads
// CHECK-NOT: {{C7520|C7514}}

func.func @gated_dyn(%a: tensor<?x2560xbf16>, %wg: tensor<1024x2560xbf16>, %wu: tensor<1024x2560xbf16>) -> tensor<?x1024xbf16> {
  %r = dsm.fused_chain gated_gemm (%a, %wg, %wu) {schedule = #dsm.schedule_table<[#dsm.schedule<cluster = [1, 1, 1, 1], block = [128, 128, 64, 16], grid = [4, 8, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [], stages = 4, cost_ns = 1000, m_lo = 1, m_hi = 512>, #dsm.schedule<cluster = [1, 1, 1, 1], block = [160, 128, 64, 16], grid = [7, 8, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [], stages = 4, cost_ns = 2000, m_lo = 513, m_hi = 1024, swap_ab = true>]>}
      : (tensor<?x2560xbf16>, tensor<1024x2560xbf16>, tensor<1024x2560xbf16>) -> tensor<?x1024xbf16> {
  ^bb0(%x: tensor<?x2560xbf16>, %g: tensor<1024x2560xbf16>, %u: tensor<1024x2560xbf16>):
    %z = arith.constant 0.0 : f32
    %one = arith.constant 1.0 : f32
    %c0 = arith.constant 0 : index
    %d = tensor.dim %x, %c0 : tensor<?x2560xbf16>
    %e0 = tensor.empty(%d) : tensor<?x1024xf32>
    %f0 = linalg.fill ins(%z : f32) outs(%e0 : tensor<?x1024xf32>) -> tensor<?x1024xf32>
    %cg = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%x, %g : tensor<?x2560xbf16>, tensor<1024x2560xbf16>) outs(%f0 : tensor<?x1024xf32>) -> tensor<?x1024xf32>
    %e1 = tensor.empty(%d) : tensor<?x1024xf32>
    %f1 = linalg.fill ins(%z : f32) outs(%e1 : tensor<?x1024xf32>) -> tensor<?x1024xf32>
    %cu = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%x, %u : tensor<?x2560xbf16>, tensor<1024x2560xbf16>) outs(%f1 : tensor<?x1024xf32>) -> tensor<?x1024xf32>
    %hb = tensor.empty(%d) : tensor<?x1024xbf16>
    %h = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%cg, %cu : tensor<?x1024xf32>, tensor<?x1024xf32>) outs(%hb : tensor<?x1024xbf16>) {
    ^bb0(%gv: f32, %uv: f32, %out: bf16):
      %n = arith.negf %gv : f32
      %ex = math.exp %n : f32
      %den = arith.addf %ex, %one : f32
      %s = arith.divf %gv, %den : f32
      %p = arith.mulf %s, %uv : f32
      %t = arith.truncf %p : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<?x1024xbf16>
    dsm.yield %h : tensor<?x1024xbf16>
  }
  return %r : tensor<?x1024xbf16>
}

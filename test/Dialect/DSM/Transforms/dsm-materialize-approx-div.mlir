// RUN: ff-opt %s --dsm-materialize | FileCheck %s
// RUN: ff-opt %s --dsm-materialize=approx-div=false | FileCheck %s --check-prefix=EXACT
// RUN: rm -rf %t && ff-opt %s --lower-to-nvvm="emit-bundle=%t" -o /dev/null
// RUN: FileCheck %s --check-prefix=PTX < %t/full_0.ptx
// RUN: rm -rf %t.exact && ff-opt %s --lower-to-nvvm="emit-bundle=%t.exact approx-div=false" -o /dev/null
// RUN: FileCheck %s --check-prefix=PTX-EXACT < %t.exact/full_0.ptx

// Epilogue divisions (silu's g / (1 + e^-g) in a gated GEMM) carry the afn
// fast-math flag by default, which NVPTX lowers to div.approx.f32 (2 ulp,
// rounded to bf16 after) instead of div.rn.f32 and its operand checks and
// slow path; approx-div=false keeps the IEEE division.
// CHECK-LABEL: gpu.func @full_0
// CHECK: math.exp
// CHECK: arith.divf %{{.*}}, %{{.*}} fastmath<afn> : f32
// EXACT-LABEL: gpu.func @full_0
// EXACT-NOT: fastmath<afn>
// EXACT: arith.divf %{{.*}}, %{{.*}} : f32
// EXACT-NOT: fastmath<afn>
// EXACT: gpu.return
// PTX-NOT: div.rn.f32
// PTX: div.approx.f32
// PTX-NOT: div.rn.f32
// PTX-EXACT-NOT: div.approx.f32
// PTX-EXACT: div.rn.f32

func.func @full(%a: tensor<256x512xbf16>, %wg: tensor<512x256xbf16>, %wu: tensor<512x256xbf16>) -> tensor<256x256xbf16> {
  %r = dsm.fused_chain gated_gemm (%a, %wg, %wu) {schedule = #dsm.schedule<cluster = [1, 1, 1, 1], block = [128, 64, 64, 16], grid = [2, 4, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [], stages = 4, cost_ns = 1000>}
      : (tensor<256x512xbf16>, tensor<512x256xbf16>, tensor<512x256xbf16>) -> tensor<256x256xbf16> {
  ^bb0(%x: tensor<256x512xbf16>, %g: tensor<512x256xbf16>, %u: tensor<512x256xbf16>):
    %z = arith.constant 0.0 : f32
    %one = arith.constant 1.0 : f32
    %e0 = tensor.empty() : tensor<256x256xf32>
    %f0 = linalg.fill ins(%z : f32) outs(%e0 : tensor<256x256xf32>) -> tensor<256x256xf32>
    %cg = linalg.matmul ins(%x, %g : tensor<256x512xbf16>, tensor<512x256xbf16>) outs(%f0 : tensor<256x256xf32>) -> tensor<256x256xf32>
    %e1 = tensor.empty() : tensor<256x256xf32>
    %f1 = linalg.fill ins(%z : f32) outs(%e1 : tensor<256x256xf32>) -> tensor<256x256xf32>
    %cu = linalg.matmul ins(%x, %u : tensor<256x512xbf16>, tensor<512x256xbf16>) outs(%f1 : tensor<256x256xf32>) -> tensor<256x256xf32>
    %hb = tensor.empty() : tensor<256x256xbf16>
    %h = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%cg, %cu : tensor<256x256xf32>, tensor<256x256xf32>) outs(%hb : tensor<256x256xbf16>) {
    ^bb0(%gv: f32, %uv: f32, %out: bf16):
      %n = arith.negf %gv : f32
      %ex = math.exp %n : f32
      %den = arith.addf %ex, %one : f32
      %s = arith.divf %gv, %den : f32
      %p = arith.mulf %s, %uv : f32
      %t = arith.truncf %p : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<256x256xbf16>
    dsm.yield %h : tensor<256x256xbf16>
  }
  return %r : tensor<256x256xbf16>
}


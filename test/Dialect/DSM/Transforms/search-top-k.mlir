// RUN: ff-opt %s --dsm-search="top-k=3" -verify-diagnostics | FileCheck %s
// RUN: ff-opt %s --dsm-search="family=reduce-scatter top-k=3" -o /dev/null 2>&1 | FileCheck %s --check-prefix=RS

// top-k reports the size of the search and the best candidates of the full
// space (ranked by the analytical model) as remarks, marking those outside
// the lowerable family; the chosen plan is the best lowerable one by the
// measured kernel-family model (for G4 a shuffle-family plan), and its
// schedule records that estimate.
//
// family=reduce-scatter restricts only which plans count as lowerable: the
// best of the full space is the same list, and the chosen plan is the best
// reduce-scatter one (clusters along n only).

// RS: remark: evaluated {{[0-9]+}} plans ({{[0-9]+}} lowerable); chose cluster=[1,8,1,1] block=[64,64,64,256] grid=[2,6,1,1] order=[m,n,k,l] spatial=[m,n] stages=3: {{[0-9]+}} ns measured kernel-family model, {{[0-9]+}} ns analytical model; best of the full space (analytical model):
// RS: remark: #1: {{[0-9]+}} ns cluster=[1,4,1,4] block=[64,64,128,192] grid=[2,12,1,1] order=[m,n,l,k] spatial=[m,n,l] stages=2 (not lowerable)

// CHECK: schedule = #dsm.schedule<cluster = [1, 6, 1, 6], block = [64, 64, 64, 128], grid = [2, 8, 1, 1], order = [m, n, l, k], spatial = [m, n, l], residency = [dsm], collectives = [shuffle, inter_cluster_reduce], stages = 4
// CHECK-SAME: cost_ns = [[NS:[0-9]+]]

func.func @g4(%a: tensor<128x768xbf16>, %b: tensor<768x3072xbf16>, %d: tensor<3072x768xbf16>) -> tensor<128x768xbf16> {
  // The kernel-sequence comparison comes first (search-sequence.mlir).
  // expected-remark-re @+5 {{as a kernel sequence (two GEMM kernels) {{[0-9]+}} ns against {{[0-9]+}} ns fused: sequence}}
  // expected-remark-re @+4 {{evaluated {{[0-9]+}} plans ({{[0-9]+}} lowerable); chose cluster=[1,6,1,6] block=[64,64,64,128] grid=[2,8,1,1] order=[m,n,l,k] spatial=[m,n,l] stages=4: {{[0-9]+}} ns measured kernel-family model, {{[0-9]+}} ns analytical model; best of the full space (analytical model):}}
  // expected-remark-re @+3 {{#1: {{[0-9]+}} ns cluster=[1,4,1,4] block=[64,64,128,192] grid=[2,12,1,1] order=[m,n,l,k] spatial=[m,n,l] stages=2 (not lowerable)}}
  // expected-remark @+2 {{#2: }}
  // expected-remark @+1 {{#3: }}
  %e = dsm.fused_chain ffn (%a, %b, %d)
      : (tensor<128x768xbf16>, tensor<768x3072xbf16>, tensor<3072x768xbf16>) -> tensor<128x768xbf16> {
  ^bb0(%x: tensor<128x768xbf16>, %w1: tensor<768x3072xbf16>, %w2: tensor<3072x768xbf16>):
    %zero = arith.constant 0.0 : f32
    %c0e = tensor.empty() : tensor<128x3072xf32>
    %cf = linalg.fill ins(%zero : f32) outs(%c0e : tensor<128x3072xf32>) -> tensor<128x3072xf32>
    %c = linalg.matmul ins(%x, %w1 : tensor<128x768xbf16>, tensor<768x3072xbf16>) outs(%cf : tensor<128x3072xf32>) -> tensor<128x3072xf32>
    %h0 = tensor.empty() : tensor<128x3072xbf16>
    %h = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%c : tensor<128x3072xf32>) outs(%h0 : tensor<128x3072xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %r = arith.maximumf %in, %zero : f32
      %t = arith.truncf %r : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<128x3072xbf16>
    %e0 = tensor.empty() : tensor<128x768xf32>
    %ef = linalg.fill ins(%zero : f32) outs(%e0 : tensor<128x768xf32>) -> tensor<128x768xf32>
    %ea = linalg.matmul ins(%h, %w2 : tensor<128x3072xbf16>, tensor<3072x768xbf16>) outs(%ef : tensor<128x768xf32>) -> tensor<128x768xf32>
    %o0 = tensor.empty() : tensor<128x768xbf16>
    %o = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%ea : tensor<128x768xf32>) outs(%o0 : tensor<128x768xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %t = arith.truncf %in : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<128x768xbf16>
    dsm.yield %o : tensor<128x768xbf16>
  }
  return %e : tensor<128x768xbf16>
}

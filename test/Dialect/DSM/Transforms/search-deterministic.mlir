// RUN: ff-opt %s --split-input-file --dsm-search="deterministic family=reduce-scatter" -verify-diagnostics | FileCheck %s
// RUN: ff-opt %s --split-input-file --dsm-search="family=reduce-scatter" | FileCheck %s --check-prefix=DEFAULT

// deterministic=true marks every plan `deterministic = true`: results must
// be bitwise reproducible. The DSM reduce-scatter inside a cluster already
// sums in rank order; a plan that splits N across clusters reduces E
// through one workspace plane per cluster summed in cluster order (costed:
// the last arriver reads every plane), not fp32 atomics. Both runs pin the
// reduce-scatter kernel family (family=reduce-scatter), whose plans these
// checks describe.

// N = 512 fits one cluster along n: one cluster per m tile, no workspace.
// CHECK-LABEL: func.func @narrow
// CHECK: schedule = #dsm.schedule<cluster = [1, {{[0-9]+}}, 1, 1], block = [{{[0-9]+}}, {{[0-9]+}}, {{[0-9]+}}, {{[0-9]+}}], grid = [{{[0-9]+}}, 1, 1, 1]
// CHECK-NOT: inter_cluster_reduce
// CHECK-SAME: deterministic = true>
// DEFAULT-LABEL: func.func @narrow
func.func @narrow(%a: tensor<128x768xbf16>, %b: tensor<768x512xbf16>, %d: tensor<512x768xbf16>) -> tensor<128x768xbf16> {
  %e = dsm.fused_chain ffn (%a, %b, %d)
      : (tensor<128x768xbf16>, tensor<768x512xbf16>, tensor<512x768xbf16>) -> tensor<128x768xbf16> {
  ^bb0(%x: tensor<128x768xbf16>, %w1: tensor<768x512xbf16>, %w2: tensor<512x768xbf16>):
    %zero = arith.constant 0.0 : f32
    %c0e = tensor.empty() : tensor<128x512xf32>
    %cf = linalg.fill ins(%zero : f32) outs(%c0e : tensor<128x512xf32>) -> tensor<128x512xf32>
    %c = linalg.matmul ins(%x, %w1 : tensor<128x768xbf16>, tensor<768x512xbf16>) outs(%cf : tensor<128x512xf32>) -> tensor<128x512xf32>
    %h0 = tensor.empty() : tensor<128x512xbf16>
    %h = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%c : tensor<128x512xf32>) outs(%h0 : tensor<128x512xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %r = arith.maximumf %in, %zero : f32
      %t = arith.truncf %r : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<128x512xbf16>
    %e0 = tensor.empty() : tensor<128x768xf32>
    %ef = linalg.fill ins(%zero : f32) outs(%e0 : tensor<128x768xf32>) -> tensor<128x768xf32>
    %ea = linalg.matmul ins(%h, %w2 : tensor<128x512xbf16>, tensor<512x768xbf16>) outs(%ef : tensor<128x768xf32>) -> tensor<128x768xf32>
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

// -----

// G4 (N = 3072): every lowerable plan reduces across clusters; the
// deterministic one (planes: fewer clusters along n pay fewer plane reads)
// differs from the default one (atomics).
// CHECK-LABEL: func.func @g4
// CHECK: schedule = #dsm.schedule<cluster = [1, 8, 1, 1], block = [64, 64, 64, 256], grid = [2, 6, 1, 1], {{.*}}collectives = [reduce_scatter, inter_cluster_reduce], {{.*}}deterministic = true>
// DEFAULT-LABEL: func.func @g4
// DEFAULT: schedule = #dsm.schedule<cluster = [1, 8, 1, 1], block = [64, 64, 64, 256], grid = [2, 6, 1, 1], {{.*}}collectives = [reduce_scatter, inter_cluster_reduce], stages = 3, cost_ns = {{[0-9]+}}>
func.func @g4(%a: tensor<128x768xbf16>, %b: tensor<768x3072xbf16>, %d: tensor<3072x768xbf16>) -> tensor<128x768xbf16> {
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

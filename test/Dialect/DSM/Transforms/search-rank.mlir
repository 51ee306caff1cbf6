// RUN: ff-opt %s --dsm-search="rank=3 dump=%t.json" | FileCheck %s
// RUN: %python %S/Inputs/check_rank.py %t.json 3 | FileCheck %s --check-prefix=DUMP
// RUN: ff-opt %s --dsm-search="dump=%t0.json" > /dev/null
// RUN: %python %S/Inputs/check_rank.py %t0.json 0 | FileCheck %s --check-prefix=DUMP
// RUN: not ff-opt %s --dsm-search="rank=100000" 2>&1 | FileCheck %s --check-prefix=TOOFAR

// --dsm-search="rank=R" records the R-th best lowerable plan instead of the
// best (the candidates the GPU fidelity check measures); the dump's
// lowerable_candidates are indexed like the option.

// CHECK: dsm.fused_chain ffn
// CHECK-SAME: schedule = #dsm.schedule<
// DUMP: ok: {{[1-9][0-9]*}} lowerable candidates
// TOOFAR: error: --dsm-search: rank 100000 requested, but only {{[0-9]+}} lowerable candidates were kept

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

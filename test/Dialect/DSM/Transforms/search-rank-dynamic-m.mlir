// RUN: ff-opt %s --dsm-search="rank=1" -verify-diagnostics

// A dynamic-M chain gets one plan per M bin: there is no single ranking to
// pick from.

func.func @ffn_dyn(%a: tensor<?x768xbf16>, %b: tensor<768x3072xbf16>, %d: tensor<3072x768xbf16>) -> tensor<?x768xbf16> {
  // expected-error @+1 {{--dsm-search: rank applies to chains of static M}}
  %e = dsm.fused_chain ffn (%a, %b, %d)
      : (tensor<?x768xbf16>, tensor<768x3072xbf16>, tensor<3072x768xbf16>) -> tensor<?x768xbf16> {
  ^bb0(%x: tensor<?x768xbf16>, %w1: tensor<768x3072xbf16>, %w2: tensor<3072x768xbf16>):
    %zero = arith.constant 0.0 : f32
    %c0 = arith.constant 0 : index
    %m = tensor.dim %x, %c0 : tensor<?x768xbf16>
    %c0e = tensor.empty(%m) : tensor<?x3072xf32>
    %cf = linalg.fill ins(%zero : f32) outs(%c0e : tensor<?x3072xf32>) -> tensor<?x3072xf32>
    %c = linalg.matmul ins(%x, %w1 : tensor<?x768xbf16>, tensor<768x3072xbf16>) outs(%cf : tensor<?x3072xf32>) -> tensor<?x3072xf32>
    %h0 = tensor.empty(%m) : tensor<?x3072xbf16>
    %h = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%c : tensor<?x3072xf32>) outs(%h0 : tensor<?x3072xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %r = arith.maximumf %in, %zero : f32
      %t = arith.truncf %r : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<?x3072xbf16>
    %e0 = tensor.empty(%m) : tensor<?x768xf32>
    %ef = linalg.fill ins(%zero : f32) outs(%e0 : tensor<?x768xf32>) -> tensor<?x768xf32>
    %ea = linalg.matmul ins(%h, %w2 : tensor<?x3072xbf16>, tensor<3072x768xbf16>) outs(%ef : tensor<?x768xf32>) -> tensor<?x768xf32>
    %o0 = tensor.empty(%m) : tensor<?x768xbf16>
    %o = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%ea : tensor<?x768xf32>) outs(%o0 : tensor<?x768xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %t = arith.truncf %in : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<?x768xbf16>
    dsm.yield %o : tensor<?x768xbf16>
  }
  return %e : tensor<?x768xbf16>
}

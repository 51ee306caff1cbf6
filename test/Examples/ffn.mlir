// The shipped example (README command 1): a GPT-2-small FFN, paper workload G4
// (M=128, K=768, N=3072, L=768), bf16 with f32 accumulation and a tanh GELU,
// as linalg on tensors the way a frontend writes it.
//
// RUN: ff-opt %s | FileCheck %s --check-prefix=PARSE
// PARSE: func.func @ffn_g4

#id = affine_map<(i, j) -> (i, j)>
func.func @ffn_g4(%x: tensor<128x768xbf16>, %w1: tensor<768x3072xbf16>,
                  %w2: tensor<3072x768xbf16>) -> tensor<128x768xbf16> {
  %zero = arith.constant 0.0 : f32
  %c0 = tensor.empty() : tensor<128x3072xf32>
  %c1 = linalg.fill ins(%zero : f32) outs(%c0 : tensor<128x3072xf32>) -> tensor<128x3072xf32>
  %c = linalg.matmul ins(%x, %w1 : tensor<128x768xbf16>, tensor<768x3072xbf16>)
                     outs(%c1 : tensor<128x3072xf32>) -> tensor<128x3072xf32>
  %hb = tensor.empty() : tensor<128x3072xbf16>
  // gelu(x) = 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))
  %h = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%c : tensor<128x3072xf32>) outs(%hb : tensor<128x3072xbf16>) {
  ^bb0(%v: f32, %o: bf16):
    %half = arith.constant 0.5 : f32
    %one = arith.constant 1.0 : f32
    %k0 = arith.constant 0.7978845608 : f32
    %k1 = arith.constant 0.044715 : f32
    %v2 = arith.mulf %v, %v : f32
    %v3 = arith.mulf %v2, %v : f32
    %t0 = arith.mulf %v3, %k1 : f32
    %t1 = arith.addf %v, %t0 : f32
    %t2 = arith.mulf %t1, %k0 : f32
    %t3 = math.tanh %t2 : f32
    %t4 = arith.addf %t3, %one : f32
    %t5 = arith.mulf %v, %half : f32
    %g = arith.mulf %t5, %t4 : f32
    %gb = arith.truncf %g : f32 to bf16
    linalg.yield %gb : bf16
  } -> tensor<128x3072xbf16>
  %e0 = tensor.empty() : tensor<128x768xf32>
  %e1 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<128x768xf32>) -> tensor<128x768xf32>
  %e = linalg.matmul ins(%h, %w2 : tensor<128x3072xbf16>, tensor<3072x768xbf16>)
                     outs(%e1 : tensor<128x768xf32>) -> tensor<128x768xf32>
  %ob = tensor.empty() : tensor<128x768xbf16>
  %out = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%e : tensor<128x768xf32>) outs(%ob : tensor<128x768xbf16>) {
  ^bb0(%v: f32, %o: bf16):
    %vb = arith.truncf %v : f32 to bf16
    linalg.yield %vb : bf16
  } -> tensor<128x768xbf16>
  return %out : tensor<128x768xbf16>
}

// RUN: ff-opt %s --dsm-search -split-input-file -verify-diagnostics

// Chains the cost model cannot describe are rejected on the op.

func.func @int8(%a: tensor<128x256xi8>, %b: tensor<256x512xi8>, %d: tensor<512x256xi8>) -> tensor<128x256xi32> {
  // expected-error @+1 {{'dsm.fused_chain' op element type 'i8' has no tensor-core rate in the cost model}}
  %e = dsm.fused_chain ffn (%a, %b, %d)
      : (tensor<128x256xi8>, tensor<256x512xi8>, tensor<512x256xi8>) -> tensor<128x256xi32> {
  ^bb0(%x: tensor<128x256xi8>, %w1: tensor<256x512xi8>, %w2: tensor<512x256xi8>):
    %zero = arith.constant 0 : i32
    %c0 = tensor.empty() : tensor<128x512xi32>
    %cf = linalg.fill ins(%zero : i32) outs(%c0 : tensor<128x512xi32>) -> tensor<128x512xi32>
    %c = linalg.matmul ins(%x, %w1 : tensor<128x256xi8>, tensor<256x512xi8>) outs(%cf : tensor<128x512xi32>) -> tensor<128x512xi32>
    %h0 = tensor.empty() : tensor<128x512xi8>
    %h = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%c : tensor<128x512xi32>) outs(%h0 : tensor<128x512xi8>) {
    ^bb0(%in: i32, %out: i8):
      %t = arith.trunci %in : i32 to i8
      linalg.yield %t : i8
    } -> tensor<128x512xi8>
    %e0 = tensor.empty() : tensor<128x256xi32>
    %ef = linalg.fill ins(%zero : i32) outs(%e0 : tensor<128x256xi32>) -> tensor<128x256xi32>
    %o = linalg.matmul ins(%h, %w2 : tensor<128x512xi8>, tensor<512x256xi8>) outs(%ef : tensor<128x256xi32>) -> tensor<128x256xi32>
    dsm.yield %o : tensor<128x256xi32>
  }
  return %e : tensor<128x256xi32>
}

// -----

func.func @batched(%a: tensor<4x128x256xbf16>, %b: tensor<4x256x512xbf16>, %d: tensor<4x512x256xbf16>) -> tensor<4x128x256xf32> {
  // expected-error @+1 {{'dsm.fused_chain' op batched contractions are not supported by the schedule search}}
  %e = dsm.fused_chain ffn (%a, %b, %d)
      : (tensor<4x128x256xbf16>, tensor<4x256x512xbf16>, tensor<4x512x256xbf16>) -> tensor<4x128x256xf32> {
  ^bb0(%x: tensor<4x128x256xbf16>, %w1: tensor<4x256x512xbf16>, %w2: tensor<4x512x256xbf16>):
    %zero = arith.constant 0.0 : f32
    %c0 = tensor.empty() : tensor<4x128x512xf32>
    %cf = linalg.fill ins(%zero : f32) outs(%c0 : tensor<4x128x512xf32>) -> tensor<4x128x512xf32>
    %c = linalg.batch_matmul ins(%x, %w1 : tensor<4x128x256xbf16>, tensor<4x256x512xbf16>) outs(%cf : tensor<4x128x512xf32>) -> tensor<4x128x512xf32>
    %h0 = tensor.empty() : tensor<4x128x512xbf16>
    %h = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i, j)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%c : tensor<4x128x512xf32>) outs(%h0 : tensor<4x128x512xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %t = arith.truncf %in : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<4x128x512xbf16>
    %e0 = tensor.empty() : tensor<4x128x256xf32>
    %ef = linalg.fill ins(%zero : f32) outs(%e0 : tensor<4x128x256xf32>) -> tensor<4x128x256xf32>
    %o = linalg.batch_matmul ins(%h, %w2 : tensor<4x128x512xbf16>, tensor<4x512x256xbf16>) outs(%ef : tensor<4x128x256xf32>) -> tensor<4x128x256xf32>
    dsm.yield %o : tensor<4x128x256xf32>
  }
  return %e : tensor<4x128x256xf32>
}

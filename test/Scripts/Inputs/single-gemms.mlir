// Single GEMMs of both GEMM families for test/Scripts/fit-gemm-model.test:
// 128 x 256 tiles (4096^3), 128 x 128 (N = 256), 64 x 64 over all of K
// (M = 128), split K over clusters (M = 64) and a gated GEMM (S1).

func.func @sq(%a: tensor<4096x4096xbf16>, %b: tensor<4096x4096xbf16>) -> tensor<4096x4096xf32> {
  %e = dsm.fused_chain gemm (%a, %b) : (tensor<4096x4096xbf16>, tensor<4096x4096xbf16>) -> tensor<4096x4096xf32> {
  ^bb0(%x: tensor<4096x4096xbf16>, %w: tensor<4096x4096xbf16>):
    %zero = arith.constant 0.0 : f32
    %c0e = tensor.empty() : tensor<4096x4096xf32>
    %cf = linalg.fill ins(%zero : f32) outs(%c0e : tensor<4096x4096xf32>) -> tensor<4096x4096xf32>
    %c = linalg.matmul ins(%x, %w : tensor<4096x4096xbf16>, tensor<4096x4096xbf16>) outs(%cf : tensor<4096x4096xf32>) -> tensor<4096x4096xf32>
    dsm.yield %c : tensor<4096x4096xf32>
  }
  return %e : tensor<4096x4096xf32>
}

func.func @small_n(%a: tensor<8192x1024xbf16>, %b: tensor<1024x256xbf16>) -> tensor<8192x256xf32> {
  %e = dsm.fused_chain gemm (%a, %b) : (tensor<8192x1024xbf16>, tensor<1024x256xbf16>) -> tensor<8192x256xf32> {
  ^bb0(%x: tensor<8192x1024xbf16>, %w: tensor<1024x256xbf16>):
    %zero = arith.constant 0.0 : f32
    %c0e = tensor.empty() : tensor<8192x256xf32>
    %cf = linalg.fill ins(%zero : f32) outs(%c0e : tensor<8192x256xf32>) -> tensor<8192x256xf32>
    %c = linalg.matmul ins(%x, %w : tensor<8192x1024xbf16>, tensor<1024x256xbf16>) outs(%cf : tensor<8192x256xf32>) -> tensor<8192x256xf32>
    dsm.yield %c : tensor<8192x256xf32>
  }
  return %e : tensor<8192x256xf32>
}

func.func @m128(%a: tensor<128x4096xbf16>, %b: tensor<4096x4096xbf16>) -> tensor<128x4096xf32> {
  %e = dsm.fused_chain gemm (%a, %b) : (tensor<128x4096xbf16>, tensor<4096x4096xbf16>) -> tensor<128x4096xf32> {
  ^bb0(%x: tensor<128x4096xbf16>, %w: tensor<4096x4096xbf16>):
    %zero = arith.constant 0.0 : f32
    %c0e = tensor.empty() : tensor<128x4096xf32>
    %cf = linalg.fill ins(%zero : f32) outs(%c0e : tensor<128x4096xf32>) -> tensor<128x4096xf32>
    %c = linalg.matmul ins(%x, %w : tensor<128x4096xbf16>, tensor<4096x4096xbf16>) outs(%cf : tensor<128x4096xf32>) -> tensor<128x4096xf32>
    dsm.yield %c : tensor<128x4096xf32>
  }
  return %e : tensor<128x4096xf32>
}

func.func @m64(%a: tensor<64x4096xbf16>, %b: tensor<4096x4096xbf16>) -> tensor<64x4096xf32> {
  %e = dsm.fused_chain gemm (%a, %b) : (tensor<64x4096xbf16>, tensor<4096x4096xbf16>) -> tensor<64x4096xf32> {
  ^bb0(%x: tensor<64x4096xbf16>, %w: tensor<4096x4096xbf16>):
    %zero = arith.constant 0.0 : f32
    %c0e = tensor.empty() : tensor<64x4096xf32>
    %cf = linalg.fill ins(%zero : f32) outs(%c0e : tensor<64x4096xf32>) -> tensor<64x4096xf32>
    %c = linalg.matmul ins(%x, %w : tensor<64x4096xbf16>, tensor<4096x4096xbf16>) outs(%cf : tensor<64x4096xf32>) -> tensor<64x4096xf32>
    dsm.yield %c : tensor<64x4096xf32>
  }
  return %e : tensor<64x4096xf32>
}

// S1's gate and up (a gated GEMM, PyTorch-layout weights).
func.func @gated(%a: tensor<128x3072xbf16>, %wg: tensor<8192x3072xbf16>, %wu: tensor<8192x3072xbf16>) -> tensor<128x8192xbf16> {
  %r = dsm.fused_chain gated_gemm (%a, %wg, %wu) : (tensor<128x3072xbf16>, tensor<8192x3072xbf16>, tensor<8192x3072xbf16>) -> tensor<128x8192xbf16> {
  ^bb0(%x: tensor<128x3072xbf16>, %g: tensor<8192x3072xbf16>, %u: tensor<8192x3072xbf16>):
    %z = arith.constant 0.0 : f32
    %one = arith.constant 1.0 : f32
    %e0 = tensor.empty() : tensor<128x8192xf32>
    %f0 = linalg.fill ins(%z : f32) outs(%e0 : tensor<128x8192xf32>) -> tensor<128x8192xf32>
    %cg = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%x, %g : tensor<128x3072xbf16>, tensor<8192x3072xbf16>) outs(%f0 : tensor<128x8192xf32>) -> tensor<128x8192xf32>
    %cu = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%x, %u : tensor<128x3072xbf16>, tensor<8192x3072xbf16>) outs(%f0 : tensor<128x8192xf32>) -> tensor<128x8192xf32>
    %hb = tensor.empty() : tensor<128x8192xbf16>
    %h = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%cg, %cu : tensor<128x8192xf32>, tensor<128x8192xf32>) outs(%hb : tensor<128x8192xbf16>) {
    ^bb0(%gv: f32, %uv: f32, %out: bf16):
      %ng = arith.negf %gv : f32
      %ex = math.exp %ng : f32
      %den = arith.addf %ex, %one : f32
      %s = arith.divf %gv, %den : f32
      %p = arith.mulf %s, %uv : f32
      %t = arith.truncf %p : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<128x8192xbf16>
    dsm.yield %h : tensor<128x8192xbf16>
  }
  return %r : tensor<128x8192xbf16>
}

// Single GEMMs of both GEMM families for test/Scripts/fit-gemm-model.test:
// 128 x 256 tiles (4096^3), 128 x 128 (N = 256), 64 x 64 over all of K
// (M = 128) and split K over clusters (M = 64).

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

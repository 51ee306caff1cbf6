// RUN: echo "module {}" | not ff-opt --dsm-fuse=min-dim=0 2>&1 | FileCheck %s --check-prefix=OPTION
// RUN: ff-opt --dsm-fuse=report=true --split-input-file --verify-diagnostics %s

// Malformed or unusable input: rejected with a diagnostic that has a location
// and a non-zero exit, or reported and left alone; never a crash.

// OPTION: <stdin>:1:1: error: dsm-fuse: min-dim must be at least 1, got 0

// A contraction whose operand shapes disagree is rejected by the verifier
// before the pass runs.
func.func @bad_shapes(%a: tensor<128x256xbf16>, %b: tensor<128x512xbf16>, %z: tensor<128x512xf32>) -> tensor<128x512xf32> {
  // expected-error @below {{inferred input/output operand #1 has shape's dimension #0 to be 256, but found 128}}
  %c = linalg.matmul ins(%a, %b : tensor<128x256xbf16>, tensor<128x512xbf16>) outs(%z : tensor<128x512xf32>) -> tensor<128x512xf32>
  return %c : tensor<128x512xf32>
}

// -----

// A dsm.fused_chain whose body does not hold its kind is rejected by the
// verifier.
func.func @bad_chain(%a: tensor<128x256xbf16>, %b: tensor<256x512xbf16>, %z: tensor<128x512xf32>) -> tensor<128x512xf32> {
  // expected-error @below {{body does not hold a ffn chain of static-N/K contractions}}
  %r = dsm.fused_chain ffn(%a, %b, %z) : (tensor<128x256xbf16>, tensor<256x512xbf16>, tensor<128x512xf32>) -> tensor<128x512xf32> {
  ^bb0(%x: tensor<128x256xbf16>, %y: tensor<256x512xbf16>, %w: tensor<128x512xf32>):
    %c = linalg.matmul ins(%x, %y : tensor<128x256xbf16>, tensor<256x512xbf16>) outs(%w : tensor<128x512xf32>) -> tensor<128x512xf32>
    dsm.yield %c : tensor<128x512xf32>
  }
  return %r : tensor<128x512xf32>
}

// -----

// GEMMs on buffers cannot be moved into a region: reported, left alone.
func.func @buffers(%a: memref<128x256xbf16>, %b: memref<256x512xbf16>, %c: memref<128x512xbf16>, %d: memref<512x256xbf16>, %e: memref<128x256xbf16>) {
  // expected-remark @below {{GEMM not fused: operates on buffers (run --dsm-fuse before bufferization)}}
  linalg.matmul ins(%a, %b : memref<128x256xbf16>, memref<256x512xbf16>) outs(%c : memref<128x512xbf16>)
  // expected-remark @below {{GEMM not fused: operates on buffers}}
  linalg.matmul ins(%c, %d : memref<128x512xbf16>, memref<512x256xbf16>) outs(%e : memref<128x256xbf16>)
  return
}

// -----

// A convolution with a dynamic window is reported, left alone.
func.func @dynamic_window(%x: tensor<1x?x?x64xbf16>, %w1: tensor<1x1x64x64xbf16>, %z: tensor<1x?x?x64xbf16>) -> tensor<1x?x?x64xbf16> {
  // expected-remark @below {{GEMM not fused: dynamic convolution window or image size (only the batch may be dynamic)}}
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w1 : tensor<1x?x?x64xbf16>, tensor<1x1x64x64xbf16>) outs(%z : tensor<1x?x?x64xbf16>) -> tensor<1x?x?x64xbf16>
  return %c : tensor<1x?x?x64xbf16>
}

// -----

// Without strides and dilations (linalg's default, 1; ff-fuzz found the
// pass reading the absent attribute) the same convolution is reported.
func.func @default_strides(%x: tensor<1x?x?x64xbf16>, %w1: tensor<1x1x64x64xbf16>, %z: tensor<1x?x?x64xbf16>) -> tensor<1x?x?x64xbf16> {
  // expected-remark @below {{GEMM not fused: dynamic convolution window or image size (only the batch may be dynamic)}}
  %c = linalg.conv_2d_nhwc_hwcf ins(%x, %w1 : tensor<1x?x?x64xbf16>, tensor<1x1x64x64xbf16>) outs(%z : tensor<1x?x?x64xbf16>) -> tensor<1x?x?x64xbf16>
  return %c : tensor<1x?x?x64xbf16>
}

// -----

// Chains already inside a dsm.fused_chain are not looked at again.
func.func @already_fused(%a: tensor<128x256xbf16>, %b: tensor<256x512xbf16>, %z: tensor<128x512xf32>) -> tensor<128x512xf32> {
  %r = dsm.fused_chain gemm(%a, %b, %z) : (tensor<128x256xbf16>, tensor<256x512xbf16>, tensor<128x512xf32>) -> tensor<128x512xf32> {
  ^bb0(%x: tensor<128x256xbf16>, %y: tensor<256x512xbf16>, %w: tensor<128x512xf32>):
    %c = linalg.matmul ins(%x, %y : tensor<128x256xbf16>, tensor<256x512xbf16>) outs(%w : tensor<128x512xf32>) -> tensor<128x512xf32>
    dsm.yield %c : tensor<128x512xf32>
  }
  return %r : tensor<128x512xf32>
}

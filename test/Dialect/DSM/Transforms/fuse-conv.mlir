// RUN: ff-opt --dsm-fuse=report=true --verify-diagnostics %s | FileCheck %s
// RUN: ff-opt --dsm-fuse %s > %t.once.mlir
// RUN: ff-opt --dsm-fuse --dsm-fuse %s > %t.twice.mlir
// RUN: diff %t.once.mlir %t.twice.mlir

// Conv chains (linalg.conv_2d_nhwc_hwcf) as GEMM chains. Inside the body a
// 1x1 conv is collapse_shape + matmul and a kxk conv is an im2col generic +
// matmul, and the elementwise ops are rewritten onto [N·OH·OW, C], so every
// body is a chain of 2-D ops with M = N·OH·OW, between one collapse of the
// input and one expand_shape of the result.

#id4 = affine_map<(n, h, w, c) -> (n, h, w, c)>
#ch = affine_map<(n, h, w, c) -> (c)>

// The im2col of @strided_3x3: row (n, oh, ow), column (kh, kw, c).
// CHECK-DAG:   #[[$IM2COL:.+]] = affine_map<(d0, d1) -> (d0 floordiv 49, ((d0 mod 49) floordiv 7) * 2 + d1 floordiv 192, (d0 mod 7) * 2 + (d1 mod 192) floordiv 64, d1 mod 64)>

// 1x1 -> ReLU -> 1x1 with a dynamic batch and a per-channel bias epilogue.
// CHECK-LABEL: func.func @pointwise_dynamic_batch(
// CHECK-SAME:      %[[X:[a-z0-9]+]]: tensor<?x28x28x128xbf16>, %[[W1:[a-z0-9]+]]: tensor<1x1x128x512xbf16>, %[[W2:[a-z0-9]+]]: tensor<1x1x512x128xbf16>, %[[BIAS:[a-z0-9]+]]: tensor<128xf32>)
// CHECK:         %[[R:.+]] = dsm.fused_chain ffn(%[[X]], %[[W1]], %[[W2]], %[[BIAS]]) : ({{.*}}) -> tensor<?x28x28x128xbf16>
// CHECK-NEXT:    ^bb0(%[[BX:.+]]: tensor<?x28x28x128xbf16>, %[[BW1:.+]]: tensor<1x1x128x512xbf16>, %[[BW2:.+]]: tensor<1x1x512x128xbf16>, %[[BB:.+]]: tensor<128xf32>):
// CHECK:           %[[N:.+]] = tensor.dim %[[BX]], %{{.+}} : tensor<?x28x28x128xbf16>
// CHECK:           %[[M:.+]] = arith.muli %[[N]], %{{.+}} : index
// CHECK:           %[[A:.+]] = tensor.collapse_shape %[[BX]] {{\[\[}}0, 1, 2], [3]] : tensor<?x28x28x128xbf16> into tensor<?x128xbf16>
// CHECK:           %[[B:.+]] = tensor.collapse_shape %[[BW1]] {{\[\[}}0, 1, 2], [3]] : tensor<1x1x128x512xbf16> into tensor<128x512xbf16>
// CHECK:           %[[E1:.+]] = tensor.empty(%[[M]]) : tensor<?x512xf32>
// CHECK:           %[[Z1:.+]] = linalg.fill ins(%{{.+}} : f32) outs(%[[E1]] : tensor<?x512xf32>)
// CHECK:           %[[C:.+]] = linalg.matmul ins(%[[A]], %[[B]] : tensor<?x128xbf16>, tensor<128x512xbf16>) outs(%[[Z1]] : tensor<?x512xf32>)
// CHECK:           %[[H:.+]] = linalg.generic {{.*}} ins(%[[C]] : tensor<?x512xf32>) outs(%{{.+}} : tensor<?x512xbf16>)
// CHECK:           %[[D:.+]] = tensor.collapse_shape %[[BW2]]
// CHECK:           %[[E:.+]] = linalg.matmul ins(%[[H]], %[[D]] : tensor<?x512xbf16>, tensor<512x128xbf16>) outs(%{{.+}} : tensor<?x128xf32>)
// CHECK:           %[[Y:.+]] = linalg.generic {{.*}} ins(%[[E]], %[[BB]] : tensor<?x128xf32>, tensor<128xf32>) outs(%{{.+}} : tensor<?x128xbf16>)
// CHECK:           %[[Y4:.+]] = tensor.expand_shape %[[Y]] {{\[\[}}0, 1, 2], [3]] output_shape [%[[N]], 28, 28, 128]
// CHECK-NEXT:      dsm.yield %[[Y4]]
// CHECK:         return %[[R]]
func.func @pointwise_dynamic_batch(%x: tensor<?x28x28x128xbf16>, %w1: tensor<1x1x128x512xbf16>, %w2: tensor<1x1x512x128xbf16>, %bias: tensor<128xf32>) -> tensor<?x28x28x128xbf16> {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %n = tensor.dim %x, %c0 : tensor<?x28x28x128xbf16>
  %e0 = tensor.empty(%n) : tensor<?x28x28x512xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<?x28x28x512xf32>) -> tensor<?x28x28x512xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w1 : tensor<?x28x28x128xbf16>, tensor<1x1x128x512xbf16>) outs(%z0 : tensor<?x28x28x512xf32>) -> tensor<?x28x28x512xf32>
  %e1 = tensor.empty(%n) : tensor<?x28x28x512xbf16>
  %h = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c : tensor<?x28x28x512xf32>) outs(%e1 : tensor<?x28x28x512xbf16>) {
  ^bb0(%a: f32, %o: bf16):
    %0 = arith.maximumf %a, %zero : f32
    %1 = arith.truncf %0 : f32 to bf16
    linalg.yield %1 : bf16
  } -> tensor<?x28x28x512xbf16>
  %e2 = tensor.empty(%n) : tensor<?x28x28x128xf32>
  %z2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<?x28x28x128xf32>) -> tensor<?x28x28x128xf32>
  %e = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%h, %w2 : tensor<?x28x28x512xbf16>, tensor<1x1x512x128xbf16>) outs(%z2 : tensor<?x28x28x128xf32>) -> tensor<?x28x28x128xf32>
  %e3 = tensor.empty(%n) : tensor<?x28x28x128xbf16>
  %y = linalg.generic {indexing_maps = [#id4, #ch, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%e, %bias : tensor<?x28x28x128xf32>, tensor<128xf32>) outs(%e3 : tensor<?x28x28x128xbf16>) {
  ^bb0(%a: f32, %b: f32, %o: bf16):
    %0 = arith.addf %a, %b : f32
    %1 = arith.truncf %0 : f32 to bf16
    linalg.yield %1 : bf16
  } -> tensor<?x28x28x128xbf16>
  return %y : tensor<?x28x28x128xbf16>
}

// A strided 3x3 conv (no padding) then a 1x1: the im2col reads the input
// with the stride.
// CHECK-LABEL: func.func @strided_3x3(
// CHECK:         dsm.fused_chain ffn
// CHECK:           %[[COL:.+]] = linalg.generic {indexing_maps = [#[[$IM2COL]], #{{.+}}], iterator_types = ["parallel", "parallel"]} ins(%{{.+}} : tensor<1x15x15x64xbf16>) outs(%{{.+}} : tensor<49x576xbf16>)
// CHECK:           %[[C:.+]] = linalg.matmul ins(%[[COL]], %{{.+}} : tensor<49x576xbf16>, tensor<576x128xbf16>) outs(%{{.+}} : tensor<49x128xf32>)
// CHECK:           %[[H:.+]] = linalg.generic {{.*}} ins(%[[C]] : tensor<49x128xf32>) outs(%{{.+}} : tensor<49x128xbf16>)
// CHECK:           %[[E:.+]] = linalg.matmul ins(%[[H]], %{{.+}} : tensor<49x128xbf16>, tensor<128x256xbf16>) outs(%{{.+}} : tensor<49x256xf32>)
// CHECK:           tensor.expand_shape %[[E]] {{\[\[}}0, 1, 2], [3]] output_shape [1, 7, 7, 256]
func.func @strided_3x3(%x: tensor<1x15x15x64xbf16>, %w1: tensor<3x3x64x128xbf16>, %w2: tensor<1x1x128x256xbf16>) -> tensor<1x7x7x256xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<1x7x7x128xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<1x7x7x128xf32>) -> tensor<1x7x7x128xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%x, %w1 : tensor<1x15x15x64xbf16>, tensor<3x3x64x128xbf16>) outs(%z0 : tensor<1x7x7x128xf32>) -> tensor<1x7x7x128xf32>
  %e1 = tensor.empty() : tensor<1x7x7x128xbf16>
  %h = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c : tensor<1x7x7x128xf32>) outs(%e1 : tensor<1x7x7x128xbf16>) {
  ^bb0(%a: f32, %o: bf16):
    %1 = arith.truncf %a : f32 to bf16
    linalg.yield %1 : bf16
  } -> tensor<1x7x7x128xbf16>
  %e2 = tensor.empty() : tensor<1x7x7x256xf32>
  %z2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<1x7x7x256xf32>) -> tensor<1x7x7x256xf32>
  %e = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%h, %w2 : tensor<1x7x7x128xbf16>, tensor<1x1x128x256xbf16>) outs(%z2 : tensor<1x7x7x256xf32>) -> tensor<1x7x7x256xf32>
  return %e : tensor<1x7x7x256xf32>
}

// A conv feeding a matmul through a row collapse, and a matmul feeding a 1x1
// conv through a row expand, are chains too (M = N·H·W on both sides).
// CHECK-LABEL: func.func @conv_then_matmul(
// CHECK-SAME:      %[[X:[a-z0-9]+]]: tensor<2x16x16x64xbf16>, %[[W:[a-z0-9]+]]: tensor<1x1x64x128xbf16>, %[[D:[a-z0-9]+]]: tensor<128x64xbf16>)
// CHECK:         %[[R:.+]] = dsm.fused_chain ffn(%[[X]], %[[W]], %[[D]])
// CHECK-NEXT:    ^bb0(%[[BX:.+]]: tensor<2x16x16x64xbf16>, %[[BW:.+]]: tensor<1x1x64x128xbf16>, %[[BD:.+]]: tensor<128x64xbf16>):
// CHECK:           %[[A:.+]] = tensor.collapse_shape %[[BX]]
// CHECK:           %[[C:.+]] = linalg.matmul ins(%[[A]], %{{.+}} : tensor<512x64xbf16>, tensor<64x128xbf16>)
// CHECK:           %[[H:.+]] = linalg.generic {{.*}} ins(%[[C]] : tensor<512x128xf32>) outs(%{{.+}} : tensor<512x128xbf16>)
// CHECK-NOT:       tensor.collapse_shape
// CHECK:           %[[E:.+]] = linalg.matmul ins(%[[H]], %[[BD]] : tensor<512x128xbf16>, tensor<128x64xbf16>)
// CHECK-NEXT:      dsm.yield %[[E]]
// CHECK:         return %[[R]]
func.func @conv_then_matmul(%x: tensor<2x16x16x64xbf16>, %w: tensor<1x1x64x128xbf16>, %d: tensor<128x64xbf16>) -> tensor<512x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x16x16x128xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x16x16x128xf32>) -> tensor<2x16x16x128xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : tensor<2x16x16x64xbf16>, tensor<1x1x64x128xbf16>) outs(%z : tensor<2x16x16x128xf32>) -> tensor<2x16x16x128xf32>
  %eb = tensor.empty() : tensor<2x16x16x128xbf16>
  %r = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c : tensor<2x16x16x128xf32>) outs(%eb : tensor<2x16x16x128xbf16>) {
  ^bb0(%a: f32, %o: bf16):
    %0 = arith.maximumf %a, %zero : f32
    %1 = arith.truncf %0 : f32 to bf16
    linalg.yield %1 : bf16
  } -> tensor<2x16x16x128xbf16>
  %f = tensor.collapse_shape %r [[0, 1, 2], [3]] : tensor<2x16x16x128xbf16> into tensor<512x128xbf16>
  %e2 = tensor.empty() : tensor<512x64xf32>
  %z2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<512x64xf32>) -> tensor<512x64xf32>
  %o = linalg.matmul ins(%f, %d : tensor<512x128xbf16>, tensor<128x64xbf16>) outs(%z2 : tensor<512x64xf32>) -> tensor<512x64xf32>
  return %o : tensor<512x64xf32>
}

// CHECK-LABEL: func.func @matmul_then_conv(
// CHECK:         dsm.fused_chain ffn
// CHECK:           %[[C:.+]] = linalg.matmul ins(%{{.+}}, %{{.+}} : tensor<512x64xbf16>, tensor<64x128xbf16>)
// CHECK:           %[[H:.+]] = linalg.generic {{.*}} ins(%[[C]] : tensor<512x128xf32>)
// CHECK:           %[[D:.+]] = tensor.collapse_shape %{{.+}} {{\[\[}}0, 1, 2], [3]] : tensor<1x1x128x64xbf16> into tensor<128x64xbf16>
// CHECK:           %[[E:.+]] = linalg.matmul ins(%[[H]], %[[D]] : tensor<512x128xbf16>, tensor<128x64xbf16>)
// CHECK:           %[[Y:.+]] = tensor.expand_shape %[[E]] {{\[\[}}0, 1, 2], [3]] output_shape [2, 16, 16, 64]
// CHECK-NEXT:      dsm.yield %[[Y]]
func.func @matmul_then_conv(%x: tensor<512x64xbf16>, %w: tensor<64x128xbf16>, %d: tensor<1x1x128x64xbf16>) -> tensor<2x16x16x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<512x128xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<512x128xf32>) -> tensor<512x128xf32>
  %c = linalg.matmul ins(%x, %w : tensor<512x64xbf16>, tensor<64x128xbf16>) outs(%z : tensor<512x128xf32>) -> tensor<512x128xf32>
  %eb = tensor.empty() : tensor<512x128xbf16>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%c : tensor<512x128xf32>) outs(%eb : tensor<512x128xbf16>) {
  ^bb0(%a: f32, %o: bf16):
    %1 = arith.truncf %a : f32 to bf16
    linalg.yield %1 : bf16
  } -> tensor<512x128xbf16>
  %f = tensor.expand_shape %r [[0, 1, 2], [3]] output_shape [2, 16, 16, 128] : tensor<512x128xbf16> into tensor<2x16x16x128xbf16>
  %e2 = tensor.empty() : tensor<2x16x16x64xf32>
  %z2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<2x16x16x64xf32>) -> tensor<2x16x16x64xf32>
  %o = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%f, %d : tensor<2x16x16x128xbf16>, tensor<1x1x128x64xbf16>) outs(%z2 : tensor<2x16x16x64xf32>) -> tensor<2x16x16x64xf32>
  return %o : tensor<2x16x16x64xf32>
}

// A 3x3 conv after a GEMM needs a halo of the intermediate: not a chain.
// CHECK-LABEL: func.func @second_conv_3x3(
// CHECK-NOT:     dsm.fused_chain
func.func @second_conv_3x3(%x: tensor<1x16x16x64xbf16>, %w1: tensor<1x1x64x64xbf16>, %w2: tensor<3x3x64x64xbf16>, %z: tensor<1x16x16x64xbf16>, %z2: tensor<1x14x14x64xbf16>) -> tensor<1x14x14x64xbf16> {
  // expected-remark @below {{GEMM not fused: the second convolution is not 1x1 with stride 1 (it would need a halo of the intermediate)}}
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w1 : tensor<1x16x16x64xbf16>, tensor<1x1x64x64xbf16>) outs(%z : tensor<1x16x16x64xbf16>) -> tensor<1x16x16x64xbf16>
  // expected-remark @below {{GEMM not fused: the second convolution is not 1x1 with stride 1}}
  %e = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%c, %w2 : tensor<1x16x16x64xbf16>, tensor<3x3x64x64xbf16>) outs(%z2 : tensor<1x14x14x64xbf16>) -> tensor<1x14x14x64xbf16>
  return %e : tensor<1x14x14x64xbf16>
}

// A conv chain in f32 is left alone.
// CHECK-LABEL: func.func @conv_f32(
// CHECK-NOT:     dsm.fused_chain
func.func @conv_f32(%x: tensor<1x16x16x64xf32>, %w1: tensor<1x1x64x64xf32>, %w2: tensor<1x1x64x64xf32>, %z: tensor<1x16x16x64xf32>) -> tensor<1x16x16x64xf32> {
  // expected-remark @below {{GEMM not fused: unsupported element types f32 x f32 -> f32}}
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w1 : tensor<1x16x16x64xf32>, tensor<1x1x64x64xf32>) outs(%z : tensor<1x16x16x64xf32>) -> tensor<1x16x16x64xf32>
  // expected-remark @below {{GEMM not fused: unsupported element types f32 x f32 -> f32}}
  %e = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%c, %w2 : tensor<1x16x16x64xf32>, tensor<1x1x64x64xf32>) outs(%z : tensor<1x16x16x64xf32>) -> tensor<1x16x16x64xf32>
  return %e : tensor<1x16x16x64xf32>
}

// RUN: ff-opt %s --dsm-fuse --dsm-search | FileCheck %s
// RUN: ff-opt %s --dsm-fuse --dsm-search | ff-opt --dsm-materialize | FileCheck %s --check-prefix=BUNDLE
// RUN: ff-opt %s --dsm-fuse --dsm-search=top-k=1 -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK

// Convolution chains are FFNs over the image's pixels, and --dsm-search
// prices them as kernel sequences too: each half keeps the views through
// which --dsm-fuse reads the chain's inputs (collapse_shape of the NHWC
// image and OHWI filters; a 3x3 convolution's im2col copy of the padded
// image, which the single-GEMM kernel reads through 4-D TMA boxes of whole
// image rows, or by TMA im2col loads where a split K divides it), and the
// second half the expand_shape of its rows back to the image. On an H100 in
// CUDA graphs (docs/validation.md, thirtieth and thirty-first sessions): C4
// at batch 32 ran 19.0 us as two GEMM kernels against 28.6 fused (cuDNN's
// chain 22.3), C8 at batch 32 31.0 against 43.0 (cuDNN 27.6), and C7 at
// batch 1, its 3x3 GEMM split over 8 CTAs along k, 7.8 against 11.1
// (cuDNN 12.1); since the sixty-ninth session 64 x 64 tiles split over 4
// on 8 stages, 1.03x faster than 64 x 128 over 8 on an H200. C8's 3x3 GEMM now streams its input halo (getHaloGemmRows)
// in clusters of two m tiles sharing B: 22.9 us for the sequence (thirty-
// second session; cuDNN 26.6).

// REMARK: remark: as a kernel sequence (two GEMM kernels) {{[0-9]+}} ns against {{[0-9]+}} ns fused: sequence
// REMARK: remark: as a kernel sequence (two GEMM kernels) {{[0-9]+}} ns against {{[0-9]+}} ns fused: sequence
// REMARK: remark: as a kernel sequence (two GEMM kernels) {{[0-9]+}} ns against {{[0-9]+}} ns fused: sequence

// CHECK-LABEL: func.func @c4_b32(
// CHECK: dsm.fused_chain ffn{{.*}}sequence = [#dsm.schedule<cluster = [1, 1, 1, 1], {{.*}}>, #dsm.schedule<{{.*}}>]}
// CHECK-LABEL: func.func @c7_b1(
// CHECK: dsm.fused_chain ffn{{.*}}sequence = [#dsm.schedule<cluster = [1, 1, 4, 1], block = [64, 64, 576, 16], {{.*}}spatial = [m, n, k]{{.*}}stages = 8{{.*}}>, #dsm.schedule<{{.*}}>]}
// CHECK-LABEL: func.func @c8_b32(
// CHECK: dsm.fused_chain ffn{{.*}}sequence = [#dsm.schedule<cluster = [2, 1, 1, 1], block = [128, 64, 64, 16], grid = [7, 8, 1, 1], {{.*}}>, #dsm.schedule<{{.*}}>]}

// The bundles keep the images' interface. C4's first kernel reads the
// image and the filter as [pixels, channels] and [out, in] views and
// writes the intermediate c [1568, 2048]; the second reads c and the second
// filter as [512, 2048] and writes out. C8's first kernel reads the image
// through 4-D boxes (64 channels of the 9 x 9 halo of one 7x7 image, one
// per consumer warpgroup: two images per tile, a cluster of two tiles) and
// its 3x3 filter as [512, 4608]; C7's first kernel, a split K, reads 64 channels
// of 64 pixels per load in im2col mode.
// BUNDLE: dsm.bundles = [{chain = {activation = "relu"
// BUNDLE-SAME: inputs = [{dtype = "bf16", name = "in0", shape = array<i64: 32, 7, 7, 512>}, {dtype = "bf16", layout = "nk", name = "in1", shape = array<i64: 2048, 1, 1, 512>}, {dtype = "bf16", layout = "nk", name = "in2", shape = array<i64: 512, 1, 1, 2048>}]
// BUNDLE-SAME: outputs = [{dtype = "bf16", name = "out", shape = array<i64: 32, 7, 7, 512>}]
// BUNDLE-SAME: intermediates = [{dtype = "bf16", name = "c", shape = array<i64: 1568, 2048>}]
// BUNDLE-SAME: name = "c4_b32_0_s0", params = [{{[^}]*}}tensor = "in0", view = array<i64: 1568, 512>}, {{[^}]*}}tensor = "in1", view = array<i64: 2048, 512>}, {kind = "ptr", tensor = "c"}, {kind = "i64", value = "M"}]
// BUNDLE-SAME: name = "c4_b32_0_s1", params = [{{[^}]*}}tensor = "c"}, {{[^}]*}}tensor = "in2", view = array<i64: 512, 2048>}, {kind = "ptr", tensor = "out"}, {kind = "i64", value = "M"}]
// BUNDLE-SAME: name = "c7_b1_1_s0", params = [{box = array<i64: 64, 64>, im2col = {lower = array<i64: -1, -1>, upper = array<i64: -1, -1>}, {{[^}]*}}tensor = "in0"}, {{[^}]*}}tensor = "in1", view = array<i64: 256, 2304>}, {kind = "ptr", tensor = "c"}, {kind = "i64", value = "M"}]
// BUNDLE-SAME: intermediates = [{dtype = "bf16", name = "c", shape = array<i64: 1568, 512>}]
// BUNDLE-SAME: cluster = array<i64: 2, 1, 1>, {{.*}}grid_m_tile = 196 : i64, {{.*}}name = "c8_b32_2_s0", params = [{box = array<i64: 64, 9, 9, 1>, {{[^}]*}}tensor = "in0"}, {{[^}]*}}tensor = "in1", view = array<i64: 512, 4608>}, {kind = "ptr", tensor = "c"}, {kind = "i64", value = "M"}]
// BUNDLE-SAME: name = "c8_b32_2_s1", params = [{{[^}]*}}tensor = "c"}, {{[^}]*}}tensor = "in2", view = array<i64: 2048, 512>}, {kind = "ptr", tensor = "out"}, {kind = "i64", value = "M"}]
// BUNDLE: gpu.module @c4_b32_0_s0_module
// BUNDLE: gpu.module @c4_b32_0_s1_module
// BUNDLE: gpu.module @c7_b1_1_s0_module
// BUNDLE: nvvm.cp.async.bulk.tensor.shared.cluster.global {{.*}} im2col[
// BUNDLE: gpu.module @c7_b1_1_s1_module
// BUNDLE: gpu.module @c8_b32_2_s0_module
// BUNDLE: gpu.module @c8_b32_2_s1_module

#id2 = affine_map<(i, j) -> (i, j)>
#id4 = affine_map<(n, h, w, c) -> (n, h, w, c)>
#mk = affine_map<(m, n, k) -> (m, k)>
#nk = affine_map<(m, n, k) -> (n, k)>
#mn = affine_map<(m, n, k) -> (m, n)>

func.func @c4_b32(%x: tensor<32x7x7x512xbf16>, %w1: tensor<2048x1x1x512xbf16>, %w2: tensor<512x1x1x2048xbf16>) -> tensor<32x7x7x512xbf16> {
  %zero = arith.constant 0.0 : f32
  %z1_e = tensor.empty() : tensor<32x7x7x2048xf32>
  %z1 = linalg.fill ins(%zero : f32) outs(%z1_e : tensor<32x7x7x2048xf32>) -> tensor<32x7x7x2048xf32>
  %c = linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w1 : tensor<32x7x7x512xbf16>, tensor<2048x1x1x512xbf16>) outs(%z1 : tensor<32x7x7x2048xf32>) -> tensor<32x7x7x2048xf32>
  %h_init = tensor.empty() : tensor<32x7x7x2048xbf16>
  %h = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c : tensor<32x7x7x2048xf32>) outs(%h_init : tensor<32x7x7x2048xbf16>) {
  ^bb0(%a: f32, %o: bf16):
    %r0 = arith.cmpf ugt, %a, %zero : f32
    %r = arith.select %r0, %a, %zero : f32
    %t = arith.truncf %r : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<32x7x7x2048xbf16>
  %z2_e = tensor.empty() : tensor<32x7x7x512xf32>
  %z2 = linalg.fill ins(%zero : f32) outs(%z2_e : tensor<32x7x7x512xf32>) -> tensor<32x7x7x512xf32>
  %e = linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%h, %w2 : tensor<32x7x7x2048xbf16>, tensor<512x1x1x2048xbf16>) outs(%z2 : tensor<32x7x7x512xf32>) -> tensor<32x7x7x512xf32>
  %y_init = tensor.empty() : tensor<32x7x7x512xbf16>
  %y = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%e : tensor<32x7x7x512xf32>) outs(%y_init : tensor<32x7x7x512xbf16>) {
  ^bb0(%a: f32, %o: bf16):
    %t = arith.truncf %a : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<32x7x7x512xbf16>
  return %y : tensor<32x7x7x512xbf16>
}

func.func @c7_b1(%x: tensor<1x14x14x256xbf16>, %w1: tensor<256x3x3x256xbf16>, %w2: tensor<1024x1x1x256xbf16>) -> tensor<1x14x14x1024xbf16> {
  %zero = arith.constant 0.0 : f32
  %bz = arith.constant 0.0 : bf16
  %xp = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %bz : bf16
  } : tensor<1x14x14x256xbf16> to tensor<1x16x16x256xbf16>
  %z1_e = tensor.empty() : tensor<1x14x14x256xf32>
  %z1 = linalg.fill ins(%zero : f32) outs(%z1_e : tensor<1x14x14x256xf32>) -> tensor<1x14x14x256xf32>
  %c = linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%xp, %w1 : tensor<1x16x16x256xbf16>, tensor<256x3x3x256xbf16>) outs(%z1 : tensor<1x14x14x256xf32>) -> tensor<1x14x14x256xf32>
  %h_init = tensor.empty() : tensor<1x14x14x256xbf16>
  %h = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c : tensor<1x14x14x256xf32>) outs(%h_init : tensor<1x14x14x256xbf16>) {
  ^bb0(%a: f32, %o: bf16):
    %r0 = arith.cmpf ugt, %a, %zero : f32
    %r = arith.select %r0, %a, %zero : f32
    %t = arith.truncf %r : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<1x14x14x256xbf16>
  %z2_e = tensor.empty() : tensor<1x14x14x1024xf32>
  %z2 = linalg.fill ins(%zero : f32) outs(%z2_e : tensor<1x14x14x1024xf32>) -> tensor<1x14x14x1024xf32>
  %e = linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%h, %w2 : tensor<1x14x14x256xbf16>, tensor<1024x1x1x256xbf16>) outs(%z2 : tensor<1x14x14x1024xf32>) -> tensor<1x14x14x1024xf32>
  %y_init = tensor.empty() : tensor<1x14x14x1024xbf16>
  %y = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%e : tensor<1x14x14x1024xf32>) outs(%y_init : tensor<1x14x14x1024xbf16>) {
  ^bb0(%a: f32, %o: bf16):
    %t = arith.truncf %a : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<1x14x14x1024xbf16>
  return %y : tensor<1x14x14x1024xbf16>
}

func.func @c8_b32(%x: tensor<32x7x7x512xbf16>, %w1: tensor<512x3x3x512xbf16>, %w2: tensor<2048x1x1x512xbf16>) -> tensor<32x7x7x2048xbf16> {
  %zero = arith.constant 0.0 : f32
  %bz = arith.constant 0.0 : bf16
  %xp = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %bz : bf16
  } : tensor<32x7x7x512xbf16> to tensor<32x9x9x512xbf16>
  %z1_e = tensor.empty() : tensor<32x7x7x512xf32>
  %z1 = linalg.fill ins(%zero : f32) outs(%z1_e : tensor<32x7x7x512xf32>) -> tensor<32x7x7x512xf32>
  %c = linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%xp, %w1 : tensor<32x9x9x512xbf16>, tensor<512x3x3x512xbf16>) outs(%z1 : tensor<32x7x7x512xf32>) -> tensor<32x7x7x512xf32>
  %h_init = tensor.empty() : tensor<32x7x7x512xbf16>
  %h = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c : tensor<32x7x7x512xf32>) outs(%h_init : tensor<32x7x7x512xbf16>) {
  ^bb0(%a: f32, %o: bf16):
    %r0 = arith.cmpf ugt, %a, %zero : f32
    %r = arith.select %r0, %a, %zero : f32
    %t = arith.truncf %r : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<32x7x7x512xbf16>
  %z2_e = tensor.empty() : tensor<32x7x7x2048xf32>
  %z2 = linalg.fill ins(%zero : f32) outs(%z2_e : tensor<32x7x7x2048xf32>) -> tensor<32x7x7x2048xf32>
  %e = linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%h, %w2 : tensor<32x7x7x512xbf16>, tensor<2048x1x1x512xbf16>) outs(%z2 : tensor<32x7x7x2048xf32>) -> tensor<32x7x7x2048xf32>
  %y_init = tensor.empty() : tensor<32x7x7x2048xbf16>
  %y = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%e : tensor<32x7x7x2048xf32>) outs(%y_init : tensor<32x7x7x2048xbf16>) {
  ^bb0(%a: f32, %o: bf16):
    %t = arith.truncf %a : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<32x7x7x2048xbf16>
  return %y : tensor<32x7x7x2048xbf16>
}

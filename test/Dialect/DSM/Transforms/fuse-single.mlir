// RUN: ff-opt --dsm-fuse %s | FileCheck %s --check-prefix=DEFAULT
// RUN: ff-opt --dsm-fuse=fuse-single-gemms=true %s | FileCheck %s
// RUN: ff-opt --dsm-fuse=fuse-single-gemms=true %s > %t.once.mlir
// RUN: ff-opt --dsm-fuse=fuse-single-gemms=true --dsm-fuse=fuse-single-gemms=true %s > %t.twice.mlir
// RUN: diff %t.once.mlir %t.twice.mlir

// Single GEMMs are left alone by default; fuse-single-gemms wraps every legal
// GEMM that is in no chain as kind gemm (with its epilogue), which the
// lowering uses as a health check of its GEMM engine, and a lone gated pair
// as kind gated_gemm.

#id = affine_map<(i, j) -> (i, j)>

// DEFAULT-LABEL: func.func @single(
// DEFAULT-NOT:     dsm.fused_chain
// CHECK-LABEL: func.func @single(
// CHECK-SAME:      %[[A:[a-z0-9]+]]: tensor<128x256xbf16>, %[[B:[a-z0-9]+]]: tensor<256x512xbf16>)
// CHECK:         %[[R:.+]] = dsm.fused_chain gemm(%[[A]], %[[B]]) : (tensor<128x256xbf16>, tensor<256x512xbf16>) -> tensor<128x512xbf16>
// CHECK-NEXT:    ^bb0(%[[XA:.+]]: tensor<128x256xbf16>, %[[XB:.+]]: tensor<256x512xbf16>):
// CHECK:           %[[Z:.+]] = linalg.fill
// CHECK:           %[[C:.+]] = linalg.matmul ins(%[[XA]], %[[XB]] : {{.*}}) outs(%[[Z]] :
// CHECK:           %[[T:.+]] = linalg.generic {{.*}} ins(%[[C]] :
// CHECK:           dsm.yield %[[T]]
// CHECK:         return %[[R]]
func.func @single(%a: tensor<128x256xbf16>, %b: tensor<256x512xbf16>) -> tensor<128x512xbf16> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<128x512xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<128x512xf32>) -> tensor<128x512xf32>
  %c = linalg.matmul ins(%a, %b : tensor<128x256xbf16>, tensor<256x512xbf16>) outs(%z0 : tensor<128x512xf32>) -> tensor<128x512xf32>
  %e1 = tensor.empty() : tensor<128x512xbf16>
  %t = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%c : tensor<128x512xf32>) outs(%e1 : tensor<128x512xbf16>) {
  ^bb0(%x: f32, %o: bf16):
    %0 = arith.truncf %x : f32 to bf16
    linalg.yield %0 : bf16
  } -> tensor<128x512xbf16>
  return %t : tensor<128x512xbf16>
}

// A lone 3x3 convolution becomes an im2col and a matmul; its tensor.pad is
// pulled in.
// DEFAULT-LABEL: func.func @single_conv(
// DEFAULT-NOT:     dsm.fused_chain
// CHECK-LABEL: func.func @single_conv(
// CHECK-SAME:      %[[X:[a-z0-9]+]]: tensor<2x14x14x64xbf16>, %[[W:[a-z0-9]+]]: tensor<3x3x64x128xbf16>)
// CHECK-NOT:     tensor.pad
// CHECK:         %[[R:.+]] = dsm.fused_chain gemm(%[[X]], %[[W]])
// CHECK:           tensor.pad
// CHECK:           linalg.generic {{.*}} outs(%{{.+}} : tensor<392x576xbf16>)
// CHECK:           linalg.matmul ins(%{{.+}}, %{{.+}} : tensor<392x576xbf16>, tensor<576x128xbf16>) outs(%{{.+}} : tensor<392x128xf32>)
// CHECK:           tensor.expand_shape %{{.+}} {{\[\[}}0, 1, 2], [3]] output_shape [2, 14, 14, 128]
// CHECK:         return %[[R]]
func.func @single_conv(%x: tensor<2x14x14x64xbf16>, %w: tensor<3x3x64x128xbf16>) -> tensor<2x14x14x128xf32> {
  %zero = arith.constant 0.0 : f32
  %bz = arith.constant 0.0 : bf16
  %p = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %bz : bf16
  } : tensor<2x14x14x64xbf16> to tensor<2x16x16x64xbf16>
  %e = tensor.empty() : tensor<2x14x14x128xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x14x14x128xf32>) -> tensor<2x14x14x128xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%p, %w : tensor<2x16x16x64xbf16>, tensor<3x3x64x128xbf16>) outs(%z : tensor<2x14x14x128xf32>) -> tensor<2x14x14x128xf32>
  return %c : tensor<2x14x14x128xf32>
}

// A lone gated pair, act(x wg) * (x wu) without a down projection: with
// fuse-single-gemms both GEMMs and the links to their product (and the
// epilogue after it) become one gated_gemm chain, the gated GEMM kernel's
// (the first kernel of a gated FFN's sequence).
// DEFAULT-LABEL: func.func @gated_pair(
// DEFAULT-NOT:     dsm.fused_chain
// CHECK-LABEL: func.func @gated_pair(
// CHECK-SAME:      %[[X:[a-z0-9]+]]: tensor<128x256xbf16>, %[[G:[a-z0-9]+]]: tensor<256x512xbf16>, %[[U:[a-z0-9]+]]: tensor<256x512xbf16>)
// CHECK:         %[[R:.+]] = dsm.fused_chain gated_gemm(%[[X]], %[[G]], %[[U]])
// CHECK-NEXT:    ^bb0(%[[XX:.+]]: tensor<128x256xbf16>, %[[XG:.+]]: tensor<256x512xbf16>, %[[XU:.+]]: tensor<256x512xbf16>):
// CHECK:           %[[CG:.+]] = linalg.matmul ins(%[[XX]], %[[XG]] :
// CHECK:           %[[CU:.+]] = linalg.matmul ins(%[[XX]], %[[XU]] :
// CHECK:           %[[S:.+]] = linalg.generic {{.*}} ins(%[[CG]] :
// CHECK:           %[[P:.+]] = linalg.generic {{.*}} ins(%[[S]], %[[CU]] :
// CHECK:           %[[T:.+]] = linalg.generic {{.*}} ins(%[[P]] :
// CHECK:           dsm.yield %[[T]]
// CHECK:         return %[[R]]
func.func @gated_pair(%x: tensor<128x256xbf16>, %wg: tensor<256x512xbf16>, %wu: tensor<256x512xbf16>) -> tensor<128x512xbf16> {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %e0 = tensor.empty() : tensor<128x512xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<128x512xf32>) -> tensor<128x512xf32>
  %g = linalg.matmul ins(%x, %wg : tensor<128x256xbf16>, tensor<256x512xbf16>) outs(%z0 : tensor<128x512xf32>) -> tensor<128x512xf32>
  %s = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%g : tensor<128x512xf32>) outs(%e0 : tensor<128x512xf32>) {
  ^bb0(%v: f32, %o: f32):
    %n = arith.negf %v : f32
    %ex = math.exp %n : f32
    %d = arith.addf %ex, %one : f32
    %r = arith.divf %v, %d : f32
    linalg.yield %r : f32
  } -> tensor<128x512xf32>
  %u = linalg.matmul ins(%x, %wu : tensor<128x256xbf16>, tensor<256x512xbf16>) outs(%z0 : tensor<128x512xf32>) -> tensor<128x512xf32>
  %p = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%s, %u : tensor<128x512xf32>, tensor<128x512xf32>) outs(%e0 : tensor<128x512xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    linalg.yield %m : f32
  } -> tensor<128x512xf32>
  %e1 = tensor.empty() : tensor<128x512xbf16>
  %t = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%p : tensor<128x512xf32>) outs(%e1 : tensor<128x512xbf16>) {
  ^bb0(%v: f32, %o: bf16):
    %0 = arith.truncf %v : f32 to bf16
    linalg.yield %0 : bf16
  } -> tensor<128x512xbf16>
  return %t : tensor<128x512xbf16>
}

// The gate's activation is also returned: not a gated pair (the chain
// would drop that use); each GEMM is a chain of its own.
// CHECK-LABEL: func.func @gated_pair_escapes(
// CHECK-NOT:     gated_gemm
// CHECK-COUNT-2: dsm.fused_chain gemm
// CHECK-NOT:     dsm.fused_chain
// CHECK:         return
func.func @gated_pair_escapes(%x: tensor<128x256xbf16>, %wg: tensor<256x512xbf16>, %wu: tensor<256x512xbf16>) -> (tensor<128x512xbf16>, tensor<128x512xf32>) {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %e0 = tensor.empty() : tensor<128x512xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<128x512xf32>) -> tensor<128x512xf32>
  %g = linalg.matmul ins(%x, %wg : tensor<128x256xbf16>, tensor<256x512xbf16>) outs(%z0 : tensor<128x512xf32>) -> tensor<128x512xf32>
  %s = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%g : tensor<128x512xf32>) outs(%e0 : tensor<128x512xf32>) {
  ^bb0(%v: f32, %o: f32):
    %n = arith.negf %v : f32
    %ex = math.exp %n : f32
    %d = arith.addf %ex, %one : f32
    %r = arith.divf %v, %d : f32
    linalg.yield %r : f32
  } -> tensor<128x512xf32>
  %u = linalg.matmul ins(%x, %wu : tensor<128x256xbf16>, tensor<256x512xbf16>) outs(%z0 : tensor<128x512xf32>) -> tensor<128x512xf32>
  %p = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%s, %u : tensor<128x512xf32>, tensor<128x512xf32>) outs(%e0 : tensor<128x512xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    linalg.yield %m : f32
  } -> tensor<128x512xf32>
  %e1 = tensor.empty() : tensor<128x512xbf16>
  %t = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%p : tensor<128x512xf32>) outs(%e1 : tensor<128x512xbf16>) {
  ^bb0(%v: f32, %o: bf16):
    %0 = arith.truncf %v : f32 to bf16
    linalg.yield %0 : bf16
  } -> tensor<128x512xbf16>
  return %t, %s : tensor<128x512xbf16>, tensor<128x512xf32>
}

// Illegal GEMMs stay as they are even with fuse-single-gemms.
// CHECK-LABEL: func.func @single_f32(
// CHECK-NOT:     dsm.fused_chain
// CHECK:         linalg.matmul
func.func @single_f32(%a: tensor<128x256xf32>, %b: tensor<256x512xf32>, %z: tensor<128x512xf32>) -> tensor<128x512xf32> {
  %c = linalg.matmul ins(%a, %b : tensor<128x256xf32>, tensor<256x512xf32>) outs(%z : tensor<128x512xf32>) -> tensor<128x512xf32>
  return %c : tensor<128x512xf32>
}

// A chain and a single GEMM in one function: the chain is ffn, the other gemm.
// DEFAULT-LABEL: func.func @chain_and_single(
// DEFAULT:         dsm.fused_chain ffn
// DEFAULT-NOT:     dsm.fused_chain
// DEFAULT:         linalg.matmul
// DEFAULT-NOT:     dsm.fused_chain
// CHECK-LABEL: func.func @chain_and_single(
// CHECK:         %[[F:.+]] = dsm.fused_chain ffn
// CHECK:         %[[G:.+]] = dsm.fused_chain gemm(%[[F]],
// CHECK:         return %[[G]]
func.func @chain_and_single(%a: tensor<128x256xbf16>, %b: tensor<256x512xbf16>, %d: tensor<512x256xbf16>, %w: tensor<256x64xbf16>, %z0: tensor<128x512xbf16>, %z2: tensor<128x256xbf16>, %z3: tensor<128x64xbf16>) -> tensor<128x64xbf16> {
  %c = linalg.matmul ins(%a, %b : tensor<128x256xbf16>, tensor<256x512xbf16>) outs(%z0 : tensor<128x512xbf16>) -> tensor<128x512xbf16>
  %e = linalg.matmul ins(%c, %d : tensor<128x512xbf16>, tensor<512x256xbf16>) outs(%z2 : tensor<128x256xbf16>) -> tensor<128x256xbf16>
  %f = linalg.matmul ins(%e, %w : tensor<128x256xbf16>, tensor<256x64xbf16>) outs(%z3 : tensor<128x64xbf16>) -> tensor<128x64xbf16>
  return %f : tensor<128x64xbf16>
}

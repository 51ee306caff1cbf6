// RUN: ff-opt --dsm-fuse=report=true --verify-diagnostics %s | FileCheck %s
// RUN: ff-opt --dsm-fuse %s > %t.once.mlir
// RUN: ff-opt --dsm-fuse --dsm-fuse %s > %t.twice.mlir
// RUN: diff %t.once.mlir %t.twice.mlir

// Gated FFNs (kind gated_ffn): two GEMMs that share their input, an activation
// on the gate, an elementwise product, then the down GEMM. The body holds the
// gate GEMM first, the up GEMM second and the down GEMM third, whatever the
// order in the source.

#id = affine_map<(i, j) -> (i, j)>
#mk = affine_map<(m, n, k) -> (m, k)>
#nk = affine_map<(m, n, k) -> (n, k)>
#mn = affine_map<(m, n, k) -> (m, n)>

// SwiGLU as torch-mlir emits it: the up projection first, SiLU split into a
// sigmoid op and a product op, PyTorch Linear weights [out, in], and a
// residual add as epilogue. Dynamic M.
// CHECK-LABEL: func.func @swiglu_torch(
// CHECK-SAME:      %[[X:[a-z0-9]+]]: tensor<?x1024xbf16>, %[[WU:[a-z0-9]+]]: tensor<3072x1024xbf16>, %[[WG:[a-z0-9]+]]: tensor<3072x1024xbf16>, %[[WD:[a-z0-9]+]]: tensor<1024x3072xbf16>)
// CHECK:         %[[R:.+]] = dsm.fused_chain gated_ffn(%[[X]], %[[WG]], %[[WU]], %[[WD]]) : (tensor<?x1024xbf16>, tensor<3072x1024xbf16>, tensor<3072x1024xbf16>, tensor<1024x3072xbf16>) -> tensor<?x1024xbf16>
// CHECK-NEXT:    ^bb0(%[[BX:.+]]: tensor<?x1024xbf16>, %[[BG:.+]]: tensor<3072x1024xbf16>, %[[BU:.+]]: tensor<3072x1024xbf16>, %[[BD:.+]]: tensor<1024x3072xbf16>):
// CHECK:           %[[G:.+]] = linalg.matmul indexing_maps = [#{{.+}}, #{{.+}}, #{{.+}}] ins(%[[BX]], %[[BG]] :
// CHECK:           %[[U:.+]] = linalg.matmul indexing_maps = [#{{.+}}, #{{.+}}, #{{.+}}] ins(%[[BX]], %[[BU]] :
// CHECK:           %[[SIG:.+]] = linalg.generic {{.*}} ins(%[[G]] :
// CHECK:           %[[SILU:.+]] = linalg.generic {{.*}} ins(%[[G]], %[[SIG]] :
// CHECK:           %[[P:.+]] = linalg.generic {{.*}} ins(%[[SILU]], %[[U]] :
// CHECK:           %[[E:.+]] = linalg.matmul indexing_maps = [#{{.+}}, #{{.+}}, #{{.+}}] ins(%[[P]], %[[BD]] :
// CHECK:           %[[Y:.+]] = linalg.generic {{.*}} ins(%[[E]], %[[BX]] :
// CHECK:           dsm.yield %[[Y]] : tensor<?x1024xbf16>
// CHECK:         return %[[R]]
func.func @swiglu_torch(%x: tensor<?x1024xbf16>, %wu: tensor<3072x1024xbf16>, %wg: tensor<3072x1024xbf16>, %wd: tensor<1024x3072xbf16>) -> tensor<?x1024xbf16> {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %m = tensor.dim %x, %c0 : tensor<?x1024xbf16>
  %e0 = tensor.empty(%m) : tensor<?x3072xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<?x3072xf32>) -> tensor<?x3072xf32>
  %up = linalg.matmul indexing_maps = [#mk, #nk, #mn] ins(%x, %wu : tensor<?x1024xbf16>, tensor<3072x1024xbf16>) outs(%z0 : tensor<?x3072xf32>) -> tensor<?x3072xf32>
  %gate = linalg.matmul indexing_maps = [#mk, #nk, #mn] ins(%x, %wg : tensor<?x1024xbf16>, tensor<3072x1024xbf16>) outs(%z0 : tensor<?x3072xf32>) -> tensor<?x3072xf32>
  %sig = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%gate : tensor<?x3072xf32>) outs(%e0 : tensor<?x3072xf32>) {
  ^bb0(%a: f32, %o: f32):
    %0 = arith.negf %a : f32
    %1 = math.exp %0 : f32
    %2 = arith.addf %1, %one : f32
    %3 = arith.divf %one, %2 : f32
    linalg.yield %3 : f32
  } -> tensor<?x3072xf32>
  %silu = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%gate, %sig : tensor<?x3072xf32>, tensor<?x3072xf32>) outs(%e0 : tensor<?x3072xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %0 = arith.mulf %a, %b : f32
    linalg.yield %0 : f32
  } -> tensor<?x3072xf32>
  %e1 = tensor.empty(%m) : tensor<?x3072xbf16>
  %p = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%silu, %up : tensor<?x3072xf32>, tensor<?x3072xf32>) outs(%e1 : tensor<?x3072xbf16>) {
  ^bb0(%a: f32, %b: f32, %o: bf16):
    %0 = arith.mulf %a, %b : f32
    %1 = arith.truncf %0 : f32 to bf16
    linalg.yield %1 : bf16
  } -> tensor<?x3072xbf16>
  %e2 = tensor.empty(%m) : tensor<?x1024xf32>
  %z2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<?x1024xf32>) -> tensor<?x1024xf32>
  %d = linalg.matmul indexing_maps = [#mk, #nk, #mn] ins(%p, %wd : tensor<?x3072xbf16>, tensor<1024x3072xbf16>) outs(%z2 : tensor<?x1024xf32>) -> tensor<?x1024xf32>
  %e3 = tensor.empty(%m) : tensor<?x1024xbf16>
  %y = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%d, %x : tensor<?x1024xf32>, tensor<?x1024xbf16>) outs(%e3 : tensor<?x1024xbf16>) {
  ^bb0(%a: f32, %b: bf16, %o: bf16):
    %0 = arith.extf %b : bf16 to f32
    %1 = arith.addf %a, %0 : f32
    %2 = arith.truncf %1 : f32 to bf16
    linalg.yield %2 : bf16
  } -> tensor<?x1024xbf16>
  return %y : tensor<?x1024xbf16>
}

// GeGLU with the tanh form of GELU written with math.powf, activation and
// product in one op; weights [K, N].
// CHECK-LABEL: func.func @geglu_fused_body(
// CHECK-SAME:      %[[X:[a-z0-9]+]]: tensor<128x512xbf16>, %[[WU:[a-z0-9]+]]: tensor<512x2048xbf16>, %[[WG:[a-z0-9]+]]: tensor<512x2048xbf16>, %[[WD:[a-z0-9]+]]: tensor<2048x512xbf16>)
// CHECK:         dsm.fused_chain gated_ffn(%[[X]], %[[WG]], %[[WU]], %[[WD]])
// CHECK:           linalg.matmul ins(%{{.+}}, %{{.+}} : tensor<128x512xbf16>, tensor<512x2048xbf16>)
// CHECK:           linalg.matmul ins(%{{.+}}, %{{.+}} : tensor<128x512xbf16>, tensor<512x2048xbf16>)
// CHECK:           math.tanh
// CHECK:           linalg.matmul ins(%{{.+}}, %{{.+}} : tensor<128x2048xbf16>, tensor<2048x512xbf16>)
func.func @geglu_fused_body(%x: tensor<128x512xbf16>, %wu: tensor<512x2048xbf16>, %wg: tensor<512x2048xbf16>, %wd: tensor<2048x512xbf16>) -> tensor<128x512xf32> {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %half = arith.constant 0.5 : f32
  %three = arith.constant 3.0 : f32
  %c = arith.constant 0.044715 : f32
  %s = arith.constant 0.7978846 : f32
  %e0 = tensor.empty() : tensor<128x2048xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<128x2048xf32>) -> tensor<128x2048xf32>
  %up = linalg.matmul ins(%x, %wu : tensor<128x512xbf16>, tensor<512x2048xbf16>) outs(%z0 : tensor<128x2048xf32>) -> tensor<128x2048xf32>
  %gate = linalg.matmul ins(%x, %wg : tensor<128x512xbf16>, tensor<512x2048xbf16>) outs(%z0 : tensor<128x2048xf32>) -> tensor<128x2048xf32>
  %gelu = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%gate : tensor<128x2048xf32>) outs(%e0 : tensor<128x2048xf32>) {
  ^bb0(%a: f32, %o: f32):
    %0 = math.powf %a, %three : f32
    %1 = arith.mulf %c, %0 : f32
    %2 = arith.addf %a, %1 : f32
    %3 = arith.mulf %s, %2 : f32
    %4 = math.tanh %3 : f32
    %5 = arith.addf %one, %4 : f32
    %6 = arith.mulf %half, %a : f32
    %7 = arith.mulf %6, %5 : f32
    linalg.yield %7 : f32
  } -> tensor<128x2048xf32>
  %e1 = tensor.empty() : tensor<128x2048xbf16>
  %p = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%up, %gelu : tensor<128x2048xf32>, tensor<128x2048xf32>) outs(%e1 : tensor<128x2048xbf16>) {
  ^bb0(%a: f32, %b: f32, %o: bf16):
    %0 = arith.mulf %a, %b : f32
    %1 = arith.truncf %0 : f32 to bf16
    linalg.yield %1 : bf16
  } -> tensor<128x2048xbf16>
  %e2 = tensor.empty() : tensor<128x512xf32>
  %z2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<128x512xf32>) -> tensor<128x512xf32>
  %d = linalg.matmul ins(%p, %wd : tensor<128x2048xbf16>, tensor<2048x512xbf16>) outs(%z2 : tensor<128x512xf32>) -> tensor<128x512xf32>
  return %d : tensor<128x512xf32>
}

// SwiGLU on a [B, S, H] model (torch-mlir): row reshapes around the GEMMs and
// 3-D elementwise ops; the body comes out 2-D.
// CHECK-LABEL: func.func @swiglu_3d(
// CHECK-SAME:      %[[X:[a-z0-9]+]]: tensor<4x32x512xbf16>, %[[WG:[a-z0-9]+]]: tensor<1024x512xbf16>, %[[WU:[a-z0-9]+]]: tensor<1024x512xbf16>, %[[WD:[a-z0-9]+]]: tensor<512x1024xbf16>)
// CHECK:         %[[XC:.+]] = tensor.collapse_shape %[[X]]
// CHECK:         %[[R:.+]] = dsm.fused_chain gated_ffn(%[[XC]], %[[WG]], %[[WU]], %[[WD]]) : ({{.*}}) -> tensor<4x32x512xbf16>
// CHECK:           %[[G:.+]] = linalg.matmul {{.*}} -> tensor<128x1024xbf16>
// CHECK:           %[[U:.+]] = linalg.matmul {{.*}} -> tensor<128x1024xbf16>
// CHECK:           %[[S:.+]] = linalg.generic {{.*}} ins(%[[G]] : tensor<128x1024xbf16>)
// CHECK:           %[[P:.+]] = linalg.mul ins(%[[S]], %[[U]] : tensor<128x1024xbf16>, tensor<128x1024xbf16>)
// CHECK:           %[[E:.+]] = linalg.matmul indexing_maps = [#{{.+}}, #{{.+}}, #{{.+}}] ins(%[[P]], %{{.+}} :
// CHECK:           %[[Y:.+]] = tensor.expand_shape %[[E]]
// CHECK-NEXT:      dsm.yield %[[Y]]
// CHECK:         return %[[R]]
func.func @swiglu_3d(%x: tensor<4x32x512xbf16>, %wg: tensor<1024x512xbf16>, %wu: tensor<1024x512xbf16>, %wd: tensor<512x1024xbf16>) -> tensor<4x32x512xbf16> {
  %zero = arith.constant 0.0 : bf16
  %one = arith.constant 1.0 : bf16
  %xc = tensor.collapse_shape %x [[0, 1], [2]] : tensor<4x32x512xbf16> into tensor<128x512xbf16>
  %e = tensor.empty() : tensor<128x1024xbf16>
  %z = linalg.fill ins(%zero : bf16) outs(%e : tensor<128x1024xbf16>) -> tensor<128x1024xbf16>
  %g = linalg.matmul indexing_maps = [#mk, #nk, #mn] ins(%xc, %wg : tensor<128x512xbf16>, tensor<1024x512xbf16>) outs(%z : tensor<128x1024xbf16>) -> tensor<128x1024xbf16>
  %u = linalg.matmul indexing_maps = [#mk, #nk, #mn] ins(%xc, %wu : tensor<128x512xbf16>, tensor<1024x512xbf16>) outs(%z : tensor<128x1024xbf16>) -> tensor<128x1024xbf16>
  %g3 = tensor.expand_shape %g [[0, 1], [2]] output_shape [4, 32, 1024] : tensor<128x1024xbf16> into tensor<4x32x1024xbf16>
  %u3 = tensor.expand_shape %u [[0, 1], [2]] output_shape [4, 32, 1024] : tensor<128x1024xbf16> into tensor<4x32x1024xbf16>
  %e3 = tensor.empty() : tensor<4x32x1024xbf16>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%g3 : tensor<4x32x1024xbf16>) outs(%e3 : tensor<4x32x1024xbf16>) {
  ^bb0(%a: bf16, %o: bf16):
    %0 = arith.negf %a : bf16
    %1 = math.exp %0 : bf16
    %2 = arith.addf %1, %one : bf16
    %3 = arith.divf %a, %2 : bf16
    linalg.yield %3 : bf16
  } -> tensor<4x32x1024xbf16>
  %p = linalg.mul ins(%s, %u3 : tensor<4x32x1024xbf16>, tensor<4x32x1024xbf16>) outs(%e3 : tensor<4x32x1024xbf16>) -> tensor<4x32x1024xbf16>
  %pc = tensor.collapse_shape %p [[0, 1], [2]] : tensor<4x32x1024xbf16> into tensor<128x1024xbf16>
  %e2 = tensor.empty() : tensor<128x512xbf16>
  %z2 = linalg.fill ins(%zero : bf16) outs(%e2 : tensor<128x512xbf16>) -> tensor<128x512xbf16>
  %d = linalg.matmul indexing_maps = [#mk, #nk, #mn] ins(%pc, %wd : tensor<128x1024xbf16>, tensor<512x1024xbf16>) outs(%z2 : tensor<128x512xbf16>) -> tensor<128x512xbf16>
  %y = tensor.expand_shape %d [[0, 1], [2]] output_shape [4, 32, 512] : tensor<128x512xbf16> into tensor<4x32x512xbf16>
  return %y : tensor<4x32x512xbf16>
}

// A bilinear GLU (no activation on either branch): the earlier GEMM is taken
// as the gate.
// CHECK-LABEL: func.func @bilinear(
// CHECK-SAME:      %[[X:[a-z0-9]+]]: tensor<128x512xbf16>, %[[W1:[a-z0-9]+]]: tensor<512x1024xbf16>, %[[W2:[a-z0-9]+]]: tensor<512x1024xbf16>, %[[WD:[a-z0-9]+]]: tensor<1024x512xbf16>, %[[Z0:[a-z0-9]+]]: tensor<128x1024xbf16>, %[[Z2:[a-z0-9]+]]: tensor<128x512xbf16>)
// CHECK:         dsm.fused_chain gated_ffn(%[[X]], %[[W1]], %[[Z0]], %[[W2]], %[[WD]], %[[Z2]])
func.func @bilinear(%x: tensor<128x512xbf16>, %w1: tensor<512x1024xbf16>, %w2: tensor<512x1024xbf16>, %wd: tensor<1024x512xbf16>, %z0: tensor<128x1024xbf16>, %z2: tensor<128x512xbf16>) -> tensor<128x512xbf16> {
  %a = linalg.matmul ins(%x, %w1 : tensor<128x512xbf16>, tensor<512x1024xbf16>) outs(%z0 : tensor<128x1024xbf16>) -> tensor<128x1024xbf16>
  %b = linalg.matmul ins(%x, %w2 : tensor<128x512xbf16>, tensor<512x1024xbf16>) outs(%z0 : tensor<128x1024xbf16>) -> tensor<128x1024xbf16>
  %p = linalg.mul ins(%b, %a : tensor<128x1024xbf16>, tensor<128x1024xbf16>) outs(%z0 : tensor<128x1024xbf16>) -> tensor<128x1024xbf16>
  %d = linalg.matmul ins(%p, %wd : tensor<128x1024xbf16>, tensor<1024x512xbf16>) outs(%z2 : tensor<128x512xbf16>) -> tensor<128x512xbf16>
  return %d : tensor<128x512xbf16>
}

// Two GEMMs on different inputs meeting in a product: not the gated form.
// CHECK-LABEL: func.func @different_inputs(
// CHECK-NOT:     dsm.fused_chain
func.func @different_inputs(%x: tensor<128x512xbf16>, %y: tensor<128x512xbf16>, %w1: tensor<512x1024xbf16>, %w2: tensor<512x1024xbf16>, %wd: tensor<1024x512xbf16>, %z0: tensor<128x1024xbf16>, %z2: tensor<128x512xbf16>) -> tensor<128x512xbf16> {
  // expected-remark @below {{GEMM not fused: the two GEMMs feeding this GEMM do not share their input and shape (gated FFN form)}}
  %a = linalg.matmul ins(%x, %w1 : tensor<128x512xbf16>, tensor<512x1024xbf16>) outs(%z0 : tensor<128x1024xbf16>) -> tensor<128x1024xbf16>
  // expected-remark @below {{GEMM not fused: the two GEMMs feeding this GEMM do not share their input}}
  %b = linalg.matmul ins(%y, %w2 : tensor<128x512xbf16>, tensor<512x1024xbf16>) outs(%z0 : tensor<128x1024xbf16>) -> tensor<128x1024xbf16>
  %p = linalg.mul ins(%a, %b : tensor<128x1024xbf16>, tensor<128x1024xbf16>) outs(%z0 : tensor<128x1024xbf16>) -> tensor<128x1024xbf16>
  // expected-remark @below {{GEMM not fused: the two GEMMs feeding this GEMM do not share their input}}
  %d = linalg.matmul ins(%p, %wd : tensor<128x1024xbf16>, tensor<1024x512xbf16>) outs(%z2 : tensor<128x512xbf16>) -> tensor<128x512xbf16>
  return %d : tensor<128x512xbf16>
}

// Two branches combined by a sum, not a product.
// CHECK-LABEL: func.func @sum_not_product(
// CHECK-NOT:     dsm.fused_chain
func.func @sum_not_product(%x: tensor<128x512xbf16>, %w1: tensor<512x1024xbf16>, %w2: tensor<512x1024xbf16>, %wd: tensor<1024x512xbf16>, %z0: tensor<128x1024xbf16>, %z2: tensor<128x512xbf16>) -> tensor<128x512xbf16> {
  // expected-remark @below {{GEMM not fused: the two GEMMs feeding this GEMM are not combined by an elementwise product}}
  %a = linalg.matmul ins(%x, %w1 : tensor<128x512xbf16>, tensor<512x1024xbf16>) outs(%z0 : tensor<128x1024xbf16>) -> tensor<128x1024xbf16>
  // expected-remark @below {{GEMM not fused: the two GEMMs feeding this GEMM are not combined by an elementwise product}}
  %b = linalg.matmul ins(%x, %w2 : tensor<128x512xbf16>, tensor<512x1024xbf16>) outs(%z0 : tensor<128x1024xbf16>) -> tensor<128x1024xbf16>
  %p = linalg.add ins(%a, %b : tensor<128x1024xbf16>, tensor<128x1024xbf16>) outs(%z0 : tensor<128x1024xbf16>) -> tensor<128x1024xbf16>
  // expected-remark @below {{GEMM not fused: the two GEMMs feeding this GEMM are not combined by an elementwise product}}
  %d = linalg.matmul ins(%p, %wd : tensor<128x1024xbf16>, tensor<1024x512xbf16>) outs(%z2 : tensor<128x512xbf16>) -> tensor<128x512xbf16>
  return %d : tensor<128x512xbf16>
}

// Three GEMMs meeting before a fourth.
// CHECK-LABEL: func.func @three_branches(
// CHECK-NOT:     dsm.fused_chain
func.func @three_branches(%x: tensor<128x512xbf16>, %w: tensor<512x1024xbf16>, %wd: tensor<1024x512xbf16>, %z0: tensor<128x1024xbf16>, %z2: tensor<128x512xbf16>) -> tensor<128x512xbf16> {
  // expected-remark @below {{GEMM not fused: 3 GEMMs feed this GEMM; only the gated form (two) is supported}}
  %a = linalg.matmul ins(%x, %w : tensor<128x512xbf16>, tensor<512x1024xbf16>) outs(%z0 : tensor<128x1024xbf16>) -> tensor<128x1024xbf16>
  // expected-remark @below {{GEMM not fused: 3 GEMMs feed this GEMM}}
  %b = linalg.matmul ins(%x, %w : tensor<128x512xbf16>, tensor<512x1024xbf16>) outs(%z0 : tensor<128x1024xbf16>) -> tensor<128x1024xbf16>
  // expected-remark @below {{GEMM not fused: 3 GEMMs feed this GEMM}}
  %c = linalg.matmul ins(%x, %w : tensor<128x512xbf16>, tensor<512x1024xbf16>) outs(%z0 : tensor<128x1024xbf16>) -> tensor<128x1024xbf16>
  %p = linalg.mul ins(%a, %b : tensor<128x1024xbf16>, tensor<128x1024xbf16>) outs(%z0 : tensor<128x1024xbf16>) -> tensor<128x1024xbf16>
  %q = linalg.mul ins(%p, %c : tensor<128x1024xbf16>, tensor<128x1024xbf16>) outs(%z0 : tensor<128x1024xbf16>) -> tensor<128x1024xbf16>
  // expected-remark @below {{GEMM not fused: 3 GEMMs feed this GEMM}}
  %d = linalg.matmul ins(%q, %wd : tensor<128x1024xbf16>, tensor<1024x512xbf16>) outs(%z2 : tensor<128x512xbf16>) -> tensor<128x512xbf16>
  return %d : tensor<128x512xbf16>
}

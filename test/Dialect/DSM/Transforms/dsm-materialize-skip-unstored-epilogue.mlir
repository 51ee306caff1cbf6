// RUN: ff-opt %s --dsm-materialize | FileCheck %s

// Rows past M skip a dividing epilogue, not only its stores: where A's
// rows past M are zero (fitted boxes and tail maps zero the ring) their
// accumulators are zero, and silu's g / (1 + e^-g) at g = 0 takes fp32
// division's slow path. In a gated GEMM kernel whose tiles may hold such
// rows (@partial: M = 200 on 128-row tiles; every bin of @dyn) each
// fragment row's values come from an scf.if on the row lying below M that
// yields zeros otherwise; the quad's shuffles then pack the yielded
// values, and the store keeps the same predicate. Tiles of full rows
// (@full, M = 256) and epilogues without a division (@gemm_partial) keep
// the plain path.

// CHECK-LABEL: gpu.func @partial_0
// CHECK: %[[YS:.*]]:16 = scf.if %[[VALID:.*]] -> (bf16, bf16, bf16, bf16, bf16, bf16, bf16, bf16, bf16, bf16, bf16, bf16, bf16, bf16, bf16, bf16) {
// CHECK: math.exp
// CHECK: arith.divf
// CHECK: scf.yield
// CHECK-NEXT: } else {
// CHECK-NEXT: %[[Z:.*]] = arith.constant 0.000000e+00 : bf16
// CHECK-NEXT: scf.yield %[[Z]], %[[Z]], %[[Z]], %[[Z]], %[[Z]], %[[Z]], %[[Z]], %[[Z]], %[[Z]], %[[Z]], %[[Z]], %[[Z]], %[[Z]], %[[Z]], %[[Z]], %[[Z]] :
// CHECK: llvm.insertelement %[[YS]]#0
// CHECK: nvvm.shfl.sync bfly
// CHECK: scf.if %[[VALID]] {
// CHECK: llvm.store
// CHECK-LABEL: gpu.func @full_1
// CHECK-NOT: -> (bf16,
// CHECK-LABEL: gpu.func @dyn_2_m0
// CHECK: scf.if %{{.*}} -> (bf16,
// CHECK-LABEL: gpu.func @dyn_2_m1
// CHECK: scf.if %{{.*}} -> (bf16,
// CHECK-LABEL: gpu.func @dyn_2_m2
// CHECK: scf.if %{{.*}} -> (bf16,
// CHECK-LABEL: gpu.func @gemm_partial_3
// CHECK-NOT: -> (bf16,
// CHECK: gpu.return

func.func @partial(%a: tensor<200x512xbf16>, %wg: tensor<512x256xbf16>, %wu: tensor<512x256xbf16>) -> tensor<200x256xbf16> {
  %r = dsm.fused_chain gated_gemm (%a, %wg, %wu) {schedule = #dsm.schedule<cluster = [1, 1, 1, 1], block = [128, 64, 64, 16], grid = [2, 4, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [], stages = 4, cost_ns = 1000>}
      : (tensor<200x512xbf16>, tensor<512x256xbf16>, tensor<512x256xbf16>) -> tensor<200x256xbf16> {
  ^bb0(%x: tensor<200x512xbf16>, %g: tensor<512x256xbf16>, %u: tensor<512x256xbf16>):
    %z = arith.constant 0.0 : f32
    %one = arith.constant 1.0 : f32
    %e0 = tensor.empty() : tensor<200x256xf32>
    %f0 = linalg.fill ins(%z : f32) outs(%e0 : tensor<200x256xf32>) -> tensor<200x256xf32>
    %cg = linalg.matmul ins(%x, %g : tensor<200x512xbf16>, tensor<512x256xbf16>) outs(%f0 : tensor<200x256xf32>) -> tensor<200x256xf32>
    %e1 = tensor.empty() : tensor<200x256xf32>
    %f1 = linalg.fill ins(%z : f32) outs(%e1 : tensor<200x256xf32>) -> tensor<200x256xf32>
    %cu = linalg.matmul ins(%x, %u : tensor<200x512xbf16>, tensor<512x256xbf16>) outs(%f1 : tensor<200x256xf32>) -> tensor<200x256xf32>
    %hb = tensor.empty() : tensor<200x256xbf16>
    %h = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%cg, %cu : tensor<200x256xf32>, tensor<200x256xf32>) outs(%hb : tensor<200x256xbf16>) {
    ^bb0(%gv: f32, %uv: f32, %out: bf16):
      %n = arith.negf %gv : f32
      %ex = math.exp %n : f32
      %den = arith.addf %ex, %one : f32
      %s = arith.divf %gv, %den : f32
      %p = arith.mulf %s, %uv : f32
      %t = arith.truncf %p : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<200x256xbf16>
    dsm.yield %h : tensor<200x256xbf16>
  }
  return %r : tensor<200x256xbf16>
}

func.func @full(%a: tensor<256x512xbf16>, %wg: tensor<512x256xbf16>, %wu: tensor<512x256xbf16>) -> tensor<256x256xbf16> {
  %r = dsm.fused_chain gated_gemm (%a, %wg, %wu) {schedule = #dsm.schedule<cluster = [1, 1, 1, 1], block = [128, 64, 64, 16], grid = [2, 4, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [], stages = 4, cost_ns = 1000>}
      : (tensor<256x512xbf16>, tensor<512x256xbf16>, tensor<512x256xbf16>) -> tensor<256x256xbf16> {
  ^bb0(%x: tensor<256x512xbf16>, %g: tensor<512x256xbf16>, %u: tensor<512x256xbf16>):
    %z = arith.constant 0.0 : f32
    %one = arith.constant 1.0 : f32
    %e0 = tensor.empty() : tensor<256x256xf32>
    %f0 = linalg.fill ins(%z : f32) outs(%e0 : tensor<256x256xf32>) -> tensor<256x256xf32>
    %cg = linalg.matmul ins(%x, %g : tensor<256x512xbf16>, tensor<512x256xbf16>) outs(%f0 : tensor<256x256xf32>) -> tensor<256x256xf32>
    %e1 = tensor.empty() : tensor<256x256xf32>
    %f1 = linalg.fill ins(%z : f32) outs(%e1 : tensor<256x256xf32>) -> tensor<256x256xf32>
    %cu = linalg.matmul ins(%x, %u : tensor<256x512xbf16>, tensor<512x256xbf16>) outs(%f1 : tensor<256x256xf32>) -> tensor<256x256xf32>
    %hb = tensor.empty() : tensor<256x256xbf16>
    %h = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%cg, %cu : tensor<256x256xf32>, tensor<256x256xf32>) outs(%hb : tensor<256x256xbf16>) {
    ^bb0(%gv: f32, %uv: f32, %out: bf16):
      %n = arith.negf %gv : f32
      %ex = math.exp %n : f32
      %den = arith.addf %ex, %one : f32
      %s = arith.divf %gv, %den : f32
      %p = arith.mulf %s, %uv : f32
      %t = arith.truncf %p : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<256x256xbf16>
    dsm.yield %h : tensor<256x256xbf16>
  }
  return %r : tensor<256x256xbf16>
}

func.func @dyn(%a: tensor<?x512xbf16>, %wg: tensor<512x256xbf16>, %wu: tensor<512x256xbf16>) -> tensor<?x256xbf16> {
  %r = dsm.fused_chain gated_gemm (%a, %wg, %wu) {schedule = #dsm.schedule_table<[#dsm.schedule<cluster = [1, 1, 1, 1], block = [64, 64, 64, 16], grid = [1, 4, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [], stages = 4, cost_ns = 1000, m_lo = 1, m_hi = 64>, #dsm.schedule<cluster = [1, 1, 1, 1], block = [128, 64, 64, 16], grid = [1, 4, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [], stages = 4, cost_ns = 2000, m_lo = 65, m_hi = 2048>, #dsm.schedule<cluster = [1, 1, 1, 1], block = [128, 64, 64, 16], grid = [1, 4, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [], stages = 4, cost_ns = 3000, m_lo = 2049, m_hi = 1048576>]>}
      : (tensor<?x512xbf16>, tensor<512x256xbf16>, tensor<512x256xbf16>) -> tensor<?x256xbf16> {
  ^bb0(%x: tensor<?x512xbf16>, %g: tensor<512x256xbf16>, %u: tensor<512x256xbf16>):
    %z = arith.constant 0.0 : f32
    %one = arith.constant 1.0 : f32
    %c0 = arith.constant 0 : index
    %d0 = tensor.dim %x, %c0 : tensor<?x512xbf16>
    %e0 = tensor.empty(%d0) : tensor<?x256xf32>
    %f0 = linalg.fill ins(%z : f32) outs(%e0 : tensor<?x256xf32>) -> tensor<?x256xf32>
    %cg = linalg.matmul ins(%x, %g : tensor<?x512xbf16>, tensor<512x256xbf16>) outs(%f0 : tensor<?x256xf32>) -> tensor<?x256xf32>
    %e1 = tensor.empty(%d0) : tensor<?x256xf32>
    %f1 = linalg.fill ins(%z : f32) outs(%e1 : tensor<?x256xf32>) -> tensor<?x256xf32>
    %cu = linalg.matmul ins(%x, %u : tensor<?x512xbf16>, tensor<512x256xbf16>) outs(%f1 : tensor<?x256xf32>) -> tensor<?x256xf32>
    %hb = tensor.empty(%d0) : tensor<?x256xbf16>
    %h = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%cg, %cu : tensor<?x256xf32>, tensor<?x256xf32>) outs(%hb : tensor<?x256xbf16>) {
    ^bb0(%gv: f32, %uv: f32, %out: bf16):
      %n = arith.negf %gv : f32
      %ex = math.exp %n : f32
      %den = arith.addf %ex, %one : f32
      %s = arith.divf %gv, %den : f32
      %p = arith.mulf %s, %uv : f32
      %t = arith.truncf %p : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<?x256xbf16>
    dsm.yield %h : tensor<?x256xbf16>
  }
  return %r : tensor<?x256xbf16>
}

func.func @gemm_partial(%a: tensor<200x512xbf16>, %b: tensor<512x1024xbf16>) -> tensor<200x1024xbf16> {
  %r = dsm.fused_chain gemm (%a, %b) {schedule = #dsm.schedule<cluster = [1, 1, 1, 1], block = [128, 256, 64, 16], grid = [2, 4, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [], stages = 3, cost_ns = 1000>}
      : (tensor<200x512xbf16>, tensor<512x1024xbf16>) -> tensor<200x1024xbf16> {
  ^bb0(%x: tensor<200x512xbf16>, %w: tensor<512x1024xbf16>):
    %cst = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<200x1024xf32>
    %f = linalg.fill ins(%cst : f32) outs(%e : tensor<200x1024xf32>) -> tensor<200x1024xf32>
    %mm = linalg.matmul ins(%x, %w : tensor<200x512xbf16>, tensor<512x1024xbf16>) outs(%f : tensor<200x1024xf32>) -> tensor<200x1024xf32>
    %e2 = tensor.empty() : tensor<200x1024xbf16>
    %t = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%mm : tensor<200x1024xf32>) outs(%e2 : tensor<200x1024xbf16>) {
    ^bb0(%in: f32, %o: bf16):
      %v = arith.truncf %in : f32 to bf16
      linalg.yield %v : bf16
    }  -> tensor<200x1024xbf16>
    dsm.yield %t : tensor<200x1024xbf16>
  }
  return %r : tensor<200x1024xbf16>
}


// RUN: ff-opt %s --dsm-materialize=shuffle-push=false --split-input-file | FileCheck %s
// RUN: ff-opt %s --dsm-materialize --split-input-file | FileCheck %s --check-prefix=PUSH

// The shuffle family (cluster [1, c, 1, c]): every rank computes its act(C)
// slice over the dead stage rings (slice at 0, the gathered slices after
// it), the cluster gathers them with dsm.shuffle (no reduce-scatter), and
// each rank computes its blk_l = L / c columns of E over the cluster's whole
// n range in 128-column sub-tiles, from a D ring of 64-row boxes; with two
// clusters along n, E meets in the fp32 workspace from registers.
// CHECK: dsm.bundles = [{chain = {activation = "relu"
// CHECK-SAME: cluster = array<i64: 4, 1, 1>
// CHECK-SAME: dynamic_smem = 230400
// CHECK-SAME: grid = array<i64: 8, 1, 1>
// CHECK-SAME: {box = array<i64: 64, 128>, {{.*}}tensor = "in0"}
// CHECK-SAME: {box = array<i64: 64, 64>, {{.*}}tensor = "in1"}
// CHECK-SAME: {box = array<i64: 64, 64>, {{.*}}tensor = "in2"}
// CHECK-SAME: {bytes_per_m = 2064 : i64, kind = "workspace"
// CHECK-LABEL: gpu.func @ffn_0
// CHECK: %[[SLICE:.*]] = dsm.alloc at 0 : !dsm.buffer<256x64xbf16, split = [1, 1]>
// CHECK: %[[ALL:.*]] = dsm.alloc at 32768 : !dsm.buffer<1024x64xbf16, split = [1, 1]>
// CHECK-NOT: dsm.reduce
// CHECK: nvvm.wgmma.mma_async {{.*}}<m = 64, n = 128, k = 16>, D[<f32>, <zero>], A[<bf16>, <one>, <row>], B[<bf16>, <one>, <row>]
// CHECK-COUNT-3: nvvm.wgmma.mma_async {{.*}}<m = 64, n = 128, k = 16>, D[<f32>, <one>], A[<bf16>, <one>, <row>], B[<bf16>, <one>, <row>]
// CHECK: arith.maximumf
// CHECK: dsm.shuffle %[[SLICE]] into %[[ALL]] axis = 0 group(4, 1) {threads = 256 : i64}
// CHECK-NEXT: nvvm.fence.proxy
// The second GEMM's first n step starts each sub-tile's accumulator.
// CHECK: nvvm.wgmma.mma_async {{.*}}<m = 64, n = 128, k = 16>, D[<f32>, <zero>], A[<bf16>, <one>, <row>], B[<bf16>, <one>, <row>]
// CHECK-COUNT-3: nvvm.wgmma.mma_async {{.*}}<m = 64, n = 128, k = 16>, D[<f32>, <one>], A[<bf16>, <one>, <row>], B[<bf16>, <one>, <row>]
// CHECK: scf.for
// CHECK-COUNT-4: nvvm.wgmma.mma_async {{.*}}<m = 64, n = 128, k = 16>, D[<f32>, <one>], A[<bf16>, <one>, <row>], B[<bf16>, <one>, <row>]
// CHECK: llvm.inline_asm has_side_effects "red.relaxed.gpu.global.add.v2.f32
// CHECK-NOT: dsm.reduce
// CHECK: gpu.launch_func @ffn_0_module::@ffn_0 clusters in
// With shuffle-push (the default) the gather is an in-place push onto a barrier created
// (count 1) before the start's cluster barrier, used once, at phase 0. The
// producer arrives on the push's cluster barrier after its main loop and
// waits once the D ring is full; the consumers arrive as soon as their
// main loop has retired, store act(C) straight into their rank's slot of
// the gathered slices (no separate slice buffer; the epilogue fences each
// warpgroup's rows for the async proxy), meet at a named barrier, and the
// push only waits. Both early arrives are relaxed: the peers' copies need
// only the rings' reads retired, not this CTA's writes.
// PUSH-LABEL: gpu.func @ffn_0
// PUSH-NOT: dsm.alloc at 0
// PUSH: %[[ALL:.*]] = dsm.alloc at 32768 : !dsm.buffer<1024x64xbf16, split = [1, 1]>
// PUSH-NOT: dsm.alloc at 0
// PUSH: %[[BAR:.*]] = dsm.barrier_create count = 1 : !dsm.barrier
// PUSH: dsm.cluster_arrive relaxed
// PUSH: nvgpu.tma.async.load
// PUSH: dsm.cluster_arrive relaxed
// PUSH: scf.for
// PUSH: dsm.cluster_wait
// PUSH: nvvm.wgmma.wait.group.sync.aligned 0
// PUSH-NEXT: dsm.cluster_arrive relaxed
// PUSH: arith.maximumf
// PUSH: nvvm.fence.proxy
// PUSH: nvvm.barrier id = %{{.*}} number_of_threads = %c128_i32
// PUSH-NOT: nvvm.fence.proxy
// PUSH: nvvm.barrier id = %{{.*}} number_of_threads = %{{.*}}
// PUSH-NEXT: %[[P0:.*]] = arith.constant false
// PUSH-NEXT: dsm.shuffle into %[[ALL]] axis = 0 group(4, 1) push(%[[BAR]], %[[P0]]) arrived {threads = 256 : i64} : !dsm.buffer<1024x64xbf16, split = [1, 1]>
// PUSH-NOT: nvvm.fence.proxy
// PUSH: nvvm.wgmma.mma_async
func.func @ffn(%a0: tensor<256x512xbf16>, %a1: tensor<512x1024xbf16>, %a2: tensor<1024x512xbf16>) -> tensor<256x512xbf16> {
  %r = dsm.fused_chain ffn (%a0, %a1, %a2) {schedule = #dsm.schedule<cluster = [1, 4, 1, 4], block = [128, 128, 64, 128], grid = [2, 2, 1, 1], order = [m, n, l, k], spatial = [m, n, l], residency = [dsm], collectives = [shuffle, inter_cluster_reduce], stages = 4, cost_ns = 1000>}
      : (tensor<256x512xbf16>, tensor<512x1024xbf16>, tensor<1024x512xbf16>) -> tensor<256x512xbf16> {
  ^bb0(%x: tensor<256x512xbf16>, %w1: tensor<512x1024xbf16>, %w2: tensor<1024x512xbf16>):
    %zero = arith.constant 0.0 : f32
    %g_e = tensor.empty() : tensor<256x1024xf32>
    %g_f = linalg.fill ins(%zero : f32) outs(%g_e : tensor<256x1024xf32>) -> tensor<256x1024xf32>
    %g = linalg.matmul ins(%x, %w1 : tensor<256x512xbf16>, tensor<512x1024xbf16>) outs(%g_f : tensor<256x1024xf32>) -> tensor<256x1024xf32>
    %h_e = tensor.empty() : tensor<256x1024xbf16>
    %h = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%g : tensor<256x1024xf32>) outs(%h_e : tensor<256x1024xbf16>) {
    ^bb0(%gv: f32, %o: bf16):
      %z = arith.constant 0.0 : f32
      %y = arith.maximumf %gv, %z : f32
      %t = arith.truncf %y : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<256x1024xbf16>
    %e_e = tensor.empty() : tensor<256x512xf32>
    %e_f = linalg.fill ins(%zero : f32) outs(%e_e : tensor<256x512xf32>) -> tensor<256x512xf32>
    %e = linalg.matmul ins(%h, %w2 : tensor<256x1024xbf16>, tensor<1024x512xbf16>) outs(%e_f : tensor<256x512xf32>) -> tensor<256x512xf32>
    %o_e = tensor.empty() : tensor<256x512xbf16>
    %o = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%e : tensor<256x512xf32>) outs(%o_e : tensor<256x512xbf16>) {
    ^bb0(%ev: f32, %oo: bf16):
      %t = arith.truncf %ev : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<256x512xbf16>
    dsm.yield %o : tensor<256x512xbf16>
  }
  return %r : tensor<256x512xbf16>
}

// -----

// A gated FFN with PyTorch Linear weights (K-major gate, up and D[L, N]) in
// one cluster of 2: D is loaded as one box of 128 l rows x 64 n per n step
// (the layout of C, B layout "col"), and E is stored through the last
// epilogue without a workspace.
// CHECK-LABEL: gpu.func @gated_shuffle_0
// CHECK: %[[SLICE:.*]] = dsm.alloc at 0 : !dsm.buffer<256x64xbf16, split = [1, 1]>
// CHECK: %[[ALL:.*]] = dsm.alloc at 32768 : !dsm.buffer<512x64xbf16, split = [1, 1]>
// CHECK: nvgpu.tma.async.load {{.*}} -> memref<128x64xbf16
// CHECK: } else {
// CHECK: math.exp
// CHECK: dsm.shuffle %[[SLICE]] into %[[ALL]] axis = 0 group(2, 1) {threads = 256 : i64}
// CHECK: nvvm.wgmma.mma_async {{.*}}<m = 64, n = 128, k = 16>, D[<f32>, <zero>], A[<bf16>, <one>, <row>], B[<bf16>, <one>, <col>]
// CHECK-COUNT-3: nvvm.wgmma.mma_async {{.*}}<m = 64, n = 128, k = 16>, D[<f32>, <one>], A[<bf16>, <one>, <row>], B[<bf16>, <one>, <col>]
// CHECK-NOT: red.relaxed.gpu.global
// CHECK: nvvm.shfl.sync {{ *}}bfly
// CHECK: llvm.store {{.*}} {alignment = 16 : i64} : vector<4xi32>
// CHECK: gpu.launch_func @gated_shuffle_0_module::@gated_shuffle_0 clusters in
#mk = affine_map<(m, n, k) -> (m, k)>
#nk = affine_map<(m, n, k) -> (n, k)>
#mn = affine_map<(m, n, k) -> (m, n)>
#id = affine_map<(i, j) -> (i, j)>
func.func @gated_shuffle(%a0: tensor<128x128xbf16>, %a1: tensor<256x128xbf16>, %a2: tensor<256x128xbf16>, %a3: tensor<256x256xbf16>) -> tensor<128x256xbf16> {
  %r = dsm.fused_chain gated_ffn (%a0, %a1, %a2, %a3) {schedule = #dsm.schedule<cluster = [1, 2, 1, 2], block = [128, 128, 64, 128], grid = [1, 1, 1, 1], order = [m, n, l, k], spatial = [m, n, l], residency = [dsm], collectives = [shuffle], stages = 2, cost_ns = 1000>}
      : (tensor<128x128xbf16>, tensor<256x128xbf16>, tensor<256x128xbf16>, tensor<256x256xbf16>) -> tensor<128x256xbf16> {
  ^bb0(%x: tensor<128x128xbf16>, %wg: tensor<256x128xbf16>, %wu: tensor<256x128xbf16>, %wd: tensor<256x256xbf16>):
    %zero = arith.constant 0.0 : f32
    %one = arith.constant 1.0 : f32
    %z_e = tensor.empty() : tensor<128x256xf32>
    %z = linalg.fill ins(%zero : f32) outs(%z_e : tensor<128x256xf32>) -> tensor<128x256xf32>
    %g = linalg.matmul indexing_maps = [#mk, #nk, #mn] ins(%x, %wg : tensor<128x128xbf16>, tensor<256x128xbf16>) outs(%z : tensor<128x256xf32>) -> tensor<128x256xf32>
    %u = linalg.matmul indexing_maps = [#mk, #nk, #mn] ins(%x, %wu : tensor<128x128xbf16>, tensor<256x128xbf16>) outs(%z : tensor<128x256xf32>) -> tensor<128x256xf32>
    %s_e = tensor.empty() : tensor<128x256xf32>
    %s = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%g : tensor<128x256xf32>) outs(%s_e : tensor<128x256xf32>) {
    ^bb0(%a: f32, %o: f32):
      %n0 = arith.negf %a : f32
      %n1 = math.exp %n0 : f32
      %n2 = arith.addf %n1, %one : f32
      %n3 = arith.divf %one, %n2 : f32
      %n4 = arith.mulf %a, %n3 : f32
      linalg.yield %n4 : f32
    } -> tensor<128x256xf32>
    %p_e = tensor.empty() : tensor<128x256xbf16>
    %p = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%s, %u : tensor<128x256xf32>, tensor<128x256xf32>) outs(%p_e : tensor<128x256xbf16>) {
    ^bb0(%a: f32, %b: f32, %o: bf16):
      %m = arith.mulf %a, %b : f32
      %t = arith.truncf %m : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<128x256xbf16>
    %e_e = tensor.empty() : tensor<128x256xf32>
    %e_f = linalg.fill ins(%zero : f32) outs(%e_e : tensor<128x256xf32>) -> tensor<128x256xf32>
    %e = linalg.matmul indexing_maps = [#mk, #nk, #mn] ins(%p, %wd : tensor<128x256xbf16>, tensor<256x256xbf16>) outs(%e_f : tensor<128x256xf32>) -> tensor<128x256xf32>
    %y_e = tensor.empty() : tensor<128x256xbf16>
    %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%e : tensor<128x256xf32>) outs(%y_e : tensor<128x256xbf16>) {
    ^bb0(%a: f32, %o: bf16):
      %t = arith.truncf %a : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<128x256xbf16>
    dsm.yield %y : tensor<128x256xbf16>
  }
  return %r : tensor<128x256xbf16>
}


// -----

// A cluster of 3 (not a power of two; G7's shape, N = L = 768 with PyTorch
// Linear weights): 3 x 4 clusters of 3 CTAs, each rank gathering the
// cluster's 3 act(C) slices of 64 x 64 and computing its L / 3 = 256
// columns of E in two 128-column sub-tiles over the cluster's 192 n, which
// meet across the 4 clusters along n in the workspace.
// PUSH-LABEL: dsm.bundles = [{chain = {activation = "relu"
// PUSH-SAME: cluster = array<i64: 3, 1, 1>
// PUSH-SAME: grid = array<i64: 12, 1, 1>
// PUSH-SAME: kind = "workspace"
// PUSH-LABEL: gpu.func @g7_0
// PUSH-SAME: known_cluster_size = array<i32: 3, 1, 1>
// PUSH: %[[ALL:.*]] = dsm.alloc at {{[0-9]+}} : !dsm.buffer<192x64xbf16, split = [1, 1]>
// PUSH: nvvm.wgmma.mma_async {{.*}}<m = 64, n = 64, k = 16>
// PUSH: dsm.shuffle into %[[ALL]] axis = 0 group(3, 1) push(
// PUSH: nvvm.wgmma.mma_async {{.*}}<m = 64, n = 128, k = 16>, D[<f32>, <zero>], A[<bf16>, <one>, <row>], B[<bf16>, <one>, <col>]
// PUSH: gpu.launch_func @g7_0_module::@g7_0 clusters in
#mk7 = affine_map<(m, n, k) -> (m, k)>
#nk7 = affine_map<(m, n, k) -> (n, k)>
#mn7 = affine_map<(m, n, k) -> (m, n)>
#id7 = affine_map<(i, j) -> (i, j)>
func.func @g7(%a0: tensor<128x768xbf16>, %a1: tensor<768x768xbf16>, %a2: tensor<768x768xbf16>) -> tensor<128x768xbf16> {
  %r = dsm.fused_chain ffn (%a0, %a1, %a2) {schedule = #dsm.schedule<cluster = [1, 3, 1, 3], block = [64, 64, 64, 256], grid = [2, 4, 1, 1], order = [m, n, l, k], spatial = [m, n, l], residency = [dsm], collectives = [shuffle, inter_cluster_reduce], stages = 4, cost_ns = 1000>}
      : (tensor<128x768xbf16>, tensor<768x768xbf16>, tensor<768x768xbf16>) -> tensor<128x768xbf16> {
  ^bb0(%x: tensor<128x768xbf16>, %w1: tensor<768x768xbf16>, %w2: tensor<768x768xbf16>):
    %zero = arith.constant 0.0 : f32
    %g_e = tensor.empty() : tensor<128x768xf32>
    %g_f = linalg.fill ins(%zero : f32) outs(%g_e : tensor<128x768xf32>) -> tensor<128x768xf32>
    %g = linalg.matmul indexing_maps = [#mk7, #nk7, #mn7] ins(%x, %w1 : tensor<128x768xbf16>, tensor<768x768xbf16>) outs(%g_f : tensor<128x768xf32>) -> tensor<128x768xf32>
    %h_e = tensor.empty() : tensor<128x768xbf16>
    %h = linalg.generic {indexing_maps = [#id7, #id7], iterator_types = ["parallel", "parallel"]} ins(%g : tensor<128x768xf32>) outs(%h_e : tensor<128x768xbf16>) {
    ^bb0(%gv: f32, %o: bf16):
      %y = arith.maximumf %gv, %zero : f32
      %t = arith.truncf %y : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<128x768xbf16>
    %e_e = tensor.empty() : tensor<128x768xf32>
    %e_f = linalg.fill ins(%zero : f32) outs(%e_e : tensor<128x768xf32>) -> tensor<128x768xf32>
    %e = linalg.matmul indexing_maps = [#mk7, #nk7, #mn7] ins(%h, %w2 : tensor<128x768xbf16>, tensor<768x768xbf16>) outs(%e_f : tensor<128x768xf32>) -> tensor<128x768xf32>
    %o_e = tensor.empty() : tensor<128x768xbf16>
    %o = linalg.generic {indexing_maps = [#id7, #id7], iterator_types = ["parallel", "parallel"]} ins(%e : tensor<128x768xf32>) outs(%o_e : tensor<128x768xbf16>) {
    ^bb0(%ev: f32, %oo: bf16):
      %t = arith.truncf %ev : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<128x768xbf16>
    dsm.yield %o : tensor<128x768xbf16>
  }
  return %r : tensor<128x768xbf16>
}

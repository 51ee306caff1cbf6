// RUN: ff-opt %s | FileCheck %s
// RUN: ff-opt %s | ff-opt | FileCheck %s
// RUN: ff-opt %s --mlir-print-op-generic | ff-opt | FileCheck %s

// Round trip of every dsm attribute, type and op.

#id = affine_map<(i, j) -> (i, j)>

// CHECK: module attributes {dsm.target = #dsm.target<name = "h100-sxm", chip = "sm_90a", sms = 132, smem_per_sm = 233472, smem_per_block = 232448, regs_per_sm = 65536, max_cluster = 8, max_cluster_nonportable = 16, clock_mhz = 1830, hbm_gbps = 3350, l2_bytes = 52428800, dsm_gbps = [3300, 3100, 3000, 2900], dsm_latency = [190, 200, 240, 280], tflops_bf16 = 989, tflops_f16 = 989, tflops_f32 = 494>}
module attributes {dsm.target = #dsm.target<name = "h100-sxm", chip = "sm_90a", sms = 132, smem_per_sm = 233472, smem_per_block = 232448, regs_per_sm = 65536, max_cluster = 8, max_cluster_nonportable = 16, clock_mhz = 1830, hbm_gbps = 3350, l2_bytes = 52428800, dsm_gbps = [3300, 3100, 3000, 2900], dsm_latency = [190, 200, 240, 280], tflops_bf16 = 989, tflops_f16 = 989, tflops_f32 = 494>} {


// CHECK-LABEL: func.func @ffn
// CHECK: dsm.fused_chain ffn(%{{.*}}, %{{.*}}, %{{.*}}) {schedule = #dsm.schedule<cluster = [1, 4, 1, 1], block = [128, 128, 64, 128], grid = [1, 1, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [smem], collectives = [reduce_scatter], stages = 4, cost_ns = 17500>} : (tensor<128x512xbf16>, tensor<512x512xbf16>, tensor<512x512xbf16>) -> tensor<128x512xbf16>
// CHECK: ^bb0(%{{.*}}: tensor<128x512xbf16>, %{{.*}}: tensor<512x512xbf16>, %{{.*}}: tensor<512x512xbf16>):
// CHECK: linalg.matmul
// CHECK: linalg.matmul
// CHECK: dsm.yield %{{.*}} : tensor<128x512xbf16>
func.func @ffn(%a: tensor<128x512xbf16>, %b: tensor<512x512xbf16>, %d: tensor<512x512xbf16>) -> tensor<128x512xbf16> {
  %e = dsm.fused_chain ffn(%a, %b, %d) {schedule = #dsm.schedule<cluster = [1, 4, 1, 1], block = [128, 128, 64, 128], grid = [1, 1, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [smem], collectives = [reduce_scatter], stages = 4, cost_ns = 17500>} : (tensor<128x512xbf16>, tensor<512x512xbf16>, tensor<512x512xbf16>) -> tensor<128x512xbf16> {
  ^bb0(%x: tensor<128x512xbf16>, %w1: tensor<512x512xbf16>, %w2: tensor<512x512xbf16>):
    %z = arith.constant 0.0 : f32
    %c0 = tensor.empty() : tensor<128x512xf32>
    %c1 = linalg.fill ins(%z : f32) outs(%c0 : tensor<128x512xf32>) -> tensor<128x512xf32>
    %c = linalg.matmul ins(%x, %w1 : tensor<128x512xbf16>, tensor<512x512xbf16>) outs(%c1 : tensor<128x512xf32>) -> tensor<128x512xf32>
    %cb = tensor.empty() : tensor<128x512xbf16>
    %h = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%c : tensor<128x512xf32>) outs(%cb : tensor<128x512xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %r = arith.maximumf %in, %z : f32
      %t = arith.truncf %r : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<128x512xbf16>
    %e1 = linalg.matmul ins(%h, %w2 : tensor<128x512xbf16>, tensor<512x512xbf16>) outs(%c1 : tensor<128x512xf32>) -> tensor<128x512xf32>
    %o = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%e1 : tensor<128x512xf32>) outs(%cb : tensor<128x512xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %t = arith.truncf %in : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<128x512xbf16>
    dsm.yield %o : tensor<128x512xbf16>
  }
  return %e : tensor<128x512xbf16>
}

// A chain run as a kernel sequence: the fused plan and the two GEMMs'.
// CHECK-LABEL: func.func @ffn_sequence
// CHECK: dsm.fused_chain ffn(%{{.*}}, %{{.*}}, %{{.*}}) {schedule = #dsm.schedule<{{.*}}cost_ns = 17500>, sequence = [#dsm.schedule<cluster = [1, 1, 1, 1], block = [64, 64, 64, 16], grid = [2, 8, 1, 1]{{.*}}stages = 8, cost_ns = 3000>, #dsm.schedule<cluster = [1, 1, 1, 1], block = [128, 256, 64, 16], grid = [1, 2, 1, 1]{{.*}}stages = 4, cost_ns = 4000>]}
func.func @ffn_sequence(%a: tensor<128x512xbf16>, %b: tensor<512x512xbf16>, %d: tensor<512x512xbf16>) -> tensor<128x512xbf16> {
  %e = dsm.fused_chain ffn(%a, %b, %d) {schedule = #dsm.schedule<cluster = [1, 4, 1, 1], block = [128, 128, 64, 128], grid = [1, 1, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [smem], collectives = [reduce_scatter], stages = 4, cost_ns = 17500>, sequence = [#dsm.schedule<cluster = [1, 1, 1, 1], block = [64, 64, 64, 16], grid = [2, 8, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [], stages = 8, cost_ns = 3000>, #dsm.schedule<cluster = [1, 1, 1, 1], block = [128, 256, 64, 16], grid = [1, 2, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [], stages = 4, cost_ns = 4000>]} : (tensor<128x512xbf16>, tensor<512x512xbf16>, tensor<512x512xbf16>) -> tensor<128x512xbf16> {
  ^bb0(%x: tensor<128x512xbf16>, %w1: tensor<512x512xbf16>, %w2: tensor<512x512xbf16>):
    %z = arith.constant 0.0 : f32
    %c0 = tensor.empty() : tensor<128x512xf32>
    %c1 = linalg.fill ins(%z : f32) outs(%c0 : tensor<128x512xf32>) -> tensor<128x512xf32>
    %c = linalg.matmul ins(%x, %w1 : tensor<128x512xbf16>, tensor<512x512xbf16>) outs(%c1 : tensor<128x512xf32>) -> tensor<128x512xf32>
    %cb = tensor.empty() : tensor<128x512xbf16>
    %h = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%c : tensor<128x512xf32>) outs(%cb : tensor<128x512xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %t = arith.truncf %in : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<128x512xbf16>
    %e1 = linalg.matmul ins(%h, %w2 : tensor<128x512xbf16>, tensor<512x512xbf16>) outs(%c1 : tensor<128x512xf32>) -> tensor<128x512xf32>
    %o = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%e1 : tensor<128x512xf32>) outs(%cb : tensor<128x512xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %t = arith.truncf %in : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<128x512xbf16>
    dsm.yield %o : tensor<128x512xbf16>
  }
  return %e : tensor<128x512xbf16>
}

// A gated GEMM chain (the first kernel of a gated FFN's sequence): gate
// and up share A; the generic combines them.
// CHECK-LABEL: func.func @gated_gemm
// CHECK: dsm.fused_chain gated_gemm(%{{.*}}, %{{.*}}, %{{.*}}) {schedule = #dsm.schedule<cluster = [1, 1, 1, 1], block = [128, 128, 64, 16], grid = [1, 2, 1, 1]{{.*}}stages = 4, cost_ns = 3000>}
// CHECK: dsm.yield
func.func @gated_gemm(%a: tensor<128x512xbf16>, %wg: tensor<512x256xbf16>, %wu: tensor<512x256xbf16>) -> tensor<128x256xbf16> {
  %r = dsm.fused_chain gated_gemm(%a, %wg, %wu) {schedule = #dsm.schedule<cluster = [1, 1, 1, 1], block = [128, 128, 64, 16], grid = [1, 2, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [], stages = 4, cost_ns = 3000>} : (tensor<128x512xbf16>, tensor<512x256xbf16>, tensor<512x256xbf16>) -> tensor<128x256xbf16> {
  ^bb0(%x: tensor<128x512xbf16>, %g: tensor<512x256xbf16>, %u: tensor<512x256xbf16>):
    %z = arith.constant 0.0 : f32
    %e0 = tensor.empty() : tensor<128x256xf32>
    %f0 = linalg.fill ins(%z : f32) outs(%e0 : tensor<128x256xf32>) -> tensor<128x256xf32>
    %cg = linalg.matmul ins(%x, %g : tensor<128x512xbf16>, tensor<512x256xbf16>) outs(%f0 : tensor<128x256xf32>) -> tensor<128x256xf32>
    %cu = linalg.matmul ins(%x, %u : tensor<128x512xbf16>, tensor<512x256xbf16>) outs(%f0 : tensor<128x256xf32>) -> tensor<128x256xf32>
    %hb = tensor.empty() : tensor<128x256xbf16>
    %h = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%cg, %cu : tensor<128x256xf32>, tensor<128x256xf32>) outs(%hb : tensor<128x256xbf16>) {
    ^bb0(%gv: f32, %uv: f32, %out: bf16):
      %p = arith.mulf %gv, %uv : f32
      %t = arith.truncf %p : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<128x256xbf16>
    dsm.yield %h : tensor<128x256xbf16>
  }
  return %r : tensor<128x256xbf16>
}

// A dynamic-M chain of one GEMM with a plan table.
// CHECK-LABEL: func.func @gemm_dynamic
// CHECK: dsm.fused_chain gemm(%{{.*}}, %{{.*}}) {schedule = #dsm.schedule_table<[#dsm.schedule<{{.*}}m_lo = 1, m_hi = 64>, #dsm.schedule<{{.*}}m_lo = 65, m_hi = 1048576>]>}
func.func @gemm_dynamic(%a: tensor<?x256xbf16>, %b: tensor<256x256xbf16>) -> tensor<?x256xf32> {
  %r = dsm.fused_chain gemm(%a, %b) {schedule = #dsm.schedule_table<[
      #dsm.schedule<cluster = [1, 1, 1, 1], block = [64, 256, 64, 16], grid = [1, 1, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [], stages = 4, cost_ns = 3000, m_lo = 1, m_hi = 64>,
      #dsm.schedule<cluster = [1, 1, 1, 1], block = [128, 256, 64, 16], grid = [1, 1, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [], stages = 4, cost_ns = 9000, m_lo = 65, m_hi = 1048576>]>}
      : (tensor<?x256xbf16>, tensor<256x256xbf16>) -> tensor<?x256xf32> {
  ^bb0(%x: tensor<?x256xbf16>, %w: tensor<256x256xbf16>):
    %z = arith.constant 0.0 : f32
    %c0 = arith.constant 0 : index
    %m = tensor.dim %x, %c0 : tensor<?x256xbf16>
    %e = tensor.empty(%m) : tensor<?x256xf32>
    %f = linalg.fill ins(%z : f32) outs(%e : tensor<?x256xf32>) -> tensor<?x256xf32>
    %c = linalg.matmul ins(%x, %w : tensor<?x256xbf16>, tensor<256x256xbf16>) outs(%f : tensor<?x256xf32>) -> tensor<?x256xf32>
    dsm.yield %c : tensor<?x256xf32>
  }
  return %r : tensor<?x256xf32>
}

// A chain of one GEMM may split K over its cluster alone (cls_l = 1: a
// single GEMM has no shuffle or reduce groups to keep whole).
// CHECK-LABEL: func.func @gemm_split_k
// CHECK: dsm.fused_chain gemm(%{{.*}}, %{{.*}}) {schedule = #dsm.schedule<cluster = [1, 1, 4, 1], block = [128, 256, 1024, 16], grid = [1, 16, 1, 1], order = [m, n, k, l], spatial = [m, n, k], residency = [], collectives = [all_exchange], stages = 4, cost_ns = 21000>}
func.func @gemm_split_k(%a: tensor<128x4096xbf16>, %b: tensor<4096x4096xbf16>) -> tensor<128x4096xf32> {
  %r = dsm.fused_chain gemm(%a, %b) {schedule = #dsm.schedule<cluster = [1, 1, 4, 1], block = [128, 256, 1024, 16], grid = [1, 16, 1, 1], order = [m, n, k, l], spatial = [m, n, k], residency = [], collectives = [all_exchange], stages = 4, cost_ns = 21000>}
      : (tensor<128x4096xbf16>, tensor<4096x4096xbf16>) -> tensor<128x4096xf32> {
  ^bb0(%x: tensor<128x4096xbf16>, %w: tensor<4096x4096xbf16>):
    %z = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<128x4096xf32>
    %f = linalg.fill ins(%z : f32) outs(%e : tensor<128x4096xf32>) -> tensor<128x4096xf32>
    %c = linalg.matmul ins(%x, %w : tensor<128x4096xbf16>, tensor<4096x4096xbf16>) outs(%f : tensor<128x4096xf32>) -> tensor<128x4096xf32>
    dsm.yield %c : tensor<128x4096xf32>
  }
  return %r : tensor<128x4096xf32>
}

// A cluster along m whose last cluster runs past M: 3 m tiles of 128 rows
// in 2 clusters of 2 (the fourth CTA shares B and stores nothing).
// CHECK-LABEL: func.func @gemm_cluster_m_tail
// CHECK: dsm.fused_chain gemm(%{{.*}}, %{{.*}}) {schedule = #dsm.schedule<cluster = [2, 1, 1, 1], block = [128, 64, 64, 16], grid = [2, 4, 1, 1]
func.func @gemm_cluster_m_tail(%a: tensor<384x256xbf16>, %b: tensor<256x256xbf16>) -> tensor<384x256xf32> {
  %r = dsm.fused_chain gemm(%a, %b) {schedule = #dsm.schedule<cluster = [2, 1, 1, 1], block = [128, 64, 64, 16], grid = [2, 4, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [], stages = 4, cost_ns = 1000>}
      : (tensor<384x256xbf16>, tensor<256x256xbf16>) -> tensor<384x256xf32> {
  ^bb0(%x: tensor<384x256xbf16>, %w: tensor<256x256xbf16>):
    %z = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<384x256xf32>
    %f = linalg.fill ins(%z : f32) outs(%e : tensor<384x256xf32>) -> tensor<384x256xf32>
    %c = linalg.matmul ins(%x, %w : tensor<384x256xbf16>, tensor<256x256xbf16>) outs(%f : tensor<384x256xf32>) -> tensor<384x256xf32>
    dsm.yield %c : tensor<384x256xf32>
  }
  return %r : tensor<384x256xf32>
}

// CHECK-LABEL: func.func @cluster_program
func.func @cluster_program(%g: memref<128x4096xf32>) attributes {known_cluster_size = array<i32: 4, 1, 1>} {
  // CHECK: %[[R:.*]] = dsm.cluster_rank : index
  %r = dsm.cluster_rank : index
  // CHECK: dsm.cluster_shape : index, index, index
  %x, %y, %z = dsm.cluster_shape : index, index, index
  // CHECK: %[[BUF:.*]] = dsm.alloc : !dsm.buffer<128x1024xbf16, split = [1, 4]>
  %buf = dsm.alloc : !dsm.buffer<128x1024xbf16, split = [1, 4]>
  // CHECK: dsm.local_view %[[BUF]] : !dsm.buffer<128x1024xbf16, split = [1, 4]> -> memref<128x256xbf16, #gpu.address_space<workgroup>>
  %v = dsm.local_view %buf : !dsm.buffer<128x1024xbf16, split = [1, 4]> -> memref<128x256xbf16, #gpu.address_space<workgroup>>
  // CHECK: dsm.remote_view %[[BUF]][%[[R]]] : !dsm.buffer<128x1024xbf16, split = [1, 4]> -> memref<128x256xbf16, #dsm.shared_cluster>
  %p = dsm.remote_view %buf[%r] : !dsm.buffer<128x1024xbf16, split = [1, 4]> -> memref<128x256xbf16, #dsm.shared_cluster>
  // CHECK: dsm.cluster_arrive relaxed
  dsm.cluster_arrive relaxed
  // CHECK-NEXT: dsm.cluster_wait
  dsm.cluster_wait
  // CHECK: dsm.cluster_arrive{{$}}
  dsm.cluster_arrive
  dsm.cluster_wait
  // CHECK: %[[B:.*]] = dsm.barrier_create count = 3 : !dsm.barrier
  %b = dsm.barrier_create count = 3 : !dsm.barrier
  %c64 = arith.constant 64 : index
  // CHECK: dsm.expect_tx %[[B]], %{{.*}} : !dsm.barrier
  dsm.expect_tx %b, %c64 : !dsm.barrier
  // CHECK: dsm.signal %[[B]][%[[R]]] : !dsm.barrier
  dsm.signal %b[%r] : !dsm.barrier
  %t = arith.constant true
  // CHECK: dsm.wait %[[B]], %{{.*}} : !dsm.barrier
  dsm.wait %b, %t : !dsm.barrier
  %s = dsm.alloc : !dsm.buffer<128x256xf32, split = [1, 1]>
  %q = dsm.alloc : !dsm.buffer<128x64xf32, split = [1, 1]>
  // CHECK: dsm.reduce reduce_scatter add %{{.*}} into %{{.*}} axis = 1 group(4, 1) : !dsm.buffer<128x256xf32, split = [1, 1]>, !dsm.buffer<128x64xf32, split = [1, 1]>
  dsm.reduce reduce_scatter add %s into %q axis = 1 group(4, 1) : !dsm.buffer<128x256xf32, split = [1, 1]>, !dsm.buffer<128x64xf32, split = [1, 1]>
  // The pushed forms: in place, and into a destination.
  %pt = dsm.alloc : !dsm.buffer<512x64xf32, split = [1, 1]>
  %ps = dsm.alloc : !dsm.buffer<384x64xf32, split = [1, 1]>
  // CHECK: dsm.reduce reduce_scatter add %[[PT:.*]] axis = 0 group(4, 1) push(%[[PS:.*]] : !dsm.buffer<384x64xf32, split = [1, 1]>, %[[B]], %{{.*}}) {threads = 256 : i64} : !dsm.buffer<512x64xf32, split = [1, 1]>
  dsm.reduce reduce_scatter add %pt axis = 0 group(4, 1) push(%ps : !dsm.buffer<384x64xf32, split = [1, 1]>, %b, %t) {threads = 256} : !dsm.buffer<512x64xf32, split = [1, 1]>
  %pq = dsm.alloc : !dsm.buffer<128x64xf32, split = [1, 1]>
  // CHECK: dsm.reduce reduce_scatter add %[[PT]] into %{{.*}} axis = 0 group(4, 1) push(%[[PS]] : !dsm.buffer<384x64xf32, split = [1, 1]>, %[[B]], %{{.*}}) : !dsm.buffer<512x64xf32, split = [1, 1]>, !dsm.buffer<128x64xf32, split = [1, 1]>
  dsm.reduce reduce_scatter add %pt into %pq axis = 0 group(4, 1) push(%ps : !dsm.buffer<384x64xf32, split = [1, 1]>, %b, %t) : !dsm.buffer<512x64xf32, split = [1, 1]>, !dsm.buffer<128x64xf32, split = [1, 1]>
  // CHECK: dsm.alloc at 65536 : !dsm.buffer<128x256xf32, split = [1, 1]>
  %m = dsm.alloc at 65536 : !dsm.buffer<128x256xf32, split = [1, 1]>
  // CHECK: dsm.reduce all_reduce max %{{.*}} into %{{.*}} axis = 0 group(2, 2)
  dsm.reduce all_reduce max %s into %m axis = 0 group(2, 2) : !dsm.buffer<128x256xf32, split = [1, 1]>, !dsm.buffer<128x256xf32, split = [1, 1]>
  %g1 = dsm.alloc : !dsm.buffer<128x512xf32, split = [1, 1]>
  // CHECK: dsm.shuffle %{{.*}} into %{{.*}} axis = 1 group(2, 1) : !dsm.buffer<128x256xf32, split = [1, 1]>, !dsm.buffer<128x512xf32, split = [1, 1]>
  dsm.shuffle %s into %g1 axis = 1 group(2, 1) : !dsm.buffer<128x256xf32, split = [1, 1]>, !dsm.buffer<128x512xf32, split = [1, 1]>
  %pb = dsm.barrier_create count = 1 : !dsm.barrier
  %parity = arith.constant false
  // CHECK: dsm.shuffle %{{.*}} into %{{.*}} axis = 1 group(2, 1) push(%{{.*}}, %{{.*}}) : !dsm.buffer<128x256xf32, split = [1, 1]>, !dsm.buffer<128x512xf32, split = [1, 1]>
  dsm.shuffle %s into %g1 axis = 1 group(2, 1) push(%pb, %parity) : !dsm.buffer<128x256xf32, split = [1, 1]>, !dsm.buffer<128x512xf32, split = [1, 1]>
  // CHECK: dsm.shuffle %{{.*}} into %{{.*}} axis = 1 group(2, 1) push(%{{.*}}, %{{.*}}) {threads = 256 : i64}
  dsm.shuffle %s into %g1 axis = 1 group(2, 1) push(%pb, %parity) {threads = 256} : !dsm.buffer<128x256xf32, split = [1, 1]>, !dsm.buffer<128x512xf32, split = [1, 1]>
  // CHECK: dsm.shuffle %{{.*}} into %{{.*}} axis = 1 group(2, 1) push(%{{.*}}, %{{.*}}) arrived {threads = 256 : i64}
  dsm.shuffle %s into %g1 axis = 1 group(2, 1) push(%pb, %parity) arrived {threads = 256} : !dsm.buffer<128x256xf32, split = [1, 1]>, !dsm.buffer<128x512xf32, split = [1, 1]>
  // CHECK: dsm.shuffle into %{{.*}} axis = 0 group(2, 1) push(%{{.*}}, %{{.*}}) : !dsm.buffer<128x512xf32, split = [1, 1]>
  dsm.shuffle into %g1 axis = 0 group(2, 1) push(%pb, %parity) : !dsm.buffer<128x512xf32, split = [1, 1]>
  // CHECK: dsm.multiply %{{.*}} into %{{.*}} group(2, 1) {threads = 256 : i64}
  dsm.multiply %s into %m group(2, 1) {threads = 256} : !dsm.buffer<128x256xf32, split = [1, 1]>, !dsm.buffer<128x256xf32, split = [1, 1]>
  %c0 = arith.constant 0 : index
  // CHECK: dsm.inter_cluster_reduce add %{{.*}} into %{{.*}}[%{{.*}}, %{{.*}}] : !dsm.buffer<128x64xf32, split = [1, 1]>, memref<128x4096xf32>
  dsm.inter_cluster_reduce add %q into %g[%c0, %c64] : !dsm.buffer<128x64xf32, split = [1, 1]>, memref<128x4096xf32>
  // CHECK: dsm.inter_cluster_reduce add %{{.*}} into %{{.*}}[%{{.*}}, %{{.*}}] deterministic
  dsm.inter_cluster_reduce add %q into %g[%c0, %c64] deterministic : !dsm.buffer<128x64xf32, split = [1, 1]>, memref<128x4096xf32>
  return
}

}

// Groups need not be powers of two: a cluster of 6 in two groups of 3, each
// gathering 3 slots of 128 rows.
// CHECK-LABEL: func.func @groups_of_three
func.func @groups_of_three() attributes {known_cluster_size = array<i32: 6, 1, 1>} {
  %b = dsm.barrier_create count = 1 : !dsm.barrier
  %p = arith.constant false
  %g = dsm.alloc : !dsm.buffer<384x64xf32, split = [1, 1]>
  // CHECK: dsm.shuffle into %{{.*}} axis = 0 group(3, 1) push(%{{.*}}, %{{.*}}) : !dsm.buffer<384x64xf32, split = [1, 1]>
  dsm.shuffle into %g axis = 0 group(3, 1) push(%b, %p) : !dsm.buffer<384x64xf32, split = [1, 1]>
  return
}

// Swapped operands: blk_m (152) is a multiple of 8 on wgmma's n side; the
// flag prints only where set.
// CHECK-LABEL: func.func @swapped
// CHECK: #dsm.schedule<cluster = [1, 1, 1, 1], block = [152, 128, 64, 16], grid = [2, 2, 1, 1]{{.*}}stages = 4, cost_ns = 100, swap_ab = true>
func.func @swapped() attributes {s = #dsm.schedule<cluster = [1, 1, 1, 1], block = [152, 128, 64, 16], grid = [2, 2, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [], stages = 4, cost_ns = 100, swap_ab = true>} { return }

// A swapped schedule of a dynamic M's bin (KernelPlan::swapsDynamicM).
// CHECK-LABEL: func.func @swapped_bin
// CHECK: #dsm.schedule<cluster = [1, 1, 1, 1], block = [160, 128, 64, 16], grid = [5, 24, 1, 1]{{.*}}m_lo = 513, m_hi = 768, swap_ab = true>
func.func @swapped_bin() attributes {s = #dsm.schedule<cluster = [1, 1, 1, 1], block = [160, 128, 64, 16], grid = [5, 24, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [], stages = 4, cost_ns = 100, m_lo = 513, m_hi = 768, swap_ab = true>} { return }

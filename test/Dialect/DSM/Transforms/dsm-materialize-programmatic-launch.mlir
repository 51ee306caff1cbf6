// RUN: ff-opt %s --dsm-materialize=programmatic-entry=false | FileCheck %s
// RUN: ff-opt %s --dsm-materialize="programmatic-launch=false programmatic-entry=false" | FileCheck %s --check-prefix=OFF

// Programmatic dependent launch of a sequence's second kernel (PDL), with
// the first kernels launched as before (no programmatic-entry). All
// three sequences here launch it so. `big`'s (112 KiB, 64 CTAs: one wave
// at one CTA per SM) has its dynamic shared memory raised to 114 KiB, past
// half an H100 SM with the driver's 1 KiB per CTA, so that launched beside
// the first kernel no two of its CTAs share an SM; `small`'s already needs
// 120 KiB; `wide`'s keeps its 112 KiB: its 32 clusters of 4 would not all
// be resident at one CTA per SM (30 are), so raising it would add a wave.
// `big`'s 16 MiB down weight is prefetched into L2 before the wait (a
// ring's worth: 2 of the rank's 16 k tiles, two 64-column boxes each, from
// the rank's first k tile), and `wide`'s 32 MiB one; `small`'s 512 KiB one
// is not.
// CHECK: dynamic_smem = 65536 : i64{{[^}]*}} name = "big_0_s0"
// CHECK-NOT: programmatic_launch
// CHECK-SAME: cluster = array<i64: 4, 1, 1>, dynamic_smem = 116736 : i64{{[^}]*}} name = "big_0_s1"
// CHECK-SAME: programmatic_launch = true}]
// CHECK-SAME: name = "small_1_s0"
// CHECK-NOT: programmatic_launch
// CHECK-SAME: cluster = array<i64: 8, 1, 1>, dynamic_smem = 122880 : i64{{[^}]*}} name = "small_1_s1"
// CHECK-SAME: programmatic_launch = true}]
// CHECK-SAME: name = "wide_2_s0"
// CHECK-NOT: programmatic_launch
// CHECK-SAME: cluster = array<i64: 4, 1, 1>, dynamic_smem = 114688 : i64, grid = array<i64: 128, 1, 1>{{[^}]*}} name = "wide_2_s1"
// CHECK-SAME: programmatic_launch = true}]
// CHECK-LABEL: gpu.func @big_0_s0(
// CHECK-NEXT: nvvm.griddepcontrol launch_dependents
// CHECK-LABEL: gpu.func @big_0_s1(
// CHECK: %[[KR:.*]] = arith.remui %{{.*}}, %c4
// CHECK: %[[KOFF:.*]] = arith.muli %[[KR]], %c16
// CHECK: nvvm.fence.mbarrier.init
// CHECK: dsm.cluster_wait
// CHECK: %[[K:.*]] = arith.addi %c0{{.*}}, %[[KOFF]] : index
// CHECK: %[[K0:.*]] = arith.muli %[[K]], %c64
// CHECK: %[[COL:.*]] = arith.index_cast %{{.*}} : index to i32
// CHECK-NEXT: %[[K0I:.*]] = arith.index_cast %[[K0]] : index to i32
// CHECK-NEXT: nvvm.cp.async.bulk.tensor.prefetch %arg1, box[%[[COL]], %[[K0I]]]
// CHECK-COUNT-3: nvvm.cp.async.bulk.tensor.prefetch %arg1
// CHECK-NOT: nvvm.cp.async.bulk.tensor.prefetch
// CHECK: nvvm.griddepcontrol wait
// CHECK-NOT: griddepcontrol
// CHECK: nvgpu.tma.async.load
// CHECK-LABEL: gpu.func @small_1_s0(
// CHECK-NEXT: nvvm.griddepcontrol launch_dependents
// CHECK-LABEL: gpu.func @small_1_s1(
// CHECK-NOT: bulk.tensor.prefetch
// CHECK: dsm.cluster_wait
// CHECK-NEXT: nvvm.griddepcontrol wait
// CHECK-NOT: griddepcontrol
// CHECK: gpu.return
// CHECK-LABEL: gpu.func @wide_2_s1(
// CHECK: nvvm.cp.async.bulk.tensor.prefetch
// CHECK: nvvm.griddepcontrol wait
// OFF: dynamic_smem = 114688 : i64{{[^}]*}} name = "big_0_s1"
// OFF-SAME: dynamic_smem = 122880 : i64{{[^}]*}} name = "small_1_s1"
// OFF-NOT: programmatic_launch
// OFF-NOT: griddepcontrol
// OFF-NOT: bulk.tensor.prefetch

module attributes {dsm.target = #dsm.target<name = "h100-sxm", chip = "sm_90a", sms = 132, smem_per_sm = 233472, smem_per_block = 232448, regs_per_sm = 65536, max_cluster = 8, max_cluster_nonportable = 16, clock_mhz = 1830, hbm_gbps = 3350, l2_bytes = 52428800, dsm_gbps = [3300, 3100, 3000, 2900], dsm_latency = [190, 200, 240, 280], tflops_bf16 = 989, tflops_f16 = 989, tflops_f32 = 494>} {
  func.func @big(%a: tensor<128x128xbf16>, %b: tensor<128x4096xbf16>, %d: tensor<4096x2048xbf16>) -> tensor<128x2048xf32> {
    %r = dsm.fused_chain ffn(%a, %b, %d) {schedule = #dsm.schedule<cluster = [1, 4, 1, 4], block = [64, 64, 64, 512], grid = [2, 16, 1, 1], order = [m, n, l, k], spatial = [m, n, l], residency = [dsm], collectives = [shuffle, inter_cluster_reduce], stages = 2, cost_ns = 26502>, sequence = [#dsm.schedule<cluster = [1, 1, 1, 1], block = [128, 128, 64, 16], grid = [1, 32, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [], stages = 2, cost_ns = 3000>, #dsm.schedule<cluster = [1, 1, 4, 1], block = [128, 128, 1024, 16], grid = [1, 16, 1, 1], order = [m, n, k, l], spatial = [m, n, k], residency = [], collectives = [all_exchange], stages = 2, cost_ns = 4000>]} : (tensor<128x128xbf16>, tensor<128x4096xbf16>, tensor<4096x2048xbf16>) -> tensor<128x2048xf32> {
    ^bb0(%x: tensor<128x128xbf16>, %w1: tensor<128x4096xbf16>, %w2: tensor<4096x2048xbf16>):
      %z = arith.constant 0.0 : f32
      %e0 = tensor.empty() : tensor<128x4096xf32>
      %f0 = linalg.fill ins(%z : f32) outs(%e0 : tensor<128x4096xf32>) -> tensor<128x4096xf32>
      %c = linalg.matmul ins(%x, %w1 : tensor<128x128xbf16>, tensor<128x4096xbf16>) outs(%f0 : tensor<128x4096xf32>) -> tensor<128x4096xf32>
      %hb = tensor.empty() : tensor<128x4096xbf16>
      %h = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%c : tensor<128x4096xf32>) outs(%hb : tensor<128x4096xbf16>) {
      ^bb0(%in: f32, %out: bf16):
        %t = arith.truncf %in : f32 to bf16
        linalg.yield %t : bf16
      } -> tensor<128x4096xbf16>
      %e1 = tensor.empty() : tensor<128x2048xf32>
      %f1 = linalg.fill ins(%z : f32) outs(%e1 : tensor<128x2048xf32>) -> tensor<128x2048xf32>
      %o = linalg.matmul ins(%h, %w2 : tensor<128x4096xbf16>, tensor<4096x2048xbf16>) outs(%f1 : tensor<128x2048xf32>) -> tensor<128x2048xf32>
      dsm.yield %o : tensor<128x2048xf32>
    }
    return %r : tensor<128x2048xf32>
  }

  func.func @small(%a: tensor<128x128xbf16>, %b: tensor<128x1024xbf16>, %d: tensor<1024x256xbf16>) -> tensor<128x256xf32> {
    %r = dsm.fused_chain ffn(%a, %b, %d) {schedule = #dsm.schedule<cluster = [1, 4, 1, 4], block = [64, 256, 64, 64], grid = [2, 1, 1, 1], order = [m, n, l, k], spatial = [m, n, l], residency = [dsm], collectives = [shuffle], stages = 2, cost_ns = 90000>, sequence = [#dsm.schedule<cluster = [1, 1, 1, 1], block = [128, 128, 64, 16], grid = [1, 8, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [], stages = 2, cost_ns = 3000>, #dsm.schedule<cluster = [1, 1, 8, 1], block = [128, 128, 128, 16], grid = [1, 2, 1, 1], order = [m, n, k, l], spatial = [m, n, k], residency = [], collectives = [all_exchange], stages = 2, cost_ns = 4000>]} : (tensor<128x128xbf16>, tensor<128x1024xbf16>, tensor<1024x256xbf16>) -> tensor<128x256xf32> {
    ^bb0(%x: tensor<128x128xbf16>, %w1: tensor<128x1024xbf16>, %w2: tensor<1024x256xbf16>):
      %z = arith.constant 0.0 : f32
      %e0 = tensor.empty() : tensor<128x1024xf32>
      %f0 = linalg.fill ins(%z : f32) outs(%e0 : tensor<128x1024xf32>) -> tensor<128x1024xf32>
      %c = linalg.matmul ins(%x, %w1 : tensor<128x128xbf16>, tensor<128x1024xbf16>) outs(%f0 : tensor<128x1024xf32>) -> tensor<128x1024xf32>
      %hb = tensor.empty() : tensor<128x1024xbf16>
      %h = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%c : tensor<128x1024xf32>) outs(%hb : tensor<128x1024xbf16>) {
      ^bb0(%in: f32, %out: bf16):
        %t = arith.truncf %in : f32 to bf16
        linalg.yield %t : bf16
      } -> tensor<128x1024xbf16>
      %e1 = tensor.empty() : tensor<128x256xf32>
      %f1 = linalg.fill ins(%z : f32) outs(%e1 : tensor<128x256xf32>) -> tensor<128x256xf32>
      %o = linalg.matmul ins(%h, %w2 : tensor<128x1024xbf16>, tensor<1024x256xbf16>) outs(%f1 : tensor<128x256xf32>) -> tensor<128x256xf32>
      dsm.yield %o : tensor<128x256xf32>
    }
    return %r : tensor<128x256xf32>
  }

  func.func @wide(%a: tensor<128x128xbf16>, %b: tensor<128x4096xbf16>, %d: tensor<4096x4096xbf16>) -> tensor<128x4096xf32> {
    %r = dsm.fused_chain ffn(%a, %b, %d) {schedule = #dsm.schedule<cluster = [1, 8, 1, 8], block = [64, 128, 64, 512], grid = [2, 4, 1, 1], order = [m, n, l, k], spatial = [m, n, l], residency = [dsm], collectives = [shuffle, inter_cluster_reduce], stages = 4, cost_ns = 42594>, sequence = [#dsm.schedule<cluster = [1, 1, 1, 1], block = [128, 128, 64, 16], grid = [1, 32, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [], stages = 2, cost_ns = 3000>, #dsm.schedule<cluster = [1, 1, 4, 1], block = [128, 128, 1024, 16], grid = [1, 32, 1, 1], order = [m, n, k, l], spatial = [m, n, k], residency = [], collectives = [all_exchange], stages = 2, cost_ns = 4000>]} : (tensor<128x128xbf16>, tensor<128x4096xbf16>, tensor<4096x4096xbf16>) -> tensor<128x4096xf32> {
    ^bb0(%x: tensor<128x128xbf16>, %w1: tensor<128x4096xbf16>, %w2: tensor<4096x4096xbf16>):
      %z = arith.constant 0.0 : f32
      %e0 = tensor.empty() : tensor<128x4096xf32>
      %f0 = linalg.fill ins(%z : f32) outs(%e0 : tensor<128x4096xf32>) -> tensor<128x4096xf32>
      %c = linalg.matmul ins(%x, %w1 : tensor<128x128xbf16>, tensor<128x4096xbf16>) outs(%f0 : tensor<128x4096xf32>) -> tensor<128x4096xf32>
      %hb = tensor.empty() : tensor<128x4096xbf16>
      %h = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%c : tensor<128x4096xf32>) outs(%hb : tensor<128x4096xbf16>) {
      ^bb0(%in: f32, %out: bf16):
        %t = arith.truncf %in : f32 to bf16
        linalg.yield %t : bf16
      } -> tensor<128x4096xbf16>
      %e1 = tensor.empty() : tensor<128x4096xf32>
      %f1 = linalg.fill ins(%z : f32) outs(%e1 : tensor<128x4096xf32>) -> tensor<128x4096xf32>
      %o = linalg.matmul ins(%h, %w2 : tensor<128x4096xbf16>, tensor<4096x4096xbf16>) outs(%f1 : tensor<128x4096xf32>) -> tensor<128x4096xf32>
      dsm.yield %o : tensor<128x4096xf32>
    }
    return %r : tensor<128x4096xf32>
  }
}

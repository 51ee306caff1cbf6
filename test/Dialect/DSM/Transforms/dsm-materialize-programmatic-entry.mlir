// RUN: ff-opt %s --dsm-materialize | FileCheck %s
// RUN: ff-opt %s --dsm-materialize=programmatic-entry=false | FileCheck %s --check-prefix=OFF

// Programmatic entry (the default): every kernel lets the kernel after it
// on the stream launch at its entry, and a call's first kernel waits for
// the kernel before it after its barrier setup, before any global access,
// and is marked programmatic_launch, so back-to-back calls overlap the
// next call's launch and setup with the previous call's tail. `gemm`
// (persistent), `splitk` (32 CTAs in clusters of 4: its 32 KiB raised to
// 114 KiB so that, launched beside its predecessor, no two CTAs share an
// SM), `ff_ffn` (a fused FFN) and `small`'s first kernel wait; `big`
// streams a 16 MiB weight (bandwidth-bound: it only releases its
// dependents, unmarked); `small`'s second kernel waits as before.
// CHECK: dynamic_smem = 147456 : i64{{[^}]*}} name = "gemm_0"
// CHECK-SAME: programmatic_launch = true}], name = "gemm_0"
// CHECK: cluster = array<i64: 4, 1, 1>, dynamic_smem = 116736 : i64{{[^}]*}} name = "splitk_1"
// CHECK-SAME: programmatic_launch = true}], name = "splitk_1"
// CHECK: name = "big_2"
// CHECK-NOT: programmatic_launch
// CHECK-SAME: }], name = "big_2"
// CHECK: name = "ff_ffn_3"
// CHECK-SAME: programmatic_launch = true}], name = "ff_ffn_3"
// CHECK: name = "small_4_s0"
// CHECK-SAME: programmatic_launch = true}, {block
// CHECK-SAME: name = "small_4_s1"
// CHECK-SAME: programmatic_launch = true}], name = "small_4"
// CHECK-LABEL: gpu.func @gemm_0(
// CHECK-NEXT: nvvm.griddepcontrol launch_dependents
// CHECK-NOT: griddepcontrol
// CHECK: nvgpu.mbarrier.init
// CHECK: gpu.barrier
// CHECK-NEXT: nvvm.griddepcontrol wait
// CHECK-NOT: griddepcontrol
// CHECK: nvgpu.tma.async.load
// CHECK-LABEL: gpu.func @splitk_1(
// CHECK-NEXT: nvvm.griddepcontrol launch_dependents
// CHECK: dsm.cluster_wait
// CHECK-NEXT: nvvm.griddepcontrol wait
// CHECK-LABEL: gpu.func @big_2(
// CHECK-NEXT: nvvm.griddepcontrol launch_dependents
// CHECK-NOT: griddepcontrol
// CHECK-LABEL: gpu.func @ff_ffn_3(
// CHECK-NEXT: nvvm.griddepcontrol launch_dependents
// CHECK: gpu.barrier
// CHECK-NEXT: nvvm.griddepcontrol wait
// CHECK-LABEL: gpu.func @small_4_s0(
// CHECK-NEXT: nvvm.griddepcontrol launch_dependents
// CHECK: gpu.barrier
// CHECK-NEXT: nvvm.griddepcontrol wait
// CHECK-LABEL: gpu.func @small_4_s1(
// CHECK-NEXT: nvvm.griddepcontrol launch_dependents
// CHECK: dsm.cluster_wait
// CHECK-NEXT: nvvm.griddepcontrol wait

// Off: only the sequence's second kernel waits, the first kernels keep
// their shared memory.
// OFF: dynamic_smem = 147456 : i64{{[^}]*}} name = "gemm_0"
// OFF-NOT: programmatic_launch
// OFF: dynamic_smem = 32768 : i64{{[^}]*}} name = "splitk_1"
// OFF-NOT: programmatic_launch
// OFF: name = "small_4_s0"
// OFF-NOT: programmatic_launch
// OFF-SAME: name = "small_4_s1"
// OFF-SAME: programmatic_launch = true}]
// OFF-LABEL: gpu.func @gemm_0(
// OFF-NOT: griddepcontrol
// OFF-LABEL: gpu.func @small_4_s0(
// OFF-NEXT: nvvm.griddepcontrol launch_dependents
// OFF-NOT: griddepcontrol
// OFF-LABEL: gpu.func @small_4_s1(
// OFF-NOT: griddepcontrol launch_dependents
// OFF: nvvm.griddepcontrol wait

#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d1, d2)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#map3 = affine_map<(d0, d1) -> (d0, d1)>
module attributes {dsm.target = #dsm.target<name = "h100-sxm", chip = "sm_90a", sms = 132, smem_per_sm = 233472, smem_per_block = 232448, regs_per_sm = 65536, max_cluster = 8, max_cluster_nonportable = 16, clock_mhz = 1830, hbm_gbps = 3350, l2_bytes = 52428800, dsm_gbps = [3300, 3100, 3000, 2900], dsm_latency = [190, 200, 240, 280], tflops_bf16 = 989, tflops_f16 = 989, tflops_f32 = 494>} {
  func.func @gemm(%a: tensor<256x512xbf16>, %b: tensor<512x1024xbf16>) -> tensor<256x1024xbf16> {
    %r = dsm.fused_chain gemm (%a, %b) {schedule = #dsm.schedule<cluster = [1, 1, 1, 1], block = [128, 256, 64, 16], grid = [2, 4, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [], stages = 3, cost_ns = 1000>}
        : (tensor<256x512xbf16>, tensor<512x1024xbf16>) -> tensor<256x1024xbf16> {
    ^bb0(%x: tensor<256x512xbf16>, %w: tensor<512x1024xbf16>):
      %cst = arith.constant 0.0 : f32
      %e = tensor.empty() : tensor<256x1024xf32>
      %f = linalg.fill ins(%cst : f32) outs(%e : tensor<256x1024xf32>) -> tensor<256x1024xf32>
      %mm = linalg.matmul ins(%x, %w : tensor<256x512xbf16>, tensor<512x1024xbf16>) outs(%f : tensor<256x1024xf32>) -> tensor<256x1024xf32>
      %e2 = tensor.empty() : tensor<256x1024xbf16>
      %t = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%mm : tensor<256x1024xf32>) outs(%e2 : tensor<256x1024xbf16>) {
      ^bb0(%in: f32, %o: bf16):
        %v = arith.truncf %in : f32 to bf16
        linalg.yield %v : bf16
      }  -> tensor<256x1024xbf16>
      dsm.yield %t : tensor<256x1024xbf16>
    }
    return %r : tensor<256x1024xbf16>
  }


  func.func @splitk(%a: tensor<128x512xbf16>, %b: tensor<512x256xbf16>) -> tensor<128x256xbf16> {
    %r = dsm.fused_chain gemm (%a, %b) {schedule = #dsm.schedule<cluster = [1, 1, 4, 1], block = [64, 64, 128, 16], grid = [2, 4, 1, 1], order = [m, n, k, l], spatial = [m, n, k], residency = [], collectives = [all_exchange], stages = 2, cost_ns = 1000>}
        : (tensor<128x512xbf16>, tensor<512x256xbf16>) -> tensor<128x256xbf16> {
    ^bb0(%x: tensor<128x512xbf16>, %w: tensor<512x256xbf16>):
      %cst = arith.constant 0.0 : f32
      %e = tensor.empty() : tensor<128x256xf32>
      %f = linalg.fill ins(%cst : f32) outs(%e : tensor<128x256xf32>) -> tensor<128x256xf32>
      %mm = linalg.matmul ins(%x, %w : tensor<128x512xbf16>, tensor<512x256xbf16>) outs(%f : tensor<128x256xf32>) -> tensor<128x256xf32>
      %e2 = tensor.empty() : tensor<128x256xbf16>
      %t = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%mm : tensor<128x256xf32>) outs(%e2 : tensor<128x256xbf16>) {
      ^bb0(%in: f32, %o: bf16):
        %v = arith.truncf %in : f32 to bf16
        linalg.yield %v : bf16
      }  -> tensor<128x256xbf16>
      dsm.yield %t : tensor<128x256xbf16>
    }
    return %r : tensor<128x256xbf16>
  }


  func.func @big(%a: tensor<128x4096xbf16>, %b: tensor<4096x2048xbf16>) -> tensor<128x2048xbf16> {
    %r = dsm.fused_chain gemm (%a, %b) {schedule = #dsm.schedule<cluster = [1, 1, 1, 1], block = [128, 256, 64, 16], grid = [1, 8, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [], stages = 3, cost_ns = 1000>}
        : (tensor<128x4096xbf16>, tensor<4096x2048xbf16>) -> tensor<128x2048xbf16> {
    ^bb0(%x: tensor<128x4096xbf16>, %w: tensor<4096x2048xbf16>):
      %cst = arith.constant 0.0 : f32
      %e = tensor.empty() : tensor<128x2048xf32>
      %f = linalg.fill ins(%cst : f32) outs(%e : tensor<128x2048xf32>) -> tensor<128x2048xf32>
      %mm = linalg.matmul ins(%x, %w : tensor<128x4096xbf16>, tensor<4096x2048xbf16>) outs(%f : tensor<128x2048xf32>) -> tensor<128x2048xf32>
      %e2 = tensor.empty() : tensor<128x2048xbf16>
      %t = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%mm : tensor<128x2048xf32>) outs(%e2 : tensor<128x2048xbf16>) {
      ^bb0(%in: f32, %o: bf16):
        %v = arith.truncf %in : f32 to bf16
        linalg.yield %v : bf16
      }  -> tensor<128x2048xbf16>
      dsm.yield %t : tensor<128x2048xbf16>
    }
    return %r : tensor<128x2048xbf16>
  }


  func.func @ff_ffn(%arg0: tensor<256x64xbf16>, %arg1: tensor<512x64xbf16>, %arg2: tensor<64x512xbf16>) -> tensor<256x64xbf16> {
    %0 = dsm.fused_chain ffn(%arg0, %arg1, %arg2) {schedule = #dsm.schedule<cluster = [1, 1, 1, 1], block = [128, 128, 64, 64], grid = [2, 1, 1, 1], order = [m, n, k, l], spatial = [m], residency = [smem], collectives = [], stages = 4, cost_ns = 1000>} : (tensor<256x64xbf16>, tensor<512x64xbf16>, tensor<64x512xbf16>) -> tensor<256x64xbf16> {
    ^bb0(%arg3: tensor<256x64xbf16>, %arg4: tensor<512x64xbf16>, %arg5: tensor<64x512xbf16>):
      %cst = arith.constant 0.000000e+00 : f32
      %1 = tensor.empty() : tensor<256x512xf32>
      %2 = linalg.fill ins(%cst : f32) outs(%1 : tensor<256x512xf32>) -> tensor<256x512xf32>
      %3 = linalg.matmul indexing_maps = [#map, #map1, #map2] ins(%arg3, %arg4 : tensor<256x64xbf16>, tensor<512x64xbf16>) outs(%2 : tensor<256x512xf32>) -> tensor<256x512xf32>
      %4 = tensor.empty() : tensor<256x512xbf16>
      %5 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel"]} ins(%3 : tensor<256x512xf32>) outs(%4 : tensor<256x512xbf16>) {
      ^bb0(%in: f32, %out: bf16):
        %cst_0 = arith.constant 0.797884583 : f32
        %cst_1 = arith.constant 4.471500e-02 : f32
        %cst_2 = arith.constant 5.000000e-01 : f32
        %cst_3 = arith.constant 1.000000e+00 : f32
        %11 = arith.mulf %in, %in : f32
        %12 = arith.mulf %11, %in : f32
        %13 = arith.mulf %12, %cst_1 : f32
        %14 = arith.addf %in, %13 : f32
        %15 = arith.mulf %14, %cst_0 : f32
        %16 = math.tanh %15 : f32
        %17 = arith.addf %16, %cst_3 : f32
        %18 = arith.mulf %in, %cst_2 : f32
        %19 = arith.mulf %18, %17 : f32
        %20 = arith.truncf %19 : f32 to bf16
        linalg.yield %20 : bf16
      } -> tensor<256x512xbf16>
      %6 = tensor.empty() : tensor<256x64xf32>
      %7 = linalg.fill ins(%cst : f32) outs(%6 : tensor<256x64xf32>) -> tensor<256x64xf32>
      %8 = linalg.matmul indexing_maps = [#map, #map1, #map2] ins(%5, %arg5 : tensor<256x512xbf16>, tensor<64x512xbf16>) outs(%7 : tensor<256x64xf32>) -> tensor<256x64xf32>
      %9 = tensor.empty() : tensor<256x64xbf16>
      %10 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel"]} ins(%8 : tensor<256x64xf32>) outs(%9 : tensor<256x64xbf16>) {
      ^bb0(%in: f32, %out: bf16):
        %11 = arith.truncf %in : f32 to bf16
        linalg.yield %11 : bf16
      } -> tensor<256x64xbf16>
      dsm.yield %10 : tensor<256x64xbf16>
    }
    return %0 : tensor<256x64xbf16>
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

}

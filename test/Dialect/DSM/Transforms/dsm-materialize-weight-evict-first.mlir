// RUN: ff-opt %s --dsm-materialize | FileCheck %s
// RUN: ff-opt %s --dsm-materialize=weight-evict-first=false | FileCheck %s --check-prefix=OFF
// RUN: rm -rf %t && ff-opt %s --lower-to-nvvm="emit-bundle=%t" -o /dev/null
// RUN: FileCheck %s --check-prefix=PTX < %t/big_0/big_0.ptx
// RUN: FileCheck %s --check-prefix=PTX-TALL < %t/tall_1/tall_1.ptx

// Weight evict-first (the default): a kernel with one m tile for any M
// reads each weight byte once, so where the call's weights exceed L2
// (dsm.target's l2_bytes, 50 MiB here) its B loads carry an L2
// evict-first policy and do not push A (which every CTA reads) or a
// sequence's intermediate out of L2. `big` (one m tile, 64 MiB of weights)
// gets it; `tall` (two m tiles: every weight tile is read twice) and
// `small` (16 MiB, which can stay in L2 from one call to the next) do
// not; both kernels of the sequence `seq` get it: 32 MiB each, 64 MiB for
// the call. A's loads keep the default policy.
// CHECK-LABEL: gpu.func @big_0(
// CHECK: %[[POL:.*]] = llvm.inline_asm "createpolicy.fractional.L2::evict_first.b64 $0, 1.0;", "=l"  : () -> i64
// CHECK: nvgpu.tma.async.load %0[
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %arg1, %{{.*}}, box[%{{.*}}, %{{.*}}] l2_cache_hint = %[[POL]]
// CHECK-NOT: nvgpu.tma.async.load %1[
// CHECK-LABEL: gpu.func @tall_1(
// CHECK-NOT: createpolicy
// CHECK-NOT: l2_cache_hint
// CHECK: nvgpu.tma.async.load %1[
// CHECK-LABEL: gpu.func @small_2(
// CHECK-NOT: createpolicy
// CHECK-NOT: l2_cache_hint
// CHECK: nvgpu.tma.async.load %1[
// CHECK-LABEL: gpu.func @seq_3_s0(
// CHECK: createpolicy.fractional.L2::evict_first
// CHECK: l2_cache_hint
// CHECK-LABEL: gpu.func @seq_3_s1(
// CHECK: createpolicy.fractional.L2::evict_first
// CHECK: l2_cache_hint

// OFF-NOT: createpolicy
// OFF-NOT: l2_cache_hint

// PTX: createpolicy.fractional.L2::evict_first.b64 [[POL:%rd[0-9]+]], 1.0;
// PTX: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.L2::cache_hint [{{.*}}], [{{.*}}], [{{.*}}], [[POL]];
// PTX-TALL-NOT: cache_hint

#mk = affine_map<(d0, d1, d2) -> (d0, d2)>
#nk = affine_map<(d0, d1, d2) -> (d1, d2)>
#mn = affine_map<(d0, d1, d2) -> (d0, d1)>
#id = affine_map<(d0, d1) -> (d0, d1)>
module attributes {dsm.target = #dsm.target<name = "h100-sxm", chip = "sm_90a", sms = 132, smem_per_sm = 233472, smem_per_block = 232448, regs_per_sm = 65536, max_cluster = 8, max_cluster_nonportable = 16, clock_mhz = 1830, hbm_gbps = 3350, l2_bytes = 52428800, dsm_gbps = [3300, 3100, 3000, 2900], dsm_latency = [190, 200, 240, 280], tflops_bf16 = 989, tflops_f16 = 989, tflops_f32 = 494>} {
  func.func @big(%a: tensor<128x4096xbf16>, %b: tensor<8192x4096xbf16>) -> tensor<128x8192xbf16> {
    %r = dsm.fused_chain gemm (%a, %b) {schedule = #dsm.schedule<cluster = [1, 1, 1, 1], block = [128, 256, 64, 16], grid = [1, 32, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [], stages = 3, cost_ns = 1000>}
        : (tensor<128x4096xbf16>, tensor<8192x4096xbf16>) -> tensor<128x8192xbf16> {
    ^bb0(%x: tensor<128x4096xbf16>, %w: tensor<8192x4096xbf16>):
      %cst = arith.constant 0.0 : f32
      %e = tensor.empty() : tensor<128x8192xf32>
      %f = linalg.fill ins(%cst : f32) outs(%e : tensor<128x8192xf32>) -> tensor<128x8192xf32>
      %mm = linalg.matmul indexing_maps = [#mk, #nk, #mn] ins(%x, %w : tensor<128x4096xbf16>, tensor<8192x4096xbf16>) outs(%f : tensor<128x8192xf32>) -> tensor<128x8192xf32>
      %e2 = tensor.empty() : tensor<128x8192xbf16>
      %t = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%mm : tensor<128x8192xf32>) outs(%e2 : tensor<128x8192xbf16>) {
      ^bb0(%in: f32, %o: bf16):
        %v = arith.truncf %in : f32 to bf16
        linalg.yield %v : bf16
      }  -> tensor<128x8192xbf16>
      dsm.yield %t : tensor<128x8192xbf16>
    }
    return %r : tensor<128x8192xbf16>
  }

  func.func @tall(%a: tensor<256x4096xbf16>, %b: tensor<8192x4096xbf16>) -> tensor<256x8192xbf16> {
    %r = dsm.fused_chain gemm (%a, %b) {schedule = #dsm.schedule<cluster = [1, 1, 1, 1], block = [128, 256, 64, 16], grid = [2, 32, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [], stages = 3, cost_ns = 1000>}
        : (tensor<256x4096xbf16>, tensor<8192x4096xbf16>) -> tensor<256x8192xbf16> {
    ^bb0(%x: tensor<256x4096xbf16>, %w: tensor<8192x4096xbf16>):
      %cst = arith.constant 0.0 : f32
      %e = tensor.empty() : tensor<256x8192xf32>
      %f = linalg.fill ins(%cst : f32) outs(%e : tensor<256x8192xf32>) -> tensor<256x8192xf32>
      %mm = linalg.matmul indexing_maps = [#mk, #nk, #mn] ins(%x, %w : tensor<256x4096xbf16>, tensor<8192x4096xbf16>) outs(%f : tensor<256x8192xf32>) -> tensor<256x8192xf32>
      %e2 = tensor.empty() : tensor<256x8192xbf16>
      %t = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%mm : tensor<256x8192xf32>) outs(%e2 : tensor<256x8192xbf16>) {
      ^bb0(%in: f32, %o: bf16):
        %v = arith.truncf %in : f32 to bf16
        linalg.yield %v : bf16
      }  -> tensor<256x8192xbf16>
      dsm.yield %t : tensor<256x8192xbf16>
    }
    return %r : tensor<256x8192xbf16>
  }

  func.func @small(%a: tensor<128x4096xbf16>, %b: tensor<2048x4096xbf16>) -> tensor<128x2048xbf16> {
    %r = dsm.fused_chain gemm (%a, %b) {schedule = #dsm.schedule<cluster = [1, 1, 1, 1], block = [128, 256, 64, 16], grid = [1, 8, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [], stages = 3, cost_ns = 1000>}
        : (tensor<128x4096xbf16>, tensor<2048x4096xbf16>) -> tensor<128x2048xbf16> {
    ^bb0(%x: tensor<128x4096xbf16>, %w: tensor<2048x4096xbf16>):
      %cst = arith.constant 0.0 : f32
      %e = tensor.empty() : tensor<128x2048xf32>
      %f = linalg.fill ins(%cst : f32) outs(%e : tensor<128x2048xf32>) -> tensor<128x2048xf32>
      %mm = linalg.matmul indexing_maps = [#mk, #nk, #mn] ins(%x, %w : tensor<128x4096xbf16>, tensor<2048x4096xbf16>) outs(%f : tensor<128x2048xf32>) -> tensor<128x2048xf32>
      %e2 = tensor.empty() : tensor<128x2048xbf16>
      %t = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%mm : tensor<128x2048xf32>) outs(%e2 : tensor<128x2048xbf16>) {
      ^bb0(%in: f32, %o: bf16):
        %v = arith.truncf %in : f32 to bf16
        linalg.yield %v : bf16
      }  -> tensor<128x2048xbf16>
      dsm.yield %t : tensor<128x2048xbf16>
    }
    return %r : tensor<128x2048xbf16>
  }

  func.func @seq(%a: tensor<128x2048xbf16>, %b: tensor<8192x2048xbf16>, %d: tensor<2048x8192xbf16>) -> tensor<128x2048xf32> {
    %r = dsm.fused_chain ffn(%a, %b, %d) {schedule = #dsm.schedule<cluster = [1, 4, 1, 4], block = [128, 128, 64, 512], grid = [1, 16, 1, 1], order = [m, n, l, k], spatial = [m, n, l], residency = [dsm], collectives = [shuffle, inter_cluster_reduce], stages = 4, cost_ns = 65285>, sequence = [#dsm.schedule<cluster = [1, 1, 1, 1], block = [128, 128, 64, 16], grid = [1, 64, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [], stages = 4, cost_ns = 15780>, #dsm.schedule<cluster = [1, 1, 4, 1], block = [128, 128, 2048, 16], grid = [1, 16, 1, 1], order = [m, n, k, l], spatial = [m, n, k], residency = [], collectives = [all_exchange], stages = 4, cost_ns = 22044>]} : (tensor<128x2048xbf16>, tensor<8192x2048xbf16>, tensor<2048x8192xbf16>) -> tensor<128x2048xf32> {
    ^bb0(%x: tensor<128x2048xbf16>, %w1: tensor<8192x2048xbf16>, %w2: tensor<2048x8192xbf16>):
      %z = arith.constant 0.0 : f32
      %e0 = tensor.empty() : tensor<128x8192xf32>
      %f0 = linalg.fill ins(%z : f32) outs(%e0 : tensor<128x8192xf32>) -> tensor<128x8192xf32>
      %c = linalg.matmul indexing_maps = [#mk, #nk, #mn] ins(%x, %w1 : tensor<128x2048xbf16>, tensor<8192x2048xbf16>) outs(%f0 : tensor<128x8192xf32>) -> tensor<128x8192xf32>
      %hb = tensor.empty() : tensor<128x8192xbf16>
      %h = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%c : tensor<128x8192xf32>) outs(%hb : tensor<128x8192xbf16>) {
      ^bb0(%in: f32, %out: bf16):
        %t = arith.truncf %in : f32 to bf16
        linalg.yield %t : bf16
      } -> tensor<128x8192xbf16>
      %e1 = tensor.empty() : tensor<128x2048xf32>
      %f1 = linalg.fill ins(%z : f32) outs(%e1 : tensor<128x2048xf32>) -> tensor<128x2048xf32>
      %o = linalg.matmul indexing_maps = [#mk, #nk, #mn] ins(%h, %w2 : tensor<128x8192xbf16>, tensor<2048x8192xbf16>) outs(%f1 : tensor<128x2048xf32>) -> tensor<128x2048xf32>
      dsm.yield %o : tensor<128x2048xf32>
    }
    return %r : tensor<128x2048xf32>
  }

}

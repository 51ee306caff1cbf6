// RUN: ff-opt %s --dsm-materialize=multicast-a=true | FileCheck %s
// RUN: ff-opt %s --dsm-materialize | FileCheck %s --check-prefix=OFF

// A 4-CTA FFN cluster along n shares its A tile: each CTA loads 128/4 = 32
// rows and multicasts them to all four (mask 0b1111); a stage is free once
// the 2 consumer warpgroups of all 4 CTAs released it (empty count 8),
// which each consumer signals in every CTA (mapa + remote arrive).
// CHECK: params = [{box = array<i64: 64, 32>, {{.*}}tensor = "in0"}
// CHECK-LABEL: gpu.func @ffn_cluster_0
// CHECK: %[[EIGHT:.*]] = arith.constant 8 : index
// CHECK: nvgpu.mbarrier.init %{{.*}}[%{{.*}}], %[[EIGHT]]
// Every CTA receives all 128 A rows (16384 B) and its 128 x 64 B tile.
// CHECK: nvgpu.mbarrier.arrive.expect_tx %{{.*}}, %c32768
// CHECK: %[[MASK:.*]] = arith.constant 15 : i16
// CHECK: nvgpu.tma.async.load %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}}[%{{.*}}] to %{{.*}} multicast_mask = %[[MASK]] : <tensor = memref<32x64xbf16, 3>
// CHECK-COUNT-4: nvvm.mbarrier.arrive %{{.*}} : !llvm.ptr<7>
// Without the option every CTA loads the whole tile and releases locally.
// OFF: params = [{box = array<i64: 64, 128>, {{.*}}tensor = "in0"}
// OFF-NOT: multicast_mask
// OFF-NOT: nvvm.mbarrier.arrive %{{.*}} : !llvm.ptr<7>
func.func @ffn_cluster(%a0: tensor<256x512xbf16>, %a1: tensor<512x1024xbf16>, %a2: tensor<1024x512xbf16>) -> tensor<256x512xbf16> {
  %r = dsm.fused_chain ffn (%a0, %a1, %a2) {schedule = #dsm.schedule<cluster = [1, 4, 1, 1], block = [128, 128, 64, 64], grid = [2, 2, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [smem], collectives = [reduce_scatter, inter_cluster_reduce], stages = 3, cost_ns = 1000>}
      : (tensor<256x512xbf16>, tensor<512x1024xbf16>, tensor<1024x512xbf16>) -> tensor<256x512xbf16> {
  ^bb0(%x: tensor<256x512xbf16>, %w1: tensor<512x1024xbf16>, %w2: tensor<1024x512xbf16>):
    %zero = arith.constant 0.0 : f32
    %g_e = tensor.empty() : tensor<256x1024xf32>
    %g_f = linalg.fill ins(%zero : f32) outs(%g_e : tensor<256x1024xf32>) -> tensor<256x1024xf32>
    %g = linalg.matmul ins(%x, %w1 : tensor<256x512xbf16>, tensor<512x1024xbf16>) outs(%g_f : tensor<256x1024xf32>) -> tensor<256x1024xf32>
    %h_e = tensor.empty() : tensor<256x1024xbf16>
    %h = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%g : tensor<256x1024xf32>) outs(%h_e : tensor<256x1024xbf16>) {
    ^bb0(%gv: f32, %o: bf16):
      %half = arith.constant 0.5 : f32
      %one = arith.constant 1.0 : f32
      %k0 = arith.constant 0.7978845608 : f32
      %k1 = arith.constant 0.044715 : f32
      %x2 = arith.mulf %gv, %gv : f32
      %x3 = arith.mulf %x2, %gv : f32
      %a3 = arith.mulf %x3, %k1 : f32
      %in = arith.addf %gv, %a3 : f32
      %sc = arith.mulf %in, %k0 : f32
      %th = math.tanh %sc : f32
      %p1 = arith.addf %th, %one : f32
      %hx = arith.mulf %gv, %half : f32
      %y = arith.mulf %hx, %p1 : f32
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

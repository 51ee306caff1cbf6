// REQUIRES: ptxas
// RUN: rm -rf %t && ff-opt %s --lower-to-nvvm="emit-bundle=%t format=bin" -o /dev/null
// RUN: FileCheck %s < %t/g7_0.ptx
// RUN: %ptxas -arch=sm_90a -O3 -v %t/g7_0.ptx -o %t/g7.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS

// A shuffle cluster of 6 CTAs (not a power of two) end to end: G7's shape
// (N = L = 768, PyTorch Linear weights) in one cluster along n per 64-row m
// tile, 6 x 128 = N, so E needs no workspace. Each rank pushes its 64 x 128
// act(C) slot (16 KiB) into its 5 peers' same slot (the barrier expects
// 5 x 16 KiB; one copy per rank of the group, its own skipped) and stores its L / 6 = 128 columns of E through the last
// epilogue. ptxas assembles it without spills or serialised wgmmas.
// CHECK: .reqnctapercluster 6, 1, 1
// CHECK: mov.b32 {{.*}}, 81920;
// CHECK-NEXT: mbarrier.arrive.expect_tx.shared.b64 {{.*}}[__dsm_barrier]
// CHECK-COUNT-6: cp.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes
// CHECK-NOT: cp.async.bulk.shared::cluster.shared::cta
// CHECK: mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64
// CHECK-NOT: red.{{.*}}global
// CHECK: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16
// CHECK-NOT: red.{{.*}}global
// PTXAS-NOT: C75{{[0-9][0-9]}}
// PTXAS: 0 bytes spill stores, 0 bytes spill loads
// PTXAS-NOT: C75{{[0-9][0-9]}}
#mk7 = affine_map<(m, n, k) -> (m, k)>
#nk7 = affine_map<(m, n, k) -> (n, k)>
#mn7 = affine_map<(m, n, k) -> (m, n)>
#id7 = affine_map<(i, j) -> (i, j)>
func.func @g7(%a0: tensor<128x768xbf16>, %a1: tensor<768x768xbf16>, %a2: tensor<768x768xbf16>) -> tensor<128x768xbf16> {
  %r = dsm.fused_chain ffn (%a0, %a1, %a2) {schedule = #dsm.schedule<cluster = [1, 6, 1, 6], block = [64, 128, 64, 128], grid = [2, 1, 1, 1], order = [m, n, l, k], spatial = [m, n, l], residency = [dsm], collectives = [shuffle], stages = 4, cost_ns = 1000>}
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

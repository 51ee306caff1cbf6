// REQUIRES: ptxas
// (the CUDA toolkit: silu needs libdevice, which gpu-module-to-binary links)
// RUN: rm -rf %t && ff-opt %s --lower-to-nvvm="emit-bundle=%t format=bin shuffle-push=false" -o /dev/null
// RUN: FileCheck %s < %t/ffn_0/ffn_0.ptx
// RUN: FileCheck %s --check-prefix=GATED < %t/gated_shuffle_1/gated_shuffle_1.ptx
// RUN: %ptxas -arch=sm_90a -O3 -v %t/ffn_0/ffn_0.ptx -o %t/f.cubin 2>&1 | FileCheck %s --check-prefix=SPILLS
// RUN: %ptxas -arch=sm_90a -O3 -v %t/gated_shuffle_1/gated_shuffle_1.ptx -o %t/g.cubin 2>&1 | FileCheck %s --check-prefix=SPILLS
// RUN: rm -rf %t.push && ff-opt %s --lower-to-nvvm="emit-bundle=%t.push format=bin" -o /dev/null
// RUN: FileCheck %s --check-prefix=PUSH < %t.push/ffn_0/ffn_0.ptx
// RUN: %ptxas -arch=sm_90a -O3 -v %t.push/gated_shuffle_1/gated_shuffle_1.ptx -o %t/gp.cubin 2>&1 | FileCheck %s --check-prefix=SPILLS
// RUN: grep -c barrier.cluster.wait %t/ffn_0/ffn_0.ptx | FileCheck %s --check-prefix=PULLBAR
// RUN: grep -c barrier.cluster.wait %t.push/ffn_0/ffn_0.ptx | FileCheck %s --check-prefix=PUSHBAR
// RUN: %ptxas -arch=sm_90a -O3 -v %t.push/ffn_0/ffn_0.ptx -o %t/p.cubin 2>&1 | FileCheck %s --check-prefix=SPILLS

// The shuffle family end to end, with the pull gather (shuffle-push=false):
// a cluster of 4 gathers act(C) by pulling
// the peers' slices (mapa + ld.shared::cluster) between aligned cluster
// barriers, then runs the second GEMM on the gathered slices and reduces E
// into the workspace from registers; no reduce-scatter exchange of fp32
// partials is left (ld.shared::cluster reads only 16-byte bf16 vectors).
// CHECK: .reqnctapercluster 4, 1, 1
// CHECK-DAG: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// CHECK-DAG: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16
// CHECK-DAG: mapa.shared::cluster.u64
// CHECK-DAG: ld.shared::cluster.v4.b32
// CHECK-DAG: barrier.cluster.arrive.aligned
// CHECK-DAG: barrier.cluster.wait.aligned
// CHECK-DAG: fence.proxy.async.shared::cta
// CHECK-DAG: red.relaxed.gpu.global.add.v2.f32
// CHECK-DAG: ld.volatile.global.v4.b32
// CHECK-NOT: red.relaxed.gpu.global.add.v4.f32
// GATED: .reqnctapercluster 2, 1, 1
// GATED-DAG: ld.shared::cluster.v4.b32
// GATED-DAG: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16
// GATED-NOT: red.relaxed.gpu.global
// With shuffle-push (the default) the gather is in place: one thread copies its rank's
// 32 KiB slot into the 3 peers' same slot with cp.async.bulk (mapa'd
// destination and peer mbarrier), then a cluster-scope acquire wait: no
// DSM loads or stores from registers, and four cluster barriers in the
// kernel instead of six (start, the push's one in the consumers and in
// the producer, exit).
// PUSH: .reqnctapercluster 4, 1, 1
// PUSH-NOT: ld.shared::cluster
// PUSH: mov.b32 {{.*}}, 98304;
// PUSH-NEXT: mbarrier.arrive.expect_tx.shared.b64 {{.*}}[__dsm_barrier]
// PUSH-COUNT-3: cp.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes
// PUSH: mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64
// PUSH-NOT: ld.shared::cluster
// PUSH-NOT: st.async
// PULLBAR: {{^}}6{{$}}
// PUSHBAR: {{^}}4{{$}}
// SPILLS: 0 bytes spill stores, 0 bytes spill loads
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


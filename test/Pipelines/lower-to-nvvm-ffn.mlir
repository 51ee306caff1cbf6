// REQUIRES: ptxas
// (the CUDA toolkit: GELU needs libdevice, which gpu-module-to-binary links)
// RUN: rm -rf %t && ff-opt %s --lower-to-nvvm="emit-bundle=%t" -o /dev/null
// RUN: FileCheck %s < %t/ffn_0.ptx
// RUN: FileCheck %s --check-prefix=WARP < %t/ffn_0.ptx
// RUN: FileCheck %s --check-prefix=RS < %t/ffn_0.ptx

// A (1,4) cluster FFN over 2 clusters: cluster launch, both GEMMs on
// tensor cores, the intermediate through swizzled shared memory, the DSM
// reduce-scatter (pushed by st.async onto the peers' mbarriers) and the
// inter-cluster fp32 reduction.
// CHECK: .extern .shared .align 1024 .b8 __dynamic_shmem__0[];
// CHECK: .explicitcluster
// CHECK: .reqnctapercluster 4, 1, 1
// CHECK-DAG: fence.mbarrier_init.release.cluster
// CHECK-DAG: barrier.cluster.arrive.relaxed.aligned
// CHECK-DAG: barrier.cluster.wait.aligned
// CHECK-DAG: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// CHECK-DAG: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16
// CHECK-DAG: cvt.rn.bf16x2.f32
// CHECK-DAG: st.shared.b32
// CHECK-DAG: fence.proxy.async.shared::cta
// CHECK-DAG: bar.sync
// CHECK-DAG: wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16
// CHECK-DAG: bar.warp.sync -1
// CHECK-DAG: mapa.shared::cluster.u64
// CHECK-DAG: st.async.shared::cluster.mbarrier::complete_tx::bytes.v4.b32
// CHECK-DAG: mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64
// CHECK-DAG: bar.sync {{.*}}15, 256;
// CHECK-DAG: red.relaxed.gpu.global.add.v4.f32
// CHECK-DAG: fence.release.gpu
// CHECK-DAG: fence.acq_rel.gpu
// CHECK-DAG: ld.volatile.global.v4.b32
// Whole warps meet every cluster barrier (a diverged warp's non-.aligned
// arrive deadlocked on an H100): no non-.aligned form is left.
// WARP-NOT: barrier.cluster.{{(arrive|wait|arrive.relaxed)}};

// The reduce-scatter's threads push rows that other threads stored: a
// named barrier publishes them within the CTA, so the cluster barrier's
// arrive is relaxed (its release waited for every earlier global access).
// Without multicast no arrive of the kernel keeps the release.
// RS: st.shared.v2.b32
// RS: bar.sync {{.*}}15, 256;
// RS-NEXT: bar.warp.sync -1;
// RS-NEXT: barrier.cluster.arrive.relaxed.aligned;
// RS-NEXT: bar.warp.sync -1;
// RS-NEXT: barrier.cluster.wait.aligned;
// RS: st.async.shared::cluster.mbarrier::complete_tx::bytes.v4.b32
// RS-NOT: barrier.cluster.arrive.aligned

func.func @ffn(%a0: tensor<256x512xbf16>, %a1: tensor<512x1024xbf16>, %a2: tensor<1024x512xbf16>) -> tensor<256x512xbf16> {
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

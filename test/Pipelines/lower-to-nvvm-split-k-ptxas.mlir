// REQUIRES: ptxas
// Split-K GEMM kernels (cls_k = 4) assemble for sm_90a without spills, with
// 128-row tiles and with 64-row tiles (one consumer warpgroup): the
// reduce-scatter pushes each peer's slice of the fp32 tile by st.async
// onto its mbarrier (the default; a named barrier publishes the partial
// within the CTA, and the cluster arrive is relaxed), or with
// reduce-push=false reads the peers' tiles through mapa and
// ld.shared::cluster between cluster barriers (the first arrive releases
// the partial to the peers).
// RUN: rm -rf %t && ff-opt %s --lower-to-nvvm="emit-bundle=%t format=bin" -o /dev/null
// RUN: %ptxas -arch=sm_90a -O3 -v %t/splitk_0/splitk_0.ptx -o %t/g.cubin 2>&1 | FileCheck %s
// RUN: %ptxas -arch=sm_90a -O3 -v %t/splitk_rows64_1/splitk_rows64_1.ptx -o %t/g.cubin 2>&1 | FileCheck %s
// RUN: FileCheck %s --check-prefix=PTX < %t/splitk_0/splitk_0.ptx
// RUN: FileCheck %s --check-prefix=PUSH < %t/splitk_0/splitk_0.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t/splitk_rows64_1/splitk_rows64_1.ptx
// RUN: FileCheck %s --check-prefix=MANIFEST < %t/splitk_rows64_1/manifest.json
// RUN: rm -rf %t.pull && ff-opt %s --lower-to-nvvm="emit-bundle=%t.pull format=bin reduce-push=false" -o /dev/null
// RUN: %ptxas -arch=sm_90a -O3 -v %t.pull/splitk_0/splitk_0.ptx -o %t/g.cubin 2>&1 | FileCheck %s
// RUN: FileCheck %s --check-prefix=PULL < %t.pull/splitk_0/splitk_0.ptx

// CHECK-NOT: error
// CHECK: 0 bytes spill stores, 0 bytes spill loads

// PTX: .reqnctapercluster 4, 1, 1
// PTX-DAG: cp.async.bulk.tensor
// PTX-DAG: wgmma.mma_async
// PTX-DAG: barrier.cluster.arrive.relaxed.aligned
// PTX-DAG: mapa.shared::cluster
// PTX-DAG: st.async.shared::cluster.mbarrier::complete_tx::bytes.v4.b32
// PTX-DAG: mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64
// PTX-DAG: barrier.cluster.wait.aligned

// PUSH: st.shared.v2.b32
// PUSH: bar.sync {{.*}}15, 256;
// PUSH-NEXT: bar.warp.sync -1;
// PUSH-NEXT: barrier.cluster.arrive.relaxed.aligned;
// PUSH: st.async.shared::cluster
// PUSH-NOT: barrier.cluster.arrive.aligned

// reduce-push=false: the pull.
// PULL-NOT: st.async
// PULL: barrier.cluster.arrive.aligned;
// PULL: ld.shared::cluster.v4.b32

// MANIFEST: "block": [
// MANIFEST-NEXT: 256,
// MANIFEST: "cluster": [
// MANIFEST-NEXT: 4,
// MANIFEST: "grid": [
// MANIFEST-NEXT: 16,
// MANIFEST: "grid_m_tile": 64,

func.func @splitk(%a: tensor<256x512xbf16>, %b: tensor<512x1024xbf16>) -> tensor<256x1024xbf16> {
  %r = dsm.fused_chain gemm (%a, %b) {schedule = #dsm.schedule<cluster = [1, 1, 4, 1], block = [128, 256, 128, 16], grid = [2, 4, 1, 1], order = [m, n, k, l], spatial = [m, n, k], residency = [], collectives = [all_exchange], stages = 3, cost_ns = 1000>}
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

func.func @splitk_rows64(%a: tensor<64x512xbf16>, %b: tensor<512x1024xbf16>) -> tensor<64x1024xbf16> {
  %r = dsm.fused_chain gemm (%a, %b) {schedule = #dsm.schedule<cluster = [1, 1, 4, 1], block = [64, 256, 128, 16], grid = [1, 4, 1, 1], order = [m, n, k, l], spatial = [m, n, k], residency = [], collectives = [all_exchange], stages = 3, cost_ns = 1000>}
      : (tensor<64x512xbf16>, tensor<512x1024xbf16>) -> tensor<64x1024xbf16> {
  ^bb0(%x: tensor<64x512xbf16>, %w: tensor<512x1024xbf16>):
    %cst = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<64x1024xf32>
    %f = linalg.fill ins(%cst : f32) outs(%e : tensor<64x1024xf32>) -> tensor<64x1024xf32>
    %mm = linalg.matmul ins(%x, %w : tensor<64x512xbf16>, tensor<512x1024xbf16>) outs(%f : tensor<64x1024xf32>) -> tensor<64x1024xf32>
    %e2 = tensor.empty() : tensor<64x1024xbf16>
    %t = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%mm : tensor<64x1024xf32>) outs(%e2 : tensor<64x1024xbf16>) {
    ^bb0(%in: f32, %o: bf16):
      %v = arith.truncf %in : f32 to bf16
      linalg.yield %v : bf16
    }  -> tensor<64x1024xbf16>
    dsm.yield %t : tensor<64x1024xbf16>
  }
  return %r : tensor<64x1024xbf16>
}

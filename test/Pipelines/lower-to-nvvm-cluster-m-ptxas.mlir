// REQUIRES: ptxas
// RUN: rm -rf %t && ff-opt %s --lower-to-nvvm="emit-bundle=%t format=bin" -o /dev/null
// RUN: FileCheck %s < %t/gemm_cluster_m_0.ptx
// RUN: %ptxas -arch=sm_90a -O3 -v %t/gemm_cluster_m_0.ptx -o %t/k.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS

// A GEMM cluster along m (two m tiles share B by multicast,
// dsm-materialize-cluster-m.mlir) end to end: B's boxes are multicast TMA
// loads, the stages are released in both CTAs through mapa'd barriers, and
// the kernel brackets its life with cluster barriers (every peer's
// barriers initialised before the first multicast, no CTA exits while a
// peer may still write into it). Run on an H100 in the thirty-first
// session (docs/validation.md): C8-b32's 3x3 GEMM with it passed ff-run
// --check and compute-sanitizer.
// CHECK: .reqnctapercluster 2, 1, 1
// CHECK: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster
// CHECK: mapa.shared::cluster
// CHECK: barrier.cluster.arrive
// CHECK: barrier.cluster.wait
// PTXAS: Used {{[0-9]+}} registers
// PTXAS-NOT: spill stores
func.func @gemm_cluster_m(%a: tensor<512x512xbf16>, %b: tensor<512x1024xbf16>) -> tensor<512x1024xbf16> {
  %r = dsm.fused_chain gemm (%a, %b) {schedule = #dsm.schedule<cluster = [2, 1, 1, 1], block = [128, 256, 64, 16], grid = [2, 4, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [], stages = 3, cost_ns = 1000>}
      : (tensor<512x512xbf16>, tensor<512x1024xbf16>) -> tensor<512x1024xbf16> {
  ^bb0(%x: tensor<512x512xbf16>, %w: tensor<512x1024xbf16>):
    %cst = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<512x1024xf32>
    %f = linalg.fill ins(%cst : f32) outs(%e : tensor<512x1024xf32>) -> tensor<512x1024xf32>
    %mm = linalg.matmul ins(%x, %w : tensor<512x512xbf16>, tensor<512x1024xbf16>) outs(%f : tensor<512x1024xf32>) -> tensor<512x1024xf32>
    %e2 = tensor.empty() : tensor<512x1024xbf16>
    %t = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%mm : tensor<512x1024xf32>) outs(%e2 : tensor<512x1024xbf16>) {
    ^bb0(%in: f32, %o: bf16):
      %v = arith.truncf %in : f32 to bf16
      linalg.yield %v : bf16
    }  -> tensor<512x1024xbf16>
    dsm.yield %t : tensor<512x1024xbf16>
  }
  return %r : tensor<512x1024xbf16>
}

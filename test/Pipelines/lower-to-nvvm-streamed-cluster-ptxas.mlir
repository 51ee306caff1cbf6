// REQUIRES: ptxas
// RUN: rm -rf %t && ff-opt %s --lower-to-nvvm="emit-bundle=%t format=bin" -o /dev/null
// RUN: FileCheck %s < %t/ff_ffn_0.ptx
// RUN: %ptxas -arch=sm_90a -O3 -v %t/ff_ffn_0.ptx -o %t/ff_ffn.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS

// A streamed-n FFN whose n loop is split over a cluster of two, end to end,
// with row-major weights, L = 256 (split columns) and an f32 result: each
// CTA walks 4 of the 8 n tiles, then the pair reduce-scatters E once by a
// pull (mapa, ld.shared::cluster) between two cluster barriers and each
// rank stores its 128 columns; no workspace. ptxas assembles it without
// spills or serialised wgmmas.
// CHECK: .maxntid 384, 1, 1
// CHECK: .reqnctapercluster 2, 1, 1
// CHECK: wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16
// CHECK: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16
// CHECK: bar.sync {{.*}}9, 256;
// CHECK: barrier.cluster.arrive
// CHECK: mapa.shared::cluster
// CHECK: ld.shared::cluster
// CHECK: barrier.cluster.wait
// CHECK-NOT: red.{{.*}}global
// PTXAS-NOT: C75{{[0-9][0-9]}}
// PTXAS: 0 bytes spill stores, 0 bytes spill loads
// PTXAS-NOT: C75{{[0-9][0-9]}}
#map = affine_map<(d0, d1) -> (d0, d1)>
module attributes {dsm.target = #dsm.target<name = "h100-sxm", chip = "sm_90a", sms = 132, smem_per_sm = 233472, smem_per_block = 232448, regs_per_sm = 65536, max_cluster = 8, max_cluster_nonportable = 16, clock_mhz = 1830, hbm_gbps = 3350, l2_bytes = 52428800, dsm_gbps = [3300, 3100, 3000, 2900], dsm_latency = [190, 200, 240, 280], tflops_bf16 = 989, tflops_f16 = 989, tflops_f32 = 494>} {
  func.func @ff_ffn(%arg0: tensor<128x64xbf16>, %arg1: tensor<64x1024xbf16>, %arg2: tensor<1024x256xbf16>) -> tensor<128x256xf32> {
    %cst = arith.constant 1.41421354 : f32
    %0 = dsm.fused_chain ffn(%arg0, %arg1, %arg2) {schedule = #dsm.schedule<cluster = [1, 2, 1, 1], block = [64, 128, 64, 256], grid = [2, 1, 1, 1], order = [m, n, k, l], spatial = [m], residency = [smem], collectives = [reduce_scatter], stages = 3, cost_ns = 1000>} : (tensor<128x64xbf16>, tensor<64x1024xbf16>, tensor<1024x256xbf16>) -> tensor<128x256xf32> {
    ^bb0(%arg3: tensor<128x64xbf16>, %arg4: tensor<64x1024xbf16>, %arg5: tensor<1024x256xbf16>):
      %cst_0 = arith.constant 0.000000e+00 : f32
      %1 = tensor.empty() : tensor<128x1024xf32>
      %2 = linalg.fill ins(%cst_0 : f32) outs(%1 : tensor<128x1024xf32>) -> tensor<128x1024xf32>
      %3 = linalg.matmul ins(%arg3, %arg4 : tensor<128x64xbf16>, tensor<64x1024xbf16>) outs(%2 : tensor<128x1024xf32>) -> tensor<128x1024xf32>
      %4 = tensor.empty() : tensor<128x1024xbf16>
      %cst_1 = arith.constant 4.471500e-02 : f32
      %cst_2 = arith.constant 0.797884583 : f32
      %cst_3 = arith.constant 1.000000e+00 : f32
      %cst_4 = arith.constant 5.000000e-01 : f32
      %5 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%3 : tensor<128x1024xf32>) outs(%4 : tensor<128x1024xbf16>) {
      ^bb0(%in: f32, %out: bf16):
        %9 = arith.mulf %in, %in : f32
        %10 = arith.mulf %9, %in : f32
        %11 = arith.mulf %10, %cst_1 : f32
        %12 = arith.addf %in, %11 : f32
        %13 = arith.mulf %12, %cst_2 : f32
        %14 = math.tanh %13 : f32
        %15 = arith.addf %14, %cst_3 : f32
        %16 = arith.mulf %in, %cst_4 : f32
        %17 = arith.mulf %16, %15 : f32
        %18 = arith.truncf %17 : f32 to bf16
        linalg.yield %18 : bf16
      } -> tensor<128x1024xbf16>
      %6 = tensor.empty() : tensor<128x256xf32>
      %7 = linalg.fill ins(%cst_0 : f32) outs(%6 : tensor<128x256xf32>) -> tensor<128x256xf32>
      %8 = linalg.matmul ins(%5, %arg5 : tensor<128x1024xbf16>, tensor<1024x256xbf16>) outs(%7 : tensor<128x256xf32>) -> tensor<128x256xf32>
      dsm.yield %8 : tensor<128x256xf32>
    }
    return %0 : tensor<128x256xf32>
  }
}


// RUN: ff-opt %s --split-input-file --dsm-materialize="raster-group-m=8 persistent-gemm=false" | FileCheck %s

// A split-K GEMM's pairs take the grouped raster over whole clusters (the
// pair index b / 2 stands for b) where B outgrows the target's L2: n
// fastest, S3's gated GEMM at M = 256 split over pairs read B from DRAM
// once per m tile. B here is 64 MiB (K = 16384, N = 2048), over the
// h100-sxm's 50 MiB: pair p takes group g = p / (8 * 8).
// CHECK-LABEL: gpu.func @gemm_split_k_0
// CHECK: %[[SBID:.*]] = gpu.block_id x
// CHECK: %[[PAIR:.*]] = arith.divui %[[SBID]], %c2{{.*}} : index
// CHECK: %[[SG:.*]] = arith.divui %[[PAIR]], %c64{{.*}} : index
// CHECK: arith.muli %[[SG]], %c8{{.*}} : index
// CHECK: arith.minui
// CHECK: arith.remui %[[PAIR]], %c64{{.*}} : index
module attributes {dsm.target = #dsm.target<name = "h100-sxm", chip = "sm_90a", sms = 132, smem_per_sm = 233472, smem_per_block = 232448, regs_per_sm = 65536, max_cluster = 8, max_cluster_nonportable = 16, clock_mhz = 1830, hbm_gbps = 3350, l2_bytes = 52428800, dsm_gbps = [3300, 3100, 3000, 2900], dsm_latency = [190, 200, 240, 280], tflops_bf16 = 989, tflops_f16 = 989, tflops_f32 = 494>} {
  func.func @gemm_split_k(%a: tensor<256x16384xbf16>, %b: tensor<16384x2048xbf16>) -> tensor<256x2048xbf16> {
    %r = dsm.fused_chain gemm (%a, %b) {schedule = #dsm.schedule<cluster = [1, 1, 2, 1], block = [128, 256, 8192, 16], grid = [2, 8, 1, 1], order = [m, n, k, l], spatial = [m, n, k], residency = [], collectives = [all_exchange], stages = 3, cost_ns = 1000>}
        : (tensor<256x16384xbf16>, tensor<16384x2048xbf16>) -> tensor<256x2048xbf16> {
    ^bb0(%x: tensor<256x16384xbf16>, %w: tensor<16384x2048xbf16>):
      %cst = arith.constant 0.0 : f32
      %e = tensor.empty() : tensor<256x2048xf32>
      %f = linalg.fill ins(%cst : f32) outs(%e : tensor<256x2048xf32>) -> tensor<256x2048xf32>
      %mm = linalg.matmul ins(%x, %w : tensor<256x16384xbf16>, tensor<16384x2048xbf16>) outs(%f : tensor<256x2048xf32>) -> tensor<256x2048xf32>
      %e2 = tensor.empty() : tensor<256x2048xbf16>
      %t = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%mm : tensor<256x2048xf32>) outs(%e2 : tensor<256x2048xbf16>) {
      ^bb0(%in: f32, %o: bf16):
        %v = arith.truncf %in : f32 to bf16
        linalg.yield %v : bf16
      }  -> tensor<256x2048xbf16>
      dsm.yield %t : tensor<256x2048xbf16>
    }
    return %r : tensor<256x2048xbf16>
  }
}


// -----

// With B inside L2 (1 MiB of 50) the pairs stay n fastest: m = (b / 2) / 4,
// n = (b / 2) mod 4 (on an H200 the raster took G7's 1.2 MB down GEMM
// 14 % slower).
// CHECK-LABEL: gpu.func @gemm_split_k_0
// CHECK: %[[BID:.*]] = gpu.block_id x
// CHECK: %[[P:.*]] = arith.divui %[[BID]], %c2{{.*}} : index
// CHECK: arith.remui %[[P]], %c4{{.*}} : index
// CHECK: arith.divui %[[P]], %c4{{.*}} : index
// CHECK-NOT: arith.minui
// CHECK: gpu.return
module attributes {dsm.target = #dsm.target<name = "h100-sxm", chip = "sm_90a", sms = 132, smem_per_sm = 233472, smem_per_block = 232448, regs_per_sm = 65536, max_cluster = 8, max_cluster_nonportable = 16, clock_mhz = 1830, hbm_gbps = 3350, l2_bytes = 52428800, dsm_gbps = [3300, 3100, 3000, 2900], dsm_latency = [190, 200, 240, 280], tflops_bf16 = 989, tflops_f16 = 989, tflops_f32 = 494>} {
  func.func @gemm_split_k(%a: tensor<256x512xbf16>, %b: tensor<512x1024xbf16>) -> tensor<256x1024xbf16> {
    %r = dsm.fused_chain gemm (%a, %b) {schedule = #dsm.schedule<cluster = [1, 1, 2, 1], block = [128, 256, 256, 16], grid = [2, 4, 1, 1], order = [m, n, k, l], spatial = [m, n, k], residency = [], collectives = [all_exchange], stages = 3, cost_ns = 1000>}
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
}

// -----

// Only single GEMMs take the split-K raster: a shuffle-family FFN whose
// k groups split GEMM0 keeps its tile mapping with B (64 MiB) past L2.
// CHECK-LABEL: gpu.func @split_k_big_b_0
// CHECK-NOT: arith.minui
// CHECK: gpu.return
module attributes {dsm.target = #dsm.target<name = "h100-sxm", chip = "sm_90a", sms = 132, smem_per_sm = 233472, smem_per_block = 232448, regs_per_sm = 65536, max_cluster = 8, max_cluster_nonportable = 16, clock_mhz = 1830, hbm_gbps = 3350, l2_bytes = 52428800, dsm_gbps = [3300, 3100, 3000, 2900], dsm_latency = [190, 200, 240, 280], tflops_bf16 = 989, tflops_f16 = 989, tflops_f32 = 494>} {
  func.func @split_k_big_b(%a: tensor<64x131072xbf16>, %b: tensor<131072x256xbf16>, %d: tensor<256x256xbf16>) -> tensor<64x256xf32> {
    %r = dsm.fused_chain ffn (%a, %b, %d) {schedule = #dsm.schedule<cluster = [1, 2, 2, 4], block = [64, 128, 65536, 64], grid = [1, 1, 1, 1], order = [m, n, k, l], spatial = [m, n, k, l], residency = [dsm], collectives = [all_exchange, shuffle], stages = 2, cost_ns = 1000>}
        : (tensor<64x131072xbf16>, tensor<131072x256xbf16>, tensor<256x256xbf16>) -> tensor<64x256xf32> {
    ^bb0(%x: tensor<64x131072xbf16>, %w1: tensor<131072x256xbf16>, %w2: tensor<256x256xbf16>):
      %zero = arith.constant 0.0 : f32
      %c_e = tensor.empty() : tensor<64x256xf32>
      %c_f = linalg.fill ins(%zero : f32) outs(%c_e : tensor<64x256xf32>) -> tensor<64x256xf32>
      %c = linalg.matmul ins(%x, %w1 : tensor<64x131072xbf16>, tensor<131072x256xbf16>) outs(%c_f : tensor<64x256xf32>) -> tensor<64x256xf32>
      %h_e = tensor.empty() : tensor<64x256xbf16>
      %h = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%c : tensor<64x256xf32>) outs(%h_e : tensor<64x256xbf16>) {
      ^bb0(%in: f32, %o: bf16):
        %r = arith.maximumf %in, %zero : f32
        %t = arith.truncf %r : f32 to bf16
        linalg.yield %t : bf16
      } -> tensor<64x256xbf16>
      %e_e = tensor.empty() : tensor<64x256xf32>
      %e_f = linalg.fill ins(%zero : f32) outs(%e_e : tensor<64x256xf32>) -> tensor<64x256xf32>
      %e = linalg.matmul ins(%h, %w2 : tensor<64x256xbf16>, tensor<256x256xbf16>) outs(%e_f : tensor<64x256xf32>) -> tensor<64x256xf32>
      dsm.yield %e : tensor<64x256xf32>
    }
    return %r : tensor<64x256xf32>
  }
}

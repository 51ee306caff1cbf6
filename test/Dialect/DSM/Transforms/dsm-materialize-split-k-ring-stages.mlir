// RUN: ff-opt %s --split-input-file --dsm-materialize | FileCheck %s

// A split-K CTA runs one tile: its ring takes no more stages than its slice
// has k steps. G7's 128 x 768 x 768 GEMM over 4 on 8 stages: three k steps
// per rank, so three 8 KB A and three 8 KB B slots (48 KB, where 8 stages
// would hold 128 KB and keep the successor's CTAs off the SM).
// CHECK: dynamic_smem = 49152 : i64
// CHECK-SAME: stages = 8 : i64
// CHECK-LABEL: gpu.func @three_steps_0
// CHECK: nvgpu.mbarrier.create -> <memorySpace = #gpu.address_space<workgroup>, num_barriers = 3>
// CHECK-NOT: num_barriers = 8

func.func @three_steps(%a: tensor<128x768xbf16>, %b: tensor<768x768xbf16>) -> tensor<128x768xbf16> {
  %r = dsm.fused_chain gemm (%a, %b) {schedule = #dsm.schedule<cluster = [1, 1, 4, 1], block = [64, 64, 192, 16], grid = [2, 12, 1, 1], order = [m, n, k, l], spatial = [m, n, k], residency = [], collectives = [all_exchange], stages = 8, cost_ns = 4091>}
      : (tensor<128x768xbf16>, tensor<768x768xbf16>) -> tensor<128x768xbf16> {
  ^bb0(%x: tensor<128x768xbf16>, %w: tensor<768x768xbf16>):
    %cst = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<128x768xf32>
    %f = linalg.fill ins(%cst : f32) outs(%e : tensor<128x768xf32>) -> tensor<128x768xf32>
    %mm = linalg.matmul ins(%x, %w : tensor<128x768xbf16>, tensor<768x768xbf16>) outs(%f : tensor<128x768xf32>) -> tensor<128x768xf32>
    %e2 = tensor.empty() : tensor<128x768xbf16>
    %t = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%mm : tensor<128x768xf32>) outs(%e2 : tensor<128x768xbf16>) {
    ^bb0(%in: f32, %o: bf16):
      %v = arith.truncf %in : f32 to bf16
      linalg.yield %v : bf16
    }  -> tensor<128x768xbf16>
    dsm.yield %t : tensor<128x768xbf16>
  }
  return %r : tensor<128x768xbf16>
}

// -----

// Twelve k steps per rank (G4's down GEMM, 128 x 768 x 3072 over 4): all
// eight stages, 8 x 16 KB.
// CHECK: dynamic_smem = 131072 : i64
// CHECK-LABEL: gpu.func @twelve_steps_0
// CHECK: nvgpu.mbarrier.create -> <memorySpace = #gpu.address_space<workgroup>, num_barriers = 8>

func.func @twelve_steps(%a: tensor<128x3072xbf16>, %b: tensor<3072x768xbf16>) -> tensor<128x768xbf16> {
  %r = dsm.fused_chain gemm (%a, %b) {schedule = #dsm.schedule<cluster = [1, 1, 4, 1], block = [64, 64, 768, 16], grid = [2, 12, 1, 1], order = [m, n, k, l], spatial = [m, n, k], residency = [], collectives = [all_exchange], stages = 8, cost_ns = 6049>}
      : (tensor<128x3072xbf16>, tensor<3072x768xbf16>) -> tensor<128x768xbf16> {
  ^bb0(%x: tensor<128x3072xbf16>, %w: tensor<3072x768xbf16>):
    %cst = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<128x768xf32>
    %f = linalg.fill ins(%cst : f32) outs(%e : tensor<128x768xf32>) -> tensor<128x768xf32>
    %mm = linalg.matmul ins(%x, %w : tensor<128x3072xbf16>, tensor<3072x768xbf16>) outs(%f : tensor<128x768xf32>) -> tensor<128x768xf32>
    %e2 = tensor.empty() : tensor<128x768xbf16>
    %t = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%mm : tensor<128x768xf32>) outs(%e2 : tensor<128x768xbf16>) {
    ^bb0(%in: f32, %o: bf16):
      %v = arith.truncf %in : f32 to bf16
      linalg.yield %v : bf16
    }  -> tensor<128x768xbf16>
    dsm.yield %t : tensor<128x768xbf16>
  }
  return %r : tensor<128x768xbf16>
}

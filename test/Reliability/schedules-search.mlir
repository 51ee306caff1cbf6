// Through the whole pipeline a hand-written schedule the kernels cannot take
// (a 16-CTA cluster for one GEMM) is replaced by --dsm-search's own plan and
// the chain compiles; on its own, --lower-to-nvvm refuses it
// (schedules.mlir).
//
// RUN: ff-opt %s --dsm-fuse --dsm-search | FileCheck %s --check-prefix=SEARCH
// RUN: ff-opt %s --dsm-fuse --dsm-search --lower-to-nvvm | FileCheck %s

// The GEMM kernel takes clusters of 1 or 2 CTAs along n, or of 2, 4 or 8
// along k (split K).
// SEARCH: dsm.fused_chain gemm{{.*}}schedule = #dsm.schedule<cluster = [1, {{[12]}}, {{[1248]}}, 1]
// CHECK: gpu.binary @gemm_0_module
// CHECK: llvm.func @gemm_0_launch
// CHECK-NOT: dsm.fused_chain

func.func @gemm(%a: tensor<256x512xbf16>, %b: tensor<512x2048xbf16>) -> tensor<256x2048xbf16> {
  %r = dsm.fused_chain gemm (%a, %b) {schedule = #dsm.schedule<cluster = [1, 16, 1, 1], block = [128, 128, 64, 16], grid = [2, 1, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [], stages = 4, cost_ns = 1000>}
      : (tensor<256x512xbf16>, tensor<512x2048xbf16>) -> tensor<256x2048xbf16> {
  ^bb0(%x: tensor<256x512xbf16>, %w: tensor<512x2048xbf16>):
    %cst = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<256x2048xf32>
    %f = linalg.fill ins(%cst : f32) outs(%e : tensor<256x2048xf32>) -> tensor<256x2048xf32>
    %mm = linalg.matmul ins(%x, %w : tensor<256x512xbf16>, tensor<512x2048xbf16>) outs(%f : tensor<256x2048xf32>) -> tensor<256x2048xf32>
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

// RUN: ff-opt %s --dsm-materialize="raster-group-m=8 persistent-gemm=false" | FileCheck %s
// RUN: ff-opt %s --dsm-materialize="raster-group-m=0 persistent-gemm=false" | FileCheck %s --check-prefix=OFF

// Grouped rasterisation of a GEMM: block b of the 2 x 4 grid (2 m tiles of
// 128 rows at M = 256, 4 n tiles) takes group g = b / (8 * 4), whose size
// is min(ceil(M / 128) - 8g, 8) m tiles; m = 8g + (b mod 32) mod size and
// n = (b mod 32) / size, so consecutive blocks share an n tile.
// (One tile per CTA here: dsm-materialize-persistent-gemm.mlir numbers a
// persistent kernel's tiles the same way.)
// CHECK-LABEL: gpu.func @gemm_0
// CHECK: %[[BID:.*]] = gpu.block_id x
// CHECK: %[[MT:.*]] = arith.ceildivui %{{.*}}, %c128{{.*}} : index
// CHECK: %[[G:.*]] = arith.divui %[[BID]], %c32{{.*}} : index
// CHECK: %[[FIRST:.*]] = arith.muli %[[G]], %c8{{.*}} : index
// CHECK: %[[LEFT:.*]] = arith.subi %[[MT]], %[[FIRST]] : index
// CHECK: %[[SIZE:.*]] = arith.minui %[[LEFT]], %c8{{.*}} : index
// CHECK: %[[LOCAL:.*]] = arith.remui %[[BID]], %c32{{.*}} : index
// CHECK: %[[MIN:.*]] = arith.remui %[[LOCAL]], %[[SIZE]] : index
// CHECK: %[[M:.*]] = arith.addi %[[FIRST]], %[[MIN]] : index
// CHECK: %[[N:.*]] = arith.divui %[[LOCAL]], %[[SIZE]] : index
// CHECK: arith.muli %[[M]], %c128{{.*}} : index
// CHECK: arith.muli %[[N]], %c256{{.*}} : index
// Without the option: m = b / 4, n = b mod 4.
// OFF-LABEL: gpu.func @gemm_0
// OFF-NOT: arith.minui
// OFF: gpu.return
func.func @gemm(%a: tensor<256x512xbf16>, %b: tensor<512x1024xbf16>) -> tensor<256x1024xbf16> {
  %r = dsm.fused_chain gemm (%a, %b) {schedule = #dsm.schedule<cluster = [1, 1, 1, 1], block = [128, 256, 64, 16], grid = [2, 4, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [], stages = 3, cost_ns = 1000>}
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

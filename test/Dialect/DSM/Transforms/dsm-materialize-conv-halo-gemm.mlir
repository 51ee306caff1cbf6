// RUN: ff-opt %s --dsm-materialize=conv-halo-gemm=true | FileCheck %s
// RUN: ff-opt %s --dsm-materialize | FileCheck %s --check-prefix=OFF

// A single-GEMM 3x3 convolution of 7x7 images with the streamed halo: each
// consumer warpgroup takes a whole image as 7 rows laid out 9 wide (63 of
// its 64 accumulator rows), so a 128-row tile is two images (98 output
// rows, grid_m_tile 98). Ring step k (64 input channels, one of C / 64 =
// 1) loads each warpgroup's 9 x 9 halo, padding zero-filled, as one 4-D
// box at (64 k, -1, -1, image) into its 11264-byte slot, and the nine taps'
// 64 x 64 B tiles of those channels (k = tap * 64 + 64 k); expect_tx counts
// 2 x 81 x 128 + 9 x 8192 bytes. The consumers read tap (r, s) as the
// 64-row window 9 r + s rows into their halo and store accumulator row i
// as pixel (i div 9, i mod 9) of their image where i mod 9 < 7 and
// i div 9 < 7.
// CHECK: grid_m_tile = 98
// CHECK-SAME: {box = array<i64: 64, 9, 9, 1>, {{.*}}tensor = "in0"}
// CHECK-LABEL: gpu.func @conv7_0
// CHECK: nvgpu.mbarrier.arrive.expect_tx %{{.*}}, %c94464
// CHECK: nvgpu.tma.async.load {{.*}} -> memref<1x9x9x64xbf16, #gpu.address_space<workgroup>>
// CHECK: nvgpu.tma.async.load {{.*}} -> memref<1x9x9x64xbf16, #gpu.address_space<workgroup>>
// CHECK-COUNT-9: nvgpu.tma.async.load {{.*}} -> memref<64x64xbf16, #gpu.address_space<workgroup>>
// CHECK-COUNT-36: nvvm.wgmma.mma_async
// CHECK: %[[H:.*]] = arith.divui %[[I:.*]], %c9{{[_0-9]*}} : index
// CHECK: %[[W:.*]] = arith.remui %[[I]], %c9{{[_0-9]*}} : index
// CHECK: %[[HW:.*]] = arith.muli %[[H]], %c7{{[_0-9]*}} : index
// CHECK: arith.addi %[[HW]], %[[W]] : index
// CHECK: %[[INH:.*]] = arith.cmpi ult, %[[H]], %c7{{[_0-9]*}} : index
// CHECK: %[[INW:.*]] = arith.cmpi ult, %[[W]], %c7{{[_0-9]*}} : index
// CHECK: arith.andi %[[INW]], %[[INH]] : i1
// Without the option: one 4-D box of the tile's 7 image rows per k tile.
// OFF: grid_m_tile = 49
// OFF-SAME: {box = array<i64: 64, 7, 7, 1>, {{.*}}tensor = "in0"}
func.func @conv7(%x: tensor<2x7x7x64xbf16>, %w: tensor<3x3x64x64xbf16>) -> tensor<2x7x7x64xbf16> {
  %r = dsm.fused_chain gemm (%x, %w) {schedule = #dsm.schedule<cluster = [1, 1, 1, 1], block = [128, 64, 64, 16], grid = [1, 1, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [], stages = 4, cost_ns = 1000>}
      : (tensor<2x7x7x64xbf16>, tensor<3x3x64x64xbf16>) -> tensor<2x7x7x64xbf16> {
  ^bb0(%a: tensor<2x7x7x64xbf16>, %b: tensor<3x3x64x64xbf16>):
    %cst = arith.constant 0.0 : f32
    %bz = arith.constant 0.0 : bf16
    %p = tensor.pad %a low[0, 1, 1, 0] high[0, 1, 1, 0] {
    ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
      tensor.yield %bz : bf16
    } : tensor<2x7x7x64xbf16> to tensor<2x9x9x64xbf16>
    %ie = tensor.empty() : tensor<98x576xbf16>
    %col = linalg.generic {indexing_maps = [affine_map<(m, k) -> (m floordiv 49, (m mod 49) floordiv 7 + k floordiv 192, m mod 7 + (k mod 192) floordiv 64, k mod 64)>, affine_map<(m, k) -> (m, k)>], iterator_types = ["parallel", "parallel"]} ins(%p : tensor<2x9x9x64xbf16>) outs(%ie : tensor<98x576xbf16>) {
    ^bb0(%in: bf16, %o: bf16):
      linalg.yield %in : bf16
    } -> tensor<98x576xbf16>
    %wc = tensor.collapse_shape %b [[0, 1, 2], [3]] : tensor<3x3x64x64xbf16> into tensor<576x64xbf16>
    %e = tensor.empty() : tensor<98x64xf32>
    %z = linalg.fill ins(%cst : f32) outs(%e : tensor<98x64xf32>) -> tensor<98x64xf32>
    %mm = linalg.matmul ins(%col, %wc : tensor<98x576xbf16>, tensor<576x64xbf16>) outs(%z : tensor<98x64xf32>) -> tensor<98x64xf32>
    %e2 = tensor.empty() : tensor<98x64xbf16>
    %t = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%mm : tensor<98x64xf32>) outs(%e2 : tensor<98x64xbf16>) {
    ^bb0(%in: f32, %o: bf16):
      %v = arith.truncf %in : f32 to bf16
      linalg.yield %v : bf16
    } -> tensor<98x64xbf16>
    %y = tensor.expand_shape %t [[0, 1, 2], [3]] output_shape [2, 7, 7, 64] : tensor<98x64xbf16> into tensor<2x7x7x64xbf16>
    dsm.yield %y : tensor<2x7x7x64xbf16>
  }
  return %r : tensor<2x7x7x64xbf16>
}

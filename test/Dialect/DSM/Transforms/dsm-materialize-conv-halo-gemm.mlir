// RUN: ff-opt %s --dsm-materialize | FileCheck %s
// RUN: ff-opt %s --dsm-materialize=conv-halo-gemm=false | FileCheck %s --check-prefix=OFF
// RUN: sed 's/cluster = \[1, 1, 1, 1\]/cluster = [2, 1, 1, 1]/' %s | ff-opt --dsm-materialize | FileCheck %s --check-prefix=PAIR

// A single-GEMM 3x3 convolution of 7x7 images with the streamed halo: each
// consumer warpgroup takes a whole image as 7 rows laid out 9 wide (63 of
// its 64 accumulator rows), so a 128-row tile is two images (98 output
// rows, grid_m_tile 98). Ring step k (64 input channels, one of C / 64 =
// 2) loads each warpgroup's 9 x 9 halo, padding zero-filled, as one 4-D
// box at (64 k, -1, -1, image) into its 11264-byte slot of the halo ring
// (3 slots of 22528 bytes; expect_tx 2 x 81 x 128), then per filter row r
// the three taps' 64 x 64 B tiles (k = tap * C + 64 k) into a slot of the
// tap ring (6 slots of 3 x 8192 bytes from 67584; expect_tx 24576). The
// consumers read tap (r, s) as the 64-row window 9 r + s rows into their
// halo, one wgmma group per filter row; after each group's wait the
// previous group's tap slot is released, and after filter row 0 of step k
// the halo slot of step k - 1. They store accumulator row i as pixel
// (i div 9, i mod 9) of their image where i mod 9 < 7 and i div 9 < 7.
// CHECK: dynamic_smem = 215040 : i64, grid = {{.*}}, grid_m_tile = 98
// CHECK-SAME: {box = array<i64: 64, 9, 9, 1>, {{.*}}tensor = "in0"}
// CHECK-LABEL: gpu.func @conv7_0
// CHECK: %[[TFULL:.*]] = nvgpu.mbarrier.create -> <memorySpace = #gpu.address_space<workgroup>, num_barriers = 6>
// CHECK: %[[TEMPTY:.*]] = nvgpu.mbarrier.create -> <memorySpace = #gpu.address_space<workgroup>, num_barriers = 6>
// CHECK: nvgpu.mbarrier.arrive.expect_tx %{{.*}}, %c20736
// CHECK: nvgpu.tma.async.load {{.*}} -> memref<1x9x9x64xbf16, #gpu.address_space<workgroup>>
// CHECK: nvgpu.tma.async.load {{.*}} -> memref<1x9x9x64xbf16, #gpu.address_space<workgroup>>
// CHECK: nvgpu.mbarrier.try_wait.parity %[[TEMPTY]]
// CHECK: nvgpu.mbarrier.arrive.expect_tx %[[TFULL]]{{.*}}, %c24576
// CHECK-COUNT-3: nvgpu.tma.async.load {{.*}} -> memref<64x64xbf16, #gpu.address_space<workgroup>>
// CHECK: nvgpu.mbarrier.try_wait.parity %[[TFULL]]
// CHECK: nvvm.wgmma.fence.aligned
// CHECK-COUNT-12: nvvm.wgmma.mma_async
// CHECK-NEXT: nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 1
// CHECK: nvgpu.mbarrier.try_wait.parity %[[TFULL]]
// CHECK-COUNT-12: nvvm.wgmma.mma_async
// CHECK: nvgpu.mbarrier.arrive %[[TEMPTY]]
// Steps k >= 1: filter row 0's group releases the previous tap slot and
// the previous step's halo slot.
// CHECK: scf.for
// CHECK: nvgpu.mbarrier.try_wait.parity %[[FULL:[^\[]*]]
// CHECK: nvgpu.mbarrier.try_wait.parity %[[TFULL]]
// CHECK-COUNT-12: nvvm.wgmma.mma_async
// CHECK: nvvm.wgmma.wait.group.sync.aligned 1
// CHECK: nvgpu.mbarrier.arrive %[[TEMPTY]]
// CHECK: nvgpu.mbarrier.arrive %[[EMPTY:[^\[]*]]
// CHECK: %[[H:.*]] = arith.divui %[[I:.*]], %c9{{[_0-9]*}} : index
// CHECK: %[[W:.*]] = arith.remui %[[I]], %c9{{[_0-9]*}} : index
// CHECK: %[[HW:.*]] = arith.muli %[[H]], %c7{{[_0-9]*}} : index
// CHECK: arith.addi %[[HW]], %[[W]] : index
// CHECK: %[[INH:.*]] = arith.cmpi ult, %[[H]], %c7{{[_0-9]*}} : index
// CHECK: %[[INW:.*]] = arith.cmpi ult, %[[W]], %c7{{[_0-9]*}} : index
// CHECK: arith.andi %[[INW]], %[[INH]] : i1
// A cluster of two m tiles shares the taps' B tiles: rank tap mod 2 loads
// tap tap's tile into both CTAs (mask 0b11); a tap slot is free once both
// CTAs' two consumers released it (count 4, a remote arrive in each CTA),
// a halo slot (not shared) once this CTA's two did (count 2).
// PAIR: cluster = array<i64: 2, 1, 1>
// PAIR: %[[RANK:.*]] = dsm.cluster_rank : index
// PAIR: nvgpu.mbarrier.init %{{.*}}, %c2{{[_0-9]*}}, predicate {{.*}}num_barriers = 3>
// PAIR: nvgpu.mbarrier.init %{{.*}}, %c4{{[_0-9]*}}, predicate {{.*}}num_barriers = 6>
// PAIR: arith.cmpi eq, %[[RANK]], %c0{{[_0-9]*}} : index
// PAIR: nvgpu.tma.async.load {{.*}} multicast_mask = %c3_i16
// PAIR: arith.cmpi eq, %[[RANK]], %c1{{[_0-9]*}} : index
// PAIR: nvgpu.tma.async.load {{.*}} multicast_mask = %c3_i16
// PAIR: arith.cmpi eq, %[[RANK]], %c0{{[_0-9]*}} : index
// PAIR: nvgpu.tma.async.load {{.*}} multicast_mask = %c3_i16
// PAIR: nvvm.wgmma.wait.group.sync.aligned 1
// PAIR: nvvm.mapa %{{.*}}, %c0_i32{{[_0-9]*}} : !llvm.ptr<3> -> !llvm.ptr<7>
// PAIR: nvvm.mapa %{{.*}}, %c1_i32{{[_0-9]*}} : !llvm.ptr<3> -> !llvm.ptr<7>
// Without the option: one 4-D box of the tile's 7 image rows per k tile.
// OFF: grid_m_tile = 49
// OFF-SAME: {box = array<i64: 64, 7, 7, 1>, {{.*}}tensor = "in0"}
func.func @conv7(%x: tensor<2x7x7x128xbf16>, %w: tensor<3x3x128x64xbf16>) -> tensor<2x7x7x64xbf16> {
  %r = dsm.fused_chain gemm (%x, %w) {schedule = #dsm.schedule<cluster = [1, 1, 1, 1], block = [128, 64, 64, 16], grid = [1, 1, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [], stages = 4, cost_ns = 1000>}
      : (tensor<2x7x7x128xbf16>, tensor<3x3x128x64xbf16>) -> tensor<2x7x7x64xbf16> {
  ^bb0(%a: tensor<2x7x7x128xbf16>, %b: tensor<3x3x128x64xbf16>):
    %cst = arith.constant 0.0 : f32
    %bz = arith.constant 0.0 : bf16
    %p = tensor.pad %a low[0, 1, 1, 0] high[0, 1, 1, 0] {
    ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
      tensor.yield %bz : bf16
    } : tensor<2x7x7x128xbf16> to tensor<2x9x9x128xbf16>
    %ie = tensor.empty() : tensor<98x1152xbf16>
    %col = linalg.generic {indexing_maps = [affine_map<(m, k) -> (m floordiv 49, (m mod 49) floordiv 7 + k floordiv 384, m mod 7 + (k mod 384) floordiv 128, k mod 128)>, affine_map<(m, k) -> (m, k)>], iterator_types = ["parallel", "parallel"]} ins(%p : tensor<2x9x9x128xbf16>) outs(%ie : tensor<98x1152xbf16>) {
    ^bb0(%in: bf16, %o: bf16):
      linalg.yield %in : bf16
    } -> tensor<98x1152xbf16>
    %wc = tensor.collapse_shape %b [[0, 1, 2], [3]] : tensor<3x3x128x64xbf16> into tensor<1152x64xbf16>
    %e = tensor.empty() : tensor<98x64xf32>
    %z = linalg.fill ins(%cst : f32) outs(%e : tensor<98x64xf32>) -> tensor<98x64xf32>
    %mm = linalg.matmul ins(%col, %wc : tensor<98x1152xbf16>, tensor<1152x64xbf16>) outs(%z : tensor<98x64xf32>) -> tensor<98x64xf32>
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

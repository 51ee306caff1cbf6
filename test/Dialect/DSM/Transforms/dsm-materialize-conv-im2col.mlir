// RUN: ff-opt %s --dsm-materialize --split-input-file | FileCheck %s

// 3x3 convolutions whose m tiles are not whole image rows: blk_m output
// pixels across rows and images, each k tile one TMA load in im2col mode of
// the NHWC input (ff::usesConvImageRows). Here no 80-pixel row fits a
// 64-row tile: tile t is pixels [64t, 64t + 64); k tile k reads 64 channels
// of tap (r, s) = divmod(min(k, 8), 3) (C = 64: one channel tile per tap)
// from input pixel (h - 1 + r, w - 1 + s), (n, h, w) the tile's first
// output pixel, through a {64 channels, 64 pixels} map whose pixel box has
// its corners at -1; expect_tx counts 64 rows of A and 16384 B of B; the
// launch has ceil(M / 64) tiles.
// CHECK: module attributes {dsm.bundles = [{chain = {{.*}}kind = "gemm"
// CHECK-SAME: grid_m_tile = 64
// CHECK-SAME: {box = array<i64: 64, 64>, im2col = {lower = array<i64: -1, -1>, upper = array<i64: -1, -1>}, {{.*}}tensor = "in0"}
// CHECK-LABEL: gpu.func @wide_rows_0(
// CHECK: %[[BID:.*]] = gpu.block_id x
// CHECK: scf.for %[[T:.*]] = %[[BID]] to
// CHECK: %[[M0:.*]] = arith.muli %[[T]], %c64{{[_0-9]*}} : index
// CHECK: scf.for %[[K:.*]] = %{{.*}} to %c9{{[_0-9]*}} step
// CHECK: nvgpu.mbarrier.arrive.expect_tx %{{.*}}, %c24576
// CHECK: %[[CT:.*]] = arith.remui %[[K]], %c1{{[_0-9]*}} : index
// CHECK: %[[C0:.*]] = arith.muli %[[CT]], %c64{{[_0-9]*}} : index
// CHECK: %[[TAP:.*]] = arith.minui %[[K]], %c8{{[_0-9]*}} : index
// CHECK: %[[IMG:.*]] = arith.divui %[[M0]], %c320{{[_0-9]*}} : index
// CHECK: %[[PIX:.*]] = arith.remui %[[M0]], %c320{{[_0-9]*}} : index
// CHECK: %[[OH:.*]] = arith.divui %[[PIX]], %c80{{[_0-9]*}} : index
// CHECK: %[[H:.*]] = arith.addi %[[OH]], %c-1{{[_0-9]*}} : index
// CHECK: %[[OW:.*]] = arith.remui %[[PIX]], %c80{{[_0-9]*}} : index
// CHECK: %[[W:.*]] = arith.addi %[[OW]], %c-1{{[_0-9]*}} : index
// CHECK: %[[C0I:.*]] = arith.index_cast %[[C0]] : index to i32
// CHECK: %[[WI:.*]] = arith.index_cast %[[W]] : index to i32
// CHECK: %[[HI:.*]] = arith.index_cast %[[H]] : index to i32
// CHECK: %[[IMGI:.*]] = arith.index_cast %[[IMG]] : index to i32
// CHECK: %[[S:.*]] = arith.remui %[[TAP]], %c3{{[_0-9]*}} : index
// CHECK: %[[R:.*]] = arith.divui %[[TAP]], %c3{{[_0-9]*}} : index
// CHECK: %[[SI:.*]] = arith.index_cast %[[S]] : index to i16
// CHECK: %[[RI:.*]] = arith.index_cast %[[R]] : index to i16
// CHECK: %[[DST:.*]] = llvm.addrspacecast %{{.*}} : !llvm.ptr<3> to !llvm.ptr<7>
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %[[DST]], %arg0, %{{.*}}, box[%[[C0I]], %[[WI]], %[[HI]], %[[IMGI]]] im2col[%[[SI]], %[[RI]]] {mode = #nvvm.tma_load_mode<im2col>}
// CHECK: nvgpu.tma.async.load {{.*}} -> memref<64x64xbf16, #gpu.address_space<workgroup>>
// CHECK: } else {
// CHECK-LABEL: func.func @wide_rows_0_launch(
// CHECK: arith.ceildivui %{{.*}}, %c64

func.func @wide_rows(%x: tensor<1x4x80x64xbf16>, %w: tensor<3x3x64x128xbf16>) -> tensor<1x4x80x128xbf16> {
  %r = dsm.fused_chain gemm (%x, %w) {schedule = #dsm.schedule<cluster = [1, 1, 1, 1], block = [64, 128, 64, 16], grid = [5, 1, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [], stages = 4, cost_ns = 1000>}
      : (tensor<1x4x80x64xbf16>, tensor<3x3x64x128xbf16>) -> tensor<1x4x80x128xbf16> {
  ^bb0(%a: tensor<1x4x80x64xbf16>, %b: tensor<3x3x64x128xbf16>):
    %cst = arith.constant 0.0 : f32
    %bz = arith.constant 0.0 : bf16
    %p = tensor.pad %a low[0, 1, 1, 0] high[0, 1, 1, 0] {
    ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
      tensor.yield %bz : bf16
    } : tensor<1x4x80x64xbf16> to tensor<1x6x82x64xbf16>
    %ie = tensor.empty() : tensor<320x576xbf16>
    %col = linalg.generic {indexing_maps = [affine_map<(m, k) -> (m floordiv 320, (m mod 320) floordiv 80 + k floordiv 192, m mod 80 + (k mod 192) floordiv 64, k mod 64)>, affine_map<(m, k) -> (m, k)>], iterator_types = ["parallel", "parallel"]} ins(%p : tensor<1x6x82x64xbf16>) outs(%ie : tensor<320x576xbf16>) {
    ^bb0(%in: bf16, %o: bf16):
      linalg.yield %in : bf16
    } -> tensor<320x576xbf16>
    %wc = tensor.collapse_shape %b [[0, 1, 2], [3]] : tensor<3x3x64x128xbf16> into tensor<576x128xbf16>
    %e = tensor.empty() : tensor<320x128xf32>
    %z = linalg.fill ins(%cst : f32) outs(%e : tensor<320x128xf32>) -> tensor<320x128xf32>
    %mm = linalg.matmul ins(%col, %wc : tensor<320x576xbf16>, tensor<576x128xbf16>) outs(%z : tensor<320x128xf32>) -> tensor<320x128xf32>
    %e2 = tensor.empty() : tensor<320x128xbf16>
    %t = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%mm : tensor<320x128xf32>) outs(%e2 : tensor<320x128xbf16>) {
    ^bb0(%in: f32, %o: bf16):
      %v = arith.truncf %in : f32 to bf16
      linalg.yield %v : bf16
    } -> tensor<320x128xbf16>
    %y = tensor.expand_shape %t [[0, 1, 2], [3]] output_shape [1, 4, 80, 128] : tensor<320x128xbf16> into tensor<1x4x80x128xbf16>
    dsm.yield %y : tensor<1x4x80x128xbf16>
  }
  return %r : tensor<1x4x80x128xbf16>
}

// -----

// A split K of two CTAs (a GEMM cluster along k) over a 14x14 image, whose
// 64-row tiles could hold four whole rows: the cluster's ranks split A's
// k tiles, so m is tiled by pixels (grid_m_tile 64, not 56) and rank r's
// k tile k is k + 9r of the 18 (two channel tiles per tap): tap
// min((k + 9r) / 2, 8).
// CHECK: grid_m_tile = 64
// CHECK-SAME: {box = array<i64: 64, 64>, im2col = {{.*}}tensor = "in0"}
// CHECK-LABEL: gpu.func @split_k_0(
// CHECK: %[[RANK:.*]] = dsm.cluster_rank
// CHECK: %[[KR:.*]] = arith.remui %[[RANK]], %c2{{[_0-9]*}} : index
// CHECK: %[[KOFF:.*]] = arith.muli %[[KR]], %c9{{[_0-9]*}} : index
// CHECK: scf.for %[[K:.*]] = %{{.*}} to %c9{{[_0-9]*}} step
// CHECK: %[[KG:.*]] = arith.addi %[[K]], %[[KOFF]] : index
// CHECK: %[[KT:.*]] = arith.divui %[[KG]], %c2{{[_0-9]*}} : index
// CHECK: arith.minui %[[KT]], %c8{{[_0-9]*}} : index
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global {{.*}} im2col[
// CHECK-LABEL: func.func @split_k_0_launch(
// CHECK: gpu.launch_func @split_k_0_module::@split_k_0 clusters in (%c2{{[_0-9]*}}, %c1{{[_0-9]*}}, %c1{{[_0-9]*}})

func.func @split_k(%x: tensor<1x14x14x128xbf16>, %w: tensor<3x3x128x128xbf16>) -> tensor<1x14x14x128xbf16> {
  %r = dsm.fused_chain gemm (%x, %w) {schedule = #dsm.schedule<cluster = [1, 1, 2, 1], block = [64, 128, 576, 16], grid = [4, 1, 1, 1], order = [m, n, k, l], spatial = [m, n, k], residency = [], collectives = [all_exchange], stages = 4, cost_ns = 1000>}
      : (tensor<1x14x14x128xbf16>, tensor<3x3x128x128xbf16>) -> tensor<1x14x14x128xbf16> {
  ^bb0(%a: tensor<1x14x14x128xbf16>, %b: tensor<3x3x128x128xbf16>):
    %cst = arith.constant 0.0 : f32
    %bz = arith.constant 0.0 : bf16
    %p = tensor.pad %a low[0, 1, 1, 0] high[0, 1, 1, 0] {
    ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
      tensor.yield %bz : bf16
    } : tensor<1x14x14x128xbf16> to tensor<1x16x16x128xbf16>
    %ie = tensor.empty() : tensor<196x1152xbf16>
    %col = linalg.generic {indexing_maps = [affine_map<(m, k) -> (m floordiv 196, (m mod 196) floordiv 14 + k floordiv 384, m mod 14 + (k mod 384) floordiv 128, k mod 128)>, affine_map<(m, k) -> (m, k)>], iterator_types = ["parallel", "parallel"]} ins(%p : tensor<1x16x16x128xbf16>) outs(%ie : tensor<196x1152xbf16>) {
    ^bb0(%in: bf16, %o: bf16):
      linalg.yield %in : bf16
    } -> tensor<196x1152xbf16>
    %wc = tensor.collapse_shape %b [[0, 1, 2], [3]] : tensor<3x3x128x128xbf16> into tensor<1152x128xbf16>
    %e = tensor.empty() : tensor<196x128xf32>
    %z = linalg.fill ins(%cst : f32) outs(%e : tensor<196x128xf32>) -> tensor<196x128xf32>
    %mm = linalg.matmul ins(%col, %wc : tensor<196x1152xbf16>, tensor<1152x128xbf16>) outs(%z : tensor<196x128xf32>) -> tensor<196x128xf32>
    %e2 = tensor.empty() : tensor<196x128xbf16>
    %t = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%mm : tensor<196x128xf32>) outs(%e2 : tensor<196x128xbf16>) {
    ^bb0(%in: f32, %o: bf16):
      %v = arith.truncf %in : f32 to bf16
      linalg.yield %v : bf16
    } -> tensor<196x128xbf16>
    %y = tensor.expand_shape %t [[0, 1, 2], [3]] output_shape [1, 14, 14, 128] : tensor<196x128xbf16> into tensor<1x14x14x128xbf16>
    dsm.yield %y : tensor<1x14x14x128xbf16>
  }
  return %r : tensor<1x14x14x128xbf16>
}


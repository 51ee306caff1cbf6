// REQUIRES: ptxas
// RUN: rm -rf %t && ff-opt %s --lower-to-nvvm="emit-bundle=%t format=bin" -o /dev/null
// RUN: FileCheck %s < %t/conv7_0.ptx
// RUN: FileCheck %s --check-prefix=TMA < %t/conv7_0.ptx
// RUN: %ptxas -arch=sm_90a -O3 -v %t/conv7_0.ptx -o %t/k.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS

// The streamed-halo 3x3 GEMM (dsm-materialize-conv-halo-gemm.mlir) end to
// end as C8-b32's runs on an H100: 128 x 64 tiles of two 7x7 images, a
// cluster of two m tiles (the second past M here) whose CTAs take turns
// loading the taps' B tiles into both. The halo is a 4-D tile-mode TMA
// load, the B tiles multicast, each ring step's 36 wgmmas read the halo at
// nine window offsets, and ptxas keeps every value in registers at the
// 168 registers three warpgroups leave.
// TMA: cp.async.bulk.tensor.4d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// TMA: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster
// CHECK: .reqnctapercluster 2, 1, 1
// CHECK-COUNT-36: wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16
// PTXAS: 0 bytes spill stores
// PTXAS: Used {{[0-9]+}} registers
func.func @conv7(%x: tensor<2x7x7x128xbf16>, %w: tensor<3x3x128x64xbf16>) -> tensor<2x7x7x64xbf16> {
  %r = dsm.fused_chain gemm (%x, %w) {schedule = #dsm.schedule<cluster = [2, 1, 1, 1], block = [128, 64, 64, 16], grid = [1, 1, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [], stages = 4, cost_ns = 1000>}
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

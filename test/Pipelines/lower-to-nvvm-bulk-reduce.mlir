// RUN: rm -rf %t && ff-opt %s --lower-to-nvvm="emit-bundle=%t" -o /dev/null
// RUN: FileCheck %s --implicit-check-not=red.relaxed.gpu.global < %t/wide_0/wide_0.ptx
// RUN: FileCheck %s --check-prefix=RED < %t/narrow_1/narrow_1.ptx
// RUN: rm -rf %t.off && ff-opt %s --lower-to-nvvm="emit-bundle=%t.off workspace-bulk-reduce=false" -o /dev/null
// RUN: FileCheck %s --check-prefix=RED < %t.off/wide_0/wide_0.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_90a -O3 -v %t/wide_0/wide_0.ptx -o %t/w.cubin 2>&1 | FileCheck %s --check-prefix=SPILLS %}

// Workspace reductions by the TMA unit (shuffle family, atomic workspace).
// @wide (blk_m = 128, blk_n = 256: a 64 KiB act(C) slice, dead after the
// gather) stages 64 columns of each consumer warp's 16 rows at a time,
// rows 64 * 4 + 32 bytes apart, and lanes 0-15 each add one 256-byte row
// with cp.reduce.async.bulk; a sub-tile of 128 columns takes two rounds,
// each after the previous round's rows were read (wait_group.read). Before
// the workspace count-in the reductions are waited for and fenced against
// the generic proxy. No red.global is left. @narrow (blk_m = 64: one
// consumer warpgroup, measured slower with the bulk path) and
// workspace-bulk-reduce=false keep red.global from registers.
// CHECK-COUNT-2: cp.async.bulk.wait_group.read 0;
// CHECK: fence.proxy.async.shared::cta;
// CHECK: cp.reduce.async.bulk.global.shared::cta.bulk_group.add.f32 [%rd{{[0-9]+}}], [%rd{{[0-9]+}}], 256;
// CHECK-NEXT: cp.async.bulk.commit_group;
// CHECK: cp.async.bulk.wait_group 0;
// CHECK-NEXT: fence.proxy.async.global;
// CHECK: atom.global.add.u32
// RED-NOT: cp.reduce.async.bulk
// RED: red.relaxed.gpu.global.add.v2.f32
// RED-NOT: cp.reduce.async.bulk
// SPILLS: 0 bytes spill stores, 0 bytes spill loads

func.func @wide(%a0: tensor<128x128xbf16>, %a1: tensor<128x1024xbf16>, %a2: tensor<1024x256xbf16>) -> tensor<128x256xbf16> {
  %r = dsm.fused_chain ffn (%a0, %a1, %a2) {schedule = #dsm.schedule<cluster = [1, 2, 1, 2], block = [128, 256, 64, 128], grid = [1, 2, 1, 1], order = [m, n, l, k], spatial = [m, n, l], residency = [dsm], collectives = [shuffle, inter_cluster_reduce], stages = 2, cost_ns = 1000>}
      : (tensor<128x128xbf16>, tensor<128x1024xbf16>, tensor<1024x256xbf16>) -> tensor<128x256xbf16> {
  ^bb0(%x: tensor<128x128xbf16>, %w1: tensor<128x1024xbf16>, %w2: tensor<1024x256xbf16>):
    %zero = arith.constant 0.0 : f32
    %g_e = tensor.empty() : tensor<128x1024xf32>
    %g_f = linalg.fill ins(%zero : f32) outs(%g_e : tensor<128x1024xf32>) -> tensor<128x1024xf32>
    %g = linalg.matmul ins(%x, %w1 : tensor<128x128xbf16>, tensor<128x1024xbf16>) outs(%g_f : tensor<128x1024xf32>) -> tensor<128x1024xf32>
    %h_e = tensor.empty() : tensor<128x1024xbf16>
    %h = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%g : tensor<128x1024xf32>) outs(%h_e : tensor<128x1024xbf16>) {
    ^bb0(%gv: f32, %o: bf16):
      %y = arith.maximumf %gv, %zero : f32
      %t = arith.truncf %y : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<128x1024xbf16>
    %e_e = tensor.empty() : tensor<128x256xf32>
    %e_f = linalg.fill ins(%zero : f32) outs(%e_e : tensor<128x256xf32>) -> tensor<128x256xf32>
    %e = linalg.matmul ins(%h, %w2 : tensor<128x1024xbf16>, tensor<1024x256xbf16>) outs(%e_f : tensor<128x256xf32>) -> tensor<128x256xf32>
    %o_e = tensor.empty() : tensor<128x256xbf16>
    %o = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%e : tensor<128x256xf32>) outs(%o_e : tensor<128x256xbf16>) {
    ^bb0(%ev: f32, %oo: bf16):
      %t = arith.truncf %ev : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<128x256xbf16>
    dsm.yield %o : tensor<128x256xbf16>
  }
  return %r : tensor<128x256xbf16>
}

func.func @narrow(%a0: tensor<64x128xbf16>, %a1: tensor<128x1024xbf16>, %a2: tensor<1024x256xbf16>) -> tensor<64x256xbf16> {
  %r = dsm.fused_chain ffn (%a0, %a1, %a2) {schedule = #dsm.schedule<cluster = [1, 2, 1, 2], block = [64, 256, 64, 128], grid = [1, 2, 1, 1], order = [m, n, l, k], spatial = [m, n, l], residency = [dsm], collectives = [shuffle, inter_cluster_reduce], stages = 2, cost_ns = 1000>}
      : (tensor<64x128xbf16>, tensor<128x1024xbf16>, tensor<1024x256xbf16>) -> tensor<64x256xbf16> {
  ^bb0(%x: tensor<64x128xbf16>, %w1: tensor<128x1024xbf16>, %w2: tensor<1024x256xbf16>):
    %zero = arith.constant 0.0 : f32
    %g_e = tensor.empty() : tensor<64x1024xf32>
    %g_f = linalg.fill ins(%zero : f32) outs(%g_e : tensor<64x1024xf32>) -> tensor<64x1024xf32>
    %g = linalg.matmul ins(%x, %w1 : tensor<64x128xbf16>, tensor<128x1024xbf16>) outs(%g_f : tensor<64x1024xf32>) -> tensor<64x1024xf32>
    %h_e = tensor.empty() : tensor<64x1024xbf16>
    %h = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%g : tensor<64x1024xf32>) outs(%h_e : tensor<64x1024xbf16>) {
    ^bb0(%gv: f32, %o: bf16):
      %y = arith.maximumf %gv, %zero : f32
      %t = arith.truncf %y : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<64x1024xbf16>
    %e_e = tensor.empty() : tensor<64x256xf32>
    %e_f = linalg.fill ins(%zero : f32) outs(%e_e : tensor<64x256xf32>) -> tensor<64x256xf32>
    %e = linalg.matmul ins(%h, %w2 : tensor<64x1024xbf16>, tensor<1024x256xbf16>) outs(%e_f : tensor<64x256xf32>) -> tensor<64x256xf32>
    %o_e = tensor.empty() : tensor<64x256xbf16>
    %o = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%e : tensor<64x256xf32>) outs(%o_e : tensor<64x256xbf16>) {
    ^bb0(%ev: f32, %oo: bf16):
      %t = arith.truncf %ev : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<64x256xbf16>
    dsm.yield %o : tensor<64x256xbf16>
  }
  return %r : tensor<64x256xbf16>
}

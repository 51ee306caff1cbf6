// RUN: ff-opt %s --dsm-materialize | FileCheck %s

// A plain split-K GEMM on an n tile sized to the chip's cluster slots
// rather than 64, 128 or 256 (hand-written: --dsm-search does not offer
// these widths for unswapped tiles). N = 160 on two 128 x 96 tiles over k
// groups of 4: each rank owns 24 columns of the reduced tile, and the last
// tile runs past N (columns 160-191), so every store of the reduced slice
// is guarded by its column as well as its row. B's tile is one TMA box of
// 96 K-major rows (rows past N zero-filled).
// CHECK: dsm.bundles = [{{.*}}cluster = array<i64: 4, 1, 1>{{.*}}grid = array<i64: 8, 1, 1>
// CHECK-LABEL: gpu.func @gemm_0
// CHECK-SAME: known_cluster_size = array<i32: 4, 1, 1>
// CHECK: %[[PART:.*]] = dsm.alloc at 0 : !dsm.buffer<512x24xf32, split = [1, 1]>
// CHECK: %[[SCR:.*]] = dsm.alloc at {{[0-9]+}} : !dsm.buffer<384x24xf32, split = [1, 1]>
// CHECK: nvgpu.tma.async.load {{.*}} : <tensor = memref<128x64xbf16, 3>
// CHECK: nvgpu.tma.async.load {{.*}} : <tensor = memref<96x64xbf16, 3>
// CHECK: dsm.reduce reduce_scatter add %[[PART]] axis = 0 group(4, 1) push(%[[SCR]]
// CHECK: %[[ROW:.*]] = arith.cmpi ult, %{{.*}}, %{{.*}} : index
// CHECK-NEXT: scf.if %[[ROW]] {
// CHECK-NEXT: %[[N:.*]] = arith.constant 160 : index
// CHECK-NEXT: %[[IN:.*]] = arith.cmpi ult, %{{.*}}, %[[N]] : index
// CHECK-NEXT: scf.if %[[IN]] {
// CHECK: llvm.store %{{.*}} : vector<4xbf16>, !llvm.ptr
// CHECK-LABEL: func.func @gemm_0_launch
// CHECK: gpu.launch_func @gemm_0_module::@gemm_0 clusters in (%c4{{.*}}, %c1{{.*}}, %c1{{.*}})

func.func @gemm(%a: tensor<128x512xbf16>, %b: tensor<160x512xbf16>) -> tensor<128x160xbf16> {
  %r = dsm.fused_chain gemm (%a, %b) {schedule = #dsm.schedule<cluster = [1, 1, 4, 1], block = [128, 96, 128, 16], grid = [1, 2, 1, 1], order = [m, n, k, l], spatial = [m, n, k], residency = [], collectives = [all_exchange], stages = 2, cost_ns = 1000>}
      : (tensor<128x512xbf16>, tensor<160x512xbf16>) -> tensor<128x160xbf16> {
  ^bb0(%x: tensor<128x512xbf16>, %w: tensor<160x512xbf16>):
    %cst = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<128x160xf32>
    %f = linalg.fill ins(%cst : f32) outs(%e : tensor<128x160xf32>) -> tensor<128x160xf32>
    %mm = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%x, %w : tensor<128x512xbf16>, tensor<160x512xbf16>) outs(%f : tensor<128x160xf32>) -> tensor<128x160xf32>
    %e2 = tensor.empty() : tensor<128x160xbf16>
    %t = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%mm : tensor<128x160xf32>) outs(%e2 : tensor<128x160xbf16>) {
    ^bb0(%in: f32, %o: bf16):
      %v = arith.truncf %in : f32 to bf16
      linalg.yield %v : bf16
    }  -> tensor<128x160xbf16>
    dsm.yield %t : tensor<128x160xbf16>
  }
  return %r : tensor<128x160xbf16>
}

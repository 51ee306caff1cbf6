// RUN: ff-opt %s --dsm-materialize | FileCheck %s
// RUN: ff-opt %s --dsm-materialize=resident-weights=false | FileCheck %s --check-prefix=OFF
// RUN: ff-opt %s --dsm-materialize=warpgroup-tiles=true | FileCheck %s --check-prefix=WG

// Resident weights (ff::keepsWeightsResident): a persistent solo FFN
// kernel reads the same B (N = blk_n) and D in every tile, so where all
// of them fit beside the A ring the producer loads them once, onto one
// barrier, and the ring carries A alone; the consumers wait for that
// barrier before their first tile and read B's k tile k and D's chunk c
// in place (no D ring, no releases).
//
// @solo: K = 256, 4 k tiles of B (16 KB each, two 64-column boxes) and
// one 128 x 128 chunk of D: 96 KB once, then 16 KB of A per ring stage.
// @no_room: K = 1024 (256 KB of B): persistent, B streamed with A.
// CHECK-LABEL: gpu.func @solo_0
// CHECK: %[[W:.*]] = nvgpu.mbarrier.create -> <memorySpace = #gpu.address_space<workgroup>>
// CHECK: nvgpu.mbarrier.init %[[W]][%{{.*}}], %c1
// The producer: B's 8 boxes and D's 2 onto W, then A alone per stage.
// CHECK: nvgpu.mbarrier.arrive.expect_tx %[[W]][%{{.*}}], %c98304
// CHECK-COUNT-10: nvgpu.tma.async.load %{{.*}}, %[[W]]
// CHECK: scf.for {{.*}} iter_args
// CHECK: nvgpu.mbarrier.arrive.expect_tx %{{.*}}, %c16384
// CHECK: nvgpu.tma.async.load
// CHECK-NOT: nvgpu.tma.async.load
// CHECK: scf.yield
// The consumers: the weights once, then the tiles.
// CHECK: nvgpu.mbarrier.try_wait.parity %[[W]][%{{.*}}], %false
// CHECK: scf.for {{.*}} iter_args
// CHECK-NOT: nvgpu.mbarrier.try_wait.parity %[[W]]
// CHECK: gpu.return
// CHECK-LABEL: gpu.func @no_room_1
// CHECK-NOT: nvgpu.mbarrier.create -> <memorySpace = #gpu.address_space<workgroup>>
// CHECK: gpu.grid_dim x
// CHECK: nvgpu.mbarrier.arrive.expect_tx %{{.*}}, %c32768
// CHECK: gpu.return

// Warpgroup tiles (a resident kernel only): each consumer warpgroup on 64-row
// tiles of its own (A boxes of 64 rows, 8 KB per stage), tiles 2 * block +
// warp in steps of 2 * grid, a full and an empty barrier per stage and
// warpgroup, each empty one released by its warpgroup alone. @no_room
// streams B: the CTA's 128-row tile.
// WG: box = array<i64: 64, 64>, {{[^}]*}}tensor = "in0"
// WG: box = array<i64: 64, 128>, {{[^}]*}}tensor = "in0"
// WG-LABEL: gpu.func @solo_0
// WG: %[[FULL:.*]] = nvgpu.mbarrier.create -> <memorySpace = #gpu.address_space<workgroup>, num_barriers = 4>
// WG: %[[EMPTY:.*]] = nvgpu.mbarrier.create -> <memorySpace = #gpu.address_space<workgroup>, num_barriers = 4>
// WG: nvgpu.mbarrier.init %[[EMPTY]][%{{.*}}], %c1
// WG: gpu.grid_dim x
// WG: arith.muli %{{.*}}, %c2
// WG: nvgpu.mbarrier.arrive.expect_tx %[[FULL]][%{{.*}}], %c8192
// WG: nvgpu.tma.async.load {{.*}} -> memref<64x64xbf16, #gpu.address_space<workgroup>>
// WG-LABEL: gpu.func @no_room_1
// WG: nvgpu.mbarrier.create -> <memorySpace = #gpu.address_space<workgroup>, num_barriers = 2>

// OFF-LABEL: gpu.func @solo_0
// OFF-NOT: nvgpu.mbarrier.create -> <memorySpace = #gpu.address_space<workgroup>>
// OFF: gpu.grid_dim x
// OFF: nvgpu.mbarrier.arrive.expect_tx %{{.*}}, %c32768
module attributes {dsm.target = #dsm.target<name = "h100-sxm", chip = "sm_90a", sms = 132, smem_per_sm = 233472, smem_per_block = 232448, regs_per_sm = 65536, max_cluster = 8, max_cluster_nonportable = 16, clock_mhz = 1830, hbm_gbps = 3350, l2_bytes = 52428800, dsm_gbps = [3300, 3100, 3000, 2900], dsm_latency = [190, 200, 240, 280], tflops_bf16 = 989, tflops_f16 = 989, tflops_f32 = 494>} {
func.func @solo(%a: tensor<32768x256xbf16>, %b: tensor<256x128xbf16>, %d: tensor<128x128xbf16>) -> tensor<32768x128xbf16> {
  %r = dsm.fused_chain ffn (%a, %b, %d) {schedule = #dsm.schedule<cluster = [1, 1, 1, 1], block = [128, 128, 64, 128], grid = [256, 1, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [smem], collectives = [], stages = 2, cost_ns = 1000>}
      : (tensor<32768x256xbf16>, tensor<256x128xbf16>, tensor<128x128xbf16>) -> tensor<32768x128xbf16> {
  ^bb0(%x: tensor<32768x256xbf16>, %w: tensor<256x128xbf16>, %w2: tensor<128x128xbf16>):
    %cst = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<32768x128xf32>
    %f = linalg.fill ins(%cst : f32) outs(%e : tensor<32768x128xf32>) -> tensor<32768x128xf32>
    %mm = linalg.matmul ins(%x, %w : tensor<32768x256xbf16>, tensor<256x128xbf16>) outs(%f : tensor<32768x128xf32>) -> tensor<32768x128xf32>
    %e2 = tensor.empty() : tensor<32768x128xbf16>
    %t = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%mm : tensor<32768x128xf32>) outs(%e2 : tensor<32768x128xbf16>) {
    ^bb0(%in: f32, %o: bf16):
      %z = arith.constant 0.0 : f32
      %v = arith.maximumf %in, %z : f32
      %v2 = arith.truncf %v : f32 to bf16
      linalg.yield %v2 : bf16
    }  -> tensor<32768x128xbf16>
    %g = tensor.empty() : tensor<32768x128xf32>
    %gf = linalg.fill ins(%cst : f32) outs(%g : tensor<32768x128xf32>) -> tensor<32768x128xf32>
    %mm2 = linalg.matmul ins(%t, %w2 : tensor<32768x128xbf16>, tensor<128x128xbf16>) outs(%gf : tensor<32768x128xf32>) -> tensor<32768x128xf32>
    %o0 = tensor.empty() : tensor<32768x128xbf16>
    %o = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%mm2 : tensor<32768x128xf32>) outs(%o0 : tensor<32768x128xbf16>) {
    ^bb0(%in: f32, %o1: bf16):
      %v = arith.truncf %in : f32 to bf16
      linalg.yield %v : bf16
    } -> tensor<32768x128xbf16>
    dsm.yield %o : tensor<32768x128xbf16>
  }
  return %r : tensor<32768x128xbf16>
}
func.func @no_room(%a: tensor<32768x1024xbf16>, %b: tensor<1024x128xbf16>, %d: tensor<128x128xbf16>) -> tensor<32768x128xbf16> {
  %r = dsm.fused_chain ffn (%a, %b, %d) {schedule = #dsm.schedule<cluster = [1, 1, 1, 1], block = [128, 128, 64, 128], grid = [256, 1, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [smem], collectives = [], stages = 2, cost_ns = 1000>}
      : (tensor<32768x1024xbf16>, tensor<1024x128xbf16>, tensor<128x128xbf16>) -> tensor<32768x128xbf16> {
  ^bb0(%x: tensor<32768x1024xbf16>, %w: tensor<1024x128xbf16>, %w2: tensor<128x128xbf16>):
    %cst = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<32768x128xf32>
    %f = linalg.fill ins(%cst : f32) outs(%e : tensor<32768x128xf32>) -> tensor<32768x128xf32>
    %mm = linalg.matmul ins(%x, %w : tensor<32768x1024xbf16>, tensor<1024x128xbf16>) outs(%f : tensor<32768x128xf32>) -> tensor<32768x128xf32>
    %e2 = tensor.empty() : tensor<32768x128xbf16>
    %t = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%mm : tensor<32768x128xf32>) outs(%e2 : tensor<32768x128xbf16>) {
    ^bb0(%in: f32, %o: bf16):
      %z = arith.constant 0.0 : f32
      %v = arith.maximumf %in, %z : f32
      %v2 = arith.truncf %v : f32 to bf16
      linalg.yield %v2 : bf16
    }  -> tensor<32768x128xbf16>
    %g = tensor.empty() : tensor<32768x128xf32>
    %gf = linalg.fill ins(%cst : f32) outs(%g : tensor<32768x128xf32>) -> tensor<32768x128xf32>
    %mm2 = linalg.matmul ins(%t, %w2 : tensor<32768x128xbf16>, tensor<128x128xbf16>) outs(%gf : tensor<32768x128xf32>) -> tensor<32768x128xf32>
    %o0 = tensor.empty() : tensor<32768x128xbf16>
    %o = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%mm2 : tensor<32768x128xf32>) outs(%o0 : tensor<32768x128xbf16>) {
    ^bb0(%in: f32, %o1: bf16):
      %v = arith.truncf %in : f32 to bf16
      linalg.yield %v : bf16
    } -> tensor<32768x128xbf16>
    dsm.yield %o : tensor<32768x128xbf16>
  }
  return %r : tensor<32768x128xbf16>
}
}

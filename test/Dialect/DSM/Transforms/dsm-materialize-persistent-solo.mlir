// RUN: ff-opt %s --split-input-file --dsm-materialize=resident-weights=false | FileCheck %s
// RUN: ff-opt %s --split-input-file --dsm-materialize=persistent-solo=false | FileCheck %s --check-prefix=OFF

// Persistent solo FFN kernels (a cluster of one, grid n = 1): where the
// cost model prices the plan persistent on the module's dsm.target
// (ff::runsPersistent: one CTA per SM and one to eight waves of
// tiles), producer and consumers each walk the tiles t = block index,
// + grid size, ...; the operand ring's iteration continues across tiles
// and the D ring's from (base / k tiles) * l chunks.
// (resident-weights=false: dsm-materialize-resident-weights.mlir has
// kernels that load B and D once.)
//
// @solo: 256 tiles of 128 rows at one CTA per SM (setmaxnreg at 2 stages
// takes the register file): persistent. @two_per_sm: 64-row tiles at four
// CTAs per SM, whose co-resident CTAs hide each other's epilogues: one tile
// per CTA. @one_wave: 64 tiles, fewer than the SMs: one tile per CTA. The
// second module has no dsm.target: one tile per CTA.
// CHECK: name = "solo_0", params
// CHECK-NOT: plan =
// CHECK-SAME: persistent = true
// CHECK-SAME: name = "two_per_sm_1", params
// CHECK-NOT: persistent
// CHECK-SAME: name = "one_wave_2", params
// CHECK-NOT: persistent
// CHECK-SAME: }]
// CHECK-LABEL: gpu.func @solo_0
// The producer: tiles, the k ring, then the tile's D chunks.
// CHECK: %[[BID:.*]] = gpu.block_id x
// CHECK: %[[CTAS:.*]] = gpu.grid_dim x
// CHECK: %[[MT:.*]] = arith.ceildivui %{{.*}}, %c128{{.*}} : index
// CHECK: scf.for %[[T:.*]] = %[[BID]] to %[[MT]] step %[[CTAS]] iter_args(%[[BASE:.*]] = %c0{{.*}}) -> (index)
// CHECK: scf.for %[[K:.*]] = %c0{{.*}} to %c4
// CHECK: arith.addi %[[BASE]], %[[K]] : index
// CHECK: nvgpu.tma.async.load
// CHECK: %[[TILE:.*]] = arith.divui %[[BASE]], %c4{{.*}} : index
// CHECK: scf.for %[[J:.*]] = %c0{{.*}} to %c1
// CHECK: %[[DIT:.*]] = arith.addi %[[TILE]], %[[J]] : index
// CHECK: %[[DIT32:.*]] = arith.index_castui %[[DIT]] : index to i32
// CHECK: arith.remui %[[DIT32]], %c2_i32{{.*}} : i32
// CHECK: nvgpu.mbarrier.try_wait.parity
// CHECK: nvgpu.tma.async.load
// CHECK: scf.yield %{{.*}} : index
// The consumers: GEMM0, act(C), the D chunk, E from registers, per tile.
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[CBASE:.*]] = %c0{{.*}}) -> (index)
// CHECK: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK: nvgpu.mbarrier.arrive
// CHECK: nvvm.fence.proxy
// CHECK: %[[CTILE:.*]] = arith.divui %[[CBASE]], %c4{{.*}} : index
// CHECK: scf.for %[[CJ:.*]] = %c0{{.*}} to %c1
// CHECK: arith.addi %[[CTILE]], %[[CJ]] : index
// CHECK: nvgpu.mbarrier.try_wait.parity
// CHECK: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK: llvm.store
// CHECK: scf.yield %{{.*}} : index
// CHECK-LABEL: gpu.func @two_per_sm_1
// CHECK-NOT: gpu.grid_dim
// CHECK: gpu.return
// CHECK-LABEL: gpu.func @one_wave_2
// CHECK-NOT: gpu.grid_dim
// CHECK: gpu.return
// CHECK: name = "no_target_0"
// CHECK-NOT: persistent
// CHECK-LABEL: gpu.func @no_target_0
// CHECK-NOT: gpu.grid_dim
// CHECK: gpu.return

// OFF-NOT: persistent
// OFF-NOT: gpu.grid_dim
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
func.func @two_per_sm(%a: tensor<32768x256xbf16>, %b: tensor<256x128xbf16>, %d: tensor<128x128xbf16>) -> tensor<32768x128xbf16> {
  %r = dsm.fused_chain ffn (%a, %b, %d) {schedule = #dsm.schedule<cluster = [1, 1, 1, 1], block = [64, 128, 64, 64], grid = [512, 1, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [smem], collectives = [], stages = 2, cost_ns = 1000>}
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
func.func @one_wave(%a: tensor<8192x256xbf16>, %b: tensor<256x128xbf16>, %d: tensor<128x128xbf16>) -> tensor<8192x128xbf16> {
  %r = dsm.fused_chain ffn (%a, %b, %d) {schedule = #dsm.schedule<cluster = [1, 1, 1, 1], block = [128, 128, 64, 128], grid = [64, 1, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [smem], collectives = [], stages = 2, cost_ns = 1000>}
      : (tensor<8192x256xbf16>, tensor<256x128xbf16>, tensor<128x128xbf16>) -> tensor<8192x128xbf16> {
  ^bb0(%x: tensor<8192x256xbf16>, %w: tensor<256x128xbf16>, %w2: tensor<128x128xbf16>):
    %cst = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<8192x128xf32>
    %f = linalg.fill ins(%cst : f32) outs(%e : tensor<8192x128xf32>) -> tensor<8192x128xf32>
    %mm = linalg.matmul ins(%x, %w : tensor<8192x256xbf16>, tensor<256x128xbf16>) outs(%f : tensor<8192x128xf32>) -> tensor<8192x128xf32>
    %e2 = tensor.empty() : tensor<8192x128xbf16>
    %t = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%mm : tensor<8192x128xf32>) outs(%e2 : tensor<8192x128xbf16>) {
    ^bb0(%in: f32, %o: bf16):
      %z = arith.constant 0.0 : f32
      %v = arith.maximumf %in, %z : f32
      %v2 = arith.truncf %v : f32 to bf16
      linalg.yield %v2 : bf16
    }  -> tensor<8192x128xbf16>
    %g = tensor.empty() : tensor<8192x128xf32>
    %gf = linalg.fill ins(%cst : f32) outs(%g : tensor<8192x128xf32>) -> tensor<8192x128xf32>
    %mm2 = linalg.matmul ins(%t, %w2 : tensor<8192x128xbf16>, tensor<128x128xbf16>) outs(%gf : tensor<8192x128xf32>) -> tensor<8192x128xf32>
    %o0 = tensor.empty() : tensor<8192x128xbf16>
    %o = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%mm2 : tensor<8192x128xf32>) outs(%o0 : tensor<8192x128xbf16>) {
    ^bb0(%in: f32, %o1: bf16):
      %v = arith.truncf %in : f32 to bf16
      linalg.yield %v : bf16
    } -> tensor<8192x128xbf16>
    dsm.yield %o : tensor<8192x128xbf16>
  }
  return %r : tensor<8192x128xbf16>
}
func.func @streamed(%a: tensor<8960x64xbf16>, %b: tensor<64x256xbf16>, %d: tensor<256x64xbf16>) -> tensor<8960x64xbf16> {
  %r = dsm.fused_chain ffn (%a, %b, %d) {schedule = #dsm.schedule<cluster = [1, 1, 1, 1], block = [64, 128, 64, 64], grid = [140, 1, 1, 1], order = [m, n, k, l], spatial = [m], residency = [smem], collectives = [], stages = 4, cost_ns = 1000>}
      : (tensor<8960x64xbf16>, tensor<64x256xbf16>, tensor<256x64xbf16>) -> tensor<8960x64xbf16> {
  ^bb0(%x: tensor<8960x64xbf16>, %w: tensor<64x256xbf16>, %w2: tensor<256x64xbf16>):
    %cst = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<8960x256xf32>
    %f = linalg.fill ins(%cst : f32) outs(%e : tensor<8960x256xf32>) -> tensor<8960x256xf32>
    %mm = linalg.matmul ins(%x, %w : tensor<8960x64xbf16>, tensor<64x256xbf16>) outs(%f : tensor<8960x256xf32>) -> tensor<8960x256xf32>
    %e2 = tensor.empty() : tensor<8960x256xbf16>
    %t = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%mm : tensor<8960x256xf32>) outs(%e2 : tensor<8960x256xbf16>) {
    ^bb0(%in: f32, %o: bf16):
      %z = arith.constant 0.0 : f32
      %v = arith.maximumf %in, %z : f32
      %v2 = arith.truncf %v : f32 to bf16
      linalg.yield %v2 : bf16
    }  -> tensor<8960x256xbf16>
    %g = tensor.empty() : tensor<8960x64xf32>
    %gf = linalg.fill ins(%cst : f32) outs(%g : tensor<8960x64xf32>) -> tensor<8960x64xf32>
    %mm2 = linalg.matmul ins(%t, %w2 : tensor<8960x256xbf16>, tensor<256x64xbf16>) outs(%gf : tensor<8960x64xf32>) -> tensor<8960x64xf32>
    %o0 = tensor.empty() : tensor<8960x64xbf16>
    %o = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%mm2 : tensor<8960x64xf32>) outs(%o0 : tensor<8960x64xbf16>) {
    ^bb0(%in: f32, %o1: bf16):
      %v = arith.truncf %in : f32 to bf16
      linalg.yield %v : bf16
    } -> tensor<8960x64xbf16>
    dsm.yield %o : tensor<8960x64xbf16>
  }
  return %r : tensor<8960x64xbf16>
}
func.func @split_columns(%a: tensor<16384x64xbf16>, %b: tensor<64x1024xbf16>, %d: tensor<1024x256xbf16>) -> tensor<16384x256xbf16> {
  %r = dsm.fused_chain ffn (%a, %b, %d) {schedule = #dsm.schedule<cluster = [1, 1, 1, 1], block = [64, 128, 64, 256], grid = [256, 1, 1, 1], order = [m, n, k, l], spatial = [m], residency = [smem], collectives = [], stages = 2, cost_ns = 1000>}
      : (tensor<16384x64xbf16>, tensor<64x1024xbf16>, tensor<1024x256xbf16>) -> tensor<16384x256xbf16> {
  ^bb0(%x: tensor<16384x64xbf16>, %w: tensor<64x1024xbf16>, %w2: tensor<1024x256xbf16>):
    %cst = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<16384x1024xf32>
    %f = linalg.fill ins(%cst : f32) outs(%e : tensor<16384x1024xf32>) -> tensor<16384x1024xf32>
    %mm = linalg.matmul ins(%x, %w : tensor<16384x64xbf16>, tensor<64x1024xbf16>) outs(%f : tensor<16384x1024xf32>) -> tensor<16384x1024xf32>
    %e2 = tensor.empty() : tensor<16384x1024xbf16>
    %t = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%mm : tensor<16384x1024xf32>) outs(%e2 : tensor<16384x1024xbf16>) {
    ^bb0(%in: f32, %o: bf16):
      %z = arith.constant 0.0 : f32
      %v = arith.maximumf %in, %z : f32
      %v2 = arith.truncf %v : f32 to bf16
      linalg.yield %v2 : bf16
    }  -> tensor<16384x1024xbf16>
    %g = tensor.empty() : tensor<16384x256xf32>
    %gf = linalg.fill ins(%cst : f32) outs(%g : tensor<16384x256xf32>) -> tensor<16384x256xf32>
    %mm2 = linalg.matmul ins(%t, %w2 : tensor<16384x1024xbf16>, tensor<1024x256xbf16>) outs(%gf : tensor<16384x256xf32>) -> tensor<16384x256xf32>
    %o0 = tensor.empty() : tensor<16384x256xbf16>
    %o = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%mm2 : tensor<16384x256xf32>) outs(%o0 : tensor<16384x256xbf16>) {
    ^bb0(%in: f32, %o1: bf16):
      %v = arith.truncf %in : f32 to bf16
      linalg.yield %v : bf16
    } -> tensor<16384x256xbf16>
    dsm.yield %o : tensor<16384x256xbf16>
  }
  return %r : tensor<16384x256xbf16>
}
}
// -----
func.func @no_target(%a: tensor<32768x256xbf16>, %b: tensor<256x128xbf16>, %d: tensor<128x128xbf16>) -> tensor<32768x128xbf16> {
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

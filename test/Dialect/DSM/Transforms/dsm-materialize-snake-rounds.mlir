// RUN: ff-opt %s --dsm-materialize | FileCheck %s
// RUN: ff-opt %s --dsm-materialize=raster-group-m=0 | FileCheck %s --check-prefix=OFF
// RUN: ff-opt %s --dsm-materialize=snake-rounds=false | FileCheck %s --check-prefix=OFF

// Snake rounds (snake-rounds, on by default) in persistent gated GEMM
// kernels whose last m tile may be partial and whose raster runs m tiles
// fastest (groups of 16 m tiles). The loop runs one round (a tile per
// cluster slot) per iteration and carries its parity: round tiles
// [first, first + n), first = t - slot, n = min(tiles - first, slots); an
// odd round's slot takes first + n - 1 - slot instead of t, whose m and n
// tiles the raster then decodes. No division by the slot count. The parity
// flips only while one group holds every m tile (ceil(M / 128) <= 16).
// @partial (M = 200 on 128-row tiles) and @dyn's second bin (M = 65-2048)
// snake, in producer and consumers; @full (M = 256: full tiles), @dyn's
// first bin (M <= 64 on 64-row tiles: one m tile) and third (M > 2048:
// never one group) keep the plain loop, as does a plain GEMM
// (@gemm_partial), and every kernel with n fastest (raster-group-m=0) or
// snake-rounds=false.

// CHECK-LABEL: gpu.func @partial_0
// CHECK: %[[BID:.*]] = gpu.block_id x
// CHECK: %[[CTAS:.*]] = gpu.grid_dim x
// CHECK: %[[MT:.*]] = arith.ceildivui %{{.*}}, %c128{{.*}} : index
// CHECK: %[[TILES:.*]] = arith.muli %[[MT]], %c4{{.*}} : index
// CHECK: %[[ONE:.*]] = arith.cmpi ule, %[[MT]], %c16{{.*}} : index
// CHECK: %{{.*}}:2 = scf.for %[[T:.*]] = %[[BID]] to %[[TILES]] step %[[CTAS]] iter_args(%{{.*}} = %c0{{.*}}, %[[ODD:.*]] = %false) -> (index, i1)
// CHECK-NEXT: %[[FIRST:.*]] = arith.subi %[[T]], %[[BID]] : index
// CHECK-NEXT: %[[LEFT:.*]] = arith.subi %[[TILES]], %[[FIRST]] : index
// CHECK-NEXT: %[[N:.*]] = arith.minui %[[LEFT]], %[[CTAS]] : index
// CHECK-NEXT: %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT: %[[SLOT1:.*]] = arith.addi %[[BID]], %[[C1]] : index
// CHECK-NEXT: %[[END:.*]] = arith.addi %[[FIRST]], %[[N]] : index
// CHECK-NEXT: %[[MIRROR:.*]] = arith.subi %[[END]], %[[SLOT1]] : index
// CHECK-NEXT: %[[TILE:.*]] = arith.select %[[ODD]], %[[MIRROR]], %[[T]] : index
// CHECK: arith.divui %[[TILE]], %c64
// CHECK: %[[FLIP:.*]] = arith.xori %[[ODD]], %[[ONE]] : i1
// CHECK-NEXT: scf.yield %{{.*}}, %[[FLIP]] : index, i1
// CHECK: scf.for %{{.*}} iter_args(%{{.*}}, %{{.*}} = %false) -> (index, i1)
// CHECK-LABEL: gpu.func @full_1
// CHECK-NOT: -> (index, i1)
// CHECK-LABEL: gpu.func @dyn_2_m0
// CHECK-NOT: -> (index, i1)
// CHECK-LABEL: gpu.func @dyn_2_m1
// CHECK: scf.for %[[T5:.*]] = %[[BID5:.*]] to %{{.*}} iter_args(%{{.*}}, %{{.*}} = %false) -> (index, i1)
// CHECK-NEXT: arith.subi %[[T5]], %[[BID5]] : index
// CHECK: scf.for %{{.*}} iter_args(%{{.*}}, %{{.*}} = %false) -> (index, i1)
// CHECK-LABEL: gpu.func @dyn_2_m2
// CHECK-NOT: -> (index, i1)
// CHECK-LABEL: gpu.func @gemm_partial_3
// CHECK-NOT: -> (index, i1)
// CHECK: gpu.return

// OFF-LABEL: gpu.func @partial_0
// OFF: scf.for %{{.*}} iter_args(%{{.*}} = %c0{{.*}}) -> (index)
// OFF-LABEL: gpu.func @dyn_2_m1
// OFF: scf.for %{{.*}} iter_args(%{{.*}} = %c0{{.*}}) -> (index)
// OFF-NOT: -> (index, i1)

func.func @partial(%a: tensor<200x512xbf16>, %wg: tensor<512x256xbf16>, %wu: tensor<512x256xbf16>) -> tensor<200x256xbf16> {
  %r = dsm.fused_chain gated_gemm (%a, %wg, %wu) {schedule = #dsm.schedule<cluster = [1, 1, 1, 1], block = [128, 64, 64, 16], grid = [2, 4, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [], stages = 4, cost_ns = 1000>}
      : (tensor<200x512xbf16>, tensor<512x256xbf16>, tensor<512x256xbf16>) -> tensor<200x256xbf16> {
  ^bb0(%x: tensor<200x512xbf16>, %g: tensor<512x256xbf16>, %u: tensor<512x256xbf16>):
    %z = arith.constant 0.0 : f32
    %one = arith.constant 1.0 : f32
    %e0 = tensor.empty() : tensor<200x256xf32>
    %f0 = linalg.fill ins(%z : f32) outs(%e0 : tensor<200x256xf32>) -> tensor<200x256xf32>
    %cg = linalg.matmul ins(%x, %g : tensor<200x512xbf16>, tensor<512x256xbf16>) outs(%f0 : tensor<200x256xf32>) -> tensor<200x256xf32>
    %e1 = tensor.empty() : tensor<200x256xf32>
    %f1 = linalg.fill ins(%z : f32) outs(%e1 : tensor<200x256xf32>) -> tensor<200x256xf32>
    %cu = linalg.matmul ins(%x, %u : tensor<200x512xbf16>, tensor<512x256xbf16>) outs(%f1 : tensor<200x256xf32>) -> tensor<200x256xf32>
    %hb = tensor.empty() : tensor<200x256xbf16>
    %h = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%cg, %cu : tensor<200x256xf32>, tensor<200x256xf32>) outs(%hb : tensor<200x256xbf16>) {
    ^bb0(%gv: f32, %uv: f32, %out: bf16):
      %n = arith.negf %gv : f32
      %ex = math.exp %n : f32
      %den = arith.addf %ex, %one : f32
      %s = arith.divf %gv, %den : f32
      %p = arith.mulf %s, %uv : f32
      %t = arith.truncf %p : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<200x256xbf16>
    dsm.yield %h : tensor<200x256xbf16>
  }
  return %r : tensor<200x256xbf16>
}

func.func @full(%a: tensor<256x512xbf16>, %wg: tensor<512x256xbf16>, %wu: tensor<512x256xbf16>) -> tensor<256x256xbf16> {
  %r = dsm.fused_chain gated_gemm (%a, %wg, %wu) {schedule = #dsm.schedule<cluster = [1, 1, 1, 1], block = [128, 64, 64, 16], grid = [2, 4, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [], stages = 4, cost_ns = 1000>}
      : (tensor<256x512xbf16>, tensor<512x256xbf16>, tensor<512x256xbf16>) -> tensor<256x256xbf16> {
  ^bb0(%x: tensor<256x512xbf16>, %g: tensor<512x256xbf16>, %u: tensor<512x256xbf16>):
    %z = arith.constant 0.0 : f32
    %one = arith.constant 1.0 : f32
    %e0 = tensor.empty() : tensor<256x256xf32>
    %f0 = linalg.fill ins(%z : f32) outs(%e0 : tensor<256x256xf32>) -> tensor<256x256xf32>
    %cg = linalg.matmul ins(%x, %g : tensor<256x512xbf16>, tensor<512x256xbf16>) outs(%f0 : tensor<256x256xf32>) -> tensor<256x256xf32>
    %e1 = tensor.empty() : tensor<256x256xf32>
    %f1 = linalg.fill ins(%z : f32) outs(%e1 : tensor<256x256xf32>) -> tensor<256x256xf32>
    %cu = linalg.matmul ins(%x, %u : tensor<256x512xbf16>, tensor<512x256xbf16>) outs(%f1 : tensor<256x256xf32>) -> tensor<256x256xf32>
    %hb = tensor.empty() : tensor<256x256xbf16>
    %h = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%cg, %cu : tensor<256x256xf32>, tensor<256x256xf32>) outs(%hb : tensor<256x256xbf16>) {
    ^bb0(%gv: f32, %uv: f32, %out: bf16):
      %n = arith.negf %gv : f32
      %ex = math.exp %n : f32
      %den = arith.addf %ex, %one : f32
      %s = arith.divf %gv, %den : f32
      %p = arith.mulf %s, %uv : f32
      %t = arith.truncf %p : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<256x256xbf16>
    dsm.yield %h : tensor<256x256xbf16>
  }
  return %r : tensor<256x256xbf16>
}

func.func @dyn(%a: tensor<?x512xbf16>, %wg: tensor<512x256xbf16>, %wu: tensor<512x256xbf16>) -> tensor<?x256xbf16> {
  %r = dsm.fused_chain gated_gemm (%a, %wg, %wu) {schedule = #dsm.schedule_table<[#dsm.schedule<cluster = [1, 1, 1, 1], block = [64, 64, 64, 16], grid = [1, 4, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [], stages = 4, cost_ns = 1000, m_lo = 1, m_hi = 64>, #dsm.schedule<cluster = [1, 1, 1, 1], block = [128, 64, 64, 16], grid = [1, 4, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [], stages = 4, cost_ns = 2000, m_lo = 65, m_hi = 2048>, #dsm.schedule<cluster = [1, 1, 1, 1], block = [128, 64, 64, 16], grid = [1, 4, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [], stages = 4, cost_ns = 3000, m_lo = 2049, m_hi = 1048576>]>}
      : (tensor<?x512xbf16>, tensor<512x256xbf16>, tensor<512x256xbf16>) -> tensor<?x256xbf16> {
  ^bb0(%x: tensor<?x512xbf16>, %g: tensor<512x256xbf16>, %u: tensor<512x256xbf16>):
    %z = arith.constant 0.0 : f32
    %one = arith.constant 1.0 : f32
    %c0 = arith.constant 0 : index
    %d0 = tensor.dim %x, %c0 : tensor<?x512xbf16>
    %e0 = tensor.empty(%d0) : tensor<?x256xf32>
    %f0 = linalg.fill ins(%z : f32) outs(%e0 : tensor<?x256xf32>) -> tensor<?x256xf32>
    %cg = linalg.matmul ins(%x, %g : tensor<?x512xbf16>, tensor<512x256xbf16>) outs(%f0 : tensor<?x256xf32>) -> tensor<?x256xf32>
    %e1 = tensor.empty(%d0) : tensor<?x256xf32>
    %f1 = linalg.fill ins(%z : f32) outs(%e1 : tensor<?x256xf32>) -> tensor<?x256xf32>
    %cu = linalg.matmul ins(%x, %u : tensor<?x512xbf16>, tensor<512x256xbf16>) outs(%f1 : tensor<?x256xf32>) -> tensor<?x256xf32>
    %hb = tensor.empty(%d0) : tensor<?x256xbf16>
    %h = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%cg, %cu : tensor<?x256xf32>, tensor<?x256xf32>) outs(%hb : tensor<?x256xbf16>) {
    ^bb0(%gv: f32, %uv: f32, %out: bf16):
      %n = arith.negf %gv : f32
      %ex = math.exp %n : f32
      %den = arith.addf %ex, %one : f32
      %s = arith.divf %gv, %den : f32
      %p = arith.mulf %s, %uv : f32
      %t = arith.truncf %p : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<?x256xbf16>
    dsm.yield %h : tensor<?x256xbf16>
  }
  return %r : tensor<?x256xbf16>
}

func.func @gemm_partial(%a: tensor<200x512xbf16>, %b: tensor<512x1024xbf16>) -> tensor<200x1024xbf16> {
  %r = dsm.fused_chain gemm (%a, %b) {schedule = #dsm.schedule<cluster = [1, 1, 1, 1], block = [128, 256, 64, 16], grid = [2, 4, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [], stages = 3, cost_ns = 1000>}
      : (tensor<200x512xbf16>, tensor<512x1024xbf16>) -> tensor<200x1024xbf16> {
  ^bb0(%x: tensor<200x512xbf16>, %w: tensor<512x1024xbf16>):
    %cst = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<200x1024xf32>
    %f = linalg.fill ins(%cst : f32) outs(%e : tensor<200x1024xf32>) -> tensor<200x1024xf32>
    %mm = linalg.matmul ins(%x, %w : tensor<200x512xbf16>, tensor<512x1024xbf16>) outs(%f : tensor<200x1024xf32>) -> tensor<200x1024xf32>
    %e2 = tensor.empty() : tensor<200x1024xbf16>
    %t = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%mm : tensor<200x1024xf32>) outs(%e2 : tensor<200x1024xbf16>) {
    ^bb0(%in: f32, %o: bf16):
      %v = arith.truncf %in : f32 to bf16
      linalg.yield %v : bf16
    }  -> tensor<200x1024xbf16>
    dsm.yield %t : tensor<200x1024xbf16>
  }
  return %r : tensor<200x1024xbf16>
}


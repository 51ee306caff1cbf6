// RUN: ff-opt %s --dsm-materialize | FileCheck %s

// A GEMM kernel of 128-row tiles that serves at most 64 rows (M = 48) has
// a second consumer warpgroup whose rows all lie past M; it skips its
// wgmmas after the first k step: a branch on the warpgroup's first row
// lying below M encloses two whole k loops, one with wgmmas and one that
// only waits for and releases each stage, each ending in wait_group 0 (a
// branch around each step's wgmmas made ptxas serialise every wgmma of
// the kernel). The inactive path first retires the first step's group.
// Kernels serving more rows (@gemm_300: only its last m tile has an idle
// warpgroup, measured mixed) and split-K kernels (@gemm_48_split_k) keep
// one loop.

// CHECK-LABEL: gpu.func @gemm_48_0
// CHECK: scf.if %{{.*}} -> (!llvm.struct<(f32,
// CHECK: scf.for
// CHECK: nvvm.wgmma.mma_async
// CHECK: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK: scf.yield
// CHECK: } else {
// CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK: scf.for
// CHECK-NOT: nvvm.wgmma.mma_async
// CHECK: nvgpu.mbarrier.try_wait.parity
// CHECK-NOT: nvvm.wgmma.mma_async
// CHECK: nvgpu.mbarrier.arrive
// CHECK-NOT: nvvm.wgmma.mma_async
// CHECK: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK-NEXT: scf.yield
// CHECK-LABEL: gpu.func @gemm_300_1
// CHECK-NOT: scf.if %{{.*}} -> (!llvm.struct<(f32,
// CHECK-LABEL: gpu.func @gemm_48_split_k_2
// CHECK-NOT: scf.if %{{.*}} -> (!llvm.struct<(f32,
// CHECK: gpu.return

func.func @gemm_48(%a: tensor<48x512xbf16>, %b: tensor<512x1024xbf16>) -> tensor<48x1024xbf16> {
  %r = dsm.fused_chain gemm (%a, %b) {schedule = #dsm.schedule<cluster = [1, 1, 1, 1], block = [128, 256, 64, 16], grid = [1, 4, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [], stages = 3, cost_ns = 1000>}
      : (tensor<48x512xbf16>, tensor<512x1024xbf16>) -> tensor<48x1024xbf16> {
  ^bb0(%x: tensor<48x512xbf16>, %w: tensor<512x1024xbf16>):
    %cst = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<48x1024xf32>
    %f = linalg.fill ins(%cst : f32) outs(%e : tensor<48x1024xf32>) -> tensor<48x1024xf32>
    %mm = linalg.matmul ins(%x, %w : tensor<48x512xbf16>, tensor<512x1024xbf16>) outs(%f : tensor<48x1024xf32>) -> tensor<48x1024xf32>
    %e2 = tensor.empty() : tensor<48x1024xbf16>
    %t = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%mm : tensor<48x1024xf32>) outs(%e2 : tensor<48x1024xbf16>) {
    ^bb0(%in: f32, %o: bf16):
      %v = arith.truncf %in : f32 to bf16
      linalg.yield %v : bf16
    }  -> tensor<48x1024xbf16>
    dsm.yield %t : tensor<48x1024xbf16>
  }
  return %r : tensor<48x1024xbf16>
}

func.func @gemm_300(%a: tensor<300x512xbf16>, %b: tensor<512x1024xbf16>) -> tensor<300x1024xbf16> {
  %r = dsm.fused_chain gemm (%a, %b) {schedule = #dsm.schedule<cluster = [1, 1, 1, 1], block = [128, 256, 64, 16], grid = [3, 4, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [], stages = 3, cost_ns = 1000>}
      : (tensor<300x512xbf16>, tensor<512x1024xbf16>) -> tensor<300x1024xbf16> {
  ^bb0(%x: tensor<300x512xbf16>, %w: tensor<512x1024xbf16>):
    %cst = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<300x1024xf32>
    %f = linalg.fill ins(%cst : f32) outs(%e : tensor<300x1024xf32>) -> tensor<300x1024xf32>
    %mm = linalg.matmul ins(%x, %w : tensor<300x512xbf16>, tensor<512x1024xbf16>) outs(%f : tensor<300x1024xf32>) -> tensor<300x1024xf32>
    %e2 = tensor.empty() : tensor<300x1024xbf16>
    %t = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%mm : tensor<300x1024xf32>) outs(%e2 : tensor<300x1024xbf16>) {
    ^bb0(%in: f32, %o: bf16):
      %v = arith.truncf %in : f32 to bf16
      linalg.yield %v : bf16
    }  -> tensor<300x1024xbf16>
    dsm.yield %t : tensor<300x1024xbf16>
  }
  return %r : tensor<300x1024xbf16>
}

func.func @gemm_48_split_k(%a: tensor<48x512xbf16>, %b: tensor<512x1024xbf16>) -> tensor<48x1024xbf16> {
  %r = dsm.fused_chain gemm (%a, %b) {schedule = #dsm.schedule<cluster = [1, 1, 2, 1], block = [128, 256, 256, 16], grid = [1, 4, 1, 1], order = [m, n, k, l], spatial = [m, n, k], residency = [], collectives = [all_exchange], stages = 3, cost_ns = 1000>}
      : (tensor<48x512xbf16>, tensor<512x1024xbf16>) -> tensor<48x1024xbf16> {
  ^bb0(%x: tensor<48x512xbf16>, %w: tensor<512x1024xbf16>):
    %cst = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<48x1024xf32>
    %f = linalg.fill ins(%cst : f32) outs(%e : tensor<48x1024xf32>) -> tensor<48x1024xf32>
    %mm = linalg.matmul ins(%x, %w : tensor<48x512xbf16>, tensor<512x1024xbf16>) outs(%f : tensor<48x1024xf32>) -> tensor<48x1024xf32>
    %e2 = tensor.empty() : tensor<48x1024xbf16>
    %t = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%mm : tensor<48x1024xf32>) outs(%e2 : tensor<48x1024xbf16>) {
    ^bb0(%in: f32, %o: bf16):
      %v = arith.truncf %in : f32 to bf16
      linalg.yield %v : bf16
    }  -> tensor<48x1024xbf16>
    dsm.yield %t : tensor<48x1024xbf16>
  }
  return %r : tensor<48x1024xbf16>
}

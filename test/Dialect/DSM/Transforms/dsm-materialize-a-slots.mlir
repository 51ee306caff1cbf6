// RUN: ff-opt %s --dsm-materialize | FileCheck %s
// RUN: ff-opt %s --dsm-materialize=zero-stale-a=false | FileCheck %s --check-prefix=NOZERO
// RUN: not ff-opt %s --dsm-materialize=fit-a-box=false 2>&1 | FileCheck %s --check-prefix=FULL

// A single GEMM's (or gated pair's) A box fitted to an M below one m tile
// (fit-a-box) sizes A's ring slots to it, M rounded up to 8 rows
// (KernelPlan::aSlotRows): @small (M = 16, 128 x 64 tiles, 4 stages) needs
// 4 x (2048 + 8192) bytes, 4 x (16384 + 8192) with whole slots. The
// consumers' wgmmas still read 128 rows, the rows past the slot from the
// next slots. @gated6 (M = 16, 128 x 128 gate and up tiles) fits 6 stages
// only so: 6 x (2048 + 32768) = 208896 bytes. @dyn's first bin (M <= 64 on
// 128 x 64 tiles) takes 64-row slots, its second whole ones. Such kernels
// zero A's ring before the first load (zero-stale-a): the rows no load
// writes hold zeros. So do kernels that load a partial last m tile through
// a tail map (@dyn's second bin: 4 whole 16 KiB slots).
// CHECK-LABEL: dsm.bundles
// CHECK-SAME: dynamic_smem = 40960{{.*}}name = "small_0"
// CHECK-SAME: dynamic_smem = 208896{{.*}}name = "gated6_1"
// CHECK-SAME: dynamic_smem = 65536{{.*}}name = "dyn_2_m0"
// CHECK-SAME: dynamic_smem = 98304{{.*}}name = "dyn_2_m1"
// CHECK-LABEL: gpu.func @small_0(
// CHECK: %[[Z:.*]] = arith.constant dense<0> : vector<4xi32>
// CHECK: scf.for %[[OFF:.*]] = %{{.*}} to %c8192{{.*}} step %c6144
// CHECK: llvm.store %[[Z]], %{{.*}} {alignment = 16 : i64} : vector<4xi32>, !llvm.ptr<3>
// CHECK: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK: gpu.barrier
// CHECK-LABEL: gpu.func @gated6_1(
// CHECK: scf.for %{{.*}} = %{{.*}} to %c12288{{.*}} step %c6144
// CHECK-LABEL: gpu.func @dyn_2_m0(
// CHECK: scf.for %{{.*}} = %{{.*}} to %c32768{{.*}} step %c6144
// CHECK-LABEL: gpu.func @dyn_2_m1(
// CHECK: scf.for %{{.*}} = %{{.*}} to %c65536{{.*}} step %c6144

// NOZERO: dynamic_smem = 40960
// NOZERO-NOT: dense<0> : vector<4xi32>

// FULL: error: 'dsm.fused_chain' op schedule cannot be lowered: needs 294912 bytes of shared memory

#mk = affine_map<(d0, d1, d2) -> (d0, d2)>
#nk = affine_map<(d0, d1, d2) -> (d1, d2)>
#mn = affine_map<(d0, d1, d2) -> (d0, d1)>
#id = affine_map<(i, j) -> (i, j)>
module {
  func.func @small(%a: tensor<16x320xbf16>, %b: tensor<1024x320xbf16>) -> tensor<16x1024xf32> {
    %r = dsm.fused_chain gemm (%a, %b) {schedule = #dsm.schedule<cluster = [1, 1, 1, 1], block = [128, 64, 64, 16], grid = [1, 16, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [], stages = 4, cost_ns = 1000>}
        : (tensor<16x320xbf16>, tensor<1024x320xbf16>) -> tensor<16x1024xf32> {
    ^bb0(%x: tensor<16x320xbf16>, %w: tensor<1024x320xbf16>):
      %cst = arith.constant 0.0 : f32
      %e = tensor.empty() : tensor<16x1024xf32>
      %f = linalg.fill ins(%cst : f32) outs(%e : tensor<16x1024xf32>) -> tensor<16x1024xf32>
      %mm = linalg.matmul indexing_maps = [#mk, #nk, #mn] ins(%x, %w : tensor<16x320xbf16>, tensor<1024x320xbf16>) outs(%f : tensor<16x1024xf32>) -> tensor<16x1024xf32>
      dsm.yield %mm : tensor<16x1024xf32>
    }
    return %r : tensor<16x1024xf32>
  }

  func.func @gated6(%a: tensor<16x320xbf16>, %wg: tensor<1024x320xbf16>, %wu: tensor<1024x320xbf16>) -> tensor<16x1024xbf16> {
    %r = dsm.fused_chain gated_gemm (%a, %wg, %wu) {schedule = #dsm.schedule<cluster = [1, 1, 1, 1], block = [128, 128, 64, 16], grid = [1, 8, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [], stages = 6, cost_ns = 1000>}
        : (tensor<16x320xbf16>, tensor<1024x320xbf16>, tensor<1024x320xbf16>) -> tensor<16x1024xbf16> {
    ^bb0(%x: tensor<16x320xbf16>, %g: tensor<1024x320xbf16>, %u: tensor<1024x320xbf16>):
      %z = arith.constant 0.0 : f32
      %one = arith.constant 1.0 : f32
      %e0 = tensor.empty() : tensor<16x1024xf32>
      %f0 = linalg.fill ins(%z : f32) outs(%e0 : tensor<16x1024xf32>) -> tensor<16x1024xf32>
      %cg = linalg.matmul indexing_maps = [#mk, #nk, #mn] ins(%x, %g : tensor<16x320xbf16>, tensor<1024x320xbf16>) outs(%f0 : tensor<16x1024xf32>) -> tensor<16x1024xf32>
      %cu = linalg.matmul indexing_maps = [#mk, #nk, #mn] ins(%x, %u : tensor<16x320xbf16>, tensor<1024x320xbf16>) outs(%f0 : tensor<16x1024xf32>) -> tensor<16x1024xf32>
      %hb = tensor.empty() : tensor<16x1024xbf16>
      %h = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%cg, %cu : tensor<16x1024xf32>, tensor<16x1024xf32>) outs(%hb : tensor<16x1024xbf16>) {
      ^bb0(%gv: f32, %uv: f32, %out: bf16):
        %n = arith.negf %gv : f32
        %ex = math.exp %n : f32
        %den = arith.addf %ex, %one : f32
        %s = arith.divf %gv, %den : f32
        %p = arith.mulf %s, %uv : f32
        %t = arith.truncf %p : f32 to bf16
        linalg.yield %t : bf16
      } -> tensor<16x1024xbf16>
      dsm.yield %h : tensor<16x1024xbf16>
    }
    return %r : tensor<16x1024xbf16>
  }

  func.func @dyn(%a: tensor<?x320xbf16>, %b: tensor<1024x320xbf16>) -> tensor<?x1024xf32> {
    %r = dsm.fused_chain gemm (%a, %b) {schedule = #dsm.schedule_table<[#dsm.schedule<cluster = [1, 1, 1, 1], block = [128, 64, 64, 16], grid = [1, 16, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [], stages = 4, cost_ns = 1000, m_lo = 1, m_hi = 64>, #dsm.schedule<cluster = [1, 1, 1, 1], block = [128, 64, 64, 16], grid = [1, 16, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [], stages = 4, cost_ns = 2000, m_lo = 65, m_hi = 1048576>]>}
        : (tensor<?x320xbf16>, tensor<1024x320xbf16>) -> tensor<?x1024xf32> {
    ^bb0(%x: tensor<?x320xbf16>, %w: tensor<1024x320xbf16>):
      %cst = arith.constant 0.0 : f32
      %c0 = arith.constant 0 : index
      %d0 = tensor.dim %x, %c0 : tensor<?x320xbf16>
      %e = tensor.empty(%d0) : tensor<?x1024xf32>
      %f = linalg.fill ins(%cst : f32) outs(%e : tensor<?x1024xf32>) -> tensor<?x1024xf32>
      %mm = linalg.matmul indexing_maps = [#mk, #nk, #mn] ins(%x, %w : tensor<?x320xbf16>, tensor<1024x320xbf16>) outs(%f : tensor<?x1024xf32>) -> tensor<?x1024xf32>
      dsm.yield %mm : tensor<?x1024xf32>
    }
    return %r : tensor<?x1024xf32>
  }
}

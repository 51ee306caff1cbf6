// RUN: ff-opt %s --dsm-materialize | FileCheck %s
// RUN: ff-opt %s --dsm-materialize=late-d-stages=false | FileCheck %s --check-prefix=TWO

// A gated shuffle plan with a 4-stage main-loop ring: the ring (4 x (16 +
// 32) KiB) ends where the D ring starts (192 KiB), so only two D stages fit
// beside it. Two more lie over the main-loop ring past the act(C) slice and
// the gathered slices (3 x 32 KiB): slots 2 and 3 at 96 KiB, which the
// producer fills only after the exchange's cluster barrier, when every
// consumer of the cluster has retired its main loop.
// CHECK-LABEL: gpu.func @gated_late_0
// Producer: the first two D loads, then the cluster wait, then the rest.
// CHECK: dsm.cluster_arrive
// CHECK: scf.for %[[IT:.*]] = %{{.*}} to %{{.*}} step
// CHECK: arith.cmpi eq, %[[IT]], %c2
// CHECK-NEXT: scf.if
// CHECK-NEXT: dsm.cluster_wait
// CHECK: nvgpu.mbarrier.try_wait.parity {{.*}} num_barriers = 4>
// CHECK: %[[OWN:.*]] = arith.addi %{{.*}}, %c196608 : index
// CHECK: %[[LATE:.*]] = arith.addi %{{.*}}, %c98304 : index
// CHECK: %[[ISOWN:.*]] = arith.cmpi ult, %{{.*}}, %c2
// CHECK-NEXT: arith.select %[[ISOWN]], %[[OWN]], %[[LATE]] : index
// CHECK: nvgpu.tma.async.load
// Consumers read the slots at the same offsets.
// CHECK: } else {
// CHECK: arith.addi %{{.*}}, %c196608
// CHECK: arith.addi %{{.*}}, %c98304
// CHECK: arith.select
// CHECK: nvvm.wgmma.mma_async

// TWO-LABEL: gpu.func @gated_late_0
// TWO: scf.for %[[IT:.*]] = %{{.*}} to %{{.*}} step
// TWO: arith.cmpi eq, %[[IT]], %c2
// TWO: nvgpu.mbarrier.try_wait.parity {{.*}} num_barriers = 2>
// TWO-NOT: %c98304
// TWO-NOT: arith.select {{.*}} : index
// TWO: gpu.return
#mk = affine_map<(m, n, k) -> (m, k)>
#nk = affine_map<(m, n, k) -> (n, k)>
#mn = affine_map<(m, n, k) -> (m, n)>
#id = affine_map<(i, j) -> (i, j)>
func.func @gated_late(%a0: tensor<128x128xbf16>, %a1: tensor<256x128xbf16>, %a2: tensor<256x128xbf16>, %a3: tensor<256x256xbf16>) -> tensor<128x256xbf16> {
  %r = dsm.fused_chain gated_ffn (%a0, %a1, %a2, %a3) {schedule = #dsm.schedule<cluster = [1, 2, 1, 2], block = [128, 128, 64, 128], grid = [1, 1, 1, 1], order = [m, n, l, k], spatial = [m, n, l], residency = [dsm], collectives = [shuffle], stages = 4, cost_ns = 1000>}
      : (tensor<128x128xbf16>, tensor<256x128xbf16>, tensor<256x128xbf16>, tensor<256x256xbf16>) -> tensor<128x256xbf16> {
  ^bb0(%x: tensor<128x128xbf16>, %wg: tensor<256x128xbf16>, %wu: tensor<256x128xbf16>, %wd: tensor<256x256xbf16>):
    %zero = arith.constant 0.0 : f32
    %one = arith.constant 1.0 : f32
    %z_e = tensor.empty() : tensor<128x256xf32>
    %z = linalg.fill ins(%zero : f32) outs(%z_e : tensor<128x256xf32>) -> tensor<128x256xf32>
    %g = linalg.matmul indexing_maps = [#mk, #nk, #mn] ins(%x, %wg : tensor<128x128xbf16>, tensor<256x128xbf16>) outs(%z : tensor<128x256xf32>) -> tensor<128x256xf32>
    %u = linalg.matmul indexing_maps = [#mk, #nk, #mn] ins(%x, %wu : tensor<128x128xbf16>, tensor<256x128xbf16>) outs(%z : tensor<128x256xf32>) -> tensor<128x256xf32>
    %s_e = tensor.empty() : tensor<128x256xf32>
    %s = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%g : tensor<128x256xf32>) outs(%s_e : tensor<128x256xf32>) {
    ^bb0(%a: f32, %o: f32):
      %n0 = arith.negf %a : f32
      %n1 = math.exp %n0 : f32
      %n2 = arith.addf %n1, %one : f32
      %n3 = arith.divf %one, %n2 : f32
      %n4 = arith.mulf %a, %n3 : f32
      linalg.yield %n4 : f32
    } -> tensor<128x256xf32>
    %p_e = tensor.empty() : tensor<128x256xbf16>
    %p = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%s, %u : tensor<128x256xf32>, tensor<128x256xf32>) outs(%p_e : tensor<128x256xbf16>) {
    ^bb0(%a: f32, %b: f32, %o: bf16):
      %m = arith.mulf %a, %b : f32
      %t = arith.truncf %m : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<128x256xbf16>
    %e_e = tensor.empty() : tensor<128x256xf32>
    %e_f = linalg.fill ins(%zero : f32) outs(%e_e : tensor<128x256xf32>) -> tensor<128x256xf32>
    %e = linalg.matmul indexing_maps = [#mk, #nk, #mn] ins(%p, %wd : tensor<128x256xbf16>, tensor<256x256xbf16>) outs(%e_f : tensor<128x256xf32>) -> tensor<128x256xf32>
    %y_e = tensor.empty() : tensor<128x256xbf16>
    %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%e : tensor<128x256xf32>) outs(%y_e : tensor<128x256xbf16>) {
    ^bb0(%a: f32, %o: bf16):
      %t = arith.truncf %a : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<128x256xbf16>
    dsm.yield %y : tensor<128x256xbf16>
  }
  return %r : tensor<128x256xbf16>
}

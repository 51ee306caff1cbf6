// RUN: ff-opt %s --convert-dsm-to-nvgpu --split-input-file --verify-diagnostics | FileCheck %s

// CHECK-LABEL: gpu.func @identity_and_sync
gpu.module @k {
  gpu.func @identity_and_sync() kernel {
    // CHECK: %[[R:.*]] = nvvm.read.ptx.sreg.cluster.ctarank : i32
    // CHECK: arith.index_castui %[[R]] : i32 to index
    %r = dsm.cluster_rank : index
    // CHECK: nvvm.read.ptx.sreg.cluster.nctaid.x : i32
    // CHECK: nvvm.read.ptx.sreg.cluster.nctaid.y : i32
    // CHECK: nvvm.read.ptx.sreg.cluster.nctaid.z : i32
    %x, %y, %z = dsm.cluster_shape : index, index, index
    // Whole warps execute the barrier: reconverge, then the .aligned form.
    // CHECK: %[[ALL:.*]] = arith.constant -1 : i32
    // CHECK-NEXT: nvvm.bar.warp.sync %[[ALL]] : i32
    // CHECK-NEXT: nvvm.cluster.arrive.relaxed {aligned}
    dsm.cluster_arrive relaxed
    // CHECK: nvvm.bar.warp.sync
    // CHECK-NEXT: nvvm.cluster.wait {aligned}
    dsm.cluster_wait
    // CHECK: nvvm.bar.warp.sync
    // CHECK-NEXT: nvvm.cluster.arrive {aligned}
    dsm.cluster_arrive
    // CHECK-NOT: dsm.
    gpu.return
  }
}

// -----

// A dsm op its pattern cannot lower must fail loudly, not survive into NVVM.
gpu.module @k {
  gpu.func @unsupported(%g: memref<128x4096xf16>) kernel {
    %b = dsm.alloc : !dsm.buffer<128x64xf16, split = [1, 1]>
    %c0 = arith.constant 0 : index
    // expected-error @below {{only fp32 tiles are reduced across clusters}}
    // expected-error @below {{failed to legalize operation 'dsm.inter_cluster_reduce'}}
    dsm.inter_cluster_reduce add %b into %g[%c0, %c0] : !dsm.buffer<128x64xf16, split = [1, 1]>, memref<128x4096xf16>
    gpu.return
  }
}

// -----

gpu.module @k {
  gpu.func @strided(%g: memref<128x64xf32, strided<[128, 2]>>) kernel {
    %b = dsm.alloc : !dsm.buffer<128x64xf32, split = [1, 1]>
    %c0 = arith.constant 0 : index
    // expected-error @below {{the destination's innermost stride must be 1}}
    // expected-error @below {{failed to legalize operation 'dsm.inter_cluster_reduce'}}
    dsm.inter_cluster_reduce add %b into %g[%c0, %c0] : !dsm.buffer<128x64xf32, split = [1, 1]>, memref<128x64xf32, strided<[128, 2]>>
    gpu.return
  }
}

// -----

// Buffers live in kernels: shared memory has no meaning on the host.
func.func @host_alloc() {
  // expected-error @below {{a cluster buffer must be allocated in a gpu.func}}
  // expected-error @below {{failed to legalize operation 'dsm.alloc'}}
  %b = dsm.alloc : !dsm.buffer<128x64xf32, split = [1, 1]>
  return
}

// -----

// Transaction barriers: static shared mbarriers, CTA-collective creation.
// CHECK: gpu.module @bars
// CHECK-DAG: llvm.mlir.global internal @[[B0:__dsm_barrier[_0-9]*]]() {addr_space = 3 : i32, alignment = 8 : i64} : i64
// CHECK-DAG: llvm.mlir.global internal @[[B1:__dsm_barrier[_0-9]*]]() {addr_space = 3 : i32, alignment = 8 : i64} : i64
// CHECK-LABEL: gpu.func @barriers
// CHECK: %[[B:.*]] = llvm.mlir.addressof @{{__dsm_barrier[_0-9]*}} : !llvm.ptr<3>
// CHECK: %[[ONE:.*]] = arith.constant 1 : i32
// CHECK: nvvm.mbarrier.init %[[B]], %[[ONE]], predicate = %{{.*}} : !llvm.ptr<3>, i32, i1
// CHECK: nvvm.fence.mbarrier.init
// CHECK: nvvm.barrier0
// CHECK: %[[C:.*]] = llvm.mlir.addressof @{{__dsm_barrier[_0-9]*}} : !llvm.ptr<3>
// CHECK: nvvm.mbarrier.init %[[C]], %{{.*}}, predicate
// CHECK: %[[BYTES:.*]] = arith.index_castui %{{.*}} : index to i32
// CHECK: nvvm.mbarrier.arrive.expect_tx %[[B]], %[[BYTES]] : !llvm.ptr<3>, i32
// CHECK: %[[PEER:.*]] = arith.index_castui %{{.*}} : index to i32
// CHECK: %[[R:.*]] = nvvm.mapa %[[C]], %[[PEER]] : !llvm.ptr<3> -> !llvm.ptr<7>
// CHECK: nvvm.mbarrier.arrive %[[R]] : !llvm.ptr<7>
// CHECK: %[[PH:.*]] = arith.extui %{{.*}} : i1 to i32
// CHECK: nvvm.mbarrier.try_wait.parity %[[B]], %[[PH]], %{{.*}} : !llvm.ptr<3>, i32, i32
gpu.module @bars {
  gpu.func @barriers(%bytes: index, %peer: index, %ph: i1) kernel {
    %b = dsm.barrier_create count = 1 : !dsm.barrier
    %c = dsm.barrier_create count = 4 : !dsm.barrier
    dsm.expect_tx %b, %bytes : !dsm.barrier
    dsm.signal %c[%peer] : !dsm.barrier
    dsm.wait %b, %ph : !dsm.barrier
    gpu.return
  }
}

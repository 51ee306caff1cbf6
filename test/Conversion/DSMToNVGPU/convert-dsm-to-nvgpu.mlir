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
    // CHECK: nvvm.cluster.arrive.relaxed
    // CHECK-NOT: aligned
    dsm.cluster_arrive relaxed
    // CHECK: nvvm.cluster.wait
    dsm.cluster_wait
    // CHECK: nvvm.cluster.arrive{{$}}
    dsm.cluster_arrive
    // CHECK-NOT: dsm.
    gpu.return
  }
}

// -----

// A dsm op without a lowering must fail loudly, not survive into NVVM.
gpu.module @k {
  gpu.func @unsupported() kernel {
    // expected-error @below {{failed to legalize operation 'dsm.alloc'}}
    %b = dsm.alloc : !dsm.buffer<128x64xbf16, split = [1, 1]>
    gpu.return
  }
}

// RUN: ff-opt %s --dsm-finalize-kernels --split-input-file --verify-diagnostics | FileCheck %s

module attributes {gpu.container_module} {
  gpu.module @k {
    // The dynamic shared memory must follow, not overlap, static smem.
    // CHECK: llvm.mlir.global external @__dynamic_shmem__0() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>
    llvm.mlir.global internal @__dynamic_shmem__0() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
    // Other shared globals are left alone.
    // CHECK: llvm.mlir.global internal @__mbarrier() {addr_space = 3 : i32, alignment = 8 : i64}
    llvm.mlir.global internal @__mbarrier() {addr_space = 3 : i32, alignment = 8 : i64} : !llvm.array<4 x i64>
    // CHECK-LABEL: llvm.func @kern
    // CHECK-SAME: %arg0: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<16 x i64>, nvvm.grid_constant}
    // CHECK-SAME: %arg1: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<16 x i64>, nvvm.grid_constant}
    // CHECK-SAME: %arg2: !llvm.ptr, %arg3: i64)
    // CHECK-NOT: dsm.tensormap_args
    llvm.func @kern(%a: !llvm.ptr {llvm.align = 64 : i64}, %b: !llvm.ptr {llvm.align = 64 : i64}, %out: !llvm.ptr, %m: i64)
        attributes {dsm.tensormap_args = array<i32: 0, 1>, gpu.kernel, nvvm.kernel} {
      llvm.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @k {
    // expected-error @below {{dsm.tensormap_args names argument 1, which is not a pointer argument}}
    llvm.func @kern(%a: !llvm.ptr, %m: i64) attributes {dsm.tensormap_args = array<i32: 0, 1>, gpu.kernel, nvvm.kernel} {
      llvm.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @k {
    // expected-error @below {{run --dsm-finalize-kernels after convert-gpu-to-nvvm}}
    gpu.func @kern() kernel {
      gpu.return
    }
  }
}

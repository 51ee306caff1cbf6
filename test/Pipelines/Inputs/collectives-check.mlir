// A 4-CTA cluster kernel (256 threads) whose every collective result can be
// checked on the host (scripts/gpu/collectives_check.cpp). Each rank r fills
// its sources with values exact in their types,
//   P[i] = (r + 1) + i / 1024   (64x32 f32),
//   S[i] = (r + 1) + (i mod 8) / 8   (16x64 bf16),
// runs reduce_scatter (add), all_reduce (max), a pull shuffle, a push
// shuffle (st.async onto the peers' mbarrier), multiply, and two pushed
// reduce_scatters of T = P's first 512 elements viewed as 4 slices of 16x8
// (in place, then into V, on one barrier's phases 0 and 1), and writes
// every destination element to out[r, ...] as f32:
//   [0, 512) Q, [512, 2560) M, [2560, 4608) G, [4608, 8704) GP,
//   [8704, 9728) H, [9728, 9856) T's slice r, [9856, 9984) V.
module attributes {gpu.container_module} {
  gpu.module @collectives_check_module {
    gpu.func @collectives_check(%out: memref<4x9984xf32>) kernel attributes {known_block_size = array<i32: 256, 1, 1>, known_cluster_size = array<i32: 4, 1, 1>} {
      %p = dsm.alloc at 0 : !dsm.buffer<64x32xf32, split = [1, 1]>
      %q = dsm.alloc at 8192 : !dsm.buffer<64x8xf32, split = [1, 1]>
      %m = dsm.alloc at 10240 : !dsm.buffer<64x32xf32, split = [1, 1]>
      %s = dsm.alloc : !dsm.buffer<16x64xbf16, split = [1, 1]>
      %g = dsm.alloc : !dsm.buffer<16x128xbf16, split = [1, 1]>
      %gp = dsm.alloc : !dsm.buffer<16x256xbf16, split = [1, 1]>
      %h = dsm.alloc : !dsm.buffer<16x64xbf16, split = [1, 1]>
      %t = dsm.alloc : !dsm.buffer<64x8xf32, split = [1, 1]>
      %u = dsm.alloc : !dsm.buffer<64x8xf32, split = [1, 1]>
      %vr = dsm.alloc : !dsm.buffer<16x8xf32, split = [1, 1]>
      %sc = dsm.alloc : !dsm.buffer<48x8xf32, split = [1, 1]>
      %bar = dsm.barrier_create count = 1 : !dsm.barrier
      %bar2 = dsm.barrier_create count = 1 : !dsm.barrier
      %false = arith.constant false
      %true = arith.constant true
      %tid = gpu.thread_id x
      %r = dsm.cluster_rank : index
      %c256 = arith.constant 256 : index
      %c1 = arith.constant 1 : index
      %r1 = arith.addi %r, %c1 : index
      %c8 = arith.constant 8 : index
      %c32 = arith.constant 32 : index
      %c64 = arith.constant 64 : index
      %c128 = arith.constant 128 : index
      %c512 = arith.constant 512 : index
      %c1024 = arith.constant 1024 : index
      %c2048 = arith.constant 2048 : index
      %c4096 = arith.constant 4096 : index
      %r1i = arith.index_castui %r1 : index to i32
      %rf = arith.uitofp %r1i : i32 to f32
      %inv1024 = arith.constant 9.765625e-04 : f32
      %inv8 = arith.constant 1.250000e-01 : f32

      %pv = dsm.local_view %p : !dsm.buffer<64x32xf32, split = [1, 1]> -> memref<64x32xf32, #gpu.address_space<workgroup>>
      scf.for %i = %tid to %c2048 step %c256 {
        %row = arith.divui %i, %c32 : index
        %col = arith.remui %i, %c32 : index
        %ii = arith.index_castui %i : index to i32
        %if = arith.uitofp %ii : i32 to f32
        %frac = arith.mulf %if, %inv1024 : f32
        %v = arith.addf %rf, %frac : f32
        memref.store %v, %pv[%row, %col] : memref<64x32xf32, #gpu.address_space<workgroup>>
      }
      %tv = dsm.local_view %t : !dsm.buffer<64x8xf32, split = [1, 1]> -> memref<64x8xf32, #gpu.address_space<workgroup>>
      %uv = dsm.local_view %u : !dsm.buffer<64x8xf32, split = [1, 1]> -> memref<64x8xf32, #gpu.address_space<workgroup>>
      scf.for %i = %tid to %c512 step %c256 {
        %row = arith.divui %i, %c8 : index
        %col = arith.remui %i, %c8 : index
        %ii = arith.index_castui %i : index to i32
        %if = arith.uitofp %ii : i32 to f32
        %frac = arith.mulf %if, %inv1024 : f32
        %x = arith.addf %rf, %frac : f32
        memref.store %x, %tv[%row, %col] : memref<64x8xf32, #gpu.address_space<workgroup>>
        memref.store %x, %uv[%row, %col] : memref<64x8xf32, #gpu.address_space<workgroup>>
      }
      %sv = dsm.local_view %s : !dsm.buffer<16x64xbf16, split = [1, 1]> -> memref<16x64xbf16, #gpu.address_space<workgroup>>
      scf.for %i = %tid to %c1024 step %c256 {
        %row = arith.divui %i, %c64 : index
        %col = arith.remui %i, %c64 : index
        %i8 = arith.remui %i, %c8 : index
        %ii = arith.index_castui %i8 : index to i32
        %if = arith.uitofp %ii : i32 to f32
        %frac = arith.mulf %if, %inv8 : f32
        %v = arith.addf %rf, %frac : f32
        %vb = arith.truncf %v : f32 to bf16
        memref.store %vb, %sv[%row, %col] : memref<16x64xbf16, #gpu.address_space<workgroup>>
      }

      dsm.reduce reduce_scatter add %p into %q axis = 1 group(4, 1) : !dsm.buffer<64x32xf32, split = [1, 1]>, !dsm.buffer<64x8xf32, split = [1, 1]>
      dsm.reduce all_reduce max %p into %m axis = 0 group(2, 2) : !dsm.buffer<64x32xf32, split = [1, 1]>, !dsm.buffer<64x32xf32, split = [1, 1]>
      dsm.shuffle %s into %g axis = 1 group(2, 1) : !dsm.buffer<16x64xbf16, split = [1, 1]>, !dsm.buffer<16x128xbf16, split = [1, 1]>
      dsm.shuffle %s into %gp axis = 1 group(4, 1) push(%bar, %false) : !dsm.buffer<16x64xbf16, split = [1, 1]>, !dsm.buffer<16x256xbf16, split = [1, 1]>
      dsm.multiply %s into %h group(2, 2) : !dsm.buffer<16x64xbf16, split = [1, 1]>, !dsm.buffer<16x64xbf16, split = [1, 1]>
      dsm.reduce reduce_scatter add %t axis = 0 group(4, 1) push(%sc : !dsm.buffer<48x8xf32, split = [1, 1]>, %bar2, %false) {threads = 256} : !dsm.buffer<64x8xf32, split = [1, 1]>
      dsm.reduce reduce_scatter add %u into %vr axis = 0 group(4, 1) push(%sc : !dsm.buffer<48x8xf32, split = [1, 1]>, %bar2, %true) : !dsm.buffer<64x8xf32, split = [1, 1]>, !dsm.buffer<16x8xf32, split = [1, 1]>

      %qv = dsm.local_view %q : !dsm.buffer<64x8xf32, split = [1, 1]> -> memref<64x8xf32, #gpu.address_space<workgroup>>
      scf.for %i = %tid to %c512 step %c256 {
        %row = arith.divui %i, %c8 : index
        %col = arith.remui %i, %c8 : index
        %v = memref.load %qv[%row, %col] : memref<64x8xf32, #gpu.address_space<workgroup>>
        memref.store %v, %out[%r, %i] : memref<4x9984xf32>
      }
      %mv = dsm.local_view %m : !dsm.buffer<64x32xf32, split = [1, 1]> -> memref<64x32xf32, #gpu.address_space<workgroup>>
      scf.for %i = %tid to %c2048 step %c256 {
        %row = arith.divui %i, %c32 : index
        %col = arith.remui %i, %c32 : index
        %v = memref.load %mv[%row, %col] : memref<64x32xf32, #gpu.address_space<workgroup>>
        %o = arith.addi %i, %c512 : index
        memref.store %v, %out[%r, %o] : memref<4x9984xf32>
      }
      %gv = dsm.local_view %g : !dsm.buffer<16x128xbf16, split = [1, 1]> -> memref<16x128xbf16, #gpu.address_space<workgroup>>
      %c2560 = arith.constant 2560 : index
      scf.for %i = %tid to %c2048 step %c256 {
        %row = arith.divui %i, %c128 : index
        %col = arith.remui %i, %c128 : index
        %vb = memref.load %gv[%row, %col] : memref<16x128xbf16, #gpu.address_space<workgroup>>
        %v = arith.extf %vb : bf16 to f32
        %o = arith.addi %i, %c2560 : index
        memref.store %v, %out[%r, %o] : memref<4x9984xf32>
      }
      %gpv = dsm.local_view %gp : !dsm.buffer<16x256xbf16, split = [1, 1]> -> memref<16x256xbf16, #gpu.address_space<workgroup>>
      %c4608 = arith.constant 4608 : index
      scf.for %i = %tid to %c4096 step %c256 {
        %row = arith.divui %i, %c256 : index
        %col = arith.remui %i, %c256 : index
        %vb = memref.load %gpv[%row, %col] : memref<16x256xbf16, #gpu.address_space<workgroup>>
        %v = arith.extf %vb : bf16 to f32
        %o = arith.addi %i, %c4608 : index
        memref.store %v, %out[%r, %o] : memref<4x9984xf32>
      }
      %hv = dsm.local_view %h : !dsm.buffer<16x64xbf16, split = [1, 1]> -> memref<16x64xbf16, #gpu.address_space<workgroup>>
      %c8704 = arith.constant 8704 : index
      scf.for %i = %tid to %c1024 step %c256 {
        %row = arith.divui %i, %c64 : index
        %col = arith.remui %i, %c64 : index
        %vb = memref.load %hv[%row, %col] : memref<16x64xbf16, #gpu.address_space<workgroup>>
        %v = arith.extf %vb : bf16 to f32
        %o = arith.addi %i, %c8704 : index
        memref.store %v, %out[%r, %o] : memref<4x9984xf32>
      }
      %vv = dsm.local_view %vr : !dsm.buffer<16x8xf32, split = [1, 1]> -> memref<16x8xf32, #gpu.address_space<workgroup>>
      %c16 = arith.constant 16 : index
      %c9728 = arith.constant 9728 : index
      %c9856 = arith.constant 9856 : index
      %own = arith.muli %r, %c16 : index
      scf.for %i = %tid to %c128 step %c256 {
        %row = arith.divui %i, %c8 : index
        %col = arith.remui %i, %c8 : index
        %trow = arith.addi %own, %row : index
        %x = memref.load %tv[%trow, %col] : memref<64x8xf32, #gpu.address_space<workgroup>>
        %o = arith.addi %i, %c9728 : index
        memref.store %x, %out[%r, %o] : memref<4x9984xf32>
        %y = memref.load %vv[%row, %col] : memref<16x8xf32, #gpu.address_space<workgroup>>
        %o2 = arith.addi %i, %c9856 : index
        memref.store %y, %out[%r, %o2] : memref<4x9984xf32>
      }
      gpu.return
    }
  }
}

// A hand-written cluster kernel (4 CTAs, 256 threads) that uses every
// lowered dsm buffer op and intra-cluster collective (the shuffle both as a
// pull and as a push onto an mbarrier). Each thread seeds the
// sources from %in and reads every destination back into %out, so that
// LLVM keeps all of the exchanges.
module attributes {gpu.container_module} {
  gpu.module @collectives_module {
    gpu.func @collectives(%in: memref<256xf32>, %out: memref<256x6xf32>) kernel attributes {known_block_size = array<i32: 256, 1, 1>, known_cluster_size = array<i32: 4, 1, 1>} {
      %p = dsm.alloc at 0 : !dsm.buffer<64x32xf32, split = [1, 1]>
      %q = dsm.alloc at 8192 : !dsm.buffer<64x8xf32, split = [1, 1]>
      %m = dsm.alloc at 10240 : !dsm.buffer<64x32xf32, split = [1, 1]>
      %s = dsm.alloc : !dsm.buffer<16x64xbf16, split = [1, 1]>
      %g = dsm.alloc : !dsm.buffer<16x128xbf16, split = [1, 1]>
      %h = dsm.alloc : !dsm.buffer<16x64xbf16, split = [1, 1]>
      %gp = dsm.alloc : !dsm.buffer<16x256xbf16, split = [1, 1]>
      %bar = dsm.barrier_create count = 1 : !dsm.barrier
      %false = arith.constant false
      %tid = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %c4 = arith.constant 4 : index
      %c16 = arith.constant 16 : index
      %c64 = arith.constant 64 : index
      %row = arith.remui %tid, %c64 : index
      %row16 = arith.remui %tid, %c16 : index
      %x = memref.load %in[%tid] : memref<256xf32>
      %xb = arith.truncf %x : f32 to bf16
      %pv = dsm.local_view %p : !dsm.buffer<64x32xf32, split = [1, 1]> -> memref<64x32xf32, #gpu.address_space<workgroup>>
      memref.store %x, %pv[%row, %c0] : memref<64x32xf32, #gpu.address_space<workgroup>>
      %sv = dsm.local_view %s : !dsm.buffer<16x64xbf16, split = [1, 1]> -> memref<16x64xbf16, #gpu.address_space<workgroup>>
      memref.store %xb, %sv[%row16, %c0] : memref<16x64xbf16, #gpu.address_space<workgroup>>
      dsm.reduce reduce_scatter add %p into %q axis = 1 group(4, 1) : !dsm.buffer<64x32xf32, split = [1, 1]>, !dsm.buffer<64x8xf32, split = [1, 1]>
      dsm.reduce all_reduce max %p into %m axis = 0 group(2, 2) : !dsm.buffer<64x32xf32, split = [1, 1]>, !dsm.buffer<64x32xf32, split = [1, 1]>
      dsm.shuffle %s into %g axis = 1 group(2, 1) : !dsm.buffer<16x64xbf16, split = [1, 1]>, !dsm.buffer<16x128xbf16, split = [1, 1]>
      dsm.shuffle %s into %gp axis = 1 group(4, 1) push(%bar, %false) : !dsm.buffer<16x64xbf16, split = [1, 1]>, !dsm.buffer<16x256xbf16, split = [1, 1]>
      dsm.multiply %s into %h group(2, 2) : !dsm.buffer<16x64xbf16, split = [1, 1]>, !dsm.buffer<16x64xbf16, split = [1, 1]>
      %qv = dsm.local_view %q : !dsm.buffer<64x8xf32, split = [1, 1]> -> memref<64x8xf32, #gpu.address_space<workgroup>>
      %mv = dsm.local_view %m : !dsm.buffer<64x32xf32, split = [1, 1]> -> memref<64x32xf32, #gpu.address_space<workgroup>>
      %gv = dsm.local_view %g : !dsm.buffer<16x128xbf16, split = [1, 1]> -> memref<16x128xbf16, #gpu.address_space<workgroup>>
      %gpv = dsm.local_view %gp : !dsm.buffer<16x256xbf16, split = [1, 1]> -> memref<16x256xbf16, #gpu.address_space<workgroup>>
      %hv = dsm.local_view %h : !dsm.buffer<16x64xbf16, split = [1, 1]> -> memref<16x64xbf16, #gpu.address_space<workgroup>>
      %r = dsm.cluster_rank : index
      %peer = arith.xori %r, %c1 : index
      %qp = dsm.remote_view %q[%peer] : !dsm.buffer<64x8xf32, split = [1, 1]> -> memref<64x8xf32, #dsm.shared_cluster>
      %y0 = memref.load %qv[%row, %c0] : memref<64x8xf32, #gpu.address_space<workgroup>>
      %y1 = memref.load %mv[%row, %c0] : memref<64x32xf32, #gpu.address_space<workgroup>>
      %y2b = memref.load %gv[%row16, %c64] : memref<16x128xbf16, #gpu.address_space<workgroup>>
      %y3b = memref.load %hv[%row16, %c0] : memref<16x64xbf16, #gpu.address_space<workgroup>>
      %y4 = memref.load %qp[%row, %c0] : memref<64x8xf32, #dsm.shared_cluster>
      %c192 = arith.constant 192 : index
      %y5b = memref.load %gpv[%row16, %c192] : memref<16x256xbf16, #gpu.address_space<workgroup>>
      %y5 = arith.extf %y5b : bf16 to f32
      %y2 = arith.extf %y2b : bf16 to f32
      %y3 = arith.extf %y3b : bf16 to f32
      memref.store %y0, %out[%tid, %c0] : memref<256x6xf32>
      memref.store %y1, %out[%tid, %c1] : memref<256x6xf32>
      memref.store %y2, %out[%tid, %c2] : memref<256x6xf32>
      memref.store %y3, %out[%tid, %c3] : memref<256x6xf32>
      memref.store %y4, %out[%tid, %c4] : memref<256x6xf32>
      %c5 = arith.constant 5 : index
      memref.store %y5, %out[%tid, %c5] : memref<256x6xf32>
      // Peers may still read %q through the remote view.
      dsm.cluster_arrive
      dsm.cluster_wait
      gpu.return
    }
  }
}

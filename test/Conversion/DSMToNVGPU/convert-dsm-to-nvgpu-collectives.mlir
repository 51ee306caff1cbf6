// RUN: ff-opt %s --convert-dsm-to-nvgpu --split-input-file | FileCheck %s

// Cluster buffers: `at OFFSET` is a region of dynamic shared memory, no
// offset a static shared array of the piece's bytes; views rebuild a
// contiguous memref descriptor, remote ones over the mapa'd pointer in
// address space 7.
// CHECK: gpu.module @bufs
// CHECK: llvm.mlir.global internal @__dsm_buffer() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<8192 x i8>
// CHECK-LABEL: gpu.func @buffers
// CHECK: %[[DYN:.*]] = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
// CHECK: %[[BASE:.*]] = memref.extract_aligned_pointer_as_index %[[DYN]]
// CHECK: %[[OFF:.*]] = arith.constant 4096 : index
// CHECK: %[[ADDR:.*]] = arith.addi %[[BASE]], %[[OFF]] : index
// CHECK: %[[A64:.*]] = arith.index_castui %[[ADDR]] : index to i64
// CHECK: %[[P:.*]] = llvm.inttoptr %[[A64]] : i64 to !llvm.ptr<3>
// CHECK: %[[S:.*]] = llvm.mlir.addressof @__dsm_buffer : !llvm.ptr<3>
// CHECK: llvm.insertvalue %[[P]], %{{.*}}[0] : !llvm.struct<(ptr<3>, ptr<3>, i64, array<2 x i64>, array<2 x i64>)>
// CHECK: %[[LV:.*]] = builtin.unrealized_conversion_cast %{{.*}} : !llvm.struct<(ptr<3>, ptr<3>, i64, array<2 x i64>, array<2 x i64>)> to memref<64x32xf32, #gpu.address_space<workgroup>>
// CHECK: %[[PEER:.*]] = arith.index_castui %{{.*}} : index to i32
// CHECK: %[[R:.*]] = nvvm.mapa %[[S]], %[[PEER]] : !llvm.ptr<3> -> !llvm.ptr<7>
// CHECK: llvm.insertvalue %[[R]], %{{.*}}[1] : !llvm.struct<(ptr<7>, ptr<7>, i64, array<2 x i64>, array<2 x i64>)>
// CHECK: %[[RV:.*]] = builtin.unrealized_conversion_cast %{{.*}} to memref<64x64xbf16, 7>
// CHECK: memref.load %[[RV]][%{{.*}}, %{{.*}}] : memref<64x64xbf16, 7>
// CHECK: memref.store %{{.*}}, %[[LV]][%{{.*}}, %{{.*}}] : memref<64x32xf32, #gpu.address_space<workgroup>>
// CHECK-NOT: dsm.
gpu.module @bufs {
  gpu.func @buffers(%peer: index) kernel {
    %a = dsm.alloc at 4096 : !dsm.buffer<64x32xf32, split = [1, 1]>
    %b = dsm.alloc : !dsm.buffer<64x64xbf16, split = [1, 1]>
    %v = dsm.local_view %a : !dsm.buffer<64x32xf32, split = [1, 1]> -> memref<64x32xf32, #gpu.address_space<workgroup>>
    %r = dsm.remote_view %b[%peer] : !dsm.buffer<64x64xbf16, split = [1, 1]> -> memref<64x64xbf16, #dsm.shared_cluster>
    %c0 = arith.constant 0 : index
    %x = memref.load %r[%c0, %c0] : memref<64x64xbf16, #dsm.shared_cluster>
    %y = arith.extf %x : bf16 to f32
    memref.store %y, %v[%c0, %c0] : memref<64x32xf32, #gpu.address_space<workgroup>>
    gpu.return
  }
}

// -----

// reduce_scatter over a group of 4: rank g of the group sums columns
// [8g, 8g + 8) of the 4 ranks' sources (in rank order) into its own 64x8
// destination, 16-byte vectors, threads [0, 256) striding; barrier.cluster
// before (sources published) and after (sources reusable).
// CHECK-LABEL: gpu.func @reduce_scatter
// CHECK: %[[SRC:.*]] = llvm.inttoptr %{{.*}} : i64 to !llvm.ptr<3>
// CHECK: %[[DST:.*]] = llvm.mlir.addressof @__dsm_buffer : !llvm.ptr<3>
// CHECK: %[[RANK:.*]] = arith.index_castui %{{.*}} : i32 to index
// CHECK: %[[G:.*]] = arith.remui %[[RANK]], %{{.*}} : index
// CHECK: %[[BASE:.*]] = arith.subi %[[RANK]], %[[G]] : index
// CHECK: nvvm.bar.warp.sync
// CHECK-NEXT: nvvm.cluster.arrive {aligned}
// CHECK: nvvm.bar.warp.sync
// CHECK-NEXT: nvvm.cluster.wait {aligned}
// CHECK: %[[TID:.*]] = gpu.thread_id x
// CHECK: %[[STEP:.*]] = arith.constant 256 : index
// CHECK: %[[N:.*]] = arith.constant 128 : index
// CHECK: scf.for %[[E:.*]] = %[[TID]] to %[[N]] step %[[STEP]] {
// CHECK: %[[C8:.*]] = arith.constant 8 : index
// CHECK: arith.muli %[[G]], %[[C8]] : index
// CHECK-COUNT-4: nvvm.mapa %{{.*}}, %{{.*}} : !llvm.ptr<3> -> !llvm.ptr<7>
// CHECK-NOT: nvvm.mapa
// CHECK: %[[SUM:.*]] = arith.addf %{{.*}}, %{{.*}} : vector<4xf32>
// CHECK: %[[C16:.*]] = arith.constant 16 : index
// CHECK: %[[DOFF:.*]] = arith.muli %[[E]], %[[C16]] : index
// CHECK: %[[D64:.*]] = arith.index_castui %[[DOFF]] : index to i64
// CHECK: %[[DP:.*]] = llvm.getelementptr %[[DST]][%[[D64]]]
// CHECK: llvm.store %[[SUM]], %[[DP]] {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<3>
// CHECK: }
// CHECK-NEXT: arith.constant -1 : i32
// CHECK-NEXT: nvvm.bar.warp.sync
// CHECK-NEXT: nvvm.cluster.arrive {aligned}
// CHECK: nvvm.bar.warp.sync
// CHECK-NEXT: nvvm.cluster.wait {aligned}
gpu.module @rs {
  gpu.func @reduce_scatter() kernel attributes {known_cluster_size = array<i32: 4, 1, 1>} {
    %p = dsm.alloc at 1024 : !dsm.buffer<64x32xf32, split = [1, 1]>
    %q = dsm.alloc : !dsm.buffer<64x8xf32, split = [1, 1]>
    dsm.reduce reduce_scatter add %p into %q axis = 1 group(4, 1) {threads = 256} : !dsm.buffer<64x32xf32, split = [1, 1]>, !dsm.buffer<64x8xf32, split = [1, 1]>
    gpu.return
  }
}

// -----

// all_reduce max in groups of 2 with stride 2 (ranks {0, 2} and {1, 3}):
// peers base and base + 2; without `threads` the whole block strides.
// CHECK-LABEL: gpu.func @all_reduce_max
// CHECK: %[[RANK:.*]] = arith.index_castui %{{.*}} : i32 to index
// CHECK: %[[Q:.*]] = arith.divui %[[RANK]], %{{.*}} : index
// CHECK: %[[G:.*]] = arith.remui %[[Q]], %{{.*}} : index
// CHECK: %[[GS:.*]] = arith.muli %[[G]], %{{.*}} : index
// CHECK: %[[BASE:.*]] = arith.subi %[[RANK]], %[[GS]] : index
// CHECK: %[[BD:.*]] = gpu.block_dim x
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %[[BD]] {
// CHECK: %[[C0:.*]] = arith.constant 0 : index
// CHECK: arith.addi %[[BASE]], %[[C0]] : index
// CHECK: %[[X:.*]] = llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<7> -> vector<4xf32>
// CHECK: %[[C2:.*]] = arith.constant 2 : index
// CHECK: arith.addi %[[BASE]], %[[C2]] : index
// CHECK: %[[Y:.*]] = llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<7> -> vector<4xf32>
// CHECK: arith.maximumf %[[X]], %[[Y]] : vector<4xf32>
gpu.module @ar {
  gpu.func @all_reduce_max() kernel {
    %p = dsm.alloc : !dsm.buffer<16x32xf32, split = [1, 1]>
    %m = dsm.alloc : !dsm.buffer<16x32xf32, split = [1, 1]>
    dsm.reduce all_reduce max %p into %m axis = 0 group(2, 2) : !dsm.buffer<16x32xf32, split = [1, 1]>, !dsm.buffer<16x32xf32, split = [1, 1]>
    gpu.return
  }
}

// -----

// shuffle (all-gather) of 16x64 bf16 slices into 16x128: vector e of the
// destination (8 bf16) comes from rank base + col / 64 at column col mod 64;
// one load per vector.
// CHECK-LABEL: gpu.func @shuffle
// CHECK: scf.for
// CHECK: %[[COL:.*]] = arith.muli %{{.*}}, %{{.*}} : index
// CHECK: %[[J:.*]] = arith.divui %[[COL]], %[[C64:.*]] : index
// CHECK: arith.remui %[[COL]], %{{.*}} : index
// CHECK: arith.addi %{{.*}}, %[[J]] : index
// CHECK: nvvm.mapa
// CHECK-NEXT: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<7> -> vector<8xbf16>
// CHECK-NOT: nvvm.mapa
// CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<8xbf16>, !llvm.ptr<3>
gpu.module @sh {
  gpu.func @shuffle() kernel {
    %s = dsm.alloc : !dsm.buffer<16x64xbf16, split = [1, 1]>
    %g = dsm.alloc : !dsm.buffer<16x128xbf16, split = [1, 1]>
    dsm.shuffle %s into %g axis = 1 group(2, 1) : !dsm.buffer<16x64xbf16, split = [1, 1]>, !dsm.buffer<16x128xbf16, split = [1, 1]>
    gpu.return
  }
}

// -----

// multiply of 3x3 pieces: no vector width divides 3, so scalar accesses;
// 4x6 pieces take 8-byte vectors.
// CHECK-LABEL: gpu.func @multiply
// CHECK: llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr<7> -> f32
// CHECK: llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr<7> -> f32
// CHECK: arith.mulf %{{.*}}, %{{.*}} : f32
// CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 4 : i64} : f32, !llvm.ptr<3>
// CHECK: llvm.load %{{.*}} {alignment = 8 : i64} : !llvm.ptr<7> -> vector<2xf32>
// CHECK: arith.mulf %{{.*}}, %{{.*}} : vector<2xf32>
gpu.module @mul {
  gpu.func @multiply() kernel {
    %o = dsm.alloc : !dsm.buffer<3x3xf32, split = [1, 1]>
    %o2 = dsm.alloc : !dsm.buffer<3x3xf32, split = [1, 1]>
    dsm.multiply %o into %o2 group(2, 1) : !dsm.buffer<3x3xf32, split = [1, 1]>, !dsm.buffer<3x3xf32, split = [1, 1]>
    %w = dsm.alloc : !dsm.buffer<4x6xf32, split = [1, 1]>
    %w2 = dsm.alloc : !dsm.buffer<4x6xf32, split = [1, 1]>
    dsm.multiply %w into %w2 group(2, 1) : !dsm.buffer<4x6xf32, split = [1, 1]>, !dsm.buffer<4x6xf32, split = [1, 1]>
    gpu.return
  }
}

// -----

// inter_cluster_reduce: threads [0, 128) stride over the 64x32 fp32 piece
// in 4-wide vectors; each vector whose row is inside the destination
// (a subview of the rows that exist) and whose 4 columns are too becomes
// one red.relaxed.gpu.global.add.v4.f32 at the subview's address (its
// offset and strides from the metadata), one crossing the last column 4
// predicated scalar reds; with `deterministic`, plain stores instead.
// CHECK-LABEL: gpu.func @inter_cluster
// CHECK: %[[PIECE:.*]] = llvm.inttoptr %{{.*}} : i64 to !llvm.ptr<3>
// CHECK: %[[TILE:.*]] = memref.subview
// CHECK: %{{.*}}, %[[OFF:.*]], %[[SIZES:.*]]:2, %[[STRIDES:.*]]:2 = memref.extract_strided_metadata %[[TILE]]
// CHECK: %[[BASE:.*]] = memref.extract_aligned_pointer_as_index %[[TILE]]
// CHECK: %[[STEP:.*]] = arith.constant 128 : index
// CHECK: scf.for %[[E:.*]] = %{{.*}} to %{{.*}} step %[[STEP]] {
// CHECK: %[[ROWIN:.*]] = arith.cmpi ult, %{{.*}}, %[[SIZES]]#0 : index
// CHECK: arith.muli %{{.*}}, %[[STRIDES]]#0 : index
// CHECK: %[[COLIN:.*]] = arith.cmpi ule, %{{.*}}, %[[SIZES]]#1 : index
// CHECK: %[[WHOLE:.*]] = arith.andi %[[ROWIN]], %[[COLIN]] : i1
// CHECK: scf.if %[[WHOLE]] {
// CHECK: %[[V:.*]] = llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<3> -> vector<4xf32>
// CHECK: %[[G:.*]] = llvm.inttoptr %{{.*}} : i64 to !llvm.ptr<1>
// CHECK: llvm.inline_asm has_side_effects "red.relaxed.gpu.global.add.v4.f32 [$0], {$1, $2, $3, $4};", "l,f,f,f,f,~{memory}" %[[G]]
// CHECK: } else {
// CHECK-COUNT-4: llvm.inline_asm has_side_effects "red.relaxed.gpu.global.add.f32 [$0], $1;", "l,f,~{memory}"
// CHECK: scf.for
// CHECK: scf.if
// CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<1>
// CHECK: } else {
// CHECK-COUNT-4: llvm.store %{{.*}}, %{{.*}} {alignment = 4 : i64} : f32, !llvm.ptr<1>
gpu.module @icr {
  gpu.func @inter_cluster(%ws: memref<?x768xf32>, %m0: index, %rows: index, %col: index) kernel {
    %q = dsm.alloc at 0 : !dsm.buffer<64x32xf32, split = [1, 1]>
    %c0 = arith.constant 0 : index
    %tile = memref.subview %ws[%m0, 0] [%rows, 768] [1, 1] : memref<?x768xf32> to memref<?x768xf32, strided<[768, 1], offset: ?>>
    dsm.inter_cluster_reduce add %q into %tile[%c0, %col] {threads = 128} : !dsm.buffer<64x32xf32, split = [1, 1]>, memref<?x768xf32, strided<[768, 1], offset: ?>>
    dsm.inter_cluster_reduce add %q into %tile[%c0, %col] deterministic : !dsm.buffer<64x32xf32, split = [1, 1]>, memref<?x768xf32, strided<[768, 1], offset: ?>>
    gpu.return
  }
}

// -----

// shuffle with push: one cluster barrier, the first thread arms this CTA's
// barrier for the group's 4 slices of 2048 bytes, every vector goes to this
// rank's slot of each rank, itself included, by st.async onto that rank's
// barrier (both addresses through mapa), then a wait on the phase with
// cluster-scope acquire, and no CTA barrier.
// CHECK-LABEL: gpu.func @push_shuffle
// CHECK: %[[BAR:.*]] = llvm.mlir.addressof @__dsm_barrier : !llvm.ptr<3>
// CHECK: nvvm.cluster.arrive {aligned}
// CHECK: nvvm.bar.warp.sync
// CHECK-NEXT: nvvm.cluster.wait {aligned}
// CHECK: scf.if
// CHECK-NEXT: %[[BYTES:.*]] = arith.constant 8192 : i32
// CHECK-NEXT: nvvm.mbarrier.arrive.expect_tx %[[BAR]], %[[BYTES]]
// CHECK: scf.for
// CHECK: %[[V:.*]] = llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<3> -> vector<8xbf16>
// CHECK-NOT: llvm.store
// CHECK: llvm.bitcast %[[V]] : vector<8xbf16> to vector<4xi32>
// CHECK-COUNT-4: st.async.shared::cluster.mbarrier::complete_tx::bytes.v4.b32
// CHECK-NOT: nvvm.cluster.arrive
// CHECK: mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64
// CHECK-NOT: nvvm.barrier0
// CHECK: gpu.return
gpu.module @shp {
  gpu.func @push_shuffle(%parity: i1) kernel {
    %b = dsm.barrier_create count = 1 : !dsm.barrier
    %s = dsm.alloc : !dsm.buffer<16x64xbf16, split = [1, 1]>
    %g = dsm.alloc : !dsm.buffer<16x256xbf16, split = [1, 1]>
    dsm.shuffle %s into %g axis = 1 group(4, 1) push(%b, %parity) : !dsm.buffer<16x64xbf16, split = [1, 1]>, !dsm.buffer<16x256xbf16, split = [1, 1]>
    gpu.return
  }
}

// -----

// With a static thread count that divides the piece, the pull loop moves
// up to 8 vectors per iteration: 256 vectors over 32 threads, all 8 remote
// loads before the 8 local stores (DSM latency overlaps).
// CHECK-LABEL: gpu.func @shuffle_unrolled
// CHECK: %[[STEP:.*]] = arith.constant 256 : index
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %[[STEP]] {
// CHECK-COUNT-8: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<7> -> vector<8xbf16>
// CHECK-NOT: llvm.load
// CHECK-COUNT-8: llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<8xbf16>, !llvm.ptr<3>
// CHECK: }
gpu.module @shu {
  gpu.func @shuffle_unrolled() kernel {
    %s = dsm.alloc : !dsm.buffer<16x64xbf16, split = [1, 1]>
    %g = dsm.alloc : !dsm.buffer<16x128xbf16, split = [1, 1]>
    dsm.shuffle %s into %g axis = 1 group(2, 1) {threads = 32} : !dsm.buffer<16x64xbf16, split = [1, 1]>, !dsm.buffer<16x128xbf16, split = [1, 1]>
    gpu.return
  }
}

// -----

// A push run by a subset of the threads (a kernel's consumer warpgroups),
// after the caller's arrive: the op only waits on the cluster barrier; the
// 128 vectors are strided over the 64 executing threads, two per
// iteration (both loads before the st.asyncs), and the op still ends at
// the barrier wait, with no CTA barrier the other threads would have to
// join.
// CHECK-LABEL: gpu.func @push_shuffle_threads
// CHECK-NOT: nvvm.cluster.arrive
// CHECK: nvvm.cluster.wait
// CHECK: arith.constant 4096 : i32
// CHECK: %[[STEP:.*]] = arith.constant 128 : index
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %[[STEP]]
// CHECK-COUNT-2: llvm.load
// CHECK-COUNT-4: st.async.shared::cluster.mbarrier::complete_tx::bytes.v4.b32
// CHECK: mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64
// CHECK-NOT: nvvm.barrier0
// CHECK: gpu.return
gpu.module @shpt {
  gpu.func @push_shuffle_threads(%parity: i1) kernel {
    %b = dsm.barrier_create count = 1 : !dsm.barrier
    %s = dsm.alloc : !dsm.buffer<16x64xbf16, split = [1, 1]>
    %g = dsm.alloc : !dsm.buffer<32x64xbf16, split = [1, 1]>
    dsm.shuffle %s into %g axis = 0 group(2, 1) push(%b, %parity) arrived {threads = 64} : !dsm.buffer<16x64xbf16, split = [1, 1]>, !dsm.buffer<32x64xbf16, split = [1, 1]>
    gpu.return
  }
}

// -----

// The in-place push: this rank's 4 KiB slot (rows [16 r, 16 r + 16)) already
// holds its slice. After the cluster barrier the first thread arms the
// barrier for the 3 peers' slots and copies its slot into each peer's same
// slot with one cp.async.bulk onto that peer's barrier (destination and
// barrier through mapa, itself skipped); every thread then waits.
// CHECK-LABEL: gpu.func @push_in_place
// CHECK: nvvm.cluster.arrive {aligned}
// CHECK: nvvm.cluster.wait {aligned}
// CHECK: scf.if
// CHECK: arith.constant 12288 : i32
// CHECK: nvvm.mbarrier.arrive.expect_tx
// CHECK: arith.constant 4096 : i32
// CHECK-COUNT-4: cp.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes [$0], [$1], $2, [$3];
// CHECK-NOT: llvm.store
// CHECK: mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64
// CHECK-NOT: nvvm.barrier0
// CHECK: gpu.return
gpu.module @shpi {
  gpu.func @push_in_place(%parity: i1) kernel {
    %b = dsm.barrier_create count = 1 : !dsm.barrier
    %g = dsm.alloc : !dsm.buffer<64x128xbf16, split = [1, 1]>
    dsm.shuffle into %g axis = 0 group(4, 1) push(%b, %parity) : !dsm.buffer<64x128xbf16, split = [1, 1]>
    gpu.return
  }
}

// -----

// reduce_scatter with push, in place, run by 64 threads: named barrier 15
// over them (a thread pushes rows other threads stored), one cluster
// barrier whose arrive is relaxed, the first thread arms this CTA's barrier for the 3 peers' slices
// of 2048 bytes (16x32 f32), then each executing thread loads its vector of
// the 3 slices that are not its own (the next peer's first) and st.asyncs
// them into this rank's scratch slot of their owners; after the wait it
// adds the 4 ranks' vectors in rank order (its own from the source, the
// others from scratch) and stores the sum into its own slice; named barrier
// 15 over the 64 threads ends the op.
// CHECK-LABEL: gpu.func @push_reduce_in_place
// CHECK: nvvm.barrier id = %c15_i32 number_of_threads = %c64_i32
// CHECK-NEXT: %{{.*}} = arith.constant -1 : i32
// CHECK-NEXT: nvvm.bar.warp.sync
// CHECK-NEXT: nvvm.cluster.arrive.relaxed {aligned}
// CHECK: nvvm.cluster.wait {aligned}
// CHECK: scf.if
// CHECK: arith.constant 6144 : i32
// CHECK: nvvm.mbarrier.arrive.expect_tx
// CHECK: scf.for
// CHECK-COUNT-3: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<3> -> vector<4xf32>
// CHECK-COUNT-3: st.async.shared::cluster.mbarrier::complete_tx::bytes.v4.b32
// CHECK: mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64
// CHECK: scf.for
// CHECK: llvm.select
// CHECK: %[[A:.*]] = llvm.load %{{.*}} : !llvm.ptr<3> -> vector<4xf32>
// CHECK: llvm.select
// CHECK: %[[B:.*]] = llvm.load %{{.*}} : !llvm.ptr<3> -> vector<4xf32>
// CHECK: %[[AB:.*]] = arith.addf %[[A]], %[[B]] : vector<4xf32>
// CHECK: arith.addf %[[AB]]
// CHECK: arith.addf
// CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<3>
// CHECK-NOT: nvvm.cluster.arrive
// CHECK: nvvm.barrier id = %c15_i32_{{[0-9]+}} number_of_threads = %c64_i32_{{[0-9]+}}
// CHECK: gpu.return
gpu.module @rsp {
  gpu.func @push_reduce_in_place(%parity: i1) kernel {
    %b = dsm.barrier_create count = 1 : !dsm.barrier
    %t = dsm.alloc : !dsm.buffer<64x32xf32, split = [1, 1]>
    %s = dsm.alloc : !dsm.buffer<48x32xf32, split = [1, 1]>
    dsm.reduce reduce_scatter add %t axis = 0 group(4, 1) push(%s : !dsm.buffer<48x32xf32, split = [1, 1]>, %b, %parity) {threads = 64} : !dsm.buffer<64x32xf32, split = [1, 1]>
    gpu.return
  }
}

// -----

// The same into a destination, by the whole block: the CTA barrier before
// the relaxed cluster arrive, the sum goes to %q and the CTA barrier ends
// the op.
// CHECK-LABEL: gpu.func @push_reduce_into
// CHECK: nvvm.barrier{{$}}
// CHECK: nvvm.cluster.arrive.relaxed {aligned}
// CHECK: st.async.shared::cluster.mbarrier::complete_tx::bytes.v4.b32
// CHECK: mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64
// CHECK: arith.addf
// CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<3>
// CHECK: nvvm.barrier{{$}}
// CHECK: gpu.return
gpu.module @rspd {
  gpu.func @push_reduce_into(%parity: i1) kernel {
    %b = dsm.barrier_create count = 1 : !dsm.barrier
    %t = dsm.alloc : !dsm.buffer<64x32xf32, split = [1, 1]>
    %s = dsm.alloc : !dsm.buffer<48x32xf32, split = [1, 1]>
    %q = dsm.alloc : !dsm.buffer<16x32xf32, split = [1, 1]>
    dsm.reduce reduce_scatter add %t into %q axis = 0 group(4, 1) push(%s : !dsm.buffer<48x32xf32, split = [1, 1]>, %b, %parity) : !dsm.buffer<64x32xf32, split = [1, 1]>, !dsm.buffer<16x32xf32, split = [1, 1]>
    gpu.return
  }
}

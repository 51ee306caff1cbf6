// The dsm buffers and collectives of a hand-written cluster kernel lower to
// PTX: pull exchanges over mapa + ld.shared::cluster between cluster
// barriers (each half after bar.warp.sync, in the .aligned form), a push shuffle over st.async onto the peers' mbarriers, dynamic shared memory for `dsm.alloc at`, static
// shared arrays otherwise.
// RUN: ff-opt %S/Inputs/collectives-kernel.mlir --lower-to-nvvm \
// RUN:   | sed -e 's/\\0A/\n/g' -e 's/\\09/ /g' | FileCheck %s

// CHECK: .extern .shared .align 1024 .b8 __dynamic_shmem__0[];
// CHECK: .reqnctapercluster 4, 1, 1
// CHECK-DAG: .shared .align 16 .b8 __dsm_buffer{{(_[01])?}}[4096];
// CHECK-DAG: .shared .align 16 .b8 __dsm_buffer{{(_[01])?}}[2048];
// reduce_scatter: 4 peers summed in rank order, one 16-byte store into the
// destination at dynamic offset 8192.
// CHECK: bar.warp.sync -1;
// CHECK-NEXT: barrier.cluster.arrive.aligned;
// CHECK-NEXT: bar.warp.sync -1;
// CHECK-NEXT: barrier.cluster.wait.aligned;
// CHECK-COUNT-2: ld.shared::cluster.v4.b32
// CHECK-COUNT-4: add.rn.f32
// CHECK: ld.shared::cluster.v4.b32
// CHECK-COUNT-4: add.rn.f32
// CHECK: ld.shared::cluster.v4.b32
// CHECK-COUNT-4: add.rn.f32
// CHECK: st.shared.v4.b32 [%rd{{[0-9]+}}+8192]
// CHECK: bar.warp.sync -1;
// CHECK-NEXT: barrier.cluster.arrive.aligned;
// CHECK-NEXT: bar.warp.sync -1;
// CHECK-NEXT: barrier.cluster.wait.aligned;
// all_reduce max: 2 peers.
// CHECK: bar.warp.sync -1;
// CHECK-NEXT: barrier.cluster.arrive.aligned;
// CHECK-NEXT: bar.warp.sync -1;
// CHECK-NEXT: barrier.cluster.wait.aligned;
// CHECK: mapa.shared::cluster.u64
// CHECK-COUNT-4: max.NaN.f32
// CHECK: st.shared.v4.b32 [%rd{{[0-9]+}}+10240]
// shuffle: one 16-byte load per destination vector.
// CHECK: barrier.cluster.wait.aligned;
// CHECK: mapa.shared::cluster.u64
// CHECK-NEXT: ld.shared::cluster.v4.b32
// CHECK: st.shared.v4.b32
// CHECK: barrier.cluster.wait.aligned;
// shuffle with push: after one cluster barrier this CTA arms its mbarrier
// for the group's 4 slices of 2048 bytes and st.asyncs its own 16-byte
// vectors to the 4 ranks, itself included, then waits for its phase with
// cluster-scope acquire; no second cluster barrier, no CTA barrier.
// CHECK: barrier.cluster.wait.aligned;
// CHECK: mbarrier.arrive.expect_tx.shared.b64 {{.*}}[__dsm_barrier]
// CHECK-COUNT-4: st.async.shared::cluster.mbarrier::complete_tx::bytes.v4.b32
// CHECK-NOT: barrier.cluster
// CHECK: mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64
// CHECK-NOT: bar.sync 0;
// multiply: bf16 products of the 2 branches.
// CHECK: barrier.cluster.wait.aligned;
// CHECK-COUNT-4: mul.rn.bf16x2
// CHECK: barrier.cluster.wait.aligned;
// The remote view read.
// CHECK: mapa.shared::cluster.u64
// CHECK: ld.shared::cluster.b32
// CHECK: barrier.cluster.wait.aligned;
// CHECK: ret;

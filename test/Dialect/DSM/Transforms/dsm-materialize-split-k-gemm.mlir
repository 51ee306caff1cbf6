// RUN: ff-opt %s --dsm-materialize=reduce-push=false | FileCheck %s
// RUN: ff-opt %s --dsm-materialize | FileCheck %s --check-prefix=PUSH

// A single GEMM split over K (cls_k = 4): the cluster's 4 consecutive CTAs
// share one 128 x 256 tile. Rank r runs k tiles [2r, 2r + 2) of the 8 (K =
// 512), publishes its fp32 tile over the dead stage ring, and after the
// reduce-scatter stores columns [64r, 64r + 64) of the tile through the
// epilogue. The launch is 4-CTA clusters of 2 x 4 tiles x 4 ranks.
// CHECK: dsm.bundles = [{{.*}}cluster = array<i64: 4, 1, 1>{{.*}}grid = array<i64: 16, 1, 1>
// CHECK-NOT: persistent
// CHECK-LABEL: gpu.func @gemm_0
// CHECK-SAME: known_cluster_size = array<i32: 4, 1, 1>
// CHECK: %[[BID:.*]] = gpu.block_id x
// CHECK: %[[TILE:.*]] = arith.divui %[[BID]], %c4
// CHECK: %[[RANK:.*]] = dsm.cluster_rank : index
// The rank's place in its k group (the whole cluster here: LLVM folds the
// remainder, the cluster size being known) times its 2 k tiles.
// CHECK: %[[KR:.*]] = arith.remui %[[RANK]], %c4
// CHECK: %[[KOFF:.*]] = arith.muli %[[KR]], %c2
// CHECK: %[[PART:.*]] = dsm.alloc at 0 : !dsm.buffer<128x256xf32, split = [1, 1]>
// CHECK: %[[RED:.*]] = dsm.alloc at {{[0-9]+}} : !dsm.buffer<128x64xf32, split = [1, 1]>
// The producer: k tiles from the rank's offset, then the reduce's two
// cluster barriers.
// CHECK: scf.for %[[K:.*]] = %c0{{.*}} to %c2{{.*}} step
// CHECK: %[[KT:.*]] = arith.addi %[[K]], %[[KOFF]] : index
// CHECK: %[[K0:.*]] = arith.muli %[[KT]], %c64
// CHECK: nvgpu.tma.async.load %{{.*}}[%[[K0]], %{{.*}}]
// CHECK: dsm.cluster_arrive
// CHECK-NEXT: dsm.cluster_wait
// CHECK-NEXT: dsm.cluster_arrive
// CHECK-NEXT: dsm.cluster_wait
// The consumers.
// CHECK: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK: nvvm.barrier id = %{{.*}} number_of_threads = %{{.*}}
// CHECK: vector.store %{{.*}}, %{{.*}} : memref<128x256xf32, #gpu.address_space<workgroup>>, vector<2xf32>
// CHECK: dsm.reduce reduce_scatter add %[[PART]] into %[[RED]] axis = 1 group(4, 1) {threads = 256 : i64}
// CHECK: %[[OWN:.*]] = arith.muli %[[RANK]], %c64
// CHECK: vector.load %{{.*}} : memref<128x64xf32, #gpu.address_space<workgroup>>, vector<4xf32>
// CHECK: arith.truncf
// CHECK: llvm.store %{{.*}} : vector<4xbf16>, !llvm.ptr
// CHECK: dsm.cluster_arrive relaxed
// CHECK-NEXT: dsm.cluster_wait
// CHECK-NEXT: gpu.return
// CHECK-LABEL: func.func @gemm_0_launch
// CHECK: %[[MT:.*]] = arith.ceildivui %{{.*}}, %c128
// CHECK: %[[GX:.*]] = arith.muli %[[MT]], %c16
// CHECK: gpu.launch_func @gemm_0_module::@gemm_0 clusters in (%c4{{.*}}, %c1{{.*}}, %c1{{.*}}) blocks in (%[[GX]],

// The default push: the tile slice-major (slice r is rows [128r, 128r +
// 128)), the peers' three slices in scratch after it, one cluster barrier
// in the producer, and the sum read back from this rank's slice.
// PUSH: dynamic_smem = 229376
// PUSH-LABEL: gpu.func @gemm_0
// PUSH: %[[RANK:.*]] = dsm.cluster_rank : index
// PUSH: %[[PART:.*]] = dsm.alloc at 0 : !dsm.buffer<512x64xf32, split = [1, 1]>
// PUSH: %[[PV:.*]] = dsm.local_view %[[PART]]
// PUSH: %[[SCR:.*]] = dsm.alloc at 131072 : !dsm.buffer<384x64xf32, split = [1, 1]>
// PUSH: %[[BAR:.*]] = dsm.barrier_create count = 1 : !dsm.barrier
// PUSH: %[[ROW0:.*]] = arith.muli %[[RANK]], %c128
// PUSH-NOT: dsm.alloc
// PUSH: nvgpu.tma.async.load
// PUSH: dsm.cluster_arrive
// PUSH-NEXT: dsm.cluster_wait
// PUSH-NEXT: } else {
// PUSH: nvvm.barrier id = %{{.*}} number_of_threads = %{{.*}}
// PUSH: vector.store %{{.*}}, %[[PV]][%{{.*}}, %{{.*}}] {{.*}} : memref<512x64xf32, #gpu.address_space<workgroup>>, vector<2xf32>
// PUSH: dsm.reduce reduce_scatter add %[[PART]] axis = 0 group(4, 1) push(%[[SCR]] : !dsm.buffer<384x64xf32, split = [1, 1]>, %[[BAR]], %{{.*}}) {threads = 256 : i64} : !dsm.buffer<512x64xf32, split = [1, 1]>
// PUSH: %[[ROW:.*]] = arith.addi %[[ROW0]], %{{.*}}
// PUSH: vector.load %[[PV]][%[[ROW]], %{{.*}}] {{.*}} : memref<512x64xf32, #gpu.address_space<workgroup>>, vector<4xf32>
// PUSH: llvm.store %{{.*}} : vector<4xbf16>, !llvm.ptr
// PUSH: dsm.cluster_arrive relaxed
// PUSH-NEXT: dsm.cluster_wait
// PUSH-NEXT: gpu.return

func.func @gemm(%a: tensor<256x512xbf16>, %b: tensor<512x1024xbf16>) -> tensor<256x1024xbf16> {
  %r = dsm.fused_chain gemm (%a, %b) {schedule = #dsm.schedule<cluster = [1, 1, 4, 1], block = [128, 256, 128, 16], grid = [2, 4, 1, 1], order = [m, n, k, l], spatial = [m, n, k], residency = [], collectives = [all_exchange], stages = 3, cost_ns = 1000>}
      : (tensor<256x512xbf16>, tensor<512x1024xbf16>) -> tensor<256x1024xbf16> {
  ^bb0(%x: tensor<256x512xbf16>, %w: tensor<512x1024xbf16>):
    %cst = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<256x1024xf32>
    %f = linalg.fill ins(%cst : f32) outs(%e : tensor<256x1024xf32>) -> tensor<256x1024xf32>
    %mm = linalg.matmul ins(%x, %w : tensor<256x512xbf16>, tensor<512x1024xbf16>) outs(%f : tensor<256x1024xf32>) -> tensor<256x1024xf32>
    %e2 = tensor.empty() : tensor<256x1024xbf16>
    %t = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%mm : tensor<256x1024xf32>) outs(%e2 : tensor<256x1024xbf16>) {
    ^bb0(%in: f32, %o: bf16):
      %v = arith.truncf %in : f32 to bf16
      linalg.yield %v : bf16
    }  -> tensor<256x1024xbf16>
    dsm.yield %t : tensor<256x1024xbf16>
  }
  return %r : tensor<256x1024xbf16>
}


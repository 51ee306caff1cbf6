// RUN: ff-opt %s --dsm-materialize --split-input-file | FileCheck %s

// The cluster reduce-scatter of an FFN's E chunks as a push (the default
// reduce-push): the partial chunk slice-major (128 x 64 fp32 as 4 slices of
// 128 x 16), the peers' 3 slices in scratch over the dead A/B rings, one
// cluster barrier per chunk in the producer (two for a pull), and the phase
// of chunk j's exchange is j mod 2. With an inter-cluster workspace the sum
// goes to the reduced slice, which dsm.inter_cluster_reduce reads.
// CHECK-LABEL: gpu.func @ffn_ws_0
// CHECK: %[[PART:.*]] = dsm.alloc at 163840 : !dsm.buffer<512x16xf32, split = [1, 1]>
// CHECK: %[[PV:.*]] = dsm.local_view %[[PART]]
// CHECK: %[[SCR:.*]] = dsm.alloc at 0 : !dsm.buffer<384x16xf32, split = [1, 1]>
// CHECK: %[[BAR:.*]] = dsm.barrier_create count = 1 : !dsm.barrier
// CHECK: %[[RED:.*]] = dsm.alloc at 24576 : !dsm.buffer<128x16xf32, split = [1, 1]>
// CHECK: scf.for
// CHECK: nvgpu.tma.async.load
// CHECK: arith.cmpi ugt
// CHECK-NEXT: scf.if %{{.*}} {
// CHECK-NEXT: dsm.cluster_arrive
// CHECK-NEXT: dsm.cluster_wait
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: dsm.cluster_arrive
// CHECK-NEXT: dsm.cluster_wait
// CHECK-NEXT: } else {
// CHECK: scf.for %[[J:.*]] = %c0{{.*}} to %c8{{.*}} step %c1{{[_0-9]*}} {
// CHECK-NOT: nvvm.barrier id = %c9
// CHECK: vector.store %{{.*}}, %[[PV]]{{.*}} : memref<512x16xf32, #gpu.address_space<workgroup>>, vector<2xf32>
// CHECK: %[[R:.*]] = arith.index_castui %[[J]] : index to i32
// CHECK: %[[PH:.*]] = arith.trunci %[[R]] : i32 to i1
// CHECK: dsm.reduce reduce_scatter add %[[PART]] into %[[RED]] axis = 0 group(4, 1) push(%[[SCR]] : !dsm.buffer<384x16xf32, split = [1, 1]>, %[[BAR]], %[[PH]]) {threads = 256 : i64} : !dsm.buffer<512x16xf32, split = [1, 1]>, !dsm.buffer<128x16xf32, split = [1, 1]>
// CHECK: dsm.inter_cluster_reduce add %[[RED]] into

func.func @ffn_ws(%a0: tensor<256x512xbf16>, %a1: tensor<512x1024xbf16>, %a2: tensor<1024x512xbf16>) -> tensor<256x512xbf16> {
  %r = dsm.fused_chain ffn (%a0, %a1, %a2) {schedule = #dsm.schedule<cluster = [1, 4, 1, 1], block = [128, 128, 64, 64], grid = [2, 2, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [smem], collectives = [reduce_scatter, inter_cluster_reduce], stages = 3, cost_ns = 1000>}
      : (tensor<256x512xbf16>, tensor<512x1024xbf16>, tensor<1024x512xbf16>) -> tensor<256x512xbf16> {
  ^bb0(%x: tensor<256x512xbf16>, %w1: tensor<512x1024xbf16>, %w2: tensor<1024x512xbf16>):
    %zero = arith.constant 0.0 : f32
    %g_e = tensor.empty() : tensor<256x1024xf32>
    %g_f = linalg.fill ins(%zero : f32) outs(%g_e : tensor<256x1024xf32>) -> tensor<256x1024xf32>
    %g = linalg.matmul ins(%x, %w1 : tensor<256x512xbf16>, tensor<512x1024xbf16>) outs(%g_f : tensor<256x1024xf32>) -> tensor<256x1024xf32>
    %h_e = tensor.empty() : tensor<256x1024xbf16>
    %h = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%g : tensor<256x1024xf32>) outs(%h_e : tensor<256x1024xbf16>) {
    ^bb0(%gv: f32, %o: bf16):
      %r0 = arith.maximumf %gv, %zero : f32
      %t = arith.truncf %r0 : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<256x1024xbf16>
    %e_e = tensor.empty() : tensor<256x512xf32>
    %e_f = linalg.fill ins(%zero : f32) outs(%e_e : tensor<256x512xf32>) -> tensor<256x512xf32>
    %e = linalg.matmul ins(%h, %w2 : tensor<256x1024xbf16>, tensor<1024x512xbf16>) outs(%e_f : tensor<256x512xf32>) -> tensor<256x512xf32>
    %o_e = tensor.empty() : tensor<256x512xbf16>
    %o = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%e : tensor<256x512xf32>) outs(%o_e : tensor<256x512xbf16>) {
    ^bb0(%ev: f32, %oo: bf16):
      %t = arith.truncf %ev : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<256x512xbf16>
    dsm.yield %o : tensor<256x512xbf16>
  }
  return %r : tensor<256x512xbf16>
}

// -----

// Without a workspace the sum lands in this rank's slice of the partial
// (rows [128 r, 128 r + 128)), read back through the epilogue; a consumer
// barrier keeps the next chunk's stores from overwriting it while it is
// read.
// CHECK-LABEL: gpu.func @ffn_ip_0
// CHECK: %[[RANK:.*]] = dsm.cluster_rank : index
// CHECK: %[[PART:.*]] = dsm.alloc at 163840 : !dsm.buffer<512x16xf32, split = [1, 1]>
// CHECK: %[[PV:.*]] = dsm.local_view %[[PART]]
// CHECK: %[[SCR:.*]] = dsm.alloc at 0 : !dsm.buffer<384x16xf32, split = [1, 1]>
// CHECK: %[[BAR:.*]] = dsm.barrier_create count = 1 : !dsm.barrier
// CHECK: %[[ROW0:.*]] = arith.muli %[[RANK]], %c128
// CHECK-NOT: dsm.alloc
// CHECK: } else {
// CHECK: scf.for %[[J:.*]] = %c0{{.*}} to %c8{{.*}} step %c1{{[_0-9]*}} {
// CHECK: nvvm.barrier id = %c9{{.*}} number_of_threads = %c256
// CHECK: vector.store %{{.*}}, %[[PV]]{{.*}} : memref<512x16xf32, #gpu.address_space<workgroup>>, vector<2xf32>
// CHECK: dsm.reduce reduce_scatter add %[[PART]] axis = 0 group(4, 1) push(%[[SCR]] : !dsm.buffer<384x16xf32, split = [1, 1]>, %[[BAR]], %{{.*}}) {threads = 256 : i64} : !dsm.buffer<512x16xf32, split = [1, 1]>
// CHECK: %[[ROW:.*]] = arith.addi %[[ROW0]], %{{.*}}
// CHECK: vector.load %[[PV]][%[[ROW]], %{{.*}}] {{.*}} : memref<512x16xf32, #gpu.address_space<workgroup>>, vector<4xf32>
// CHECK: arith.truncf

func.func @ffn_ip(%a0: tensor<256x512xbf16>, %a1: tensor<512x512xbf16>, %a2: tensor<512x512xbf16>) -> tensor<256x512xbf16> {
  %r = dsm.fused_chain ffn (%a0, %a1, %a2) {schedule = #dsm.schedule<cluster = [1, 4, 1, 1], block = [128, 128, 64, 64], grid = [2, 1, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [smem], collectives = [reduce_scatter], stages = 3, cost_ns = 1000>}
      : (tensor<256x512xbf16>, tensor<512x512xbf16>, tensor<512x512xbf16>) -> tensor<256x512xbf16> {
  ^bb0(%x: tensor<256x512xbf16>, %w1: tensor<512x512xbf16>, %w2: tensor<512x512xbf16>):
    %zero = arith.constant 0.0 : f32
    %g_e = tensor.empty() : tensor<256x512xf32>
    %g_f = linalg.fill ins(%zero : f32) outs(%g_e : tensor<256x512xf32>) -> tensor<256x512xf32>
    %g = linalg.matmul ins(%x, %w1 : tensor<256x512xbf16>, tensor<512x512xbf16>) outs(%g_f : tensor<256x512xf32>) -> tensor<256x512xf32>
    %h_e = tensor.empty() : tensor<256x512xbf16>
    %h = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%g : tensor<256x512xf32>) outs(%h_e : tensor<256x512xbf16>) {
    ^bb0(%gv: f32, %o: bf16):
      %r0 = arith.maximumf %gv, %zero : f32
      %t = arith.truncf %r0 : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<256x512xbf16>
    %e_e = tensor.empty() : tensor<256x512xf32>
    %e_f = linalg.fill ins(%zero : f32) outs(%e_e : tensor<256x512xf32>) -> tensor<256x512xf32>
    %e = linalg.matmul ins(%h, %w2 : tensor<256x512xbf16>, tensor<512x512xbf16>) outs(%e_f : tensor<256x512xf32>) -> tensor<256x512xf32>
    %o_e = tensor.empty() : tensor<256x512xbf16>
    %o = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%e : tensor<256x512xf32>) outs(%o_e : tensor<256x512xbf16>) {
    ^bb0(%ev: f32, %oo: bf16):
      %t = arith.truncf %ev : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<256x512xbf16>
    dsm.yield %o : tensor<256x512xbf16>
  }
  return %r : tensor<256x512xbf16>
}


// -----

// A cluster of 8 with 64 x 256 fp32 E chunks (G1's plan): a whole chunk's
// scratch (7/8 of it) does not fit next to the pull's layout, so the push
// reduces each chunk in two halves of 128 columns: the half partial
// (8 slices of 64 x 16) and its 7 scratch slices share the partial's
// region (no more shared memory than the pull), two exchanges per chunk
// on phases 2j and 2j + 1, two cluster barriers per chunk in the producer,
// and a consumer barrier before each half's stores.
// CHECK-LABEL: gpu.func @ffn_parts_0
// CHECK: %[[PART:.*]] = dsm.alloc at 122880 : !dsm.buffer<512x16xf32, split = [1, 1]>
// CHECK: %[[PV:.*]] = dsm.local_view %[[PART]]
// CHECK: %[[SCR:.*]] = dsm.alloc at 155648 : !dsm.buffer<448x16xf32, split = [1, 1]>
// CHECK: %[[BAR:.*]] = dsm.barrier_create count = 1 : !dsm.barrier
// CHECK: arith.cmpi ugt
// CHECK-NEXT: scf.if %{{.*}} {
// CHECK-NEXT: dsm.cluster_arrive
// CHECK-NEXT: dsm.cluster_wait
// CHECK-NEXT: dsm.cluster_arrive
// CHECK-NEXT: dsm.cluster_wait
// CHECK-NEXT: }
// CHECK: } else {
// CHECK: scf.for %[[J:.*]] = %c0{{.*}} to %c2{{.*}} step %c1{{[_0-9]*}} {
// CHECK: nvvm.barrier id = %c9{{.*}} number_of_threads = %c128
// CHECK: vector.store %{{.*}}, %[[PV]]{{.*}} : memref<512x16xf32, #gpu.address_space<workgroup>>, vector<2xf32>
// CHECK: %[[U0:.*]] = arith.muli %[[J]], %c2
// CHECK: %[[R0:.*]] = arith.index_castui %[[U0]] : index to i32
// CHECK: %[[P0:.*]] = arith.trunci %[[R0]] : i32 to i1
// CHECK: dsm.reduce reduce_scatter add %[[PART]] axis = 0 group(8, 1) push(%[[SCR]] : !dsm.buffer<448x16xf32, split = [1, 1]>, %[[BAR]], %[[P0]])
// CHECK: vector.load %[[PV]]
// CHECK: nvvm.barrier id = %c9{{.*}} number_of_threads = %c128
// CHECK: vector.store %{{.*}}, %[[PV]]{{.*}} : memref<512x16xf32, #gpu.address_space<workgroup>>, vector<2xf32>
// CHECK: %[[M1:.*]] = arith.muli %[[J]], %c2
// CHECK: %[[U1:.*]] = arith.addi %[[M1]], %c1
// CHECK: %[[R1:.*]] = arith.index_castui %[[U1]] : index to i32
// CHECK: %[[P1:.*]] = arith.trunci %[[R1]] : i32 to i1
// CHECK: dsm.reduce reduce_scatter add %[[PART]] axis = 0 group(8, 1) push(%[[SCR]] : !dsm.buffer<448x16xf32, split = [1, 1]>, %[[BAR]], %[[P1]])
// CHECK: %[[OWN:.*]] = arith.muli %{{.*}}, %c16
// CHECK: arith.addi %[[OWN]], %c128
// CHECK: vector.load %[[PV]]
// CHECK-NOT: dsm.reduce

func.func @ffn_parts(%a0: tensor<256x32xbf16>, %a1: tensor<32x512xbf16>, %a2: tensor<512x512xbf16>) -> tensor<256x512xbf16> {
  %r = dsm.fused_chain ffn (%a0, %a1, %a2) {schedule = #dsm.schedule<cluster = [1, 8, 1, 1], block = [64, 64, 32, 256], grid = [4, 1, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [smem], collectives = [reduce_scatter], stages = 3, cost_ns = 1000>}
      : (tensor<256x32xbf16>, tensor<32x512xbf16>, tensor<512x512xbf16>) -> tensor<256x512xbf16> {
  ^bb0(%x: tensor<256x32xbf16>, %w1: tensor<32x512xbf16>, %w2: tensor<512x512xbf16>):
    %zero = arith.constant 0.0 : f32
    %g_e = tensor.empty() : tensor<256x512xf32>
    %g_f = linalg.fill ins(%zero : f32) outs(%g_e : tensor<256x512xf32>) -> tensor<256x512xf32>
    %g = linalg.matmul ins(%x, %w1 : tensor<256x32xbf16>, tensor<32x512xbf16>) outs(%g_f : tensor<256x512xf32>) -> tensor<256x512xf32>
    %h_e = tensor.empty() : tensor<256x512xbf16>
    %h = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%g : tensor<256x512xf32>) outs(%h_e : tensor<256x512xbf16>) {
    ^bb0(%gv: f32, %o: bf16):
      %r0 = arith.maximumf %gv, %zero : f32
      %t = arith.truncf %r0 : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<256x512xbf16>
    %e_e = tensor.empty() : tensor<256x512xf32>
    %e_f = linalg.fill ins(%zero : f32) outs(%e_e : tensor<256x512xf32>) -> tensor<256x512xf32>
    %e = linalg.matmul ins(%h, %w2 : tensor<256x512xbf16>, tensor<512x512xbf16>) outs(%e_f : tensor<256x512xf32>) -> tensor<256x512xf32>
    %o_e = tensor.empty() : tensor<256x512xbf16>
    %o = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%e : tensor<256x512xf32>) outs(%o_e : tensor<256x512xbf16>) {
    ^bb0(%ev: f32, %oo: bf16):
      %t = arith.truncf %ev : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<256x512xbf16>
    dsm.yield %o : tensor<256x512xbf16>
  }
  return %r : tensor<256x512xbf16>
}

// -----

// A split-K GEMM over a cluster of 8 with a 128 x 256 tile and 3 stages:
// the tile plus 7/8 of it as scratch (240 KB) does not fit, so the tile is
// reduced in two halves of 128 columns: the half tile (8 slices of
// 128 x 16) over the dead ring at 0, its 7 scratch slices after it, both
// within the ring; the producer joins two cluster barriers, and a consumer
// barrier precedes each half's stores (the caller's for the first).
// CHECK-LABEL: gpu.func @gemm_0
// CHECK: %[[PART:.*]] = dsm.alloc at 0 : !dsm.buffer<1024x16xf32, split = [1, 1]>
// CHECK: %[[SCR:.*]] = dsm.alloc at 65536 : !dsm.buffer<896x16xf32, split = [1, 1]>
// CHECK: nvgpu.tma.async.load
// CHECK: dsm.cluster_arrive
// CHECK-NEXT: dsm.cluster_wait
// CHECK-NEXT: dsm.cluster_arrive
// CHECK-NEXT: dsm.cluster_wait
// CHECK-NEXT: } else {
// CHECK: nvvm.barrier id = %c9
// CHECK: dsm.reduce reduce_scatter add %[[PART]] axis = 0 group(8, 1) push(%[[SCR]] : !dsm.buffer<896x16xf32, split = [1, 1]>
// CHECK: vector.load
// CHECK: nvvm.barrier id = %c9
// CHECK: dsm.reduce reduce_scatter add %[[PART]] axis = 0 group(8, 1) push(%[[SCR]] : !dsm.buffer<896x16xf32, split = [1, 1]>
// CHECK: vector.load
// CHECK-NOT: dsm.reduce
// CHECK: gpu.return

func.func @gemm(%a: tensor<256x512xbf16>, %b: tensor<512x1024xbf16>) -> tensor<256x1024xbf16> {
  %r = dsm.fused_chain gemm (%a, %b) {schedule = #dsm.schedule<cluster = [1, 1, 8, 1], block = [128, 256, 64, 16], grid = [2, 4, 1, 1], order = [m, n, k, l], spatial = [m, n, k], residency = [], collectives = [all_exchange], stages = 3, cost_ns = 1000>}
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


// RUN: ff-opt %s --dsm-materialize -split-input-file | FileCheck %s --check-prefixes=CHECK,PUSH
// RUN: ff-opt %s --dsm-materialize=shuffle-push=false -split-input-file | FileCheck %s --check-prefixes=CHECK,PULL

// Split K in the shuffle family (cluster = [1, cls_n, cls_k, cls_n * cls_k]):
// the cluster's ranks n * 2 + k run k tiles [k * 2, k * 2 + 2) of GEMM0 on
// the n tile of rank n, publish their fp32 partial C tiles to their k group
// (over the dead stage ring), pull and sum their half of the group's tiles
// (dsm.reduce, two cluster barriers), and write act(half) as bf16 into the
// act(C) slice the cluster's gather (dsm.shuffle over all four ranks) reads.
// With blk_n = 128 each rank keeps 64 columns: one whole 64-column chunk.
// PUSH (the default): no separate slice; after the reduce each rank writes
// act(half) into its slot of the gathered slices and pushes the slot (an
// in-place dsm.shuffle push, its one cluster barrier first): three cluster
// barriers in all instead of four. The reduced half lies past the gathered
// slots in both forms.
// CHECK-LABEL: kernels = [{block = array<i64: 256, 1, 1>, cluster = array<i64: 4, 1, 1>
// CHECK-SAME: grid = array<i64: 4, 1, 1>
// CHECK-LABEL: gpu.func @split_k_columns_0
// CHECK-SAME: known_cluster_size = array<i32: 4, 1, 1>
// CHECK: %[[RANK:.*]] = dsm.cluster_rank : index
// CHECK: %[[INGROUP:.*]] = arith.remui %[[RANK]], %c2{{.*}} : index
// CHECK: %[[KOFF:.*]] = arith.muli %[[INGROUP]], %c2{{.*}} : index
// PULL: %[[SLICE:.*]] = dsm.alloc at 0 : !dsm.buffer<64x64xbf16, split = [1, 1]>
// PUSH-NOT: dsm.alloc at 0 : !dsm.buffer<64x64xbf16
// CHECK: %[[GATHERED:.*]] = dsm.alloc at 8192 : !dsm.buffer<256x64xbf16, split = [1, 1]>
// CHECK: %[[PARTIAL:.*]] = dsm.alloc at 0 : !dsm.buffer<64x128xf32, split = [1, 1]>
// CHECK: %[[PVIEW:.*]] = dsm.local_view %[[PARTIAL]]
// CHECK: %[[REDUCED:.*]] = dsm.alloc at 40960 : !dsm.buffer<64x64xf32, split = [1, 1]>
// CHECK: %[[RVIEW:.*]] = dsm.local_view %[[REDUCED]]
// PUSH: %[[BAR:.*]] = dsm.barrier_create count = 1
// Producer: this rank's k tiles, then the two cluster barriers of the
// reduce and the gather's (push: one, pull: two) before the D slots over
// the ring.
// CHECK: scf.for %[[K:.*]] = %{{.*}} to %c2{{.*}} step
// CHECK: %[[KG:.*]] = arith.addi %[[K]], %[[KOFF]] : index
// CHECK: arith.muli %[[KG]], %c64
// PULL-COUNT-4: dsm.cluster_arrive
// PUSH-COUNT-3: dsm.cluster_arrive
// CHECK: } else {
// Consumer: the partial, the pull, act() of the half into the swizzled
// slice, the gather of the cluster's four halves.
// CHECK: vector.store {{.*}}, %[[PVIEW]][{{.*}}] {alignment = 8 : i64} : memref<64x128xf32, #gpu.address_space<workgroup>>, vector<2xf32>
// CHECK: dsm.reduce reduce_scatter add %[[PARTIAL]] into %[[REDUCED]] axis = 1 group(2, 1) {threads = 128 : i64}
// CHECK: vector.load %[[RVIEW]]
// CHECK: arith.maximumf
// CHECK: arith.xori
// CHECK: llvm.store {{.*}} {alignment = 8 : i64} : i64, !llvm.ptr<3>
// PULL: dsm.shuffle %[[SLICE]] into %[[GATHERED]] axis = 0 group(4, 1) {threads = 128 : i64}
// CHECK: nvvm.fence.proxy
// PUSH: nvvm.barrier id = %c9_i32
// PUSH: dsm.shuffle into %[[GATHERED]] axis = 0 group(4, 1) push(%[[BAR]], %false) {threads = 128 : i64}

func.func @split_k_columns(%a: tensor<64x256xbf16>, %b: tensor<256x256xbf16>, %d: tensor<256x256xbf16>) -> tensor<64x256xf32> {
  %r = dsm.fused_chain ffn (%a, %b, %d) {schedule = #dsm.schedule<cluster = [1, 2, 2, 4], block = [64, 128, 128, 64], grid = [1, 1, 1, 1], order = [m, n, k, l], spatial = [m, n, k, l], residency = [dsm], collectives = [all_exchange, shuffle], stages = 2, cost_ns = 1000>}
      : (tensor<64x256xbf16>, tensor<256x256xbf16>, tensor<256x256xbf16>) -> tensor<64x256xf32> {
  ^bb0(%x: tensor<64x256xbf16>, %w1: tensor<256x256xbf16>, %w2: tensor<256x256xbf16>):
    %zero = arith.constant 0.0 : f32
    %c_e = tensor.empty() : tensor<64x256xf32>
    %c_f = linalg.fill ins(%zero : f32) outs(%c_e : tensor<64x256xf32>) -> tensor<64x256xf32>
    %c = linalg.matmul ins(%x, %w1 : tensor<64x256xbf16>, tensor<256x256xbf16>) outs(%c_f : tensor<64x256xf32>) -> tensor<64x256xf32>
    %h_e = tensor.empty() : tensor<64x256xbf16>
    %h = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%c : tensor<64x256xf32>) outs(%h_e : tensor<64x256xbf16>) {
    ^bb0(%in: f32, %o: bf16):
      %r = arith.maximumf %in, %zero : f32
      %t = arith.truncf %r : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<64x256xbf16>
    %e_e = tensor.empty() : tensor<64x256xf32>
    %e_f = linalg.fill ins(%zero : f32) outs(%e_e : tensor<64x256xf32>) -> tensor<64x256xf32>
    %e = linalg.matmul ins(%h, %w2 : tensor<64x256xbf16>, tensor<256x256xbf16>) outs(%e_f : tensor<64x256xf32>) -> tensor<64x256xf32>
    dsm.yield %e : tensor<64x256xf32>
  }
  return %r : tensor<64x256xf32>
}

// -----

// With blk_n = 64 a rank keeps rows: 32 of the 64-row chunk, which the
// gather concatenates in rank order into the cluster's two chunks.
// CHECK-LABEL: gpu.func @split_k_rows_0
// PULL: %[[SLICE:.*]] = dsm.alloc at 0 : !dsm.buffer<32x64xbf16, split = [1, 1]>
// CHECK: %[[GATHERED:.*]] = dsm.alloc at 4096 : !dsm.buffer<128x64xbf16, split = [1, 1]>
// CHECK: %[[PARTIAL:.*]] = dsm.alloc at 0 : !dsm.buffer<64x64xf32, split = [1, 1]>
// CHECK: %[[REDUCED:.*]] = dsm.alloc at 20480 : !dsm.buffer<32x64xf32, split = [1, 1]>
// CHECK: dsm.reduce reduce_scatter add %[[PARTIAL]] into %[[REDUCED]] axis = 0 group(2, 1) {threads = 128 : i64}
// PULL: dsm.shuffle %[[SLICE]] into %[[GATHERED]] axis = 0 group(4, 1) {threads = 128 : i64}
// PUSH: dsm.shuffle into %[[GATHERED]] axis = 0 group(4, 1) push

func.func @split_k_rows(%a: tensor<64x256xbf16>, %b: tensor<256x128xbf16>, %d: tensor<128x256xbf16>) -> tensor<64x256xf32> {
  %r = dsm.fused_chain ffn (%a, %b, %d) {schedule = #dsm.schedule<cluster = [1, 2, 2, 4], block = [64, 64, 128, 64], grid = [1, 1, 1, 1], order = [m, n, k, l], spatial = [m, n, k, l], residency = [dsm], collectives = [all_exchange, shuffle], stages = 2, cost_ns = 1000>}
      : (tensor<64x256xbf16>, tensor<256x128xbf16>, tensor<128x256xbf16>) -> tensor<64x256xf32> {
  ^bb0(%x: tensor<64x256xbf16>, %w1: tensor<256x128xbf16>, %w2: tensor<128x256xbf16>):
    %zero = arith.constant 0.0 : f32
    %c_e = tensor.empty() : tensor<64x128xf32>
    %c_f = linalg.fill ins(%zero : f32) outs(%c_e : tensor<64x128xf32>) -> tensor<64x128xf32>
    %c = linalg.matmul ins(%x, %w1 : tensor<64x256xbf16>, tensor<256x128xbf16>) outs(%c_f : tensor<64x128xf32>) -> tensor<64x128xf32>
    %h_e = tensor.empty() : tensor<64x128xbf16>
    %h = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%c : tensor<64x128xf32>) outs(%h_e : tensor<64x128xbf16>) {
    ^bb0(%in: f32, %o: bf16):
      %r = arith.maximumf %in, %zero : f32
      %t = arith.truncf %r : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<64x128xbf16>
    %e_e = tensor.empty() : tensor<64x256xf32>
    %e_f = linalg.fill ins(%zero : f32) outs(%e_e : tensor<64x256xf32>) -> tensor<64x256xf32>
    %e = linalg.matmul ins(%h, %w2 : tensor<64x128xbf16>, tensor<128x256xbf16>) outs(%e_f : tensor<64x256xf32>) -> tensor<64x256xf32>
    dsm.yield %e : tensor<64x256xf32>
  }
  return %r : tensor<64x256xf32>
}

// -----

// cls_n = 1: the k group is the whole cluster of 4, each rank keeping 16
// rows of the 64-column tile. E's two clusters along n meet in the
// workspace, whose arrival counters are per (m tile, rank of the cluster):
// 256 x 4 B of E plus 4 x 4 B per row of M.
// CHECK: bytes_per_m = 1040
// CHECK-LABEL: gpu.func @split_k_workspace_0
// CHECK: %[[RANK:.*]] = dsm.cluster_rank : index
// PULL: %[[SLICE:.*]] = dsm.alloc at 0 : !dsm.buffer<16x64xbf16, split = [1, 1]>
// CHECK: %[[GATHERED:.*]] = dsm.alloc at 2048 : !dsm.buffer<64x64xbf16, split = [1, 1]>
// CHECK: %[[PARTIAL:.*]] = dsm.alloc at 0 : !dsm.buffer<64x64xf32, split = [1, 1]>
// CHECK: %[[REDUCED:.*]] = dsm.alloc at 16384 : !dsm.buffer<16x64xf32, split = [1, 1]>
// CHECK: dsm.reduce reduce_scatter add %[[PARTIAL]] into %[[REDUCED]] axis = 0 group(4, 1)
// PULL: dsm.shuffle %[[SLICE]] into %[[GATHERED]] axis = 0 group(4, 1)
// PUSH: dsm.shuffle into %[[GATHERED]] axis = 0 group(4, 1) push
// The finisher's counter: m tile * 4 + rank.
// CHECK: nvvm.barrier id = %c8_i32
// CHECK: %[[MT4:.*]] = arith.muli %{{.*}}, %c4{{.*}} : index
// CHECK-NEXT: arith.addi %[[MT4]], %[[RANK]] : index

func.func @split_k_workspace(%a: tensor<64x256xbf16>, %b: tensor<256x128xbf16>, %d: tensor<128x256xbf16>) -> tensor<64x256xf32> {
  %r = dsm.fused_chain ffn (%a, %b, %d) {schedule = #dsm.schedule<cluster = [1, 1, 4, 4], block = [64, 64, 64, 64], grid = [1, 2, 1, 1], order = [m, n, k, l], spatial = [m, n, k, l], residency = [dsm], collectives = [all_exchange, inter_cluster_reduce], stages = 2, cost_ns = 1000>}
      : (tensor<64x256xbf16>, tensor<256x128xbf16>, tensor<128x256xbf16>) -> tensor<64x256xf32> {
  ^bb0(%x: tensor<64x256xbf16>, %w1: tensor<256x128xbf16>, %w2: tensor<128x256xbf16>):
    %zero = arith.constant 0.0 : f32
    %c_e = tensor.empty() : tensor<64x128xf32>
    %c_f = linalg.fill ins(%zero : f32) outs(%c_e : tensor<64x128xf32>) -> tensor<64x128xf32>
    %c = linalg.matmul ins(%x, %w1 : tensor<64x256xbf16>, tensor<256x128xbf16>) outs(%c_f : tensor<64x128xf32>) -> tensor<64x128xf32>
    %h_e = tensor.empty() : tensor<64x128xbf16>
    %h = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%c : tensor<64x128xf32>) outs(%h_e : tensor<64x128xbf16>) {
    ^bb0(%in: f32, %o: bf16):
      %r = arith.maximumf %in, %zero : f32
      %t = arith.truncf %r : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<64x128xbf16>
    %e_e = tensor.empty() : tensor<64x256xf32>
    %e_f = linalg.fill ins(%zero : f32) outs(%e_e : tensor<64x256xf32>) -> tensor<64x256xf32>
    %e = linalg.matmul ins(%h, %w2 : tensor<64x128xbf16>, tensor<128x256xbf16>) outs(%e_f : tensor<64x256xf32>) -> tensor<64x256xf32>
    dsm.yield %e : tensor<64x256xf32>
  }
  return %r : tensor<64x256xf32>
}

// RUN: ff-opt %s -canonicalize -split-input-file | FileCheck %s

// Cluster identity folds once the kernel fixes its cluster shape.
// CHECK-LABEL: func.func @shape_known
// CHECK-DAG: %[[C4:.*]] = arith.constant 4 : index
// CHECK-DAG: %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK-NOT: dsm.cluster_shape
// CHECK: return %[[C4]], %[[C2]], %[[C1]]
func.func @shape_known() -> (index, index, index) attributes {known_cluster_size = array<i32: 4, 2, 1>} {
  %x, %y, %z = dsm.cluster_shape : index, index, index
  return %x, %y, %z : index, index, index
}

// CHECK-LABEL: func.func @shape_unknown
// CHECK: dsm.cluster_shape
func.func @shape_unknown() -> (index, index, index) {
  %x, %y, %z = dsm.cluster_shape : index, index, index
  return %x, %y, %z : index, index, index
}

// The only rank of a 1x1x1 cluster is 0.
// CHECK-LABEL: func.func @rank_single
// CHECK: %[[C0:.*]] = arith.constant 0 : index
// CHECK-NOT: dsm.cluster_rank
// CHECK: return %[[C0]]
func.func @rank_single() -> index attributes {known_cluster_size = array<i32: 1, 1, 1>} {
  %r = dsm.cluster_rank : index
  return %r : index
}

// CHECK-LABEL: func.func @rank_cluster
// CHECK: dsm.cluster_rank
func.func @rank_cluster() -> index attributes {known_cluster_size = array<i32: 2, 1, 1>} {
  %r = dsm.cluster_rank : index
  return %r : index
}

// -----

// Unused inputs are dropped and repeated inputs merged; the schedule and the
// body are kept.
// CHECK-LABEL: func.func @inputs
// CHECK-SAME: (%[[A:.*]]: tensor<128x256xbf16>, %[[B:.*]]: tensor<256x256xbf16>, %[[U:.*]]: tensor<4xf32>)
// CHECK: dsm.fused_chain gemm(%[[A]], %[[B]]) {schedule = #dsm.schedule<{{.*}}>} : (tensor<128x256xbf16>, tensor<256x256xbf16>) -> tensor<128x256xf32>
// CHECK-NEXT: ^bb0(%[[X:.*]]: tensor<128x256xbf16>, %[[W:.*]]: tensor<256x256xbf16>):
// CHECK: linalg.matmul ins(%[[X]], %[[W]] :
func.func @inputs(%a: tensor<128x256xbf16>, %b: tensor<256x256xbf16>, %u: tensor<4xf32>) -> tensor<128x256xf32> {
  %r = dsm.fused_chain gemm(%a, %u, %b, %a) {schedule = #dsm.schedule<cluster = [1, 1, 1, 1], block = [128, 256, 64, 16], grid = [1, 1, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [], stages = 4, cost_ns = 1>} : (tensor<128x256xbf16>, tensor<4xf32>, tensor<256x256xbf16>, tensor<128x256xbf16>) -> tensor<128x256xf32> {
  ^bb0(%x: tensor<128x256xbf16>, %unused: tensor<4xf32>, %w: tensor<256x256xbf16>, %x2: tensor<128x256xbf16>):
    %z = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<128x256xf32>
    %f = linalg.fill ins(%z : f32) outs(%e : tensor<128x256xf32>) -> tensor<128x256xf32>
    %c = linalg.matmul ins(%x2, %w : tensor<128x256xbf16>, tensor<256x256xbf16>) outs(%f : tensor<128x256xf32>) -> tensor<128x256xf32>
    dsm.yield %c : tensor<128x256xf32>
  }
  return %r : tensor<128x256xf32>
}

// An already minimal chain is left as it is.
// CHECK-LABEL: func.func @minimal
// CHECK: dsm.fused_chain gemm(%{{.*}}, %{{.*}}) :
func.func @minimal(%a: tensor<128x256xbf16>, %b: tensor<256x256xbf16>) -> tensor<128x256xf32> {
  %r = dsm.fused_chain gemm(%a, %b) : (tensor<128x256xbf16>, tensor<256x256xbf16>) -> tensor<128x256xf32> {
  ^bb0(%x: tensor<128x256xbf16>, %w: tensor<256x256xbf16>):
    %z = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<128x256xf32>
    %f = linalg.fill ins(%z : f32) outs(%e : tensor<128x256xf32>) -> tensor<128x256xf32>
    %c = linalg.matmul ins(%x, %w : tensor<128x256xbf16>, tensor<256x256xbf16>) outs(%f : tensor<128x256xf32>) -> tensor<128x256xf32>
    dsm.yield %c : tensor<128x256xf32>
  }
  return %r : tensor<128x256xf32>
}

// RUN: ff-opt %s --dsm-search=dump=%t.json | FileCheck %s
// RUN: grep -o '"search_reused": [a-z]*' %t.json | FileCheck %s --check-prefix=DUMP

// Identical chains (a model's repeated layers) are searched once per run:
// @layer1 reuses @layer0's search, @dyn1 @dyn0's table; @layer2 (another
// weight layout) and @other (another M) are searched on their own. Each
// chain still gets its own schedule, the same as its twin's, and its own
// dump record, which says whether its search was reused.
// CHECK-LABEL: func.func @layer0
// CHECK: schedule = #dsm.schedule<[[$S:.*]]>}
// CHECK-LABEL: func.func @layer1
// CHECK: schedule = #dsm.schedule<[[$S]]>}
// CHECK-LABEL: func.func @dyn0
// CHECK: schedule = #dsm.schedule_table<[[$T:.*]]>}
// CHECK-LABEL: func.func @dyn1
// CHECK: schedule = #dsm.schedule_table<[[$T]]>}
// DUMP: "search_reused": false
// DUMP-NEXT: "search_reused": true
// DUMP-NEXT: "search_reused": false
// DUMP-NEXT: "search_reused": false
// DUMP-NEXT: "search_reused": false
// DUMP-NEXT: "search_reused": true
// DUMP-NOT: search_reused

#mk = affine_map<(d0, d1, d2) -> (d0, d2)>
#kn = affine_map<(d0, d1, d2) -> (d2, d1)>
#nk = affine_map<(d0, d1, d2) -> (d1, d2)>
#mn = affine_map<(d0, d1, d2) -> (d0, d1)>
module {
  func.func @layer0(%a: tensor<256x1024xbf16>, %b: tensor<4096x1024xbf16>) -> tensor<256x4096xf32> {
    %r = dsm.fused_chain gemm (%a, %b) : (tensor<256x1024xbf16>, tensor<4096x1024xbf16>) -> tensor<256x4096xf32> {
    ^bb0(%x: tensor<256x1024xbf16>, %w: tensor<4096x1024xbf16>):
      %cst = arith.constant 0.0 : f32
      %e = tensor.empty() : tensor<256x4096xf32>
      %f = linalg.fill ins(%cst : f32) outs(%e : tensor<256x4096xf32>) -> tensor<256x4096xf32>
      %mm = linalg.matmul indexing_maps = [#mk, #nk, #mn] ins(%x, %w : tensor<256x1024xbf16>, tensor<4096x1024xbf16>) outs(%f : tensor<256x4096xf32>) -> tensor<256x4096xf32>
      dsm.yield %mm : tensor<256x4096xf32>
    }
    return %r : tensor<256x4096xf32>
  }
  func.func @layer1(%a: tensor<256x1024xbf16>, %b: tensor<4096x1024xbf16>) -> tensor<256x4096xf32> {
    %r = dsm.fused_chain gemm (%a, %b) : (tensor<256x1024xbf16>, tensor<4096x1024xbf16>) -> tensor<256x4096xf32> {
    ^bb0(%x: tensor<256x1024xbf16>, %w: tensor<4096x1024xbf16>):
      %cst = arith.constant 0.0 : f32
      %e = tensor.empty() : tensor<256x4096xf32>
      %f = linalg.fill ins(%cst : f32) outs(%e : tensor<256x4096xf32>) -> tensor<256x4096xf32>
      %mm = linalg.matmul indexing_maps = [#mk, #nk, #mn] ins(%x, %w : tensor<256x1024xbf16>, tensor<4096x1024xbf16>) outs(%f : tensor<256x4096xf32>) -> tensor<256x4096xf32>
      dsm.yield %mm : tensor<256x4096xf32>
    }
    return %r : tensor<256x4096xf32>
  }
  func.func @layer2(%a: tensor<256x1024xbf16>, %b: tensor<1024x4096xbf16>) -> tensor<256x4096xf32> {
    %r = dsm.fused_chain gemm (%a, %b) : (tensor<256x1024xbf16>, tensor<1024x4096xbf16>) -> tensor<256x4096xf32> {
    ^bb0(%x: tensor<256x1024xbf16>, %w: tensor<1024x4096xbf16>):
      %cst = arith.constant 0.0 : f32
      %e = tensor.empty() : tensor<256x4096xf32>
      %f = linalg.fill ins(%cst : f32) outs(%e : tensor<256x4096xf32>) -> tensor<256x4096xf32>
      %mm = linalg.matmul indexing_maps = [#mk, #kn, #mn] ins(%x, %w : tensor<256x1024xbf16>, tensor<1024x4096xbf16>) outs(%f : tensor<256x4096xf32>) -> tensor<256x4096xf32>
      dsm.yield %mm : tensor<256x4096xf32>
    }
    return %r : tensor<256x4096xf32>
  }
  func.func @other(%a: tensor<128x1024xbf16>, %b: tensor<4096x1024xbf16>) -> tensor<128x4096xf32> {
    %r = dsm.fused_chain gemm (%a, %b) : (tensor<128x1024xbf16>, tensor<4096x1024xbf16>) -> tensor<128x4096xf32> {
    ^bb0(%x: tensor<128x1024xbf16>, %w: tensor<4096x1024xbf16>):
      %cst = arith.constant 0.0 : f32
      %e = tensor.empty() : tensor<128x4096xf32>
      %f = linalg.fill ins(%cst : f32) outs(%e : tensor<128x4096xf32>) -> tensor<128x4096xf32>
      %mm = linalg.matmul indexing_maps = [#mk, #nk, #mn] ins(%x, %w : tensor<128x1024xbf16>, tensor<4096x1024xbf16>) outs(%f : tensor<128x4096xf32>) -> tensor<128x4096xf32>
      dsm.yield %mm : tensor<128x4096xf32>
    }
    return %r : tensor<128x4096xf32>
  }
  func.func @dyn0(%a: tensor<?x1024xbf16>, %b: tensor<4096x1024xbf16>) -> tensor<?x4096xf32> {
    %r = dsm.fused_chain gemm (%a, %b) : (tensor<?x1024xbf16>, tensor<4096x1024xbf16>) -> tensor<?x4096xf32> {
    ^bb0(%x: tensor<?x1024xbf16>, %w: tensor<4096x1024xbf16>):
      %cst = arith.constant 0.0 : f32
      %c0 = arith.constant 0 : index
      %d0 = tensor.dim %x, %c0 : tensor<?x1024xbf16>
      %e = tensor.empty(%d0) : tensor<?x4096xf32>
      %f = linalg.fill ins(%cst : f32) outs(%e : tensor<?x4096xf32>) -> tensor<?x4096xf32>
      %mm = linalg.matmul indexing_maps = [#mk, #nk, #mn] ins(%x, %w : tensor<?x1024xbf16>, tensor<4096x1024xbf16>) outs(%f : tensor<?x4096xf32>) -> tensor<?x4096xf32>
      dsm.yield %mm : tensor<?x4096xf32>
    }
    return %r : tensor<?x4096xf32>
  }
  func.func @dyn1(%a: tensor<?x1024xbf16>, %b: tensor<4096x1024xbf16>) -> tensor<?x4096xf32> {
    %r = dsm.fused_chain gemm (%a, %b) : (tensor<?x1024xbf16>, tensor<4096x1024xbf16>) -> tensor<?x4096xf32> {
    ^bb0(%x: tensor<?x1024xbf16>, %w: tensor<4096x1024xbf16>):
      %cst = arith.constant 0.0 : f32
      %c0 = arith.constant 0 : index
      %d0 = tensor.dim %x, %c0 : tensor<?x1024xbf16>
      %e = tensor.empty(%d0) : tensor<?x4096xf32>
      %f = linalg.fill ins(%cst : f32) outs(%e : tensor<?x4096xf32>) -> tensor<?x4096xf32>
      %mm = linalg.matmul indexing_maps = [#mk, #nk, #mn] ins(%x, %w : tensor<?x1024xbf16>, tensor<4096x1024xbf16>) outs(%f : tensor<?x4096xf32>) -> tensor<?x4096xf32>
      dsm.yield %mm : tensor<?x4096xf32>
    }
    return %r : tensor<?x4096xf32>
  }
}

// RUN: ff-opt %s --dsm-search=sequences=false -verify-diagnostics | FileCheck %s --check-prefixes=CHECK,ANY
// RUN: ff-opt %s --dsm-search="family=reduce-scatter" -verify-diagnostics | FileCheck %s --check-prefixes=CHECK,RS

// The plans --dsm-search chooses for the conv chains C1-C8 of FlashFuser
// Table V written as GEMM chains, at batch 1 (c*_b1) and 32 (c*_b32):
// 1x1 convs are [N*H*W, IC] x [IC, OC1] matmuls, 3x3 convs an im2col
// [N*H*W, 9*IC] x [9*IC, OC1] matmul; the second conv is 1x1.
//
// CHECK lines hold for both runs. Solo plans (a cluster of one, grid n = 1:
// each CTA computes its m tile's whole chain) of a full wave or more (C1,
// C5 and C6 at batch 32) are priced at the streamed family's rates and
// cost per l chunk; C1 at batch 32 thus takes one in both runs, C6 at batch
// 32 64-row tiles at three stages. A solo CTA's shared memory is its ring,
// C tile and two D stages, its registers as ptxas allots them (every
// thread alike, or the whole file with setmaxnreg at 384 threads), and
// one alone on its SM exposes its last l chunk's E store: C5 at batch 1
// takes four stages. At one CTA per SM and one to eight waves of tiles the
// kernel is persistent (the next tile's operands load under the current
// tile's last chunks): C5 at batch 32 takes one 256-wide chunk per tile at
// one CTA per SM. So are streamed-n plans on a cluster of one: C2 at batch
// 32 takes 392 64-row tiles at one CTA per SM (three waves). ANY lines: by default (family=any) C1 at
// batch 1 and C2 and C3 at batch 32 take streamed-n plans (spatial = [m]:
// one CTA per m tile walks the n tiles, E in registers; C3's L = 256 over
// two warpgroups that split the columns); C3, C4 and
// C6-C8 at batch 1 and C4 and C6-C8 at batch 32 take shuffle-family plans
// (cls_l = cls_n * cls_k, block[3] = L / cls_l; inter_cluster_reduce only when
// grid n > 1); C7 and C8 at batch 1 (GEMM0 output of at most 16 tiles, K >=
// 2048) split K over the cluster (cls_k > 1, spatial k, all_exchange before
// the gather; C8's cls_n = 1: the k group's ranks gather each other's rows). RS lines: restricted to the reduce-scatter family
// (family=reduce-scatter), chains whose N fits one cluster reduce E in DSM
// only; the wide C4 (both batches) and C8 at batch 1 take tiles without
// clusters (C4 at batch 32: 128x256, fastest on the H200 sweep) and reduce E
// across grid n only.


// CHECK: module attributes {dsm.target = #dsm.target<name = "h100-sxm"
// CHECK-LABEL: func.func @c1_b1(
// ANY: dsm.fused_chain {{.*}} {schedule = #dsm.schedule<cluster = [1, 1, 1, 1], block = [64, 128, 64, 64], grid = [49, 1, 1, 1], order = [m, n, k, l], spatial = [m], residency = [smem], collectives = [], stages = 4, cost_ns = {{[0-9]+}}>}
// RS: dsm.fused_chain {{.*}} {schedule = #dsm.schedule<cluster = [1, 1, 1, 1], block = [64, 256, 64, 64], grid = [49, 1, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [smem], collectives = [], stages = 3, cost_ns = {{[0-9]+}}>}

func.func @c1_b1(%a: tensor<3136x64xbf16>, %b: tensor<64x256xbf16>, %d: tensor<256x64xbf16>) -> tensor<3136x64xbf16> {
  %e = dsm.fused_chain ffn (%a, %b, %d)
      : (tensor<3136x64xbf16>, tensor<64x256xbf16>, tensor<256x64xbf16>) -> tensor<3136x64xbf16> {
  ^bb0(%x: tensor<3136x64xbf16>, %w1: tensor<64x256xbf16>, %w2: tensor<256x64xbf16>):
    %zero = arith.constant 0.0 : f32
    %c0e = tensor.empty() : tensor<3136x256xf32>
    %cf = linalg.fill ins(%zero : f32) outs(%c0e : tensor<3136x256xf32>) -> tensor<3136x256xf32>
    %c = linalg.matmul ins(%x, %w1 : tensor<3136x64xbf16>, tensor<64x256xbf16>) outs(%cf : tensor<3136x256xf32>) -> tensor<3136x256xf32>
    %h0 = tensor.empty() : tensor<3136x256xbf16>
    %h = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%c : tensor<3136x256xf32>) outs(%h0 : tensor<3136x256xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %r = arith.maximumf %in, %zero : f32
      %t = arith.truncf %r : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<3136x256xbf16>
    %e0 = tensor.empty() : tensor<3136x64xf32>
    %ef = linalg.fill ins(%zero : f32) outs(%e0 : tensor<3136x64xf32>) -> tensor<3136x64xf32>
    %ea = linalg.matmul ins(%h, %w2 : tensor<3136x256xbf16>, tensor<256x64xbf16>) outs(%ef : tensor<3136x64xf32>) -> tensor<3136x64xf32>
    %o0 = tensor.empty() : tensor<3136x64xbf16>
    %o = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%ea : tensor<3136x64xf32>) outs(%o0 : tensor<3136x64xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %t = arith.truncf %in : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<3136x64xbf16>
    dsm.yield %o : tensor<3136x64xbf16>
  }
  return %e : tensor<3136x64xbf16>
}

// CHECK-LABEL: func.func @c2_b1(
// ANY: dsm.fused_chain {{.*}} {schedule = #dsm.schedule<cluster = [1, 4, 1, 1], block = [64, 128, 64, 128], grid = [13, 1, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [smem], collectives = [reduce_scatter], stages = 4, cost_ns = {{[0-9]+}}>}
// RS: dsm.fused_chain {{.*}} {schedule = #dsm.schedule<cluster = [1, 4, 1, 1], block = [64, 128, 64, 128], grid = [13, 1, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [smem], collectives = [reduce_scatter], stages = 4, cost_ns = {{[0-9]+}}>}

func.func @c2_b1(%a: tensor<784x128xbf16>, %b: tensor<128x512xbf16>, %d: tensor<512x128xbf16>) -> tensor<784x128xbf16> {
  %e = dsm.fused_chain ffn (%a, %b, %d)
      : (tensor<784x128xbf16>, tensor<128x512xbf16>, tensor<512x128xbf16>) -> tensor<784x128xbf16> {
  ^bb0(%x: tensor<784x128xbf16>, %w1: tensor<128x512xbf16>, %w2: tensor<512x128xbf16>):
    %zero = arith.constant 0.0 : f32
    %c0e = tensor.empty() : tensor<784x512xf32>
    %cf = linalg.fill ins(%zero : f32) outs(%c0e : tensor<784x512xf32>) -> tensor<784x512xf32>
    %c = linalg.matmul ins(%x, %w1 : tensor<784x128xbf16>, tensor<128x512xbf16>) outs(%cf : tensor<784x512xf32>) -> tensor<784x512xf32>
    %h0 = tensor.empty() : tensor<784x512xbf16>
    %h = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%c : tensor<784x512xf32>) outs(%h0 : tensor<784x512xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %r = arith.maximumf %in, %zero : f32
      %t = arith.truncf %r : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<784x512xbf16>
    %e0 = tensor.empty() : tensor<784x128xf32>
    %ef = linalg.fill ins(%zero : f32) outs(%e0 : tensor<784x128xf32>) -> tensor<784x128xf32>
    %ea = linalg.matmul ins(%h, %w2 : tensor<784x512xbf16>, tensor<512x128xbf16>) outs(%ef : tensor<784x128xf32>) -> tensor<784x128xf32>
    %o0 = tensor.empty() : tensor<784x128xbf16>
    %o = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%ea : tensor<784x128xf32>) outs(%o0 : tensor<784x128xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %t = arith.truncf %in : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<784x128xbf16>
    dsm.yield %o : tensor<784x128xbf16>
  }
  return %e : tensor<784x128xbf16>
}

// CHECK-LABEL: func.func @c3_b1(
// ANY: dsm.fused_chain {{.*}} {schedule = #dsm.schedule<cluster = [1, 4, 1, 4], block = [64, 64, 64, 64], grid = [4, 4, 1, 1], order = [m, n, l, k], spatial = [m, n, l], residency = [dsm], collectives = [shuffle, inter_cluster_reduce], stages = 4, cost_ns = {{[0-9]+}}>}
// RS: dsm.fused_chain {{.*}} {schedule = #dsm.schedule<cluster = [1, 8, 1, 1], block = [64, 64, 64, 256], grid = [4, 2, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [smem], collectives = [reduce_scatter, inter_cluster_reduce], stages = 3, cost_ns = {{[0-9]+}}>}

func.func @c3_b1(%a: tensor<196x256xbf16>, %b: tensor<256x1024xbf16>, %d: tensor<1024x256xbf16>) -> tensor<196x256xbf16> {
  %e = dsm.fused_chain ffn (%a, %b, %d)
      : (tensor<196x256xbf16>, tensor<256x1024xbf16>, tensor<1024x256xbf16>) -> tensor<196x256xbf16> {
  ^bb0(%x: tensor<196x256xbf16>, %w1: tensor<256x1024xbf16>, %w2: tensor<1024x256xbf16>):
    %zero = arith.constant 0.0 : f32
    %c0e = tensor.empty() : tensor<196x1024xf32>
    %cf = linalg.fill ins(%zero : f32) outs(%c0e : tensor<196x1024xf32>) -> tensor<196x1024xf32>
    %c = linalg.matmul ins(%x, %w1 : tensor<196x256xbf16>, tensor<256x1024xbf16>) outs(%cf : tensor<196x1024xf32>) -> tensor<196x1024xf32>
    %h0 = tensor.empty() : tensor<196x1024xbf16>
    %h = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%c : tensor<196x1024xf32>) outs(%h0 : tensor<196x1024xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %r = arith.maximumf %in, %zero : f32
      %t = arith.truncf %r : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<196x1024xbf16>
    %e0 = tensor.empty() : tensor<196x256xf32>
    %ef = linalg.fill ins(%zero : f32) outs(%e0 : tensor<196x256xf32>) -> tensor<196x256xf32>
    %ea = linalg.matmul ins(%h, %w2 : tensor<196x1024xbf16>, tensor<1024x256xbf16>) outs(%ef : tensor<196x256xf32>) -> tensor<196x256xf32>
    %o0 = tensor.empty() : tensor<196x256xbf16>
    %o = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%ea : tensor<196x256xf32>) outs(%o0 : tensor<196x256xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %t = arith.truncf %in : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<196x256xbf16>
    dsm.yield %o : tensor<196x256xbf16>
  }
  return %e : tensor<196x256xbf16>
}

// CHECK-LABEL: func.func @c4_b1(
// ANY: dsm.fused_chain {{.*}} {schedule = #dsm.schedule<cluster = [1, 4, 1, 4], block = [64, 64, 64, 128], grid = [1, 8, 1, 1], order = [m, n, l, k], spatial = [m, n, l], residency = [dsm], collectives = [shuffle, inter_cluster_reduce], stages = 4, cost_ns = {{[0-9]+}}>}
// RS: dsm.fused_chain {{.*}} {schedule = #dsm.schedule<cluster = [1, 8, 1, 1], block = [64, 64, 64, 256], grid = [1, 4, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [smem], collectives = [reduce_scatter, inter_cluster_reduce], stages = 3, cost_ns = {{[0-9]+}}>}

func.func @c4_b1(%a: tensor<49x512xbf16>, %b: tensor<512x2048xbf16>, %d: tensor<2048x512xbf16>) -> tensor<49x512xbf16> {
  %e = dsm.fused_chain ffn (%a, %b, %d)
      : (tensor<49x512xbf16>, tensor<512x2048xbf16>, tensor<2048x512xbf16>) -> tensor<49x512xbf16> {
  ^bb0(%x: tensor<49x512xbf16>, %w1: tensor<512x2048xbf16>, %w2: tensor<2048x512xbf16>):
    %zero = arith.constant 0.0 : f32
    %c0e = tensor.empty() : tensor<49x2048xf32>
    %cf = linalg.fill ins(%zero : f32) outs(%c0e : tensor<49x2048xf32>) -> tensor<49x2048xf32>
    %c = linalg.matmul ins(%x, %w1 : tensor<49x512xbf16>, tensor<512x2048xbf16>) outs(%cf : tensor<49x2048xf32>) -> tensor<49x2048xf32>
    %h0 = tensor.empty() : tensor<49x2048xbf16>
    %h = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%c : tensor<49x2048xf32>) outs(%h0 : tensor<49x2048xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %r = arith.maximumf %in, %zero : f32
      %t = arith.truncf %r : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<49x2048xbf16>
    %e0 = tensor.empty() : tensor<49x512xf32>
    %ef = linalg.fill ins(%zero : f32) outs(%e0 : tensor<49x512xf32>) -> tensor<49x512xf32>
    %ea = linalg.matmul ins(%h, %w2 : tensor<49x2048xbf16>, tensor<2048x512xbf16>) outs(%ef : tensor<49x512xf32>) -> tensor<49x512xf32>
    %o0 = tensor.empty() : tensor<49x512xbf16>
    %o = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%ea : tensor<49x512xf32>) outs(%o0 : tensor<49x512xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %t = arith.truncf %in : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<49x512xbf16>
    dsm.yield %o : tensor<49x512xbf16>
  }
  return %e : tensor<49x512xbf16>
}

// CHECK-LABEL: func.func @c5_b1(
// CHECK: dsm.fused_chain {{.*}} {schedule = #dsm.schedule<cluster = [1, 1, 1, 1], block = [64, 64, 64, 256], grid = [49, 1, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [smem], collectives = [], stages = 4, cost_ns = {{[0-9]+}}>}

func.func @c5_b1(%a: tensor<3136x576xbf16>, %b: tensor<576x64xbf16>, %d: tensor<64x256xbf16>) -> tensor<3136x256xbf16> {
  %e = dsm.fused_chain ffn (%a, %b, %d)
      : (tensor<3136x576xbf16>, tensor<576x64xbf16>, tensor<64x256xbf16>) -> tensor<3136x256xbf16> {
  ^bb0(%x: tensor<3136x576xbf16>, %w1: tensor<576x64xbf16>, %w2: tensor<64x256xbf16>):
    %zero = arith.constant 0.0 : f32
    %c0e = tensor.empty() : tensor<3136x64xf32>
    %cf = linalg.fill ins(%zero : f32) outs(%c0e : tensor<3136x64xf32>) -> tensor<3136x64xf32>
    %c = linalg.matmul ins(%x, %w1 : tensor<3136x576xbf16>, tensor<576x64xbf16>) outs(%cf : tensor<3136x64xf32>) -> tensor<3136x64xf32>
    %h0 = tensor.empty() : tensor<3136x64xbf16>
    %h = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%c : tensor<3136x64xf32>) outs(%h0 : tensor<3136x64xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %r = arith.maximumf %in, %zero : f32
      %t = arith.truncf %r : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<3136x64xbf16>
    %e0 = tensor.empty() : tensor<3136x256xf32>
    %ef = linalg.fill ins(%zero : f32) outs(%e0 : tensor<3136x256xf32>) -> tensor<3136x256xf32>
    %ea = linalg.matmul ins(%h, %w2 : tensor<3136x64xbf16>, tensor<64x256xbf16>) outs(%ef : tensor<3136x256xf32>) -> tensor<3136x256xf32>
    %o0 = tensor.empty() : tensor<3136x256xbf16>
    %o = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%ea : tensor<3136x256xf32>) outs(%o0 : tensor<3136x256xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %t = arith.truncf %in : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<3136x256xbf16>
    dsm.yield %o : tensor<3136x256xbf16>
  }
  return %e : tensor<3136x256xbf16>
}

// CHECK-LABEL: func.func @c6_b1(
// ANY: dsm.fused_chain {{.*}} {schedule = #dsm.schedule<cluster = [1, 2, 1, 2], block = [64, 64, 64, 256], grid = [13, 1, 1, 1], order = [m, n, l, k], spatial = [m, n, l], residency = [dsm], collectives = [shuffle], stages = 4, cost_ns = {{[0-9]+}}>}
// RS: dsm.fused_chain {{.*}} {schedule = #dsm.schedule<cluster = [1, 2, 1, 1], block = [64, 64, 64, 256], grid = [13, 1, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [smem], collectives = [reduce_scatter], stages = 3, cost_ns = {{[0-9]+}}>}

func.func @c6_b1(%a: tensor<784x1152xbf16>, %b: tensor<1152x128xbf16>, %d: tensor<128x512xbf16>) -> tensor<784x512xbf16> {
  %e = dsm.fused_chain ffn (%a, %b, %d)
      : (tensor<784x1152xbf16>, tensor<1152x128xbf16>, tensor<128x512xbf16>) -> tensor<784x512xbf16> {
  ^bb0(%x: tensor<784x1152xbf16>, %w1: tensor<1152x128xbf16>, %w2: tensor<128x512xbf16>):
    %zero = arith.constant 0.0 : f32
    %c0e = tensor.empty() : tensor<784x128xf32>
    %cf = linalg.fill ins(%zero : f32) outs(%c0e : tensor<784x128xf32>) -> tensor<784x128xf32>
    %c = linalg.matmul ins(%x, %w1 : tensor<784x1152xbf16>, tensor<1152x128xbf16>) outs(%cf : tensor<784x128xf32>) -> tensor<784x128xf32>
    %h0 = tensor.empty() : tensor<784x128xbf16>
    %h = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%c : tensor<784x128xf32>) outs(%h0 : tensor<784x128xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %r = arith.maximumf %in, %zero : f32
      %t = arith.truncf %r : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<784x128xbf16>
    %e0 = tensor.empty() : tensor<784x512xf32>
    %ef = linalg.fill ins(%zero : f32) outs(%e0 : tensor<784x512xf32>) -> tensor<784x512xf32>
    %ea = linalg.matmul ins(%h, %w2 : tensor<784x128xbf16>, tensor<128x512xbf16>) outs(%ef : tensor<784x512xf32>) -> tensor<784x512xf32>
    %o0 = tensor.empty() : tensor<784x512xbf16>
    %o = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%ea : tensor<784x512xf32>) outs(%o0 : tensor<784x512xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %t = arith.truncf %in : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<784x512xbf16>
    dsm.yield %o : tensor<784x512xbf16>
  }
  return %e : tensor<784x512xbf16>
}

// CHECK-LABEL: func.func @c7_b1(
// ANY: dsm.fused_chain {{.*}} {schedule = #dsm.schedule<cluster = [1, 4, 2, 8], block = [64, 64, 1152, 128], grid = [4, 1, 1, 1], order = [m, n, k, l], spatial = [m, n, k, l], residency = [dsm], collectives = [all_exchange, shuffle], stages = 4, cost_ns = {{[0-9]+}}>}
// RS: dsm.fused_chain {{.*}} {schedule = #dsm.schedule<cluster = [1, 4, 1, 1], block = [64, 64, 64, 256], grid = [4, 1, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [smem], collectives = [reduce_scatter], stages = 3, cost_ns = {{[0-9]+}}>}

func.func @c7_b1(%a: tensor<196x2304xbf16>, %b: tensor<2304x256xbf16>, %d: tensor<256x1024xbf16>) -> tensor<196x1024xbf16> {
  %e = dsm.fused_chain ffn (%a, %b, %d)
      : (tensor<196x2304xbf16>, tensor<2304x256xbf16>, tensor<256x1024xbf16>) -> tensor<196x1024xbf16> {
  ^bb0(%x: tensor<196x2304xbf16>, %w1: tensor<2304x256xbf16>, %w2: tensor<256x1024xbf16>):
    %zero = arith.constant 0.0 : f32
    %c0e = tensor.empty() : tensor<196x256xf32>
    %cf = linalg.fill ins(%zero : f32) outs(%c0e : tensor<196x256xf32>) -> tensor<196x256xf32>
    %c = linalg.matmul ins(%x, %w1 : tensor<196x2304xbf16>, tensor<2304x256xbf16>) outs(%cf : tensor<196x256xf32>) -> tensor<196x256xf32>
    %h0 = tensor.empty() : tensor<196x256xbf16>
    %h = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%c : tensor<196x256xf32>) outs(%h0 : tensor<196x256xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %r = arith.maximumf %in, %zero : f32
      %t = arith.truncf %r : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<196x256xbf16>
    %e0 = tensor.empty() : tensor<196x1024xf32>
    %ef = linalg.fill ins(%zero : f32) outs(%e0 : tensor<196x1024xf32>) -> tensor<196x1024xf32>
    %ea = linalg.matmul ins(%h, %w2 : tensor<196x256xbf16>, tensor<256x1024xbf16>) outs(%ef : tensor<196x1024xf32>) -> tensor<196x1024xf32>
    %o0 = tensor.empty() : tensor<196x1024xbf16>
    %o = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%ea : tensor<196x1024xf32>) outs(%o0 : tensor<196x1024xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %t = arith.truncf %in : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<196x1024xbf16>
    dsm.yield %o : tensor<196x1024xbf16>
  }
  return %e : tensor<196x1024xbf16>
}

// CHECK-LABEL: func.func @c8_b1(
// ANY: dsm.fused_chain {{.*}} {schedule = #dsm.schedule<cluster = [1, 1, 8, 8], block = [64, 64, 576, 256], grid = [1, 8, 1, 1], order = [m, n, k, l], spatial = [m, n, k, l], residency = [dsm], collectives = [all_exchange, inter_cluster_reduce], stages = 4, cost_ns = {{[0-9]+}}>}
// RS: dsm.fused_chain {{.*}} {schedule = #dsm.schedule<cluster = [1, 8, 1, 1], block = [64, 64, 64, 256], grid = [1, 1, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [smem], collectives = [reduce_scatter], stages = 3, cost_ns = {{[0-9]+}}>}

func.func @c8_b1(%a: tensor<49x4608xbf16>, %b: tensor<4608x512xbf16>, %d: tensor<512x2048xbf16>) -> tensor<49x2048xbf16> {
  %e = dsm.fused_chain ffn (%a, %b, %d)
      : (tensor<49x4608xbf16>, tensor<4608x512xbf16>, tensor<512x2048xbf16>) -> tensor<49x2048xbf16> {
  ^bb0(%x: tensor<49x4608xbf16>, %w1: tensor<4608x512xbf16>, %w2: tensor<512x2048xbf16>):
    %zero = arith.constant 0.0 : f32
    %c0e = tensor.empty() : tensor<49x512xf32>
    %cf = linalg.fill ins(%zero : f32) outs(%c0e : tensor<49x512xf32>) -> tensor<49x512xf32>
    %c = linalg.matmul ins(%x, %w1 : tensor<49x4608xbf16>, tensor<4608x512xbf16>) outs(%cf : tensor<49x512xf32>) -> tensor<49x512xf32>
    %h0 = tensor.empty() : tensor<49x512xbf16>
    %h = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%c : tensor<49x512xf32>) outs(%h0 : tensor<49x512xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %r = arith.maximumf %in, %zero : f32
      %t = arith.truncf %r : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<49x512xbf16>
    %e0 = tensor.empty() : tensor<49x2048xf32>
    %ef = linalg.fill ins(%zero : f32) outs(%e0 : tensor<49x2048xf32>) -> tensor<49x2048xf32>
    %ea = linalg.matmul ins(%h, %w2 : tensor<49x512xbf16>, tensor<512x2048xbf16>) outs(%ef : tensor<49x2048xf32>) -> tensor<49x2048xf32>
    %o0 = tensor.empty() : tensor<49x2048xbf16>
    %o = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%ea : tensor<49x2048xf32>) outs(%o0 : tensor<49x2048xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %t = arith.truncf %in : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<49x2048xbf16>
    dsm.yield %o : tensor<49x2048xbf16>
  }
  return %e : tensor<49x2048xbf16>
}

// CHECK-LABEL: func.func @c1_b32(
// CHECK: dsm.fused_chain {{.*}} {schedule = #dsm.schedule<cluster = [1, 1, 1, 1], block = [128, 256, 64, 64], grid = [784, 1, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [smem], collectives = [], stages = 2, cost_ns = {{[0-9]+}}>}

func.func @c1_b32(%a: tensor<100352x64xbf16>, %b: tensor<64x256xbf16>, %d: tensor<256x64xbf16>) -> tensor<100352x64xbf16> {
  %e = dsm.fused_chain ffn (%a, %b, %d)
      : (tensor<100352x64xbf16>, tensor<64x256xbf16>, tensor<256x64xbf16>) -> tensor<100352x64xbf16> {
  ^bb0(%x: tensor<100352x64xbf16>, %w1: tensor<64x256xbf16>, %w2: tensor<256x64xbf16>):
    %zero = arith.constant 0.0 : f32
    %c0e = tensor.empty() : tensor<100352x256xf32>
    %cf = linalg.fill ins(%zero : f32) outs(%c0e : tensor<100352x256xf32>) -> tensor<100352x256xf32>
    %c = linalg.matmul ins(%x, %w1 : tensor<100352x64xbf16>, tensor<64x256xbf16>) outs(%cf : tensor<100352x256xf32>) -> tensor<100352x256xf32>
    %h0 = tensor.empty() : tensor<100352x256xbf16>
    %h = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%c : tensor<100352x256xf32>) outs(%h0 : tensor<100352x256xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %r = arith.maximumf %in, %zero : f32
      %t = arith.truncf %r : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<100352x256xbf16>
    %e0 = tensor.empty() : tensor<100352x64xf32>
    %ef = linalg.fill ins(%zero : f32) outs(%e0 : tensor<100352x64xf32>) -> tensor<100352x64xf32>
    %ea = linalg.matmul ins(%h, %w2 : tensor<100352x256xbf16>, tensor<256x64xbf16>) outs(%ef : tensor<100352x64xf32>) -> tensor<100352x64xf32>
    %o0 = tensor.empty() : tensor<100352x64xbf16>
    %o = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%ea : tensor<100352x64xf32>) outs(%o0 : tensor<100352x64xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %t = arith.truncf %in : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<100352x64xbf16>
    dsm.yield %o : tensor<100352x64xbf16>
  }
  return %e : tensor<100352x64xbf16>
}

// CHECK-LABEL: func.func @c2_b32(
// ANY: dsm.fused_chain {{.*}} {schedule = #dsm.schedule<cluster = [1, 1, 1, 1], block = [64, 128, 64, 128], grid = [392, 1, 1, 1], order = [m, n, k, l], spatial = [m], residency = [smem], collectives = [], stages = 4, cost_ns = {{[0-9]+}}>}
// RS: dsm.fused_chain {{.*}} {schedule = #dsm.schedule<cluster = [1, 4, 1, 1], block = [128, 128, 64, 128], grid = [196, 1, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [smem], collectives = [reduce_scatter], stages = 2, cost_ns = {{[0-9]+}}>}

func.func @c2_b32(%a: tensor<25088x128xbf16>, %b: tensor<128x512xbf16>, %d: tensor<512x128xbf16>) -> tensor<25088x128xbf16> {
  %e = dsm.fused_chain ffn (%a, %b, %d)
      : (tensor<25088x128xbf16>, tensor<128x512xbf16>, tensor<512x128xbf16>) -> tensor<25088x128xbf16> {
  ^bb0(%x: tensor<25088x128xbf16>, %w1: tensor<128x512xbf16>, %w2: tensor<512x128xbf16>):
    %zero = arith.constant 0.0 : f32
    %c0e = tensor.empty() : tensor<25088x512xf32>
    %cf = linalg.fill ins(%zero : f32) outs(%c0e : tensor<25088x512xf32>) -> tensor<25088x512xf32>
    %c = linalg.matmul ins(%x, %w1 : tensor<25088x128xbf16>, tensor<128x512xbf16>) outs(%cf : tensor<25088x512xf32>) -> tensor<25088x512xf32>
    %h0 = tensor.empty() : tensor<25088x512xbf16>
    %h = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%c : tensor<25088x512xf32>) outs(%h0 : tensor<25088x512xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %r = arith.maximumf %in, %zero : f32
      %t = arith.truncf %r : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<25088x512xbf16>
    %e0 = tensor.empty() : tensor<25088x128xf32>
    %ef = linalg.fill ins(%zero : f32) outs(%e0 : tensor<25088x128xf32>) -> tensor<25088x128xf32>
    %ea = linalg.matmul ins(%h, %w2 : tensor<25088x512xbf16>, tensor<512x128xbf16>) outs(%ef : tensor<25088x128xf32>) -> tensor<25088x128xf32>
    %o0 = tensor.empty() : tensor<25088x128xbf16>
    %o = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%ea : tensor<25088x128xf32>) outs(%o0 : tensor<25088x128xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %t = arith.truncf %in : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<25088x128xbf16>
    dsm.yield %o : tensor<25088x128xbf16>
  }
  return %e : tensor<25088x128xbf16>
}

// CHECK-LABEL: func.func @c3_b32(
// ANY: dsm.fused_chain {{.*}} {schedule = #dsm.schedule<cluster = [1, 1, 1, 1], block = [64, 128, 64, 256], grid = [98, 1, 1, 1], order = [m, n, k, l], spatial = [m], residency = [smem], collectives = [], stages = 3, cost_ns = {{[0-9]+}}>}
// RS: dsm.fused_chain {{.*}} {schedule = #dsm.schedule<cluster = [1, 8, 1, 1], block = [128, 128, 64, 128], grid = [49, 1, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [smem], collectives = [reduce_scatter], stages = 2, cost_ns = {{[0-9]+}}>}

func.func @c3_b32(%a: tensor<6272x256xbf16>, %b: tensor<256x1024xbf16>, %d: tensor<1024x256xbf16>) -> tensor<6272x256xbf16> {
  %e = dsm.fused_chain ffn (%a, %b, %d)
      : (tensor<6272x256xbf16>, tensor<256x1024xbf16>, tensor<1024x256xbf16>) -> tensor<6272x256xbf16> {
  ^bb0(%x: tensor<6272x256xbf16>, %w1: tensor<256x1024xbf16>, %w2: tensor<1024x256xbf16>):
    %zero = arith.constant 0.0 : f32
    %c0e = tensor.empty() : tensor<6272x1024xf32>
    %cf = linalg.fill ins(%zero : f32) outs(%c0e : tensor<6272x1024xf32>) -> tensor<6272x1024xf32>
    %c = linalg.matmul ins(%x, %w1 : tensor<6272x256xbf16>, tensor<256x1024xbf16>) outs(%cf : tensor<6272x1024xf32>) -> tensor<6272x1024xf32>
    %h0 = tensor.empty() : tensor<6272x1024xbf16>
    %h = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%c : tensor<6272x1024xf32>) outs(%h0 : tensor<6272x1024xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %r = arith.maximumf %in, %zero : f32
      %t = arith.truncf %r : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<6272x1024xbf16>
    %e0 = tensor.empty() : tensor<6272x256xf32>
    %ef = linalg.fill ins(%zero : f32) outs(%e0 : tensor<6272x256xf32>) -> tensor<6272x256xf32>
    %ea = linalg.matmul ins(%h, %w2 : tensor<6272x1024xbf16>, tensor<1024x256xbf16>) outs(%ef : tensor<6272x256xf32>) -> tensor<6272x256xf32>
    %o0 = tensor.empty() : tensor<6272x256xbf16>
    %o = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%ea : tensor<6272x256xf32>) outs(%o0 : tensor<6272x256xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %t = arith.truncf %in : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<6272x256xbf16>
    dsm.yield %o : tensor<6272x256xbf16>
  }
  return %e : tensor<6272x256xbf16>
}

// CHECK-LABEL: func.func @c4_b32(
// ANY: dsm.fused_chain {{.*}} {schedule = #dsm.schedule<cluster = [1, 2, 1, 2], block = [128, 256, 64, 256], grid = [13, 4, 1, 1], order = [m, n, l, k], spatial = [m, n, l], residency = [dsm], collectives = [shuffle, inter_cluster_reduce], stages = 4, cost_ns = {{[0-9]+}}>}
// RS: dsm.fused_chain {{.*}} {schedule = #dsm.schedule<cluster = [1, 1, 1, 1], block = [128, 256, 64, 64], grid = [13, 8, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [smem], collectives = [inter_cluster_reduce], stages = 2, cost_ns = {{[0-9]+}}>}

func.func @c4_b32(%a: tensor<1568x512xbf16>, %b: tensor<512x2048xbf16>, %d: tensor<2048x512xbf16>) -> tensor<1568x512xbf16> {
  %e = dsm.fused_chain ffn (%a, %b, %d)
      : (tensor<1568x512xbf16>, tensor<512x2048xbf16>, tensor<2048x512xbf16>) -> tensor<1568x512xbf16> {
  ^bb0(%x: tensor<1568x512xbf16>, %w1: tensor<512x2048xbf16>, %w2: tensor<2048x512xbf16>):
    %zero = arith.constant 0.0 : f32
    %c0e = tensor.empty() : tensor<1568x2048xf32>
    %cf = linalg.fill ins(%zero : f32) outs(%c0e : tensor<1568x2048xf32>) -> tensor<1568x2048xf32>
    %c = linalg.matmul ins(%x, %w1 : tensor<1568x512xbf16>, tensor<512x2048xbf16>) outs(%cf : tensor<1568x2048xf32>) -> tensor<1568x2048xf32>
    %h0 = tensor.empty() : tensor<1568x2048xbf16>
    %h = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%c : tensor<1568x2048xf32>) outs(%h0 : tensor<1568x2048xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %r = arith.maximumf %in, %zero : f32
      %t = arith.truncf %r : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<1568x2048xbf16>
    %e0 = tensor.empty() : tensor<1568x512xf32>
    %ef = linalg.fill ins(%zero : f32) outs(%e0 : tensor<1568x512xf32>) -> tensor<1568x512xf32>
    %ea = linalg.matmul ins(%h, %w2 : tensor<1568x2048xbf16>, tensor<2048x512xbf16>) outs(%ef : tensor<1568x512xf32>) -> tensor<1568x512xf32>
    %o0 = tensor.empty() : tensor<1568x512xbf16>
    %o = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%ea : tensor<1568x512xf32>) outs(%o0 : tensor<1568x512xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %t = arith.truncf %in : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<1568x512xbf16>
    dsm.yield %o : tensor<1568x512xbf16>
  }
  return %e : tensor<1568x512xbf16>
}

// CHECK-LABEL: func.func @c5_b32(
// CHECK: dsm.fused_chain {{.*}} {schedule = #dsm.schedule<cluster = [1, 1, 1, 1], block = [128, 64, 64, 256], grid = [784, 1, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [smem], collectives = [], stages = 4, cost_ns = {{[0-9]+}}>}

func.func @c5_b32(%a: tensor<100352x576xbf16>, %b: tensor<576x64xbf16>, %d: tensor<64x256xbf16>) -> tensor<100352x256xbf16> {
  %e = dsm.fused_chain ffn (%a, %b, %d)
      : (tensor<100352x576xbf16>, tensor<576x64xbf16>, tensor<64x256xbf16>) -> tensor<100352x256xbf16> {
  ^bb0(%x: tensor<100352x576xbf16>, %w1: tensor<576x64xbf16>, %w2: tensor<64x256xbf16>):
    %zero = arith.constant 0.0 : f32
    %c0e = tensor.empty() : tensor<100352x64xf32>
    %cf = linalg.fill ins(%zero : f32) outs(%c0e : tensor<100352x64xf32>) -> tensor<100352x64xf32>
    %c = linalg.matmul ins(%x, %w1 : tensor<100352x576xbf16>, tensor<576x64xbf16>) outs(%cf : tensor<100352x64xf32>) -> tensor<100352x64xf32>
    %h0 = tensor.empty() : tensor<100352x64xbf16>
    %h = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%c : tensor<100352x64xf32>) outs(%h0 : tensor<100352x64xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %r = arith.maximumf %in, %zero : f32
      %t = arith.truncf %r : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<100352x64xbf16>
    %e0 = tensor.empty() : tensor<100352x256xf32>
    %ef = linalg.fill ins(%zero : f32) outs(%e0 : tensor<100352x256xf32>) -> tensor<100352x256xf32>
    %ea = linalg.matmul ins(%h, %w2 : tensor<100352x64xbf16>, tensor<64x256xbf16>) outs(%ef : tensor<100352x256xf32>) -> tensor<100352x256xf32>
    %o0 = tensor.empty() : tensor<100352x256xbf16>
    %o = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%ea : tensor<100352x256xf32>) outs(%o0 : tensor<100352x256xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %t = arith.truncf %in : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<100352x256xbf16>
    dsm.yield %o : tensor<100352x256xbf16>
  }
  return %e : tensor<100352x256xbf16>
}

// CHECK-LABEL: func.func @c6_b32(
// CHECK: dsm.fused_chain {{.*}} {schedule = #dsm.schedule<cluster = [1, 1, 1, 1], block = [64, 128, 64, 256], grid = [392, 1, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [smem], collectives = [], stages = 3, cost_ns = {{[0-9]+}}>}

func.func @c6_b32(%a: tensor<25088x1152xbf16>, %b: tensor<1152x128xbf16>, %d: tensor<128x512xbf16>) -> tensor<25088x512xbf16> {
  %e = dsm.fused_chain ffn (%a, %b, %d)
      : (tensor<25088x1152xbf16>, tensor<1152x128xbf16>, tensor<128x512xbf16>) -> tensor<25088x512xbf16> {
  ^bb0(%x: tensor<25088x1152xbf16>, %w1: tensor<1152x128xbf16>, %w2: tensor<128x512xbf16>):
    %zero = arith.constant 0.0 : f32
    %c0e = tensor.empty() : tensor<25088x128xf32>
    %cf = linalg.fill ins(%zero : f32) outs(%c0e : tensor<25088x128xf32>) -> tensor<25088x128xf32>
    %c = linalg.matmul ins(%x, %w1 : tensor<25088x1152xbf16>, tensor<1152x128xbf16>) outs(%cf : tensor<25088x128xf32>) -> tensor<25088x128xf32>
    %h0 = tensor.empty() : tensor<25088x128xbf16>
    %h = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%c : tensor<25088x128xf32>) outs(%h0 : tensor<25088x128xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %r = arith.maximumf %in, %zero : f32
      %t = arith.truncf %r : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<25088x128xbf16>
    %e0 = tensor.empty() : tensor<25088x512xf32>
    %ef = linalg.fill ins(%zero : f32) outs(%e0 : tensor<25088x512xf32>) -> tensor<25088x512xf32>
    %ea = linalg.matmul ins(%h, %w2 : tensor<25088x128xbf16>, tensor<128x512xbf16>) outs(%ef : tensor<25088x512xf32>) -> tensor<25088x512xf32>
    %o0 = tensor.empty() : tensor<25088x512xbf16>
    %o = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%ea : tensor<25088x512xf32>) outs(%o0 : tensor<25088x512xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %t = arith.truncf %in : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<25088x512xbf16>
    dsm.yield %o : tensor<25088x512xbf16>
  }
  return %e : tensor<25088x512xbf16>
}

// CHECK-LABEL: func.func @c7_b32(
// ANY: dsm.fused_chain {{.*}} {schedule = #dsm.schedule<cluster = [1, 2, 1, 2], block = [128, 128, 64, 512], grid = [49, 1, 1, 1], order = [m, n, l, k], spatial = [m, n, l], residency = [dsm], collectives = [shuffle], stages = 4, cost_ns = {{[0-9]+}}>}
// RS: dsm.fused_chain {{.*}} {schedule = #dsm.schedule<cluster = [1, 2, 1, 1], block = [128, 128, 64, 128], grid = [49, 1, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [smem], collectives = [reduce_scatter], stages = 2, cost_ns = {{[0-9]+}}>}

func.func @c7_b32(%a: tensor<6272x2304xbf16>, %b: tensor<2304x256xbf16>, %d: tensor<256x1024xbf16>) -> tensor<6272x1024xbf16> {
  %e = dsm.fused_chain ffn (%a, %b, %d)
      : (tensor<6272x2304xbf16>, tensor<2304x256xbf16>, tensor<256x1024xbf16>) -> tensor<6272x1024xbf16> {
  ^bb0(%x: tensor<6272x2304xbf16>, %w1: tensor<2304x256xbf16>, %w2: tensor<256x1024xbf16>):
    %zero = arith.constant 0.0 : f32
    %c0e = tensor.empty() : tensor<6272x256xf32>
    %cf = linalg.fill ins(%zero : f32) outs(%c0e : tensor<6272x256xf32>) -> tensor<6272x256xf32>
    %c = linalg.matmul ins(%x, %w1 : tensor<6272x2304xbf16>, tensor<2304x256xbf16>) outs(%cf : tensor<6272x256xf32>) -> tensor<6272x256xf32>
    %h0 = tensor.empty() : tensor<6272x256xbf16>
    %h = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%c : tensor<6272x256xf32>) outs(%h0 : tensor<6272x256xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %r = arith.maximumf %in, %zero : f32
      %t = arith.truncf %r : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<6272x256xbf16>
    %e0 = tensor.empty() : tensor<6272x1024xf32>
    %ef = linalg.fill ins(%zero : f32) outs(%e0 : tensor<6272x1024xf32>) -> tensor<6272x1024xf32>
    %ea = linalg.matmul ins(%h, %w2 : tensor<6272x256xbf16>, tensor<256x1024xbf16>) outs(%ef : tensor<6272x1024xf32>) -> tensor<6272x1024xf32>
    %o0 = tensor.empty() : tensor<6272x1024xbf16>
    %o = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%ea : tensor<6272x1024xf32>) outs(%o0 : tensor<6272x1024xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %t = arith.truncf %in : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<6272x1024xbf16>
    dsm.yield %o : tensor<6272x1024xbf16>
  }
  return %e : tensor<6272x1024xbf16>
}

// CHECK-LABEL: func.func @c8_b32(
// ANY: dsm.fused_chain {{.*}} {schedule = #dsm.schedule<cluster = [1, 4, 1, 4], block = [64, 128, 64, 512], grid = [25, 1, 1, 1], order = [m, n, l, k], spatial = [m, n, l], residency = [dsm], collectives = [shuffle], stages = 4, cost_ns = {{[0-9]+}}>}
// RS: dsm.fused_chain {{.*}} {schedule = #dsm.schedule<cluster = [1, 1, 1, 1], block = [64, 128, 64, 256], grid = [25, 4, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [smem], collectives = [inter_cluster_reduce], stages = 2, cost_ns = {{[0-9]+}}>}

func.func @c8_b32(%a: tensor<1568x4608xbf16>, %b: tensor<4608x512xbf16>, %d: tensor<512x2048xbf16>) -> tensor<1568x2048xbf16> {
  %e = dsm.fused_chain ffn (%a, %b, %d)
      : (tensor<1568x4608xbf16>, tensor<4608x512xbf16>, tensor<512x2048xbf16>) -> tensor<1568x2048xbf16> {
  ^bb0(%x: tensor<1568x4608xbf16>, %w1: tensor<4608x512xbf16>, %w2: tensor<512x2048xbf16>):
    %zero = arith.constant 0.0 : f32
    %c0e = tensor.empty() : tensor<1568x512xf32>
    %cf = linalg.fill ins(%zero : f32) outs(%c0e : tensor<1568x512xf32>) -> tensor<1568x512xf32>
    %c = linalg.matmul ins(%x, %w1 : tensor<1568x4608xbf16>, tensor<4608x512xbf16>) outs(%cf : tensor<1568x512xf32>) -> tensor<1568x512xf32>
    %h0 = tensor.empty() : tensor<1568x512xbf16>
    %h = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%c : tensor<1568x512xf32>) outs(%h0 : tensor<1568x512xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %r = arith.maximumf %in, %zero : f32
      %t = arith.truncf %r : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<1568x512xbf16>
    %e0 = tensor.empty() : tensor<1568x2048xf32>
    %ef = linalg.fill ins(%zero : f32) outs(%e0 : tensor<1568x2048xf32>) -> tensor<1568x2048xf32>
    %ea = linalg.matmul ins(%h, %w2 : tensor<1568x512xbf16>, tensor<512x2048xbf16>) outs(%ef : tensor<1568x2048xf32>) -> tensor<1568x2048xf32>
    %o0 = tensor.empty() : tensor<1568x2048xbf16>
    %o = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%ea : tensor<1568x2048xf32>) outs(%o0 : tensor<1568x2048xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %t = arith.truncf %in : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<1568x2048xbf16>
    dsm.yield %o : tensor<1568x2048xbf16>
  }
  return %e : tensor<1568x2048xbf16>
}


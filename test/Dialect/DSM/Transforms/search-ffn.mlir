// RUN: ff-opt %s --dsm-search=sequences=false -verify-diagnostics | FileCheck %s --check-prefixes=CHECK,ANY
// RUN: ff-opt %s --dsm-search="family=reduce-scatter" -verify-diagnostics | FileCheck %s --check-prefixes=CHECK,RS

// The plans --dsm-search chooses for the GEMM chains G1-G10 of FlashFuser
// Table VII (M = 128, bf16 in, f32 accumulate, ReLU): legal (the
// #dsm.schedule and fused_chain verifiers run on the output) and in the
// lowerable family, ranked by the kernel-family model fitted on an H100
// (docs/cost-model.md). Plausibility: small chains fit N into one cluster,
// so no partial E goes through the fp32 workspace (G1's K = 32 takes
// blk_k = 32: one zero-filled 64-wide k step of the kernel).
//
// CHECK lines hold for both runs. ANY lines: by default (family=any) the larger
// chains G4-G10 take shuffle-family plans: cls_l = cls_n = c, every rank
// computes L / c columns of E from the gathered act(C) (block[3] = L / c), and
// the clusters along n sum E with inter_cluster_reduce; G4, G7 and G10 (N and
// L of 3 * 2^k) take clusters of 6 or 3. RS lines: restricted to
// the reduce-scatter family (family=reduce-scatter), clusters lie along n only
// and E is reduce-scattered over DSM (G7, G8 and G10 take single-CTA clusters
// and sum E across grid n only); GPT-6.7B (G5, C is 4 MiB) splits N across a
// cluster of 2 and across 64 clusters.


// CHECK: module attributes {dsm.target = #dsm.target<name = "h100-sxm"
// CHECK-LABEL: func.func @g1(
// CHECK: dsm.fused_chain {{.*}} {schedule = #dsm.schedule<cluster = [1, 8, 1, 1], block = [64, 64, 32, 256], grid = [2, 1, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [smem], collectives = [reduce_scatter], stages = 3, cost_ns = {{[0-9]+}}>}

func.func @g1(%a: tensor<128x32xbf16>, %b: tensor<32x512xbf16>, %d: tensor<512x256xbf16>) -> tensor<128x256xbf16> {
  %e = dsm.fused_chain ffn (%a, %b, %d)
      : (tensor<128x32xbf16>, tensor<32x512xbf16>, tensor<512x256xbf16>) -> tensor<128x256xbf16> {
  ^bb0(%x: tensor<128x32xbf16>, %w1: tensor<32x512xbf16>, %w2: tensor<512x256xbf16>):
    %zero = arith.constant 0.0 : f32
    %c0e = tensor.empty() : tensor<128x512xf32>
    %cf = linalg.fill ins(%zero : f32) outs(%c0e : tensor<128x512xf32>) -> tensor<128x512xf32>
    %c = linalg.matmul ins(%x, %w1 : tensor<128x32xbf16>, tensor<32x512xbf16>) outs(%cf : tensor<128x512xf32>) -> tensor<128x512xf32>
    %h0 = tensor.empty() : tensor<128x512xbf16>
    %h = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%c : tensor<128x512xf32>) outs(%h0 : tensor<128x512xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %r = arith.maximumf %in, %zero : f32
      %t = arith.truncf %r : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<128x512xbf16>
    %e0 = tensor.empty() : tensor<128x256xf32>
    %ef = linalg.fill ins(%zero : f32) outs(%e0 : tensor<128x256xf32>) -> tensor<128x256xf32>
    %ea = linalg.matmul ins(%h, %w2 : tensor<128x512xbf16>, tensor<512x256xbf16>) outs(%ef : tensor<128x256xf32>) -> tensor<128x256xf32>
    %o0 = tensor.empty() : tensor<128x256xbf16>
    %o = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%ea : tensor<128x256xf32>) outs(%o0 : tensor<128x256xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %t = arith.truncf %in : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<128x256xbf16>
    dsm.yield %o : tensor<128x256xbf16>
  }
  return %e : tensor<128x256xbf16>
}

// CHECK-LABEL: func.func @g2(
// CHECK: dsm.fused_chain {{.*}} {schedule = #dsm.schedule<cluster = [1, 4, 1, 1], block = [64, 64, 64, 64], grid = [2, 1, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [smem], collectives = [reduce_scatter], stages = 4, cost_ns = {{[0-9]+}}>}

func.func @g2(%a: tensor<128x512xbf16>, %b: tensor<512x256xbf16>, %d: tensor<256x64xbf16>) -> tensor<128x64xbf16> {
  %e = dsm.fused_chain ffn (%a, %b, %d)
      : (tensor<128x512xbf16>, tensor<512x256xbf16>, tensor<256x64xbf16>) -> tensor<128x64xbf16> {
  ^bb0(%x: tensor<128x512xbf16>, %w1: tensor<512x256xbf16>, %w2: tensor<256x64xbf16>):
    %zero = arith.constant 0.0 : f32
    %c0e = tensor.empty() : tensor<128x256xf32>
    %cf = linalg.fill ins(%zero : f32) outs(%c0e : tensor<128x256xf32>) -> tensor<128x256xf32>
    %c = linalg.matmul ins(%x, %w1 : tensor<128x512xbf16>, tensor<512x256xbf16>) outs(%cf : tensor<128x256xf32>) -> tensor<128x256xf32>
    %h0 = tensor.empty() : tensor<128x256xbf16>
    %h = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%c : tensor<128x256xf32>) outs(%h0 : tensor<128x256xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %r = arith.maximumf %in, %zero : f32
      %t = arith.truncf %r : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<128x256xbf16>
    %e0 = tensor.empty() : tensor<128x64xf32>
    %ef = linalg.fill ins(%zero : f32) outs(%e0 : tensor<128x64xf32>) -> tensor<128x64xf32>
    %ea = linalg.matmul ins(%h, %w2 : tensor<128x256xbf16>, tensor<256x64xbf16>) outs(%ef : tensor<128x64xf32>) -> tensor<128x64xf32>
    %o0 = tensor.empty() : tensor<128x64xbf16>
    %o = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%ea : tensor<128x64xf32>) outs(%o0 : tensor<128x64xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %t = arith.truncf %in : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<128x64xbf16>
    dsm.yield %o : tensor<128x64xbf16>
  }
  return %e : tensor<128x64xbf16>
}

// CHECK-LABEL: func.func @g3(
// CHECK: dsm.fused_chain {{.*}} {schedule = #dsm.schedule<cluster = [1, 8, 1, 1], block = [64, 64, 64, 256], grid = [2, 1, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [smem], collectives = [reduce_scatter], stages = 3, cost_ns = {{[0-9]+}}>}

func.func @g3(%a: tensor<128x416xbf16>, %b: tensor<416x512xbf16>, %d: tensor<512x256xbf16>) -> tensor<128x256xbf16> {
  %e = dsm.fused_chain ffn (%a, %b, %d)
      : (tensor<128x416xbf16>, tensor<416x512xbf16>, tensor<512x256xbf16>) -> tensor<128x256xbf16> {
  ^bb0(%x: tensor<128x416xbf16>, %w1: tensor<416x512xbf16>, %w2: tensor<512x256xbf16>):
    %zero = arith.constant 0.0 : f32
    %c0e = tensor.empty() : tensor<128x512xf32>
    %cf = linalg.fill ins(%zero : f32) outs(%c0e : tensor<128x512xf32>) -> tensor<128x512xf32>
    %c = linalg.matmul ins(%x, %w1 : tensor<128x416xbf16>, tensor<416x512xbf16>) outs(%cf : tensor<128x512xf32>) -> tensor<128x512xf32>
    %h0 = tensor.empty() : tensor<128x512xbf16>
    %h = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%c : tensor<128x512xf32>) outs(%h0 : tensor<128x512xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %r = arith.maximumf %in, %zero : f32
      %t = arith.truncf %r : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<128x512xbf16>
    %e0 = tensor.empty() : tensor<128x256xf32>
    %ef = linalg.fill ins(%zero : f32) outs(%e0 : tensor<128x256xf32>) -> tensor<128x256xf32>
    %ea = linalg.matmul ins(%h, %w2 : tensor<128x512xbf16>, tensor<512x256xbf16>) outs(%ef : tensor<128x256xf32>) -> tensor<128x256xf32>
    %o0 = tensor.empty() : tensor<128x256xbf16>
    %o = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%ea : tensor<128x256xf32>) outs(%o0 : tensor<128x256xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %t = arith.truncf %in : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<128x256xbf16>
    dsm.yield %o : tensor<128x256xbf16>
  }
  return %e : tensor<128x256xbf16>
}

// CHECK-LABEL: func.func @g4(
// ANY: dsm.fused_chain {{.*}} {schedule = #dsm.schedule<cluster = [1, 6, 1, 6], block = [64, 64, 64, 128], grid = [2, 8, 1, 1], order = [m, n, l, k], spatial = [m, n, l], residency = [dsm], collectives = [shuffle, inter_cluster_reduce], stages = 4, cost_ns = {{[0-9]+}}>}
// RS: dsm.fused_chain {{.*}} {schedule = #dsm.schedule<cluster = [1, 8, 1, 1], block = [64, 64, 64, 256], grid = [2, 6, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [smem], collectives = [reduce_scatter, inter_cluster_reduce], stages = 3, cost_ns = {{[0-9]+}}>}

func.func @g4(%a: tensor<128x768xbf16>, %b: tensor<768x3072xbf16>, %d: tensor<3072x768xbf16>) -> tensor<128x768xbf16> {
  %e = dsm.fused_chain ffn (%a, %b, %d)
      : (tensor<128x768xbf16>, tensor<768x3072xbf16>, tensor<3072x768xbf16>) -> tensor<128x768xbf16> {
  ^bb0(%x: tensor<128x768xbf16>, %w1: tensor<768x3072xbf16>, %w2: tensor<3072x768xbf16>):
    %zero = arith.constant 0.0 : f32
    %c0e = tensor.empty() : tensor<128x3072xf32>
    %cf = linalg.fill ins(%zero : f32) outs(%c0e : tensor<128x3072xf32>) -> tensor<128x3072xf32>
    %c = linalg.matmul ins(%x, %w1 : tensor<128x768xbf16>, tensor<768x3072xbf16>) outs(%cf : tensor<128x3072xf32>) -> tensor<128x3072xf32>
    %h0 = tensor.empty() : tensor<128x3072xbf16>
    %h = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%c : tensor<128x3072xf32>) outs(%h0 : tensor<128x3072xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %r = arith.maximumf %in, %zero : f32
      %t = arith.truncf %r : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<128x3072xbf16>
    %e0 = tensor.empty() : tensor<128x768xf32>
    %ef = linalg.fill ins(%zero : f32) outs(%e0 : tensor<128x768xf32>) -> tensor<128x768xf32>
    %ea = linalg.matmul ins(%h, %w2 : tensor<128x3072xbf16>, tensor<3072x768xbf16>) outs(%ef : tensor<128x768xf32>) -> tensor<128x768xf32>
    %o0 = tensor.empty() : tensor<128x768xbf16>
    %o = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%ea : tensor<128x768xf32>) outs(%o0 : tensor<128x768xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %t = arith.truncf %in : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<128x768xbf16>
    dsm.yield %o : tensor<128x768xbf16>
  }
  return %e : tensor<128x768xbf16>
}

// CHECK-LABEL: func.func @g5(
// ANY: dsm.fused_chain {{.*}} {schedule = #dsm.schedule<cluster = [1, 2, 1, 2], block = [128, 128, 64, 2048], grid = [1, 64, 1, 1], order = [m, n, l, k], spatial = [m, n, l], residency = [dsm], collectives = [shuffle, inter_cluster_reduce], stages = 4, cost_ns = {{[0-9]+}}>}
// RS: dsm.fused_chain {{.*}} {schedule = #dsm.schedule<cluster = [1, 2, 1, 1], block = [128, 128, 64, 128], grid = [1, 64, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [smem], collectives = [reduce_scatter, inter_cluster_reduce], stages = 2, cost_ns = {{[0-9]+}}>}

func.func @g5(%a: tensor<128x4096xbf16>, %b: tensor<4096x16384xbf16>, %d: tensor<16384x4096xbf16>) -> tensor<128x4096xbf16> {
  %e = dsm.fused_chain ffn (%a, %b, %d)
      : (tensor<128x4096xbf16>, tensor<4096x16384xbf16>, tensor<16384x4096xbf16>) -> tensor<128x4096xbf16> {
  ^bb0(%x: tensor<128x4096xbf16>, %w1: tensor<4096x16384xbf16>, %w2: tensor<16384x4096xbf16>):
    %zero = arith.constant 0.0 : f32
    %c0e = tensor.empty() : tensor<128x16384xf32>
    %cf = linalg.fill ins(%zero : f32) outs(%c0e : tensor<128x16384xf32>) -> tensor<128x16384xf32>
    %c = linalg.matmul ins(%x, %w1 : tensor<128x4096xbf16>, tensor<4096x16384xbf16>) outs(%cf : tensor<128x16384xf32>) -> tensor<128x16384xf32>
    %h0 = tensor.empty() : tensor<128x16384xbf16>
    %h = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%c : tensor<128x16384xf32>) outs(%h0 : tensor<128x16384xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %r = arith.maximumf %in, %zero : f32
      %t = arith.truncf %r : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<128x16384xbf16>
    %e0 = tensor.empty() : tensor<128x4096xf32>
    %ef = linalg.fill ins(%zero : f32) outs(%e0 : tensor<128x4096xf32>) -> tensor<128x4096xf32>
    %ea = linalg.matmul ins(%h, %w2 : tensor<128x16384xbf16>, tensor<16384x4096xbf16>) outs(%ef : tensor<128x4096xf32>) -> tensor<128x4096xf32>
    %o0 = tensor.empty() : tensor<128x4096xbf16>
    %o = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%ea : tensor<128x4096xf32>) outs(%o0 : tensor<128x4096xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %t = arith.truncf %in : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<128x4096xbf16>
    dsm.yield %o : tensor<128x4096xbf16>
  }
  return %e : tensor<128x4096xbf16>
}

// CHECK-LABEL: func.func @g6(
// ANY: dsm.fused_chain {{.*}} {schedule = #dsm.schedule<cluster = [1, 4, 1, 4], block = [64, 128, 64, 256], grid = [2, 8, 1, 1], order = [m, n, l, k], spatial = [m, n, l], residency = [dsm], collectives = [shuffle, inter_cluster_reduce], stages = 4, cost_ns = {{[0-9]+}}>}
// RS: dsm.fused_chain {{.*}} {schedule = #dsm.schedule<cluster = [1, 2, 1, 1], block = [64, 64, 64, 256], grid = [2, 32, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [smem], collectives = [reduce_scatter, inter_cluster_reduce], stages = 3, cost_ns = {{[0-9]+}}>}

func.func @g6(%a: tensor<128x1024xbf16>, %b: tensor<1024x4096xbf16>, %d: tensor<4096x1024xbf16>) -> tensor<128x1024xbf16> {
  %e = dsm.fused_chain ffn (%a, %b, %d)
      : (tensor<128x1024xbf16>, tensor<1024x4096xbf16>, tensor<4096x1024xbf16>) -> tensor<128x1024xbf16> {
  ^bb0(%x: tensor<128x1024xbf16>, %w1: tensor<1024x4096xbf16>, %w2: tensor<4096x1024xbf16>):
    %zero = arith.constant 0.0 : f32
    %c0e = tensor.empty() : tensor<128x4096xf32>
    %cf = linalg.fill ins(%zero : f32) outs(%c0e : tensor<128x4096xf32>) -> tensor<128x4096xf32>
    %c = linalg.matmul ins(%x, %w1 : tensor<128x1024xbf16>, tensor<1024x4096xbf16>) outs(%cf : tensor<128x4096xf32>) -> tensor<128x4096xf32>
    %h0 = tensor.empty() : tensor<128x4096xbf16>
    %h = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%c : tensor<128x4096xf32>) outs(%h0 : tensor<128x4096xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %r = arith.maximumf %in, %zero : f32
      %t = arith.truncf %r : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<128x4096xbf16>
    %e0 = tensor.empty() : tensor<128x1024xf32>
    %ef = linalg.fill ins(%zero : f32) outs(%e0 : tensor<128x1024xf32>) -> tensor<128x1024xf32>
    %ea = linalg.matmul ins(%h, %w2 : tensor<128x4096xbf16>, tensor<4096x1024xbf16>) outs(%ef : tensor<128x1024xf32>) -> tensor<128x1024xf32>
    %o0 = tensor.empty() : tensor<128x1024xbf16>
    %o = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%ea : tensor<128x1024xf32>) outs(%o0 : tensor<128x1024xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %t = arith.truncf %in : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<128x1024xbf16>
    dsm.yield %o : tensor<128x1024xbf16>
  }
  return %e : tensor<128x1024xbf16>
}

// CHECK-LABEL: func.func @g7(
// ANY: dsm.fused_chain {{.*}} {schedule = #dsm.schedule<cluster = [1, 6, 1, 6], block = [64, 64, 64, 128], grid = [2, 2, 1, 1], order = [m, n, l, k], spatial = [m, n, l], residency = [dsm], collectives = [shuffle, inter_cluster_reduce], stages = 4, cost_ns = {{[0-9]+}}>}
// RS: dsm.fused_chain {{.*}} {schedule = #dsm.schedule<cluster = [1, 4, 1, 1], block = [64, 64, 64, 256], grid = [2, 3, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [smem], collectives = [reduce_scatter, inter_cluster_reduce], stages = 3, cost_ns = {{[0-9]+}}>}

func.func @g7(%a: tensor<128x768xbf16>, %b: tensor<768x768xbf16>, %d: tensor<768x768xbf16>) -> tensor<128x768xbf16> {
  %e = dsm.fused_chain ffn (%a, %b, %d)
      : (tensor<128x768xbf16>, tensor<768x768xbf16>, tensor<768x768xbf16>) -> tensor<128x768xbf16> {
  ^bb0(%x: tensor<128x768xbf16>, %w1: tensor<768x768xbf16>, %w2: tensor<768x768xbf16>):
    %zero = arith.constant 0.0 : f32
    %c0e = tensor.empty() : tensor<128x768xf32>
    %cf = linalg.fill ins(%zero : f32) outs(%c0e : tensor<128x768xf32>) -> tensor<128x768xf32>
    %c = linalg.matmul ins(%x, %w1 : tensor<128x768xbf16>, tensor<768x768xbf16>) outs(%cf : tensor<128x768xf32>) -> tensor<128x768xf32>
    %h0 = tensor.empty() : tensor<128x768xbf16>
    %h = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%c : tensor<128x768xf32>) outs(%h0 : tensor<128x768xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %r = arith.maximumf %in, %zero : f32
      %t = arith.truncf %r : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<128x768xbf16>
    %e0 = tensor.empty() : tensor<128x768xf32>
    %ef = linalg.fill ins(%zero : f32) outs(%e0 : tensor<128x768xf32>) -> tensor<128x768xf32>
    %ea = linalg.matmul ins(%h, %w2 : tensor<128x768xbf16>, tensor<768x768xbf16>) outs(%ef : tensor<128x768xf32>) -> tensor<128x768xf32>
    %o0 = tensor.empty() : tensor<128x768xbf16>
    %o = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%ea : tensor<128x768xf32>) outs(%o0 : tensor<128x768xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %t = arith.truncf %in : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<128x768xbf16>
    dsm.yield %o : tensor<128x768xbf16>
  }
  return %e : tensor<128x768xbf16>
}

// CHECK-LABEL: func.func @g8(
// ANY: dsm.fused_chain {{.*}} {schedule = #dsm.schedule<cluster = [1, 4, 1, 4], block = [128, 128, 64, 512], grid = [1, 16, 1, 1], order = [m, n, l, k], spatial = [m, n, l], residency = [dsm], collectives = [shuffle, inter_cluster_reduce], stages = 4, cost_ns = {{[0-9]+}}>}
// RS: dsm.fused_chain {{.*}} {schedule = #dsm.schedule<cluster = [1, 1, 1, 1], block = [64, 128, 64, 256], grid = [2, 64, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [smem], collectives = [inter_cluster_reduce], stages = 2, cost_ns = {{[0-9]+}}>}

func.func @g8(%a: tensor<128x2048xbf16>, %b: tensor<2048x8192xbf16>, %d: tensor<8192x2048xbf16>) -> tensor<128x2048xbf16> {
  %e = dsm.fused_chain ffn (%a, %b, %d)
      : (tensor<128x2048xbf16>, tensor<2048x8192xbf16>, tensor<8192x2048xbf16>) -> tensor<128x2048xbf16> {
  ^bb0(%x: tensor<128x2048xbf16>, %w1: tensor<2048x8192xbf16>, %w2: tensor<8192x2048xbf16>):
    %zero = arith.constant 0.0 : f32
    %c0e = tensor.empty() : tensor<128x8192xf32>
    %cf = linalg.fill ins(%zero : f32) outs(%c0e : tensor<128x8192xf32>) -> tensor<128x8192xf32>
    %c = linalg.matmul ins(%x, %w1 : tensor<128x2048xbf16>, tensor<2048x8192xbf16>) outs(%cf : tensor<128x8192xf32>) -> tensor<128x8192xf32>
    %h0 = tensor.empty() : tensor<128x8192xbf16>
    %h = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%c : tensor<128x8192xf32>) outs(%h0 : tensor<128x8192xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %r = arith.maximumf %in, %zero : f32
      %t = arith.truncf %r : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<128x8192xbf16>
    %e0 = tensor.empty() : tensor<128x2048xf32>
    %ef = linalg.fill ins(%zero : f32) outs(%e0 : tensor<128x2048xf32>) -> tensor<128x2048xf32>
    %ea = linalg.matmul ins(%h, %w2 : tensor<128x8192xbf16>, tensor<8192x2048xbf16>) outs(%ef : tensor<128x2048xf32>) -> tensor<128x2048xf32>
    %o0 = tensor.empty() : tensor<128x2048xbf16>
    %o = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%ea : tensor<128x2048xf32>) outs(%o0 : tensor<128x2048xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %t = arith.truncf %in : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<128x2048xbf16>
    dsm.yield %o : tensor<128x2048xbf16>
  }
  return %e : tensor<128x2048xbf16>
}

// CHECK-LABEL: func.func @g9(
// ANY: dsm.fused_chain {{.*}} {schedule = #dsm.schedule<cluster = [1, 4, 1, 4], block = [64, 64, 64, 128], grid = [2, 8, 1, 1], order = [m, n, l, k], spatial = [m, n, l], residency = [dsm], collectives = [shuffle, inter_cluster_reduce], stages = 4, cost_ns = {{[0-9]+}}>}
// RS: dsm.fused_chain {{.*}} {schedule = #dsm.schedule<cluster = [1, 8, 1, 1], block = [64, 64, 64, 256], grid = [2, 4, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [smem], collectives = [reduce_scatter, inter_cluster_reduce], stages = 3, cost_ns = {{[0-9]+}}>}

func.func @g9(%a: tensor<128x512xbf16>, %b: tensor<512x2048xbf16>, %d: tensor<2048x512xbf16>) -> tensor<128x512xbf16> {
  %e = dsm.fused_chain ffn (%a, %b, %d)
      : (tensor<128x512xbf16>, tensor<512x2048xbf16>, tensor<2048x512xbf16>) -> tensor<128x512xbf16> {
  ^bb0(%x: tensor<128x512xbf16>, %w1: tensor<512x2048xbf16>, %w2: tensor<2048x512xbf16>):
    %zero = arith.constant 0.0 : f32
    %c0e = tensor.empty() : tensor<128x2048xf32>
    %cf = linalg.fill ins(%zero : f32) outs(%c0e : tensor<128x2048xf32>) -> tensor<128x2048xf32>
    %c = linalg.matmul ins(%x, %w1 : tensor<128x512xbf16>, tensor<512x2048xbf16>) outs(%cf : tensor<128x2048xf32>) -> tensor<128x2048xf32>
    %h0 = tensor.empty() : tensor<128x2048xbf16>
    %h = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%c : tensor<128x2048xf32>) outs(%h0 : tensor<128x2048xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %r = arith.maximumf %in, %zero : f32
      %t = arith.truncf %r : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<128x2048xbf16>
    %e0 = tensor.empty() : tensor<128x512xf32>
    %ef = linalg.fill ins(%zero : f32) outs(%e0 : tensor<128x512xf32>) -> tensor<128x512xf32>
    %ea = linalg.matmul ins(%h, %w2 : tensor<128x2048xbf16>, tensor<2048x512xbf16>) outs(%ef : tensor<128x512xf32>) -> tensor<128x512xf32>
    %o0 = tensor.empty() : tensor<128x512xbf16>
    %o = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%ea : tensor<128x512xf32>) outs(%o0 : tensor<128x512xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %t = arith.truncf %in : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<128x512xbf16>
    dsm.yield %o : tensor<128x512xbf16>
  }
  return %e : tensor<128x512xbf16>
}

// CHECK-LABEL: func.func @g10(
// ANY: dsm.fused_chain {{.*}} {schedule = #dsm.schedule<cluster = [1, 3, 1, 3], block = [64, 64, 64, 128], grid = [2, 8, 1, 1], order = [m, n, l, k], spatial = [m, n, l], residency = [dsm], collectives = [shuffle, inter_cluster_reduce], stages = 4, cost_ns = {{[0-9]+}}>}
// RS: dsm.fused_chain {{.*}} {schedule = #dsm.schedule<cluster = [1, 4, 1, 1], block = [64, 64, 64, 128], grid = [2, 6, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [smem], collectives = [reduce_scatter, inter_cluster_reduce], stages = 4, cost_ns = {{[0-9]+}}>}

func.func @g10(%a: tensor<128x384xbf16>, %b: tensor<384x1536xbf16>, %d: tensor<1536x384xbf16>) -> tensor<128x384xbf16> {
  %e = dsm.fused_chain ffn (%a, %b, %d)
      : (tensor<128x384xbf16>, tensor<384x1536xbf16>, tensor<1536x384xbf16>) -> tensor<128x384xbf16> {
  ^bb0(%x: tensor<128x384xbf16>, %w1: tensor<384x1536xbf16>, %w2: tensor<1536x384xbf16>):
    %zero = arith.constant 0.0 : f32
    %c0e = tensor.empty() : tensor<128x1536xf32>
    %cf = linalg.fill ins(%zero : f32) outs(%c0e : tensor<128x1536xf32>) -> tensor<128x1536xf32>
    %c = linalg.matmul ins(%x, %w1 : tensor<128x384xbf16>, tensor<384x1536xbf16>) outs(%cf : tensor<128x1536xf32>) -> tensor<128x1536xf32>
    %h0 = tensor.empty() : tensor<128x1536xbf16>
    %h = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%c : tensor<128x1536xf32>) outs(%h0 : tensor<128x1536xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %r = arith.maximumf %in, %zero : f32
      %t = arith.truncf %r : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<128x1536xbf16>
    %e0 = tensor.empty() : tensor<128x384xf32>
    %ef = linalg.fill ins(%zero : f32) outs(%e0 : tensor<128x384xf32>) -> tensor<128x384xf32>
    %ea = linalg.matmul ins(%h, %w2 : tensor<128x1536xbf16>, tensor<1536x384xbf16>) outs(%ef : tensor<128x384xf32>) -> tensor<128x384xf32>
    %o0 = tensor.empty() : tensor<128x384xbf16>
    %o = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%ea : tensor<128x384xf32>) outs(%o0 : tensor<128x384xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %t = arith.truncf %in : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<128x384xbf16>
    dsm.yield %o : tensor<128x384xbf16>
  }
  return %e : tensor<128x384xbf16>
}


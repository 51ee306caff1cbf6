// RUN: ff-opt %s --dsm-search=sequences=false -verify-diagnostics | FileCheck %s --check-prefixes=CHECK,ANY
// RUN: ff-opt %s --dsm-search="family=reduce-scatter" -verify-diagnostics | FileCheck %s --check-prefixes=CHECK,RS

// The plans --dsm-search chooses for the gated FFNs S1-S8 of FlashFuser
// Table VI (SwiGLU, M = 128): both intermediates are recorded in the
// residency list; gate and up accumulators (2 x blk_n / 2 registers per
// thread) keep blk_n at 128.
//
// The fused plans only (sequences=false; search-sequence.mlir has the
// kernel sequences the search prefers for S1-S8).
//
// ANY lines: by default (family=any) every chain takes a shuffle-family plan
// (cls_l = cls_n, block[3] = L / cls_l, both intermediates in DSM, collectives
// [shuffle, inter_cluster_reduce]). RS lines: restricted to the reduce-scatter
// family (family=reduce-scatter), Llama-2-7B (S3) splits N across 86 single-CTA
// clusters: on the H200 sweep (docs/benchmarks/fidelity-h200.md) that plan
// measured fastest, ahead of clusters of 2.


// CHECK: module attributes {dsm.target = #dsm.target<name = "h100-sxm"
// CHECK-LABEL: func.func @s1(
// ANY: dsm.fused_chain {{.*}} {schedule = #dsm.schedule<cluster = [1, 4, 1, 4], block = [128, 128, 64, 768], grid = [1, 16, 1, 1], order = [m, n, l, k], spatial = [m, n, l], residency = [dsm, dsm], collectives = [shuffle, inter_cluster_reduce], stages = 4, cost_ns = {{[0-9]+}}>}
// RS: dsm.fused_chain {{.*}} {schedule = #dsm.schedule<cluster = [1, 1, 1, 1], block = [64, 128, 64, 256], grid = [2, 64, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [smem, smem], collectives = [inter_cluster_reduce], stages = 2, cost_ns = {{[0-9]+}}>}

func.func @s1(%a: tensor<128x3072xbf16>, %b: tensor<3072x8192xbf16>, %bu: tensor<3072x8192xbf16>, %d: tensor<8192x3072xbf16>) -> tensor<128x3072xbf16> {
  %e = dsm.fused_chain gated_ffn (%a, %b, %bu, %d)
      : (tensor<128x3072xbf16>, tensor<3072x8192xbf16>, tensor<3072x8192xbf16>, tensor<8192x3072xbf16>) -> tensor<128x3072xbf16> {
  ^bb0(%x: tensor<128x3072xbf16>, %w1: tensor<3072x8192xbf16>, %wu: tensor<3072x8192xbf16>, %w2: tensor<8192x3072xbf16>):
    %zero = arith.constant 0.0 : f32
    %c0e = tensor.empty() : tensor<128x8192xf32>
    %cf = linalg.fill ins(%zero : f32) outs(%c0e : tensor<128x8192xf32>) -> tensor<128x8192xf32>
    %c = linalg.matmul ins(%x, %w1 : tensor<128x3072xbf16>, tensor<3072x8192xbf16>) outs(%cf : tensor<128x8192xf32>) -> tensor<128x8192xf32>
    %cu = linalg.matmul ins(%x, %wu : tensor<128x3072xbf16>, tensor<3072x8192xbf16>) outs(%cf : tensor<128x8192xf32>) -> tensor<128x8192xf32>
    %h0 = tensor.empty() : tensor<128x8192xbf16>
    %h = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%c, %cu : tensor<128x8192xf32>, tensor<128x8192xf32>) outs(%h0 : tensor<128x8192xbf16>) {
    ^bb0(%g: f32, %u: f32, %out: bf16):
      %ng = arith.negf %g : f32
      %ex = math.exp %ng : f32
      %one = arith.constant 1.0 : f32
      %den = arith.addf %one, %ex : f32
      %sg = arith.divf %g, %den : f32
      %p = arith.mulf %sg, %u : f32
      %t = arith.truncf %p : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<128x8192xbf16>
    %e0 = tensor.empty() : tensor<128x3072xf32>
    %ef = linalg.fill ins(%zero : f32) outs(%e0 : tensor<128x3072xf32>) -> tensor<128x3072xf32>
    %ea = linalg.matmul ins(%h, %w2 : tensor<128x8192xbf16>, tensor<8192x3072xbf16>) outs(%ef : tensor<128x3072xf32>) -> tensor<128x3072xf32>
    %o0 = tensor.empty() : tensor<128x3072xbf16>
    %o = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%ea : tensor<128x3072xf32>) outs(%o0 : tensor<128x3072xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %t = arith.truncf %in : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<128x3072xbf16>
    dsm.yield %o : tensor<128x3072xbf16>
  }
  return %e : tensor<128x3072xbf16>
}

// CHECK-LABEL: func.func @s2(
// ANY: dsm.fused_chain {{.*}} {schedule = #dsm.schedule<cluster = [1, 8, 1, 8], block = [128, 64, 64, 256], grid = [1, 11, 1, 1], order = [m, n, l, k], spatial = [m, n, l], residency = [dsm, dsm], collectives = [shuffle, inter_cluster_reduce], stages = 4, cost_ns = {{[0-9]+}}>}
// RS: dsm.fused_chain {{.*}} {schedule = #dsm.schedule<cluster = [1, 1, 1, 1], block = [64, 128, 64, 256], grid = [2, 44, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [smem, smem], collectives = [inter_cluster_reduce], stages = 2, cost_ns = {{[0-9]+}}>}

func.func @s2(%a: tensor<128x2048xbf16>, %b: tensor<2048x5632xbf16>, %bu: tensor<2048x5632xbf16>, %d: tensor<5632x2048xbf16>) -> tensor<128x2048xbf16> {
  %e = dsm.fused_chain gated_ffn (%a, %b, %bu, %d)
      : (tensor<128x2048xbf16>, tensor<2048x5632xbf16>, tensor<2048x5632xbf16>, tensor<5632x2048xbf16>) -> tensor<128x2048xbf16> {
  ^bb0(%x: tensor<128x2048xbf16>, %w1: tensor<2048x5632xbf16>, %wu: tensor<2048x5632xbf16>, %w2: tensor<5632x2048xbf16>):
    %zero = arith.constant 0.0 : f32
    %c0e = tensor.empty() : tensor<128x5632xf32>
    %cf = linalg.fill ins(%zero : f32) outs(%c0e : tensor<128x5632xf32>) -> tensor<128x5632xf32>
    %c = linalg.matmul ins(%x, %w1 : tensor<128x2048xbf16>, tensor<2048x5632xbf16>) outs(%cf : tensor<128x5632xf32>) -> tensor<128x5632xf32>
    %cu = linalg.matmul ins(%x, %wu : tensor<128x2048xbf16>, tensor<2048x5632xbf16>) outs(%cf : tensor<128x5632xf32>) -> tensor<128x5632xf32>
    %h0 = tensor.empty() : tensor<128x5632xbf16>
    %h = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%c, %cu : tensor<128x5632xf32>, tensor<128x5632xf32>) outs(%h0 : tensor<128x5632xbf16>) {
    ^bb0(%g: f32, %u: f32, %out: bf16):
      %ng = arith.negf %g : f32
      %ex = math.exp %ng : f32
      %one = arith.constant 1.0 : f32
      %den = arith.addf %one, %ex : f32
      %sg = arith.divf %g, %den : f32
      %p = arith.mulf %sg, %u : f32
      %t = arith.truncf %p : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<128x5632xbf16>
    %e0 = tensor.empty() : tensor<128x2048xf32>
    %ef = linalg.fill ins(%zero : f32) outs(%e0 : tensor<128x2048xf32>) -> tensor<128x2048xf32>
    %ea = linalg.matmul ins(%h, %w2 : tensor<128x5632xbf16>, tensor<5632x2048xbf16>) outs(%ef : tensor<128x2048xf32>) -> tensor<128x2048xf32>
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

// CHECK-LABEL: func.func @s3(
// ANY: dsm.fused_chain {{.*}} {schedule = #dsm.schedule<cluster = [1, 2, 1, 2], block = [128, 128, 64, 2048], grid = [1, 43, 1, 1], order = [m, n, l, k], spatial = [m, n, l], residency = [dsm, dsm], collectives = [shuffle, inter_cluster_reduce], stages = 4, cost_ns = {{[0-9]+}}>}
// RS: dsm.fused_chain {{.*}} {schedule = #dsm.schedule<cluster = [1, 1, 1, 1], block = [128, 128, 64, 128], grid = [1, 86, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [smem, smem], collectives = [inter_cluster_reduce], stages = 2, cost_ns = {{[0-9]+}}>}

func.func @s3(%a: tensor<128x4096xbf16>, %b: tensor<4096x11008xbf16>, %bu: tensor<4096x11008xbf16>, %d: tensor<11008x4096xbf16>) -> tensor<128x4096xbf16> {
  %e = dsm.fused_chain gated_ffn (%a, %b, %bu, %d)
      : (tensor<128x4096xbf16>, tensor<4096x11008xbf16>, tensor<4096x11008xbf16>, tensor<11008x4096xbf16>) -> tensor<128x4096xbf16> {
  ^bb0(%x: tensor<128x4096xbf16>, %w1: tensor<4096x11008xbf16>, %wu: tensor<4096x11008xbf16>, %w2: tensor<11008x4096xbf16>):
    %zero = arith.constant 0.0 : f32
    %c0e = tensor.empty() : tensor<128x11008xf32>
    %cf = linalg.fill ins(%zero : f32) outs(%c0e : tensor<128x11008xf32>) -> tensor<128x11008xf32>
    %c = linalg.matmul ins(%x, %w1 : tensor<128x4096xbf16>, tensor<4096x11008xbf16>) outs(%cf : tensor<128x11008xf32>) -> tensor<128x11008xf32>
    %cu = linalg.matmul ins(%x, %wu : tensor<128x4096xbf16>, tensor<4096x11008xbf16>) outs(%cf : tensor<128x11008xf32>) -> tensor<128x11008xf32>
    %h0 = tensor.empty() : tensor<128x11008xbf16>
    %h = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%c, %cu : tensor<128x11008xf32>, tensor<128x11008xf32>) outs(%h0 : tensor<128x11008xbf16>) {
    ^bb0(%g: f32, %u: f32, %out: bf16):
      %ng = arith.negf %g : f32
      %ex = math.exp %ng : f32
      %one = arith.constant 1.0 : f32
      %den = arith.addf %one, %ex : f32
      %sg = arith.divf %g, %den : f32
      %p = arith.mulf %sg, %u : f32
      %t = arith.truncf %p : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<128x11008xbf16>
    %e0 = tensor.empty() : tensor<128x4096xf32>
    %ef = linalg.fill ins(%zero : f32) outs(%e0 : tensor<128x4096xf32>) -> tensor<128x4096xf32>
    %ea = linalg.matmul ins(%h, %w2 : tensor<128x11008xbf16>, tensor<11008x4096xbf16>) outs(%ef : tensor<128x4096xf32>) -> tensor<128x4096xf32>
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

// CHECK-LABEL: func.func @s4(
// ANY: dsm.fused_chain {{.*}} {schedule = #dsm.schedule<cluster = [1, 4, 1, 4], block = [128, 128, 64, 512], grid = [1, 16, 1, 1], order = [m, n, l, k], spatial = [m, n, l], residency = [dsm, dsm], collectives = [shuffle, inter_cluster_reduce], stages = 4, cost_ns = {{[0-9]+}}>}
// RS: dsm.fused_chain {{.*}} {schedule = #dsm.schedule<cluster = [1, 1, 1, 1], block = [64, 128, 64, 256], grid = [2, 64, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [smem, smem], collectives = [inter_cluster_reduce], stages = 2, cost_ns = {{[0-9]+}}>}

func.func @s4(%a: tensor<128x2048xbf16>, %b: tensor<2048x8192xbf16>, %bu: tensor<2048x8192xbf16>, %d: tensor<8192x2048xbf16>) -> tensor<128x2048xbf16> {
  %e = dsm.fused_chain gated_ffn (%a, %b, %bu, %d)
      : (tensor<128x2048xbf16>, tensor<2048x8192xbf16>, tensor<2048x8192xbf16>, tensor<8192x2048xbf16>) -> tensor<128x2048xbf16> {
  ^bb0(%x: tensor<128x2048xbf16>, %w1: tensor<2048x8192xbf16>, %wu: tensor<2048x8192xbf16>, %w2: tensor<8192x2048xbf16>):
    %zero = arith.constant 0.0 : f32
    %c0e = tensor.empty() : tensor<128x8192xf32>
    %cf = linalg.fill ins(%zero : f32) outs(%c0e : tensor<128x8192xf32>) -> tensor<128x8192xf32>
    %c = linalg.matmul ins(%x, %w1 : tensor<128x2048xbf16>, tensor<2048x8192xbf16>) outs(%cf : tensor<128x8192xf32>) -> tensor<128x8192xf32>
    %cu = linalg.matmul ins(%x, %wu : tensor<128x2048xbf16>, tensor<2048x8192xbf16>) outs(%cf : tensor<128x8192xf32>) -> tensor<128x8192xf32>
    %h0 = tensor.empty() : tensor<128x8192xbf16>
    %h = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%c, %cu : tensor<128x8192xf32>, tensor<128x8192xf32>) outs(%h0 : tensor<128x8192xbf16>) {
    ^bb0(%g: f32, %u: f32, %out: bf16):
      %ng = arith.negf %g : f32
      %ex = math.exp %ng : f32
      %one = arith.constant 1.0 : f32
      %den = arith.addf %one, %ex : f32
      %sg = arith.divf %g, %den : f32
      %p = arith.mulf %sg, %u : f32
      %t = arith.truncf %p : f32 to bf16
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

// CHECK-LABEL: func.func @s5(
// ANY: dsm.fused_chain {{.*}} {schedule = #dsm.schedule<cluster = [1, 2, 1, 2], block = [128, 128, 64, 1024], grid = [1, 43, 1, 1], order = [m, n, l, k], spatial = [m, n, l], residency = [dsm, dsm], collectives = [shuffle, inter_cluster_reduce], stages = 4, cost_ns = {{[0-9]+}}>}
// RS: dsm.fused_chain {{.*}} {schedule = #dsm.schedule<cluster = [1, 1, 1, 1], block = [128, 128, 64, 128], grid = [1, 86, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [smem, smem], collectives = [inter_cluster_reduce], stages = 2, cost_ns = {{[0-9]+}}>}

func.func @s5(%a: tensor<128x2048xbf16>, %b: tensor<2048x11008xbf16>, %bu: tensor<2048x11008xbf16>, %d: tensor<11008x2048xbf16>) -> tensor<128x2048xbf16> {
  %e = dsm.fused_chain gated_ffn (%a, %b, %bu, %d)
      : (tensor<128x2048xbf16>, tensor<2048x11008xbf16>, tensor<2048x11008xbf16>, tensor<11008x2048xbf16>) -> tensor<128x2048xbf16> {
  ^bb0(%x: tensor<128x2048xbf16>, %w1: tensor<2048x11008xbf16>, %wu: tensor<2048x11008xbf16>, %w2: tensor<11008x2048xbf16>):
    %zero = arith.constant 0.0 : f32
    %c0e = tensor.empty() : tensor<128x11008xf32>
    %cf = linalg.fill ins(%zero : f32) outs(%c0e : tensor<128x11008xf32>) -> tensor<128x11008xf32>
    %c = linalg.matmul ins(%x, %w1 : tensor<128x2048xbf16>, tensor<2048x11008xbf16>) outs(%cf : tensor<128x11008xf32>) -> tensor<128x11008xf32>
    %cu = linalg.matmul ins(%x, %wu : tensor<128x2048xbf16>, tensor<2048x11008xbf16>) outs(%cf : tensor<128x11008xf32>) -> tensor<128x11008xf32>
    %h0 = tensor.empty() : tensor<128x11008xbf16>
    %h = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%c, %cu : tensor<128x11008xf32>, tensor<128x11008xf32>) outs(%h0 : tensor<128x11008xbf16>) {
    ^bb0(%g: f32, %u: f32, %out: bf16):
      %ng = arith.negf %g : f32
      %ex = math.exp %ng : f32
      %one = arith.constant 1.0 : f32
      %den = arith.addf %one, %ex : f32
      %sg = arith.divf %g, %den : f32
      %p = arith.mulf %sg, %u : f32
      %t = arith.truncf %p : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<128x11008xbf16>
    %e0 = tensor.empty() : tensor<128x2048xf32>
    %ef = linalg.fill ins(%zero : f32) outs(%e0 : tensor<128x2048xf32>) -> tensor<128x2048xf32>
    %ea = linalg.matmul ins(%h, %w2 : tensor<128x11008xbf16>, tensor<11008x2048xbf16>) outs(%ef : tensor<128x2048xf32>) -> tensor<128x2048xf32>
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

// CHECK-LABEL: func.func @s6(
// ANY: dsm.fused_chain {{.*}} {schedule = #dsm.schedule<cluster = [1, 2, 1, 2], block = [128, 128, 64, 768], grid = [1, 35, 1, 1], order = [m, n, l, k], spatial = [m, n, l], residency = [dsm, dsm], collectives = [shuffle, inter_cluster_reduce], stages = 4, cost_ns = {{[0-9]+}}>}
// RS: dsm.fused_chain {{.*}} {schedule = #dsm.schedule<cluster = [1, 1, 1, 1], block = [128, 128, 64, 128], grid = [1, 70, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [smem, smem], collectives = [inter_cluster_reduce], stages = 2, cost_ns = {{[0-9]+}}>}

func.func @s6(%a: tensor<128x1536xbf16>, %b: tensor<1536x8960xbf16>, %bu: tensor<1536x8960xbf16>, %d: tensor<8960x1536xbf16>) -> tensor<128x1536xbf16> {
  %e = dsm.fused_chain gated_ffn (%a, %b, %bu, %d)
      : (tensor<128x1536xbf16>, tensor<1536x8960xbf16>, tensor<1536x8960xbf16>, tensor<8960x1536xbf16>) -> tensor<128x1536xbf16> {
  ^bb0(%x: tensor<128x1536xbf16>, %w1: tensor<1536x8960xbf16>, %wu: tensor<1536x8960xbf16>, %w2: tensor<8960x1536xbf16>):
    %zero = arith.constant 0.0 : f32
    %c0e = tensor.empty() : tensor<128x8960xf32>
    %cf = linalg.fill ins(%zero : f32) outs(%c0e : tensor<128x8960xf32>) -> tensor<128x8960xf32>
    %c = linalg.matmul ins(%x, %w1 : tensor<128x1536xbf16>, tensor<1536x8960xbf16>) outs(%cf : tensor<128x8960xf32>) -> tensor<128x8960xf32>
    %cu = linalg.matmul ins(%x, %wu : tensor<128x1536xbf16>, tensor<1536x8960xbf16>) outs(%cf : tensor<128x8960xf32>) -> tensor<128x8960xf32>
    %h0 = tensor.empty() : tensor<128x8960xbf16>
    %h = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%c, %cu : tensor<128x8960xf32>, tensor<128x8960xf32>) outs(%h0 : tensor<128x8960xbf16>) {
    ^bb0(%g: f32, %u: f32, %out: bf16):
      %ng = arith.negf %g : f32
      %ex = math.exp %ng : f32
      %one = arith.constant 1.0 : f32
      %den = arith.addf %one, %ex : f32
      %sg = arith.divf %g, %den : f32
      %p = arith.mulf %sg, %u : f32
      %t = arith.truncf %p : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<128x8960xbf16>
    %e0 = tensor.empty() : tensor<128x1536xf32>
    %ef = linalg.fill ins(%zero : f32) outs(%e0 : tensor<128x1536xf32>) -> tensor<128x1536xf32>
    %ea = linalg.matmul ins(%h, %w2 : tensor<128x8960xbf16>, tensor<8960x1536xbf16>) outs(%ef : tensor<128x1536xf32>) -> tensor<128x1536xf32>
    %o0 = tensor.empty() : tensor<128x1536xbf16>
    %o = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%ea : tensor<128x1536xf32>) outs(%o0 : tensor<128x1536xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %t = arith.truncf %in : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<128x1536xbf16>
    dsm.yield %o : tensor<128x1536xbf16>
  }
  return %e : tensor<128x1536xbf16>
}

// CHECK-LABEL: func.func @s7(
// ANY: dsm.fused_chain {{.*}} {schedule = #dsm.schedule<cluster = [1, 4, 1, 4], block = [128, 128, 64, 640], grid = [1, 19, 1, 1], order = [m, n, l, k], spatial = [m, n, l], residency = [dsm, dsm], collectives = [shuffle, inter_cluster_reduce], stages = 4, cost_ns = {{[0-9]+}}>}
// RS: dsm.fused_chain {{.*}} {schedule = #dsm.schedule<cluster = [1, 1, 1, 1], block = [128, 128, 64, 128], grid = [1, 76, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [smem, smem], collectives = [inter_cluster_reduce], stages = 2, cost_ns = {{[0-9]+}}>}

func.func @s7(%a: tensor<128x2560xbf16>, %b: tensor<2560x9728xbf16>, %bu: tensor<2560x9728xbf16>, %d: tensor<9728x2560xbf16>) -> tensor<128x2560xbf16> {
  %e = dsm.fused_chain gated_ffn (%a, %b, %bu, %d)
      : (tensor<128x2560xbf16>, tensor<2560x9728xbf16>, tensor<2560x9728xbf16>, tensor<9728x2560xbf16>) -> tensor<128x2560xbf16> {
  ^bb0(%x: tensor<128x2560xbf16>, %w1: tensor<2560x9728xbf16>, %wu: tensor<2560x9728xbf16>, %w2: tensor<9728x2560xbf16>):
    %zero = arith.constant 0.0 : f32
    %c0e = tensor.empty() : tensor<128x9728xf32>
    %cf = linalg.fill ins(%zero : f32) outs(%c0e : tensor<128x9728xf32>) -> tensor<128x9728xf32>
    %c = linalg.matmul ins(%x, %w1 : tensor<128x2560xbf16>, tensor<2560x9728xbf16>) outs(%cf : tensor<128x9728xf32>) -> tensor<128x9728xf32>
    %cu = linalg.matmul ins(%x, %wu : tensor<128x2560xbf16>, tensor<2560x9728xbf16>) outs(%cf : tensor<128x9728xf32>) -> tensor<128x9728xf32>
    %h0 = tensor.empty() : tensor<128x9728xbf16>
    %h = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%c, %cu : tensor<128x9728xf32>, tensor<128x9728xf32>) outs(%h0 : tensor<128x9728xbf16>) {
    ^bb0(%g: f32, %u: f32, %out: bf16):
      %ng = arith.negf %g : f32
      %ex = math.exp %ng : f32
      %one = arith.constant 1.0 : f32
      %den = arith.addf %one, %ex : f32
      %sg = arith.divf %g, %den : f32
      %p = arith.mulf %sg, %u : f32
      %t = arith.truncf %p : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<128x9728xbf16>
    %e0 = tensor.empty() : tensor<128x2560xf32>
    %ef = linalg.fill ins(%zero : f32) outs(%e0 : tensor<128x2560xf32>) -> tensor<128x2560xf32>
    %ea = linalg.matmul ins(%h, %w2 : tensor<128x9728xbf16>, tensor<9728x2560xbf16>) outs(%ef : tensor<128x2560xf32>) -> tensor<128x2560xf32>
    %o0 = tensor.empty() : tensor<128x2560xbf16>
    %o = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%ea : tensor<128x2560xf32>) outs(%o0 : tensor<128x2560xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %t = arith.truncf %in : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<128x2560xbf16>
    dsm.yield %o : tensor<128x2560xbf16>
  }
  return %e : tensor<128x2560xbf16>
}

// CHECK-LABEL: func.func @s8(
// ANY: dsm.fused_chain {{.*}} {schedule = #dsm.schedule<cluster = [1, 8, 1, 8], block = [64, 64, 64, 128], grid = [2, 6, 1, 1], order = [m, n, l, k], spatial = [m, n, l], residency = [dsm, dsm], collectives = [shuffle, inter_cluster_reduce], stages = 4, cost_ns = {{[0-9]+}}>}
// RS: dsm.fused_chain {{.*}} {schedule = #dsm.schedule<cluster = [1, 8, 1, 1], block = [64, 64, 64, 256], grid = [2, 6, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [smem, smem], collectives = [reduce_scatter, inter_cluster_reduce], stages = 2, cost_ns = {{[0-9]+}}>}

func.func @s8(%a: tensor<128x1024xbf16>, %b: tensor<1024x3072xbf16>, %bu: tensor<1024x3072xbf16>, %d: tensor<3072x1024xbf16>) -> tensor<128x1024xbf16> {
  %e = dsm.fused_chain gated_ffn (%a, %b, %bu, %d)
      : (tensor<128x1024xbf16>, tensor<1024x3072xbf16>, tensor<1024x3072xbf16>, tensor<3072x1024xbf16>) -> tensor<128x1024xbf16> {
  ^bb0(%x: tensor<128x1024xbf16>, %w1: tensor<1024x3072xbf16>, %wu: tensor<1024x3072xbf16>, %w2: tensor<3072x1024xbf16>):
    %zero = arith.constant 0.0 : f32
    %c0e = tensor.empty() : tensor<128x3072xf32>
    %cf = linalg.fill ins(%zero : f32) outs(%c0e : tensor<128x3072xf32>) -> tensor<128x3072xf32>
    %c = linalg.matmul ins(%x, %w1 : tensor<128x1024xbf16>, tensor<1024x3072xbf16>) outs(%cf : tensor<128x3072xf32>) -> tensor<128x3072xf32>
    %cu = linalg.matmul ins(%x, %wu : tensor<128x1024xbf16>, tensor<1024x3072xbf16>) outs(%cf : tensor<128x3072xf32>) -> tensor<128x3072xf32>
    %h0 = tensor.empty() : tensor<128x3072xbf16>
    %h = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%c, %cu : tensor<128x3072xf32>, tensor<128x3072xf32>) outs(%h0 : tensor<128x3072xbf16>) {
    ^bb0(%g: f32, %u: f32, %out: bf16):
      %ng = arith.negf %g : f32
      %ex = math.exp %ng : f32
      %one = arith.constant 1.0 : f32
      %den = arith.addf %one, %ex : f32
      %sg = arith.divf %g, %den : f32
      %p = arith.mulf %sg, %u : f32
      %t = arith.truncf %p : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<128x3072xbf16>
    %e0 = tensor.empty() : tensor<128x1024xf32>
    %ef = linalg.fill ins(%zero : f32) outs(%e0 : tensor<128x1024xf32>) -> tensor<128x1024xf32>
    %ea = linalg.matmul ins(%h, %w2 : tensor<128x3072xbf16>, tensor<3072x1024xbf16>) outs(%ef : tensor<128x1024xf32>) -> tensor<128x1024xf32>
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


// RUN: ff-opt %s --test-dsm-cost-model -verify-diagnostics

// The estimates of the cost model (docs/cost-model.md), checked on plans
// whose numbers are worked out by hand.

// M = 128, N = 1024, K = 512, L = 256 on the lowerable cluster (1, 4, 1, 1),
// two clusters along N (test/Unit/Analysis/CostModelTest.cpp,
// LowerableFfnByHand, has the arithmetic):
// - smem = 1024 + 2 x ((128x64 + 64x128) + 64x128) x 2 + 128x128x2 (C)
//   + 128x128x4 (E staging) = 197632 B; registers 32 + 128/2 = 96;
// - hbm = A 128x512x2 + B 512x1024x2 + D 1024x256x2 + E 128x256x4 (fp32
//   inter-cluster reduce) = 1835008 B;
// - reduce-scatter over 4 CTAs: 2 l tiles x 3/4 x 128x128x4 = 98304 B per
//   CTA in 2 x 3 rounds; inter-cluster reduce of each CTA's quarter of E:
//   2 x 128 x 32 x 4 = 32768 B;
// - sync = (3 x 200 + 2 x 380) cycles at 1830 MHz = 743 ns; 30 clusters of
//   4 fit, so the 2 clusters are one partial wave; launch = 2000 + 1000
//   (memset node) + 131072 B / 3015 GB/s = 3043 ns.
// - kernel-family model (KernelFit, docs/cost-model.md): the 8 CTAs stream
//   8 x (8 x 32768 + 2 x 128x128x2) = 2621440 B of the chain's 1769472
//   unique bytes (A, B, D, the bf16 output): reuse 1.48, so they stream at
//   min(100, 3620 / 8, 3350 x 0.625 x 1.48 / 8) = 100 B/ns, but of a
//   2-stage ring of 32768 B one stage loads while the consumers hold the
//   other, and it covers 670 ns: 32768 / 670 = 48.9 B/ns; 8 k steps of
//   max(32768 / 48.9 = 670.0, 2x128x128x64 / 3356 = 624.9) + 0 = 5360 ns;
//   2 l chunks of 2x128x128x128 / 3356 + 128x128x4 / 4 x 8 / 7247
//   (reductions) + 1873 + 2 x 220.1 x log2 4 = 4021 ns; + 2791 + 128 rows
//   x 64 owned columns x 4 B / 33.17 (the finisher and its read-back)
//   + 2 x 146.7 (the count-in of the tile's 2 clusters) + 2000 (launch)
//   = 19475 ns.

func.func @hand(%a: tensor<128x512xbf16>, %b: tensor<512x1024xbf16>, %d: tensor<1024x256xbf16>) -> tensor<128x256xbf16> {
  // expected-remark @+14 {{plan cluster=[1,4,1,1] block=[128,128,64,128] grid=[1,2,1,1] order=[m,n,k,l] spatial=[m,n] stages=2 (lowerable)}}
  // expected-remark @+13 {{ctas = 8, clusters = 2 of 4, smem = 197632 B, regs/thread = 96 of 236, ctas/sm = 1}}
  // expected-remark @+12 {{volume hbm = 1835008, l2 = 2883584, dsm = 786432, smem = 9699328 B}}
  // expected-remark @+11 {{tensor A: l2 = 1048576, hbm = 131072, tier = global}}
  // expected-remark @+10 {{tensor B: l2 = 1048576, hbm = 1048576, tier = global}}
  // expected-remark @+9 {{tensor C: l2 = 0, hbm = 0, tier = smem}}
  // expected-remark @+8 {{tensor D: l2 = 524288, hbm = 524288, tier = global}}
  // expected-remark @+7 {{tensor E: l2 = 262144, hbm = 131072, tier = reg}}
  // expected-remark @+6 {{collective reduce_scatter: group = 4, bytes/cta = 98304, steps/cta = 6}}
  // expected-remark @+5 {{collective inter_cluster_reduce: group = 2, bytes/cta = 32768, steps/cta = 2}}
  // expected-remark @+4 {{minimax hbm = 609, l2 = 240, dsm = 254, smem = 314 -> 609 ns; compute = 4199 ns}}
  // expected-remark @+3 {{cta compute = 4199, memory = 5176, sync = 743, fill = 617 -> 6537 ns}}
  // expected-remark @+2 {{waves: 0 full of 30 clusters + 2 tail; launch = 3043 ns; total = 9580 ns}}
  // expected-remark @+1 {{kernel-family model = 19353 ns}}
  %e = dsm.fused_chain ffn (%a, %b, %d)
      {schedule = #dsm.schedule<cluster = [1, 4, 1, 1], block = [128, 128, 64, 128], grid = [1, 2, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [smem], collectives = [reduce_scatter, inter_cluster_reduce], stages = 2, cost_ns = 0>}
      : (tensor<128x512xbf16>, tensor<512x1024xbf16>, tensor<1024x256xbf16>) -> tensor<128x256xbf16> {
  ^bb0(%x: tensor<128x512xbf16>, %w1: tensor<512x1024xbf16>, %w2: tensor<1024x256xbf16>):
    %zero = arith.constant 0.0 : f32
    %c0e = tensor.empty() : tensor<128x1024xf32>
    %cf = linalg.fill ins(%zero : f32) outs(%c0e : tensor<128x1024xf32>) -> tensor<128x1024xf32>
    %c = linalg.matmul ins(%x, %w1 : tensor<128x512xbf16>, tensor<512x1024xbf16>) outs(%cf : tensor<128x1024xf32>) -> tensor<128x1024xf32>
    %h0 = tensor.empty() : tensor<128x1024xbf16>
    %h = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%c : tensor<128x1024xf32>) outs(%h0 : tensor<128x1024xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %r = arith.maximumf %in, %zero : f32
      %t = arith.truncf %r : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<128x1024xbf16>
    %e0 = tensor.empty() : tensor<128x256xf32>
    %ef = linalg.fill ins(%zero : f32) outs(%e0 : tensor<128x256xf32>) -> tensor<128x256xf32>
    %ea = linalg.matmul ins(%h, %w2 : tensor<128x1024xbf16>, tensor<1024x256xbf16>) outs(%ef : tensor<128x256xf32>) -> tensor<128x256xf32>
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

// The same tiles with 256-wide N and L and 4 stages overflow shared memory.
func.func @too_big(%a: tensor<128x1024xbf16>, %b: tensor<1024x4096xbf16>, %d: tensor<4096x1024xbf16>) -> tensor<128x1024xbf16> {
  // expected-remark @+2 {{plan cluster=[1,1,1,1] block=[128,256,128,256] grid=[1,16,1,1] order=[m,n,k,l] spatial=[m,n] stages=4}}
  // expected-remark @+1 {{infeasible: capacity: operand pipeline and staging exceed shared memory}}
  %e = dsm.fused_chain ffn (%a, %b, %d)
      {schedule = #dsm.schedule<cluster = [1, 1, 1, 1], block = [128, 256, 128, 256], grid = [1, 16, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [smem], collectives = [inter_cluster_reduce], stages = 4, cost_ns = 0>}
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

// Without a schedule the test pass analyses the plan --dsm-search would
// choose (G4): a shuffle-family plan in clusters of 6 (N = L = 768 per
// cluster is 6 x 128 in l). Each CTA's 64 x 64 bf16 act(C) slice goes to
// the other 5 CTAs of its cluster over DSM (5 x 8192 B), and each CTA adds
// its 64 x 128 fp32 part of E (32768 B) across the 8 clusters along n.
// Clusters of 6 at two CTAs per SM: 2 x the 17 an H100 holds at one.
func.func @searched(%a: tensor<128x768xbf16>, %b: tensor<768x3072xbf16>, %d: tensor<3072x768xbf16>) -> tensor<128x768xbf16> {
  // expected-remark @+14 {{plan cluster=[1,6,1,6] block=[64,64,64,128] grid=[2,8,1,1] order=[m,n,l,k] spatial=[m,n,l] stages=4 (lowerable)}}
  // expected-remark @+13 {{ctas = 96, clusters = 16 of 6, smem = 99328 B, regs/thread = 96 of 255, ctas/sm = 2}}
  // expected-remark @+12 {{volume hbm = 10027008, l2 = 31457280, dsm = 3932160, smem = 76283904 B}}
  // expected-remark @+11 {{tensor A: l2 = 9437184, hbm = 196608, tier = global}}
  // expected-remark @+10 {{tensor B: l2 = 9437184, hbm = 4718592, tier = global}}
  // expected-remark @+9 {{tensor C: l2 = 0, hbm = 0, tier = dsm}}
  // expected-remark @+8 {{tensor D: l2 = 9437184, hbm = 4718592, tier = global}}
  // expected-remark @+7 {{tensor E: l2 = 3145728, hbm = 393216, tier = reg}}
  // expected-remark @+6 {{collective shuffle: group = 6, bytes/cta = 40960, steps/cta = 5}}
  // expected-remark @+5 {{collective inter_cluster_reduce: group = 8, bytes/cta = 32768, steps/cta = 1}}
  // expected-remark @+4 {{minimax hbm = 3326, l2 = 2621, dsm = 1311, smem = 2467 -> 3326 ns; compute = 2099 ns}}
  // expected-remark @+3 {{cta compute = 2099, memory = 3392, sync = 1071, fill = 617 -> 5081 ns}}
  // expected-remark @+2 {{waves: 0 full of 34 clusters + 16 tail; launch = 3130 ns; total = 8211 ns}}
  // expected-remark @+1 {{kernel-family model = 18124 ns}}
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

// The plan --dsm-search=family=reduce-scatter chooses for G4, written out:
// the reduce-scatter family (clusters of 4 along n, E reduce-scattered over
// DSM).
func.func @g4_reduce_scatter(%a: tensor<128x768xbf16>, %b: tensor<768x3072xbf16>, %d: tensor<3072x768xbf16>) -> tensor<128x768xbf16> {
  // expected-remark @+14 {{plan cluster=[1,4,1,1] block=[64,64,64,256] grid=[2,12,1,1] order=[m,n,k,l] spatial=[m,n] stages=3 (lowerable)}}
  // expected-remark @+13 {{ctas = 96, clusters = 24 of 4, smem = 222208 B, regs/thread = 160 of 255, ctas/sm = 1}}
  // expected-remark @+12 {{volume hbm = 10027008, l2 = 33030144, dsm = 14155776, smem = 97517568 B}}
  // expected-remark @+11 {{tensor A: l2 = 9437184, hbm = 196608, tier = global}}
  // expected-remark @+10 {{tensor B: l2 = 9437184, hbm = 4718592, tier = global}}
  // expected-remark @+9 {{tensor C: l2 = 0, hbm = 0, tier = smem}}
  // expected-remark @+8 {{tensor D: l2 = 9437184, hbm = 4718592, tier = global}}
  // expected-remark @+7 {{tensor E: l2 = 4718592, hbm = 393216, tier = reg}}
  // expected-remark @+6 {{collective reduce_scatter: group = 4, bytes/cta = 147456, steps/cta = 9}}
  // expected-remark @+5 {{collective inter_cluster_reduce: group = 12, bytes/cta = 49152, steps/cta = 3}}
  // expected-remark @+4 {{minimax hbm = 3326, l2 = 2753, dsm = 4566, smem = 3154 -> 4566 ns; compute = 2099 ns}}
  // expected-remark @+3 {{cta compute = 2099, memory = 6279, sync = 743, fill = 617 -> 7639 ns}}
  // expected-remark @+2 {{waves: 0 full of 30 clusters + 24 tail; launch = 3130 ns; total = 10770 ns}}
  // expected-remark @+1 {{kernel-family model = 24574 ns}}
  %e = dsm.fused_chain ffn (%a, %b, %d)
      {schedule = #dsm.schedule<cluster = [1, 4, 1, 1], block = [64, 64, 64, 256], grid = [2, 12, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [smem], collectives = [reduce_scatter, inter_cluster_reduce], stages = 3, cost_ns = 0>}
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

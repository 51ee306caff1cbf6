// RUN: ff-opt %s -split-input-file -verify-diagnostics

// Every verifier error of the dsm dialect: attributes, types, then ops.

// expected-error @+1 {{expected a non-empty name and chip}}
func.func @t() attributes {t = #dsm.target<name = "", chip = "sm_90a", sms = 132, smem_per_sm = 233472, smem_per_block = 232448, regs_per_sm = 65536, max_cluster = 8, max_cluster_nonportable = 16, clock_mhz = 1830, hbm_gbps = 3350, l2_bytes = 52428800, dsm_gbps = [3300, 3100, 3000, 2900], dsm_latency = [190, 200, 240, 280], tflops_bf16 = 989, tflops_f16 = 989, tflops_f32 = 494>} { return }

// -----

// expected-error @+1 {{expected positive SM count and capacities}}
func.func @t() attributes {t = #dsm.target<name = "h100", chip = "sm_90a", sms = 0, smem_per_sm = 233472, smem_per_block = 232448, regs_per_sm = 65536, max_cluster = 8, max_cluster_nonportable = 16, clock_mhz = 1830, hbm_gbps = 3350, l2_bytes = 52428800, dsm_gbps = [3300, 3100, 3000, 2900], dsm_latency = [190, 200, 240, 280], tflops_bf16 = 989, tflops_f16 = 989, tflops_f32 = 494>} { return }

// -----

// expected-error @+1 {{smem_per_block (300000) exceeds smem_per_sm (233472)}}
func.func @t() attributes {t = #dsm.target<name = "h100", chip = "sm_90a", sms = 132, smem_per_sm = 233472, smem_per_block = 300000, regs_per_sm = 65536, max_cluster = 8, max_cluster_nonportable = 16, clock_mhz = 1830, hbm_gbps = 3350, l2_bytes = 52428800, dsm_gbps = [3300, 3100, 3000, 2900], dsm_latency = [190, 200, 240, 280], tflops_bf16 = 989, tflops_f16 = 989, tflops_f32 = 494>} { return }

// -----

// expected-error @+1 {{expected 1 <= max_cluster <= max_cluster_nonportable <= 16}}
func.func @t() attributes {t = #dsm.target<name = "h100", chip = "sm_90a", sms = 132, smem_per_sm = 233472, smem_per_block = 232448, regs_per_sm = 65536, max_cluster = 8, max_cluster_nonportable = 32, clock_mhz = 1830, hbm_gbps = 3350, l2_bytes = 52428800, dsm_gbps = [3300, 3100, 3000, 2900], dsm_latency = [190, 200, 240, 280], tflops_bf16 = 989, tflops_f16 = 989, tflops_f32 = 494>} { return }

// -----

// expected-error @+1 {{expected positive clock, bandwidth and peaks}}
func.func @t() attributes {t = #dsm.target<name = "h100", chip = "sm_90a", sms = 132, smem_per_sm = 233472, smem_per_block = 232448, regs_per_sm = 65536, max_cluster = 8, max_cluster_nonportable = 16, clock_mhz = 1830, hbm_gbps = 0, l2_bytes = 52428800, dsm_gbps = [3300, 3100, 3000, 2900], dsm_latency = [190, 200, 240, 280], tflops_bf16 = 989, tflops_f16 = 989, tflops_f32 = 494>} { return }

// -----

// expected-error @+1 {{expected dsm_gbps and dsm_latency for cluster sizes 2, 4, 8 and 16 (4 entries each)}}
func.func @t() attributes {t = #dsm.target<name = "h100", chip = "sm_90a", sms = 132, smem_per_sm = 233472, smem_per_block = 232448, regs_per_sm = 65536, max_cluster = 8, max_cluster_nonportable = 16, clock_mhz = 1830, hbm_gbps = 3350, l2_bytes = 52428800, dsm_gbps = [3300, 3100], dsm_latency = [190, 200, 240, 280], tflops_bf16 = 989, tflops_f16 = 989, tflops_f32 = 494>} { return }

// -----

// expected-error @+1 {{expected positive DSM bandwidths and latencies}}
func.func @t() attributes {t = #dsm.target<name = "h100", chip = "sm_90a", sms = 132, smem_per_sm = 233472, smem_per_block = 232448, regs_per_sm = 65536, max_cluster = 8, max_cluster_nonportable = 16, clock_mhz = 1830, hbm_gbps = 3350, l2_bytes = 52428800, dsm_gbps = [3300, 3100, 3000, 2900], dsm_latency = [190, 0, 240, 280], tflops_bf16 = 989, tflops_f16 = 989, tflops_f32 = 494>} { return }

// -----

// expected-error @+1 {{expected cluster, block and grid to have 4 entries [m, n, k, l]}}
func.func @s() attributes {s = #dsm.schedule<cluster = [1, 4, 1], block = [128, 128, 64, 128], grid = [1, 1, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [smem], collectives = [reduce_scatter], stages = 4, cost_ns = 100>} { return }

// -----

// expected-error @+1 {{cluster extent 17 is not in [1, 16]}}
func.func @s() attributes {s = #dsm.schedule<cluster = [1, 17, 1, 1], block = [128, 128, 64, 128], grid = [1, 1, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [smem], collectives = [reduce_scatter], stages = 4, cost_ns = 100>} { return }

// -----

// expected-error @+1 {{cluster of 32 CTAs (cls_m*cls_n*cls_k) exceeds 16}}
func.func @s() attributes {s = #dsm.schedule<cluster = [2, 16, 1, 1], block = [128, 128, 64, 128], grid = [1, 1, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [smem], collectives = [reduce_scatter], stages = 4, cost_ns = 100>} { return }

// -----

// The second GEMM's shuffle and reduce groups must be whole (a chain of
// one GEMM has none: ops.mlir splits its k).
func.func @shuffle_groups_whole(%a: tensor<128x128xbf16>, %b: tensor<128x256xbf16>, %d: tensor<256x256xbf16>) -> tensor<128x256xf32> {
  // expected-error @+1 {{cls_l (1) must be a multiple of cls_k (2) so that shuffle groups are whole}}
  %r = dsm.fused_chain ffn(%a, %b, %d) {schedule = #dsm.schedule<cluster = [1, 4, 2, 1], block = [128, 64, 64, 128], grid = [1, 1, 1, 1], order = [m, n, k, l], spatial = [m, n, k], residency = [smem], collectives = [all_exchange, reduce_scatter], stages = 4, cost_ns = 1>} : (tensor<128x128xbf16>, tensor<128x256xbf16>, tensor<256x256xbf16>) -> tensor<128x256xf32> {
  ^bb0(%x: tensor<128x128xbf16>, %w1: tensor<128x256xbf16>, %w2: tensor<256x256xbf16>):
    %z = arith.constant 0.0 : f32
    %e0 = tensor.empty() : tensor<128x256xf32>
    %f0 = linalg.fill ins(%z : f32) outs(%e0 : tensor<128x256xf32>) -> tensor<128x256xf32>
    %c = linalg.matmul ins(%x, %w1 : tensor<128x128xbf16>, tensor<128x256xbf16>) outs(%f0 : tensor<128x256xf32>) -> tensor<128x256xf32>
    %hb = tensor.empty() : tensor<128x256xbf16>
    %h = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%c : tensor<128x256xf32>) outs(%hb : tensor<128x256xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %t = arith.truncf %in : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<128x256xbf16>
    %e1 = tensor.empty() : tensor<128x256xf32>
    %f1 = linalg.fill ins(%z : f32) outs(%e1 : tensor<128x256xf32>) -> tensor<128x256xf32>
    %o = linalg.matmul ins(%h, %w2 : tensor<128x256xbf16>, tensor<256x256xbf16>) outs(%f1 : tensor<128x256xf32>) -> tensor<128x256xf32>
    dsm.yield %o : tensor<128x256xf32>
  }
  return %r : tensor<128x256xf32>
}


// -----

func.func @reduce_groups_whole(%a: tensor<128x128xbf16>, %b: tensor<128x256xbf16>, %d: tensor<256x256xbf16>) -> tensor<128x256xf32> {
  // expected-error @+1 {{cls_n*cls_k (1) must be a multiple of cls_l (4) so that reduce groups are whole}}
  %r = dsm.fused_chain ffn(%a, %b, %d) {schedule = #dsm.schedule<cluster = [1, 1, 1, 4], block = [128, 256, 64, 64], grid = [1, 1, 1, 1], order = [m, n, k, l], spatial = [m, l], residency = [smem], collectives = [shuffle], stages = 4, cost_ns = 1>} : (tensor<128x128xbf16>, tensor<128x256xbf16>, tensor<256x256xbf16>) -> tensor<128x256xf32> {
  ^bb0(%x: tensor<128x128xbf16>, %w1: tensor<128x256xbf16>, %w2: tensor<256x256xbf16>):
    %z = arith.constant 0.0 : f32
    %e0 = tensor.empty() : tensor<128x256xf32>
    %f0 = linalg.fill ins(%z : f32) outs(%e0 : tensor<128x256xf32>) -> tensor<128x256xf32>
    %c = linalg.matmul ins(%x, %w1 : tensor<128x128xbf16>, tensor<128x256xbf16>) outs(%f0 : tensor<128x256xf32>) -> tensor<128x256xf32>
    %hb = tensor.empty() : tensor<128x256xbf16>
    %h = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%c : tensor<128x256xf32>) outs(%hb : tensor<128x256xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %t = arith.truncf %in : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<128x256xbf16>
    %e1 = tensor.empty() : tensor<128x256xf32>
    %f1 = linalg.fill ins(%z : f32) outs(%e1 : tensor<128x256xf32>) -> tensor<128x256xf32>
    %o = linalg.matmul ins(%h, %w2 : tensor<128x256xbf16>, tensor<256x256xbf16>) outs(%f1 : tensor<128x256xf32>) -> tensor<128x256xf32>
    dsm.yield %o : tensor<128x256xf32>
  }
  return %r : tensor<128x256xf32>
}


// -----

// blk_n steps by wgmma's n granule, 8; the other tiles by 16.
// expected-error @+1 {{block tile 100 is not a positive multiple of 8}}
func.func @s() attributes {s = #dsm.schedule<cluster = [1, 4, 1, 1], block = [128, 100, 64, 128], grid = [1, 1, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [smem], collectives = [reduce_scatter], stages = 4, cost_ns = 100>} { return }

// -----

// expected-error @+1 {{block tile 72 is not a positive multiple of 16}}
func.func @s() attributes {s = #dsm.schedule<cluster = [1, 4, 1, 1], block = [72, 128, 64, 128], grid = [1, 1, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [smem], collectives = [reduce_scatter], stages = 4, cost_ns = 100>} { return }

// -----

// expected-error @+1 {{grid extent 0 must be positive}}
func.func @s() attributes {s = #dsm.schedule<cluster = [1, 4, 1, 1], block = [128, 128, 64, 128], grid = [0, 1, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [smem], collectives = [reduce_scatter], stages = 4, cost_ns = 100>} { return }

// -----

// expected-error @+1 {{k cannot be split across clusters (the activation needs complete sums)}}
func.func @s() attributes {s = #dsm.schedule<cluster = [1, 4, 1, 1], block = [128, 128, 64, 128], grid = [1, 1, 2, 1], order = [m, n, k, l], spatial = [m, n, k], residency = [smem], collectives = [reduce_scatter], stages = 4, cost_ns = 100>} { return }

// -----

// expected-error @+1 {{l cannot be split across clusters (each l tile needs all of the intermediate)}}
func.func @s() attributes {s = #dsm.schedule<cluster = [1, 4, 1, 1], block = [128, 128, 64, 128], grid = [1, 1, 1, 2], order = [m, n, k, l], spatial = [m, n, l], residency = [smem], collectives = [reduce_scatter], stages = 4, cost_ns = 100>} { return }

// -----

// expected-error @+1 {{order must be a permutation of [m, n, k, l]}}
func.func @s() attributes {s = #dsm.schedule<cluster = [1, 4, 1, 1], block = [128, 128, 64, 128], grid = [1, 1, 1, 1], order = [m, n, k, k], spatial = [m, n], residency = [smem], collectives = [reduce_scatter], stages = 4, cost_ns = 100>} { return }

// -----

// expected-error @+1 {{k must be nested inside m and n}}
func.func @s() attributes {s = #dsm.schedule<cluster = [1, 4, 1, 1], block = [128, 128, 64, 128], grid = [1, 1, 1, 1], order = [m, k, n, l], spatial = [m, n], residency = [smem], collectives = [reduce_scatter], stages = 4, cost_ns = 100>} { return }

// -----

// expected-error @+1 {{dimension m is listed twice in spatial}}
func.func @s() attributes {s = #dsm.schedule<cluster = [1, 4, 1, 1], block = [128, 128, 64, 128], grid = [1, 1, 1, 1], order = [m, n, k, l], spatial = [m, n, m], residency = [smem], collectives = [reduce_scatter], stages = 4, cost_ns = 100>} { return }

// -----

// expected-error @+1 {{temporal dimension n cannot be split over the grid}}
func.func @s() attributes {s = #dsm.schedule<cluster = [1, 1, 1, 1], block = [128, 128, 64, 128], grid = [1, 4, 1, 1], order = [m, n, k, l], spatial = [m], residency = [smem], collectives = [inter_cluster_reduce], stages = 4, cost_ns = 100>} { return }

// -----

// Only a temporal n may be split over the cluster (its E partials are
// reduced there).
// expected-error @+1 {{temporal dimension l cannot be split over the cluster}}
func.func @s() attributes {s = #dsm.schedule<cluster = [1, 1, 1, 2], block = [128, 128, 64, 128], grid = [1, 1, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [smem], collectives = [], stages = 4, cost_ns = 100>} { return }

// -----

// expected-error @+1 {{expected 1 to 8 pipeline stages, got 0}}
func.func @s() attributes {s = #dsm.schedule<cluster = [1, 4, 1, 1], block = [128, 128, 64, 128], grid = [1, 1, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [smem], collectives = [reduce_scatter], stages = 0, cost_ns = 100>} { return }

// -----

// expected-error @+1 {{expected a non-negative cost estimate}}
func.func @s() attributes {s = #dsm.schedule<cluster = [1, 4, 1, 1], block = [128, 128, 64, 128], grid = [1, 1, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [smem], collectives = [reduce_scatter], stages = 4, cost_ns = -5>} { return }

// -----

// expected-error @+1 {{expected 1 <= m_lo <= m_hi, got [64, 1]}}
func.func @s() attributes {s = #dsm.schedule<cluster = [1, 4, 1, 1], block = [128, 128, 64, 128], grid = [1, 1, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [smem], collectives = [reduce_scatter], stages = 4, cost_ns = 100, m_lo = 64, m_hi = 1>} { return }

// -----

// expected-error @+1 {{expected at least one plan}}
func.func @tab() attributes {s = #dsm.schedule_table<[]>} { return }

// -----

// expected-error @+1 {{plan 0 has no m_lo/m_hi bin}}
func.func @tab() attributes {s = #dsm.schedule_table<[#dsm.schedule<cluster = [1, 1, 1, 1], block = [128, 128, 64, 128], grid = [1, 1, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [smem], collectives = [], stages = 4, cost_ns = 100>]>} { return }

// -----

// expected-error @+1 {{plan 1 starts at m = 100, expected 65 (bins must be sorted and contiguous from 1)}}
func.func @tab() attributes {s = #dsm.schedule_table<[#dsm.schedule<cluster = [1, 1, 1, 1], block = [128, 128, 64, 128], grid = [1, 1, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [smem], collectives = [], stages = 4, cost_ns = 100, m_lo = 1, m_hi = 64>, #dsm.schedule<cluster = [1, 1, 1, 1], block = [128, 128, 64, 128], grid = [1, 1, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [smem], collectives = [], stages = 4, cost_ns = 100, m_lo = 100, m_hi = 200>]>} { return }

// -----

// expected-error @+1 {{expected a ranked tile shape}}
func.func @b(%x: !dsm.buffer<bf16, split = []>) { return }

// -----

// expected-error @+1 {{expected an integer or float element type}}
func.func @b(%x: !dsm.buffer<128xindex, split = [1]>) { return }

// -----

// expected-error @+1 {{expected 2 split factors, one per dimension, got 1}}
func.func @b(%x: !dsm.buffer<128x64xbf16, split = [4]>) { return }

// -----

// expected-error @+1 {{split factor 3 of dimension 1 does not divide its size 64}}
func.func @b(%x: !dsm.buffer<128x64xbf16, split = [1, 3]>) { return }

// -----

// expected-error @+1 {{a cluster holds at most 16 CTAs, but the buffer is split into 32 pieces}}
func.func @b(%x: !dsm.buffer<128x64xbf16, split = [2, 16]>) { return }

// -----

// expected-error @+1 {{expected positive dimension 0, got 0}}
func.func @b(%x: !dsm.buffer<0x64xbf16, split = [1, 1]>) { return }

// -----


func.func @gemm_l_split(%a: tensor<128x256xbf16>, %b: tensor<256x256xbf16>) -> tensor<128x256xf32> {
  // expected-error @+1 {{a chain of one GEMM has no l dimension to split}}
  %r = dsm.fused_chain gemm(%a, %b) {schedule = #dsm.schedule<cluster = [1, 2, 1, 2], block = [128, 128, 64, 16], grid = [1, 1, 1, 1], order = [m, n, k, l], spatial = [m, n, l], residency = [], collectives = [shuffle], stages = 4, cost_ns = 1>} : (tensor<128x256xbf16>, tensor<256x256xbf16>) -> tensor<128x256xf32> {
  ^bb0(%x: tensor<128x256xbf16>, %w: tensor<256x256xbf16>):
    %z = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<128x256xf32>
    %f = linalg.fill ins(%z : f32) outs(%e : tensor<128x256xf32>) -> tensor<128x256xf32>
    %c = linalg.matmul ins(%x, %w : tensor<128x256xbf16>, tensor<256x256xbf16>) outs(%f : tensor<128x256xf32>) -> tensor<128x256xf32>
    dsm.yield %c : tensor<128x256xf32>
  }
  return %r : tensor<128x256xf32>
}

// -----

func.func @arg_count(%a: tensor<128x256xbf16>, %b: tensor<256x256xbf16>) {
  // expected-error @+1 {{expected 2 block arguments, one per input, got 1}}
  %r = dsm.fused_chain gemm(%a, %b) : (tensor<128x256xbf16>, tensor<256x256xbf16>) -> tensor<128x256xbf16> {
  ^bb0(%x: tensor<128x256xbf16>):
    dsm.yield %x : tensor<128x256xbf16>
  }
  return
}

// -----

func.func @arg_type(%a: tensor<128x256xbf16>) {
  // expected-error @+1 {{block argument 0 has type 'tensor<128x256xf16>' but input 0 has type 'tensor<128x256xbf16>'}}
  %r = dsm.fused_chain gemm(%a) : (tensor<128x256xbf16>) -> tensor<128x256xf16> {
  ^bb0(%x: tensor<128x256xf16>):
    dsm.yield %x : tensor<128x256xf16>
  }
  return
}

// -----

func.func @yield_types(%a: tensor<128x256xbf16>) {
  %r = dsm.fused_chain gemm(%a) : (tensor<128x256xbf16>) -> tensor<128x256xf32> {
  ^bb0(%x: tensor<128x256xbf16>):
    // expected-error @+1 {{yields types that differ from the results of the enclosing dsm.fused_chain}}
    dsm.yield %x : tensor<128x256xbf16>
  }
  return
}

// -----

func.func @kind_mismatch(%a: tensor<128x256xbf16>, %b: tensor<256x256xbf16>) -> tensor<128x256xf32> {
  // expected-error @+1 {{body does not hold a ffn chain of static-N/K contractions}}
  %r = dsm.fused_chain ffn(%a, %b) : (tensor<128x256xbf16>, tensor<256x256xbf16>) -> tensor<128x256xf32> {
  ^bb0(%x: tensor<128x256xbf16>, %w: tensor<256x256xbf16>):
    %z = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<128x256xf32>
    %f = linalg.fill ins(%z : f32) outs(%e : tensor<128x256xf32>) -> tensor<128x256xf32>
    %c = linalg.matmul ins(%x, %w : tensor<128x256xbf16>, tensor<256x256xbf16>) outs(%f : tensor<128x256xf32>) -> tensor<128x256xf32>
    dsm.yield %c : tensor<128x256xf32>
  }
  return %r : tensor<128x256xf32>
}

// -----

func.func @not_covered(%a: tensor<512x256xbf16>, %b: tensor<256x256xbf16>) -> tensor<512x256xf32> {
  // expected-error @+1 {{schedule covers 128 of 512 along spatial m (cluster x grid x block)}}
  %r = dsm.fused_chain gemm(%a, %b) {schedule = #dsm.schedule<cluster = [1, 1, 1, 1], block = [128, 256, 64, 16], grid = [1, 1, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [], stages = 4, cost_ns = 1>} : (tensor<512x256xbf16>, tensor<256x256xbf16>) -> tensor<512x256xf32> {
  ^bb0(%x: tensor<512x256xbf16>, %w: tensor<256x256xbf16>):
    %z = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<512x256xf32>
    %f = linalg.fill ins(%z : f32) outs(%e : tensor<512x256xf32>) -> tensor<512x256xf32>
    %c = linalg.matmul ins(%x, %w : tensor<512x256xbf16>, tensor<256x256xbf16>) outs(%f : tensor<512x256xf32>) -> tensor<512x256xf32>
    dsm.yield %c : tensor<512x256xf32>
  }
  return %r : tensor<512x256xf32>
}

// -----

// The last cluster along m may run past M, a whole idle cluster may not.
func.func @idle(%a: tensor<128x256xbf16>, %b: tensor<256x256xbf16>) -> tensor<128x256xf32> {
  // expected-error @+1 {{schedule leaves CTAs idle along m: 4 tiles of 128 for 128}}
  %r = dsm.fused_chain gemm(%a, %b) {schedule = #dsm.schedule<cluster = [2, 1, 1, 1], block = [128, 256, 64, 16], grid = [2, 1, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [], stages = 4, cost_ns = 1>} : (tensor<128x256xbf16>, tensor<256x256xbf16>) -> tensor<128x256xf32> {
  ^bb0(%x: tensor<128x256xbf16>, %w: tensor<256x256xbf16>):
    %z = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<128x256xf32>
    %f = linalg.fill ins(%z : f32) outs(%e : tensor<128x256xf32>) -> tensor<128x256xf32>
    %c = linalg.matmul ins(%x, %w : tensor<128x256xbf16>, tensor<256x256xbf16>) outs(%f : tensor<128x256xf32>) -> tensor<128x256xf32>
    dsm.yield %c : tensor<128x256xf32>
  }
  return %r : tensor<128x256xf32>
}

// -----

func.func @block_too_big(%a: tensor<128x32xbf16>, %b: tensor<32x256xbf16>) -> tensor<128x256xf32> {
  // expected-error @+1 {{block tile 64 along k exceeds the extent 32}}
  %r = dsm.fused_chain gemm(%a, %b) {schedule = #dsm.schedule<cluster = [1, 1, 1, 1], block = [128, 256, 64, 16], grid = [1, 1, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [], stages = 4, cost_ns = 1>} : (tensor<128x32xbf16>, tensor<32x256xbf16>) -> tensor<128x256xf32> {
  ^bb0(%x: tensor<128x32xbf16>, %w: tensor<32x256xbf16>):
    %z = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<128x256xf32>
    %f = linalg.fill ins(%z : f32) outs(%e : tensor<128x256xf32>) -> tensor<128x256xf32>
    %c = linalg.matmul ins(%x, %w : tensor<128x32xbf16>, tensor<32x256xbf16>) outs(%f : tensor<128x256xf32>) -> tensor<128x256xf32>
    dsm.yield %c : tensor<128x256xf32>
  }
  return %r : tensor<128x256xf32>
}

// -----

func.func @table_static_m(%a: tensor<128x256xbf16>, %b: tensor<256x256xbf16>) -> tensor<128x256xf32> {
  // expected-error @+1 {{a schedule_table is for dynamic M; M is 128}}
  %r = dsm.fused_chain gemm(%a, %b) {schedule = #dsm.schedule_table<[#dsm.schedule<cluster = [1, 1, 1, 1], block = [128, 256, 64, 16], grid = [1, 1, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [], stages = 4, cost_ns = 1, m_lo = 1, m_hi = 128>]>} : (tensor<128x256xbf16>, tensor<256x256xbf16>) -> tensor<128x256xf32> {
  ^bb0(%x: tensor<128x256xbf16>, %w: tensor<256x256xbf16>):
    %z = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<128x256xf32>
    %f = linalg.fill ins(%z : f32) outs(%e : tensor<128x256xf32>) -> tensor<128x256xf32>
    %c = linalg.matmul ins(%x, %w : tensor<128x256xbf16>, tensor<256x256xbf16>) outs(%f : tensor<128x256xf32>) -> tensor<128x256xf32>
    dsm.yield %c : tensor<128x256xf32>
  }
  return %r : tensor<128x256xf32>
}

// -----

func.func @table_n_not_covered(%a: tensor<?x512xbf16>, %b: tensor<512x512xbf16>) -> tensor<?x512xf32> {
  // expected-error @+1 {{schedule covers 256 of 512 along spatial n (cluster x grid x block)}}
  %r = dsm.fused_chain gemm(%a, %b) {schedule = #dsm.schedule_table<[#dsm.schedule<cluster = [1, 1, 1, 1], block = [128, 256, 64, 16], grid = [1, 1, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [], stages = 4, cost_ns = 1, m_lo = 1, m_hi = 1024>]>} : (tensor<?x512xbf16>, tensor<512x512xbf16>) -> tensor<?x512xf32> {
  ^bb0(%x: tensor<?x512xbf16>, %w: tensor<512x512xbf16>):
    %z = arith.constant 0.0 : f32
    %c0 = arith.constant 0 : index
    %m = tensor.dim %x, %c0 : tensor<?x512xbf16>
    %e = tensor.empty(%m) : tensor<?x512xf32>
    %f = linalg.fill ins(%z : f32) outs(%e : tensor<?x512xf32>) -> tensor<?x512xf32>
    %c = linalg.matmul ins(%x, %w : tensor<?x512xbf16>, tensor<512x512xbf16>) outs(%f : tensor<?x512xf32>) -> tensor<?x512xf32>
    dsm.yield %c : tensor<?x512xf32>
  }
  return %r : tensor<?x512xf32>
}

// -----

func.func @views(%b: !dsm.buffer<128x1024xbf16, split = [1, 4]>, %r: index) {
  // expected-error @+1 {{view element type 'f16' differs from the buffer's 'bf16'}}
  %v = dsm.local_view %b : !dsm.buffer<128x1024xbf16, split = [1, 4]> -> memref<128x256xf16, 3>
  return
}

// -----

func.func @views(%b: !dsm.buffer<128x1024xbf16, split = [1, 4]>) {
  // expected-error @+1 {{view shape must be the piece one rank holds}}
  %v = dsm.local_view %b : !dsm.buffer<128x1024xbf16, split = [1, 4]> -> memref<128x1024xbf16, 3>
  return
}

// -----

func.func @views(%b: !dsm.buffer<128x1024xbf16, split = [1, 4]>) {
  // expected-error @+1 {{a local view lives in this CTA's shared memory: expected #gpu.address_space<workgroup>, got #dsm.shared_cluster}}
  %v = dsm.local_view %b : !dsm.buffer<128x1024xbf16, split = [1, 4]> -> memref<128x256xbf16, #dsm.shared_cluster>
  return
}

// -----

func.func @views(%b: !dsm.buffer<128x1024xbf16, split = [1, 4]>, %r: index) {
  // expected-error @+1 {{a remote view must be in the #dsm.shared_cluster memory space}}
  %v = dsm.remote_view %b[%r] : !dsm.buffer<128x1024xbf16, split = [1, 4]> -> memref<128x256xbf16, 3>
  return
}

// -----

func.func @barrier() {
  // expected-error @+1 {{attribute 'count' failed to satisfy constraint}}
  %b = dsm.barrier_create count = 0 : !dsm.barrier
  return
}

// -----

func.func @group(%s: !dsm.buffer<128x256xf32, split = [1, 1]>) {
  // expected-error @+1 {{group size 17 is not in [1, 16]}}
  dsm.reduce all_reduce add %s into %s axis = 0 group(17, 1) : !dsm.buffer<128x256xf32, split = [1, 1]>, !dsm.buffer<128x256xf32, split = [1, 1]>
  return
}

// -----

func.func @group(%s: !dsm.buffer<128x256xf32, split = [1, 1]>) {
  // expected-error @+1 {{group stride 3 must be a power of two}}
  dsm.reduce all_reduce add %s into %s axis = 0 group(2, 3) : !dsm.buffer<128x256xf32, split = [1, 1]>, !dsm.buffer<128x256xf32, split = [1, 1]>
  return
}

// -----

func.func @group(%s: !dsm.buffer<128x256xf32, split = [1, 1]>) attributes {known_cluster_size = array<i32: 4, 1, 1>} {
  // expected-error @+1 {{group of 4 ranks with stride 2 does not fit the enclosing cluster of 4 CTAs}}
  dsm.reduce all_reduce add %s into %s axis = 0 group(4, 2) : !dsm.buffer<128x256xf32, split = [1, 1]>, !dsm.buffer<128x256xf32, split = [1, 1]>
  return
}

// -----

func.func @group(%s: !dsm.buffer<128x256xf32, split = [1, 1]>) attributes {known_cluster_size = array<i32: 3, 1, 1>} {
  // expected-error @+1 {{groups of 2 ranks with stride 1 do not tile the enclosing cluster of 3 CTAs}}
  dsm.reduce all_reduce add %s into %s axis = 0 group(2, 1) : !dsm.buffer<128x256xf32, split = [1, 1]>, !dsm.buffer<128x256xf32, split = [1, 1]>
  return
}

// -----

func.func @types(%s: !dsm.buffer<128x256xf32, split = [1, 1]>, %d: !dsm.buffer<128x256xf16, split = [1, 1]>) {
  // expected-error @+1 {{source and destination element types differ ('f32' vs 'f16')}}
  dsm.reduce all_reduce add %s into %d axis = 0 group(2, 1) : !dsm.buffer<128x256xf32, split = [1, 1]>, !dsm.buffer<128x256xf16, split = [1, 1]>
  return
}

// -----

func.func @types(%s: !dsm.buffer<128x256xi32, split = [1, 1]>, %d: !dsm.buffer<128x256xi32, split = [1, 1]>) {
  // expected-error @+1 {{expected a floating-point element type, got 'i32'}}
  dsm.reduce all_reduce add %s into %d axis = 0 group(2, 1) : !dsm.buffer<128x256xi32, split = [1, 1]>, !dsm.buffer<128x256xi32, split = [1, 1]>
  return
}

// -----

func.func @allreduce(%s: !dsm.buffer<128x256xf32, split = [1, 1]>, %d: !dsm.buffer<128x128xf32, split = [1, 1]>) {
  // expected-error @+1 {{all_reduce keeps the tile shape}}
  dsm.reduce all_reduce add %s into %d axis = 0 group(2, 1) : !dsm.buffer<128x256xf32, split = [1, 1]>, !dsm.buffer<128x128xf32, split = [1, 1]>
  return
}

// -----

func.func @rs(%s: !dsm.buffer<128x6xf32, split = [1, 1]>, %d: !dsm.buffer<128x1xf32, split = [1, 1]>) {
  // expected-error @+1 {{reduce_scatter along axis 1 of extent 6 is not divisible by the group size 4}}
  dsm.reduce reduce_scatter add %s into %d axis = 1 group(4, 1) : !dsm.buffer<128x6xf32, split = [1, 1]>, !dsm.buffer<128x1xf32, split = [1, 1]>
  return
}

// -----

func.func @rs(%s: !dsm.buffer<128x256xf32, split = [1, 1]>, %d: !dsm.buffer<128x128xf32, split = [1, 1]>) {
  // expected-error @+1 {{source dimension 1 is 256, expected 512}}
  dsm.reduce reduce_scatter add %s into %d axis = 1 group(4, 1) : !dsm.buffer<128x256xf32, split = [1, 1]>, !dsm.buffer<128x128xf32, split = [1, 1]>
  return
}

// -----

func.func @rs(%s: !dsm.buffer<128x256xf32, split = [1, 1]>, %d: !dsm.buffer<128x64xf32, split = [1, 1]>) {
  // expected-error @+1 {{axis 2 is out of range for rank 2}}
  dsm.reduce reduce_scatter add %s into %d axis = 2 group(4, 1) : !dsm.buffer<128x256xf32, split = [1, 1]>, !dsm.buffer<128x64xf32, split = [1, 1]>
  return
}

// -----

func.func @push_rs_generic(%s: !dsm.buffer<512x64xf32, split = [1, 1]>, %c: !dsm.buffer<384x64xf32, split = [1, 1]>, %b: !dsm.barrier) {
  // expected-error @+1 {{push needs a scratch buffer, a barrier and a phase}}
  "dsm.reduce"(%s, %c, %b) <{axis = 0 : i64, combiner = #dsm<combiner add>, group_size = 4 : i64, group_stride = 1 : i64, mode = #dsm<reduce_mode reduce_scatter>, operandSegmentSizes = array<i32: 1, 0, 1, 1, 0>}> : (!dsm.buffer<512x64xf32, split = [1, 1]>, !dsm.buffer<384x64xf32, split = [1, 1]>, !dsm.barrier) -> ()
  return
}

// -----

func.func @push_rs(%s: !dsm.buffer<512x64xf32, split = [1, 1]>, %s2: !dsm.buffer<128x256xf32, split = [1, 1]>, %d: !dsm.buffer<512x64xf32, split = [1, 1]>, %c: !dsm.buffer<384x64xf32, split = [1, 1]>, %b: !dsm.barrier, %p: i1) {
  // expected-error @+1 {{only a push reduces in place: a pull needs a destination}}
  dsm.reduce reduce_scatter add %s axis = 0 group(4, 1) : !dsm.buffer<512x64xf32, split = [1, 1]>
  return
}

// -----

func.func @push_rs(%s: !dsm.buffer<512x64xf32, split = [1, 1]>, %s2: !dsm.buffer<128x256xf32, split = [1, 1]>, %d: !dsm.buffer<512x64xf32, split = [1, 1]>, %c: !dsm.buffer<384x64xf32, split = [1, 1]>, %b: !dsm.barrier, %p: i1) {
  // expected-error @+1 {{only reduce_scatter pushes}}
  dsm.reduce all_reduce add %s into %d axis = 0 group(4, 1) push(%c : !dsm.buffer<384x64xf32, split = [1, 1]>, %b, %p) : !dsm.buffer<512x64xf32, split = [1, 1]>, !dsm.buffer<512x64xf32, split = [1, 1]>
  return
}

// -----

func.func @push_rs(%s: !dsm.buffer<512x64xf32, split = [1, 1]>, %s2: !dsm.buffer<128x256xf32, split = [1, 1]>, %d: !dsm.buffer<512x64xf32, split = [1, 1]>, %c: !dsm.buffer<384x64xf32, split = [1, 1]>, %b: !dsm.barrier, %p: i1) {
  // expected-error @+1 {{a push moves contiguous slices: axis must be 0}}
  dsm.reduce reduce_scatter add %s2 axis = 1 group(4, 1) push(%c : !dsm.buffer<384x64xf32, split = [1, 1]>, %b, %p) : !dsm.buffer<128x256xf32, split = [1, 1]>
  return
}

// -----

func.func @push_rs(%s: !dsm.buffer<512x64xf32, split = [1, 1]>, %s2: !dsm.buffer<128x256xf32, split = [1, 1]>, %d: !dsm.buffer<512x64xf32, split = [1, 1]>, %c: !dsm.buffer<384x64xf32, split = [1, 1]>, %b: !dsm.barrier, %p: i1) {
  // expected-error @+1 {{the scratch piece must hold group_size - 1 slices along axis 0: expected shape 384x64, got 512x64}}
  dsm.reduce reduce_scatter add %s axis = 0 group(4, 1) push(%d : !dsm.buffer<512x64xf32, split = [1, 1]>, %b, %p) : !dsm.buffer<512x64xf32, split = [1, 1]>
  return
}

// -----

func.func @push_rs(%s: !dsm.buffer<512x64xf32, split = [1, 1]>, %s2: !dsm.buffer<128x256xf32, split = [1, 1]>, %d: !dsm.buffer<512x64xf32, split = [1, 1]>, %c: !dsm.buffer<384x64xf32, split = [1, 1]>, %b: !dsm.barrier, %p: i1) {
  // expected-error @+1 {{the scratch buffer must be distinct from the source and the destination}}
  dsm.reduce reduce_scatter add %s axis = 0 group(2, 1) push(%s : !dsm.buffer<512x64xf32, split = [1, 1]>, %b, %p) : !dsm.buffer<512x64xf32, split = [1, 1]>
  return
}

// -----

func.func @push_rs(%s: !dsm.buffer<512x64xf32, split = [1, 1]>, %s2: !dsm.buffer<128x256xf32, split = [1, 1]>, %d: !dsm.buffer<512x64xf32, split = [1, 1]>, %c: !dsm.buffer<384x64xf32, split = [1, 1]>, %b: !dsm.barrier, %p: i1) {
  // expected-error @+1 {{a push needs a group of at least two ranks}}
  dsm.reduce reduce_scatter add %s axis = 0 group(1, 1) push(%c : !dsm.buffer<384x64xf32, split = [1, 1]>, %b, %p) : !dsm.buffer<512x64xf32, split = [1, 1]>
  return
}

// -----

func.func @shuffle(%s: !dsm.buffer<128x128xbf16, split = [1, 1]>, %d: !dsm.buffer<128x256xf16, split = [1, 1]>) {
  // expected-error @+1 {{source and destination element types differ}}
  dsm.shuffle %s into %d axis = 1 group(2, 1) : !dsm.buffer<128x128xbf16, split = [1, 1]>, !dsm.buffer<128x256xf16, split = [1, 1]>
  return
}

// -----

func.func @shuffle(%s: !dsm.buffer<128x128xbf16, split = [1, 1]>, %d: !dsm.buffer<128x256xbf16, split = [1, 1]>) {
  // expected-error @+1 {{destination dimension 1 is 256, expected 512}}
  dsm.shuffle %s into %d axis = 1 group(4, 1) : !dsm.buffer<128x128xbf16, split = [1, 1]>, !dsm.buffer<128x256xbf16, split = [1, 1]>
  return
}

// -----

func.func @multiply(%s: !dsm.buffer<128x128xf32, split = [1, 1]>, %d: !dsm.buffer<128x128xf32, split = [1, 1]>) {
  // expected-error @+1 {{multiply combines the two branches of a gated FFN: expected a group of 2, got 4}}
  dsm.multiply %s into %d group(4, 1) : !dsm.buffer<128x128xf32, split = [1, 1]>, !dsm.buffer<128x128xf32, split = [1, 1]>
  return
}

// -----

func.func @multiply(%s: !dsm.buffer<128x128xf32, split = [1, 1]>, %d: !dsm.buffer<128x64xf32, split = [1, 1]>) {
  // expected-error @+1 {{multiply keeps the tile shape}}
  dsm.multiply %s into %d group(2, 1) : !dsm.buffer<128x128xf32, split = [1, 1]>, !dsm.buffer<128x64xf32, split = [1, 1]>
  return
}

// -----

func.func @icr(%s: !dsm.buffer<128x64xf32, split = [1, 1]>, %g: memref<128x4096xbf16>, %i: index) {
  // expected-error @+1 {{destination element type 'bf16' differs from the source's 'f32'}}
  dsm.inter_cluster_reduce add %s into %g[%i, %i] : !dsm.buffer<128x64xf32, split = [1, 1]>, memref<128x4096xbf16>
  return
}

// -----

func.func @icr(%s: !dsm.buffer<128x64xf32, split = [1, 1]>, %g: memref<128x4096xf32>, %i: index) {
  // expected-error @+1 {{expected 2 offsets, one per destination dimension}}
  dsm.inter_cluster_reduce add %s into %g[%i] : !dsm.buffer<128x64xf32, split = [1, 1]>, memref<128x4096xf32>
  return
}

// -----

func.func @icr(%s: !dsm.buffer<64xf32, split = [1]>, %g: memref<128x4096xf32>, %i: index) {
  // expected-error @+1 {{source and destination ranks differ}}
  dsm.inter_cluster_reduce add %s into %g[%i, %i] : !dsm.buffer<64xf32, split = [1]>, memref<128x4096xf32>
  return
}

// -----

func.func @icr(%s: !dsm.buffer<128x64xf32, split = [1, 1]>, %g: memref<128x4096xf32, #dsm.shared_cluster>, %i: index) {
  // expected-error @+1 {{the destination must be global memory}}
  dsm.inter_cluster_reduce add %s into %g[%i, %i] : !dsm.buffer<128x64xf32, split = [1, 1]>, memref<128x4096xf32, #dsm.shared_cluster>
  return
}

// -----

func.func @icr(%s: !dsm.buffer<128x64xf32, split = [1, 1]>, %g: memref<128x4096xf32>, %i: index) {
  // expected-error @+1 {{only add is supported across clusters}}
  dsm.inter_cluster_reduce max %s into %g[%i, %i] : !dsm.buffer<128x64xf32, split = [1, 1]>, memref<128x4096xf32>
  return
}

// -----

func.func @yield_outside() {
  // expected-error @+1 {{expects parent op 'dsm.fused_chain'}}
  dsm.yield
}

// -----

func.func @bad_kind(%a: tensor<4xf32>) {
  // expected-error @+1 {{unknown keyword 'attention'}}
  %r = dsm.fused_chain attention(%a) : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%x: tensor<4xf32>):
    dsm.yield %x : tensor<4xf32>
  }
  return
}

// -----

func.func @bad_combiner(%s: !dsm.buffer<128x64xf32, split = [1, 1]>, %g: memref<128x4096xf32>, %i: index) {
  // expected-error @+1 {{unknown keyword 'mul'}}
  dsm.inter_cluster_reduce mul %s into %g[%i, %i] : !dsm.buffer<128x64xf32, split = [1, 1]>, memref<128x4096xf32>
  return
}

// -----

func.func @needs_all_exchange(%a: tensor<128x128xbf16>, %b: tensor<128x256xbf16>, %d: tensor<256x256xbf16>) -> tensor<128x256xf32> {
  // expected-error @+1 {{cls_k > 1 needs all_exchange or multiply}}
  %r = dsm.fused_chain ffn(%a, %b, %d) {schedule = #dsm.schedule<cluster = [1, 2, 2, 2], block = [128, 128, 64, 128], grid = [1, 1, 1, 1], order = [m, n, k, l], spatial = [m, n, k, l], residency = [smem], collectives = [reduce_scatter], stages = 4, cost_ns = 1>} : (tensor<128x128xbf16>, tensor<128x256xbf16>, tensor<256x256xbf16>) -> tensor<128x256xf32> {
  ^bb0(%x: tensor<128x128xbf16>, %w1: tensor<128x256xbf16>, %w2: tensor<256x256xbf16>):
    %z = arith.constant 0.0 : f32
    %e0 = tensor.empty() : tensor<128x256xf32>
    %f0 = linalg.fill ins(%z : f32) outs(%e0 : tensor<128x256xf32>) -> tensor<128x256xf32>
    %c = linalg.matmul ins(%x, %w1 : tensor<128x128xbf16>, tensor<128x256xbf16>) outs(%f0 : tensor<128x256xf32>) -> tensor<128x256xf32>
    %hb = tensor.empty() : tensor<128x256xbf16>
    %h = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%c : tensor<128x256xf32>) outs(%hb : tensor<128x256xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %t = arith.truncf %in : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<128x256xbf16>
    %e1 = tensor.empty() : tensor<128x256xf32>
    %f1 = linalg.fill ins(%z : f32) outs(%e1 : tensor<128x256xf32>) -> tensor<128x256xf32>
    %o = linalg.matmul ins(%h, %w2 : tensor<128x256xbf16>, tensor<256x256xbf16>) outs(%f1 : tensor<128x256xf32>) -> tensor<128x256xf32>
    dsm.yield %o : tensor<128x256xf32>
  }
  return %r : tensor<128x256xf32>
}

// -----

func.func @needs_shuffle(%a: tensor<128x256xbf16>, %b: tensor<256x512xbf16>, %d: tensor<512x256xbf16>) -> tensor<128x256xf32> {
  // expected-error @+1 {{shuffle groups of 2 CTAs need the shuffle collective}}
  %r = dsm.fused_chain ffn(%a, %b, %d) {schedule = #dsm.schedule<cluster = [1, 4, 1, 2], block = [128, 128, 64, 128], grid = [1, 1, 1, 1], order = [m, n, k, l], spatial = [m, n, l], residency = [smem], collectives = [reduce_scatter], stages = 4, cost_ns = 1>} : (tensor<128x256xbf16>, tensor<256x512xbf16>, tensor<512x256xbf16>) -> tensor<128x256xf32> {
  ^bb0(%x: tensor<128x256xbf16>, %w1: tensor<256x512xbf16>, %w2: tensor<512x256xbf16>):
    %z = arith.constant 0.0 : f32
    %e0 = tensor.empty() : tensor<128x512xf32>
    %f0 = linalg.fill ins(%z : f32) outs(%e0 : tensor<128x512xf32>) -> tensor<128x512xf32>
    %c = linalg.matmul ins(%x, %w1 : tensor<128x256xbf16>, tensor<256x512xbf16>) outs(%f0 : tensor<128x512xf32>) -> tensor<128x512xf32>
    %hb = tensor.empty() : tensor<128x512xbf16>
    %h = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%c : tensor<128x512xf32>) outs(%hb : tensor<128x512xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %t = arith.truncf %in : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<128x512xbf16>
    %e1 = tensor.empty() : tensor<128x256xf32>
    %f1 = linalg.fill ins(%z : f32) outs(%e1 : tensor<128x256xf32>) -> tensor<128x256xf32>
    %o = linalg.matmul ins(%h, %w2 : tensor<128x512xbf16>, tensor<512x256xbf16>) outs(%f1 : tensor<128x256xf32>) -> tensor<128x256xf32>
    dsm.yield %o : tensor<128x256xf32>
  }
  return %r : tensor<128x256xf32>
}

// -----

func.func @needs_reduce_scatter(%a: tensor<128x256xbf16>, %b: tensor<256x512xbf16>, %d: tensor<512x256xbf16>) -> tensor<128x256xf32> {
  // expected-error @+1 {{reduce groups of 4 CTAs need the reduce_scatter collective}}
  %r = dsm.fused_chain ffn(%a, %b, %d) {schedule = #dsm.schedule<cluster = [1, 4, 1, 1], block = [128, 128, 64, 128], grid = [1, 1, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [smem], collectives = [], stages = 4, cost_ns = 1>} : (tensor<128x256xbf16>, tensor<256x512xbf16>, tensor<512x256xbf16>) -> tensor<128x256xf32> {
  ^bb0(%x: tensor<128x256xbf16>, %w1: tensor<256x512xbf16>, %w2: tensor<512x256xbf16>):
    %z = arith.constant 0.0 : f32
    %e0 = tensor.empty() : tensor<128x512xf32>
    %f0 = linalg.fill ins(%z : f32) outs(%e0 : tensor<128x512xf32>) -> tensor<128x512xf32>
    %c = linalg.matmul ins(%x, %w1 : tensor<128x256xbf16>, tensor<256x512xbf16>) outs(%f0 : tensor<128x512xf32>) -> tensor<128x512xf32>
    %hb = tensor.empty() : tensor<128x512xbf16>
    %h = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%c : tensor<128x512xf32>) outs(%hb : tensor<128x512xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %t = arith.truncf %in : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<128x512xbf16>
    %e1 = tensor.empty() : tensor<128x256xf32>
    %f1 = linalg.fill ins(%z : f32) outs(%e1 : tensor<128x256xf32>) -> tensor<128x256xf32>
    %o = linalg.matmul ins(%h, %w2 : tensor<128x512xbf16>, tensor<512x256xbf16>) outs(%f1 : tensor<128x256xf32>) -> tensor<128x256xf32>
    dsm.yield %o : tensor<128x256xf32>
  }
  return %r : tensor<128x256xf32>
}

// -----

func.func @needs_inter_cluster_reduce(%a: tensor<128x256xbf16>, %b: tensor<256x1024xbf16>, %d: tensor<1024x256xbf16>) -> tensor<128x256xf32> {
  // expected-error @+1 {{splitting n over 2 clusters needs inter_cluster_reduce}}
  %r = dsm.fused_chain ffn(%a, %b, %d) {schedule = #dsm.schedule<cluster = [1, 4, 1, 1], block = [128, 128, 64, 128], grid = [1, 2, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [smem], collectives = [reduce_scatter], stages = 4, cost_ns = 1>} : (tensor<128x256xbf16>, tensor<256x1024xbf16>, tensor<1024x256xbf16>) -> tensor<128x256xf32> {
  ^bb0(%x: tensor<128x256xbf16>, %w1: tensor<256x1024xbf16>, %w2: tensor<1024x256xbf16>):
    %z = arith.constant 0.0 : f32
    %e0 = tensor.empty() : tensor<128x1024xf32>
    %f0 = linalg.fill ins(%z : f32) outs(%e0 : tensor<128x1024xf32>) -> tensor<128x1024xf32>
    %c = linalg.matmul ins(%x, %w1 : tensor<128x256xbf16>, tensor<256x1024xbf16>) outs(%f0 : tensor<128x1024xf32>) -> tensor<128x1024xf32>
    %hb = tensor.empty() : tensor<128x1024xbf16>
    %h = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%c : tensor<128x1024xf32>) outs(%hb : tensor<128x1024xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %t = arith.truncf %in : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<128x1024xbf16>
    %e1 = tensor.empty() : tensor<128x256xf32>
    %f1 = linalg.fill ins(%z : f32) outs(%e1 : tensor<128x256xf32>) -> tensor<128x256xf32>
    %o = linalg.matmul ins(%h, %w2 : tensor<128x1024xbf16>, tensor<1024x256xbf16>) outs(%f1 : tensor<128x256xf32>) -> tensor<128x256xf32>
    dsm.yield %o : tensor<128x256xf32>
  }
  return %r : tensor<128x256xf32>
}

// -----

func.func @not_needed(%a: tensor<128x256xbf16>, %b: tensor<256x512xbf16>, %d: tensor<512x256xbf16>) -> tensor<128x256xf32> {
  // expected-error @+1 {{collective shuffle is listed but the ffn plan needs none}}
  %r = dsm.fused_chain ffn(%a, %b, %d) {schedule = #dsm.schedule<cluster = [1, 4, 1, 1], block = [128, 128, 64, 128], grid = [1, 1, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [smem], collectives = [reduce_scatter, shuffle], stages = 4, cost_ns = 1>} : (tensor<128x256xbf16>, tensor<256x512xbf16>, tensor<512x256xbf16>) -> tensor<128x256xf32> {
  ^bb0(%x: tensor<128x256xbf16>, %w1: tensor<256x512xbf16>, %w2: tensor<512x256xbf16>):
    %z = arith.constant 0.0 : f32
    %e0 = tensor.empty() : tensor<128x512xf32>
    %f0 = linalg.fill ins(%z : f32) outs(%e0 : tensor<128x512xf32>) -> tensor<128x512xf32>
    %c = linalg.matmul ins(%x, %w1 : tensor<128x256xbf16>, tensor<256x512xbf16>) outs(%f0 : tensor<128x512xf32>) -> tensor<128x512xf32>
    %hb = tensor.empty() : tensor<128x512xbf16>
    %h = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%c : tensor<128x512xf32>) outs(%hb : tensor<128x512xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %t = arith.truncf %in : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<128x512xbf16>
    %e1 = tensor.empty() : tensor<128x256xf32>
    %f1 = linalg.fill ins(%z : f32) outs(%e1 : tensor<128x256xf32>) -> tensor<128x256xf32>
    %o = linalg.matmul ins(%h, %w2 : tensor<128x512xbf16>, tensor<512x256xbf16>) outs(%f1 : tensor<128x256xf32>) -> tensor<128x256xf32>
    dsm.yield %o : tensor<128x256xf32>
  }
  return %r : tensor<128x256xf32>
}

// -----

// Splitting the n of one GEMM is plain parallelism: no reduction to name.
func.func @gemm_needs_none(%a: tensor<128x256xbf16>, %b: tensor<256x512xbf16>) -> tensor<128x512xf32> {
  // expected-error @+1 {{collective inter_cluster_reduce is listed but the gemm plan needs none}}
  %r = dsm.fused_chain gemm(%a, %b) {schedule = #dsm.schedule<cluster = [1, 1, 1, 1], block = [128, 256, 64, 16], grid = [1, 2, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [inter_cluster_reduce], stages = 4, cost_ns = 1>} : (tensor<128x256xbf16>, tensor<256x512xbf16>) -> tensor<128x512xf32> {
  ^bb0(%x: tensor<128x256xbf16>, %w: tensor<256x512xbf16>):
    %z = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<128x512xf32>
    %f = linalg.fill ins(%z : f32) outs(%e : tensor<128x512xf32>) -> tensor<128x512xf32>
    %c = linalg.matmul ins(%x, %w : tensor<128x256xbf16>, tensor<256x512xbf16>) outs(%f : tensor<128x512xf32>) -> tensor<128x512xf32>
    dsm.yield %c : tensor<128x512xf32>
  }
  return %r : tensor<128x512xf32>
}

// -----

func.func @alloc_offset() {
  // expected-error @+1 {{offset 100 must be a multiple of 16 bytes (vector accesses)}}
  %b = dsm.alloc at 100 : !dsm.buffer<128x64xf32, split = [1, 1]>
  return
}

// -----

func.func @alloc_offset_negative() {
  // expected-error @+1 {{attribute 'offset' failed to satisfy constraint}}
  %b = dsm.alloc at -16 : !dsm.buffer<128x64xf32, split = [1, 1]>
  return
}

// -----

func.func @in_place(%s: !dsm.buffer<128x128xf32, split = [1, 1]>) {
  // expected-error @+1 {{source and destination must be distinct buffers: peers read the source while this rank writes the destination}}
  dsm.reduce all_reduce add %s into %s axis = 0 group(2, 1) : !dsm.buffer<128x128xf32, split = [1, 1]>, !dsm.buffer<128x128xf32, split = [1, 1]>
  return
}

// -----

func.func @in_place_shuffle(%s: !dsm.buffer<128x128xf32, split = [1, 1]>) {
  // expected-error @+1 {{source and destination must be distinct buffers}}
  dsm.shuffle %s into %s axis = 1 group(1, 1) : !dsm.buffer<128x128xf32, split = [1, 1]>, !dsm.buffer<128x128xf32, split = [1, 1]>
  return
}

// -----

func.func @threads(%s: !dsm.buffer<128x128xf32, split = [1, 1]>, %d: !dsm.buffer<128x128xf32, split = [1, 1]>) {
  // expected-error @+1 {{attribute 'threads' failed to satisfy constraint}}
  dsm.multiply %s into %d group(2, 1) {threads = 0} : !dsm.buffer<128x128xf32, split = [1, 1]>, !dsm.buffer<128x128xf32, split = [1, 1]>
  return
}

// -----

func.func @view_layout(%b: !dsm.buffer<128x64xf32, split = [1, 1]>) {
  // expected-error @+1 {{a view of a piece is contiguous: expected the identity layout}}
  %v = dsm.local_view %b : !dsm.buffer<128x64xf32, split = [1, 1]> -> memref<128x64xf32, strided<[128, 1]>, 3>
  return
}

// -----

func.func @view_space(%b: !dsm.buffer<128x64xf32, split = [1, 1]>) {
  // expected-error @+1 {{a local view lives in this CTA's shared memory: expected #gpu.address_space<workgroup>, got no memory space}}
  %v = dsm.local_view %b : !dsm.buffer<128x64xf32, split = [1, 1]> -> memref<128x64xf32>
  return
}

// -----

func.func @push_shuffle_half_words(%s: !dsm.buffer<4x3xbf16, split = [1, 1]>, %d: !dsm.buffer<4x6xbf16, split = [1, 1]>, %b: !dsm.barrier, %p: i1) {
  // expected-error @+1 {{push moves 32-bit words, but a source row is 6 bytes}}
  dsm.shuffle %s into %d axis = 1 group(2, 1) push(%b, %p) : !dsm.buffer<4x3xbf16, split = [1, 1]>, !dsm.buffer<4x6xbf16, split = [1, 1]>
  return
}

// -----

func.func @push_shuffle_without_phase(%s: !dsm.buffer<4x4xf32, split = [1, 1]>, %d: !dsm.buffer<4x8xf32, split = [1, 1]>, %b: !dsm.barrier) {
  // expected-error @+1 {{push needs both a barrier and a phase}}
  "dsm.shuffle"(%s, %d, %b) <{axis = 1 : i64, group_size = 2 : i64, group_stride = 1 : i64, operandSegmentSizes = array<i32: 1, 1, 1, 0>}> : (!dsm.buffer<4x4xf32, split = [1, 1]>, !dsm.buffer<4x8xf32, split = [1, 1]>, !dsm.barrier) -> ()
  return
}

// -----

func.func @pull_shuffle_arrived(%s: !dsm.buffer<4x4xf32, split = [1, 1]>, %d: !dsm.buffer<4x8xf32, split = [1, 1]>) {
  // expected-error @+1 {{only a push can follow the caller's cluster arrive: a pull's first barrier publishes the sources}}
  dsm.shuffle %s into %d axis = 1 group(2, 1) arrived : !dsm.buffer<4x4xf32, split = [1, 1]>, !dsm.buffer<4x8xf32, split = [1, 1]>
  return
}

// -----

func.func @in_place_pull(%d: !dsm.buffer<4x8xf32, split = [1, 1]>) {
  // expected-error @+1 {{an in-place shuffle (no source) must push}}
  dsm.shuffle into %d axis = 0 group(2, 1) : !dsm.buffer<4x8xf32, split = [1, 1]>
  return
}

// -----

func.func @in_place_axis1(%d: !dsm.buffer<4x8xf32, split = [1, 1]>, %b: !dsm.barrier, %p: i1) {
  // expected-error @+1 {{an in-place shuffle copies contiguous slots of 16-byte units: axis must be 0 and a slot a multiple of 16 bytes}}
  dsm.shuffle into %d axis = 1 group(2, 1) push(%b, %p) : !dsm.buffer<4x8xf32, split = [1, 1]>
  return
}

// -----

func.func @in_place_indivisible(%d: !dsm.buffer<3x8xf32, split = [1, 1]>, %b: !dsm.barrier, %p: i1) {
  // expected-error @+1 {{an in-place shuffle needs the destination's axis 0 divisible by the group size 2}}
  dsm.shuffle into %d axis = 0 group(2, 1) push(%b, %p) : !dsm.buffer<3x8xf32, split = [1, 1]>
  return
}

// -----

func.func @gemm_temporal_n_split(%a: tensor<128x256xbf16>, %b: tensor<256x1024xbf16>) -> tensor<128x1024xf32> {
  // expected-error @+1 {{a temporal n is split over the cluster only in chains with a second GEMM (which reduce over n)}}
  %r = dsm.fused_chain gemm(%a, %b) {schedule = #dsm.schedule<cluster = [1, 2, 1, 1], block = [128, 256, 64, 16], grid = [1, 1, 1, 1], order = [m, n, k, l], spatial = [m], residency = [], collectives = [], stages = 4, cost_ns = 1>} : (tensor<128x256xbf16>, tensor<256x1024xbf16>) -> tensor<128x1024xf32> {
  ^bb0(%x: tensor<128x256xbf16>, %w: tensor<256x1024xbf16>):
    %z = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<128x1024xf32>
    %f = linalg.fill ins(%z : f32) outs(%e : tensor<128x1024xf32>) -> tensor<128x1024xf32>
    %c = linalg.matmul ins(%x, %w : tensor<128x256xbf16>, tensor<256x1024xbf16>) outs(%f : tensor<128x1024xf32>) -> tensor<128x1024xf32>
    dsm.yield %c : tensor<128x1024xf32>
  }
  return %r : tensor<128x1024xf32>
}

// -----

func.func @idle_temporal_n(%a: tensor<128x64xbf16>, %b: tensor<64x256xbf16>, %d: tensor<256x64xbf16>) -> tensor<128x64xf32> {
  // expected-error @+1 {{schedule leaves CTAs idle along temporal n: 4 CTAs walk tiles of 128 over 256}}
  %r = dsm.fused_chain ffn(%a, %b, %d) {schedule = #dsm.schedule<cluster = [1, 4, 1, 1], block = [64, 128, 64, 64], grid = [2, 1, 1, 1], order = [m, n, k, l], spatial = [m], residency = [smem], collectives = [reduce_scatter], stages = 4, cost_ns = 1>} : (tensor<128x64xbf16>, tensor<64x256xbf16>, tensor<256x64xbf16>) -> tensor<128x64xf32> {
  ^bb0(%x: tensor<128x64xbf16>, %w: tensor<64x256xbf16>, %w2: tensor<256x64xbf16>):
    %z = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<128x256xf32>
    %f = linalg.fill ins(%z : f32) outs(%e : tensor<128x256xf32>) -> tensor<128x256xf32>
    %c = linalg.matmul ins(%x, %w : tensor<128x64xbf16>, tensor<64x256xbf16>) outs(%f : tensor<128x256xf32>) -> tensor<128x256xf32>
    %e2 = tensor.empty() : tensor<128x256xbf16>
    %t = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%c : tensor<128x256xf32>) outs(%e2 : tensor<128x256xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %v = arith.truncf %in : f32 to bf16
      linalg.yield %v : bf16
    } -> tensor<128x256xbf16>
    %e3 = tensor.empty() : tensor<128x64xf32>
    %f3 = linalg.fill ins(%z : f32) outs(%e3 : tensor<128x64xf32>) -> tensor<128x64xf32>
    %o = linalg.matmul ins(%t, %w2 : tensor<128x256xbf16>, tensor<256x64xbf16>) outs(%f3 : tensor<128x64xf32>) -> tensor<128x64xf32>
    dsm.yield %o : tensor<128x64xf32>
  }
  return %r : tensor<128x64xf32>
}

// -----

func.func @sequence_of_one(%a: tensor<128x128xbf16>, %b: tensor<128x256xbf16>, %d: tensor<256x256xbf16>) -> tensor<128x256xf32> {
  // expected-error @+1 {{a kernel sequence has two schedules, got 1}}
  %r = dsm.fused_chain ffn(%a, %b, %d) {schedule = #dsm.schedule<cluster = [1, 1, 1, 1], block = [128, 256, 64, 256], grid = [1, 1, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [smem], collectives = [], stages = 2, cost_ns = 9000>, sequence = [#dsm.schedule<cluster = [1, 1, 1, 1], block = [64, 64, 64, 16], grid = [2, 4, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [], stages = 2, cost_ns = 3000>]} : (tensor<128x128xbf16>, tensor<128x256xbf16>, tensor<256x256xbf16>) -> tensor<128x256xf32> {
  ^bb0(%x: tensor<128x128xbf16>, %w1: tensor<128x256xbf16>, %w2: tensor<256x256xbf16>):
    %z = arith.constant 0.0 : f32
    %e0 = tensor.empty() : tensor<128x256xf32>
    %f0 = linalg.fill ins(%z : f32) outs(%e0 : tensor<128x256xf32>) -> tensor<128x256xf32>
    %c = linalg.matmul ins(%x, %w1 : tensor<128x128xbf16>, tensor<128x256xbf16>) outs(%f0 : tensor<128x256xf32>) -> tensor<128x256xf32>
    %hb = tensor.empty() : tensor<128x256xbf16>
    %h = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%c : tensor<128x256xf32>) outs(%hb : tensor<128x256xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %t = arith.truncf %in : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<128x256xbf16>
    %e1 = tensor.empty() : tensor<128x256xf32>
    %f1 = linalg.fill ins(%z : f32) outs(%e1 : tensor<128x256xf32>) -> tensor<128x256xf32>
    %o = linalg.matmul ins(%h, %w2 : tensor<128x256xbf16>, tensor<256x256xbf16>) outs(%f1 : tensor<128x256xf32>) -> tensor<128x256xf32>
    dsm.yield %o : tensor<128x256xf32>
  }
  return %r : tensor<128x256xf32>
}

// -----

func.func @sequence_without_schedule(%a: tensor<128x128xbf16>, %b: tensor<128x256xbf16>, %d: tensor<256x256xbf16>) -> tensor<128x256xf32> {
  // expected-error @+1 {{a kernel sequence needs a #dsm.schedule or #dsm.schedule_table beside it}}
  %r = dsm.fused_chain ffn(%a, %b, %d) {sequence = [#dsm.schedule<cluster = [1, 1, 1, 1], block = [64, 64, 64, 16], grid = [2, 4, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [], stages = 2, cost_ns = 3000>, #dsm.schedule<cluster = [1, 1, 1, 1], block = [128, 256, 64, 16], grid = [1, 1, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [], stages = 4, cost_ns = 4000>]} : (tensor<128x128xbf16>, tensor<128x256xbf16>, tensor<256x256xbf16>) -> tensor<128x256xf32> {
  ^bb0(%x: tensor<128x128xbf16>, %w1: tensor<128x256xbf16>, %w2: tensor<256x256xbf16>):
    %z = arith.constant 0.0 : f32
    %e0 = tensor.empty() : tensor<128x256xf32>
    %f0 = linalg.fill ins(%z : f32) outs(%e0 : tensor<128x256xf32>) -> tensor<128x256xf32>
    %c = linalg.matmul ins(%x, %w1 : tensor<128x128xbf16>, tensor<128x256xbf16>) outs(%f0 : tensor<128x256xf32>) -> tensor<128x256xf32>
    %hb = tensor.empty() : tensor<128x256xbf16>
    %h = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%c : tensor<128x256xf32>) outs(%hb : tensor<128x256xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %t = arith.truncf %in : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<128x256xbf16>
    %e1 = tensor.empty() : tensor<128x256xf32>
    %f1 = linalg.fill ins(%z : f32) outs(%e1 : tensor<128x256xf32>) -> tensor<128x256xf32>
    %o = linalg.matmul ins(%h, %w2 : tensor<128x256xbf16>, tensor<256x256xbf16>) outs(%f1 : tensor<128x256xf32>) -> tensor<128x256xf32>
    dsm.yield %o : tensor<128x256xf32>
  }
  return %r : tensor<128x256xf32>
}

// -----

func.func @sequence_splits_l(%a: tensor<128x128xbf16>, %b: tensor<128x256xbf16>, %d: tensor<256x256xbf16>) -> tensor<128x256xf32> {
  // expected-error @+1 {{a sequence schedule is a single GEMM's, without an l dimension, with an M bin exactly when the chain's M is dynamic}}
  %r = dsm.fused_chain ffn(%a, %b, %d) {schedule = #dsm.schedule<cluster = [1, 1, 1, 1], block = [128, 256, 64, 256], grid = [1, 1, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [smem], collectives = [], stages = 2, cost_ns = 9000>, sequence = [#dsm.schedule<cluster = [1, 1, 1, 1], block = [64, 64, 64, 16], grid = [2, 4, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [], stages = 2, cost_ns = 3000>, #dsm.schedule<cluster = [1, 1, 1, 2], block = [128, 256, 64, 16], grid = [1, 1, 1, 1], order = [m, n, k, l], spatial = [m, n, l], residency = [], collectives = [], stages = 4, cost_ns = 4000>]} : (tensor<128x128xbf16>, tensor<128x256xbf16>, tensor<256x256xbf16>) -> tensor<128x256xf32> {
  ^bb0(%x: tensor<128x128xbf16>, %w1: tensor<128x256xbf16>, %w2: tensor<256x256xbf16>):
    %z = arith.constant 0.0 : f32
    %e0 = tensor.empty() : tensor<128x256xf32>
    %f0 = linalg.fill ins(%z : f32) outs(%e0 : tensor<128x256xf32>) -> tensor<128x256xf32>
    %c = linalg.matmul ins(%x, %w1 : tensor<128x128xbf16>, tensor<128x256xbf16>) outs(%f0 : tensor<128x256xf32>) -> tensor<128x256xf32>
    %hb = tensor.empty() : tensor<128x256xbf16>
    %h = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%c : tensor<128x256xf32>) outs(%hb : tensor<128x256xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %t = arith.truncf %in : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<128x256xbf16>
    %e1 = tensor.empty() : tensor<128x256xf32>
    %f1 = linalg.fill ins(%z : f32) outs(%e1 : tensor<128x256xf32>) -> tensor<128x256xf32>
    %o = linalg.matmul ins(%h, %w2 : tensor<128x256xbf16>, tensor<256x256xbf16>) outs(%f1 : tensor<128x256xf32>) -> tensor<128x256xf32>
    dsm.yield %o : tensor<128x256xf32>
  }
  return %r : tensor<128x256xf32>
}

// -----

func.func @gated_gemm_splits_l(%a: tensor<128x256xbf16>, %wg: tensor<256x256xbf16>, %wu: tensor<256x256xbf16>) -> tensor<128x256xbf16> {
  // expected-error @+1 {{a chain of one GEMM has no l dimension to split}}
  %r = dsm.fused_chain gated_gemm(%a, %wg, %wu) {schedule = #dsm.schedule<cluster = [1, 1, 1, 2], block = [128, 128, 64, 16], grid = [1, 2, 1, 1], order = [m, n, k, l], spatial = [m, n, l], residency = [], collectives = [], stages = 4, cost_ns = 1>} : (tensor<128x256xbf16>, tensor<256x256xbf16>, tensor<256x256xbf16>) -> tensor<128x256xbf16> {
  ^bb0(%x: tensor<128x256xbf16>, %g: tensor<256x256xbf16>, %u: tensor<256x256xbf16>):
    %z = arith.constant 0.0 : f32
    %e0 = tensor.empty() : tensor<128x256xf32>
    %f0 = linalg.fill ins(%z : f32) outs(%e0 : tensor<128x256xf32>) -> tensor<128x256xf32>
    %cg = linalg.matmul ins(%x, %g : tensor<128x256xbf16>, tensor<256x256xbf16>) outs(%f0 : tensor<128x256xf32>) -> tensor<128x256xf32>
    %e1 = tensor.empty() : tensor<128x256xf32>
    %f1 = linalg.fill ins(%z : f32) outs(%e1 : tensor<128x256xf32>) -> tensor<128x256xf32>
    %cu = linalg.matmul ins(%x, %u : tensor<128x256xbf16>, tensor<256x256xbf16>) outs(%f1 : tensor<128x256xf32>) -> tensor<128x256xf32>
    %hb = tensor.empty() : tensor<128x256xbf16>
    %h = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%cg, %cu : tensor<128x256xf32>, tensor<128x256xf32>) outs(%hb : tensor<128x256xbf16>) {
    ^bb0(%gv: f32, %uv: f32, %out: bf16):
      %p = arith.mulf %gv, %uv : f32
      %t = arith.truncf %p : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<128x256xbf16>
    dsm.yield %h : tensor<128x256xbf16>
  }
  return %r : tensor<128x256xbf16>
}

// -----

func.func @gated_gemm_one_matmul(%a: tensor<128x256xbf16>, %b: tensor<256x256xbf16>) -> tensor<128x256xf32> {
  // expected-error @+1 {{body does not hold a gated_gemm chain of static-N/K contractions}}
  %r = dsm.fused_chain gated_gemm(%a, %b) : (tensor<128x256xbf16>, tensor<256x256xbf16>) -> tensor<128x256xf32> {
  ^bb0(%x: tensor<128x256xbf16>, %w: tensor<256x256xbf16>):
    %z = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<128x256xf32>
    %f = linalg.fill ins(%z : f32) outs(%e : tensor<128x256xf32>) -> tensor<128x256xf32>
    %c = linalg.matmul ins(%x, %w : tensor<128x256xbf16>, tensor<256x256xbf16>) outs(%f : tensor<128x256xf32>) -> tensor<128x256xf32>
    dsm.yield %c : tensor<128x256xf32>
  }
  return %r : tensor<128x256xf32>
}

// -----

func.func @sequence_of_gemm(%a: tensor<128x128xbf16>, %b: tensor<128x256xbf16>) -> tensor<128x256xf32> {
  // expected-error @+1 {{only an ffn or gated_ffn chain runs as a kernel sequence}}
  %r = dsm.fused_chain gemm(%a, %b) {schedule = #dsm.schedule<cluster = [1, 1, 1, 1], block = [128, 256, 64, 16], grid = [1, 1, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [], stages = 4, cost_ns = 4000>, sequence = [#dsm.schedule<cluster = [1, 1, 1, 1], block = [64, 64, 64, 16], grid = [2, 4, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [], stages = 2, cost_ns = 3000>, #dsm.schedule<cluster = [1, 1, 1, 1], block = [128, 256, 64, 16], grid = [1, 1, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [], stages = 4, cost_ns = 4000>]} : (tensor<128x128xbf16>, tensor<128x256xbf16>) -> tensor<128x256xf32> {
  ^bb0(%x: tensor<128x128xbf16>, %w1: tensor<128x256xbf16>):
    %z = arith.constant 0.0 : f32
    %e0 = tensor.empty() : tensor<128x256xf32>
    %f0 = linalg.fill ins(%z : f32) outs(%e0 : tensor<128x256xf32>) -> tensor<128x256xf32>
    %c = linalg.matmul ins(%x, %w1 : tensor<128x128xbf16>, tensor<128x256xbf16>) outs(%f0 : tensor<128x256xf32>) -> tensor<128x256xf32>
    dsm.yield %c : tensor<128x256xf32>
  }
  return %r : tensor<128x256xf32>
}

// -----

// Swapped operands put blk_m on wgmma's n side (steps of 8) and blk_n on
// its m side (steps of 64).
// expected-error @+1 {{block tile 96 is not a positive multiple of 64}}
func.func @s() attributes {s = #dsm.schedule<cluster = [1, 1, 1, 1], block = [152, 96, 64, 16], grid = [2, 2, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [], stages = 4, cost_ns = 100, swap_ab = true>} { return }

// -----

// expected-error @+1 {{swapped operands take blk_m <= 256 (wgmma's n)}}
func.func @s() attributes {s = #dsm.schedule<cluster = [1, 1, 1, 1], block = [264, 128, 64, 16], grid = [2, 2, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [], stages = 4, cost_ns = 100, swap_ab = true>} { return }

// -----

// expected-error @+1 {{swapped operands take blk_m <= 256 (wgmma's n)}}
func.func @s() attributes {s = #dsm.schedule<cluster = [1, 1, 1, 1], block = [264, 128, 64, 16], grid = [2, 2, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [], stages = 4, cost_ns = 100, m_lo = 1, m_hi = 304, swap_ab = true>} { return }

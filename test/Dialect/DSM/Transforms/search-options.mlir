// RUN: ff-opt %s --dsm-search | FileCheck %s --check-prefix=DEFAULT
// RUN: ff-opt %s --dsm-search="lowerable-only=false" | FileCheck %s --check-prefix=FULL
// RUN: ff-opt %s --dsm-search="target=h100-pcie" | FileCheck %s --check-prefix=PCIE
// RUN: ff-opt %s --dsm-search="calibration=%S/Inputs/search-calibration.json" | FileCheck %s --check-prefix=CALIB
// RUN: ff-opt %s --dsm-search="dump=%t.json" > /dev/null
// RUN: FileCheck %s --check-prefix=DUMP < %t.json

// --dsm-search options on G4 (GPT-2 small, M = 128, N = 3072, K = L = 768).

// By default the chosen plan is the best lowerable one (by the measured
// kernel-family model): for G4 a shuffle-family plan (cls_l = cls_n = 6,
// block[3] = L / 6; 8 clusters along n sum E with inter_cluster_reduce).
// DEFAULT: module attributes {dsm.target = #dsm.target<name = "h100-sxm", chip = "sm_90a", sms = 132,
// DEFAULT-SAME: dsm_gbps = [3300, 3100, 3000, 2900], dsm_latency = [190, 200, 240, 280]
// DEFAULT: schedule = #dsm.schedule<cluster = [1, 6, 1, 6], block = [64, 64, 64, 128], grid = [2, 8, 1, 1], order = [m, n, l, k], spatial = [m, n, l], residency = [dsm], collectives = [shuffle, inter_cluster_reduce]

// Without the lowerable restriction the best plan of the full space (ranked
// by the analytical model) shuffles C through DSM: L is split inside the
// cluster (the Fig. 7 pattern), as in the lowerable plan, but with 128-wide k
// steps, which the kernels (64-wide k steps) do not lower.
// FULL: schedule = #dsm.schedule<cluster = [1, 4, 1, 4], block = [64, 64, 128, 192], grid = [2, 12, 1, 1], order = [m, n, l, k], spatial = [m, n, l], residency = [dsm], collectives = [shuffle, inter_cluster_reduce]

// PCIE: module attributes {dsm.target = #dsm.target<name = "h100-pcie", chip = "sm_90a", sms = 114,
// PCIE: schedule = #dsm.schedule<

// The calibration file replaces the DSM figures of cluster sizes 2 and 16.
// CALIB: dsm_gbps = [1500, 3100, 3000, 2000], dsm_latency = [400, 200, 240, 500]
// CALIB: schedule = #dsm.schedule<

// DUMP: "chains": [
// DUMP: "candidates": [
// DUMP: "cluster": [
// DUMP-NEXT: 1,
// DUMP-NEXT: 4,
// DUMP-NEXT: 1,
// DUMP-NEXT: 4
// DUMP: "lowerable": false,
// DUMP: "rank": 1,
// DUMP: "chosen": {
// DUMP: "lowerable": true,
// DUMP: "kind": "ffn",
// DUMP: "m": 128,
// DUMP: "stats": {
// DUMP: "evaluated": {{[1-9][0-9]*}},
// DUMP: "pruned_activation": 12,
// DUMP: "schedules": 41
// DUMP: "target": "h100-sxm"

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

// RUN: ff-opt %s --dsm-fuse --dsm-search | FileCheck %s
// RUN: ff-opt %s --dsm-fuse --dsm-search=sequences=false | FileCheck %s --check-prefix=OFF
// RUN: ff-opt %s --dsm-fuse --dsm-search="family=shuffle" | FileCheck %s --check-prefix=OFF
// RUN: ff-opt %s --dsm-fuse --dsm-search | ff-opt --dsm-materialize | FileCheck %s --check-prefix=BUNDLE
// RUN: ff-opt %s --dsm-fuse --dsm-search=top-k=1 -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: ff-opt %s --dsm-fuse --dsm-search="dump=%t.json" -o /dev/null
// RUN: FileCheck %s --check-prefix=DUMP < %t.json

// A dump holds each priced sequence's halves: the two GEMM kernels' own
// records (their ranked and lowerable candidates), here G8's, then the
// gated FFN's gated GEMM and down GEMM.
// DUMP: "halves": [
// DUMP: "chosen": {
// DUMP: "kind": "gemm",
// DUMP: "lowerable_candidates": [
// DUMP: "kind": "gemm",
// DUMP: "lowerable_candidates": [
// DUMP: "kind": "ffn",
// DUMP: "halves": [
// DUMP: "kind": "gated_gemm",
// DUMP: "lowerable_candidates": [
// DUMP: "kind": "gemm",
// DUMP: "kind": "gated_ffn",

// With top-k the search says what it compared.
// REMARK: remark: as a kernel sequence (two GEMM kernels) {{[0-9]+}} ns against {{[0-9]+}} ns fused: sequence
// REMARK: remark: as a kernel sequence (two GEMM kernels) {{[0-9]+}} ns against {{[0-9]+}} ns fused: fused
// REMARK: remark: as a kernel sequence (two GEMM kernels) {{[0-9]+}} ns against {{[0-9]+}} ns fused: sequence
// REMARK: remark: m in [1, 64]: as a kernel sequence (two GEMM kernels) {{[0-9]+}} ns against {{[0-9]+}} ns fused: sequence

// Kernel sequences: --dsm-search also prices a plain FFN chain of static M
// as its two GEMMs, each searched as a chain of its own (act(A B) into an
// intermediate, then C D), and records their schedules in `sequence` where
// they cost less than the best fused plan, which `schedule` keeps. G8's
// fused plans reduce fp32 partials of E over 16 planes; two GEMM kernels
// measured 42.8 us against 53.1 on an H100 (docs/validation.md,
// twenty-seventh session). G2 (one small cluster, no workspace) stays
// fused; so does a narrow chain at M = 16384 whose 64 MiB intermediate
// would round-trip through HBM (sequences measured 1.25x slower there).
// A gated FFN splits into a gated GEMM, silu(x wg) * (x wu) from two
// accumulators of at most 128 columns each, in a cluster of one, and the
// down GEMM (S1-S8 measured 1.1-1.3x faster so on an H100,
// docs/validation.md, twenty-eighth session). Restricting the family (a side-by-side
// measurement of fused plans) or sequences=false records no sequence.
// A chain of dynamic M gets a pair per M bin where the sequence wins.

// CHECK-LABEL: func.func @g8(
// CHECK: dsm.fused_chain ffn{{.*}}schedule = #dsm.schedule<{{.*}}>, sequence = [#dsm.schedule<cluster = [1, 1, 1, 1], block = [{{[0-9]+}}, {{[0-9]+}}, 64, 16], {{.*}}>, #dsm.schedule<{{.*}}>]}
// CHECK-LABEL: func.func @g2(
// CHECK-NOT: sequence =
// CHECK-LABEL: func.func @narrow(
// CHECK-NOT: sequence =
// CHECK-LABEL: func.func @gated(
// CHECK: dsm.fused_chain gated_ffn{{.*}}sequence = [#dsm.schedule<cluster = [1, 1, 1, 1], block = [{{64|128}}, {{64|128}}, 64, 16], {{.*}}>, #dsm.schedule<{{.*}}>]}
// OFF-NOT: sequence =

// One bundle, two kernels sharing the M bin: kernel 0 reads in0 and in1
// and writes the intermediate c, kernel 1 reads c and in2 and writes out.
// BUNDLE: dsm.bundles = [{chain = {activation = "gelu_tanh"
// BUNDLE-SAME: kind = "ffn"
// BUNDLE-SAME: intermediates = [{dtype = "bf16", name = "c", shape = array<i64: 128, 8192>}]
// BUNDLE-SAME: m_hi = 128 : i64, m_lo = 1 : i64, module = "g8_0_s0_module", name = "g8_0_s0", params = [{{[^}]*}}tensor = "in0"}, {{[^}]*}}tensor = "in1"}, {kind = "ptr", tensor = "c"}, {kind = "i64", value = "M"}]
// BUNDLE-SAME: m_hi = 128 : i64, m_lo = 1 : i64, module = "g8_0_s1_module", name = "g8_0_s1", params = [{{[^}]*}}tensor = "c"}, {{[^}]*}}tensor = "in2"}, {kind = "ptr", tensor = "out"}, {kind = "i64", value = "M"}]
// BUNDLE-SAME: name = "g8_0", plan = {sequence = [{block = array<i64: 
// A gated FFN's first kernel reads x, wg and wu (in0-in2) and writes c;
// the second reads c and wd (in3).
// BUNDLE: kind = "gated_ffn"
// BUNDLE-SAME: intermediates = [{dtype = "bf16", name = "c", shape = array<i64: 128, 8192>}]
// BUNDLE-SAME: name = "gated_3_s0", params = [{{[^}]*}}tensor = "in0"}, {{[^}]*}}tensor = "in1"}, {{[^}]*}}tensor = "in2"}, {kind = "ptr", tensor = "c"}, {kind = "i64", value = "M"}]
// BUNDLE-SAME: name = "gated_3_s1", params = [{{[^}]*}}tensor = "c"}, {{[^}]*}}tensor = "in3"}, {kind = "ptr", tensor = "out"}, {kind = "i64", value = "M"}]
// A dynamic M: a pair of schedules per M bin where the sequence wins, each
// pair sharing its bin with the fused schedule table; one bundle holds the
// kernels of every bin (sequences share a bin, fused kernels have their own)
// and the intermediate [M, N]. From 257 to 768 the bins are 64 rows wide;
// the up GEMM of 257-320 runs swapped on 160-token tiles (two at 320:
// getBinSwappedPlan), of 321-384 on 192-token tiles (two at 384).
// CHECK-LABEL: func.func @g8_dynamic(
// CHECK: schedule = #dsm.schedule_table<{{.*}}>, sequence = [#dsm.schedule<{{.*}}m_lo = 1, m_hi = 64>, #dsm.schedule<{{.*}}m_lo = 1, m_hi = 64>, #dsm.schedule<{{.*}}m_lo = 65, m_hi = 128>, #dsm.schedule<{{.*}}m_lo = 65, m_hi = 128>, {{.*}}block = [160, 128, 64, 16]{{[^>]*}}m_lo = 257, m_hi = 320, swap_ab = true>, #dsm.schedule<{{[^>]*}}m_lo = 257, m_hi = 320>, #dsm.schedule<{{[^>]*}}block = [192, 128, 64, 16]{{[^>]*}}m_lo = 321, m_hi = 384, swap_ab = true>, #dsm.schedule<{{[^>]*}}m_lo = 321, m_hi = 384>
// BUNDLE: intermediates = [{dtype = "bf16", name = "c", shape = array<i64: -1, 8192>}]
// BUNDLE-SAME: m_hi = 64 : i64, m_lo = 1 : i64, module = "g8_dynamic_4_m0_s0_module"
// BUNDLE-SAME: m_hi = 64 : i64, m_lo = 1 : i64, module = "g8_dynamic_4_m0_s1_module"
// BUNDLE-SAME: m_hi = 128 : i64, m_lo = 65 : i64, module = "g8_dynamic_4_m1_s0_module"
// BUNDLE: gpu.module @g8_0_s0_module
// BUNDLE: gpu.module @g8_0_s1_module
// BUNDLE-NOT: dsm.fused_chain

func.func @g8(%x: tensor<128x2048xbf16>, %w1: tensor<8192x2048xbf16>, %w2: tensor<2048x8192xbf16>) -> tensor<128x2048xbf16> {
  %zero = arith.constant 0.000000e+00 : f32
  %empty1 = tensor.empty() : tensor<128x8192xf32>
  %fill2 = linalg.fill ins(%zero : f32) outs(%empty1 : tensor<128x8192xf32>) -> tensor<128x8192xf32>
  %mm3 = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%x, %w1 : tensor<128x2048xbf16>, tensor<8192x2048xbf16>) outs(%fill2 : tensor<128x8192xf32>) -> tensor<128x8192xf32>
  %empty4 = tensor.empty() : tensor<128x8192xbf16>
  %ew5 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%mm3 : tensor<128x8192xf32>) outs(%empty4 : tensor<128x8192xbf16>) {
  ^bb0(%in0: f32, %out: bf16):
    %c_k = arith.constant 0.79788456080286541 : f32
    %c_a = arith.constant 4.471500e-02 : f32
    %c_half = arith.constant 5.000000e-01 : f32
    %c_one = arith.constant 1.000000e+00 : f32
    %t0 = arith.mulf %in0, %in0 : f32
    %t1 = arith.mulf %t0, %in0 : f32
    %t2 = arith.mulf %t1, %c_a : f32
    %t3 = arith.addf %in0, %t2 : f32
    %t4 = arith.mulf %t3, %c_k : f32
    %t5 = math.tanh %t4 : f32
    %t6 = arith.addf %t5, %c_one : f32
    %t7 = arith.mulf %in0, %c_half : f32
    %gelu = arith.mulf %t7, %t6 : f32
    %cast = arith.truncf %gelu : f32 to bf16
    linalg.yield %cast : bf16
  } -> tensor<128x8192xbf16>
  %empty6 = tensor.empty() : tensor<128x2048xf32>
  %fill7 = linalg.fill ins(%zero : f32) outs(%empty6 : tensor<128x2048xf32>) -> tensor<128x2048xf32>
  %mm8 = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%ew5, %w2 : tensor<128x8192xbf16>, tensor<2048x8192xbf16>) outs(%fill7 : tensor<128x2048xf32>) -> tensor<128x2048xf32>
  %empty9 = tensor.empty() : tensor<128x2048xbf16>
  %ew10 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%mm8 : tensor<128x2048xf32>) outs(%empty9 : tensor<128x2048xbf16>) {
  ^bb0(%in0: f32, %out: bf16):
    %cast = arith.truncf %in0 : f32 to bf16
    linalg.yield %cast : bf16
  } -> tensor<128x2048xbf16>
  return %ew10 : tensor<128x2048xbf16>
}

func.func @g2(%x: tensor<128x512xbf16>, %w1: tensor<256x512xbf16>, %w2: tensor<64x256xbf16>) -> tensor<128x64xbf16> {
  %zero = arith.constant 0.000000e+00 : f32
  %empty1 = tensor.empty() : tensor<128x256xf32>
  %fill2 = linalg.fill ins(%zero : f32) outs(%empty1 : tensor<128x256xf32>) -> tensor<128x256xf32>
  %mm3 = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%x, %w1 : tensor<128x512xbf16>, tensor<256x512xbf16>) outs(%fill2 : tensor<128x256xf32>) -> tensor<128x256xf32>
  %empty4 = tensor.empty() : tensor<128x256xbf16>
  %ew5 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%mm3 : tensor<128x256xf32>) outs(%empty4 : tensor<128x256xbf16>) {
  ^bb0(%in0: f32, %out: bf16):
    %c_k = arith.constant 0.79788456080286541 : f32
    %c_a = arith.constant 4.471500e-02 : f32
    %c_half = arith.constant 5.000000e-01 : f32
    %c_one = arith.constant 1.000000e+00 : f32
    %t0 = arith.mulf %in0, %in0 : f32
    %t1 = arith.mulf %t0, %in0 : f32
    %t2 = arith.mulf %t1, %c_a : f32
    %t3 = arith.addf %in0, %t2 : f32
    %t4 = arith.mulf %t3, %c_k : f32
    %t5 = math.tanh %t4 : f32
    %t6 = arith.addf %t5, %c_one : f32
    %t7 = arith.mulf %in0, %c_half : f32
    %gelu = arith.mulf %t7, %t6 : f32
    %cast = arith.truncf %gelu : f32 to bf16
    linalg.yield %cast : bf16
  } -> tensor<128x256xbf16>
  %empty6 = tensor.empty() : tensor<128x64xf32>
  %fill7 = linalg.fill ins(%zero : f32) outs(%empty6 : tensor<128x64xf32>) -> tensor<128x64xf32>
  %mm8 = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%ew5, %w2 : tensor<128x256xbf16>, tensor<64x256xbf16>) outs(%fill7 : tensor<128x64xf32>) -> tensor<128x64xf32>
  %empty9 = tensor.empty() : tensor<128x64xbf16>
  %ew10 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%mm8 : tensor<128x64xf32>) outs(%empty9 : tensor<128x64xbf16>) {
  ^bb0(%in0: f32, %out: bf16):
    %cast = arith.truncf %in0 : f32 to bf16
    linalg.yield %cast : bf16
  } -> tensor<128x64xbf16>
  return %ew10 : tensor<128x64xbf16>
}

func.func @narrow(%x: tensor<16384x256xbf16>, %w1: tensor<2048x256xbf16>, %w2: tensor<256x2048xbf16>) -> tensor<16384x256xbf16> {
  %zero = arith.constant 0.000000e+00 : f32
  %empty1 = tensor.empty() : tensor<16384x2048xf32>
  %fill2 = linalg.fill ins(%zero : f32) outs(%empty1 : tensor<16384x2048xf32>) -> tensor<16384x2048xf32>
  %mm3 = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%x, %w1 : tensor<16384x256xbf16>, tensor<2048x256xbf16>) outs(%fill2 : tensor<16384x2048xf32>) -> tensor<16384x2048xf32>
  %empty4 = tensor.empty() : tensor<16384x2048xbf16>
  %ew5 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%mm3 : tensor<16384x2048xf32>) outs(%empty4 : tensor<16384x2048xbf16>) {
  ^bb0(%in0: f32, %out: bf16):
    %c_k = arith.constant 0.79788456080286541 : f32
    %c_a = arith.constant 4.471500e-02 : f32
    %c_half = arith.constant 5.000000e-01 : f32
    %c_one = arith.constant 1.000000e+00 : f32
    %t0 = arith.mulf %in0, %in0 : f32
    %t1 = arith.mulf %t0, %in0 : f32
    %t2 = arith.mulf %t1, %c_a : f32
    %t3 = arith.addf %in0, %t2 : f32
    %t4 = arith.mulf %t3, %c_k : f32
    %t5 = math.tanh %t4 : f32
    %t6 = arith.addf %t5, %c_one : f32
    %t7 = arith.mulf %in0, %c_half : f32
    %gelu = arith.mulf %t7, %t6 : f32
    %cast = arith.truncf %gelu : f32 to bf16
    linalg.yield %cast : bf16
  } -> tensor<16384x2048xbf16>
  %empty6 = tensor.empty() : tensor<16384x256xf32>
  %fill7 = linalg.fill ins(%zero : f32) outs(%empty6 : tensor<16384x256xf32>) -> tensor<16384x256xf32>
  %mm8 = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%ew5, %w2 : tensor<16384x2048xbf16>, tensor<256x2048xbf16>) outs(%fill7 : tensor<16384x256xf32>) -> tensor<16384x256xf32>
  %empty9 = tensor.empty() : tensor<16384x256xbf16>
  %ew10 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%mm8 : tensor<16384x256xf32>) outs(%empty9 : tensor<16384x256xbf16>) {
  ^bb0(%in0: f32, %out: bf16):
    %cast = arith.truncf %in0 : f32 to bf16
    linalg.yield %cast : bf16
  } -> tensor<16384x256xbf16>
  return %ew10 : tensor<16384x256xbf16>
}

func.func @gated(%x: tensor<128x2048xbf16>, %wg: tensor<8192x2048xbf16>, %wu: tensor<8192x2048xbf16>, %wd: tensor<2048x8192xbf16>) -> tensor<128x2048xbf16> {
  %zero = arith.constant 0.000000e+00 : f32
  %empty1 = tensor.empty() : tensor<128x8192xf32>
  %fill2 = linalg.fill ins(%zero : f32) outs(%empty1 : tensor<128x8192xf32>) -> tensor<128x8192xf32>
  %mm3 = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%x, %wg : tensor<128x2048xbf16>, tensor<8192x2048xbf16>) outs(%fill2 : tensor<128x8192xf32>) -> tensor<128x8192xf32>
  %empty4 = tensor.empty() : tensor<128x8192xf32>
  %fill5 = linalg.fill ins(%zero : f32) outs(%empty4 : tensor<128x8192xf32>) -> tensor<128x8192xf32>
  %mm6 = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%x, %wu : tensor<128x2048xbf16>, tensor<8192x2048xbf16>) outs(%fill5 : tensor<128x8192xf32>) -> tensor<128x8192xf32>
  %empty7 = tensor.empty() : tensor<128x8192xbf16>
  %ew8 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%mm3, %mm6 : tensor<128x8192xf32>, tensor<128x8192xf32>) outs(%empty7 : tensor<128x8192xbf16>) {
  ^bb0(%in0: f32, %in1: f32, %out: bf16):
    %c_one = arith.constant 1.000000e+00 : f32
    %s0 = arith.negf %in0 : f32
    %s1 = math.exp %s0 : f32
    %s2 = arith.addf %s1, %c_one : f32
    %act = arith.divf %in0, %s2 : f32
    %prod = arith.mulf %act, %in1 : f32
    %cast = arith.truncf %prod : f32 to bf16
    linalg.yield %cast : bf16
  } -> tensor<128x8192xbf16>
  %empty9 = tensor.empty() : tensor<128x2048xf32>
  %fill10 = linalg.fill ins(%zero : f32) outs(%empty9 : tensor<128x2048xf32>) -> tensor<128x2048xf32>
  %mm11 = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%ew8, %wd : tensor<128x8192xbf16>, tensor<2048x8192xbf16>) outs(%fill10 : tensor<128x2048xf32>) -> tensor<128x2048xf32>
  %empty12 = tensor.empty() : tensor<128x2048xbf16>
  %ew13 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%mm11 : tensor<128x2048xf32>) outs(%empty12 : tensor<128x2048xbf16>) {
  ^bb0(%in0: f32, %out: bf16):
    %cast = arith.truncf %in0 : f32 to bf16
    linalg.yield %cast : bf16
  } -> tensor<128x2048xbf16>
  return %ew13 : tensor<128x2048xbf16>
}

func.func @g8_dynamic(%x: tensor<?x2048xbf16>, %w1: tensor<8192x2048xbf16>, %w2: tensor<2048x8192xbf16>) -> tensor<?x2048xbf16> {
  %c0 = arith.constant 0 : index
  %m = tensor.dim %x, %c0 : tensor<?x2048xbf16>
  %zero = arith.constant 0.000000e+00 : f32
  %empty1 = tensor.empty(%m) : tensor<?x8192xf32>
  %fill2 = linalg.fill ins(%zero : f32) outs(%empty1 : tensor<?x8192xf32>) -> tensor<?x8192xf32>
  %mm3 = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%x, %w1 : tensor<?x2048xbf16>, tensor<8192x2048xbf16>) outs(%fill2 : tensor<?x8192xf32>) -> tensor<?x8192xf32>
  %empty4 = tensor.empty(%m) : tensor<?x8192xbf16>
  %ew5 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%mm3 : tensor<?x8192xf32>) outs(%empty4 : tensor<?x8192xbf16>) {
  ^bb0(%in0: f32, %out: bf16):
    %c_k = arith.constant 0.79788456080286541 : f32
    %c_a = arith.constant 4.471500e-02 : f32
    %c_half = arith.constant 5.000000e-01 : f32
    %c_one = arith.constant 1.000000e+00 : f32
    %t0 = arith.mulf %in0, %in0 : f32
    %t1 = arith.mulf %t0, %in0 : f32
    %t2 = arith.mulf %t1, %c_a : f32
    %t3 = arith.addf %in0, %t2 : f32
    %t4 = arith.mulf %t3, %c_k : f32
    %t5 = math.tanh %t4 : f32
    %t6 = arith.addf %t5, %c_one : f32
    %t7 = arith.mulf %in0, %c_half : f32
    %gelu = arith.mulf %t7, %t6 : f32
    %cast = arith.truncf %gelu : f32 to bf16
    linalg.yield %cast : bf16
  } -> tensor<?x8192xbf16>
  %empty6 = tensor.empty(%m) : tensor<?x2048xf32>
  %fill7 = linalg.fill ins(%zero : f32) outs(%empty6 : tensor<?x2048xf32>) -> tensor<?x2048xf32>
  %mm8 = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%ew5, %w2 : tensor<?x8192xbf16>, tensor<2048x8192xbf16>) outs(%fill7 : tensor<?x2048xf32>) -> tensor<?x2048xf32>
  %empty9 = tensor.empty(%m) : tensor<?x2048xbf16>
  %ew10 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%mm8 : tensor<?x2048xf32>) outs(%empty9 : tensor<?x2048xbf16>) {
  ^bb0(%in0: f32, %out: bf16):
    %cast = arith.truncf %in0 : f32 to bf16
    linalg.yield %cast : bf16
  } -> tensor<?x2048xbf16>
  return %ew10 : tensor<?x2048xbf16>
}

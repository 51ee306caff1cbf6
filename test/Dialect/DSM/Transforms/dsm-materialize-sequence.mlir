// RUN: ff-opt %s --dsm-materialize | FileCheck %s
// RUN: ff-opt %s --dsm-materialize | FileCheck %s --check-prefix=GATED
// RUN: ff-opt %s --dsm-materialize=programmatic-entry=false | FileCheck %s --check-prefix=PDL
// RUN: ff-opt %s --dsm-materialize="programmatic-launch=false programmatic-entry=false" | FileCheck %s --check-prefix=NOPDL

// Programmatic dependent launch within the call (programmatic-entry, which
// also makes the first kernel wait, is dsm-materialize-programmatic-entry's
// subject): the first kernel lets the second launch
// at its entry; the second waits for it after its barrier setup, before
// its role dispatch (the producer's first TMA load of c), and only it is
// marked programmatic_launch in the manifest. Its 128 KiB weight is too
// small to prefetch (dsm-materialize-programmatic-launch.mlir).
// PDL: name = "seq_0_s0"
// PDL-NOT: programmatic_launch
// PDL-SAME: name = "seq_0_s1", params = {{.*}}, programmatic_launch = true}]
// PDL-LABEL: gpu.func @seq_0_s0(
// PDL-NEXT: nvvm.griddepcontrol launch_dependents
// PDL-NOT: griddepcontrol
// PDL-LABEL: gpu.func @seq_0_s1(
// PDL-NOT: griddepcontrol
// PDL: nvgpu.mbarrier.init
// PDL: gpu.barrier
// PDL-NEXT: nvvm.griddepcontrol wait
// PDL-NOT: griddepcontrol
// PDL: nvgpu.tma.async.load
// NOPDL-NOT: programmatic_launch
// NOPDL-NOT: griddepcontrol

// A chain whose `sequence` (hand-written here; --dsm-search writes it)
// runs as two GEMM kernels of one bundle: act(A B) into the intermediate
// "c" (128 x 256 bf16), then c D. Both kernels serve the one M bin; the
// second reads c through a tensor map, the first writes it through a raw
// pointer. The fused `schedule` beside it is only the record.
// CHECK: dsm.bundles = [{chain = {activation = "identity"
// CHECK-SAME: kind = "ffn"
// CHECK-SAME: intermediates = [{dtype = "bf16", name = "c", shape = array<i64: 128, 256>}]
// CHECK-SAME: grid_m_tile = 64 : i64, m_hi = 128 : i64, m_lo = 1 : i64, module = "seq_0_s0_module", name = "seq_0_s0", params = [{{[^}]*}}tensor = "in0"}, {{[^}]*}}tensor = "in1"}, {kind = "ptr", tensor = "c"}
// CHECK-SAME: grid_m_tile = 128 : i64, m_hi = 128 : i64, m_lo = 1 : i64, module = "seq_0_s1_module", name = "seq_0_s1", params = [{{[^}]*}}tensor = "c"}, {{[^}]*}}tensor = "in2"}, {kind = "ptr", tensor = "out"}
// CHECK-SAME: plan = {sequence = [{block = array<i64: 64, 64, 64, 16>{{.*}}cost_ns = 3000{{.*}}}, {block = array<i64: 128, 256, 64, 16>{{.*}}cost_ns = 4000
// CHECK: gpu.module @seq_0_s0_module
// CHECK: gpu.func @seq_0_s0(
// CHECK: gpu.module @seq_0_s1_module
// CHECK: gpu.func @seq_0_s1(
// CHECK-NOT: dsm.fused_chain
func.func @seq(%a: tensor<128x128xbf16>, %b: tensor<128x256xbf16>, %d: tensor<256x256xbf16>) -> tensor<128x256xf32> {
  %r = dsm.fused_chain ffn(%a, %b, %d) {schedule = #dsm.schedule<cluster = [1, 4, 1, 4], block = [64, 64, 64, 64], grid = [2, 1, 1, 1], order = [m, n, l, k], spatial = [m, n, l], residency = [dsm], collectives = [shuffle], stages = 4, cost_ns = 5139>, sequence = [#dsm.schedule<cluster = [1, 1, 1, 1], block = [64, 64, 64, 16], grid = [2, 4, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [], stages = 2, cost_ns = 3000>, #dsm.schedule<cluster = [1, 1, 1, 1], block = [128, 256, 64, 16], grid = [1, 1, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [], stages = 4, cost_ns = 4000>]} : (tensor<128x128xbf16>, tensor<128x256xbf16>, tensor<256x256xbf16>) -> tensor<128x256xf32> {
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

// A gated FFN's sequence: the first kernel is a gated GEMM reading x, wg
// and wu (three tensor maps: A's 128-row boxes and the two weights' 64 x 64
// boxes) whose
// epilogue computes silu(gate) * up from its two accumulators into c; the
// second is c wd.
// GATED: dsm.bundles = [{chain = {activation = "identity"
// GATED-SAME: {chain = {activation = "silu"
// GATED-SAME: kind = "gated_ffn"
// GATED-SAME: intermediates = [{dtype = "bf16", name = "c", shape = array<i64: 128, 256>}]
// GATED-SAME: module = "gated_1_s0_module", name = "gated_1_s0", params = [{box = array<i64: 64, 128>{{[^}]*}}tensor = "in0"}, {box = array<i64: 64, 64>{{[^}]*}}tensor = "in1"}, {box = array<i64: 64, 64>{{[^}]*}}tensor = "in2"}, {kind = "ptr", tensor = "c"}, {kind = "i64", value = "M"}]
// GATED-SAME: module = "gated_1_s1_module", name = "gated_1_s1", params = [{{[^}]*}}tensor = "c"}, {{[^}]*}}tensor = "in3"}, {kind = "ptr", tensor = "out"}
// GATED-LABEL: gpu.func @gated_1_s0(
// The producer loads each k tile's A rows (16 KB) and both weights' boxes
// (2 x 16 KB).
// GATED: nvgpu.mbarrier.arrive.expect_tx %{{.*}}[%{{.*}}], %c49152
// GATED-COUNT-5: nvgpu.tma.async.load
// Per k tile gate (four k16 steps), then up (four more), each 64 x 128:
// the first k tile, then the loop over the second.
// GATED-COUNT-16: nvvm.wgmma.mma_async {{.*}}n = 128
// GATED-NOT: nvvm.wgmma.mma_async
// The epilogue: silu(gate) (exp, add, div) times up, to bf16.
// GATED: math.exp
// GATED: arith.divf
// GATED: arith.mulf
// GATED: arith.truncf
// GATED: gpu.func @gated_1_s1(
func.func @gated(%a: tensor<128x128xbf16>, %wg: tensor<128x256xbf16>, %wu: tensor<128x256xbf16>, %d: tensor<256x256xbf16>) -> tensor<128x256xf32> {
  %r = dsm.fused_chain gated_ffn(%a, %wg, %wu, %d) {schedule = #dsm.schedule<cluster = [1, 1, 1, 1], block = [64, 128, 64, 256], grid = [2, 2, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [smem, smem], collectives = [inter_cluster_reduce], stages = 2, cost_ns = 9000>, sequence = [#dsm.schedule<cluster = [1, 1, 1, 1], block = [128, 128, 64, 16], grid = [1, 2, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [], stages = 4, cost_ns = 3000>, #dsm.schedule<cluster = [1, 1, 1, 1], block = [128, 256, 64, 16], grid = [1, 1, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [], stages = 4, cost_ns = 4000>]} : (tensor<128x128xbf16>, tensor<128x256xbf16>, tensor<128x256xbf16>, tensor<256x256xbf16>) -> tensor<128x256xf32> {
  ^bb0(%x: tensor<128x128xbf16>, %g: tensor<128x256xbf16>, %u: tensor<128x256xbf16>, %w2: tensor<256x256xbf16>):
    %z = arith.constant 0.0 : f32
    %one = arith.constant 1.0 : f32
    %e0 = tensor.empty() : tensor<128x256xf32>
    %f0 = linalg.fill ins(%z : f32) outs(%e0 : tensor<128x256xf32>) -> tensor<128x256xf32>
    %cg = linalg.matmul ins(%x, %g : tensor<128x128xbf16>, tensor<128x256xbf16>) outs(%f0 : tensor<128x256xf32>) -> tensor<128x256xf32>
    %e1 = tensor.empty() : tensor<128x256xf32>
    %f1 = linalg.fill ins(%z : f32) outs(%e1 : tensor<128x256xf32>) -> tensor<128x256xf32>
    %cu = linalg.matmul ins(%x, %u : tensor<128x128xbf16>, tensor<128x256xbf16>) outs(%f1 : tensor<128x256xf32>) -> tensor<128x256xf32>
    %hb = tensor.empty() : tensor<128x256xbf16>
    %h = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%cg, %cu : tensor<128x256xf32>, tensor<128x256xf32>) outs(%hb : tensor<128x256xbf16>) {
    ^bb0(%gv: f32, %uv: f32, %out: bf16):
      %n = arith.negf %gv : f32
      %ex = math.exp %n : f32
      %den = arith.addf %ex, %one : f32
      %s = arith.divf %gv, %den : f32
      %p = arith.mulf %s, %uv : f32
      %t = arith.truncf %p : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<128x256xbf16>
    %e2 = tensor.empty() : tensor<128x256xf32>
    %f2 = linalg.fill ins(%z : f32) outs(%e2 : tensor<128x256xf32>) -> tensor<128x256xf32>
    %o = linalg.matmul ins(%h, %w2 : tensor<128x256xbf16>, tensor<256x256xbf16>) outs(%f2 : tensor<128x256xf32>) -> tensor<128x256xf32>
    dsm.yield %o : tensor<128x256xf32>
  }
  return %r : tensor<128x256xf32>
}

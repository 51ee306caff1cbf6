// REQUIRES: ptxas
// Every kernel family assembles for sm_90a without spills, as PTX and as
// cubin (format=bin runs ptxas on the bundle's PTX).
// RUN: rm -rf %t && ff-opt %s --lower-to-nvvm="emit-bundle=%t format=bin" -o /dev/null
// RUN: ls %t/gemm_0 %t/gemmc2_1 %t/ffn_2 %t/ffn_cluster_3 %t/gated_4 %t/dyn_5 | FileCheck %s --check-prefix=FILES
// RUN: %ptxas -arch=sm_90a -O3 -v %t/gemm_0/gemm_0.ptx -o %t/g.cubin 2>&1 | FileCheck %s
// RUN: %ptxas -arch=sm_90a -O3 -v %t/gemmc2_1/gemmc2_1.ptx -o %t/g.cubin 2>&1 | FileCheck %s
// RUN: %ptxas -arch=sm_90a -O3 -v %t/ffn_2/ffn_2.ptx -o %t/g.cubin 2>&1 | FileCheck %s
// RUN: %ptxas -arch=sm_90a -O3 -v %t/ffn_cluster_3/ffn_cluster_3.ptx -o %t/g.cubin 2>&1 | FileCheck %s
// RUN: %ptxas -arch=sm_90a -O3 -v %t/gated_4/gated_4.ptx -o %t/g.cubin 2>&1 | FileCheck %s
// RUN: %ptxas -arch=sm_90a -O3 -v %t/dyn_5/dyn_5_m0.ptx -o %t/g.cubin 2>&1 | FileCheck %s
// RUN: %ptxas -arch=sm_90a -O3 -v %t/dyn_5/dyn_5_m1.ptx -o %t/g.cubin 2>&1 | FileCheck %s
// RUN: FileCheck %s --check-prefix=DYN < %t/dyn_5/manifest.json
// FFN clusters with A multicast (--lower-to-nvvm=multicast-a=true).
// RUN: rm -rf %t.mc && ff-opt %s --lower-to-nvvm="emit-bundle=%t.mc format=bin multicast-a=true" -o /dev/null
// RUN: %ptxas -arch=sm_90a -O3 -v %t.mc/ffn_cluster_3/ffn_cluster_3.ptx -o %t/g.cubin 2>&1 | FileCheck %s
// RUN: FileCheck %s --check-prefix=MC < %t.mc/ffn_cluster_3/ffn_cluster_3.ptx
// MC: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster

// No wgmma serialisation or injected warpgroup arrive/wait (C75xx: see
// lower-to-nvvm-wgmma-ptxas.mlir).
// CHECK-NOT: error
// CHECK-NOT: C75{{[0-9][0-9]}}
// CHECK: 0 bytes spill stores, 0 bytes spill loads
// CHECK: Used {{[0-9]+}} registers
// CHECK-NOT: C75{{[0-9][0-9]}}

// FILES: gemm_0.cubin
// FILES: gemm_0.ptx
// FILES: manifest.json

// A dynamic-M chain: one kernel per bin of the schedule table. The first
// bin's (one m tile for M <= 64) A box is clamped to the launch's M by the
// runtime (box_fits_m, bundle version 2); the second bin's (several m
// tiles) last tile loads A through a second map whose box the runtime cuts
// to that tile's rows (box_tail_m, version 3).
// DYN: "shape": [
// DYN-NEXT: -1,
// DYN-NEXT: 512
// DYN: "m": -1,
// DYN: "kernels": [
// DYN: "block": [
// DYN-NEXT: 256,
// DYN: "cubin": "dyn_5_m0.cubin",
// DYN: "grid_m_tile": 64,
// DYN: "m_hi": 64,
// DYN: "m_lo": 1,
// DYN: "params": [
// DYN-NEXT: {
// DYN-NEXT: "box": [
// DYN-NEXT: 64,
// DYN-NEXT: 64
// DYN-NEXT: ],
// DYN-NEXT: "box_fits_m": true,
// DYN: "cubin": "dyn_5_m1.cubin",
// DYN: "grid_m_tile": 128,
// DYN: "m_hi": 1048576,
// DYN: "m_lo": 65,
// DYN: "params": [
// DYN-NEXT: {
// DYN-NEXT: "box": [
// DYN-NEXT: 64,
// DYN-NEXT: 128
// DYN-NEXT: ],
// DYN-NEXT: "interleave"
// DYN: "tensor": "in0"
// DYN-NEXT: },
// DYN-NEXT: {
// DYN-NEXT: "box": [
// DYN-NEXT: 64,
// DYN-NEXT: 128
// DYN-NEXT: ],
// DYN-NEXT: "box_tail_m": true,
// DYN: "tensor": "in0"
// DYN: "version": 3

func.func @gemm(%a: tensor<256x512xbf16>, %b: tensor<512x512xbf16>) -> tensor<256x512xbf16> {
  %r = dsm.fused_chain gemm (%a, %b) {schedule = #dsm.schedule<cluster = [1, 1, 1, 1], block = [128, 256, 64, 16], grid = [2, 2, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [], stages = 4, cost_ns = 1000>}
      : (tensor<256x512xbf16>, tensor<512x512xbf16>) -> tensor<256x512xbf16> {
  ^bb0(%x: tensor<256x512xbf16>, %w: tensor<512x512xbf16>):
    %cst = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<256x512xf32>
    %f = linalg.fill ins(%cst : f32) outs(%e : tensor<256x512xf32>) -> tensor<256x512xf32>
    %mm = linalg.matmul ins(%x, %w : tensor<256x512xbf16>, tensor<512x512xbf16>) outs(%f : tensor<256x512xf32>) -> tensor<256x512xf32>
    %e2 = tensor.empty() : tensor<256x512xbf16>
    %t = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%mm : tensor<256x512xf32>) outs(%e2 : tensor<256x512xbf16>) {
    ^bb0(%in: f32, %o: bf16):
      %v = arith.truncf %in : f32 to bf16
      linalg.yield %v : bf16
    }  -> tensor<256x512xbf16>
    dsm.yield %t : tensor<256x512xbf16>
  }
  return %r : tensor<256x512xbf16>
}

func.func @gemmc2(%a: tensor<256x512xbf16>, %b: tensor<512x512xbf16>) -> tensor<256x512xbf16> {
  %r = dsm.fused_chain gemm (%a, %b) {schedule = #dsm.schedule<cluster = [1, 2, 1, 1], block = [128, 256, 64, 16], grid = [2, 1, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [], stages = 4, cost_ns = 1000>}
      : (tensor<256x512xbf16>, tensor<512x512xbf16>) -> tensor<256x512xbf16> {
  ^bb0(%x: tensor<256x512xbf16>, %w: tensor<512x512xbf16>):
    %cst = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<256x512xf32>
    %f = linalg.fill ins(%cst : f32) outs(%e : tensor<256x512xf32>) -> tensor<256x512xf32>
    %mm = linalg.matmul ins(%x, %w : tensor<256x512xbf16>, tensor<512x512xbf16>) outs(%f : tensor<256x512xf32>) -> tensor<256x512xf32>
    %e2 = tensor.empty() : tensor<256x512xbf16>
    %t = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%mm : tensor<256x512xf32>) outs(%e2 : tensor<256x512xbf16>) {
    ^bb0(%in: f32, %o: bf16):
      %v = arith.truncf %in : f32 to bf16
      linalg.yield %v : bf16
    }  -> tensor<256x512xbf16>
    dsm.yield %t : tensor<256x512xbf16>
  }
  return %r : tensor<256x512xbf16>
}

func.func @ffn(%a0: tensor<256x512xbf16>, %a1: tensor<512x128xbf16>, %a2: tensor<128x256xbf16>) -> tensor<256x256xbf16> {
  %r = dsm.fused_chain ffn (%a0, %a1, %a2) {schedule = #dsm.schedule<cluster = [1, 1, 1, 1], block = [128, 128, 64, 128], grid = [2, 1, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [smem], collectives = [], stages = 4, cost_ns = 1000>}
      : (tensor<256x512xbf16>, tensor<512x128xbf16>, tensor<128x256xbf16>) -> tensor<256x256xbf16> {
  ^bb0(%x: tensor<256x512xbf16>, %w1: tensor<512x128xbf16>, %w2: tensor<128x256xbf16>):
    %zero = arith.constant 0.0 : f32
    %g_e = tensor.empty() : tensor<256x128xf32>
    %g_f = linalg.fill ins(%zero : f32) outs(%g_e : tensor<256x128xf32>) -> tensor<256x128xf32>
    %g = linalg.matmul ins(%x, %w1 : tensor<256x512xbf16>, tensor<512x128xbf16>) outs(%g_f : tensor<256x128xf32>) -> tensor<256x128xf32>
    %h_e = tensor.empty() : tensor<256x128xbf16>
    %h = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%g : tensor<256x128xf32>) outs(%h_e : tensor<256x128xbf16>) {
    ^bb0(%gv: f32, %o: bf16):
      %half = arith.constant 0.5 : f32
      %one = arith.constant 1.0 : f32
      %k0 = arith.constant 0.7978845608 : f32
      %k1 = arith.constant 0.044715 : f32
      %x2 = arith.mulf %gv, %gv : f32
      %x3 = arith.mulf %x2, %gv : f32
      %a3 = arith.mulf %x3, %k1 : f32
      %in = arith.addf %gv, %a3 : f32
      %sc = arith.mulf %in, %k0 : f32
      %th = math.tanh %sc : f32
      %p1 = arith.addf %th, %one : f32
      %hx = arith.mulf %gv, %half : f32
      %y = arith.mulf %hx, %p1 : f32
      %t = arith.truncf %y : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<256x128xbf16>
    %e_e = tensor.empty() : tensor<256x256xf32>
    %e_f = linalg.fill ins(%zero : f32) outs(%e_e : tensor<256x256xf32>) -> tensor<256x256xf32>
    %e = linalg.matmul ins(%h, %w2 : tensor<256x128xbf16>, tensor<128x256xbf16>) outs(%e_f : tensor<256x256xf32>) -> tensor<256x256xf32>
    %o_e = tensor.empty() : tensor<256x256xbf16>
    %o = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%e : tensor<256x256xf32>) outs(%o_e : tensor<256x256xbf16>) {
    ^bb0(%ev: f32, %oo: bf16):
      %t = arith.truncf %ev : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<256x256xbf16>
    dsm.yield %o : tensor<256x256xbf16>
  }
  return %r : tensor<256x256xbf16>
}

func.func @ffn_cluster(%a0: tensor<256x512xbf16>, %a1: tensor<512x1024xbf16>, %a2: tensor<1024x512xbf16>) -> tensor<256x512xbf16> {
  %r = dsm.fused_chain ffn (%a0, %a1, %a2) {schedule = #dsm.schedule<cluster = [1, 4, 1, 1], block = [128, 128, 64, 64], grid = [2, 2, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [smem], collectives = [reduce_scatter, inter_cluster_reduce], stages = 3, cost_ns = 1000>}
      : (tensor<256x512xbf16>, tensor<512x1024xbf16>, tensor<1024x512xbf16>) -> tensor<256x512xbf16> {
  ^bb0(%x: tensor<256x512xbf16>, %w1: tensor<512x1024xbf16>, %w2: tensor<1024x512xbf16>):
    %zero = arith.constant 0.0 : f32
    %g_e = tensor.empty() : tensor<256x1024xf32>
    %g_f = linalg.fill ins(%zero : f32) outs(%g_e : tensor<256x1024xf32>) -> tensor<256x1024xf32>
    %g = linalg.matmul ins(%x, %w1 : tensor<256x512xbf16>, tensor<512x1024xbf16>) outs(%g_f : tensor<256x1024xf32>) -> tensor<256x1024xf32>
    %h_e = tensor.empty() : tensor<256x1024xbf16>
    %h = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%g : tensor<256x1024xf32>) outs(%h_e : tensor<256x1024xbf16>) {
    ^bb0(%gv: f32, %o: bf16):
      %half = arith.constant 0.5 : f32
      %one = arith.constant 1.0 : f32
      %k0 = arith.constant 0.7978845608 : f32
      %k1 = arith.constant 0.044715 : f32
      %x2 = arith.mulf %gv, %gv : f32
      %x3 = arith.mulf %x2, %gv : f32
      %a3 = arith.mulf %x3, %k1 : f32
      %in = arith.addf %gv, %a3 : f32
      %sc = arith.mulf %in, %k0 : f32
      %th = math.tanh %sc : f32
      %p1 = arith.addf %th, %one : f32
      %hx = arith.mulf %gv, %half : f32
      %y = arith.mulf %hx, %p1 : f32
      %t = arith.truncf %y : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<256x1024xbf16>
    %e_e = tensor.empty() : tensor<256x512xf32>
    %e_f = linalg.fill ins(%zero : f32) outs(%e_e : tensor<256x512xf32>) -> tensor<256x512xf32>
    %e = linalg.matmul ins(%h, %w2 : tensor<256x1024xbf16>, tensor<1024x512xbf16>) outs(%e_f : tensor<256x512xf32>) -> tensor<256x512xf32>
    %o_e = tensor.empty() : tensor<256x512xbf16>
    %o = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%e : tensor<256x512xf32>) outs(%o_e : tensor<256x512xbf16>) {
    ^bb0(%ev: f32, %oo: bf16):
      %t = arith.truncf %ev : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<256x512xbf16>
    dsm.yield %o : tensor<256x512xbf16>
  }
  return %r : tensor<256x512xbf16>
}

func.func @gated(%a0: tensor<256x512xbf16>, %a1: tensor<512x512xbf16>, %a2: tensor<512x512xbf16>, %a3: tensor<512x512xbf16>) -> tensor<256x512xbf16> {
  %r = dsm.fused_chain gated_ffn (%a0, %a1, %a2, %a3) {schedule = #dsm.schedule<cluster = [1, 4, 1, 1], block = [128, 128, 64, 64], grid = [2, 1, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [smem], collectives = [reduce_scatter], stages = 2, cost_ns = 1000>}
      : (tensor<256x512xbf16>, tensor<512x512xbf16>, tensor<512x512xbf16>, tensor<512x512xbf16>) -> tensor<256x512xbf16> {
  ^bb0(%x: tensor<256x512xbf16>, %w1: tensor<512x512xbf16>, %wu: tensor<512x512xbf16>, %w2: tensor<512x512xbf16>):
    %zero = arith.constant 0.0 : f32
    %g_e = tensor.empty() : tensor<256x512xf32>
    %g_f = linalg.fill ins(%zero : f32) outs(%g_e : tensor<256x512xf32>) -> tensor<256x512xf32>
    %g = linalg.matmul ins(%x, %w1 : tensor<256x512xbf16>, tensor<512x512xbf16>) outs(%g_f : tensor<256x512xf32>) -> tensor<256x512xf32>
    %u_e = tensor.empty() : tensor<256x512xf32>
    %u_f = linalg.fill ins(%zero : f32) outs(%u_e : tensor<256x512xf32>) -> tensor<256x512xf32>
    %u = linalg.matmul ins(%x, %wu : tensor<256x512xbf16>, tensor<512x512xbf16>) outs(%u_f : tensor<256x512xf32>) -> tensor<256x512xf32>
    %h_e = tensor.empty() : tensor<256x512xbf16>
    %h = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%g, %u : tensor<256x512xf32>, tensor<256x512xf32>) outs(%h_e : tensor<256x512xbf16>) {
    ^bb0(%gv: f32, %uv: f32, %o: bf16):
      %one = arith.constant 1.0 : f32
      %ng = arith.negf %gv : f32
      %ex = math.exp %ng : f32
      %den = arith.addf %ex, %one : f32
      %sg = arith.divf %gv, %den : f32
      %p = arith.mulf %sg, %uv : f32
      %t = arith.truncf %p : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<256x512xbf16>
    %e_e = tensor.empty() : tensor<256x512xf32>
    %e_f = linalg.fill ins(%zero : f32) outs(%e_e : tensor<256x512xf32>) -> tensor<256x512xf32>
    %e = linalg.matmul ins(%h, %w2 : tensor<256x512xbf16>, tensor<512x512xbf16>) outs(%e_f : tensor<256x512xf32>) -> tensor<256x512xf32>
    %o_e = tensor.empty() : tensor<256x512xbf16>
    %o = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%e : tensor<256x512xf32>) outs(%o_e : tensor<256x512xbf16>) {
    ^bb0(%ev: f32, %oo: bf16):
      %t = arith.truncf %ev : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<256x512xbf16>
    dsm.yield %o : tensor<256x512xbf16>
  }
  return %r : tensor<256x512xbf16>
}

func.func @dyn(%a0: tensor<?x512xbf16>, %a1: tensor<512x128xbf16>, %a2: tensor<128x256xbf16>) -> tensor<?x256xbf16> {
  %r = dsm.fused_chain ffn (%a0, %a1, %a2) {schedule = #dsm.schedule_table<[#dsm.schedule<cluster = [1, 1, 1, 1], block = [64, 128, 64, 128], grid = [1, 1, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [smem], collectives = [], stages = 4, cost_ns = 1000, m_lo = 1, m_hi = 64>, #dsm.schedule<cluster = [1, 1, 1, 1], block = [128, 128, 64, 128], grid = [1, 1, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [smem], collectives = [], stages = 4, cost_ns = 2000, m_lo = 65, m_hi = 1048576>]>}
      : (tensor<?x512xbf16>, tensor<512x128xbf16>, tensor<128x256xbf16>) -> tensor<?x256xbf16> {
  ^bb0(%x: tensor<?x512xbf16>, %w1: tensor<512x128xbf16>, %w2: tensor<128x256xbf16>):
    %zero = arith.constant 0.0 : f32
    %c0 = arith.constant 0 : index
    %d0 = tensor.dim %x, %c0 : tensor<?x512xbf16>
    %g_e = tensor.empty(%d0) : tensor<?x128xf32>
    %g_f = linalg.fill ins(%zero : f32) outs(%g_e : tensor<?x128xf32>) -> tensor<?x128xf32>
    %g = linalg.matmul ins(%x, %w1 : tensor<?x512xbf16>, tensor<512x128xbf16>) outs(%g_f : tensor<?x128xf32>) -> tensor<?x128xf32>
    %h_e = tensor.empty(%d0) : tensor<?x128xbf16>
    %h = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%g : tensor<?x128xf32>) outs(%h_e : tensor<?x128xbf16>) {
    ^bb0(%gv: f32, %o: bf16):
      %half = arith.constant 0.5 : f32
      %one = arith.constant 1.0 : f32
      %k0 = arith.constant 0.7978845608 : f32
      %k1 = arith.constant 0.044715 : f32
      %x2 = arith.mulf %gv, %gv : f32
      %x3 = arith.mulf %x2, %gv : f32
      %a3 = arith.mulf %x3, %k1 : f32
      %in = arith.addf %gv, %a3 : f32
      %sc = arith.mulf %in, %k0 : f32
      %th = math.tanh %sc : f32
      %p1 = arith.addf %th, %one : f32
      %hx = arith.mulf %gv, %half : f32
      %y = arith.mulf %hx, %p1 : f32
      %t = arith.truncf %y : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<?x128xbf16>
    %e_e = tensor.empty(%d0) : tensor<?x256xf32>
    %e_f = linalg.fill ins(%zero : f32) outs(%e_e : tensor<?x256xf32>) -> tensor<?x256xf32>
    %e = linalg.matmul ins(%h, %w2 : tensor<?x128xbf16>, tensor<128x256xbf16>) outs(%e_f : tensor<?x256xf32>) -> tensor<?x256xf32>
    %o_e = tensor.empty(%d0) : tensor<?x256xbf16>
    %o = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%e : tensor<?x256xf32>) outs(%o_e : tensor<?x256xbf16>) {
    ^bb0(%ev: f32, %oo: bf16):
      %t = arith.truncf %ev : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<?x256xbf16>
    dsm.yield %o : tensor<?x256xbf16>
  }
  return %r : tensor<?x256xbf16>
}

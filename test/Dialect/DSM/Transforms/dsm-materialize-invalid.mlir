// RUN: ff-opt %s --dsm-materialize --split-input-file --verify-diagnostics

// expected-error @+2 {{requires a #dsm.schedule; run --dsm-search first}}
func.func @no_schedule(%a: tensor<256x512xbf16>, %b: tensor<512x512xbf16>) -> tensor<256x512xbf16> {
  %r = dsm.fused_chain gemm (%a, %b) 
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

// -----

// expected-error @+2 {{schedule cannot be lowered: blk_m must be 64 or 128}}
func.func @gemm(%a: tensor<256x512xbf16>, %b: tensor<512x512xbf16>) -> tensor<256x512xbf16> {
  %r = dsm.fused_chain gemm (%a, %b) {schedule = #dsm.schedule<cluster = [1, 1, 1, 1], block = [256, 256, 64, 16], grid = [1, 2, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [], stages = 4, cost_ns = 1000>}
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

// -----

// A GEMM cluster along both m and n is not lowered (along m alone it is:
// dsm-materialize-cluster-m.mlir).
// expected-error @+2 {{schedule cannot be lowered: only clusters along n (cls_m = cls_k = cls_l = 1), along l over the cluster (cls_l = cls_n * cls_k, cls_m = 1), or for a single GEMM along k (and 1 or 2 along n) or m alone are lowered}}
func.func @gemm(%a: tensor<256x512xbf16>, %b: tensor<512x512xbf16>) -> tensor<256x512xbf16> {
  %r = dsm.fused_chain gemm (%a, %b) {schedule = #dsm.schedule<cluster = [2, 2, 1, 1], block = [128, 256, 64, 16], grid = [1, 1, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [], stages = 4, cost_ns = 1000>}
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

// -----

// expected-error @+2 {{schedule cannot be lowered: needs 525312 bytes of shared memory; at most 231424}}
func.func @too_big(%a0: tensor<256x512xbf16>, %a1: tensor<512x256xbf16>, %a2: tensor<256x512xbf16>) -> tensor<256x512xbf16> {
  %r = dsm.fused_chain ffn (%a0, %a1, %a2) {schedule = #dsm.schedule<cluster = [1, 1, 1, 1], block = [128, 256, 64, 256], grid = [2, 1, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [smem], collectives = [], stages = 4, cost_ns = 1000>}
      : (tensor<256x512xbf16>, tensor<512x256xbf16>, tensor<256x512xbf16>) -> tensor<256x512xbf16> {
  ^bb0(%x: tensor<256x512xbf16>, %w1: tensor<512x256xbf16>, %w2: tensor<256x512xbf16>):
    %zero = arith.constant 0.0 : f32
    %g_e = tensor.empty() : tensor<256x256xf32>
    %g_f = linalg.fill ins(%zero : f32) outs(%g_e : tensor<256x256xf32>) -> tensor<256x256xf32>
    %g = linalg.matmul ins(%x, %w1 : tensor<256x512xbf16>, tensor<512x256xbf16>) outs(%g_f : tensor<256x256xf32>) -> tensor<256x256xf32>
    %h_e = tensor.empty() : tensor<256x256xbf16>
    %h = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%g : tensor<256x256xf32>) outs(%h_e : tensor<256x256xbf16>) {
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
    } -> tensor<256x256xbf16>
    %e_e = tensor.empty() : tensor<256x512xf32>
    %e_f = linalg.fill ins(%zero : f32) outs(%e_e : tensor<256x512xf32>) -> tensor<256x512xf32>
    %e = linalg.matmul ins(%h, %w2 : tensor<256x256xbf16>, tensor<256x512xbf16>) outs(%e_f : tensor<256x512xf32>) -> tensor<256x512xf32>
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

// -----

// expected-error @+2 {{schedule cannot be lowered: gated FFNs keep gate and up accumulators live: blk_n <= 128}}
func.func @gated_wide(%a0: tensor<256x512xbf16>, %a1: tensor<512x256xbf16>, %a2: tensor<512x256xbf16>, %a3: tensor<256x512xbf16>) -> tensor<256x512xbf16> {
  %r = dsm.fused_chain gated_ffn (%a0, %a1, %a2, %a3) {schedule = #dsm.schedule<cluster = [1, 1, 1, 1], block = [128, 256, 64, 64], grid = [2, 1, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [smem], collectives = [], stages = 2, cost_ns = 1000>}
      : (tensor<256x512xbf16>, tensor<512x256xbf16>, tensor<512x256xbf16>, tensor<256x512xbf16>) -> tensor<256x512xbf16> {
  ^bb0(%x: tensor<256x512xbf16>, %w1: tensor<512x256xbf16>, %wu: tensor<512x256xbf16>, %w2: tensor<256x512xbf16>):
    %zero = arith.constant 0.0 : f32
    %g_e = tensor.empty() : tensor<256x256xf32>
    %g_f = linalg.fill ins(%zero : f32) outs(%g_e : tensor<256x256xf32>) -> tensor<256x256xf32>
    %g = linalg.matmul ins(%x, %w1 : tensor<256x512xbf16>, tensor<512x256xbf16>) outs(%g_f : tensor<256x256xf32>) -> tensor<256x256xf32>
    %u_e = tensor.empty() : tensor<256x256xf32>
    %u_f = linalg.fill ins(%zero : f32) outs(%u_e : tensor<256x256xf32>) -> tensor<256x256xf32>
    %u = linalg.matmul ins(%x, %wu : tensor<256x512xbf16>, tensor<512x256xbf16>) outs(%u_f : tensor<256x256xf32>) -> tensor<256x256xf32>
    %h_e = tensor.empty() : tensor<256x256xbf16>
    %h = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%g, %u : tensor<256x256xf32>, tensor<256x256xf32>) outs(%h_e : tensor<256x256xbf16>) {
    ^bb0(%gv: f32, %uv: f32, %o: bf16):
      %one = arith.constant 1.0 : f32
      %ng = arith.negf %gv : f32
      %ex = math.exp %ng : f32
      %den = arith.addf %ex, %one : f32
      %sg = arith.divf %gv, %den : f32
      %p = arith.mulf %sg, %uv : f32
      %t = arith.truncf %p : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<256x256xbf16>
    %e_e = tensor.empty() : tensor<256x512xf32>
    %e_f = linalg.fill ins(%zero : f32) outs(%e_e : tensor<256x512xf32>) -> tensor<256x512xf32>
    %e = linalg.matmul ins(%h, %w2 : tensor<256x256xbf16>, tensor<256x512xbf16>) outs(%e_f : tensor<256x512xf32>) -> tensor<256x512xf32>
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

// -----

// A bias read from global memory is not a register epilogue (yet).
func.func @bias(%a: tensor<256x512xbf16>, %b: tensor<512x512xbf16>, %bias: tensor<256x512xf32>) -> tensor<256x512xbf16> {
  // expected-error @below {{schedule cannot be lowered: the last matmul must feed the result through at most one elementwise generic}}
  %r = dsm.fused_chain gemm (%a, %b, %bias) {schedule = #dsm.schedule<cluster = [1, 1, 1, 1], block = [128, 256, 64, 16], grid = [2, 2, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [], stages = 4, cost_ns = 1000>}
      : (tensor<256x512xbf16>, tensor<512x512xbf16>, tensor<256x512xf32>) -> tensor<256x512xbf16> {
  ^bb0(%x: tensor<256x512xbf16>, %w: tensor<512x512xbf16>, %c: tensor<256x512xf32>):
    %cst = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<256x512xf32>
    %f = linalg.fill ins(%cst : f32) outs(%e : tensor<256x512xf32>) -> tensor<256x512xf32>
    %mm = linalg.matmul ins(%x, %w : tensor<256x512xbf16>, tensor<512x512xbf16>) outs(%f : tensor<256x512xf32>) -> tensor<256x512xf32>
    %e2 = tensor.empty() : tensor<256x512xbf16>
    %t = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%mm, %c : tensor<256x512xf32>, tensor<256x512xf32>) outs(%e2 : tensor<256x512xbf16>) {
    ^bb0(%in: f32, %bv: f32, %o: bf16):
      %s = arith.addf %in, %bv : f32
      %v = arith.truncf %s : f32 to bf16
      linalg.yield %v : bf16
    } -> tensor<256x512xbf16>
    dsm.yield %t : tensor<256x512xbf16>
  }
  return %r : tensor<256x512xbf16>
}

// -----

// The host function is replaced by launch functions: code besides the
// chains would be lost, so it is refused.

func.func @computed_input(%a: tensor<256x512xbf16>, %b: tensor<512x512xbf16>) -> tensor<256x512xbf16> {
  %a2 = arith.addf %a, %a : tensor<256x512xbf16>
  // expected-error @+1 {{'dsm.fused_chain' op cannot be replaced by kernel launches: a chain input is computed in the function; the runtime passes chain inputs as they are}}
  %r = dsm.fused_chain gemm (%a2, %b) {schedule = #dsm.schedule<cluster = [1, 1, 1, 1], block = [128, 256, 64, 16], grid = [2, 2, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [], stages = 4, cost_ns = 1000>}
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

// -----

func.func @returns_other(%a: tensor<256x512xbf16>, %b: tensor<512x512xbf16>) -> (tensor<256x512xbf16>, tensor<256x512xbf16>) {
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
  // expected-error @+1 {{'func.return' op cannot be replaced by kernel launches: the function returns a value that is not a fused chain result}}
  return %r, %a : tensor<256x512xbf16>, tensor<256x512xbf16>
}

// -----

func.func @side_effect(%a: tensor<256x512xbf16>, %b: tensor<512x512xbf16>, %m: memref<4xf32>) -> tensor<256x512xbf16> {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1.0 : f32
  // expected-error @+1 {{'memref.store' op cannot be replaced by kernel launches: the function computes something besides its fused chains}}
  memref.store %one, %m[%c0] : memref<4xf32>
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

// -----

// A 3x3 im2col whose columns are channel-major (k = 9c + tap) does not
// match the [3, 3, C, F] filter's row order: refused.
// expected-error @+2 {{schedule cannot be lowered: the first matmul reads an im2col generic whose indexing map is not the tap-major, channel-minor 3x3 im2col of its padded input}}
func.func @channel_major(%x: tensor<2x14x14x64xbf16>, %w: tensor<3x3x64x128xbf16>) -> tensor<2x14x14x128xbf16> {
  %r = dsm.fused_chain gemm (%x, %w) {schedule = #dsm.schedule<cluster = [1, 1, 1, 1], block = [128, 128, 64, 16], grid = [4, 1, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [], stages = 4, cost_ns = 1000>}
      : (tensor<2x14x14x64xbf16>, tensor<3x3x64x128xbf16>) -> tensor<2x14x14x128xbf16> {
  ^bb0(%a: tensor<2x14x14x64xbf16>, %b: tensor<3x3x64x128xbf16>):
    %cst = arith.constant 0.0 : f32
    %bz = arith.constant 0.0 : bf16
    %p = tensor.pad %a low[0, 1, 1, 0] high[0, 1, 1, 0] {
    ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
      tensor.yield %bz : bf16
    } : tensor<2x14x14x64xbf16> to tensor<2x16x16x64xbf16>
    %ie = tensor.empty() : tensor<392x576xbf16>
    %col = linalg.generic {indexing_maps = [affine_map<(m, k) -> (m floordiv 196, (m mod 196) floordiv 14 + (k mod 9) floordiv 3, m mod 14 + k mod 3, k floordiv 9)>, affine_map<(m, k) -> (m, k)>], iterator_types = ["parallel", "parallel"]} ins(%p : tensor<2x16x16x64xbf16>) outs(%ie : tensor<392x576xbf16>) {
    ^bb0(%in: bf16, %o: bf16):
      linalg.yield %in : bf16
    } -> tensor<392x576xbf16>
    %wc = tensor.collapse_shape %b [[0, 1, 2], [3]] : tensor<3x3x64x128xbf16> into tensor<576x128xbf16>
    %e = tensor.empty() : tensor<392x128xf32>
    %z = linalg.fill ins(%cst : f32) outs(%e : tensor<392x128xf32>) -> tensor<392x128xf32>
    %mm = linalg.matmul ins(%col, %wc : tensor<392x576xbf16>, tensor<576x128xbf16>) outs(%z : tensor<392x128xf32>) -> tensor<392x128xf32>
    %e2 = tensor.empty() : tensor<392x128xbf16>
    %t = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%mm : tensor<392x128xf32>) outs(%e2 : tensor<392x128xbf16>) {
    ^bb0(%in: f32, %o: bf16):
      %v = arith.truncf %in : f32 to bf16
      linalg.yield %v : bf16
    } -> tensor<392x128xbf16>
    %y = tensor.expand_shape %t [[0, 1, 2], [3]] output_shape [2, 14, 14, 128] : tensor<392x128xbf16> into tensor<2x14x14x128xbf16>
    dsm.yield %y : tensor<2x14x14x128xbf16>
  }
  return %r : tensor<2x14x14x128xbf16>
}

// -----

// An FHWC filter [F, 3, 3, C] collapsed to [F, 9C] but read row-major, as
// if it were [9C, F] (F = 9C makes the types agree): refused.
// expected-error @+2 {{schedule cannot be lowered: a 3x3 convolution's filter must be a [3, 3, C, F] (HWCF) or [F, 3, 3, C] (FHWC) chain input collapsed to [9C, F] or [F, 9C]}}
func.func @fhwc_read_row_major(%x: tensor<2x14x14x64xbf16>, %w: tensor<576x3x3x64xbf16>) -> tensor<2x14x14x576xbf16> {
  %r = dsm.fused_chain gemm (%x, %w) {schedule = #dsm.schedule<cluster = [1, 1, 1, 1], block = [128, 64, 64, 16], grid = [4, 9, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [], stages = 4, cost_ns = 1000>}
      : (tensor<2x14x14x64xbf16>, tensor<576x3x3x64xbf16>) -> tensor<2x14x14x576xbf16> {
  ^bb0(%a: tensor<2x14x14x64xbf16>, %b: tensor<576x3x3x64xbf16>):
    %cst = arith.constant 0.0 : f32
    %bz = arith.constant 0.0 : bf16
    %p = tensor.pad %a low[0, 1, 1, 0] high[0, 1, 1, 0] {
    ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
      tensor.yield %bz : bf16
    } : tensor<2x14x14x64xbf16> to tensor<2x16x16x64xbf16>
    %ie = tensor.empty() : tensor<392x576xbf16>
    %col = linalg.generic {indexing_maps = [affine_map<(m, k) -> (m floordiv 196, (m mod 196) floordiv 14 + k floordiv 192, m mod 14 + (k mod 192) floordiv 64, k mod 64)>, affine_map<(m, k) -> (m, k)>], iterator_types = ["parallel", "parallel"]} ins(%p : tensor<2x16x16x64xbf16>) outs(%ie : tensor<392x576xbf16>) {
    ^bb0(%in: bf16, %o: bf16):
      linalg.yield %in : bf16
    } -> tensor<392x576xbf16>
    %wc = tensor.collapse_shape %b [[0], [1, 2, 3]] : tensor<576x3x3x64xbf16> into tensor<576x576xbf16>
    %e = tensor.empty() : tensor<392x576xf32>
    %z = linalg.fill ins(%cst : f32) outs(%e : tensor<392x576xf32>) -> tensor<392x576xf32>
    %mm = linalg.matmul ins(%col, %wc : tensor<392x576xbf16>, tensor<576x576xbf16>) outs(%z : tensor<392x576xf32>) -> tensor<392x576xf32>
    %e2 = tensor.empty() : tensor<392x576xbf16>
    %t = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%mm : tensor<392x576xf32>) outs(%e2 : tensor<392x576xbf16>) {
    ^bb0(%in: f32, %o: bf16):
      %v = arith.truncf %in : f32 to bf16
      linalg.yield %v : bf16
    } -> tensor<392x576xbf16>
    %y = tensor.expand_shape %t [[0, 1, 2], [3]] output_shape [2, 14, 14, 576] : tensor<392x576xbf16> into tensor<2x14x14x576xbf16>
    dsm.yield %y : tensor<2x14x14x576xbf16>
  }
  return %r : tensor<2x14x14x576xbf16>
}

// -----

// One k tile is 64 channels of one tap.
// expected-error @+2 {{schedule cannot be lowered: 3x3 convolutions need C to be a multiple of 64 (one k tile is 64 channels of one tap)}}
func.func @narrow_channels(%x: tensor<1x14x14x32xbf16>, %w: tensor<3x3x32x128xbf16>) -> tensor<1x14x14x128xbf16> {
  %r = dsm.fused_chain gemm (%x, %w) {schedule = #dsm.schedule<cluster = [1, 1, 1, 1], block = [128, 128, 64, 16], grid = [2, 1, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [], stages = 4, cost_ns = 1000>}
      : (tensor<1x14x14x32xbf16>, tensor<3x3x32x128xbf16>) -> tensor<1x14x14x128xbf16> {
  ^bb0(%a: tensor<1x14x14x32xbf16>, %b: tensor<3x3x32x128xbf16>):
    %cst = arith.constant 0.0 : f32
    %bz = arith.constant 0.0 : bf16
    %p = tensor.pad %a low[0, 1, 1, 0] high[0, 1, 1, 0] {
    ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
      tensor.yield %bz : bf16
    } : tensor<1x14x14x32xbf16> to tensor<1x16x16x32xbf16>
    %ie = tensor.empty() : tensor<196x288xbf16>
    %col = linalg.generic {indexing_maps = [affine_map<(m, k) -> (m floordiv 196, (m mod 196) floordiv 14 + k floordiv 96, m mod 14 + (k mod 96) floordiv 32, k mod 32)>, affine_map<(m, k) -> (m, k)>], iterator_types = ["parallel", "parallel"]} ins(%p : tensor<1x16x16x32xbf16>) outs(%ie : tensor<196x288xbf16>) {
    ^bb0(%in: bf16, %o: bf16):
      linalg.yield %in : bf16
    } -> tensor<196x288xbf16>
    %wc = tensor.collapse_shape %b [[0, 1, 2], [3]] : tensor<3x3x32x128xbf16> into tensor<288x128xbf16>
    %e = tensor.empty() : tensor<196x128xf32>
    %z = linalg.fill ins(%cst : f32) outs(%e : tensor<196x128xf32>) -> tensor<196x128xf32>
    %mm = linalg.matmul ins(%col, %wc : tensor<196x288xbf16>, tensor<288x128xbf16>) outs(%z : tensor<196x128xf32>) -> tensor<196x128xf32>
    %e2 = tensor.empty() : tensor<196x128xbf16>
    %t = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%mm : tensor<196x128xf32>) outs(%e2 : tensor<196x128xbf16>) {
    ^bb0(%in: f32, %o: bf16):
      %v = arith.truncf %in : f32 to bf16
      linalg.yield %v : bf16
    } -> tensor<196x128xbf16>
    %y = tensor.expand_shape %t [[0, 1, 2], [3]] output_shape [1, 14, 14, 128] : tensor<196x128xbf16> into tensor<1x14x14x128xbf16>
    dsm.yield %y : tensor<1x14x14x128xbf16>
  }
  return %r : tensor<1x14x14x128xbf16>
}

// -----

// A one-stage ring would deadlock.
// expected-error @+2 {{schedule cannot be lowered: stages must be in [2, 8] (the ring releases a stage one k step late)}}
func.func @one_stage(%a0: tensor<256x512xbf16>, %a1: tensor<512x256xbf16>, %a2: tensor<512x256xbf16>, %a3: tensor<256x512xbf16>) -> tensor<256x512xbf16> {
  %r = dsm.fused_chain gated_ffn (%a0, %a1, %a2, %a3) {schedule = #dsm.schedule<cluster = [1, 1, 1, 1], block = [128, 128, 64, 64], grid = [2, 2, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [smem], collectives = [inter_cluster_reduce], stages = 1, cost_ns = 1000>}
      : (tensor<256x512xbf16>, tensor<512x256xbf16>, tensor<512x256xbf16>, tensor<256x512xbf16>) -> tensor<256x512xbf16> {
  ^bb0(%x: tensor<256x512xbf16>, %w1: tensor<512x256xbf16>, %wu: tensor<512x256xbf16>, %w2: tensor<256x512xbf16>):
    %zero = arith.constant 0.0 : f32
    %g_e = tensor.empty() : tensor<256x256xf32>
    %g_f = linalg.fill ins(%zero : f32) outs(%g_e : tensor<256x256xf32>) -> tensor<256x256xf32>
    %g = linalg.matmul ins(%x, %w1 : tensor<256x512xbf16>, tensor<512x256xbf16>) outs(%g_f : tensor<256x256xf32>) -> tensor<256x256xf32>
    %u_e = tensor.empty() : tensor<256x256xf32>
    %u_f = linalg.fill ins(%zero : f32) outs(%u_e : tensor<256x256xf32>) -> tensor<256x256xf32>
    %u = linalg.matmul ins(%x, %wu : tensor<256x512xbf16>, tensor<512x256xbf16>) outs(%u_f : tensor<256x256xf32>) -> tensor<256x256xf32>
    %h_e = tensor.empty() : tensor<256x256xbf16>
    %h = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%g, %u : tensor<256x256xf32>, tensor<256x256xf32>) outs(%h_e : tensor<256x256xbf16>) {
    ^bb0(%gv: f32, %uv: f32, %o: bf16):
      %one = arith.constant 1.0 : f32
      %ng = arith.negf %gv : f32
      %ex = math.exp %ng : f32
      %den = arith.addf %ex, %one : f32
      %sg = arith.divf %gv, %den : f32
      %p = arith.mulf %sg, %uv : f32
      %t = arith.truncf %p : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<256x256xbf16>
    %e_e = tensor.empty() : tensor<256x512xf32>
    %e_f = linalg.fill ins(%zero : f32) outs(%e_e : tensor<256x512xf32>) -> tensor<256x512xf32>
    %e = linalg.matmul ins(%h, %w2 : tensor<256x256xbf16>, tensor<256x512xbf16>) outs(%e_f : tensor<256x512xf32>) -> tensor<256x512xf32>
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

// -----

// Shuffle groups of 2 inside reduce groups of 2 (cls_l = 2 != cls_n = 4):
// a legal schedule that neither kernel family carries out.
// expected-error @+2 {{schedule cannot be lowered: only clusters along n (cls_m = cls_k = cls_l = 1), along l over the cluster (cls_l = cls_n * cls_k, cls_m = 1), or for a single GEMM along k (and 1 or 2 along n) or m alone are lowered}}
func.func @ffn_cls_l_ne_cls_n(%a0: tensor<256x512xbf16>, %a1: tensor<512x256xbf16>, %a2: tensor<256x512xbf16>) -> tensor<256x512xbf16> {
  %r = dsm.fused_chain ffn (%a0, %a1, %a2) {schedule = #dsm.schedule<cluster = [1, 4, 1, 2], block = [128, 64, 64, 256], grid = [2, 1, 1, 1], order = [m, n, l, k], spatial = [m, n, l], residency = [dsm], collectives = [shuffle, reduce_scatter], stages = 4, cost_ns = 1000>}
      : (tensor<256x512xbf16>, tensor<512x256xbf16>, tensor<256x512xbf16>) -> tensor<256x512xbf16> {
  ^bb0(%x: tensor<256x512xbf16>, %w1: tensor<512x256xbf16>, %w2: tensor<256x512xbf16>):
    %zero = arith.constant 0.0 : f32
    %g_e = tensor.empty() : tensor<256x256xf32>
    %g_f = linalg.fill ins(%zero : f32) outs(%g_e : tensor<256x256xf32>) -> tensor<256x256xf32>
    %g = linalg.matmul ins(%x, %w1 : tensor<256x512xbf16>, tensor<512x256xbf16>) outs(%g_f : tensor<256x256xf32>) -> tensor<256x256xf32>
    %h_e = tensor.empty() : tensor<256x256xbf16>
    %h = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%g : tensor<256x256xf32>) outs(%h_e : tensor<256x256xbf16>) {
    ^bb0(%gv: f32, %o: bf16):
      %y = arith.maximumf %gv, %zero : f32
      %t = arith.truncf %y : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<256x256xbf16>
    %e_e = tensor.empty() : tensor<256x512xf32>
    %e_f = linalg.fill ins(%zero : f32) outs(%e_e : tensor<256x512xf32>) -> tensor<256x512xf32>
    %e = linalg.matmul ins(%h, %w2 : tensor<256x256xbf16>, tensor<256x512xbf16>) outs(%e_f : tensor<256x512xf32>) -> tensor<256x512xf32>
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

// -----

// Shuffle family (cls_l = cls_n = 2) with n outermost.
// expected-error @+2 {{schedule cannot be lowered: expected spatial = [m, n, l] and order = [m, n, l, k]}}
func.func @shuffle_order(%a0: tensor<256x512xbf16>, %a1: tensor<512x256xbf16>, %a2: tensor<256x512xbf16>) -> tensor<256x512xbf16> {
  %r = dsm.fused_chain ffn (%a0, %a1, %a2) {schedule = #dsm.schedule<cluster = [1, 2, 1, 2], block = [128, 128, 64, 256], grid = [2, 1, 1, 1], order = [n, m, l, k], spatial = [m, n, l], residency = [dsm], collectives = [shuffle], stages = 4, cost_ns = 1000>}
      : (tensor<256x512xbf16>, tensor<512x256xbf16>, tensor<256x512xbf16>) -> tensor<256x512xbf16> {
  ^bb0(%x: tensor<256x512xbf16>, %w1: tensor<512x256xbf16>, %w2: tensor<256x512xbf16>):
    %zero = arith.constant 0.0 : f32
    %g_e = tensor.empty() : tensor<256x256xf32>
    %g_f = linalg.fill ins(%zero : f32) outs(%g_e : tensor<256x256xf32>) -> tensor<256x256xf32>
    %g = linalg.matmul ins(%x, %w1 : tensor<256x512xbf16>, tensor<512x256xbf16>) outs(%g_f : tensor<256x256xf32>) -> tensor<256x256xf32>
    %h_e = tensor.empty() : tensor<256x256xbf16>
    %h = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%g : tensor<256x256xf32>) outs(%h_e : tensor<256x256xbf16>) {
    ^bb0(%gv: f32, %o: bf16):
      %y = arith.maximumf %gv, %zero : f32
      %t = arith.truncf %y : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<256x256xbf16>
    %e_e = tensor.empty() : tensor<256x512xf32>
    %e_f = linalg.fill ins(%zero : f32) outs(%e_e : tensor<256x512xf32>) -> tensor<256x512xf32>
    %e = linalg.matmul ins(%h, %w2 : tensor<256x256xbf16>, tensor<256x512xbf16>) outs(%e_f : tensor<256x512xf32>) -> tensor<256x512xf32>
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

// -----

// Shuffle family with k listed as spatial (one k tile covering K).
// expected-error @+2 {{schedule cannot be lowered: expected spatial = [m, n, l] and order = [m, n, l, k]}}
func.func @shuffle_spatial_k(%a0: tensor<256x512xbf16>, %a1: tensor<512x256xbf16>, %a2: tensor<256x512xbf16>) -> tensor<256x512xbf16> {
  %r = dsm.fused_chain ffn (%a0, %a1, %a2) {schedule = #dsm.schedule<cluster = [1, 2, 1, 2], block = [128, 128, 512, 256], grid = [2, 1, 1, 1], order = [m, n, l, k], spatial = [m, n, l, k], residency = [dsm], collectives = [shuffle], stages = 4, cost_ns = 1000>}
      : (tensor<256x512xbf16>, tensor<512x256xbf16>, tensor<256x512xbf16>) -> tensor<256x512xbf16> {
  ^bb0(%x: tensor<256x512xbf16>, %w1: tensor<512x256xbf16>, %w2: tensor<256x512xbf16>):
    %zero = arith.constant 0.0 : f32
    %g_e = tensor.empty() : tensor<256x256xf32>
    %g_f = linalg.fill ins(%zero : f32) outs(%g_e : tensor<256x256xf32>) -> tensor<256x256xf32>
    %g = linalg.matmul ins(%x, %w1 : tensor<256x512xbf16>, tensor<512x256xbf16>) outs(%g_f : tensor<256x256xf32>) -> tensor<256x256xf32>
    %h_e = tensor.empty() : tensor<256x256xbf16>
    %h = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%g : tensor<256x256xf32>) outs(%h_e : tensor<256x256xbf16>) {
    ^bb0(%gv: f32, %o: bf16):
      %y = arith.maximumf %gv, %zero : f32
      %t = arith.truncf %y : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<256x256xbf16>
    %e_e = tensor.empty() : tensor<256x512xf32>
    %e_f = linalg.fill ins(%zero : f32) outs(%e_e : tensor<256x512xf32>) -> tensor<256x512xf32>
    %e = linalg.matmul ins(%h, %w2 : tensor<256x256xbf16>, tensor<256x512xbf16>) outs(%e_f : tensor<256x512xf32>) -> tensor<256x512xf32>
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

// -----

// Each rank of a shuffle group computes exactly blk_l columns of E:
// 2 x 320 != L = 512.
// expected-error @+2 {{schedule cannot be lowered: the shuffle family needs L = cls_l * blk_l with blk_l a multiple of 64}}
func.func @shuffle_l_uncovered(%a0: tensor<256x512xbf16>, %a1: tensor<512x256xbf16>, %a2: tensor<256x512xbf16>) -> tensor<256x512xbf16> {
  %r = dsm.fused_chain ffn (%a0, %a1, %a2) {schedule = #dsm.schedule<cluster = [1, 2, 1, 2], block = [128, 128, 64, 320], grid = [2, 1, 1, 1], order = [m, n, l, k], spatial = [m, n, l], residency = [dsm], collectives = [shuffle], stages = 4, cost_ns = 1000>}
      : (tensor<256x512xbf16>, tensor<512x256xbf16>, tensor<256x512xbf16>) -> tensor<256x512xbf16> {
  ^bb0(%x: tensor<256x512xbf16>, %w1: tensor<512x256xbf16>, %w2: tensor<256x512xbf16>):
    %zero = arith.constant 0.0 : f32
    %g_e = tensor.empty() : tensor<256x256xf32>
    %g_f = linalg.fill ins(%zero : f32) outs(%g_e : tensor<256x256xf32>) -> tensor<256x256xf32>
    %g = linalg.matmul ins(%x, %w1 : tensor<256x512xbf16>, tensor<512x256xbf16>) outs(%g_f : tensor<256x256xf32>) -> tensor<256x256xf32>
    %h_e = tensor.empty() : tensor<256x256xbf16>
    %h = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%g : tensor<256x256xf32>) outs(%h_e : tensor<256x256xbf16>) {
    ^bb0(%gv: f32, %o: bf16):
      %y = arith.maximumf %gv, %zero : f32
      %t = arith.truncf %y : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<256x256xbf16>
    %e_e = tensor.empty() : tensor<256x512xf32>
    %e_f = linalg.fill ins(%zero : f32) outs(%e_e : tensor<256x512xf32>) -> tensor<256x512xf32>
    %e = linalg.matmul ins(%h, %w2 : tensor<256x256xbf16>, tensor<256x512xbf16>) outs(%e_f : tensor<256x512xf32>) -> tensor<256x512xf32>
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

// -----

// L = 2 x 96, but the second GEMM's sub-tiles are 64 or 128 columns wide.
// expected-error @+2 {{schedule cannot be lowered: the shuffle family needs L = cls_l * blk_l with blk_l a multiple of 64}}
func.func @shuffle_l_not_64(%a0: tensor<256x512xbf16>, %a1: tensor<512x256xbf16>, %a2: tensor<256x192xbf16>) -> tensor<256x192xbf16> {
  %r = dsm.fused_chain ffn (%a0, %a1, %a2) {schedule = #dsm.schedule<cluster = [1, 2, 1, 2], block = [128, 128, 64, 96], grid = [2, 1, 1, 1], order = [m, n, l, k], spatial = [m, n, l], residency = [dsm], collectives = [shuffle], stages = 4, cost_ns = 1000>}
      : (tensor<256x512xbf16>, tensor<512x256xbf16>, tensor<256x192xbf16>) -> tensor<256x192xbf16> {
  ^bb0(%x: tensor<256x512xbf16>, %w1: tensor<512x256xbf16>, %w2: tensor<256x192xbf16>):
    %zero = arith.constant 0.0 : f32
    %g_e = tensor.empty() : tensor<256x256xf32>
    %g_f = linalg.fill ins(%zero : f32) outs(%g_e : tensor<256x256xf32>) -> tensor<256x256xf32>
    %g = linalg.matmul ins(%x, %w1 : tensor<256x512xbf16>, tensor<512x256xbf16>) outs(%g_f : tensor<256x256xf32>) -> tensor<256x256xf32>
    %h_e = tensor.empty() : tensor<256x256xbf16>
    %h = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%g : tensor<256x256xf32>) outs(%h_e : tensor<256x256xbf16>) {
    ^bb0(%gv: f32, %o: bf16):
      %y = arith.maximumf %gv, %zero : f32
      %t = arith.truncf %y : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<256x256xbf16>
    %e_e = tensor.empty() : tensor<256x192xf32>
    %e_f = linalg.fill ins(%zero : f32) outs(%e_e : tensor<256x192xf32>) -> tensor<256x192xf32>
    %e = linalg.matmul ins(%h, %w2 : tensor<256x256xbf16>, tensor<256x192xbf16>) outs(%e_f : tensor<256x192xf32>) -> tensor<256x192xf32>
    %o_e = tensor.empty() : tensor<256x192xbf16>
    %o = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%e : tensor<256x192xf32>) outs(%o_e : tensor<256x192xbf16>) {
    ^bb0(%ev: f32, %oo: bf16):
      %t = arith.truncf %ev : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<256x192xbf16>
    dsm.yield %o : tensor<256x192xbf16>
  }
  return %r : tensor<256x192xbf16>
}

// -----

// Split K over 16 CTAs (a legal schedule; the kernel takes 2, 4 or 8).
// expected-error @+2 {{schedule cannot be lowered: a split-K GEMM takes clusters of 2, 4 or 8 CTAs along k}}
func.func @gemm_split_k_16(%a: tensor<256x512xbf16>, %b: tensor<512x1024xbf16>) -> tensor<256x1024xbf16> {
  %r = dsm.fused_chain gemm (%a, %b) {schedule = #dsm.schedule<cluster = [1, 1, 16, 1], block = [128, 256, 32, 16], grid = [2, 4, 1, 1], order = [m, n, k, l], spatial = [m, n, k], residency = [], collectives = [all_exchange], stages = 3, cost_ns = 1000>}
      : (tensor<256x512xbf16>, tensor<512x1024xbf16>) -> tensor<256x1024xbf16> {
  ^bb0(%x: tensor<256x512xbf16>, %w: tensor<512x1024xbf16>):
    %cst = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<256x1024xf32>
    %f = linalg.fill ins(%cst : f32) outs(%e : tensor<256x1024xf32>) -> tensor<256x1024xf32>
    %mm = linalg.matmul ins(%x, %w : tensor<256x512xbf16>, tensor<512x1024xbf16>) outs(%f : tensor<256x1024xf32>) -> tensor<256x1024xf32>
    %e2 = tensor.empty() : tensor<256x1024xbf16>
    %t = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%mm : tensor<256x1024xf32>) outs(%e2 : tensor<256x1024xbf16>) {
    ^bb0(%in: f32, %o: bf16):
      %v = arith.truncf %in : f32 to bf16
      linalg.yield %v : bf16
    }  -> tensor<256x1024xbf16>
    dsm.yield %t : tensor<256x1024xbf16>
  }
  return %r : tensor<256x1024xbf16>
}

// -----

#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d1, d2)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#map3 = affine_map<(d0, d1) -> (d0, d1)>
// expected-error @+2 {{schedule cannot be lowered: a streamed-n plan keeps all of E in registers: blk_l must be L}}
func.func @streamed_partial_l(%arg0: tensor<256x64xbf16>, %arg1: tensor<512x64xbf16>, %arg2: tensor<64x512xbf16>) -> tensor<256x64xbf16> {
  %0 = dsm.fused_chain ffn(%arg0, %arg1, %arg2) {schedule = #dsm.schedule<cluster = [1, 1, 1, 1], block = [128, 128, 64, 32], grid = [2, 1, 1, 1], order = [m, n, k, l], spatial = [m], residency = [smem], collectives = [], stages = 4, cost_ns = 1000>} : (tensor<256x64xbf16>, tensor<512x64xbf16>, tensor<64x512xbf16>) -> tensor<256x64xbf16> {
  ^bb0(%arg3: tensor<256x64xbf16>, %arg4: tensor<512x64xbf16>, %arg5: tensor<64x512xbf16>):
    %cst = arith.constant 0.000000e+00 : f32
    %1 = tensor.empty() : tensor<256x512xf32>
    %2 = linalg.fill ins(%cst : f32) outs(%1 : tensor<256x512xf32>) -> tensor<256x512xf32>
    %3 = linalg.matmul indexing_maps = [#map, #map1, #map2] ins(%arg3, %arg4 : tensor<256x64xbf16>, tensor<512x64xbf16>) outs(%2 : tensor<256x512xf32>) -> tensor<256x512xf32>
    %4 = tensor.empty() : tensor<256x512xbf16>
    %5 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel"]} ins(%3 : tensor<256x512xf32>) outs(%4 : tensor<256x512xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %cst_0 = arith.constant 0.797884583 : f32
      %cst_1 = arith.constant 4.471500e-02 : f32
      %cst_2 = arith.constant 5.000000e-01 : f32
      %cst_3 = arith.constant 1.000000e+00 : f32
      %11 = arith.mulf %in, %in : f32
      %12 = arith.mulf %11, %in : f32
      %13 = arith.mulf %12, %cst_1 : f32
      %14 = arith.addf %in, %13 : f32
      %15 = arith.mulf %14, %cst_0 : f32
      %16 = math.tanh %15 : f32
      %17 = arith.addf %16, %cst_3 : f32
      %18 = arith.mulf %in, %cst_2 : f32
      %19 = arith.mulf %18, %17 : f32
      %20 = arith.truncf %19 : f32 to bf16
      linalg.yield %20 : bf16
    } -> tensor<256x512xbf16>
    %6 = tensor.empty() : tensor<256x64xf32>
    %7 = linalg.fill ins(%cst : f32) outs(%6 : tensor<256x64xf32>) -> tensor<256x64xf32>
    %8 = linalg.matmul indexing_maps = [#map, #map1, #map2] ins(%5, %arg5 : tensor<256x512xbf16>, tensor<64x512xbf16>) outs(%7 : tensor<256x64xf32>) -> tensor<256x64xf32>
    %9 = tensor.empty() : tensor<256x64xbf16>
    %10 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel"]} ins(%8 : tensor<256x64xf32>) outs(%9 : tensor<256x64xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %11 = arith.truncf %in : f32 to bf16
      linalg.yield %11 : bf16
    } -> tensor<256x64xbf16>
    dsm.yield %10 : tensor<256x64xbf16>
  }
  return %0 : tensor<256x64xbf16>
}

// -----

#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d1, d2)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#map3 = affine_map<(d0, d1) -> (d0, d1)>
// expected-error @+2 {{schedule cannot be lowered: a streamed-n plan splits its n loop over 1, 2 or 4 CTAs}}
func.func @streamed_split_8(%arg0: tensor<256x64xbf16>, %arg1: tensor<512x64xbf16>, %arg2: tensor<64x512xbf16>) -> tensor<256x64xbf16> {
  %0 = dsm.fused_chain ffn(%arg0, %arg1, %arg2) {schedule = #dsm.schedule<cluster = [1, 8, 1, 1], block = [128, 64, 64, 64], grid = [2, 1, 1, 1], order = [m, n, k, l], spatial = [m], residency = [smem], collectives = [reduce_scatter], stages = 4, cost_ns = 1000>} : (tensor<256x64xbf16>, tensor<512x64xbf16>, tensor<64x512xbf16>) -> tensor<256x64xbf16> {
  ^bb0(%arg3: tensor<256x64xbf16>, %arg4: tensor<512x64xbf16>, %arg5: tensor<64x512xbf16>):
    %cst = arith.constant 0.000000e+00 : f32
    %1 = tensor.empty() : tensor<256x512xf32>
    %2 = linalg.fill ins(%cst : f32) outs(%1 : tensor<256x512xf32>) -> tensor<256x512xf32>
    %3 = linalg.matmul indexing_maps = [#map, #map1, #map2] ins(%arg3, %arg4 : tensor<256x64xbf16>, tensor<512x64xbf16>) outs(%2 : tensor<256x512xf32>) -> tensor<256x512xf32>
    %4 = tensor.empty() : tensor<256x512xbf16>
    %5 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel"]} ins(%3 : tensor<256x512xf32>) outs(%4 : tensor<256x512xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %cst_0 = arith.constant 0.797884583 : f32
      %cst_1 = arith.constant 4.471500e-02 : f32
      %cst_2 = arith.constant 5.000000e-01 : f32
      %cst_3 = arith.constant 1.000000e+00 : f32
      %11 = arith.mulf %in, %in : f32
      %12 = arith.mulf %11, %in : f32
      %13 = arith.mulf %12, %cst_1 : f32
      %14 = arith.addf %in, %13 : f32
      %15 = arith.mulf %14, %cst_0 : f32
      %16 = math.tanh %15 : f32
      %17 = arith.addf %16, %cst_3 : f32
      %18 = arith.mulf %in, %cst_2 : f32
      %19 = arith.mulf %18, %17 : f32
      %20 = arith.truncf %19 : f32 to bf16
      linalg.yield %20 : bf16
    } -> tensor<256x512xbf16>
    %6 = tensor.empty() : tensor<256x64xf32>
    %7 = linalg.fill ins(%cst : f32) outs(%6 : tensor<256x64xf32>) -> tensor<256x64xf32>
    %8 = linalg.matmul indexing_maps = [#map, #map1, #map2] ins(%5, %arg5 : tensor<256x512xbf16>, tensor<64x512xbf16>) outs(%7 : tensor<256x64xf32>) -> tensor<256x64xf32>
    %9 = tensor.empty() : tensor<256x64xbf16>
    %10 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel"]} ins(%8 : tensor<256x64xf32>) outs(%9 : tensor<256x64xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %11 = arith.truncf %in : f32 to bf16
      linalg.yield %11 : bf16
    } -> tensor<256x64xbf16>
    dsm.yield %10 : tensor<256x64xbf16>
  }
  return %0 : tensor<256x64xbf16>
}

// -----

#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d1, d2)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#map3 = affine_map<(d0, d1) -> (d0, d1)>
// expected-error @+2 {{schedule cannot be lowered: a streamed-n plan needs N to be a multiple of cls_n * blk_n, with at least two n tiles per CTA}}
func.func @streamed_split_one_tile(%arg0: tensor<256x64xbf16>, %arg1: tensor<512x64xbf16>, %arg2: tensor<64x512xbf16>) -> tensor<256x64xbf16> {
  %0 = dsm.fused_chain ffn(%arg0, %arg1, %arg2) {schedule = #dsm.schedule<cluster = [1, 4, 1, 1], block = [128, 128, 64, 64], grid = [2, 1, 1, 1], order = [m, n, k, l], spatial = [m], residency = [smem], collectives = [reduce_scatter], stages = 4, cost_ns = 1000>} : (tensor<256x64xbf16>, tensor<512x64xbf16>, tensor<64x512xbf16>) -> tensor<256x64xbf16> {
  ^bb0(%arg3: tensor<256x64xbf16>, %arg4: tensor<512x64xbf16>, %arg5: tensor<64x512xbf16>):
    %cst = arith.constant 0.000000e+00 : f32
    %1 = tensor.empty() : tensor<256x512xf32>
    %2 = linalg.fill ins(%cst : f32) outs(%1 : tensor<256x512xf32>) -> tensor<256x512xf32>
    %3 = linalg.matmul indexing_maps = [#map, #map1, #map2] ins(%arg3, %arg4 : tensor<256x64xbf16>, tensor<512x64xbf16>) outs(%2 : tensor<256x512xf32>) -> tensor<256x512xf32>
    %4 = tensor.empty() : tensor<256x512xbf16>
    %5 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel"]} ins(%3 : tensor<256x512xf32>) outs(%4 : tensor<256x512xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %cst_0 = arith.constant 0.797884583 : f32
      %cst_1 = arith.constant 4.471500e-02 : f32
      %cst_2 = arith.constant 5.000000e-01 : f32
      %cst_3 = arith.constant 1.000000e+00 : f32
      %11 = arith.mulf %in, %in : f32
      %12 = arith.mulf %11, %in : f32
      %13 = arith.mulf %12, %cst_1 : f32
      %14 = arith.addf %in, %13 : f32
      %15 = arith.mulf %14, %cst_0 : f32
      %16 = math.tanh %15 : f32
      %17 = arith.addf %16, %cst_3 : f32
      %18 = arith.mulf %in, %cst_2 : f32
      %19 = arith.mulf %18, %17 : f32
      %20 = arith.truncf %19 : f32 to bf16
      linalg.yield %20 : bf16
    } -> tensor<256x512xbf16>
    %6 = tensor.empty() : tensor<256x64xf32>
    %7 = linalg.fill ins(%cst : f32) outs(%6 : tensor<256x64xf32>) -> tensor<256x64xf32>
    %8 = linalg.matmul indexing_maps = [#map, #map1, #map2] ins(%5, %arg5 : tensor<256x512xbf16>, tensor<64x512xbf16>) outs(%7 : tensor<256x64xf32>) -> tensor<256x64xf32>
    %9 = tensor.empty() : tensor<256x64xbf16>
    %10 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel"]} ins(%8 : tensor<256x64xf32>) outs(%9 : tensor<256x64xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %11 = arith.truncf %in : f32 to bf16
      linalg.yield %11 : bf16
    } -> tensor<256x64xbf16>
    dsm.yield %10 : tensor<256x64xbf16>
  }
  return %0 : tensor<256x64xbf16>
}

// -----

#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d1, d2)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#map3 = affine_map<(d0, d1) -> (d0, d1)>
// expected-error @+2 {{schedule cannot be lowered: a streamed-n plan holds GEMM0's and E's accumulators at once: blk_n + blk_l must be at most 256, or twice that over a 64-row tile's two warpgroups (blk_n and blk_l multiples of 128)}}
func.func @streamed_too_wide(%arg0: tensor<256x64xbf16>, %arg1: tensor<512x64xbf16>, %arg2: tensor<64x512xbf16>) -> tensor<256x64xbf16> {
  %0 = dsm.fused_chain ffn(%arg0, %arg1, %arg2) {schedule = #dsm.schedule<cluster = [1, 1, 1, 1], block = [128, 256, 64, 64], grid = [2, 1, 1, 1], order = [m, n, k, l], spatial = [m], residency = [smem], collectives = [], stages = 4, cost_ns = 1000>} : (tensor<256x64xbf16>, tensor<512x64xbf16>, tensor<64x512xbf16>) -> tensor<256x64xbf16> {
  ^bb0(%arg3: tensor<256x64xbf16>, %arg4: tensor<512x64xbf16>, %arg5: tensor<64x512xbf16>):
    %cst = arith.constant 0.000000e+00 : f32
    %1 = tensor.empty() : tensor<256x512xf32>
    %2 = linalg.fill ins(%cst : f32) outs(%1 : tensor<256x512xf32>) -> tensor<256x512xf32>
    %3 = linalg.matmul indexing_maps = [#map, #map1, #map2] ins(%arg3, %arg4 : tensor<256x64xbf16>, tensor<512x64xbf16>) outs(%2 : tensor<256x512xf32>) -> tensor<256x512xf32>
    %4 = tensor.empty() : tensor<256x512xbf16>
    %5 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel"]} ins(%3 : tensor<256x512xf32>) outs(%4 : tensor<256x512xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %cst_0 = arith.constant 0.797884583 : f32
      %cst_1 = arith.constant 4.471500e-02 : f32
      %cst_2 = arith.constant 5.000000e-01 : f32
      %cst_3 = arith.constant 1.000000e+00 : f32
      %11 = arith.mulf %in, %in : f32
      %12 = arith.mulf %11, %in : f32
      %13 = arith.mulf %12, %cst_1 : f32
      %14 = arith.addf %in, %13 : f32
      %15 = arith.mulf %14, %cst_0 : f32
      %16 = math.tanh %15 : f32
      %17 = arith.addf %16, %cst_3 : f32
      %18 = arith.mulf %in, %cst_2 : f32
      %19 = arith.mulf %18, %17 : f32
      %20 = arith.truncf %19 : f32 to bf16
      linalg.yield %20 : bf16
    } -> tensor<256x512xbf16>
    %6 = tensor.empty() : tensor<256x64xf32>
    %7 = linalg.fill ins(%cst : f32) outs(%6 : tensor<256x64xf32>) -> tensor<256x64xf32>
    %8 = linalg.matmul indexing_maps = [#map, #map1, #map2] ins(%5, %arg5 : tensor<256x512xbf16>, tensor<64x512xbf16>) outs(%7 : tensor<256x64xf32>) -> tensor<256x64xf32>
    %9 = tensor.empty() : tensor<256x64xbf16>
    %10 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel"]} ins(%8 : tensor<256x64xf32>) outs(%9 : tensor<256x64xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %11 = arith.truncf %in : f32 to bf16
      linalg.yield %11 : bf16
    } -> tensor<256x64xbf16>
    dsm.yield %10 : tensor<256x64xbf16>
  }
  return %0 : tensor<256x64xbf16>
}

// -----

// 64 + 256 columns: too many for one warpgroup, and halves of 32 columns
// are not whole 64-column chunks.
#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d1, d2)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#map3 = affine_map<(d0, d1) -> (d0, d1)>
// expected-error @+2 {{schedule cannot be lowered: a streamed-n plan holds GEMM0's and E's accumulators at once: blk_n + blk_l must be at most 256, or twice that over a 64-row tile's two warpgroups (blk_n and blk_l multiples of 128)}}
func.func @streamed_split_narrow_halves(%arg0: tensor<256x64xbf16>, %arg1: tensor<512x64xbf16>, %arg2: tensor<256x512xbf16>) -> tensor<256x256xbf16> {
  %0 = dsm.fused_chain ffn(%arg0, %arg1, %arg2) {schedule = #dsm.schedule<cluster = [1, 1, 1, 1], block = [64, 64, 64, 256], grid = [4, 1, 1, 1], order = [m, n, k, l], spatial = [m], residency = [smem], collectives = [], stages = 4, cost_ns = 1000>} : (tensor<256x64xbf16>, tensor<512x64xbf16>, tensor<256x512xbf16>) -> tensor<256x256xbf16> {
  ^bb0(%arg3: tensor<256x64xbf16>, %arg4: tensor<512x64xbf16>, %arg5: tensor<256x512xbf16>):
    %cst = arith.constant 0.000000e+00 : f32
    %1 = tensor.empty() : tensor<256x512xf32>
    %2 = linalg.fill ins(%cst : f32) outs(%1 : tensor<256x512xf32>) -> tensor<256x512xf32>
    %3 = linalg.matmul indexing_maps = [#map, #map1, #map2] ins(%arg3, %arg4 : tensor<256x64xbf16>, tensor<512x64xbf16>) outs(%2 : tensor<256x512xf32>) -> tensor<256x512xf32>
    %4 = tensor.empty() : tensor<256x512xbf16>
    %5 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel"]} ins(%3 : tensor<256x512xf32>) outs(%4 : tensor<256x512xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %cst_0 = arith.constant 0.797884583 : f32
      %cst_1 = arith.constant 4.471500e-02 : f32
      %cst_2 = arith.constant 5.000000e-01 : f32
      %cst_3 = arith.constant 1.000000e+00 : f32
      %11 = arith.mulf %in, %in : f32
      %12 = arith.mulf %11, %in : f32
      %13 = arith.mulf %12, %cst_1 : f32
      %14 = arith.addf %in, %13 : f32
      %15 = arith.mulf %14, %cst_0 : f32
      %16 = math.tanh %15 : f32
      %17 = arith.addf %16, %cst_3 : f32
      %18 = arith.mulf %in, %cst_2 : f32
      %19 = arith.mulf %18, %17 : f32
      %20 = arith.truncf %19 : f32 to bf16
      linalg.yield %20 : bf16
    } -> tensor<256x512xbf16>
    %6 = tensor.empty() : tensor<256x256xf32>
    %7 = linalg.fill ins(%cst : f32) outs(%6 : tensor<256x256xf32>) -> tensor<256x256xf32>
    %8 = linalg.matmul indexing_maps = [#map, #map1, #map2] ins(%5, %arg5 : tensor<256x512xbf16>, tensor<256x512xbf16>) outs(%7 : tensor<256x256xf32>) -> tensor<256x256xf32>
    %9 = tensor.empty() : tensor<256x256xbf16>
    %10 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel"]} ins(%8 : tensor<256x256xf32>) outs(%9 : tensor<256x256xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %11 = arith.truncf %in : f32 to bf16
      linalg.yield %11 : bf16
    } -> tensor<256x256xbf16>
    dsm.yield %10 : tensor<256x256xbf16>
  }
  return %0 : tensor<256x256xbf16>
}

// -----

// Split K before a gated activation would reduce gate and up alike.
// expected-error @+2 {{schedule cannot be lowered: split K in a fused chain is lowered for plain FFNs only}}
func.func @gated_split_k(%a0: tensor<256x512xbf16>, %a1: tensor<512x256xbf16>, %a2: tensor<512x256xbf16>, %a3: tensor<256x512xbf16>) -> tensor<256x512xbf16> {
  %r = dsm.fused_chain gated_ffn (%a0, %a1, %a2, %a3) {schedule = #dsm.schedule<cluster = [1, 2, 2, 4], block = [128, 128, 256, 128], grid = [2, 1, 1, 1], order = [m, n, k, l], spatial = [m, n, k, l], residency = [dsm, dsm], collectives = [multiply, shuffle], stages = 4, cost_ns = 1000>}
      : (tensor<256x512xbf16>, tensor<512x256xbf16>, tensor<512x256xbf16>, tensor<256x512xbf16>) -> tensor<256x512xbf16> {
  ^bb0(%x: tensor<256x512xbf16>, %w1: tensor<512x256xbf16>, %wu: tensor<512x256xbf16>, %w2: tensor<256x512xbf16>):
    %zero = arith.constant 0.0 : f32
    %g_e = tensor.empty() : tensor<256x256xf32>
    %g_f = linalg.fill ins(%zero : f32) outs(%g_e : tensor<256x256xf32>) -> tensor<256x256xf32>
    %g = linalg.matmul ins(%x, %w1 : tensor<256x512xbf16>, tensor<512x256xbf16>) outs(%g_f : tensor<256x256xf32>) -> tensor<256x256xf32>
    %u_e = tensor.empty() : tensor<256x256xf32>
    %u_f = linalg.fill ins(%zero : f32) outs(%u_e : tensor<256x256xf32>) -> tensor<256x256xf32>
    %u = linalg.matmul ins(%x, %wu : tensor<256x512xbf16>, tensor<512x256xbf16>) outs(%u_f : tensor<256x256xf32>) -> tensor<256x256xf32>
    %h_e = tensor.empty() : tensor<256x256xbf16>
    %h = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%g, %u : tensor<256x256xf32>, tensor<256x256xf32>) outs(%h_e : tensor<256x256xbf16>) {
    ^bb0(%gv: f32, %uv: f32, %o: bf16):
      %one = arith.constant 1.0 : f32
      %ng = arith.negf %gv : f32
      %ex = math.exp %ng : f32
      %den = arith.addf %ex, %one : f32
      %sg = arith.divf %gv, %den : f32
      %p = arith.mulf %sg, %uv : f32
      %t = arith.truncf %p : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<256x256xbf16>
    %e_e = tensor.empty() : tensor<256x512xf32>
    %e_f = linalg.fill ins(%zero : f32) outs(%e_e : tensor<256x512xf32>) -> tensor<256x512xf32>
    %e = linalg.matmul ins(%h, %w2 : tensor<256x256xbf16>, tensor<256x512xbf16>) outs(%e_f : tensor<256x512xf32>) -> tensor<256x512xf32>
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

// -----

// Four k ranks would each keep 32 columns of a 128-wide tile: not whole
// chunks of the swizzled act(C) (and not rows: blk_n != 64).
// expected-error @+2 {{schedule cannot be lowered: split K publishes act(C) in whole 64-column chunks (blk_n a multiple of 64 * cls_k) or, with blk_n = 64, in row slices}}
func.func @split_k_narrow_slice(%a0: tensor<256x512xbf16>, %a1: tensor<512x256xbf16>, %a2: tensor<256x512xbf16>) -> tensor<256x512xbf16> {
  %r = dsm.fused_chain ffn (%a0, %a1, %a2) {schedule = #dsm.schedule<cluster = [1, 2, 4, 8], block = [128, 128, 128, 64], grid = [2, 1, 1, 1], order = [m, n, k, l], spatial = [m, n, k, l], residency = [dsm], collectives = [all_exchange, shuffle], stages = 4, cost_ns = 1000>}
      : (tensor<256x512xbf16>, tensor<512x256xbf16>, tensor<256x512xbf16>) -> tensor<256x512xbf16> {
  ^bb0(%x: tensor<256x512xbf16>, %w1: tensor<512x256xbf16>, %w2: tensor<256x512xbf16>):
    %zero = arith.constant 0.0 : f32
    %g_e = tensor.empty() : tensor<256x256xf32>
    %g_f = linalg.fill ins(%zero : f32) outs(%g_e : tensor<256x256xf32>) -> tensor<256x256xf32>
    %g = linalg.matmul ins(%x, %w1 : tensor<256x512xbf16>, tensor<512x256xbf16>) outs(%g_f : tensor<256x256xf32>) -> tensor<256x256xf32>
    %h_e = tensor.empty() : tensor<256x256xbf16>
    %h = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%g : tensor<256x256xf32>) outs(%h_e : tensor<256x256xbf16>) {
    ^bb0(%gv: f32, %o: bf16):
      %y = arith.maximumf %gv, %zero : f32
      %t = arith.truncf %y : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<256x256xbf16>
    %e_e = tensor.empty() : tensor<256x512xf32>
    %e_f = linalg.fill ins(%zero : f32) outs(%e_e : tensor<256x512xf32>) -> tensor<256x512xf32>
    %e = linalg.matmul ins(%h, %w2 : tensor<256x256xbf16>, tensor<256x512xbf16>) outs(%e_f : tensor<256x512xf32>) -> tensor<256x512xf32>
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

// -----

// K = 192 in three k tiles: the second rank of a pair would run past K.
// expected-error @+2 {{schedule cannot be lowered: split K needs K to be a multiple of 64 * cls_k}}
func.func @split_k_ragged(%a0: tensor<256x192xbf16>, %a1: tensor<192x256xbf16>, %a2: tensor<256x512xbf16>) -> tensor<256x512xbf16> {
  %r = dsm.fused_chain ffn (%a0, %a1, %a2) {schedule = #dsm.schedule<cluster = [1, 2, 2, 4], block = [128, 128, 96, 128], grid = [2, 1, 1, 1], order = [m, n, k, l], spatial = [m, n, k, l], residency = [dsm], collectives = [all_exchange, shuffle], stages = 4, cost_ns = 1000>}
      : (tensor<256x192xbf16>, tensor<192x256xbf16>, tensor<256x512xbf16>) -> tensor<256x512xbf16> {
  ^bb0(%x: tensor<256x192xbf16>, %w1: tensor<192x256xbf16>, %w2: tensor<256x512xbf16>):
    %zero = arith.constant 0.0 : f32
    %g_e = tensor.empty() : tensor<256x256xf32>
    %g_f = linalg.fill ins(%zero : f32) outs(%g_e : tensor<256x256xf32>) -> tensor<256x256xf32>
    %g = linalg.matmul ins(%x, %w1 : tensor<256x192xbf16>, tensor<192x256xbf16>) outs(%g_f : tensor<256x256xf32>) -> tensor<256x256xf32>
    %h_e = tensor.empty() : tensor<256x256xbf16>
    %h = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%g : tensor<256x256xf32>) outs(%h_e : tensor<256x256xbf16>) {
    ^bb0(%gv: f32, %o: bf16):
      %y = arith.maximumf %gv, %zero : f32
      %t = arith.truncf %y : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<256x256xbf16>
    %e_e = tensor.empty() : tensor<256x512xf32>
    %e_f = linalg.fill ins(%zero : f32) outs(%e_e : tensor<256x512xf32>) -> tensor<256x512xf32>
    %e = linalg.matmul ins(%h, %w2 : tensor<256x256xbf16>, tensor<256x512xbf16>) outs(%e_f : tensor<256x512xf32>) -> tensor<256x512xf32>
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

// -----

// Gate and up accumulators of 64 x 256 each exceed the consumer registers.
// expected-error @+2 {{schedule cannot be lowered: a gated GEMM keeps gate and up accumulators live: blk_n <= 192}}
func.func @gated_wide(%a: tensor<256x512xbf16>, %wg: tensor<512x256xbf16>, %wu: tensor<512x256xbf16>) -> tensor<256x256xbf16> {
  %r = dsm.fused_chain gated_gemm (%a, %wg, %wu) {schedule = #dsm.schedule<cluster = [1, 1, 1, 1], block = [128, 256, 64, 16], grid = [2, 1, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [], stages = 4, cost_ns = 3000>}
      : (tensor<256x512xbf16>, tensor<512x256xbf16>, tensor<512x256xbf16>) -> tensor<256x256xbf16> {
  ^bb0(%x: tensor<256x512xbf16>, %g: tensor<512x256xbf16>, %u: tensor<512x256xbf16>):
    %z = arith.constant 0.0 : f32
    %one = arith.constant 1.0 : f32
    %e0 = tensor.empty() : tensor<256x256xf32>
    %f0 = linalg.fill ins(%z : f32) outs(%e0 : tensor<256x256xf32>) -> tensor<256x256xf32>
    %cg = linalg.matmul ins(%x, %g : tensor<256x512xbf16>, tensor<512x256xbf16>) outs(%f0 : tensor<256x256xf32>) -> tensor<256x256xf32>
    %e1 = tensor.empty() : tensor<256x256xf32>
    %f1 = linalg.fill ins(%z : f32) outs(%e1 : tensor<256x256xf32>) -> tensor<256x256xf32>
    %cu = linalg.matmul ins(%x, %u : tensor<256x512xbf16>, tensor<512x256xbf16>) outs(%f1 : tensor<256x256xf32>) -> tensor<256x256xf32>
    %hb = tensor.empty() : tensor<256x256xbf16>
    %h = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%cg, %cu : tensor<256x256xf32>, tensor<256x256xf32>) outs(%hb : tensor<256x256xbf16>) {
    ^bb0(%gv: f32, %uv: f32, %out: bf16):
      %n = arith.negf %gv : f32
      %ex = math.exp %n : f32
      %den = arith.addf %ex, %one : f32
      %s = arith.divf %gv, %den : f32
      %p = arith.mulf %s, %uv : f32
      %t = arith.truncf %p : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<256x256xbf16>
    dsm.yield %h : tensor<256x256xbf16>
  }
  return %r : tensor<256x256xbf16>
}

// -----

// A partial last n tile needs N a multiple of 64 (B's boxes past N then
// lie wholly outside it): 224 columns in two tiles of 192 do not.
// expected-error @+2 {{schedule cannot be lowered: N must be grid_n * blk_n, or end in a partial n tile with N a multiple of 64}}
func.func @gated_partial_unaligned(%a: tensor<256x512xbf16>, %wg: tensor<512x224xbf16>, %wu: tensor<512x224xbf16>) -> tensor<256x224xbf16> {
  %r = dsm.fused_chain gated_gemm (%a, %wg, %wu) {schedule = #dsm.schedule<cluster = [1, 1, 1, 1], block = [128, 192, 64, 16], grid = [2, 2, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [], stages = 3, cost_ns = 3000>}
      : (tensor<256x512xbf16>, tensor<512x224xbf16>, tensor<512x224xbf16>) -> tensor<256x224xbf16> {
  ^bb0(%x: tensor<256x512xbf16>, %g: tensor<512x224xbf16>, %u: tensor<512x224xbf16>):
    %z = arith.constant 0.0 : f32
    %one = arith.constant 1.0 : f32
    %e0 = tensor.empty() : tensor<256x224xf32>
    %f0 = linalg.fill ins(%z : f32) outs(%e0 : tensor<256x224xf32>) -> tensor<256x224xf32>
    %cg = linalg.matmul ins(%x, %g : tensor<256x512xbf16>, tensor<512x224xbf16>) outs(%f0 : tensor<256x224xf32>) -> tensor<256x224xf32>
    %e1 = tensor.empty() : tensor<256x224xf32>
    %f1 = linalg.fill ins(%z : f32) outs(%e1 : tensor<256x224xf32>) -> tensor<256x224xf32>
    %cu = linalg.matmul ins(%x, %u : tensor<256x512xbf16>, tensor<512x224xbf16>) outs(%f1 : tensor<256x224xf32>) -> tensor<256x224xf32>
    %hb = tensor.empty() : tensor<256x224xbf16>
    %h = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%cg, %cu : tensor<256x224xf32>, tensor<256x224xf32>) outs(%hb : tensor<256x224xbf16>) {
    ^bb0(%gv: f32, %uv: f32, %out: bf16):
      %n = arith.negf %gv : f32
      %ex = math.exp %n : f32
      %den = arith.addf %ex, %one : f32
      %s = arith.divf %gv, %den : f32
      %p = arith.mulf %s, %uv : f32
      %t = arith.truncf %p : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<256x224xbf16>
    dsm.yield %h : tensor<256x224xbf16>
  }
  return %r : tensor<256x224xbf16>
}

// -----

// Only K-major [N, K] weights take n tiles of any 16-column multiple (one
// TMA box of blk_n rows); row-major ones load 64-column boxes.
// expected-error @+2 {{schedule cannot be lowered: row-major [K, N] weights load B in 64-column boxes: blk_n must be a multiple of 64}}
func.func @gated_wave_width_row_major(%a: tensor<256x512xbf16>, %wg: tensor<512x224xbf16>, %wu: tensor<512x224xbf16>) -> tensor<256x224xbf16> {
  %r = dsm.fused_chain gated_gemm (%a, %wg, %wu) {schedule = #dsm.schedule<cluster = [1, 1, 1, 1], block = [128, 96, 64, 16], grid = [2, 3, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [], stages = 3, cost_ns = 3000>}
      : (tensor<256x512xbf16>, tensor<512x224xbf16>, tensor<512x224xbf16>) -> tensor<256x224xbf16> {
  ^bb0(%x: tensor<256x512xbf16>, %g: tensor<512x224xbf16>, %u: tensor<512x224xbf16>):
    %z = arith.constant 0.0 : f32
    %one = arith.constant 1.0 : f32
    %e0 = tensor.empty() : tensor<256x224xf32>
    %f0 = linalg.fill ins(%z : f32) outs(%e0 : tensor<256x224xf32>) -> tensor<256x224xf32>
    %cg = linalg.matmul ins(%x, %g : tensor<256x512xbf16>, tensor<512x224xbf16>) outs(%f0 : tensor<256x224xf32>) -> tensor<256x224xf32>
    %e1 = tensor.empty() : tensor<256x224xf32>
    %f1 = linalg.fill ins(%z : f32) outs(%e1 : tensor<256x224xf32>) -> tensor<256x224xf32>
    %cu = linalg.matmul ins(%x, %u : tensor<256x512xbf16>, tensor<512x224xbf16>) outs(%f1 : tensor<256x224xf32>) -> tensor<256x224xf32>
    %hb = tensor.empty() : tensor<256x224xbf16>
    %h = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%cg, %cu : tensor<256x224xf32>, tensor<256x224xf32>) outs(%hb : tensor<256x224xbf16>) {
    ^bb0(%gv: f32, %uv: f32, %out: bf16):
      %n = arith.negf %gv : f32
      %ex = math.exp %n : f32
      %den = arith.addf %ex, %one : f32
      %s = arith.divf %gv, %den : f32
      %p = arith.mulf %s, %uv : f32
      %t = arith.truncf %p : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<256x224xbf16>
    dsm.yield %h : tensor<256x224xbf16>
  }
  return %r : tensor<256x224xbf16>
}

// -----

// Only a GEMM of one CTA per cluster over all of K ends in a partial n
// tile: a split K covers N exactly (320 columns are not 3 x 128).
// expected-error @+2 {{schedule cannot be lowered: N must be exactly cls_n * grid_n * blk_n}}
func.func @gated_partial_split_k(%a: tensor<256x512xbf16>, %wg: tensor<512x320xbf16>, %wu: tensor<512x320xbf16>) -> tensor<256x320xbf16> {
  %r = dsm.fused_chain gated_gemm (%a, %wg, %wu) {schedule = #dsm.schedule<cluster = [1, 1, 2, 1], block = [128, 128, 256, 16], grid = [2, 3, 1, 1], order = [m, n, k, l], spatial = [m, n, k], residency = [], collectives = [all_exchange], stages = 4, cost_ns = 3000>}
      : (tensor<256x512xbf16>, tensor<512x320xbf16>, tensor<512x320xbf16>) -> tensor<256x320xbf16> {
  ^bb0(%x: tensor<256x512xbf16>, %g: tensor<512x320xbf16>, %u: tensor<512x320xbf16>):
    %z = arith.constant 0.0 : f32
    %one = arith.constant 1.0 : f32
    %e0 = tensor.empty() : tensor<256x320xf32>
    %f0 = linalg.fill ins(%z : f32) outs(%e0 : tensor<256x320xf32>) -> tensor<256x320xf32>
    %cg = linalg.matmul ins(%x, %g : tensor<256x512xbf16>, tensor<512x320xbf16>) outs(%f0 : tensor<256x320xf32>) -> tensor<256x320xf32>
    %e1 = tensor.empty() : tensor<256x320xf32>
    %f1 = linalg.fill ins(%z : f32) outs(%e1 : tensor<256x320xf32>) -> tensor<256x320xf32>
    %cu = linalg.matmul ins(%x, %u : tensor<256x512xbf16>, tensor<512x320xbf16>) outs(%f1 : tensor<256x320xf32>) -> tensor<256x320xf32>
    %hb = tensor.empty() : tensor<256x320xbf16>
    %h = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%cg, %cu : tensor<256x320xf32>, tensor<256x320xf32>) outs(%hb : tensor<256x320xbf16>) {
    ^bb0(%gv: f32, %uv: f32, %out: bf16):
      %n = arith.negf %gv : f32
      %ex = math.exp %n : f32
      %den = arith.addf %ex, %one : f32
      %s = arith.divf %gv, %den : f32
      %p = arith.mulf %s, %uv : f32
      %t = arith.truncf %p : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<256x320xbf16>
    dsm.yield %h : tensor<256x320xbf16>
  }
  return %r : tensor<256x320xbf16>
}

// -----

// A gated GEMM splits only K over a cluster: A multicast along n is
// not lowered for it.
// expected-error @+2 {{schedule cannot be lowered: a gated GEMM keeps gate and up accumulators live (blk_n <= 192, or 128 with a split K) and takes no cluster but a split K}}
func.func @gated_multicast(%a: tensor<256x512xbf16>, %wg: tensor<512x256xbf16>, %wu: tensor<512x256xbf16>) -> tensor<256x256xbf16> {
  %r = dsm.fused_chain gated_gemm (%a, %wg, %wu) {schedule = #dsm.schedule<cluster = [1, 2, 1, 1], block = [128, 128, 64, 16], grid = [2, 1, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [], stages = 4, cost_ns = 3000>}
      : (tensor<256x512xbf16>, tensor<512x256xbf16>, tensor<512x256xbf16>) -> tensor<256x256xbf16> {
  ^bb0(%x: tensor<256x512xbf16>, %g: tensor<512x256xbf16>, %u: tensor<512x256xbf16>):
    %z = arith.constant 0.0 : f32
    %one = arith.constant 1.0 : f32
    %e0 = tensor.empty() : tensor<256x256xf32>
    %f0 = linalg.fill ins(%z : f32) outs(%e0 : tensor<256x256xf32>) -> tensor<256x256xf32>
    %cg = linalg.matmul ins(%x, %g : tensor<256x512xbf16>, tensor<512x256xbf16>) outs(%f0 : tensor<256x256xf32>) -> tensor<256x256xf32>
    %e1 = tensor.empty() : tensor<256x256xf32>
    %f1 = linalg.fill ins(%z : f32) outs(%e1 : tensor<256x256xf32>) -> tensor<256x256xf32>
    %cu = linalg.matmul ins(%x, %u : tensor<256x512xbf16>, tensor<512x256xbf16>) outs(%f1 : tensor<256x256xf32>) -> tensor<256x256xf32>
    %hb = tensor.empty() : tensor<256x256xbf16>
    %h = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%cg, %cu : tensor<256x256xf32>, tensor<256x256xf32>) outs(%hb : tensor<256x256xbf16>) {
    ^bb0(%gv: f32, %uv: f32, %out: bf16):
      %n = arith.negf %gv : f32
      %ex = math.exp %n : f32
      %den = arith.addf %ex, %one : f32
      %s = arith.divf %gv, %den : f32
      %p = arith.mulf %s, %uv : f32
      %t = arith.truncf %p : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<256x256xbf16>
    dsm.yield %h : tensor<256x256xbf16>
  }
  return %r : tensor<256x256xbf16>
}

// -----

// expected-error @+2 {{schedule cannot be lowered: a gated GEMM's result must be an elementwise generic of the gate and up matmuls}}
func.func @gated_no_product(%a: tensor<256x512xbf16>, %wg: tensor<512x256xbf16>, %wu: tensor<512x256xbf16>) -> tensor<256x256xf32> {
  %r = dsm.fused_chain gated_gemm (%a, %wg, %wu) {schedule = #dsm.schedule<cluster = [1, 1, 1, 1], block = [128, 128, 64, 16], grid = [2, 2, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [], stages = 4, cost_ns = 3000>}
      : (tensor<256x512xbf16>, tensor<512x256xbf16>, tensor<512x256xbf16>) -> tensor<256x256xf32> {
  ^bb0(%x: tensor<256x512xbf16>, %g: tensor<512x256xbf16>, %u: tensor<512x256xbf16>):
    %z = arith.constant 0.0 : f32
    %one = arith.constant 1.0 : f32
    %e0 = tensor.empty() : tensor<256x256xf32>
    %f0 = linalg.fill ins(%z : f32) outs(%e0 : tensor<256x256xf32>) -> tensor<256x256xf32>
    %cg = linalg.matmul ins(%x, %g : tensor<256x512xbf16>, tensor<512x256xbf16>) outs(%f0 : tensor<256x256xf32>) -> tensor<256x256xf32>
    %e1 = tensor.empty() : tensor<256x256xf32>
    %f1 = linalg.fill ins(%z : f32) outs(%e1 : tensor<256x256xf32>) -> tensor<256x256xf32>
    %cu = linalg.matmul ins(%x, %u : tensor<256x512xbf16>, tensor<512x256xbf16>) outs(%f1 : tensor<256x256xf32>) -> tensor<256x256xf32>
    dsm.yield %cg : tensor<256x256xf32>
  }
  return %r : tensor<256x256xf32>
}

// -----

// Swapped operands read the weight as wgmma's K-major A: a row-major
// [K, N] weight is refused.
// expected-error @+2 {{schedule cannot be lowered: swapped operands take a plain or gated GEMM with K-major ([N, K]) weights and no cluster, a cluster of 2 along m or n, or one along k (and 1 or 2 along m)}}
func.func @gemm(%a: tensor<300x512xbf16>, %b: tensor<512x512xbf16>) -> tensor<300x512xbf16> {
  %r = dsm.fused_chain gemm (%a, %b) {schedule = #dsm.schedule<cluster = [1, 1, 1, 1], block = [152, 128, 64, 16], grid = [2, 4, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [], stages = 4, cost_ns = 1000, swap_ab = true>}
      : (tensor<300x512xbf16>, tensor<512x512xbf16>) -> tensor<300x512xbf16> {
  ^bb0(%x: tensor<300x512xbf16>, %w: tensor<512x512xbf16>):
    %cst = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<300x512xf32>
    %f = linalg.fill ins(%cst : f32) outs(%e : tensor<300x512xf32>) -> tensor<300x512xf32>
    %mm = linalg.matmul ins(%x, %w : tensor<300x512xbf16>, tensor<512x512xbf16>) outs(%f : tensor<300x512xf32>) -> tensor<300x512xf32>
    %e2 = tensor.empty() : tensor<300x512xbf16>
    %t = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%mm : tensor<300x512xf32>) outs(%e2 : tensor<300x512xbf16>) {
    ^bb0(%in: f32, %o: bf16):
      %v = arith.truncf %in : f32 to bf16
      linalg.yield %v : bf16
    }  -> tensor<300x512xbf16>
    dsm.yield %t : tensor<300x512xbf16>
  }
  return %r : tensor<300x512xbf16>
}

// -----

// Swapped operands tile the weight's rows by consumer warpgroups of one or
// two 64-row blocks: blk_n is 64, 128 or 256.
// expected-error @+2 {{schedule cannot be lowered: swapped operands take blk_n of 64, 128 or 256 (the weight's rows: 64 or 128 per consumer warpgroup)}}
func.func @gemm(%a: tensor<300x512xbf16>, %b: tensor<512x512xbf16>) -> tensor<300x512xbf16> {
  %r = dsm.fused_chain gemm (%a, %b) {schedule = #dsm.schedule<cluster = [1, 1, 1, 1], block = [152, 192, 64, 16], grid = [2, 3, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [], stages = 4, cost_ns = 1000, swap_ab = true>}
      : (tensor<300x512xbf16>, tensor<512x512xbf16>) -> tensor<300x512xbf16> {
  ^bb0(%x: tensor<300x512xbf16>, %w: tensor<512x512xbf16>):
    %cst = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<300x512xf32>
    %f = linalg.fill ins(%cst : f32) outs(%e : tensor<300x512xf32>) -> tensor<300x512xf32>
    %mm = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%x, %w : tensor<300x512xbf16>, tensor<512x512xbf16>) outs(%f : tensor<300x512xf32>) -> tensor<300x512xf32>
    %e2 = tensor.empty() : tensor<300x512xbf16>
    %t = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%mm : tensor<300x512xf32>) outs(%e2 : tensor<300x512xbf16>) {
    ^bb0(%in: f32, %o: bf16):
      %v = arith.truncf %in : f32 to bf16
      linalg.yield %v : bf16
    }  -> tensor<300x512xbf16>
    dsm.yield %t : tensor<300x512xbf16>
  }
  return %r : tensor<300x512xbf16>
}

// -----

// A 256-row weight tile holds two accumulators per consumer thread: its
// token tile (blk_m) is at most 184 rows.
// expected-error @+2 {{schedule cannot be lowered: swapped operands with blk_n = 256 hold two accumulators per consumer warpgroup: blk_m <= 184}}
func.func @gemm(%a: tensor<300x512xbf16>, %b: tensor<512x512xbf16>) -> tensor<300x512xbf16> {
  %r = dsm.fused_chain gemm (%a, %b) {schedule = #dsm.schedule<cluster = [1, 1, 1, 1], block = [200, 256, 64, 16], grid = [2, 2, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [], stages = 4, cost_ns = 1000, swap_ab = true>}
      : (tensor<300x512xbf16>, tensor<512x512xbf16>) -> tensor<300x512xbf16> {
  ^bb0(%x: tensor<300x512xbf16>, %w: tensor<512x512xbf16>):
    %cst = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<300x512xf32>
    %f = linalg.fill ins(%cst : f32) outs(%e : tensor<300x512xf32>) -> tensor<300x512xf32>
    %mm = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%x, %w : tensor<300x512xbf16>, tensor<512x512xbf16>) outs(%f : tensor<300x512xf32>) -> tensor<300x512xf32>
    %e2 = tensor.empty() : tensor<300x512xbf16>
    %t = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%mm : tensor<300x512xf32>) outs(%e2 : tensor<300x512xbf16>) {
    ^bb0(%in: f32, %o: bf16):
      %v = arith.truncf %in : f32 to bf16
      linalg.yield %v : bf16
    }  -> tensor<300x512xbf16>
    dsm.yield %t : tensor<300x512xbf16>
  }
  return %r : tensor<300x512xbf16>
}

// -----

// Swapped operands' clusters are pairs along M or N (two tiles sharing the
// other operand's tile) or a split K; four along N are refused.
// expected-error @+2 {{schedule cannot be lowered: swapped operands take a plain or gated GEMM with K-major ([N, K]) weights and no cluster, a cluster of 2 along m or n, or one along k (and 1 or 2 along m)}}
func.func @gemm(%a: tensor<300x512xbf16>, %b: tensor<512x512xbf16>) -> tensor<300x512xbf16> {
  %r = dsm.fused_chain gemm (%a, %b) {schedule = #dsm.schedule<cluster = [1, 4, 1, 1], block = [152, 128, 64, 16], grid = [2, 1, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [], stages = 4, cost_ns = 1000, swap_ab = true>}
      : (tensor<300x512xbf16>, tensor<512x512xbf16>) -> tensor<300x512xbf16> {
  ^bb0(%x: tensor<300x512xbf16>, %w: tensor<512x512xbf16>):
    %cst = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<300x512xf32>
    %f = linalg.fill ins(%cst : f32) outs(%e : tensor<300x512xf32>) -> tensor<300x512xf32>
    %mm = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%x, %w : tensor<300x512xbf16>, tensor<512x512xbf16>) outs(%f : tensor<300x512xf32>) -> tensor<300x512xf32>
    %e2 = tensor.empty() : tensor<300x512xbf16>
    %t = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%mm : tensor<300x512xf32>) outs(%e2 : tensor<300x512xbf16>) {
    ^bb0(%in: f32, %o: bf16):
      %v = arith.truncf %in : f32 to bf16
      linalg.yield %v : bf16
    }  -> tensor<300x512xbf16>
    dsm.yield %t : tensor<300x512xbf16>
  }
  return %r : tensor<300x512xbf16>
}

// -----

// A swapped split K reduce-scatters the token tile's columns: each of the
// 2 ranks owns 76 of 152, not whole 8-column groups.
// expected-error @+2 {{schedule cannot be lowered: a split-K GEMM's ranks own whole 8-column groups: blk_n a multiple of 8 * cls_k}}
func.func @gemm(%a: tensor<300x512xbf16>, %b: tensor<512x512xbf16>) -> tensor<300x512xbf16> {
  %r = dsm.fused_chain gemm (%a, %b) {schedule = #dsm.schedule<cluster = [1, 1, 2, 1], block = [152, 128, 256, 16], grid = [2, 4, 1, 1], order = [m, n, k, l], spatial = [m, n, k], residency = [], collectives = [all_exchange], stages = 4, cost_ns = 1000, swap_ab = true>}
      : (tensor<300x512xbf16>, tensor<512x512xbf16>) -> tensor<300x512xbf16> {
  ^bb0(%x: tensor<300x512xbf16>, %w: tensor<512x512xbf16>):
    %cst = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<300x512xf32>
    %f = linalg.fill ins(%cst : f32) outs(%e : tensor<300x512xf32>) -> tensor<300x512xf32>
    %mm = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%x, %w : tensor<300x512xbf16>, tensor<512x512xbf16>) outs(%f : tensor<300x512xf32>) -> tensor<300x512xf32>
    %e2 = tensor.empty() : tensor<300x512xbf16>
    %t = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%mm : tensor<300x512xf32>) outs(%e2 : tensor<300x512xbf16>) {
    ^bb0(%in: f32, %o: bf16):
      %v = arith.truncf %in : f32 to bf16
      linalg.yield %v : bf16
    }  -> tensor<300x512xbf16>
    dsm.yield %t : tensor<300x512xbf16>
  }
  return %r : tensor<300x512xbf16>
}

// -----

// A plain split K takes n widths past 64, 128 and 256 only with K-major
// weights (dsm-materialize-split-k-fitted-width.mlir); row-major [K, N]
// weights load B in 64-column boxes.
// expected-error @+2 {{schedule cannot be lowered: blk_n must be 64, 128 or 256}}
func.func @gemm(%a: tensor<128x512xbf16>, %b: tensor<512x192xbf16>) -> tensor<128x192xbf16> {
  %r = dsm.fused_chain gemm (%a, %b) {schedule = #dsm.schedule<cluster = [1, 1, 4, 1], block = [128, 96, 128, 16], grid = [1, 2, 1, 1], order = [m, n, k, l], spatial = [m, n, k], residency = [], collectives = [all_exchange], stages = 2, cost_ns = 1000>}
      : (tensor<128x512xbf16>, tensor<512x192xbf16>) -> tensor<128x192xbf16> {
  ^bb0(%x: tensor<128x512xbf16>, %w: tensor<512x192xbf16>):
    %cst = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<128x192xf32>
    %f = linalg.fill ins(%cst : f32) outs(%e : tensor<128x192xf32>) -> tensor<128x192xf32>
    %mm = linalg.matmul ins(%x, %w : tensor<128x512xbf16>, tensor<512x192xbf16>) outs(%f : tensor<128x192xf32>) -> tensor<128x192xf32>
    %e2 = tensor.empty() : tensor<128x192xbf16>
    %t = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%mm : tensor<128x192xf32>) outs(%e2 : tensor<128x192xbf16>) {
    ^bb0(%in: f32, %o: bf16):
      %v = arith.truncf %in : f32 to bf16
      linalg.yield %v : bf16
    }  -> tensor<128x192xbf16>
    dsm.yield %t : tensor<128x192xbf16>
  }
  return %r : tensor<128x192xbf16>
}

// -----

// A swapped gated GEMM keeps a gate and an up accumulator per consumer
// warpgroup: no 256-row weight tiles.
// expected-error @+2 {{schedule cannot be lowered: a swapped gated GEMM takes no cluster, blk_n of 64 or 128 and blk_m <= 184 (gate and up accumulators per consumer warpgroup)}}
func.func @gated_300(%a: tensor<300x256xbf16>, %wg: tensor<256x256xbf16>, %wu: tensor<256x256xbf16>) -> tensor<300x256xbf16> {
  %r = dsm.fused_chain gated_gemm (%a, %wg, %wu) {schedule = #dsm.schedule<cluster = [1, 1, 1, 1], block = [152, 256, 64, 16], grid = [2, 1, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [], stages = 3, cost_ns = 1000, swap_ab = true>}
      : (tensor<300x256xbf16>, tensor<256x256xbf16>, tensor<256x256xbf16>) -> tensor<300x256xbf16> {
  ^bb0(%x: tensor<300x256xbf16>, %g: tensor<256x256xbf16>, %u: tensor<256x256xbf16>):
    %z = arith.constant 0.0 : f32
    %one = arith.constant 1.0 : f32
    %e0 = tensor.empty() : tensor<300x256xf32>
    %f0 = linalg.fill ins(%z : f32) outs(%e0 : tensor<300x256xf32>) -> tensor<300x256xf32>
    %cg = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%x, %g : tensor<300x256xbf16>, tensor<256x256xbf16>) outs(%f0 : tensor<300x256xf32>) -> tensor<300x256xf32>
    %e1 = tensor.empty() : tensor<300x256xf32>
    %f1 = linalg.fill ins(%z : f32) outs(%e1 : tensor<300x256xf32>) -> tensor<300x256xf32>
    %cu = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%x, %u : tensor<300x256xbf16>, tensor<256x256xbf16>) outs(%f1 : tensor<300x256xf32>) -> tensor<300x256xf32>
    %hb = tensor.empty() : tensor<300x256xbf16>
    %h = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%cg, %cu : tensor<300x256xf32>, tensor<300x256xf32>) outs(%hb : tensor<300x256xbf16>) {
    ^bb0(%gv: f32, %uv: f32, %out: bf16):
      %n = arith.negf %gv : f32
      %ex = math.exp %n : f32
      %den = arith.addf %ex, %one : f32
      %s = arith.divf %gv, %den : f32
      %p = arith.mulf %s, %uv : f32
      %t = arith.truncf %p : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<300x256xbf16>
    dsm.yield %h : tensor<300x256xbf16>
  }
  return %r : tensor<300x256xbf16>
}

// -----

// A swapped gated GEMM keeps a gate and an up accumulator per consumer
// warpgroup: no a cluster along M.
// expected-error @+2 {{schedule cannot be lowered: a swapped gated GEMM takes no cluster, blk_n of 64 or 128 and blk_m <= 184 (gate and up accumulators per consumer warpgroup)}}
func.func @gated_300(%a: tensor<300x256xbf16>, %wg: tensor<256x256xbf16>, %wu: tensor<256x256xbf16>) -> tensor<300x256xbf16> {
  %r = dsm.fused_chain gated_gemm (%a, %wg, %wu) {schedule = #dsm.schedule<cluster = [2, 1, 1, 1], block = [152, 128, 64, 16], grid = [1, 2, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [], stages = 3, cost_ns = 1000, swap_ab = true>}
      : (tensor<300x256xbf16>, tensor<256x256xbf16>, tensor<256x256xbf16>) -> tensor<300x256xbf16> {
  ^bb0(%x: tensor<300x256xbf16>, %g: tensor<256x256xbf16>, %u: tensor<256x256xbf16>):
    %z = arith.constant 0.0 : f32
    %one = arith.constant 1.0 : f32
    %e0 = tensor.empty() : tensor<300x256xf32>
    %f0 = linalg.fill ins(%z : f32) outs(%e0 : tensor<300x256xf32>) -> tensor<300x256xf32>
    %cg = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%x, %g : tensor<300x256xbf16>, tensor<256x256xbf16>) outs(%f0 : tensor<300x256xf32>) -> tensor<300x256xf32>
    %e1 = tensor.empty() : tensor<300x256xf32>
    %f1 = linalg.fill ins(%z : f32) outs(%e1 : tensor<300x256xf32>) -> tensor<300x256xf32>
    %cu = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%x, %u : tensor<300x256xbf16>, tensor<256x256xbf16>) outs(%f1 : tensor<300x256xf32>) -> tensor<300x256xf32>
    %hb = tensor.empty() : tensor<300x256xbf16>
    %h = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%cg, %cu : tensor<300x256xf32>, tensor<300x256xf32>) outs(%hb : tensor<300x256xbf16>) {
    ^bb0(%gv: f32, %uv: f32, %out: bf16):
      %n = arith.negf %gv : f32
      %ex = math.exp %n : f32
      %den = arith.addf %ex, %one : f32
      %s = arith.divf %gv, %den : f32
      %p = arith.mulf %s, %uv : f32
      %t = arith.truncf %p : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<300x256xbf16>
    dsm.yield %h : tensor<300x256xbf16>
  }
  return %r : tensor<300x256xbf16>
}

// -----

// A gated split K holds gate's reduced slice while up's tile is exchanged:
// no multicast pair along n besides.
// expected-error @+2 {{schedule cannot be lowered: a gated split-K GEMM takes no cluster along n}}
func.func @gated_split_pair(%a: tensor<256x512xbf16>, %wg: tensor<512x256xbf16>, %wu: tensor<512x256xbf16>) -> tensor<256x256xbf16> {
  %r = dsm.fused_chain gated_gemm (%a, %wg, %wu) {schedule = #dsm.schedule<cluster = [1, 2, 2, 1], block = [128, 64, 256, 16], grid = [2, 2, 1, 1], order = [m, n, k, l], spatial = [m, n, k], residency = [], collectives = [all_exchange], stages = 4, cost_ns = 1000>}
      : (tensor<256x512xbf16>, tensor<512x256xbf16>, tensor<512x256xbf16>) -> tensor<256x256xbf16> {
  ^bb0(%x: tensor<256x512xbf16>, %g: tensor<512x256xbf16>, %u: tensor<512x256xbf16>):
    %z = arith.constant 0.0 : f32
    %one = arith.constant 1.0 : f32
    %e0 = tensor.empty() : tensor<256x256xf32>
    %f0 = linalg.fill ins(%z : f32) outs(%e0 : tensor<256x256xf32>) -> tensor<256x256xf32>
    %cg = linalg.matmul ins(%x, %g : tensor<256x512xbf16>, tensor<512x256xbf16>) outs(%f0 : tensor<256x256xf32>) -> tensor<256x256xf32>
    %e1 = tensor.empty() : tensor<256x256xf32>
    %f1 = linalg.fill ins(%z : f32) outs(%e1 : tensor<256x256xf32>) -> tensor<256x256xf32>
    %cu = linalg.matmul ins(%x, %u : tensor<256x512xbf16>, tensor<512x256xbf16>) outs(%f1 : tensor<256x256xf32>) -> tensor<256x256xf32>
    %hb = tensor.empty() : tensor<256x256xbf16>
    %h = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%cg, %cu : tensor<256x256xf32>, tensor<256x256xf32>) outs(%hb : tensor<256x256xbf16>) {
    ^bb0(%gv: f32, %uv: f32, %out: bf16):
      %n = arith.negf %gv : f32
      %ex = math.exp %n : f32
      %den = arith.addf %ex, %one : f32
      %s = arith.divf %gv, %den : f32
      %p = arith.mulf %s, %uv : f32
      %t = arith.truncf %p : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<256x256xbf16>
    dsm.yield %h : tensor<256x256xbf16>
  }
  return %r : tensor<256x256xbf16>
}

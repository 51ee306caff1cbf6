// REQUIRES: ptxas
// A plain GEMM on 208-wide n tiles (C4-b32's first GEMM, M = 1568,
// N = 2048, K = 512: 13 x 10 tiles of 128 x 208 on 130 of 132 SMs where
// 128 x 256 tiles run 104), a width no 64-row box divides, on PyTorch
// weights ([N, K]): B's tile is one TMA box of 208 K-major rows, the
// wgmmas m64n208k16, the last tile's 32 columns past N zero-filled and
// skipped by the stores' column guard. Each fragment row stores its six
// whole 32-column groups as 16-byte stores (four lanes transpose a group)
// and its last 16 columns as each lane's own 4-byte pairs: per lane two
// rows of 6 and 2 (storing all 26 pairs per lane ran the chain 1.2x slower
// on an H200, docs/validation.md, forty-seventh session).
// RUN: rm -rf %t && ff-opt %s --lower-to-nvvm="emit-bundle=%t format=bin" -o /dev/null
// RUN: FileCheck %s --check-prefix=PTX < %t/wave_gemm_0.ptx
// RUN: grep -c "st.global.v4.b32" %t/wave_gemm_0.ptx | FileCheck %s --check-prefix=WIDE
// RUN: grep -c "st.global.b32" %t/wave_gemm_0.ptx | FileCheck %s --check-prefix=PAIRS
// RUN: %ptxas -arch=sm_90a -O3 -v %t/wave_gemm_0.ptx -o %t/g.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// PTX: wgmma.mma_async.sync.aligned.m64n208k16.f32.bf16.bf16
// PTX-NOT: wgmma.mma_async.sync.aligned.m64n256k16
// PTX: setp.gt.u64 {{.*}}, 2047;
// WIDE: {{^}}12{{$}}
// PAIRS: {{^}}4{{$}}
// PTXAS-NOT: error
// PTXAS: 0 bytes spill stores, 0 bytes spill loads

#mk = affine_map<(d0, d1, d2) -> (d0, d2)>
#nk = affine_map<(d0, d1, d2) -> (d1, d2)>
#mn = affine_map<(d0, d1, d2) -> (d0, d1)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @wave_gemm(%a: tensor<1568x512xbf16>, %w: tensor<2048x512xbf16>) -> tensor<1568x2048xbf16> {
  %r = dsm.fused_chain gemm (%a, %w) {schedule = #dsm.schedule<cluster = [1, 1, 1, 1], block = [128, 208, 64, 16], grid = [13, 10, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [], stages = 5, cost_ns = 1000>}
      : (tensor<1568x512xbf16>, tensor<2048x512xbf16>) -> tensor<1568x2048xbf16> {
  ^bb0(%x: tensor<1568x512xbf16>, %wt: tensor<2048x512xbf16>):
    %cst = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<1568x2048xf32>
    %f = linalg.fill ins(%cst : f32) outs(%e : tensor<1568x2048xf32>) -> tensor<1568x2048xf32>
    %mm = linalg.matmul indexing_maps = [#mk, #nk, #mn] ins(%x, %wt : tensor<1568x512xbf16>, tensor<2048x512xbf16>) outs(%f : tensor<1568x2048xf32>) -> tensor<1568x2048xf32>
    %e2 = tensor.empty() : tensor<1568x2048xbf16>
    %t = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%mm : tensor<1568x2048xf32>) outs(%e2 : tensor<1568x2048xbf16>) {
    ^bb0(%in: f32, %o: bf16):
      %v = arith.truncf %in : f32 to bf16
      linalg.yield %v : bf16
    } -> tensor<1568x2048xbf16>
    dsm.yield %t : tensor<1568x2048xbf16>
  }
  return %r : tensor<1568x2048xbf16>
}

// REQUIRES: ptxas
// RUN: rm -rf %t && ff-opt %s --lower-to-nvvm="emit-bundle=%t format=bin" -o /dev/null
// RUN: FileCheck %s < %t/solo_0/solo_0.ptx
// RUN: cat %t/solo_0/manifest.json %t/streamed_1/manifest.json | FileCheck %s --check-prefix=MANIFEST
// RUN: %ptxas -arch=sm_90a -O3 -v %t/solo_0/solo_0.ptx -o %t/solo.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: FileCheck %s --check-prefix=STREAMED < %t/streamed_1/streamed_1.ptx
// RUN: %ptxas -arch=sm_90a -O3 -v %t/streamed_1/streamed_1.ptx -o %t/streamed.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS

// A persistent solo FFN end to end (256 m tiles of 128 rows at one CTA per
// SM on the h100-sxm target: the model prices it persistent): both roles
// loop from %ctaid.x in steps of %nctaid.x, the producer hands registers
// to the consumers, and ptxas assembles it without spills; the manifest
// tells the runtime to launch only the resident CTAs.
// CHECK: setmaxnreg.dec.sync.aligned.u32 40
// CHECK: mov.u32 %r{{[0-9]+}}, %ctaid.x
// CHECK: mov.u32 %r{{[0-9]+}}, %nctaid.x
// CHECK: cp.async.bulk.tensor
// CHECK: setmaxnreg.inc.sync.aligned.u32 232
// CHECK: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16
// CHECK-NOT: mapa
// MANIFEST: "persistent": true
// MANIFEST: "persistent": true
// A persistent streamed-n kernel (140 m tiles of 64 rows, two n tiles
// each): one consumer warpgroup, E stored per m tile.
// STREAMED: mov.u32 %r{{[0-9]+}}, %ctaid.x
// STREAMED: mov.u32 %r{{[0-9]+}}, %nctaid.x
// STREAMED: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16
// STREAMED: wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16
// PTXAS-NOT: C75{{[0-9][0-9]}}
// PTXAS: 0 bytes spill stores, 0 bytes spill loads
// PTXAS-NOT: C75{{[0-9][0-9]}}
module attributes {dsm.target = #dsm.target<name = "h100-sxm", chip = "sm_90a", sms = 132, smem_per_sm = 233472, smem_per_block = 232448, regs_per_sm = 65536, max_cluster = 8, max_cluster_nonportable = 16, clock_mhz = 1830, hbm_gbps = 3350, l2_bytes = 52428800, dsm_gbps = [3300, 3100, 3000, 2900], dsm_latency = [190, 200, 240, 280], tflops_bf16 = 989, tflops_f16 = 989, tflops_f32 = 494>} {
func.func @solo(%a: tensor<32768x256xbf16>, %b: tensor<256x128xbf16>, %d: tensor<128x128xbf16>) -> tensor<32768x128xbf16> {
  %r = dsm.fused_chain ffn (%a, %b, %d) {schedule = #dsm.schedule<cluster = [1, 1, 1, 1], block = [128, 128, 64, 128], grid = [256, 1, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [smem], collectives = [], stages = 2, cost_ns = 1000>}
      : (tensor<32768x256xbf16>, tensor<256x128xbf16>, tensor<128x128xbf16>) -> tensor<32768x128xbf16> {
  ^bb0(%x: tensor<32768x256xbf16>, %w: tensor<256x128xbf16>, %w2: tensor<128x128xbf16>):
    %cst = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<32768x128xf32>
    %f = linalg.fill ins(%cst : f32) outs(%e : tensor<32768x128xf32>) -> tensor<32768x128xf32>
    %mm = linalg.matmul ins(%x, %w : tensor<32768x256xbf16>, tensor<256x128xbf16>) outs(%f : tensor<32768x128xf32>) -> tensor<32768x128xf32>
    %e2 = tensor.empty() : tensor<32768x128xbf16>
    %t = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%mm : tensor<32768x128xf32>) outs(%e2 : tensor<32768x128xbf16>) {
    ^bb0(%in: f32, %o: bf16):
      %z = arith.constant 0.0 : f32
      %v = arith.maximumf %in, %z : f32
      %v2 = arith.truncf %v : f32 to bf16
      linalg.yield %v2 : bf16
    }  -> tensor<32768x128xbf16>
    %g = tensor.empty() : tensor<32768x128xf32>
    %gf = linalg.fill ins(%cst : f32) outs(%g : tensor<32768x128xf32>) -> tensor<32768x128xf32>
    %mm2 = linalg.matmul ins(%t, %w2 : tensor<32768x128xbf16>, tensor<128x128xbf16>) outs(%gf : tensor<32768x128xf32>) -> tensor<32768x128xf32>
    %o0 = tensor.empty() : tensor<32768x128xbf16>
    %o = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%mm2 : tensor<32768x128xf32>) outs(%o0 : tensor<32768x128xbf16>) {
    ^bb0(%in: f32, %o1: bf16):
      %v = arith.truncf %in : f32 to bf16
      linalg.yield %v : bf16
    } -> tensor<32768x128xbf16>
    dsm.yield %o : tensor<32768x128xbf16>
  }
  return %r : tensor<32768x128xbf16>
}
func.func @streamed(%a: tensor<8960x64xbf16>, %b: tensor<64x256xbf16>, %d: tensor<256x64xbf16>) -> tensor<8960x64xbf16> {
  %r = dsm.fused_chain ffn (%a, %b, %d) {schedule = #dsm.schedule<cluster = [1, 1, 1, 1], block = [64, 128, 64, 64], grid = [140, 1, 1, 1], order = [m, n, k, l], spatial = [m], residency = [smem], collectives = [], stages = 4, cost_ns = 1000>}
      : (tensor<8960x64xbf16>, tensor<64x256xbf16>, tensor<256x64xbf16>) -> tensor<8960x64xbf16> {
  ^bb0(%x: tensor<8960x64xbf16>, %w: tensor<64x256xbf16>, %w2: tensor<256x64xbf16>):
    %cst = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<8960x256xf32>
    %f = linalg.fill ins(%cst : f32) outs(%e : tensor<8960x256xf32>) -> tensor<8960x256xf32>
    %mm = linalg.matmul ins(%x, %w : tensor<8960x64xbf16>, tensor<64x256xbf16>) outs(%f : tensor<8960x256xf32>) -> tensor<8960x256xf32>
    %e2 = tensor.empty() : tensor<8960x256xbf16>
    %t = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%mm : tensor<8960x256xf32>) outs(%e2 : tensor<8960x256xbf16>) {
    ^bb0(%in: f32, %o: bf16):
      %z = arith.constant 0.0 : f32
      %v = arith.maximumf %in, %z : f32
      %v2 = arith.truncf %v : f32 to bf16
      linalg.yield %v2 : bf16
    }  -> tensor<8960x256xbf16>
    %g = tensor.empty() : tensor<8960x64xf32>
    %gf = linalg.fill ins(%cst : f32) outs(%g : tensor<8960x64xf32>) -> tensor<8960x64xf32>
    %mm2 = linalg.matmul ins(%t, %w2 : tensor<8960x256xbf16>, tensor<256x64xbf16>) outs(%gf : tensor<8960x64xf32>) -> tensor<8960x64xf32>
    %o0 = tensor.empty() : tensor<8960x64xbf16>
    %o = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%mm2 : tensor<8960x64xf32>) outs(%o0 : tensor<8960x64xbf16>) {
    ^bb0(%in: f32, %o1: bf16):
      %v = arith.truncf %in : f32 to bf16
      linalg.yield %v : bf16
    } -> tensor<8960x64xbf16>
    dsm.yield %o : tensor<8960x64xbf16>
  }
  return %r : tensor<8960x64xbf16>
}
}

// RUN: rm -rf %t && ff-opt %s --dsm-search="deterministic" --lower-to-nvvm="emit-bundle=%t" -o /dev/null
// RUN: FileCheck %s --check-prefix=MANIFEST < %t/manifest.json
// RUN: FileCheck %s --check-prefix=PTX --implicit-check-not=red.relaxed --implicit-check-not=atom.global < %t/narrow_0.ptx
// RUN: rm -rf %t.default && sed -e 's/dsm.fused_chain ffn (%%a, %%b, %%d)/& {schedule = #dsm.schedule<cluster = [1, 2, 1, 1], block = [64, 64, 64, 128], grid = [2, 2, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [smem], collectives = [reduce_scatter, inter_cluster_reduce], stages = 2, cost_ns = 0>}/' %s \
// RUN:   | ff-opt --lower-to-nvvm="emit-bundle=%t.default" -o /dev/null
// RUN: cat %t.default/manifest.json %t.default/narrow_0.ptx | FileCheck %s --check-prefix=ATOMIC

// The deterministic plan choice, end to end: the kernel of a narrow chain
// (N = 256, one cluster along n) has no fp32 workspace and no reductions
// into global memory; its ranks meet only in the cluster's DSM exchange
// (the act(C) all-gather of the shuffle plan the search picks, an in-place
// cp.async.bulk push; a reduce-scatter sums in rank order). (The second run checks that a
// hand-written workspace plan of the same chain, two clusters along n, has
// both.)

// MANIFEST: "kernels"
// MANIFEST-NOT: "workspace"
// MANIFEST: "plan"
// PTX: mapa.shared::cluster
// PTX: cp.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes
// PTX: barrier.cluster.wait
// ATOMIC: "workspace"
// ATOMIC: red.relaxed.gpu.global.add

func.func @narrow(%a: tensor<128x768xbf16>, %b: tensor<768x256xbf16>, %d: tensor<256x768xbf16>) -> tensor<128x768xbf16> {
  %e = dsm.fused_chain ffn (%a, %b, %d)
      : (tensor<128x768xbf16>, tensor<768x256xbf16>, tensor<256x768xbf16>) -> tensor<128x768xbf16> {
  ^bb0(%x: tensor<128x768xbf16>, %w1: tensor<768x256xbf16>, %w2: tensor<256x768xbf16>):
    %zero = arith.constant 0.0 : f32
    %c0e = tensor.empty() : tensor<128x256xf32>
    %cf = linalg.fill ins(%zero : f32) outs(%c0e : tensor<128x256xf32>) -> tensor<128x256xf32>
    %c = linalg.matmul ins(%x, %w1 : tensor<128x768xbf16>, tensor<768x256xbf16>) outs(%cf : tensor<128x256xf32>) -> tensor<128x256xf32>
    %h0 = tensor.empty() : tensor<128x256xbf16>
    %h = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%c : tensor<128x256xf32>) outs(%h0 : tensor<128x256xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %r = arith.maximumf %in, %zero : f32
      %t = arith.truncf %r : f32 to bf16
      linalg.yield %t : bf16
    } -> tensor<128x256xbf16>
    %e0 = tensor.empty() : tensor<128x768xf32>
    %ef = linalg.fill ins(%zero : f32) outs(%e0 : tensor<128x768xf32>) -> tensor<128x768xf32>
    %ea = linalg.matmul ins(%h, %w2 : tensor<128x256xbf16>, tensor<256x768xbf16>) outs(%ef : tensor<128x768xf32>) -> tensor<128x768xf32>
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

// RUN: rm -rf %t && ff-opt %s --dsm-search="deterministic family=reduce-scatter" --lower-to-nvvm="emit-bundle=%t" -o /dev/null
// RUN: FileCheck %s --check-prefix=MANIFEST < %t/manifest.json
// RUN: FileCheck %s --check-prefix=PTX --implicit-check-not=red.relaxed < %t/g4_0.ptx
// RUN: rm -rf %t.default && ff-opt %s --dsm-search="family=reduce-scatter" --lower-to-nvvm="emit-bundle=%t.default" -o /dev/null
// RUN: cat %t.default/manifest.json %t.default/g4_0.ptx | FileCheck %s --check-prefix=ATOMIC

// Deterministic workspace planes, end to end: G4 (N = 3072) needs several
// clusters along n. Both runs pin the reduce-scatter kernel family
// (family=reduce-scatter; the default may pick a shuffle plan). With
// --dsm-search=deterministic its plan (cluster 8, 6 clusters along n)
// writes each cluster's reduced E slice to its own workspace plane with
// plain vector stores; the last of the 6 to count in sums the 6 planes in
// cluster order. The workspace holds 6 planes of L = 768 fp32 per row plus
// 8 counters: 6*768*4 + 8*4 = 18464 bytes per row of M; only the 8 counters
// (32 bytes per row) need clearing before a launch. The counter is still an
// atomic (it orders, it does not add data). The non-deterministic search
// (the same cluster 8) keeps fp32 vector reductions into one tile:
// 768*4 + 8*4 = 3104 bytes per row.

// MANIFEST: "bytes_per_m": 18464,
// MANIFEST: "zero": true,
// MANIFEST-NEXT: "zero_bytes_per_m": 32
// MANIFEST: "deterministic": true
// PTX: st.global.v4.b32
// PTX: atom.global.add.u32
// PTX-COUNT-6: ld.volatile.global.v4.b32
// ATOMIC: "bytes_per_m": 3104,
// ATOMIC-NOT: zero_bytes_per_m
// ATOMIC: "deterministic": false
// ATOMIC: red.relaxed.gpu.global.add.v4.f32

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

// The compiler's bundles are what the runtime reads: the shipped FFN goes
// through the whole pipeline into a bundle that ff-run accepts (manifest and
// hash checked, no GPU needed), and an edited kernel file is refused. The
// search runs this chain (G4) as a kernel sequence: act(A B) into the
// intermediate "c", then c D, one bin, two kernels; with sequences=false it
// is one fused kernel.
//
// REQUIRES: runtime
// RUN: rm -rf %t && ff-opt %ff_src_root/test/Examples/ffn.mlir --dsm-fuse --dsm-search \
// RUN:   --lower-to-nvvm="emit-bundle=%t source-hash=0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef" -o /dev/null
// RUN: ff-run %t --verify | FileCheck %s
// RUN: FileCheck %s --check-prefix=MANIFEST < %t/manifest.json
// RUN: echo "// edited" >> %t/ffn_g4_0_s0.ptx
// RUN: not ff-run %t --verify 2>&1 | FileCheck %s --check-prefix=TAMPERED
// RUN: rm -rf %t.fused && ff-opt %ff_src_root/test/Examples/ffn.mlir --dsm-fuse --dsm-search=sequences=false \
// RUN:   --lower-to-nvvm="emit-bundle=%t.fused" -o /dev/null
// RUN: ff-run %t.fused --verify | FileCheck %s --check-prefix=FUSED
// --sustain (steady-state power before timing) and --graph (time graph
// replays) are checked before the GPU is touched.
// RUN: not ff-run %t.fused --sustain 100 2>&1 | FileCheck %s --check-prefix=SUSTAIN
// RUN: not ff-run %t.fused --bench 5 --sustain 1e3 2>&1 | FileCheck %s --check-prefix=SUSTAIN-MS
// RUN: not ff-run %t.fused --graph 2>&1 | FileCheck %s --check-prefix=GRAPH
// RUN: not ff-run %t.fused --cold 2>&1 | FileCheck %s --check-prefix=COLD

// CHECK: bundle {{.*}}: valid, hash [[HASH:[0-9a-f]{64}]]
// CHECK: kernel ffn_g4_0_s0: M in [1, 128], grid {{[0-9]+}} x 1 x 1, cluster {{[0-9]+}} x 1 x 1, block {{[0-9]+}}, {{[0-9]+}} B dynamic smem, 4 params
// CHECK: kernel ffn_g4_0_s1: M in [1, 128], grid {{[0-9]+}} x 1 x 1, cluster {{[0-9]+}} x 1 x 1, block {{[0-9]+}}, {{[0-9]+}} B dynamic smem, 4 params
// FUSED: kernel ffn_g4_0: M in [1, 128], grid {{[0-9]+}} x 1 x 1, cluster {{[0-9]+}} x 1 x 1, block {{[0-9]+}}, {{[0-9]+}} B dynamic smem, {{[0-9]+}} params

// MANIFEST-DAG: "format": "flashfuser-bundle"
// MANIFEST-DAG: "kind": "ffn"
// MANIFEST-DAG: "source_hash": "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
// MANIFEST-DAG: "ptx": "ffn_g4_0_s0.ptx"
// MANIFEST-DAG: "ptx": "ffn_g4_0_s1.ptx"
// MANIFEST-DAG: "intermediates": [
// MANIFEST-DAG: "name": "c"
// MANIFEST-DAG: "tensor": "c"
// MANIFEST-DAG: "sequence": [
// MANIFEST-DAG: "kind": "tensormap"

// TAMPERED: hash mismatch

// SUSTAIN: ff-run: --sustain only precedes --bench
// SUSTAIN-MS: ff-run: --sustain needs milliseconds in [0, 600000], got '1e3'
// GRAPH: ff-run: --graph only changes how --bench times
// COLD: ff-run: --cold only changes how --bench times

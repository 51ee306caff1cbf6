// REQUIRES: ptxas
// The GEMM chains G1-G10 (FFN) and gated FFNs S1-S8 (SwiGLU) of the paper
// (section 5.3, M = 128), from linalg on tensors (the --dsm-fuse inputs,
// one function per workload, several chains per module) through
// --dsm-fuse --dsm-search --lower-to-nvvm to assembled sm_90a cluster
// kernels. scripts/check-bundles.py checks every kernel: the PTX holds
// wgmma.mma_async, cp.async.bulk.tensor and mbarrier (plus mapa and
// barrier.cluster when the kernel's cluster has more than one CTA), the
// cubin exists, and ptxas -arch=sm_90a -v reports 0 bytes of spill stores
// and loads. The conv chains (1x1 and 3x3) are in paper-workloads-conv.mlir.
// RUN: rm -rf %t
// RUN: ff-opt %S/../Dialect/DSM/Transforms/fuse-paper-ffn.mlir --dsm-fuse --dsm-search=sequences=false --lower-to-nvvm="emit-bundle=%t/ffn format=bin" -o /dev/null
// RUN: ff-opt %S/../Dialect/DSM/Transforms/fuse-paper-gated.mlir --dsm-fuse --dsm-search=sequences=false --lower-to-nvvm="emit-bundle=%t/gated format=bin" -o /dev/null
// RUN: %python %ff_src_root/scripts/check-bundles.py --ptxas %ptxas %t/ffn %t/gated | FileCheck %s
// CHECK-DAG: OK g1_0 cluster=
// CHECK-DAG: OK g2_1 cluster=
// CHECK-DAG: OK g3_2 cluster=
// CHECK-DAG: OK g4_3 cluster=
// CHECK-DAG: OK g5_4 cluster=
// CHECK-DAG: OK g6_5 cluster=
// CHECK-DAG: OK g7_6 cluster=
// CHECK-DAG: OK g8_7 cluster=
// CHECK-DAG: OK g9_8 cluster=
// CHECK-DAG: OK g10_9 cluster=
// CHECK-DAG: OK s1_0 cluster=
// CHECK-DAG: OK s2_1 cluster=
// CHECK-DAG: OK s3_2 cluster=
// CHECK-DAG: OK s4_3 cluster=
// CHECK-DAG: OK s5_4 cluster=
// CHECK-DAG: OK s6_5 cluster=
// CHECK-DAG: OK s7_6 cluster=
// CHECK-DAG: OK s8_7 cluster=
// CHECK: checked 18 kernels, 0 failed

// G1-G10 and S1-S8 as the search chooses them (kernel sequences for G3-G10
// and every S): every sequence's two GEMM kernels (the first with the
// activation epilogue; for S, the gated GEMM's two accumulators and
// silu(gate) * up) assemble without spills too.
// RUN: ff-opt %S/../Dialect/DSM/Transforms/fuse-paper-ffn.mlir --dsm-fuse --dsm-search --lower-to-nvvm="emit-bundle=%t/seq format=bin" -o /dev/null
// RUN: ff-opt %S/../Dialect/DSM/Transforms/fuse-paper-gated.mlir --dsm-fuse --dsm-search --lower-to-nvvm="emit-bundle=%t/gseq format=bin" -o /dev/null
// RUN: %python %ff_src_root/scripts/check-bundles.py --ptxas %ptxas %t/seq %t/gseq | FileCheck %s --check-prefix=SEQ
// SEQ-DAG: OK g1_0 cluster=
// SEQ-DAG: OK g5_4_s0 cluster=1x1x1x1
// SEQ-DAG: OK g5_4_s1 cluster=
// SEQ-DAG: OK g8_7_s0 cluster=
// SEQ-DAG: OK g8_7_s1 cluster=
// SEQ-DAG: OK s1_0_s0 cluster=1x1x1x1
// SEQ-DAG: OK s1_0_s1 cluster=
// SEQ-DAG: OK s3_2_s0 cluster=1x1x1x1
// SEQ-DAG: OK s8_7_s0 cluster=1x1x1x1
// SEQ-DAG: OK s8_7_s1 cluster=
// SEQ-DAG: OK g3_2_s0 cluster=1x1x1x1
// SEQ: checked 34 kernels, 0 failed

// The deterministic plans for an H200 as well: their last arriver sums one
// workspace plane per cluster along n (16 for G5), and a finisher that
// kept 8 quads of every plane in flight spilled 580 bytes on G5.
// RUN: ff-opt %S/../Dialect/DSM/Transforms/fuse-paper-ffn.mlir --dsm-fuse --dsm-search="target=h200 deterministic" --lower-to-nvvm="emit-bundle=%t/det format=bin" -o /dev/null
// RUN: %python %ff_src_root/scripts/check-bundles.py --ptxas %ptxas %t/det | FileCheck %s --check-prefix=DET
// DET-DAG: OK g4_3 cluster=
// DET-DAG: OK g5_4 cluster=
// DET: checked 10 kernels, 0 failed

// The launch functions replace the tensor-level functions (which held
// nothing but their chain and dead constants).
// RUN: ff-opt %S/../Dialect/DSM/Transforms/fuse-paper-gated.mlir --dsm-fuse --dsm-search=sequences=false --lower-to-nvvm | FileCheck %s --check-prefix=HOST
// HOST-NOT: func.func @s1(
// HOST: gpu.binary @s1_0_module
// HOST: llvm.func @s1_0_launch(
// HOST: gpu.launch_func @s1_0_module::@s1_0 clusters in
// HOST-NOT: func.func @s8(
// HOST: llvm.func @s8_7_launch(

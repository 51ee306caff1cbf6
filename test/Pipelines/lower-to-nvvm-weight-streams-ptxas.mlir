// REQUIRES: ptxas
// The weight-stream variants of the producer assemble for sm_90a without
// spills or wgmma serialisation: B loads carrying an L2 evict-first policy
// (the default where the call's weights exceed L2: `big`, both kernels of
// `seq`), paired loads (paired-loads-min-stages=3: `paired`, with a lone
// last k tile) and early release (the default: `one`). The inputs are the --dsm-materialize tests'.
// RUN: rm -rf %t && ff-opt %S/../Dialect/DSM/Transforms/dsm-materialize-weight-evict-first.mlir --lower-to-nvvm="emit-bundle=%t format=bin" -o /dev/null
// RUN: %ptxas -arch=sm_90a -O3 -v %t/big_0/big_0.ptx -o %t/g.cubin 2>&1 | FileCheck %s
// RUN: %ptxas -arch=sm_90a -O3 -v %t/seq_3/seq_3_s0.ptx -o %t/g.cubin 2>&1 | FileCheck %s
// RUN: %ptxas -arch=sm_90a -O3 -v %t/seq_3/seq_3_s1.ptx -o %t/g.cubin 2>&1 | FileCheck %s
// RUN: rm -rf %t.p && ff-opt %S/../Dialect/DSM/Transforms/dsm-materialize-paired-loads.mlir --lower-to-nvvm="emit-bundle=%t.p format=bin paired-loads-min-stages=3" -o /dev/null
// RUN: %ptxas -arch=sm_90a -O3 -v %t.p/paired_0/paired_0.ptx -o %t/g.cubin 2>&1 | FileCheck %s
// RUN: rm -rf %t.e && ff-opt %S/../Dialect/DSM/Transforms/dsm-materialize-early-release.mlir --lower-to-nvvm="emit-bundle=%t.e format=bin" -o /dev/null
// RUN: %ptxas -arch=sm_90a -O3 -v %t.e/one_0/one_0.ptx -o %t/g.cubin 2>&1 | FileCheck %s
// CHECK-NOT: error
// CHECK-NOT: C75{{[0-9][0-9]}}
// CHECK: 0 bytes spill stores, 0 bytes spill loads
// CHECK: Used {{[0-9]+}} registers
// CHECK-NOT: C75{{[0-9][0-9]}}

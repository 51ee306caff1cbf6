// Truncated files: the shipped example and a hand-scheduled chain cut at
// byte offsets inside the attribute alias, the types, the body of a
// linalg.generic, the fused_chain's schedule attribute and region. Each gives
// a parse error with a location (<stdin>:line:col) and a non-zero exit.
//
// RUN: head -c 300 %ff_src_root/test/Examples/ffn.mlir | not ff-opt --dsm-fuse --dsm-search --lower-to-nvvm -o /dev/null 2>&1 | FileCheck %s
// RUN: head -c 700 %ff_src_root/test/Examples/ffn.mlir | not ff-opt --dsm-fuse --dsm-search --lower-to-nvvm -o /dev/null 2>&1 | FileCheck %s
// RUN: head -c 1000 %ff_src_root/test/Examples/ffn.mlir | not ff-opt --dsm-fuse --dsm-search --lower-to-nvvm -o /dev/null 2>&1 | FileCheck %s
// RUN: head -c 1500 %ff_src_root/test/Examples/ffn.mlir | not ff-opt --dsm-fuse --dsm-search --lower-to-nvvm -o /dev/null 2>&1 | FileCheck %s
// RUN: head -c 2200 %ff_src_root/test/Examples/ffn.mlir | not ff-opt --dsm-fuse --dsm-search --lower-to-nvvm -o /dev/null 2>&1 | FileCheck %s
// RUN: head -c 2345 %ff_src_root/test/Examples/ffn.mlir | not ff-opt --dsm-fuse --dsm-search --lower-to-nvvm -o /dev/null 2>&1 | FileCheck %s
// RUN: head -c 2237 %ff_src_root/test/Pipelines/lower-to-nvvm.mlir | not ff-opt --dsm-fuse --dsm-search --lower-to-nvvm -o /dev/null 2>&1 | FileCheck %s
// RUN: head -c 2317 %ff_src_root/test/Pipelines/lower-to-nvvm.mlir | not ff-opt --dsm-fuse --dsm-search --lower-to-nvvm -o /dev/null 2>&1 | FileCheck %s
// RUN: head -c 2447 %ff_src_root/test/Pipelines/lower-to-nvvm.mlir | not ff-opt --dsm-fuse --dsm-search --lower-to-nvvm -o /dev/null 2>&1 | FileCheck %s
// RUN: head -c 2597 %ff_src_root/test/Pipelines/lower-to-nvvm.mlir | not ff-opt --dsm-fuse --dsm-search --lower-to-nvvm -o /dev/null 2>&1 | FileCheck %s
// RUN: head -c 2897 %ff_src_root/test/Pipelines/lower-to-nvvm.mlir | not ff-opt --dsm-fuse --dsm-search --lower-to-nvvm -o /dev/null 2>&1 | FileCheck %s
// RUN: head -c 3097 %ff_src_root/test/Pipelines/lower-to-nvvm.mlir | not ff-opt --dsm-fuse --dsm-search --lower-to-nvvm -o /dev/null 2>&1 | FileCheck %s
// RUN: head -c 3297 %ff_src_root/test/Pipelines/lower-to-nvvm.mlir | not ff-opt --dsm-fuse --dsm-search --lower-to-nvvm -o /dev/null 2>&1 | FileCheck %s
//
// The cut points move when those files are edited, so only the shape of the
// diagnostic is checked; at the time of writing they were e.g.
// "<stdin>:8:2: error: expected '=' in attribute alias definition",
// "<stdin>:51:63: error: unbalanced '<' character in pretty dialect name".

// CHECK: <stdin>:{{[0-9]+}}:{{[0-9]+}}: error: {{.+}}

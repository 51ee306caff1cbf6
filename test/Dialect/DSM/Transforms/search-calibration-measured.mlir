// The calibration the DSM microbenchmark measured on an H200
// (docs/calibration/h200.json, named by the driver's device name) is
// accepted by --dsm-search for that target, and its plan stays lowerable:
// --dsm-materialize builds its kernels. By default that plan is of the
// shuffle family (cls_l = cls_n); restricted to the reduce-scatter family,
// its cluster lies along n only.
// RUN: ff-opt %ff_src_root/test/Examples/ffn.mlir --dsm-fuse \
// RUN:   --dsm-search="target=h200 calibration=%ff_src_root/docs/calibration/h200.json" \
// RUN:   | FileCheck %s
// RUN: ff-opt %ff_src_root/test/Examples/ffn.mlir --dsm-fuse \
// RUN:   --dsm-search="target=h200 calibration=%ff_src_root/docs/calibration/h200.json" \
// RUN:   --dsm-materialize -o /dev/null
// RUN: ff-opt %ff_src_root/test/Examples/ffn.mlir --dsm-fuse \
// RUN:   --dsm-search="target=h200 calibration=%ff_src_root/docs/calibration/h200.json family=reduce-scatter" \
// RUN:   | FileCheck %s --check-prefix=RS
// RUN: ff-opt %ff_src_root/test/Examples/ffn.mlir --dsm-fuse \
// RUN:   --dsm-search="target=h200 calibration=%ff_src_root/docs/calibration/h200.json family=reduce-scatter" \
// RUN:   --dsm-materialize -o /dev/null
// RUN: not ff-opt %ff_src_root/test/Examples/ffn.mlir --dsm-fuse \
// RUN:   --dsm-search="target=h100-sxm calibration=%ff_src_root/docs/calibration/h200.json" \
// RUN:   2>&1 | FileCheck %s --check-prefix=WRONG

// CHECK: dsm.target = #dsm.target<name = "h200"
// CHECK: dsm.fused_chain ffn({{.*}}) {schedule = #dsm.schedule<cluster = [1, [[C:[0-9]+]], 1, [[C]]], {{.*}}order = [m, n, l, k], spatial = [m, n, l], residency = [dsm], collectives = [shuffle
// RS: dsm.target = #dsm.target<name = "h200"
// RS: dsm.fused_chain ffn({{.*}}) {schedule = #dsm.schedule<cluster = [1, {{[0-9]+}}, 1, 1], {{.*}}order = [m, n, k, l], spatial = [m, n], residency = [smem], collectives = [reduce_scatter
// WRONG: invalid DSM calibration: file is for target 'NVIDIA H200' but the search targets 'h100-sxm'

// REQUIRES: ptxas
// The collectives kernel assembles for sm_90a (format=bin runs ptxas).
// RUN: ff-opt %S/Inputs/collectives-kernel.mlir --lower-to-nvvm="format=bin" | FileCheck %s
// CHECK: gpu.binary @collectives_module [#gpu.object<#nvvm.target<O = 3, chip = "sm_90a", features = "+ptx86">, properties = {{.*}} bin = "

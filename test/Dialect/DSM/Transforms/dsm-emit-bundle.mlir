// RUN: ff-opt %s --dsm-emit-bundle="dir=%t" --split-input-file --verify-diagnostics

// expected-error @below {{no dsm.bundles attribute; run --dsm-materialize first}}
module {
}

// -----

// expected-error @below {{no gpu.binary @k_module for kernel 'k'; run gpu-module-to-binary first}}
module attributes {dsm.bundles = [{chain = {}, kernels = [{module = "k_module", name = "k"}], name = "k", plan = {}, source_hash = "0"}]} {
}

// -----

module attributes {dsm.bundles = [{chain = {}, kernels = [{module = "k_module", name = "k"}], name = "k", plan = {}, source_hash = "0"}]} {
  // expected-error @below {{bundles are written from PTX; run gpu-module-to-binary with format=isa}}
  gpu.binary @k_module [#gpu.object<#nvvm.target<chip = "sm_90a">, bin = "\00">]
}

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

// -----

// A hand-written dsm.bundles that --dsm-materialize would not write.
// expected-error @below {{malformed dsm.bundles entry: expected a dictionary with a string 'name', as --dsm-materialize writes}}
module attributes {dsm.bundles = [{kernels = []}]} {
}

// -----

// expected-error @below {{malformed dsm.bundles entry: expected an array of kernels, as --dsm-materialize writes}}
module attributes {dsm.bundles = [{name = "k", kernels = 3}]} {
}

// -----

// expected-error @below {{malformed dsm.bundles kernel: expected a dictionary with string 'name' and 'module'}}
module attributes {dsm.bundles = [{name = "k", kernels = [{name = "k"}]}]} {
}

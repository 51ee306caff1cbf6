// RUN: ff-opt %s --dsm-search="target=b200" -verify-diagnostics

// An unknown target is reported on the module with the known names.

// expected-error @+1 {{--dsm-search: unknown target 'b200' (known: h100-sxm, h100-pcie, h200, h800)}}
module {
}

// RUN: ff-opt %s --dsm-search="calibration=%S/Inputs/does-not-exist.json" -verify-diagnostics

// expected-error-re @+1 {{--dsm-search: cannot read calibration file '{{.*}}does-not-exist.json': {{.*}}}}
module {
}

// RUN: ff-opt %s --dsm-search="calibration=%S/Inputs/search-calibration-wrong-target.json" -verify-diagnostics
// RUN: ff-opt %s --dsm-search="calibration=%S/Inputs/search-calibration-bad-cluster.json" -verify-diagnostics
// RUN: ff-opt %s --dsm-search="calibration=%S/Inputs/search-calibration-not-json.json" -verify-diagnostics
// RUN: ff-opt %s --dsm-search="calibration=%S/Inputs/search-calibration-negative.json" -verify-diagnostics

// Calibration files are validated before anything is searched; every
// problem is an error on the module that names the offending entry (one
// alternative per RUN line; test/Unit/Analysis/TargetTest.cpp covers the
// rest of the messages).

// expected-error-re @+1 {{--dsm-search: invalid DSM calibration: {{(file is for target 'h200' but the search targets 'h100-sxm'|dsm\[1\]: cluster 6 is not one of 2, 4, 8, 16|\[2:0, byte=32\]: Unexpected EOF|dsm\[0\]: bandwidth and latency must be positive)$}}}}
module {
}

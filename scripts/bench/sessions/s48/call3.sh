#!/bin/bash
# Forty-eighth session, call 3 (.device/s48-st, .device/s48-dyn): call 2's
# dynamic-M sweep with, beside the dynamic bundles, each chain compiled
# for that very M (compile-workloads.py --dynamic-sweep: the plan searched
# at M, what a bin whose upper end is M would run), against PyTorch's
# chains in CUDA graphs.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
. scripts/bench/session-lib.sh
dyn_sweep .device/s48-dyn .device/s48-st
# Gated 128 x 192 (S8: 176) tiles at a partial last m tile: the kernel that
# skipped the rows' epilogue and spilled (spill) against the one that
# computes it (fix), both --check'ed (poisoned output, fp32 reference).
for w in S1m300 S4m300 S8m800; do ab_line .device/s48-sp spill fix $w 0; done
memcheck .device/s48-sp/S1m300-fix

#!/bin/bash
# Fifty-first session, call 4 (.device/s51-d): the dynamic-M sweep (G1-G10
# and S1-S8 at M = 300, 800, 1500) after the session's swapped gated
# GEMMs: the dynamic-M bundles (compile-workloads.py --weight-layout nk
# --dynamic-m, dyn/) and each chain compiled for that M (--dynamic-sweep,
# exact/, call 2's nine among them) against PyTorch's chains in CUDA
# graphs, merged and split; dyn_sweep_table.py's table last.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
. scripts/bench/session-lib.sh
dyn_sweep .device/s51-d/dyn .device/s51-d/exact

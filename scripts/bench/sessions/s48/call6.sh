#!/bin/bash
# Forty-eighth session, call 6 (.device/s48-dynL): the dynamic-M bundles of
# G1-G10 and S1-S8 (compile-workloads.py --dynamic-m, the landed
# compiler: bins halved from 257 to 1024) at M = 300, 800, 1500
# (workloads.dynamic_m_sweep) against
# PyTorch's chains in CUDA graphs (merged and, for S, split gate/up), one
# bench.py run per set, correctness checked in the same run.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
. scripts/bench/session-lib.sh
dyn_sweep .device/s48-dynL
# ff-run --check (poisoned output, fp32 reference) at the sweep's M
for w in S1 S7 G5 G8; do for m in 300 800 1500; do
  echo "check $w M=$m $(timeout 60 $ffrun .device/s48-dynL/$w --m $m --check 2>&1 | grep -oE "PASS|FAIL" | head -1)"; done; done

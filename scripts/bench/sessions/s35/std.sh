#!/bin/bash
# Thirty-fifth session: compute-sanitizer (memcheck, synccheck) on default
# bundles whose weight-stream consumers now release each stage early
# (S1, S2: a gated GEMM and a split-K down GEMM each; G8), ff-run --check
# followed by timed launches back to back (--bench 3); then the session's
# default bundles ($BUNDLES, .device/s35-er) in the benchmark's standard
# rows (../s33/s33e.sh) and the targets computed from them.
set -u
B=${BUNDLES:-.device/s35-er}
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
for b in S1 S2 G8; do
  for tool in memcheck synccheck; do
    echo "$tool $b $(timeout 100 compute-sanitizer --tool $tool $ffrun $B/$b --check --bench 3 2>&1 | grep -oE 'ERROR SUMMARY.*|status=[A-Z]+|rel_l2=[^ ]+|written=[a-z]+' | tr '\n' ' ')"
  done
done
BUNDLES=$B bash scripts/bench/sessions/s33/s33e.sh
python3 scripts/bench/targets.py $OUT/c/results.csv $OUT/gs/results.csv 2>&1 | tail -30

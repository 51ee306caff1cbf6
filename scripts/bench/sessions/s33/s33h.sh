#!/bin/bash
# Thirty-third session: compute-sanitizer on default bundles whose first
# kernel now waits for its predecessor (.device/s33e): memcheck and
# synccheck of ff-run --check followed by timed launches back to back
# (--bench 3: calls overlapping programmatically), C1-b1 (one fused kernel),
# C8-b1 and G7 (first kernels raised to one CTA per SM), G4 (the shipped
# example's chain).
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
for b in C1-b1 C8-b1 G7 G4; do
  for tool in memcheck synccheck; do
    echo "$tool $b $(timeout 150 compute-sanitizer --tool $tool $ffrun .device/s33e/$b --check --bench 3 2>&1 | grep -oE 'ERROR SUMMARY.*|status=[A-Z]+|rel_l2=[^ ]+|written=[a-z]+' | tr '\n' ' ')"
  done
done

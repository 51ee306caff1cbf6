#!/bin/bash
# Thirty-second session: compute-sanitizer's racecheck and synccheck on
# the two default bundles whose 3x3 GEMM streams a halo through two rings
# (.device/s32c: C8-b32 in clusters of two sharing B by multicast, C6-b1),
# each with ff-run --check.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
for w in C8-b32 C6-b1; do
  for tool in racecheck synccheck; do
    echo "$tool $w $(timeout 240 compute-sanitizer --tool $tool /tmp/b/bin/ff-run .device/s32c/$w --check 2>&1 | grep -oE 'ERROR SUMMARY.*|RACECHECK SUMMARY.*|status=[A-Z]+|rel_l2=[^ ]+|written=[a-z]+' | tr '\n' ' ')"
  done
done

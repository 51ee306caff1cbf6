#!/bin/bash
# Twenty-sixth session: which A-multicast GEMM clusters hang. s26q's
# 64 x 64 tiles at 8 stages with clusters of 2 along n timed out; here
# the same at 4 stages, 128 x 64 and 64 x 128 tiles at 8, the 64 x 64 one
# not persistent, and the family's 128 x 256 one, each --check'ed with a
# 20 s limit. Bundles: .device/s26r.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
for b in .device/s26r/*; do
  timeout 20 $ffrun $b --check --bench 5 > $OUT/$(basename $b).txt 2>&1
  echo "$(basename $b) rc=$? $(grep RESULT $OUT/$(basename $b).txt | sed 's/.*rel_l2=\([^ ]*\).*median_us=\([^ ]*\).*status=\([A-Z]*\).*/rel_l2=\1 us=\2 \3/')"
done

#!/bin/bash
# Twenty-sixth session: the weight layout alone. Earlier sessions' "kn"
# conv bundles (compile-workloads.py --weight-layout kn) also had an fp32
# output; these have HWCF (kn) or FHWC (nk) filters and a bf16 output
# both (knf32: the earlier kind, fp32 output). Bundles: .device/s26g.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
$ffrun .device/s26g/C6-b32-nk --bench 300 > /dev/null 2>&1
for pass in 1 2; do
  RUN_TIMEOUT=60 BENCH=40 REPEAT=3 scripts/gpu/ab.sh /tmp/b .device/s26g > $OUT/ab$pass.txt 2>&1
  echo "pass $pass rc=$?"; grep "^==" $OUT/ab$pass.txt | grep -v "status=PASS"
  tail -n 6 $OUT/ab$pass.txt
done

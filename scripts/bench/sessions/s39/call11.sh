#!/bin/bash
# Thirty-ninth session, call 11: inputs_probe.py on S3 at M = 256 and 512
# (.device/s39-s), and ff-run's medians of the same bundles.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
export PYTHONPATH=$PWD/python FLASHFUSER_RUNTIME_LIB=$ff_build/lib/libffrt.so
for w in S3-m256 S3-m512; do
  echo "ffrun $w $(timeout 60 $ffrun .device/s39-s/$w --check --bench 20 2>&1 | grep RESULT | sed -n 's/.*median_us=\([^ ]*\).*status=\([A-Z]*\).*/\2 \1/p')"
done
timeout 200 python3 scripts/bench/sessions/s39/inputs_probe.py .device/s39-s/S3-m256 .device/s39-s/S3-m512 2>&1 | tail -4

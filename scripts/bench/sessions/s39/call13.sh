#!/bin/bash
# Thirty-ninth session, call 13: views_probe.py on S3 at M = 256 and 512.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
export PYTHONPATH=$PWD/python FLASHFUSER_RUNTIME_LIB=$ff_build/lib/libffrt.so
timeout 150 python3 scripts/bench/sessions/s39/views_probe.py .device/s39-s/S3-m256 .device/s39-s/S3-m512 2>&1 | tail -4

#!/bin/bash
# Sixty-sixth session, call 1: the runtime with the cached call's capture
# check asked of the driver (ffrt_stream_capturing). Its GPU tests (gtest
# and the Python tests, which capture Kernel calls into PyTorch graphs),
# then capture_ab.py: that check against PyTorch's hook on six small
# chains of .device/s65-std (the kernels of fb82ac9, unchanged since).
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
head -3 /tmp/build.log | tail -1
timeout 120 /tmp/b/test/Unit/Runtime/FFRuntimeTests > $OUT/gtest.txt 2>&1; echo "gtest rc=$? $(grep -E '^\[  (PASSED|FAILED)' $OUT/gtest.txt | tr '\n' ' ')"
FLASHFUSER_RUNTIME_LIB=/tmp/b/lib/libffrt.so FLASHFUSER_BUILD_DIR=/tmp/b \
  FLASHFUSER_TEST_BUNDLES=$PWD/scripts/gpu/bundles timeout 200 \
  python3 -m pytest -q -rs python/tests > $OUT/pytest.txt 2>&1; echo "pytest rc=$? $(tail -1 $OUT/pytest.txt)"
FLASHFUSER_RUNTIME_LIB=/tmp/b/lib/libffrt.so PYTHONPATH=python timeout 200 \
  python3 scripts/bench/sessions/s66/capture_ab.py .device/s65-std/{G1,G7,C1-b1,C3-b1,C5-b1,C8-b1} 2>&1 | tee $OUT/capture-ab.md

#!/bin/bash
# Fortieth session, call 9: the runtime after captureLaunch took a copy
# count and ff-run's timing loops were shared: the runtime's unit tests and
# the package's GPU tests, then ff-run on S3-m256 (.device/s39-s) and G3's
# sequence (.device/s40-fid/G3-r0): per launch, --graph, --sustain, and
# --check after a graph bench (the output must still match).
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
export PYTHONPATH=$PWD/python FLASHFUSER_RUNTIME_LIB=$ff_build/lib/libffrt.so FLASHFUSER_BUILD_DIR=$ff_build
t=$(find $ff_build -name FFRuntimeTests -type f | head -1)
[ -n "$t" ] && { timeout 120 $t 2>&1 | tail -3; } || echo "no FFRuntimeTests"
timeout 300 python3 -m pytest -q python/tests/test_gpu.py python/tests/test_gpu_fallback.py \
  python/tests/test_fastcall.py python/tests/test_gpu_workspace.py python/tests/test_runtime_capi.py 2>&1 | tail -3
B=.device/s39-s/S3-m256
$ffrun $B --bench 20 | grep bench:
$ffrun $B --bench 20 --graph | grep bench:
$ffrun $B --bench 20 --graph --sustain 500 | grep -E "sustain:|bench:"
$ffrun .device/s40-fid/G3-r0 --check --bench 20 --graph | grep -E "bench:|^check|RESULT" | cut -c1-160

#!/bin/bash
# Sixty-eighth session, call 2: the runtime with the cached call's checks
# through DLPack's exchange API and the driver's current device, and
# Kernel.__call__ in C (KernelCall). Its GPU
# tests (gtest; the Python tests, which run Kernel calls, captures and the
# negative-view refusal), then dlpack_ab.py on small chains of
# .device/s68-std (compile-workloads.py --weight-layout nk --search-options
# target=h200 --single-gemms at 4d405e5) and G5.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
head -3 /tmp/build.log | tail -1
. scripts/gpu/runtime-tests.sh
FLASHFUSER_RUNTIME_LIB=/tmp/b/lib/libffrt.so PYTHONPATH=python timeout 240 \
  python3 scripts/bench/sessions/s68/dlpack_ab.py .device/s68-std/{G1,G7,G10,G3,C1-b1,C3-b1,G5} 2>&1 | tee $OUT/dlpack-ab.md

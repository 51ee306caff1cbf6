# Sourced by GPU-machine session scripts after build-runtime.sh: runs the
# runtime's GPU tests (gtest, then the Python tests with the GPU bundles),
# logs in $OUT/gtest.txt and $OUT/pytest.txt, one summary line each and the
# Python failures' lines.
#
# usage: . scripts/gpu/runtime-tests.sh   (after build-runtime.sh; $OUT set)
timeout 120 "$ff_build/test/Unit/Runtime/FFRuntimeTests" > "$OUT/gtest.txt" 2>&1
echo "gtest rc=$? $(grep -E '^\[  (PASSED|FAILED)' "$OUT/gtest.txt" | tr '\n' ' ')"
FLASHFUSER_RUNTIME_LIB=$ff_build/lib/libffrt.so FLASHFUSER_BUILD_DIR=$ff_build \
  FLASHFUSER_TEST_BUNDLES=$ff_root/scripts/gpu/bundles PYTHONPATH=$ff_root/python \
  timeout 200 python3 -m pytest -q -rs "$ff_root/python/tests" > "$OUT/pytest.txt" 2>&1
echo "pytest rc=$? $(tail -1 "$OUT/pytest.txt")"
grep -E "^(FAILED|ERROR)|Error:" "$OUT/pytest.txt" | head -10

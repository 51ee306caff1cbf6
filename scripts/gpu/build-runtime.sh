# Sourced by the GPU-machine scripts (validate.sh, reliability.sh): builds
# the runtime and ff-run without MLIR into BUILD_DIR, prints the GPU, and
# sets $ffrun. Exits 2 (with the failing step's log) when the build fails.
#
# usage: . scripts/gpu/build-runtime.sh ROOT BUILD_DIR
ff_root=$1
ff_build=$2
FF_PYTHON=${FF_PYTHON:-$(command -v python3 || true)}
echo "== build ($ff_build)"
mkdir -p "$ff_build"
# The fast-call module is built for the python3 that will load it.
cmake -G Ninja -B "$ff_build" -S "$ff_root" -DFF_ENABLE_COMPILER=OFF \
  -DCMAKE_BUILD_TYPE=Release \
  ${FF_PYTHON:+-DPython3_EXECUTABLE=$FF_PYTHON} >"$ff_build/runtime-cmake.log" 2>&1 \
  || { cat "$ff_build/runtime-cmake.log"; exit 2; }
ninja -C "$ff_build" >"$ff_build/runtime-ninja.log" 2>&1 \
  || { tail -50 "$ff_build/runtime-ninja.log"; exit 2; }
ffrun=$ff_build/bin/ff-run
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader \
  2>/dev/null || true

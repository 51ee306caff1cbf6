#!/usr/bin/env bash
# Configures and builds FlashFuser into ./build (or $FF_BUILD_DIR). Idempotent.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${FF_BUILD_DIR:-$root/build}"
if [ ! -f "$build/build.ninja" ]; then
  mkdir -p "$build"
  cmake -G Ninja -B "$build" -S "$root" "$@" >"$build/cmake.log" 2>&1 \
    || { cat "$build/cmake.log" >&2; echo "build: cmake configure failed" >&2; exit 1; }
fi
ninja -C "$build" "${FF_NINJA_TARGETS:-all}" \
  || { echo "build: compilation failed" >&2; exit 1; }

#!/usr/bin/env bash
# Builds FlashFuser with AddressSanitizer + UndefinedBehaviorSanitizer into
# ./build-asan (or $FF_ASAN_BUILD_DIR) and runs check-ff there. Only our code
# is instrumented; libMLIR/libLLVM come from Debian as they are.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${FF_ASAN_BUILD_DIR:-$root/build-asan}"
flags="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer -g1"
if [ ! -f "$build/build.ninja" ]; then
  cmake -G Ninja -B "$build" -S "$root" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_CXX_FLAGS="$flags" -DCMAKE_C_FLAGS="$flags" \
    -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" \
    -DCMAKE_SHARED_LINKER_FLAGS="-fsanitize=address,undefined" >/dev/null
fi
# libMLIR is not instrumented: its allocations cannot be tracked for leaks.
# Inline LLVM allocator code in our instrumented TUs poisons memory that the
# uninstrumented libMLIR then writes legitimately: disable manual poisoning.
export ASAN_OPTIONS="detect_leaks=0:abort_on_error=1:allow_user_poisoning=0"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
ninja -C "$build" check-ff

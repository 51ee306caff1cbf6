#!/usr/bin/env bash
# Fuzzes the compiler's front half (parse, verify, dsm-fuse, dsm-search,
# dsm-materialize, convert-dsm-to-nvgpu) with libFuzzer for SECONDS seconds:
#
#   scripts/fuzz.sh [SECONDS]          (default 300)
#
# Installs clang-22 + libclang-rt-22-dev when missing (Debian; CI's default
# install does not need them), configures ./build-fuzz (or $FF_FUZZ_BUILD_DIR)
# with clang-22, FF_ENABLE_FUZZER=ON, AddressSanitizer and assertions in our
# code, seeds the corpus from test/**/*.mlir and runs ff-fuzz in fork mode
# (a crash is recorded and fuzzing goes on: one known upstream parser crash,
# docs/reliability.md, would otherwise stop every run). Crashing inputs
# land in build-fuzz/artifacts; new coverage in build-fuzz/corpus.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${FF_FUZZ_BUILD_DIR:-$root/build-fuzz}"
seconds="${1:-300}"

if ! command -v clang++-22 >/dev/null || \
   ! ls /usr/lib/llvm-22/lib/clang/*/lib/*/libclang_rt.fuzzer*.a >/dev/null 2>&1; then
  sudo=""; [ "$(id -u)" = 0 ] || sudo=sudo
  $sudo apt-get install -y --no-install-recommends clang-22 libclang-rt-22-dev
fi

# No NDEBUG: asserts in MLIR/LLVM headers (cast<>, ArrayRef bounds) fire in
# our TUs. libMLIR itself is Debian's release build, uninstrumented.
flags="-fsanitize=address -fno-omit-frame-pointer -g1 -O1"
if [ ! -f "$build/build.ninja" ]; then
  cmake -G Ninja -B "$build" -S "$root" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
    -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="$flags" \
    -DCMAKE_C_FLAGS_RELWITHDEBINFO="$flags" \
    -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address" \
    -DFF_ENABLE_FUZZER=ON -DFF_ENABLE_RUNTIME=OFF -DFF_ENABLE_UNITTESTS=OFF \
    >/dev/null
fi
ninja -C "$build" -j"${FF_JOBS:-2}" ff-fuzz

python3 "$root/scripts/fuzz-seeds.py" "$build/seeds"
mkdir -p "$build/corpus" "$build/artifacts"
# Same reasons as scripts/sanitize.sh: libMLIR is not instrumented.
export ASAN_OPTIONS="detect_leaks=0:allow_user_poisoning=0:detect_container_overflow=0"
"$build/bin/ff-fuzz" "$build/corpus" "$build/seeds" \
  -max_total_time="$seconds" -timeout=20 -rss_limit_mb=4096 -max_len=16384 \
  -print_final_stats=1 -artifact_prefix="$build/artifacts/" \
  -fork="${FF_FUZZ_JOBS:-1}" -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1 \
  ${FF_FUZZ_ARGS:-} 2>&1 | tee "$build/fuzz.log"

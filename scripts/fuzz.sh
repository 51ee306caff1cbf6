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
# (a crash is recorded and fuzzing goes on: libMLIR's own parser crashes on
# some inputs, docs/reliability.md, which would otherwise stop every run). New coverage lands in
# build-fuzz/corpus (kept across runs); this run's crashing, timing-out or
# out-of-memory inputs in build-fuzz/artifacts/run-DATE/.
#
# After the run each finding is replayed alone. A crash inside libMLIR's
# parser, before any FlashFuser code runs (docs/reliability.md lists the two
# found so far), is listed as upstream, not counted; so is a timeout whose
# input runs within the limit alone (the fork child was slowed by load).
# Exit status: 0 no finding; 1 a new finding (crash, timeout, OOM, leak,
# sanitizer report, or one that does not reproduce alone); 2 build or setup
# failure. The last line reads "fuzz: PASS|FAIL ...".
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${FF_FUZZ_BUILD_DIR:-$root/build-fuzz}"
seconds="${1:-300}"
case $seconds in
  ''|*[!0-9]*) echo "usage: scripts/fuzz.sh [SECONDS]" >&2; exit 2 ;;
esac

if ! command -v clang++-22 >/dev/null || \
   ! ls /usr/lib/llvm-22/lib/clang/*/lib/*/libclang_rt.fuzzer*.a >/dev/null 2>&1; then
  sudo=""; [ "$(id -u)" = 0 ] || sudo=sudo
  export DEBIAN_FRONTEND=noninteractive
  # A fresh machine may have no package lists yet.
  $sudo apt-get install -y -qq --no-install-recommends clang-22 \
      libclang-rt-22-dev >/dev/null 2>&1 ||
    { $sudo apt-get update -qq && $sudo apt-get install -y -qq \
        --no-install-recommends clang-22 libclang-rt-22-dev >/dev/null; } ||
    { echo "fuzz: cannot install clang-22 libclang-rt-22-dev" >&2; exit 2; }
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
    >/dev/null || { echo "fuzz: cmake configure failed" >&2; exit 2; }
fi
ninja -C "$build" -j"${FF_JOBS:-2}" ff-fuzz ||
  { echo "fuzz: building ff-fuzz failed" >&2; exit 2; }

# Seeds too slow for the 20 s per-input limit under ASan (over 1 s through
# the release ff-opt's harness pipeline) are left out (fuzz-seeds.py).
release_opt="${FF_BUILD_DIR:-$root/build}/bin/ff-opt"
seed_args=()
[ -x "$release_opt" ] && seed_args=(--ff-opt "$release_opt" --max-seconds 1)
rm -rf "$build/seeds"
python3 "$root/scripts/fuzz-seeds.py" "$build/seeds" "${seed_args[@]}" || exit 2
artifacts="$build/artifacts/run-$(date +%Y%m%d-%H%M%S)"
mkdir -p "$build/corpus" "$artifacts"
# Same reasons as scripts/sanitize.sh: libMLIR is not instrumented.
export ASAN_OPTIONS="detect_leaks=0:allow_user_poisoning=0:detect_container_overflow=0"
"$build/bin/ff-fuzz" "$build/corpus" "$build/seeds" \
  -max_total_time="$seconds" -timeout=20 -rss_limit_mb=4096 -max_len=16384 \
  -print_final_stats=1 -artifact_prefix="$artifacts/" \
  -fork="${FF_FUZZ_JOBS:-1}" -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1 \
  ${FF_FUZZ_ARGS:-} 2>&1 | tee "$build/fuzz.log"
status=${PIPESTATUS[0]}
summary=$(grep -E '^#[0-9]+: cov:' "$build/fuzz.log" | tail -1)

# Replay every finding alone. A timeout whose input now finishes within the
# limit was load, and a crash inside MLIR's parser (the report's stack
# reaches mlir::parseSourceString and holds no frame of our code: our
# dialect's parsers would show as lib/ or include/ff frames) is an upstream
# libMLIR defect we cannot fix: both listed, not counted. Anything else is
# ours.
upstream_parser_crash() {
  local frames
  frames=$(grep -E '^ +#[0-9]+ ' <<<"$1" |
           sed -n '1,/LLVMFuzzerTestOneInput/p')
  grep -q 'ERROR: AddressSanitizer' <<<"$1" &&
    grep -q 'mlir::parseSourceString' <<<"$frames" &&
    ! grep -qE "$root/(lib|include)/|mlir::dsm::|[^A-Za-z_]ff::" <<<"$frames"
}
new=0 known=0
for f in "$artifacts"/crash-* "$artifacts"/timeout-* "$artifacts"/oom-* \
         "$artifacts"/leak-*; do
  [ -e "$f" ] || continue
  start=$SECONDS
  replay=$(timeout 60 "$build/bin/ff-fuzz" -timeout=20 -rss_limit_mb=4096 \
    "$f" 2>&1)
  rc=$?
  if [[ $(basename "$f") == timeout-* ]] && [ "$rc" = 0 ]; then
    # Finished within the limit alone: the fork child was slowed down by
    # other load on the machine, not stuck.
    echo "fuzz: slow under load, not a hang ($((SECONDS - start)) s alone): $f"
    known=$((known + 1))
  elif upstream_parser_crash "$replay"; then
    echo "fuzz: upstream libMLIR parser crash: $f"
    grep -E 'SUMMARY:' <<<"$replay" | head -1
    known=$((known + 1))
  else
    echo "fuzz: NEW FINDING: $f"
    grep -E 'ERROR:|SUMMARY:|^ +#[0-9]+ ' <<<"$replay" | head -25
    new=$((new + 1))
  fi
done
# In fork mode a child that dies without leaving an input (e.g. killed) only
# shows in the log; -ignore_* keep the run going, so a non-zero status here
# means libFuzzer itself failed.
if [ "$status" != 0 ] && [ "$new" = 0 ]; then
  echo "fuzz: ff-fuzz exited with status $status"
  new=1
fi
echo "fuzz: $([ "$new" = 0 ] && echo PASS || echo FAIL) after ${seconds}s:" \
  "$new new finding(s), $known known upstream or load-induced;" \
  "${summary:-no stats}"
[ "$new" = 0 ]

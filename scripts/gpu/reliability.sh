#!/bin/bash
# Runs on the GPU machine: the reliability checks of every kernel bundle.
# Builds the runtime and ff-run like validate.sh (no MLIR needed), then for
# each bundle (a directory with a manifest.json) under BUNDLES_DIR:
#
#   sanitize   compute-sanitizer memcheck, racecheck and synccheck, each at
#              the bundle's static M, or for a dynamic-M bundle at the first
#              two of SAN_MS it serves (default 128 1000, falling back to
#              256 384 512 64 1024 2048 4096 when the kernels need a multiple)
#   repeat     ff-run --repeat REPEAT at the same M values: every launch
#              bitwise identical to the first (a kernel with a workspace
#              reduces with fp32 atomics: a difference there is WARN)
#   large      ff-run --inputs large --check (values x 1e4)
#   denormal   ff-run --inputs denormal --check (1/4 subnormal inputs)
#              both fail on NaN/Inf where the reference is finite and use the
#              default relative bounds (1e-2 L2, 4e-2 max)
#
# A bundle whose directory name contains "race" is an injected-race negative
# control: only racecheck runs, and it PASSES when racecheck reports hazards
# (FAIL when it comes back clean). Where nvcc exists, two controls of our own
# join the run (scripts/gpu/probe/race_control.cu): controls/naive_ffn_smem
# (racecheck must be clean) and controls/naive_ffn_race (a barrier left out:
# racecheck must report it). Then the runtime's unit tests (FFRuntimeTests:
# real host, pinned, misaligned and other-device pointers) and the Python GPU
# tests, as validate.sh does. Prints a table (bundle, M, check, status,
# figure) and "N passed, N failed, N timed out, N skipped" last.
#
# usage: scripts/gpu/reliability.sh BUNDLES_DIR[:BUNDLES_DIR...] [BUILD_DIR]
#   env: SANITIZE_ONLY=REGEX  sanitize only bundles whose name matches
#        REPEAT=100           launches per determinism check
#        TIMEOUT=120          seconds per ff-run / compute-sanitizer call; a
#                             call that runs longer is a TIMEOUT row
#        JOBS=8               bundles checked in parallel (one GPU, separate
#                             processes and contexts; JOBS=1 for a quiet GPU)
#        SAN_MS="128 1000"    M values for dynamic-M bundles
#        SAN_MAX_M=0          >0: no sanitizers on static bundles whose M is
#                             larger (SKIP rows; e.g. 8192 leaves out the
#                             batch-32 convolutions when a small-M static set
#                             covers the same chains)
#        SAN_RETRIES=1        a compute-sanitizer call that times out runs
#                             again, up to this many times (the sanitizer
#                             hangs at random on some kernels that are clean
#                             when it finishes: docs/reliability.md)
#        TIMEOUT_FAILS=0      1: count TIMEOUT rows as failures
#        SKIP_TESTS=1         skip the gtest / pytest step
#        CONTROLS=0           leave out the built-in racecheck controls
# Exit status: 0 when nothing failed; 2 when the build failed.
set -u
export LC_ALL=C
root=$(cd "$(dirname "$0")/../.." && pwd)
if [ $# -lt 1 ] || [ "$1" = -h ] || [ "$1" = --help ]; then
  awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"
  exit 2
fi
bundle_roots=$1
build=${2:-$root/build-gpu}
repeat=${REPEAT:-100}
tmo=${TIMEOUT:-120}
san_retries=${SAN_RETRIES:-1}
jobs=${JOBS:-8}
san_ms=${SAN_MS:-"128 1000"}
fallback_ms="256 384 512 64 1024 2048 4096"
start=$(date +%s)

. "$root/scripts/gpu/build-runtime.sh" "$root" "$build"
have_san=0
if command -v compute-sanitizer >/dev/null; then
  have_san=1
  compute-sanitizer --version 2>/dev/null | tail -1
else
  echo "reliability: compute-sanitizer not on PATH: sanitizer rows are SKIP"
fi

work=$build/reliability
rm -rf "$work" && mkdir -p "$work/rows" "$work/logs"

IFS=: read -r -a roots <<<"$bundle_roots"
user_roots=${#roots[@]}
if [ "${CONTROLS:-1}" = 1 ]; then
  if command -v nvcc >/dev/null &&
     python3 "$root/scripts/gpu/probe/make_race_bundles.py" "$work/controls" \
       >"$work/logs/controls.log" 2>&1; then
    roots+=("$work/controls")
  else
    echo "reliability: racecheck controls not built (nvcc missing or failed;" \
      "$work/logs/controls.log)"
  fi
fi
manifests=$(find "${roots[@]}" -name manifest.json | sort)
[ -n "$manifests" ] || { echo "reliability: no manifest.json under $bundle_roots"; exit 2; }

field() { sed -n "s/.* $1=\([^ ]*\).*/\1/p" <<<"$2" | tail -1; }

# row FILE BUNDLE M CHECK STATUS FIGURE
row() { printf '%s\t%s\t%s\t%s\t%s\n' "$2" "$3" "$4" "$5" "$6" >>"$1"; }

# run LOG CMD...: runs CMD under the per-call timeout, output to LOG; echoes
# the exit status (124 on timeout).
run() {
  local log=$1; shift
  timeout -k 10 "$tmo" "$@" >"$log" 2>&1
  echo $?
}

# sanitize ROWS NAME B M TOOL NEGATIVE
sanitize() {
  local rows=$1 name=$2 b=$3 m=$4 tool=$5 negative=$6
  local log="$work/logs/${name//\//_}.M$m.$tool.log" rc fig errors hazards
  local tries=0
  while :; do
    rc=$(run "$log" compute-sanitizer --tool "$tool" --error-exitcode 9 \
      "$ffrun" "$b" --m "$m")
    { [ "$rc" = 124 ] || [ "$rc" = 137 ]; } && [ $tries -lt "$san_retries" ] ||
      break
    tries=$((tries + 1))
  done
  errors=$(sed -n 's/.*ERROR SUMMARY: \([0-9]*\) error.*/\1/p' "$log" | tail -1)
  hazards=$(sed -n 's/.*RACECHECK SUMMARY: \([0-9]*\) hazard.*/\1/p' "$log" |
    tail -1)
  if [ "$tool" = racecheck ]; then
    # "RACECHECK SUMMARY: 1 hazard displayed (1 error, 0 warnings)"
    fig="hazards=${hazards:-?} ($(sed -n 's/.*RACECHECK SUMMARY: .* displayed (\(.*\))/\1/p' "$log" | tail -1))"
  else
    fig="errors=${errors:-?}"
  fi
  local st
  if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
    st=TIMEOUT; fig="no result after ${tmo}s"
  elif [ "$negative" = 1 ]; then
    # The injected race must be seen.
    if [ "${hazards:-0}" -gt 0 ]; then st=PASS; else st=FAIL; fi
    fig="$fig (negative control: hazards expected)"
  elif [ "$rc" = 0 ] && [ "${errors:-0}" = 0 ] && [ "${hazards:-0}" = 0 ]; then
    st=PASS
  else
    st=FAIL; fig="$fig rc=$rc"
  fi
  if [ "$st" = TIMEOUT ]; then fig="$fig, $((tries + 1)) run(s)"
  elif [ $tries -gt 0 ]; then fig="$fig, after $tries timed-out run(s)"; fi
  row "$rows" "$name" "$m" "$tool" "$st" "$fig"
}

# ffrun_check ROWS NAME B M CHECK ARGS...: one ff-run call, its RESULT line
# summarised.
ffrun_check() {
  local rows=$1 name=$2 b=$3 m=$4 check=$5; shift 5
  local log="$work/logs/${name//\//_}.M$m.$check.log" rc res st fig
  rc=$(run "$log" "$ffrun" "$b" --m "$m" "$@")
  res=$(grep '^RESULT' "$log" | tail -1)
  case $check in
    repeat)
      fig="identical=$(field identical "$res") runs=$(field runs "$res")"
      fig="$fig workspace=$(field workspace "$res")"
      if [ "$rc" = 0 ] && [ "$(field identical "$res")" = 0 ]; then
        st=WARN  # workspace kernel: only reported
      elif [ "$rc" = 0 ]; then st=PASS; else st=FAIL; fi ;;
    *)
      fig="rel_l2=$(field rel_l2 "$res") max_rel=$(field max_rel "$res")"
      fig="$fig nonfinite_out=$(field nonfinite_out "$res")"
      fig="$fig nonfinite_ref=$(field nonfinite_ref "$res")"
      if [ "$rc" = 0 ]; then st=PASS; else st=FAIL; fi ;;
  esac
  if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
    st=TIMEOUT; fig="no result after ${tmo}s"
  elif [ "$rc" = 5 ]; then
    st=SKIP; fig="M not served"
  elif [ "$st" = FAIL ]; then
    fig="$fig rc=$rc $(grep -m1 '^ff-run:' "$log")"
  fi
  row "$rows" "$name" "$m" "$check" "$st" "$fig"
}

# check_bundle NAME DIR: every check of one bundle, rows to rows/NAME.
check_bundle() {
  local name=$1 b=$2
  local rows="$work/rows/${name//\//_}.tsv"
  local info ms=() m negative=0
  : >"$rows"
  if ! info=$("$ffrun" "$b" --verify 2>&1); then
    row "$rows" "$name" - verify FAIL "$(head -1 <<<"$info")"
    return
  fi
  local static
  static=$(sed -n 's/^chain: .*, M \([0-9]*\)$/\1/p' <<<"$info")
  if [ -n "$static" ]; then
    ms=("$static")
  else
    for m in $san_ms $fallback_ms; do
      [ ${#ms[@]} -ge 2 ] && break
      "$ffrun" "$b" --verify --m "$m" >/dev/null 2>&1 && ms+=("$m")
    done
  fi
  if [ ${#ms[@]} = 0 ]; then
    row "$rows" "$name" - select SKIP "serves none of $san_ms $fallback_ms"
    return
  fi
  [[ $name == *race* ]] && negative=1
  local sanitize_this=0
  [ "$have_san" = 1 ] && [[ $name =~ ${SANITIZE_ONLY:-.} ]] && sanitize_this=1
  if [ "$sanitize_this" = 1 ] && [ -n "$static" ] && [ "${SAN_MAX_M:-0}" -gt 0 ] &&
     [ "$static" -gt "${SAN_MAX_M:-0}" ]; then
    sanitize_this=0
    row "$rows" "$name" "$static" sanitize SKIP "static M > SAN_MAX_M=$SAN_MAX_M"
  fi
  for m in "${ms[@]}"; do
    if [ "$negative" = 1 ]; then
      if [ "$have_san" = 1 ]; then
        sanitize "$rows" "$name" "$b" "$m" racecheck 1
      else
        row "$rows" "$name" "$m" racecheck SKIP "no compute-sanitizer"
      fi
      continue
    fi
    if [ "$sanitize_this" = 1 ]; then
      for tool in memcheck racecheck synccheck; do
        sanitize "$rows" "$name" "$b" "$m" "$tool" 0
      done
    fi
    ffrun_check "$rows" "$name" "$b" "$m" repeat --repeat "$repeat"
    ffrun_check "$rows" "$name" "$b" "$m" large --inputs large --check
    ffrun_check "$rows" "$name" "$b" "$m" denormal --inputs denormal --check
  done
  [ -n "$static" ] && sed -i "s/^\([^\t]*\)\t$static\t/\1\t$static(static)\t/" "$rows"
}

echo "== $(wc -l <<<"$manifests") bundles, $jobs in parallel, REPEAT=$repeat," \
  "TIMEOUT=${tmo}s, SAN_RETRIES=$san_retries"
declare -A seen
for manifest in $manifests; do
  b=$(dirname "$manifest")
  name=$(basename "$b")
  # Bundles of several roots may share a name (G1 static and dynamic).
  if [ "$user_roots" -gt 1 ] || [ -n "${seen[$name]:-}" ]; then
    name="$(basename "$(dirname "$b")")/$name"
  fi
  seen[$name]=1
  while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n; done
  ( check_bundle "$name" "$b"; echo "   done $name" ) &
done
wait

# The runtime's own GPU tests and the Python GPU tests.
tests_rows="$work/rows/~tests.tsv"
: >"$tests_rows"
if [ "${SKIP_TESTS:-0}" != 1 ]; then
  if [ -x "$build/test/Unit/Runtime/FFRuntimeTests" ]; then
    echo "== runtime unit tests"
    out=$("$build/test/Unit/Runtime/FFRuntimeTests" --gtest_brief=1 2>&1); rc=$?
    echo "$out" | tail -5
    sum=$(grep -E '^\[ +(PASSED|SKIPPED|FAILED) +\]' <<<"$out" | tr -s ' ' |
      tr '\n' ' ')
    row "$tests_rows" FFRuntimeTests - gtest "$([ $rc = 0 ] && echo PASS || echo FAIL)" "$sum"
  else
    row "$tests_rows" FFRuntimeTests - gtest SKIP "not built (no GTest)"
  fi
  if python3 -c 'import torch, pytest; assert torch.cuda.is_available()' \
      2>/dev/null; then
    echo "== python tests (GPU)"
    out=$(FLASHFUSER_RUNTIME_LIB=$build/lib/libffrt.so \
      FLASHFUSER_BUILD_DIR=$build \
      FLASHFUSER_TEST_BUNDLES=$root/scripts/gpu/bundles \
      python3 -m pytest -q -rs "$root/python/tests" 2>&1); rc=$?
    echo "$out" | tail -8
    row "$tests_rows" python/tests - pytest "$([ $rc = 0 ] && echo PASS || echo FAIL)" "$(tail -1 <<<"$out")"
  else
    row "$tests_rows" python/tests - pytest SKIP "no PyTorch with CUDA, or no pytest"
  fi
fi

echo
printf '%-28s %-13s %-10s %-8s %s\n' bundle M check status figure
cat "$work"/rows/*.tsv | while IFS=$'\t' read -r n m c s f; do
  printf '%-28s %-13s %-10s %-8s %s\n' "$n" "$m" "$c" "$s" "$f"
done
passed=$(cat "$work"/rows/*.tsv | awk -F'\t' '$4=="PASS"||$4=="WARN"' | wc -l)
failed=$(cat "$work"/rows/*.tsv | awk -F'\t' '$4=="FAIL"' | wc -l)
timedout=$(cat "$work"/rows/*.tsv | awk -F'\t' '$4=="TIMEOUT"' | wc -l)
skipped=$(cat "$work"/rows/*.tsv | awk -F'\t' '$4=="SKIP"' | wc -l)
warned=$(cat "$work"/rows/*.tsv | awk -F'\t' '$4=="WARN"' | wc -l)
echo "logs: $work/logs; ${warned} WARN rows counted as passed;" \
  "$(( $(date +%s) - start ))s in all"
if [ "${TIMEOUT_FAILS:-0}" = 1 ]; then
  failed=$((failed + timedout))
fi
echo "$passed passed, $failed failed, $timedout timed out, $skipped skipped"
[ "$failed" = 0 ]

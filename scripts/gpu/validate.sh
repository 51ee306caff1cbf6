#!/bin/bash
# Runs on the GPU machine: builds the runtime (no MLIR needed), runs every
# bundle under BUNDLES_DIR at M in {128, 1000, 4096} with ff-run --check
# --bench, then compute-sanitizer memcheck/racecheck/synccheck on each bundle
# at the smallest M it serves, the runtime's unit tests when gtest is
# installed, and the Python GPU tests when PyTorch is. Prints a table last.
#
# usage: scripts/gpu/validate.sh [BUNDLES_DIR] [BUILD_DIR]
#   env: BENCH (default 50 timed batches), MS ("128 1000 4096"; "static":
#        each bundle at its own static M), SANITIZE=0
#        to skip compute-sanitizer, SANITIZE_ONLY=REGEX to sanitize only the
#        bundles whose directory name matches, CHECK=0 to time without the
#        reference check (its host fp64 reference takes seconds per large
#        chain; the fidelity sweep times hundreds of candidate plans),
#        EXTRAS=0 to skip the negative control, unit and Python tests
# Exit status: 0 when nothing failed.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
bundles=${1:-$root/scripts/gpu/bundles}
build=${2:-$root/build-gpu}
bench=${BENCH:-50}
ms=${MS:-"128 1000 4096"}

. "$root/scripts/gpu/build-runtime.sh" "$root" "$build"

rows=()
fail=0
field() { sed -n "s/.*$1=\([^ ]*\).*/\1/p" <<<"$2" | tail -1; }
for manifest in $(find "$bundles" -name manifest.json | sort); do
  b=$(dirname "$manifest"); name=$(basename "$b")
  for m in $ms; do
    echo "== $name M=$m"
    mflag=(--m "$m")
    [ "$m" = static ] && mflag=()
    cflag=(--check)
    [ "${CHECK:-1}" = 0 ] && cflag=()
    # A hung kernel (e.g. a broken barrier protocol) must not stop the run.
    out=$(timeout "${RUN_TIMEOUT:-120}" "$ffrun" "$b" "${mflag[@]}" \
      "${cflag[@]}" --bench "$bench" 2>&1); rc=$?
    echo "$out"
    res=$(grep '^RESULT' <<<"$out")
    case $rc in
      0) st=PASS ;;
      5) st=SKIP ;;
      124) st=TIMEOUT; fail=1 ;;
      *) st="FAIL($rc)"; fail=1 ;;
    esac
    rows+=("$(printf '%-22s %-6s %-9s %-8s %-11s %-11s %s' "$name" "$m" \
      "ff-run" "$st" "$(field rel_l2 "$res")" "$(field max_rel "$res")" \
      "$(field median_us "$res")")")
  done
  if [ "${SANITIZE:-1}" = 1 ] && command -v compute-sanitizer >/dev/null \
      && [[ $name =~ ${SANITIZE_ONLY:-.} ]]; then
    msan=$(for m in $ms; do
      mflag=(--m "$m"); [ "$m" = static ] && mflag=()
      "$ffrun" "$b" "${mflag[@]}" >/dev/null 2>&1 && { echo "$m"; break; }
    done)
    [ -z "$msan" ] && continue
    msanflag=(--m "$msan"); [ "$msan" = static ] && msanflag=()
    for tool in memcheck racecheck synccheck; do
      echo "== $name M=$msan compute-sanitizer --tool $tool"
      out=$(timeout 600 compute-sanitizer --tool "$tool" --error-exitcode 9 \
        "$ffrun" "$b" "${msanflag[@]}" 2>&1); rc=$?
      tail -4 <<<"$out"
      if [ $rc = 0 ]; then st=PASS; else st="FAIL($rc)"; fail=1; fi
      rows+=("$(printf '%-22s %-6s %-9s %-8s' "$name" "$msan" "$tool" "$st")")
    done
  fi
done

# Negative control: the same kernel with its weight declared transposed
# ("nk") must fail --check, or the check proves nothing.
neg=$(mktemp -d)
first=$(find "$bundles" -name manifest.json | sort | head -1)
[ "${EXTRAS:-1}" = 0 ] && first=
if [ -n "$first" ] && PYTHONPATH=$root/python python3 - "$(dirname "$first")" \
    "$neg/nk" <<'PY'
import json, os, sys
from flashfuser.bundle import read_bundle, write_bundle
m, _, files = read_bundle(sys.argv[1])
w = m["chain"]["inputs"][1]
if w["shape"][0] != w["shape"][1]:
    sys.exit(1)  # needs a square weight to stay shape-compatible
w["layout"] = "nk"
write_bundle(sys.argv[2], m, files)
PY
then
  mneg=$(for m in $ms; do "$ffrun" "$neg/nk" --m "$m" >/dev/null 2>&1 \
    && { echo "$m"; break; }; done)
  echo "== negative control ($(basename "$(dirname "$first")") as nk, M=$mneg)"
  out=$("$ffrun" "$neg/nk" --m "$mneg" --check 2>&1); rc=$?
  grep -E '^check:' <<<"$out"
  if [ $rc = 1 ]; then st=PASS; else st="FAIL($rc)"; fail=1; fi
  rows+=("$(printf '%-22s %-6s %-9s %-8s %s' negative-control "$mneg" \
    "ff-run" "$st" "(expects the check to fail)")")
fi
rm -rf "$neg"

if [ "${EXTRAS:-1}" != 0 ] && [ -x "$build/test/Unit/Runtime/FFRuntimeTests" ]; then
  echo "== runtime unit tests"
  if "$build/test/Unit/Runtime/FFRuntimeTests" --gtest_brief=1; then st=PASS
  else st=FAIL; fail=1; fi
  rows+=("$(printf '%-22s %-6s %-9s %-8s' FFRuntimeTests - gtest "$st")")
fi
if [ "${EXTRAS:-1}" != 0 ] && \
    python3 -c 'import torch, pytest; assert torch.cuda.is_available()' \
    2>/dev/null; then
  echo "== python tests (GPU)"
  # The Python GPU tests use the committed probe bundles, whatever BUNDLES_DIR.
  if FLASHFUSER_RUNTIME_LIB=$build/lib/libffrt.so \
     FLASHFUSER_TEST_BUNDLES=$root/scripts/gpu/bundles \
      python3 -m pytest -q "$root/python/tests"; then st=PASS
  else st=FAIL; fail=1; fi
  rows+=("$(printf '%-22s %-6s %-9s %-8s' python/tests - pytest "$st")")
fi

echo
printf '%-22s %-6s %-9s %-8s %-11s %-11s %s\n' bundle M check status \
  rel_l2 max_rel median_us
for r in "${rows[@]}"; do echo "$r"; done
exit $fail

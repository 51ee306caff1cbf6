#!/usr/bin/env bash
# README command 2: installs what is missing, builds, and runs every test
# (lit + gtest through check-ff's suites, pytest, the find_package consumer).
# Prints one closing line "N passed, N failed, N skipped"; exits non-zero on
# any failure.
#
#   scripts/test.sh [--fuzz SECONDS]
#
# --fuzz SECONDS (or FF_FUZZ_SECONDS) adds one more test: scripts/fuzz.sh
# builds the ASan + libFuzzer ff-fuzz in ./build-fuzz (or $FF_FUZZ_BUILD_DIR,
# reused across runs) and fuzzes for SECONDS; it fails on any new crash,
# timeout or OOM. .ci/run passes it; the default (0) skips fuzzing.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
build="${FF_BUILD_DIR:-$root/build}"
export FF_BUILD_DIR="$build"
fuzz_seconds="${FF_FUZZ_SECONDS:-0}"
while [ $# -gt 0 ]; do
  case $1 in
    --fuzz) fuzz_seconds="${2:-}"; shift 2 || shift ;;
    --fuzz=*) fuzz_seconds="${1#--fuzz=}"; shift ;;
    *) echo "usage: scripts/test.sh [--fuzz SECONDS]" >&2; exit 2 ;;
  esac
done
case $fuzz_seconds in
  ''|*[!0-9]*) echo "test: --fuzz needs a number of seconds" >&2; exit 2 ;;
esac

step() { echo "== $*"; }

step "bootstrap"
bash scripts/bootstrap.sh || { echo "test: bootstrap failed"; exit 1; }
step "build"
bash scripts/build.sh || { echo "test: build failed"; exit 1; }

results="$build/test-results"
rm -rf "$results" && mkdir -p "$results"
lit="$(llvm-config-22 --bindir)/lit"

step "lit (regression + unit tests)"
"$lit" -sv "$build/test" "$build/test/Unit" \
  --xunit-xml-output="$results/lit.xml" || true

if [ -d python/tests ]; then
  step "pytest"
  # The Debian python3 gets pytest from bootstrap's python3-pytest; a python3
  # earlier on PATH (pyenv, venv) may lack it.
  py=""
  for cand in python3 /usr/bin/python3; do
    if "$cand" -c "import pytest" 2>/dev/null; then py="$cand"; break; fi
  done
  if [ -z "$py" ]; then
    echo "test: no python3 with pytest found"
    python3 scripts/junit.py "$results/pytest.xml" pytest-missing fail
  else
    FLASHFUSER_BUILD_DIR="$build" PYTHONPATH="$root/python${PYTHONPATH:+:$PYTHONPATH}" \
      "$py" -m pytest -q python/tests --junitxml="$results/pytest.xml" || true
  fi
fi

step "find_package(FlashFuser) consumer"
if bash scripts/test-consumer.sh >"$results/consumer.log" 2>&1; then
  python3 scripts/junit.py "$results/consumer.xml" consumer pass
else
  cat "$results/consumer.log"
  python3 scripts/junit.py "$results/consumer.xml" consumer fail
fi

if [ "$fuzz_seconds" -gt 0 ]; then
  step "fuzz (${fuzz_seconds}s, scripts/fuzz.sh)"
  # The whole log is kept; the finding lines and the verdict are shown.
  fuzz_start=$SECONDS
  if bash scripts/fuzz.sh "$fuzz_seconds" >"$results/fuzz.log" 2>&1; then
    python3 scripts/junit.py "$results/fuzz.xml" fuzz pass
  else
    grep -E '^(fuzz:|==[0-9]+==ERROR|SUMMARY:)|^ +#[0-9]+ ' \
      "$results/fuzz.log" | head -60
    python3 scripts/junit.py "$results/fuzz.xml" fuzz fail
  fi
  grep '^fuzz: \(PASS\|FAIL\)' "$results/fuzz.log" ||
    tail -5 "$results/fuzz.log"
  echo "fuzz step: $((SECONDS - fuzz_start))s (build + fuzzing)"
fi

python3 scripts/summarize-tests.py "$results"/*.xml

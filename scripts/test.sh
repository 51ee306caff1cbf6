#!/usr/bin/env bash
# README command 2: installs what is missing, builds, and runs every test
# (lit + gtest through check-ff's suites, pytest, the find_package consumer).
# Prints one closing line "N passed, N failed, N skipped"; exits non-zero on
# any failure.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
build="${FF_BUILD_DIR:-$root/build}"
export FF_BUILD_DIR="$build"

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

python3 scripts/summarize-tests.py "$results"/*.xml

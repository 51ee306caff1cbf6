#!/usr/bin/env bash
# README command 1: installs what is missing, builds, and runs the main job on
# the shipped example (test/Examples/ffn.mlir, an FFN chain in linalg) through
#   ff-opt --dsm-fuse --dsm-search --lower-to-nvvm
# then prints a short summary. Stages not yet built into ff-opt are reported
# and skipped. Usage: scripts/run-example.sh [INPUT.mlir]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
export FF_BUILD_DIR="${FF_BUILD_DIR:-$root/build}"
input="${1:-$root/test/Examples/ffn.mlir}"

bash scripts/bootstrap.sh
bash scripts/build.sh
ffopt="$FF_BUILD_DIR/bin/ff-opt"
out="$FF_BUILD_DIR/example"
rm -rf "$out" && mkdir -p "$out"

# Read --help once: grep -q closing a pipe early would fail under pipefail.
help="$("$ffopt" --help)"
has_pass() { grep -q -- "--$1\b" <<<"$help"; }
run_stage() { # name flag in out
  local name=$1 flag=$2 in=$3 dst=$4
  if ! has_pass "${flag%%=*}"; then
    echo "stage $name: --${flag%%=*} is not in this ff-opt yet; stopping here"
    return 1
  fi
  "$ffopt" "$in" "--$flag" -o "$dst" \
    || { echo "stage $name failed: $ffopt $in --$flag" >&2; exit 1; }
  echo "stage $name: ok ($dst)"
}

args=(--input "$input")
cur="$input"
if run_stage fuse dsm-fuse "$cur" "$out/1-fused.mlir"; then
  cur="$out/1-fused.mlir"; args+=(--fused "$cur")
  if run_stage search dsm-search "$cur" "$out/2-planned.mlir"; then
    cur="$out/2-planned.mlir"; args+=(--planned "$cur")
    if run_stage lower "lower-to-nvvm=emit-bundle=$out/bundle" "$cur" "$out/3-lowered.mlir"; then
      args+=(--lowered "$out/3-lowered.mlir" --bundle "$out/bundle")
    fi
  fi
fi
python3 scripts/pipeline-summary.py "${args[@]}"

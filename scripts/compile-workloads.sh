#!/usr/bin/env bash
# Compiles every FlashFuser paper workload (G1-G10, S1-S8, C1-C8 at batch 1
# and 32) and the G5/S3 M sweep into one kernel bundle per workload,
# OUTDIR/<name>/ (manifest.json, PTX and cubins: the GPU machine needs no
# JIT), checks every kernel (PTX instructions, ptxas -v without spills) and
# prints name | plan cluster | block | smem | regs | spills | status.
# Exit status 1 if any workload does not compile. See
# scripts/compile-workloads.py for options (--ff-opt, --ptxas, --only).
#
# usage: scripts/compile-workloads.sh OUTDIR [options]
set -euo pipefail
if [[ $# -lt 1 ]]; then
  echo "usage: $0 OUTDIR [--ff-opt PATH] [--ptxas PATH] [--only NAMES]" >&2
  exit 2
fi
exec python3 "$(dirname "$0")/compile-workloads.py" "$@"

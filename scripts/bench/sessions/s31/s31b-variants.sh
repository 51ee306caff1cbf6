#!/bin/bash
# Thirty-first session, on the machine with the compiler: the bundles
# s31b.sh times (.device/s31b). With 3x3 convolutions in TMA im2col mode,
# split K is open to their GEMM kernels: C8-b32's and C7-b32's first
# sequence kernel with the searched schedule (base) and split-K schedules
# set by hand, lowered with --lower-to-nvvm; and C6-b32's five best-ranked
# fused plans (compile-workloads.py --ranks 5).
# usage: scripts/bench/sessions/s31/s31b-variants.sh
set -eu
ffopt=${FF_OPT:-build/bin/ff-opt}
rm -rf .device/s31b && mkdir -p .device/s31b
gen() { python3 scripts/bench/sessions/s31/gen-linalg.py "$1"; }
# variant: cluster | block | grid | order spatial | stages | collectives
variants() {
  local w=$1 orig=$2; shift 2
  gen $w > /tmp/$w.mlir
  $ffopt /tmp/$w.mlir --dsm-fuse --dsm-search -o /tmp/$w-s.mlir
  grep -q "$orig" /tmp/$w-s.mlir
  for spec in "$@"; do
    IFS='|' read -r v cl blk grd sp st co <<< "$spec"
    sed "s/$orig/cluster = [$cl], block = [$blk, 16], grid = [$grd, 1, 1], order = [m, n, k, l], spatial = [$sp], residency = [], collectives = [$co], stages = $st/" \
      /tmp/$w-s.mlir > /tmp/$w-$v.mlir
    $ffopt /tmp/$w-$v.mlir --lower-to-nvvm="format=bin emit-bundle=.device/s31b/$w-$v" -o /dev/null
  done
}
variants C8-b32 'cluster = \[1, 1, 1, 1\], block = \[64, 128, 64, 16\], grid = \[25, 4, 1, 1\], order = \[m, n, k, l\], spatial = \[m, n\], residency = \[\], collectives = \[\], stages = 8' \
  "base|1, 1, 1, 1|64, 128, 64|25, 4|m, n|8|" \
  "k2|1, 1, 2, 1|128, 128, 2304|13, 4|m, n, k|4|all_exchange" \
  "k2s6|1, 1, 2, 1|128, 128, 2304|13, 4|m, n, k|6|all_exchange" \
  "k4|1, 1, 4, 1|128, 256, 1152|13, 2|m, n, k|4|all_exchange" \
  "k4n128|1, 1, 4, 1|128, 128, 1152|13, 4|m, n, k|4|all_exchange" \
  "k2m64|1, 1, 2, 1|64, 128, 2304|25, 4|m, n, k|4|all_exchange"
variants C7-b32 'cluster = \[1, 1, 1, 1\], block = \[128, 128, 64, 16\], grid = \[49, 2, 1, 1\], order = \[m, n, k, l\], spatial = \[m, n\], residency = \[\], collectives = \[\], stages = 7' \
  "base|1, 1, 1, 1|128, 128, 64|49, 2|m, n|7|" \
  "k2|1, 1, 2, 1|128, 128, 1152|49, 2|m, n, k|4|all_exchange" \
  "n256|1, 1, 1, 1|128, 256, 64|49, 1|m, n|4|"
PATH=$PWD/build/bin:$PATH python3 scripts/compile-workloads.py .device/s31b \
  --weight-layout nk --only C6-b32 --ranks 5 --jobs 2

#!/bin/bash
# Thirty-first session, on the machine with the compiler: the bundles
# s31j.sh times (.device/s31j). A multicast along n for C8-b32's and
# C7-b32's 3x3 GEMM (their first sequence kernel): a cluster of two CTAs
# along n shares each k tile of A (TMA im2col loads, each CTA loading half
# the tile's pixels into both), set by hand beside the searched schedule
# (base), lowered with --lower-to-nvvm.
# usage: scripts/bench/sessions/s31/s31j-variants.sh
set -eu
ffopt=${FF_OPT:-build/bin/ff-opt}
rm -rf .device/s31j && mkdir -p .device/s31j
gen() { python3 scripts/bench/sessions/s31/gen-linalg.py "$1"; }
# variant | cluster | block (m, n) | grid (m, n) | stages
variants() {
  local w=$1 orig=$2; shift 2
  gen $w > /tmp/$w.mlir
  $ffopt /tmp/$w.mlir --dsm-fuse --dsm-search -o /tmp/$w-s.mlir
  grep -q "$orig" /tmp/$w-s.mlir
  for spec in "$@"; do
    IFS='|' read -r v cl blk grd st <<< "$spec"
    sed "s/$orig/cluster = [$cl], block = [$blk, 64, 16], grid = [$grd, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [], stages = $st/" \
      /tmp/$w-s.mlir > /tmp/$w-$v.mlir
    $ffopt /tmp/$w-$v.mlir --lower-to-nvvm="format=bin emit-bundle=.device/s31j/$w-$v" -o /dev/null
  done
}
variants C8-b32 'cluster = \[1, 1, 1, 1\], block = \[64, 128, 64, 16\], grid = \[25, 4, 1, 1\], order = \[m, n, k, l\], spatial = \[m, n\], residency = \[\], collectives = \[\], stages = 8' \
  "base|1, 1, 1, 1|64, 128|25, 4|8" "mc64x128|1, 2, 1, 1|64, 128|25, 2|8" \
  "mc128x128|1, 2, 1, 1|128, 128|13, 2|6" "mc128x256|1, 2, 1, 1|128, 256|13, 1|4" \
  "mc64x256|1, 2, 1, 1|64, 256|25, 1|5"
variants C7-b32 'cluster = \[1, 1, 1, 1\], block = \[128, 128, 64, 16\], grid = \[49, 2, 1, 1\], order = \[m, n, k, l\], spatial = \[m, n\], residency = \[\], collectives = \[\], stages = 7' \
  "base|1, 1, 1, 1|128, 128|49, 2|7" "mc128x128|1, 2, 1, 1|128, 128|49, 1|6" \
  "mc64x128|1, 2, 1, 1|64, 128|98, 1|8"

#!/bin/bash
# Thirty-first session, on the machine with the compiler: the bundles
# s31l.sh times (.device/s31l). B multicast along m: a GEMM cluster of
# clusterM consecutive m tiles of one n tile, each CTA loading 1/clusterM
# of every k tile of B into all of them (KernelPlan::bMulticast). C8-b32's
# and C7-b32's first sequence kernel (3x3 GEMM, image-row tiles) and
# C8-b32's second (1x1 GEMM, 13 m tiles: one CTA of the last cluster past
# M) with the searched schedule's cluster set to [2, 1, 1, 1] by hand,
# lowered with --lower-to-nvvm, beside the searched schedule (base).
# usage: scripts/bench/sessions/s31/s31l-variants.sh
set -eu
ffopt=${FF_OPT:-build/bin/ff-opt}
rm -rf .device/s31l && mkdir -p .device/s31l
gen() { python3 scripts/bench/sessions/s31/gen-linalg.py "$1"; }
tail='order = \[m, n, k, l\], spatial = \[m, n\], residency = \[\], collectives = \[\]'
# variant | sed expression on the searched IR
variants() {
  local w=$1; shift
  gen $w > /tmp/$w.mlir
  $ffopt /tmp/$w.mlir --dsm-fuse --dsm-search -o /tmp/$w-s.mlir
  for spec in "$@"; do
    IFS='|' read -r v expr <<< "$spec"
    sed -E "$expr" /tmp/$w-s.mlir > /tmp/$w-$v.mlir
    [ "$v" = base ] || ! cmp -s /tmp/$w-s.mlir /tmp/$w-$v.mlir
    $ffopt /tmp/$w-$v.mlir --lower-to-nvvm="format=bin emit-bundle=.device/s31l/$w-$v" -o /dev/null
  done
}
s0c8="cluster = \[1, 1, 1, 1\], block = \[64, 128, 64, 16\], grid = \[25, 4, 1, 1\], $tail, stages = 8"
s1c8="cluster = \[1, 1, 1, 1\], block = \[128, 256, 64, 16\], grid = \[13, 8, 1, 1\], $tail, stages = 4"
variants C8-b32 "base|s/x/x/" \
  "m2|s/$s0c8/cluster = [2, 1, 1, 1], block = [64, 128, 64, 16], grid = [13, 4, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [], stages = 8/" \
  "m2s1|s/$s0c8/cluster = [2, 1, 1, 1], block = [64, 128, 64, 16], grid = [13, 4, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [], stages = 8/;s/$s1c8/cluster = [2, 1, 1, 1], block = [128, 256, 64, 16], grid = [7, 8, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [], stages = 4/" \
  "m2w|s/$s0c8/cluster = [2, 1, 1, 1], block = [64, 256, 64, 16], grid = [13, 2, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [], stages = 5/" \
  "m4w|s/$s0c8/cluster = [4, 1, 1, 1], block = [64, 256, 64, 16], grid = [7, 2, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [], stages = 5/"
s0c7="cluster = \[1, 1, 1, 1\], block = \[128, 128, 64, 16\], grid = \[49, 2, 1, 1\], $tail, stages = 7"
variants C7-b32 "base|s/x/x/" \
  "m2|s/$s0c7/cluster = [2, 1, 1, 1], block = [128, 128, 64, 16], grid = [25, 2, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [], stages = 7/" \
  "m2w|s/$s0c7/cluster = [2, 1, 1, 1], block = [128, 256, 64, 16], grid = [25, 1, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [], stages = 4/"

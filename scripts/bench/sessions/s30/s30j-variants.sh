#!/bin/bash
# Thirtieth session, on the machine with the compiler: the bundles s30j.sh
# times. C8-b32 searched (C3/C4/C7/C8 sequences, commit 6ba7532), then the
# first sequence kernel's schedule (the search's 64x128 at 8 stages)
# replaced by hand and lowered: .device/s30j/C8-b32-VARIANT.
# usage: scripts/bench/sessions/s30/s30j-variants.sh C8-b32.mlir
#   (C8-b32.mlir: compile-workloads.py's linalg_text of C8-b32, nk weights)
set -eu
src=$1
ffopt=${FF_OPT:-build/bin/ff-opt}
$ffopt "$src" --dsm-fuse --dsm-search -o /tmp/c8s.mlir
rm -rf .device/s30j && mkdir -p .device/s30j
orig='block = \[64, 128, 64, 16\], grid = \[25, 4, 1, 1\], order = \[m, n, k, l\], spatial = \[m, n\], residency = \[\], collectives = \[\], stages = 8'
for spec in "base|64, 128|25, 4|8" "a|128, 64|13, 8|8" "b|128, 64|13, 8|6" \
            "c|128, 128|13, 4|6" "d|64, 64|25, 8|8" "e|128, 128|13, 4|4" \
            "f|64, 128|25, 4|6"; do
  IFS='|' read -r v blk grd st <<< "$spec"
  sed "s/$orig/block = [$blk, 64, 16], grid = [$grd, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [], stages = $st/" \
    /tmp/c8s.mlir > /tmp/c8-$v.mlir
  grep -q "block = \[$blk, 64, 16\], grid = \[$grd" /tmp/c8-$v.mlir
  $ffopt /tmp/c8-$v.mlir --lower-to-nvvm="format=bin emit-bundle=.device/s30j/C8-b32-$v" -o /dev/null
done

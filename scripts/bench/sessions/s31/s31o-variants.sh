#!/bin/bash
# Thirty-first session, on the machine with the compiler: the bundles
# s31o.sh times (.device/s31o). A single GEMM's 128-row image-row tile as
# two row groups, one per consumer warpgroup (KernelPlan::convRowsPerWg:
# a 7x7 image each, 98 of 128 rows, where the tile held one image): C8-b32's
# first sequence kernel (3x3 GEMM) at 128-row tiles set by hand, lowered
# with --lower-to-nvvm, beside the searched 64 x 128 (base).
# Built with s31o-rows-per-wg.patch applied (`git apply`; not committed:
# no variant beat the searched tiles, docs/validation.md).
# usage: scripts/bench/sessions/s31/s31o-variants.sh
set -eu
ffopt=${FF_OPT:-build/bin/ff-opt}
rm -rf .device/s31o && mkdir -p .device/s31o
w=C8-b32
python3 scripts/bench/sessions/s31/gen-linalg.py $w > /tmp/$w.mlir
$ffopt /tmp/$w.mlir --dsm-fuse --dsm-search -o /tmp/$w-s.mlir
orig='block = \[64, 128, 64, 16\], grid = \[25, 4, 1, 1\], order = \[m, n, k, l\], spatial = \[m, n\], residency = \[\], collectives = \[\], stages = 8'
grep -q "$orig" /tmp/$w-s.mlir
for spec in "base|64, 128|25, 4|8" "m128n64s8|128, 64|13, 8|8" "m128n64s6|128, 64|13, 8|6" \
            "m128n128s6|128, 128|13, 4|6" "m128n128s4|128, 128|13, 4|4"; do
  IFS='|' read -r v blk grd st <<< "$spec"
  sed "s/$orig/block = [$blk, 64, 16], grid = [$grd, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [], stages = $st/" \
    /tmp/$w-s.mlir > /tmp/$w-$v.mlir
  $ffopt /tmp/$w-$v.mlir --lower-to-nvvm="format=bin emit-bundle=.device/s31o/$w-$v" -o /dev/null
done

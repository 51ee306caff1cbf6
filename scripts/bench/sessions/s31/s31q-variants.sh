#!/bin/bash
# Thirty-first session, on the machine with the compiler: the bundles
# s31q.sh times (.device/s31q). C8-b32's 3x3 GEMM (its first sequence kernel) with the streamed halo
# (--lower-to-nvvm=conv-halo-gemm=true: each consumer warpgroup's 9 x 9
# halo of a 7x7 image loaded once per 64 channels, B streamed per tap) at
# 64 x 64 and 128 x 64, beside the searched 64 x 128 (base) and the same
# tiles without the halo.
set -eu
ffopt=${FF_OPT:-build/bin/ff-opt}
rm -rf .device/s31q && mkdir -p .device/s31q
w=C8-b32
python3 scripts/bench/sessions/s31/gen-linalg.py $w > /tmp/$w.mlir
$ffopt /tmp/$w.mlir --dsm-fuse --dsm-search -o /tmp/$w-s.mlir
orig='block = \[64, 128, 64, 16\], grid = \[25, 4, 1, 1\], order = \[m, n, k, l\], spatial = \[m, n\], residency = \[\], collectives = \[\], stages = 8'
grep -q "$orig" /tmp/$w-s.mlir
for spec in "base|64, 128|25, 4|8|false" "m64n64|64, 64|25, 8|8|false" "m128n64|128, 64|13, 8|8|false" \
            "halo64|64, 64|25, 8|2|true" "halo128|128, 64|13, 8|2|true"; do
  IFS='|' read -r v blk grd st halo <<< "$spec"
  sed "s/$orig/block = [$blk, 64, 16], grid = [$grd, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [], stages = $st/" \
    /tmp/$w-s.mlir > /tmp/$w-$v.mlir
  $ffopt /tmp/$w-$v.mlir --lower-to-nvvm="format=bin emit-bundle=.device/s31q/$w-$v conv-halo-gemm=$halo" -o /dev/null
done

#!/bin/bash
# Thirty-first session, on the machine with the compiler: the bundles
# s31d.sh times (.device/s31d). Built with ff::usesConvImageRows patched to
# a row-use threshold (whole image rows only where they fill 3/4 of the
# tile: `4 * getConvTileImageRows(h, w, bm) * w >= 3 * bm`, not committed:
# every variant lost), so that the
# 128-row tiles of C8-b32's 7x7 images (49 of 128 rows as image rows) and
# the 64-row tiles of C7-b32's 14x14 ones (28 of 64) become dense im2col
# tiles. The first sequence kernel's schedule set by hand, lowered with
# --lower-to-nvvm, beside the searched one (base).
# usage: scripts/bench/sessions/s31/s31d-variants.sh
set -eu
ffopt=${FF_OPT:-build/bin/ff-opt}
rm -rf .device/s31d && mkdir -p .device/s31d
gen() { python3 scripts/bench/sessions/s31/gen-linalg.py "$1"; }
# variant | block (m, n) | grid (m, n) | stages
variants() {
  local w=$1 orig=$2; shift 2
  gen $w > /tmp/$w.mlir
  $ffopt /tmp/$w.mlir --dsm-fuse --dsm-search -o /tmp/$w-s.mlir
  grep -q "$orig" /tmp/$w-s.mlir
  for spec in "$@"; do
    IFS='|' read -r v blk grd st <<< "$spec"
    sed "s/$orig/cluster = [1, 1, 1, 1], block = [$blk, 64, 16], grid = [$grd, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [], stages = $st/" \
      /tmp/$w-s.mlir > /tmp/$w-$v.mlir
    $ffopt /tmp/$w-$v.mlir --lower-to-nvvm="format=bin emit-bundle=.device/s31d/$w-$v" -o /dev/null
  done
}
variants C8-b32 'cluster = \[1, 1, 1, 1\], block = \[64, 128, 64, 16\], grid = \[25, 4, 1, 1\], order = \[m, n, k, l\], spatial = \[m, n\], residency = \[\], collectives = \[\], stages = 8' \
  "base|64, 128|25, 4|8" "m128n64s8|128, 64|13, 8|8" "m128n64s6|128, 64|13, 8|6" \
  "m128n128s4|128, 128|13, 4|4" "m128n128s6|128, 128|13, 4|6" "m128n256s4|128, 256|13, 2|4"
variants C7-b32 'cluster = \[1, 1, 1, 1\], block = \[128, 128, 64, 16\], grid = \[49, 2, 1, 1\], order = \[m, n, k, l\], spatial = \[m, n\], residency = \[\], collectives = \[\], stages = 7' \
  "base|128, 128|49, 2|7" "m64n128s8|64, 128|98, 2|8" "m64n256s5|64, 256|98, 1|5" "m128n256s4|128, 256|49, 1|4"

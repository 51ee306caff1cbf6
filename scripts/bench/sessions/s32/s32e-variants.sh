#!/bin/bash
# Thirty-second session, on the machine with the compiler: the bundles
# s32e.sh times (.device/s32e). Other clusters along m for the two
# sequences whose 3x3 GEMM the search now runs with the streamed halo:
# C8-b32 at 128 x 64 in clusters of 4 (m4) beside the default (def,
# clusters of 2); C6-b1 (28x28, 28 CTAs at the default 64 x 64) in
# clusters of 2 (m2), at 128 x 64 (n64w) and 128 x 64 in clusters of 2
# (n64wm2).
set -eu
ffopt=${FF_OPT:-build/bin/ff-opt}
rm -rf .device/s32e && mkdir -p .device/s32e
first='sequence = \[#dsm.schedule<cluster = \[[0-9, ]*\], block = \[[0-9, ]*\], grid = \[[0-9, ]*\], order = \[m, n, k, l\], spatial = \[m, n\], residency = \[\], collectives = \[\], stages = [0-9]*'
variants() {
  local w=$1; shift
  python3 scripts/bench/sessions/s31/gen-linalg.py $w > /tmp/$w.mlir
  $ffopt /tmp/$w.mlir --dsm-fuse --dsm-search -o /tmp/$w-s.mlir
  grep -Eq "$first" /tmp/$w-s.mlir
  $ffopt /tmp/$w-s.mlir --lower-to-nvvm="format=bin emit-bundle=.device/s32e/$w-def" -o /dev/null
  # variant | cluster m | block m, n | grid
  for spec in "$@"; do
    IFS="|" read -r v cm blk grd <<< "$spec"
    sed -E "s/$first/sequence = [#dsm.schedule<cluster = [$cm, 1, 1, 1], block = [$blk, 64, 16], grid = [$grd, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [], stages = 4/" \
      /tmp/$w-s.mlir > /tmp/$w-$v.mlir
    $ffopt /tmp/$w-$v.mlir --lower-to-nvvm="format=bin emit-bundle=.device/s32e/$w-$v" -o /dev/null
  done
}
variants C8-b32 "m4|4|128, 64|4, 8"
variants C6-b1 "m2|2|64, 64|7, 2" "n64w|1|128, 64|7, 2" "n64wm2|2|128, 64|4, 2"

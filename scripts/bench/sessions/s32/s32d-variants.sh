#!/bin/bash
# Thirty-second session, on the machine with the compiler: the bundles
# s32d.sh times (.device/s32d). C7-b32 (14x14 images) once the streamed
# halo takes row groups that do not divide H (4, 4, 4, 2 rows of 16
# pixels): the search's new plan (new: its 3x3 GEMM at 128 x 128 with the
# halo in clusters of two m tiles), the thirty-first session's (old:
# .device/s31c), and the first sequence kernel set by hand: the halo at
# 128 x 128 alone (h128), at 128 x 64 in clusters of two (h64m2), and
# the new schedule with conv-halo-gemm=false (nohalo).
set -eu
ffopt=${FF_OPT:-build/bin/ff-opt}
rm -rf .device/s32d && mkdir -p .device/s32d
w=C7-b32
cp -r .device/s31c/$w .device/s32d/$w-old
python3 scripts/bench/sessions/s31/gen-linalg.py $w > /tmp/$w.mlir
$ffopt /tmp/$w.mlir --dsm-fuse --dsm-search -o /tmp/$w-s.mlir
first='sequence = \[#dsm.schedule<cluster = \[[0-9, ]*\], block = \[[0-9, ]*\], grid = \[[0-9, ]*\], order = \[m, n, k, l\], spatial = \[m, n\], residency = \[\], collectives = \[\], stages = [0-9]*'
grep -Eq "$first" /tmp/$w-s.mlir
$ffopt /tmp/$w-s.mlir --lower-to-nvvm="format=bin emit-bundle=.device/s32d/$w-new" -o /dev/null
# variant | cluster m | block m, n | grid | conv-halo-gemm | stages
for spec in "h128|1|128, 128|49, 2|true|4" "h64m2|2|128, 64|25, 4|true|4" \
            "nohalo|2|128, 128|25, 2|false|7"; do
  IFS="|" read -r v cm blk grd halo st <<< "$spec"
  sed -E "s/$first/sequence = [#dsm.schedule<cluster = [$cm, 1, 1, 1], block = [$blk, 64, 16], grid = [$grd, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [], stages = $st/" \
    /tmp/$w-s.mlir > /tmp/$w-$v.mlir
  $ffopt /tmp/$w-$v.mlir --lower-to-nvvm="format=bin emit-bundle=.device/s32d/$w-$v conv-halo-gemm=$halo" -o /dev/null
done

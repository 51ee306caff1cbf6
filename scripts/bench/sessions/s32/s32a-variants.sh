#!/bin/bash
# Thirty-second session, on the machine with the compiler: the bundles
# s32a.sh times (.device/s32a). C8-b32's 3x3 GEMM (its first sequence
# kernel) with the streamed halo on two rings (--lower-to-nvvm=
# conv-halo-gemm=true: halo slots per 64 channels, tap slots per filter
# row) at 128 x 64, 64 x 64 and 128 x 128, alone and as a cluster of two
# m tiles sharing B by multicast (m2), beside the searched plan (base).
# s31q's one-ring halo at 128 x 64 (.device/s31q/C8-b32-halo128) runs
# beside them as halo1ring.
# usage: scripts/bench/sessions/s32/s32a-variants.sh
set -eu
ffopt=${FF_OPT:-build/bin/ff-opt}
rm -rf .device/s32a && mkdir -p .device/s32a
w=C8-b32
python3 scripts/bench/sessions/s31/gen-linalg.py $w > /tmp/$w.mlir
$ffopt /tmp/$w.mlir --dsm-fuse --dsm-search -o /tmp/$w-s.mlir
# The sequence's first schedule, whatever the search chose (since this
# session the clustered halo kernel), replaced by each variant's.
first='sequence = \[#dsm.schedule<cluster = \[[0-9, ]*\], block = \[[0-9, ]*\], grid = \[[0-9, ]*\], order = \[m, n, k, l\], spatial = \[m, n\], residency = \[\], collectives = \[\], stages = [0-9]*'
grep -Eq "$first" /tmp/$w-s.mlir
# variant | cluster m | block m, n | grid | conv-halo-gemm | stages (the halo
# GEMM sizes its own rings; the plan is checked at 128 x 128 first)
for spec in "base|1|64, 128|25, 4|false|8" "halo128|1|128, 64|13, 8|true|4" \
            "halo128m2|2|128, 64|7, 8|true|4" "halo64|1|64, 64|25, 8|true|4" \
            "halo64m2|2|64, 64|13, 8|true|4" "halo128n128|1|128, 128|13, 4|true|4" \
            "halo128n128m2|2|128, 128|7, 4|true|4"; do
  IFS="|" read -r v cm blk grd halo st <<< "$spec"
  sed -E "s/$first/sequence = [#dsm.schedule<cluster = [$cm, 1, 1, 1], block = [$blk, 64, 16], grid = [$grd, 1, 1], order = [m, n, k, l], spatial = [m, n], residency = [], collectives = [], stages = $st/" \
    /tmp/$w-s.mlir > /tmp/$w-$v.mlir
  $ffopt /tmp/$w-$v.mlir --lower-to-nvvm="format=bin emit-bundle=.device/s32a/$w-$v conv-halo-gemm=$halo" -o /dev/null
done
cp -r .device/s31q/C8-b32-halo128 .device/s32a/C8-b32-halo1ring

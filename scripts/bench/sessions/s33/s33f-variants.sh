#!/bin/bash
# Thirty-third session, on the machine with the compiler: the bundles
# s33f.sh times (.device/s33f). The batch-1 1x1 chains' sequence kernels
# (M = 49 and 196: a few dozen CTAs pulling 0.5-2 MB weights) split over
# more CTAs along k than the search's choice: C4-b1's first GEMM over 2
# and 4, its second at 64 x 128 over 8; C3-b1's first over 2, its second
# over 8.
set -eu
ffopt=${FF_OPT:-build/bin/ff-opt}
here=scripts/bench/sessions/s33
rm -rf .device/s33f && mkdir -p .device/s33f
S() {  # cluster m,n,k | block m,n,k | grid m,n | stages | collectives | spatial
  echo "#dsm.schedule<cluster = [$1, 1], block = [$2, 16], grid = [$3, 1, 1], order = [m, n, k, l], spatial = [$6], residency = [], collectives = [$5], stages = $4, cost_ns = 0>"
}
variants() {
  local w=$1; shift
  python3 scripts/bench/sessions/s31/gen-linalg.py $w > /tmp/$w.mlir
  $ffopt /tmp/$w.mlir --dsm-fuse --dsm-search -o /tmp/$w-s.mlir
  $ffopt /tmp/$w-s.mlir --lower-to-nvvm="format=bin emit-bundle=.device/s33f/$w-def" -o /dev/null
  for spec in "$@"; do
    IFS="|" read -r v i sched <<< "$spec"
    python3 $here/splice.py /tmp/$w-s.mlir $i "$sched" > /tmp/$w-$v.mlir
    $ffopt /tmp/$w-$v.mlir --lower-to-nvvm="format=bin emit-bundle=.device/s33f/$w-$v" -o /dev/null
  done
}
K='all_exchange'; MNK='m, n, k'
variants C4-b1 \
  "g1k2|0|$(S '1, 1, 2' '64, 64, 256' '1, 32' 4 $K "$MNK")" \
  "g1k4|0|$(S '1, 1, 4' '64, 64, 128' '1, 32' 4 $K "$MNK")" \
  "g2n128|1|$(S '1, 1, 8' '64, 128, 256' '1, 4' 4 $K "$MNK")"
variants C3-b1 \
  "g1k2|0|$(S '1, 1, 2' '64, 64, 128' '4, 16' 4 $K "$MNK")" \
  "g2k8|1|$(S '1, 1, 8' '64, 64, 128' '4, 4' 4 $K "$MNK")"
ls .device/s33f

#!/bin/bash
# Thirty-third session, on the machine with the compiler: the bundles
# s33g.sh times (.device/s33g). The down GEMMs of the weight-streaming
# sequences at M = 128 (S1: 8192 -> 3072 over 4 CTAs along k, 96 CTAs;
# G5: 16384 -> 4096 at 128 x 256 over 4, 64 CTAs) on more CTAs or deeper
# rings than the search's choice.
set -eu
ffopt=${FF_OPT:-build/bin/ff-opt}
here=scripts/bench/sessions/s33
rm -rf .device/s33g && mkdir -p .device/s33g
S() {  # cluster m,n,k | block m,n,k | grid m,n | stages | collectives | spatial
  echo "#dsm.schedule<cluster = [$1, 1], block = [$2, 16], grid = [$3, 1, 1], order = [m, n, k, l], spatial = [$6], residency = [], collectives = [$5], stages = $4, cost_ns = 0>"
}
variants() {
  local w=$1; shift
  python3 scripts/bench/sessions/s31/gen-linalg.py $w > /tmp/$w.mlir
  $ffopt /tmp/$w.mlir --dsm-fuse --dsm-search -o /tmp/$w-s.mlir
  $ffopt /tmp/$w-s.mlir --lower-to-nvvm="format=bin emit-bundle=.device/s33g/$w-def" -o /dev/null
  for spec in "$@"; do
    IFS="|" read -r v i sched <<< "$spec"
    python3 $here/splice.py /tmp/$w-s.mlir $i "$sched" > /tmp/$w-$v.mlir
    $ffopt /tmp/$w-$v.mlir --lower-to-nvvm="format=bin emit-bundle=.device/s33g/$w-$v" -o /dev/null || echo "$w-$v does not lower"
  done
}
K='all_exchange'; MNK='m, n, k'
variants S1 \
  "n64|1|$(S '1, 1, 4' '128, 64, 2048' '1, 48' 4 $K "$MNK")" \
  "m64|1|$(S '1, 1, 4' '64, 128, 2048' '2, 24' 4 $K "$MNK")" \
  "k8|1|$(S '1, 1, 8' '128, 128, 1024' '1, 24' 4 $K "$MNK")" \
  "st6|1|$(S '1, 1, 4' '128, 128, 2048' '1, 24' 6 $K "$MNK")"
variants G5 \
  "n128|1|$(S '1, 1, 4' '128, 128, 4096' '1, 32' 4 $K "$MNK")" \
  "n64|1|$(S '1, 1, 4' '128, 64, 4096' '1, 64' 4 $K "$MNK")"
ls .device/s33g

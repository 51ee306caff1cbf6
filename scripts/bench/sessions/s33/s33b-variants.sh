#!/bin/bash
# Thirty-third session, on the machine with the compiler: the bundles
# s33b.sh times (.device/s33b). The partial-wave GEMMs of the weakest
# chains in graphs, each sequence kernel set by hand to the search's next
# candidates of that GEMM (its single-GEMM ranking) and to clusters that
# share an operand: C4-b32 (M = 1568: 512 -> 2048 at 128 x 256 on 104 CTAs,
# 2048 -> 512 at 64 x 128 on 100 CTAs) and C3-b32's second GEMM (M = 6272,
# 1024 -> 256 at 128 x 128 on 98 CTAs).
set -eu
ffopt=${FF_OPT:-build/bin/ff-opt}
here=scripts/bench/sessions/s33
rm -rf .device/s33b && mkdir -p .device/s33b
S() {  # cluster m,n,k | block m,n,k | grid m,n | stages | collectives | spatial
  echo "#dsm.schedule<cluster = [$1, 1], block = [$2, 16], grid = [$3, 1, 1], order = [m, n, k, l], spatial = [$6], residency = [], collectives = [$5], stages = $4, cost_ns = 0>"
}
variants() {
  local w=$1; shift
  python3 scripts/bench/sessions/s31/gen-linalg.py $w > /tmp/$w.mlir
  $ffopt /tmp/$w.mlir --dsm-fuse --dsm-search -o /tmp/$w-s.mlir
  $ffopt /tmp/$w-s.mlir --lower-to-nvvm="format=bin emit-bundle=.device/s33b/$w-def" -o /dev/null
  for spec in "$@"; do
    IFS="|" read -r v i sched <<< "$spec"
    python3 $here/splice.py /tmp/$w-s.mlir $i "$sched" > /tmp/$w-$v.mlir
    $ffopt /tmp/$w-$v.mlir --lower-to-nvvm="format=bin emit-bundle=.device/s33b/$w-$v" -o /dev/null
  done
}
variants C4-b32 \
  "g1mcn|0|$(S '1, 2, 1' '128, 256, 64' '13, 4' 4 '' 'm, n')" \
  "g1mcm|0|$(S '2, 1, 1' '128, 256, 64' '7, 8' 4 '' 'm, n')" \
  "g1t128|0|$(S '1, 1, 1' '128, 128, 64' '13, 16' 7 '' 'm, n')" \
  "g2w64|1|$(S '1, 1, 1' '128, 64, 64' '13, 8' 8 '' 'm, n')" \
  "g2k2|1|$(S '1, 1, 2' '128, 128, 1024' '13, 4' 4 'all_exchange' 'm, n, k')" \
  "g2k4|1|$(S '1, 1, 4' '128, 256, 512' '13, 2' 4 'all_exchange' 'm, n, k')" \
  "g2mcm|1|$(S '2, 1, 1' '64, 128, 64' '13, 4' 8 '' 'm, n')"
variants C3-b32 \
  "g2t64|1|$(S '1, 1, 1' '64, 256, 64' '98, 1' 5 '' 'm, n')" \
  "g2k2|1|$(S '1, 1, 2' '128, 256, 512' '49, 1' 3 'all_exchange' 'm, n, k')" \
  "g2mcm|1|$(S '2, 1, 1' '128, 128, 64' '25, 2' 6 '' 'm, n')"
ls .device/s33b

#!/bin/bash
# Thirty-first session, on the machine with the compiler: the bundles
# s31g.sh times (.device/s31g). C5-b1 and C6-b1 stay fused under the
# search; with split K open to 3x3 GEMM kernels (TMA im2col mode), their
# chains as hand-set kernel sequences (a split-K 3x3 GEMM, then the 1x1
# GEMM), recorded in the searched IR's `sequence` attribute and lowered
# with --lower-to-nvvm, beside the searched fused kernel (def).
# usage: scripts/bench/sessions/s31/s31g-variants.sh
set -eu
ffopt=${FF_OPT:-build/bin/ff-opt}
rm -rf .device/s31g && mkdir -p .device/s31g
gen() { python3 scripts/bench/sessions/s31/gen-linalg.py "$1"; }
sched() {  # cluster block grid spatial stages collectives
  echo "#dsm.schedule<cluster = [$1], block = [$2], grid = [$3], order = [m, n, k, l], spatial = [$4], residency = [], collectives = [$6], stages = $5, cost_ns = 1000>"
}
# variant | first kernel | second kernel
variants() {
  local w=$1; shift
  gen $w > /tmp/$w.mlir
  $ffopt /tmp/$w.mlir --dsm-fuse --dsm-search -o /tmp/$w-s.mlir
  $ffopt /tmp/$w-s.mlir --lower-to-nvvm="format=bin emit-bundle=.device/s31g/$w-def" -o /dev/null
  for spec in "$@"; do
    IFS='|' read -r v s0 s1 <<< "$spec"
    sed -E "s/(dsm.fused_chain ffn\([^)]*\) \{schedule = #dsm.schedule<[^>]*>)\}/\1, sequence = [$s0, $s1]}/" \
      /tmp/$w-s.mlir > /tmp/$w-$v.mlir
    grep -q "sequence = " /tmp/$w-$v.mlir
    $ffopt /tmp/$w-$v.mlir --lower-to-nvvm="format=bin emit-bundle=.device/s31g/$w-$v" -o /dev/null
  done
}
# C6-b1: M = 784, conv 3x3 128 -> 128 (K = 1152), then 1x1 128 -> 512.
variants C6-b1 \
  "k4|$(sched '1, 1, 4, 1' '64, 128, 288, 16' '13, 1, 1, 1' 'm, n, k' 4 all_exchange)|$(sched '1, 1, 1, 1' '64, 64, 64, 16' '13, 8, 1, 1' 'm, n' 2 '')" \
  "k2|$(sched '1, 1, 2, 1' '64, 128, 576, 16' '13, 1, 1, 1' 'm, n, k' 4 all_exchange)|$(sched '1, 1, 1, 1' '64, 64, 64, 16' '13, 8, 1, 1' 'm, n' 2 '')" \
  "k4n128|$(sched '1, 1, 4, 1' '64, 128, 288, 16' '13, 1, 1, 1' 'm, n, k' 4 all_exchange)|$(sched '1, 1, 1, 1' '64, 128, 64, 16' '13, 4, 1, 1' 'm, n' 2 '')"
# C5-b1: M = 3136, conv 3x3 64 -> 64 (K = 576), then 1x1 64 -> 256.
variants C5-b1 \
  "k2|$(sched '1, 1, 2, 1' '64, 64, 320, 16' '49, 1, 1, 1' 'm, n, k' 4 all_exchange)|$(sched '1, 1, 1, 1' '64, 128, 64, 16' '49, 2, 1, 1' 'm, n' 2 '')" \
  "k1|$(sched '1, 1, 1, 1' '64, 64, 64, 16' '49, 1, 1, 1' 'm, n' 4 '')|$(sched '1, 1, 1, 1' '64, 128, 64, 16' '49, 2, 1, 1' 'm, n' 2 '')"

#!/bin/bash
# Thirty-third session, on the machine with the compiler: the bundles
# s33b.sh times (.device/s33b). The partial-wave GEMMs of the weakest
# chains in graphs, each sequence kernel set by hand to the search's next
# candidates of that GEMM (its single-GEMM ranking) and to clusters that
# share an operand: C4-b32 (M = 1568: 512 -> 2048 at 128 x 256 on 104 CTAs,
# 2048 -> 512 at 64 x 128 on 100 CTAs) and C3-b32's second GEMM (M = 6272,
# 1024 -> 256 at 128 x 128 on 98 CTAs).
set -eu
dest=.device/s33b
. scripts/bench/sessions/s33/variants-lib.sh
variants C4-b32 \
  "g1mcn|0|$(S '1, 2, 1' '128, 256, 64' '13, 4' 4 "" "$MN")" \
  "g1mcm|0|$(S '2, 1, 1' '128, 256, 64' '7, 8' 4 "" "$MN")" \
  "g1t128|0|$(S '1, 1, 1' '128, 128, 64' '13, 16' 7 "" "$MN")" \
  "g2w64|1|$(S '1, 1, 1' '128, 64, 64' '13, 8' 8 "" "$MN")" \
  "g2k2|1|$(S '1, 1, 2' '128, 128, 1024' '13, 4' 4 $K "$MNK")" \
  "g2k4|1|$(S '1, 1, 4' '128, 256, 512' '13, 2' 4 $K "$MNK")" \
  "g2mcm|1|$(S '2, 1, 1' '64, 128, 64' '13, 4' 8 "" "$MN")"
variants C3-b32 \
  "g2t64|1|$(S '1, 1, 1' '64, 256, 64' '98, 1' 5 "" "$MN")" \
  "g2k2|1|$(S '1, 1, 2' '128, 256, 512' '49, 1' 3 $K "$MNK")" \
  "g2mcm|1|$(S '2, 1, 1' '128, 128, 64' '25, 2' 6 "" "$MN")"
ls .device/s33b

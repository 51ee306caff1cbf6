#!/bin/bash
# Thirty-third session, on the machine with the compiler: the bundles
# s33f.sh times (.device/s33f). The batch-1 1x1 chains' sequence kernels
# (M = 49 and 196: a few dozen CTAs pulling 0.5-2 MB weights) split over
# more CTAs along k than the search's choice: C4-b1's first GEMM over 2
# and 4, its second at 64 x 128 over 8; C3-b1's first over 2, its second
# over 8.
set -eu
dest=.device/s33f
. scripts/bench/sessions/s33/variants-lib.sh
variants C4-b1 \
  "g1k2|0|$(S '1, 1, 2' '64, 64, 256' '1, 32' 4 $K "$MNK")" \
  "g1k4|0|$(S '1, 1, 4' '64, 64, 128' '1, 32' 4 $K "$MNK")" \
  "g2n128|1|$(S '1, 1, 8' '64, 128, 256' '1, 4' 4 $K "$MNK")"
variants C3-b1 \
  "g1k2|0|$(S '1, 1, 2' '64, 64, 128' '4, 16' 4 $K "$MNK")" \
  "g2k8|1|$(S '1, 1, 8' '64, 64, 128' '4, 4' 4 $K "$MNK")"
ls .device/s33f

#!/bin/bash
# Thirty-eighth session, on the machine with the compiler: the bundles
# call8.sh times (.device/s38-m16). S3 at M = 16 (0.92-0.94x the chain):
# its gated GEMM (the search's 128 x 128 on 86 CTAs, A's box fitted to the
# 16 rows) set by hand to 64 x 64 tiles on 172 CTAs at 8 and 6 stages and
# to 64 x 128 at 5: do more CTAs stream the weights faster?
set -eu
dest=.device/s38-m16
. scripts/bench/sessions/s33/variants-lib.sh
variants S3-m16 \
  "g1t64s8|0|$(S '1, 1, 1' '64, 64, 64' '1, 172' 8 "" "$MN")" \
  "g1t64s6|0|$(S '1, 1, 1' '64, 64, 64' '1, 172' 6 "" "$MN")" \
  "g1t64x128|0|$(S '1, 1, 1' '64, 128, 64' '1, 86' 5 "" "$MN")"
ls $dest

#!/bin/bash
# Thirty-eighth session, on the machine with the compiler: the bundles
# call1.sh times (.device/s38-m256). The M = 256 sequence halves of G5 and
# S3 (the two workloads still behind the CUDA-graph chain, docs/validation.md
# thirty-sixth session), each kernel set by hand to the candidates the
# search does not rank first: G5's up GEMM in clusters of 2 along m (B
# multicast), its down GEMM at 128 x 256 split over 4; S3's gated GEMM at
# 128 x 128 (172 CTAs instead of 344) and at 64 x 64, its down GEMM at
# 128 x 256 split over 4.
set -eu
dest=.device/s38-m256
. scripts/bench/sessions/s33/variants-lib.sh
variants G5-m256 \
  "g1mcm|0|$(S '2, 1, 1' '128, 256, 64' '1, 64' 4 "" "$MN")" \
  "g2k4|1|$(S '1, 1, 4' '128, 256, 4096' '2, 16' 4 $K "$MNK")" \
  "g2k4n128|1|$(S '1, 1, 4' '128, 128, 4096' '2, 32' 3 $K "$MNK")"
variants S3-m256 \
  "g1t128|0|$(S '1, 1, 1' '128, 128, 64' '2, 86' 4 "" "$MN")" \
  "g1t64|0|$(S '1, 1, 1' '64, 64, 64' '4, 172' 4 "" "$MN")" \
  "g2k4|1|$(S '1, 1, 4' '128, 256, 2752' '2, 16' 4 $K "$MNK")"
ls $dest

#!/bin/bash
# Thirty-third session, on the machine with the compiler: the bundles
# s33g.sh times (.device/s33g). The down GEMMs of the weight-streaming
# sequences at M = 128 (S1: 8192 -> 3072 over 4 CTAs along k, 96 CTAs;
# G5: 16384 -> 4096 at 128 x 256 over 4, 64 CTAs) on more CTAs or deeper
# rings than the search's choice.
set -eu
dest=.device/s33g
. scripts/bench/sessions/s33/variants-lib.sh
variants S1 \
  "n64|1|$(S '1, 1, 4' '128, 64, 2048' '1, 48' 4 $K "$MNK")" \
  "m64|1|$(S '1, 1, 4' '64, 128, 2048' '2, 24' 4 $K "$MNK")" \
  "k8|1|$(S '1, 1, 8' '128, 128, 1024' '1, 24' 4 $K "$MNK")" \
  "st6|1|$(S '1, 1, 4' '128, 128, 2048' '1, 24' 6 $K "$MNK")"
variants G5 \
  "n128|1|$(S '1, 1, 4' '128, 128, 4096' '1, 32' 4 $K "$MNK")" \
  "n64|1|$(S '1, 1, 4' '128, 64, 4096' '1, 64' 4 $K "$MNK")"
ls .device/s33g

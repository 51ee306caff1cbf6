#!/bin/bash
# Thirty-fourth session, on the machine with the compiler: the bundles
# s34d.sh times (.device/s34d). The weight-streaming sequences S1, S7 and
# G8 at M = 128 with their down GEMM (128 x 128 over 4 CTAs along k) at the
# search's four stages or at six, each with today's defaults (weight loads
# evict-first) and with paired loads on rings of six or more stages
# (suffix p: LOWER="paired-loads-min-stages=6", which also pairs the first
# kernels of S1 and G8, seven and eight stages deep).
set -eu
dest=.device/s34d
. scripts/bench/sessions/s33/variants-lib.sh
build() {
  variants S1 "st6$1|1|$(S '1, 1, 4' '128, 128, 2048' '1, 24' 6 $K "$MNK")"
  variants S7 "st6$1|1|$(S '1, 1, 4' '128, 128, 2432' '1, 20' 6 $K "$MNK")"
  variants G8 "st6$1|1|$(S '1, 1, 4' '128, 128, 2048' '1, 16' 6 $K "$MNK")"
}
build ""
# variants() writes W-def each time: keep the default ones, rename the
# paired ones.
mkdir -p /tmp/s34d-def && cp -r $dest/*-def /tmp/s34d-def/
LOWER="paired-loads-min-stages=6" build p
for w in S1 S7 G8; do
  mv $dest/$w-def $dest/$w-defp
  cp -r /tmp/s34d-def/$w-def $dest/
done
rm -rf /tmp/s34d-def
ls $dest

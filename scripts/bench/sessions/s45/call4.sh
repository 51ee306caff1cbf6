#!/bin/bash
# Forty-fifth session, call 4: where S7's gate|up kernel (dynamic bin
# 257-512, ff_gated_ffn_0_m3_s0) spends the extra time of a partial last m
# tile. ncu (--clock-control none) warp-state sampling per SASS
# instruction (SourceCounters, source page as CSV) and the warp-state
# summary, one launch each: snake off (`-old`) at M = 257 and 384, snake on
# (`-new`) at 257; bundles .device/s45-snake3. Files in $OUT; the stall
# table per run is printed last by scripts/bench/sessions/s45/stalls.py
# (here, from the CSVs).
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
mkdir -p $OUT
D=.device/s45-snake3
for r in "old 257" "old 384" "new 257"; do set -- $r
  timeout 150 ncu --clock-control none -k regex:gated_ffn_0_m3_s0 -c 1 \
    --section WarpStateStats --section SourceCounters --page source --csv \
    --print-source sass $ffrun $D/S7-$1 --m $2 --check > $OUT/src-$1-$2.csv 2> /tmp/ncu.err || tail -3 /tmp/ncu.err
  timeout 120 ncu --clock-control none -k regex:gated_ffn_0_m3_s0 -c 1 \
    --section WarpStateStats --section LaunchStats \
    $ffrun $D/S7-$1 --m $2 --check > $OUT/ws-$1-$2.txt 2>&1 || tail -3 $OUT/ws-$1-$2.txt
  echo "$1 $2: $(wc -l < $OUT/src-$1-$2.csv) source rows; $(grep -E 'Warp Cycles Per Issued|Avg. Active Threads' $OUT/ws-$1-$2.txt | tr -s ' ' | tr '\n' ';')"
done

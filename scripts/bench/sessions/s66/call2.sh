#!/bin/bash
# Sixty-sixth session, call 2: the standard rows (s33e.sh) of .device/s65-std
# with this session's runtime (the layout guard of 06852dd and the capture
# check of call 1), then the targets.
set -u
mkdir -p $OUT/std && OUT=$OUT/std BUNDLES=.device/s65-std timeout 560 bash scripts/bench/sessions/s33/s33e.sh > $OUT/std.txt 2>&1
tail -8 $OUT/std.txt
python3 scripts/bench/targets.py $OUT/std/c/results.csv $OUT/std/gs/results.csv 2>&1 | sed -n 3,14p

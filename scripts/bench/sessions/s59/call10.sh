#!/bin/bash
# Fifty-ninth session, call 10 (.device/s59-g/tables.tar.xz: plan-diff.py's
# sides of S6 and S7, `--sets dyn` with target=h200 on both, HEAD
# b651aca's ff-opt against the build that lets a gated pair's wide tiles
# (above 128 columns, rings of 4+ stages) run up to two waves): the bins
# it moves, S6 385-448 onto 128 x 144 and S7 385-512 onto 128 x 160, both
# orders (ab_both: ff-run --check, then medians of 20 graph replays).
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
. scripts/bench/session-lib.sh
D=/tmp/t
mkdir -p $D $OUT && tar xJf .device/s59-g/tables.tar.xz -C $D || exit 1
for wm in "S6 400" "S6 440" "S6 448" "S7 400" "S7 416" "S7 440" "S7 480" "S7 512"; do
  ab_both $D base new $wm
done > $OUT/ab.txt
ab_table $OUT/ab.txt

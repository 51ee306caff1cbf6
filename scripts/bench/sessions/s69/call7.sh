#!/bin/bash
# Sixty-ninth session, call 7: deepSplitK64 up to M = 256 (three and four
# m tiles) instead of 128, on the dynamic-M bundles of G3, G9 and G10 it
# moves (.device/s69-dyn2: compile-workloads.py --only G3,G9,G10
# --dynamic-m --weight-layout nk --search-options target=h200 with bfbef40's
# ff-opt, W-old, and with the rule at 256, W-new), checked and timed as
# CUDA-graph replays in both orders (ab_both) at M = 160, 192 and 256.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
. scripts/bench/session-lib.sh
D=.device/s69-dyn2
{ for m in 160 192 256; do ab_both $D old new G3 $m; ab_both $D old new G10 $m; done
  for m in 160 192; do ab_both $D old new G9 $m; done; } > $OUT/ab.txt
ab_m_table $OUT/ab.txt | tee $OUT/ab.md

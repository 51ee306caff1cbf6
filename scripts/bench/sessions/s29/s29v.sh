#!/bin/bash
# Twenty-ninth session: split K for 64-wide n tiles (a trial lifting
# isLowerable's blk_n >= 128 for split-K GEMMs): the small G chains' GEMMs
# at each 64-wide split-K plan among the search's first 16 (.device/s29v:
# <G>UP/DN-<tile>c<cls>, lowered from --dsm-search=rank=R) beside
# smallgemm.py's bundles (.device/s29s), --check'ed and timed side by side.
set -u
ONLY='G' BENCH=30 REPEAT=3 scripts/gpu/ab.sh /tmp/b .device/s29v > $OUT/ab.log 2>&1; echo "ab rc=$?"
grep -E "FAIL|status=[A-Z]" $OUT/ab.log | grep -v "status=PASS" | head
sed -n '/^| workload/,$p' $OUT/ab.log

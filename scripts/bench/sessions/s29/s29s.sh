#!/bin/bash
# Twenty-ninth session: the small G chains' GEMMs on their own at each tile
# shape and cluster the search ranks (.device/s29s: smallgemm.py DIR 12;
# rank 0 is the search's choice), --check'ed and timed side by side.
set -u
ONLY='G' BENCH=30 REPEAT=3 scripts/gpu/ab.sh /tmp/b .device/s29s > $OUT/ab.log 2>&1; echo "ab rc=$?"
sed -n '/^| workload/,$p' $OUT/ab.log

#!/bin/bash
# Sixty-second session, call 3b (.device/s62-c): call 3's S7 dynamic-table
# rows again (call 3 carried those bundles without their .ptx files).
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
. scripts/bench/session-lib.sh
D=.device/s62-c
{ ab_both $D old new S7 200; ab_both $D old new S7 220; } > $OUT/ab.txt
ab_table $OUT/ab.txt

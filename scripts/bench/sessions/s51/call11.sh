#!/bin/bash
# Fifty-first session, call 11 (.device/s51-k: call 1's S2-m300 bundles):
# ncu --set full (one launch each) of our gate|up kernel of S2 at M = 300
# unswapped (-base, 128 x 128) and swapped on 104 tokens (-g104, 44 x 3
# tiles, one wave), and of cuBLAS's merged gate|up GEMM there
# (linear_once.py 300 11264 2048: tst_256x104), for the next session's
# question why ours is 1.2x slower at the same tile count.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
. scripts/bench/session-lib.sh
D=.device/s51-k
S=scripts/bench/sessions/s49
mkdir -p $OUT
prof() {  # name, ncu filter/command...: the kernel's summary and hot SASS
  local n=$1; shift
  timeout 150 ncu --clock-control none --set full -f -o /tmp/$n "$@" > /tmp/ncu-$n.log 2>&1 || tail -5 /tmp/ncu-$n.log
  ncu -i /tmp/$n.ncu-rep --page details --csv > $OUT/$n-details.csv 2>/dev/null
  ncu -i /tmp/$n.ncu-rep --page source --csv --print-source sass > /tmp/$n-source.csv 2>/dev/null
  echo "== $n"
  python3 $S/ncu_summary.py $OUT/$n-details.csv
  python3 $S/sass_hot.py /tmp/$n-source.csv 8 || true
}
{
for v in base g104; do prof ours-$v -k regex:ff_gated_ffn_0_s0 -c 1 $ffrun $D/S2-m300-$v; done
prof cublas --profile-from-start off python3 $S/linear_once.py 300 11264 2048
} 2>&1 > $OUT/ncu.txt
grep -E "^==|Duration|Compute \(SM\)|L2 Cache Thr|Issue Slots|Memory Thr|Registers|per opcode" $OUT/ncu.txt

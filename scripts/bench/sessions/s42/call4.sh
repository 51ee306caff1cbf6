#!/bin/bash
# Forty-second session, call 4: gate|up GEMMs on n tiles of 8-column multiples (widths.py with
# SET=call4: .device/s42-w8) against the 16-column ones of call 1 and
# the search. Every bundle: ff-run --check, then --bench 20 --graph in two rounds
# (the second in reverse order); compute-sanitizer memcheck on two
# 88-wide kernels (a width storeRowBf16 does not take).
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
. scripts/bench/sessions/s42/lib.sh
D=.device/s42-w8
ls $D > /tmp/names
for n in $(cat /tmp/names); do echo "$n $(c $D/$n) $(t $D/$n)"; done > /tmp/r1
for n in $(tac /tmp/names); do echo "$n $(t $D/$n)"; done > /tmp/r2
for n in S3-m128-n88 S3-m16-n88s5; do
  echo "memcheck $n: $(timeout 200 compute-sanitizer --tool memcheck $ffrun $D/$n --check 2>&1 | grep -E "ERROR SUMMARY|PASS|FAIL" | tr '\n' ' ')"
done
mkdir -p $OUT && cp /tmp/r1 /tmp/r2 $OUT/
echo "| bundle | check | us (r1, r2) |"; echo "|---|---|---|"
while read n ck t1; do echo "| $n | $ck | $t1 $(grep "^$n " /tmp/r2 | cut -d' ' -f2) |"; done < /tmp/r1

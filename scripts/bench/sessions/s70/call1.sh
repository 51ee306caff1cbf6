#!/bin/bash
# Seventieth session, call 1: racecheck stand-ins of G5 and S3 at M = 16
# and 64 (.device/s70-race: race_standins.py, the same kernel plans on
# N, K, L cut to 2048-4608, 512-2048, 512). Each stand-in is first
# `ff-run --check`ed (fp32 reference, NaN-poisoned output), then
# racechecked alone; then the original G5-m16 with racecheck limited to one
# of its two kernels (--kernel-name kns=...), the other run uninstrumented,
# to see which one takes the time. PASS means exit 0 and 0 hazards.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
compute-sanitizer --version | tail -1
d=.device/s70-race
budget_end=$(( $(date +%s) + ${BUDGET:-520} ))
verdict() { # rc file
  if [ $1 = 124 ]; then echo TIMEOUT
  elif [ $1 = 0 ] && grep -q "RACECHECK SUMMARY: 0 hazards" $2; then echo PASS
  else echo "FAIL rc=$1"; fi
}
race() { # tag limit_s ff-run-args... (the bundle's M is its own)
  local tag=$1 lim=$2; shift 2
  local left=$(( budget_end - $(date +%s) ))
  [ $left -lt 15 ] && { echo "| $tag | racecheck | SKIPPED (budget) | |" >> $OUT/table.md; return; }
  [ $lim -gt $left ] && lim=$left
  local start=$(date +%s)
  timeout $lim compute-sanitizer --tool racecheck --error-exitcode 9 "$@" \
    > $OUT/race-$tag.txt 2>&1
  local rc=$? t=$(( $(date +%s) - start ))
  echo "| $tag | racecheck | $(verdict $rc $OUT/race-$tag.txt) ${t}s (limit $lim) | $(grep -h 'RACECHECK SUMMARY' $OUT/race-$tag.txt | head -1) |" >> $OUT/table.md
}
echo "| bundle | check | verdict | detail |" > $OUT/table.md
echo "|---|---|---|---|" >> $OUT/table.md
standins="G5-m16-n2048k512l512 G5-m64-n2048k512l512 S3-m16-n2304k512l512 S3-m64-n2304k512l512"
for b in $standins G5-m16-n4096k2048l512 S3-m16-n4608k2048l512; do
  m=${b#*-m}; m=${m%%-*}
  $ffrun $d/$b --m $m --check > $OUT/check-$b.txt 2>&1
  echo "| $b | ff-run --check | rc=$? | $(grep -h -m1 'PASS\|FAIL' $OUT/check-$b.txt) |" >> $OUT/table.md
done
for b in $standins; do
  m=${b#*-m}; m=${m%%-*}
  race $b 90 $ffrun $d/$b --m $m
done
race G5-m16-orig-s1only 100 --kernel-name kns=ff_ffn_0_s1 $ffrun $d/G5-m16-orig --m 16
race G5-m16-orig-s0only 100 --kernel-name kns=ff_ffn_0_s0 $ffrun $d/G5-m16-orig --m 16
race G5-m16-n4096k2048l512 120 $ffrun $d/G5-m16-n4096k2048l512 --m 16
race S3-m16-n4608k2048l512 120 $ffrun $d/S3-m16-n4608k2048l512 --m 16
cat $OUT/table.md

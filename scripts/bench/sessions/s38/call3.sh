#!/bin/bash
# Thirty-eighth session, call 3: the single-GEMM L2 term (gemmL2Gbps) on
# the plans it changes. Static (.device/s38-l2: compile-workloads.py
# --single-gemms --anchors, suffix -l2 with the term, -base with
# --search-options calibration=no-l2-term.json) side by side with ab.sh
# (ff-run --check, medians of 20 batches of 10 launches); dynamic G4, G8,
# S1, S3, S5, S8 (.device/s38-l2dyn, the same two builds with --dynamic-m)
# at M in the bins whose kernels differ, ff-run --check --bench 20 alternating.
set -u
BENCH=20 scripts/gpu/ab.sh /tmp/b .device/s38-l2 > $OUT/ab.log 2>&1
echo "ab rc=$? $(grep -c status=PASS $OUT/ab.log) PASS"
grep -E "FAIL|rror" $OUT/ab.log | head -5
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
res() { grep RESULT | sed -n 's/.*rel_l2=\([^ ]*\).*median_us=\([^ ]*\).*status=\([A-Z]*\).*/\3 \1 \2/p'; }
{
printf "%-4s %5s | %-26s | %-26s | %6s\n" wl M "l2(check,rel_l2,us)" "base(check,rel_l2,us)" base/l2
for spec in "G4 600 1024 3000 4096" "G8 300 512" "S1 600 1024" "S3 200 256" \
            "S5 200 256" "S8 600 1024"; do
  set -- $spec; w=$1; shift
  for m in "$@"; do
    t=$(timeout 40 $ffrun .device/s38-l2dyn/$w-l2 --m $m --check --bench 20 2>&1 | res)
    b=$(timeout 40 $ffrun .device/s38-l2dyn/$w-base --m $m --check --bench 20 2>&1 | res)
    printf "%-4s %5s | %-26s | %-26s | %6s\n" $w $m "$t" "$b" "$(python3 -c "print(f'{${b##* }/${t##* }:.3f}')" 2>/dev/null)"
  done
done
} > $OUT/dyn.txt 2>&1
echo "dyn: $(grep -o PASS $OUT/dyn.txt | wc -l) PASS, $(grep -o FAIL $OUT/dyn.txt | wc -l) FAIL"
tail -14 $OUT/ab.log
cat $OUT/dyn.txt

#!/bin/bash
# Thirty-seventh session, call 1: the dynamic-M bundles whose kernel
# sequences are priced bin by bin (80bb650), .device/s37-dyn, against the
# same workloads before it (.device/s36-fitdyn, f223443) and the static M
# sweep (.device/s36-fit): ff-run --check (cuBLAS reference) and
# event-timed launches (median of 30 batches of 10) at M across the bins;
# python_check.py (fp32 reference, poisoned outputs) on s37-dyn; then the
# conv chains with fit-a-box applied through views (fitconv, s36-c vs
# s35-sk) with a timeout on every step.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
R=/tmp/r; mkdir -p $R
field() { sed -n "s/.*$1=\([^ ]*\).*/\1/p" | head -1; }
run() { # bundle m extra... -> "status median_us"
  local out; out=$(timeout 40 $ffrun "$@" --bench 30 2>&1); local rc=$?
  local st=$(grep RESULT <<<"$out" | field status); local us=$(grep RESULT <<<"$out" | field median_us)
  echo "${st:-rc$rc} ${us:--}"
}
printf "%-4s %5s | %-18s | %-12s | %-12s\n" wl M "new(check,us)" "old us" "static us" > $R/dyn.txt
for w in G5 S1 S3 G8; do
  for m in 1 100 129 200 256 300 512 1000 2048 4096; do
    new=$(run .device/s37-dyn/$w --m $m --check)
    old=$(run .device/s36-fitdyn/$w --m $m | cut -d' ' -f2)
    st=-; [ -d .device/s36-fit/$w-m$m ] && st=$(run .device/s36-fit/$w-m$m | cut -d' ' -f2)
    printf "%-4s %5s | %-18s | %-12s | %-12s\n" $w $m "$new" "$old" "$st"
  done
done >> $R/dyn.txt
export PYTHONPATH=$PWD/python FLASHFUSER_RUNTIME_LIB=$ff_build/lib/libffrt.so
timeout 150 python3 scripts/gpu/python_check.py .device/s37-dyn --m 1,100,200,300,1000,2048 > $R/python-dyn.log 2>&1
echo "python_check s37-dyn rc=$? $(tail -1 $R/python-dyn.log)" > $R/conv.txt
for w in C4-b1 C8-b1; do
  for v in s35-sk s36-c; do
    echo "$v/$w check $(timeout 30 $ffrun .device/$v/$w --check --bench 30 2>&1 | grep RESULT | grep -oE 'status=[A-Z]+|rel_l2=[^ ]+|written=[a-z]+|median_us=[^ ]+' | tr '\n' ' ') rc=$?"
  done
  echo "s36-c/$w memcheck $(timeout 60 compute-sanitizer --tool memcheck $ffrun .device/s36-c/$w 2>&1 | grep -oE 'ERROR SUMMARY.*|status=[A-Z]+' | tr '\n' ' ')"
done >> $R/conv.txt
mkdir -p /tmp/o && echo "base=.device/s35-sk fit=.device/s36-c" > /tmp/o/variants
for round in 1 2; do
  for v in base=.device/s35-sk fit=.device/s36-c; do
    timeout 60 python3 scripts/bench/bench.py --out /tmp/o/c-${v%%=*}-$round --bundles ${v#*=} --reps 100 --only 'C4-b1,C8-b1' --baselines graph,ours_graph > /tmp/o/bench-${v%%=*}-$round.log 2>&1
    echo "bench ${v%%=*} $round rc=$?"
  done
done >> $R/conv.txt
timeout 30 python3 scripts/bench/sessions/s35/variants.py /tmp/o --csv $R/ab-conv.csv >> $R/conv.txt 2>&1
tar czf $OUT/call1.tgz -C $R . /tmp/o 2>/dev/null
cat $R/conv.txt; cat $R/dyn.txt

#!/bin/bash
# Thirty-seventh session, call 2: the bin-level regret rule of
# ff::searchMBins (a bin's plan is the lowerable candidate whose worst
# estimated regret at the bin's lower end, middle and upper end is least)
# against the upper end's best plan alone, for the kernel sequences of a
# dynamic M: .device/s37-dyn (HEAD) vs .device/s37-rep (the same compiler
# with the rule off, FF_NOREGRET=1 in a scratch build). Event-timed
# launches (median of 20 batches of 10) at M across bins 129..4096+,
# alternating the variants; a table row per M.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
us() { timeout 30 $ffrun "$@" --bench 20 2>&1 | grep RESULT | sed -n 's/.*median_us=\([^ ]*\).*/\1/p'; }
printf "%-3s %5s | %8s | %8s | %6s\n" wl M regret rep rep/reg
for w in G5 S1 S3 G8; do
  for m in 200 257 300 384 512 513 640 768 1000 1025 1280 1536 2048 2049 3000 4096 6000; do
    a=$(us .device/s37-dyn/$w --m $m); b=$(us .device/s37-rep/$w --m $m)
    printf "%-3s %5s | %8s | %8s | %6s\n" $w $m "${a:--}" "${b:--}" "$(python3 -c "print(f'{$b/$a:.3f}')" 2>/dev/null)"
  done
done

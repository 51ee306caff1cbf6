#!/bin/bash
# Thirty-seventh session, call 4: A's last m tile through a tail map
# (KernelPlan::tailABox). Dynamic G5, S1, S3, G8 with it (.device/s37-tail)
# against the same compiler's tables without it (.device/s37-new, dc3ce82):
# ff-run --check of the tail bundles and event-timed launches (median of 20
# batches of 10) of both at M across bins, alternating; static G5-m200,
# S3-m300, G8-m1000 with (.device/s37-stail) and without
# (.device/s37-snotail, fit-a-box=false) the tail map; compute-sanitizer
# memcheck and synccheck on two tail kernels.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
res() { grep RESULT | sed -n 's/.*rel_l2=\([^ ]*\).*median_us=\([^ ]*\).*status=\([A-Z]*\).*/\3 \1 \2/p'; }
printf "%-9s %5s | %-26s | %8s | %6s\n" wl M "tail(check,rel_l2,us)" "base us" base/tail
for w in G5 S1 S3 G8; do
  for m in 1 100 129 130 200 257 300 513 1000 1025 2049 3000; do
    t=$(timeout 40 $ffrun .device/s37-tail/$w --m $m --check --bench 20 2>&1 | res)
    b=$(timeout 40 $ffrun .device/s37-new/$w --m $m --bench 20 2>&1 | res | cut -d' ' -f3)
    printf "%-9s %5s | %-26s | %8s | %6s\n" $w $m "$t" "$b" "$(python3 -c "print(f'{$b/${t##* }:.3f}')" 2>/dev/null)"
  done
done
for s in G5-m200 S3-m300 G8-m1000; do
  for round in 1 2; do
    t=$(timeout 40 $ffrun .device/s37-stail/$s --check --bench 20 2>&1 | res)
    b=$(timeout 40 $ffrun .device/s37-snotail/$s --check --bench 20 2>&1 | res)
    printf "%-9s %5s | %-26s | %8s | %6s\n" $s static "$t" "$b" "$(python3 -c "print(f'{${b##* }/${t##* }:.3f}')" 2>/dev/null)"
  done
done
for spec in "s37-tail/G5 129" "s37-stail/S3-m300 300"; do
  set -- $spec
  for tool in memcheck synccheck; do
    echo "$tool $1 M=$2 $(timeout 90 compute-sanitizer --tool $tool $ffrun .device/$1 --m $2 --check 2>&1 | grep -oE 'ERROR SUMMARY.*|status=[A-Z]+' | tr '\n' ' ')"
  done
done

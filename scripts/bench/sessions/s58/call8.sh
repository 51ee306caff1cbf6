#!/bin/bash
# Fifty-eighth session, call 8 (.device/s58-g: slice.py DIR with the test
# build): swapped 64-row down GEMMs with the token tile shared by clusters
# of 2 and 4 along n, multicast whole from one rank per k step (-c<c>w)
# or in slices from every rank at every k step (-c<c>s), against one CTA
# per cluster (-c1), --check'ed and timed side by side in CUDA graphs
# (ab.sh); ncu L2 bytes of S6's three 96-token variants; memcheck of a
# sliced one.
set -u
mkdir -p $OUT
GRAPH=1 RUN_TIMEOUT=30 BENCH=20 timeout 200 scripts/gpu/ab.sh /tmp/b .device/s58-g > $OUT/ab.log 2>&1
echo "ab rc=$?"
grep -c "status=PASS" $OUT/ab.log
grep -E "FAIL|rror|rc=[1-9]" $OUT/ab.log | head
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /dev/null 2>&1
for v in c1 c4w c4s c2s; do
  timeout 60 ncu --clock-control none --metrics gpu__time_duration.sum,lts__t_bytes.sum,lts__t_sectors_srcunit_tex_op_read.sum \
    -k regex:ff_gemm --launch-skip 3 -c 1 $ffrun .device/s58-g/S6DN440s96x64-$v --bench 1 2>&1 | grep -E "duration|lts__" | sed "s/^/$v /"
done
timeout 100 compute-sanitizer --tool memcheck $ffrun .device/s58-g/S6DN440s96x64-c4s --check 2>&1 | grep -E "ERROR SUMMARY|status=" | cut -c1-200
sed -n '/^| workload/,$p' $OUT/ab.log

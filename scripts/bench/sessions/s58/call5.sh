#!/bin/bash
# Fifty-eighth session, call 5 (.device/s58-d: multicast.py DIR with the
# test build taking clusters of 4 along n and 11 stages): swapped 64-row
# down GEMMs in clusters of 1, 2 and 4 along n (the token tile multicast)
# on 8 and 11 stages, --check'ed and timed side by side in CUDA graphs
# (ab.sh); ncu L2 bytes of S6's; cuBLAS's times for the same GEMMs.
set -u
mkdir -p $OUT
GRAPH=1 RUN_TIMEOUT=30 BENCH=20 timeout 200 scripts/gpu/ab.sh /tmp/b .device/s58-d > $OUT/ab.log 2>&1
echo "ab rc=$?"
grep -c "status=PASS" $OUT/ab.log
grep -E "FAIL|rror|rc=[1-9]" $OUT/ab.log | head
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /dev/null 2>&1
for v in c1s8 c1smax c4s8 c4smax; do
  timeout 60 ncu --clock-control none --metrics gpu__time_duration.sum,lts__t_bytes.sum,lts__t_sectors_srcunit_tex_op_read.sum \
    -k regex:ff_gemm --launch-skip 3 -c 1 $ffrun .device/s58-d/S6DN440s88x64-$v --bench 1 2>&1 | grep -E "duration|lts__" | sed "s/^/$v /"
done
timeout 100 python3 scripts/bench/sessions/s58/cublas_gemms.py \
  S6DN:440:1536:8960 S2DN:300:2048:5632 G8DN:300:2048:8192 \
  G4DN:440:768:3072 G6DN:440:1024:4096
sed -n '/^| workload/,$p' $OUT/ab.log

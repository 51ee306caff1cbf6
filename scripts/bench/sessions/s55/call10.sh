#!/bin/bash
# Fifty-fifth session, call 10 (.device/s55-j: call 9's G5 bundles): ncu of
# G5's up GEMM at M = 930 on 240-token tiles (-base, four token tiles) and
# on 192 (-sw192, five): time, DRAM and L2 bytes, L2 and tensor-pipe
# throughput, for the 0.94x of call 9.
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
. scripts/bench/session-lib.sh
D=.device/s55-j
mkdir -p $OUT
for v in base sw192; do
  timeout 100 ncu --clock-control none --cache-control none -k regex:m13_s0 -c 2 \
    --metrics gpu__time_duration.sum,dram__bytes_read.sum,lts__t_bytes.sum,lts__t_sectors_srcunit_tex_lookup_hit.sum,lts__t_sectors_srcunit_tex.sum,lts__throughput.avg.pct_of_peak_sustained_elapsed,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_elapsed \
    $ffrun $D/G5-$v --m 930 --bench 1 2>&1 | grep -E "m13_s0|duration|bytes|sectors|throughput|hmma" | sed "s/^/$v /"
done | tee $OUT/ncu.txt

#!/bin/bash
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
M=gpu__time_duration.sum,lts__t_bytes.sum,lts__throughput.avg.pct_of_peak_sustained_elapsed,sm__throughput.avg.pct_of_peak_sustained_elapsed,dram__bytes_read.sum,sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_elapsed,l1tex__m_xbar2l1tex_read_bytes.sum
for b in .device/s23a/*; do
  n=$(basename $b)
  true
  timeout 120 ncu --csv --cache-control none --clock-control none -s 5 -c 1 --metrics $M $ffrun $b --bench 10 > $OUT/ncu-$n.csv 2>&1; echo "$n ncu rc=$?"
  grep -E '"(gpu__|lts__|sm__|dram__|l1tex__)' $OUT/ncu-$n.csv | awk -F'","' -v n=$n '{print n, $(NF-2), $(NF-1), $NF}'
done

#!/bin/bash
# Fifty-ninth session, call 2: the multicast probe again (consumers now
# arrive on the peers' empty barriers as CUTLASS does, without the
# cluster-scope release that made call 1's multicast rings crawl), both
# cluster orders, where each cluster ran (GPCs found by the probe), and the
# L2 request coalescer's counters (hardware: duplicate reads merged in a
# GPC; programmatic: multicast) for the probe, ours and cuBLAS's S6 down
# GEMM at M = 440 (.device/s59-a as in call 1).
set -u
mkdir -p $OUT
. scripts/bench/session-lib.sh
nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a \
  scripts/gpu/multicast_probe.cu -o /tmp/mcp -lcuda || exit 1
timeout 60 /tmp/mcp | tee $OUT/probe.txt
MET=gpu__time_duration.sum,lts__t_bytes.sum,lts__t_sectors_srcunit_tex_op_read.sum,lrc__xbar2lrc_requests_op_read.sum,lrc__request_sectors_op_read_coalescable.sum,lrc__request_sectors_op_read_coalescing_achieved_type_hardware.sum,lrc__request_sectors_op_read_coalescing_achieved_type_programmatic.sum,lrc__lrc2xbar_sectors_op_read.sum,lrc__xbar2gpc_sectors_op_read.sum,l1tex__m_xbar2l1tex_read_bytes.sum
(cd $OUT && timeout 200 ncu --clock-control none --csv --metrics $MET -k regex:mcKernel /tmp/mcp once > ncu-probe.csv 2>&1)
ncu_rows $OUT/ncu-probe.csv probe
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /dev/null 2>&1
for v in c1s8 c4s8; do
  timeout 60 ncu --clock-control none --csv --metrics $MET -k regex:ff_gemm --launch-skip 3 -c 1 $ffrun .device/s59-a/S6DN440s88x64-$v --bench 1 > $OUT/ncu-$v.csv 2>&1
  ncu_rows $OUT/ncu-$v.csv ours-$v
done
timeout 60 ncu --clock-control none --csv --metrics $MET -k regex:nvjet --launch-skip 40 -c 1 python3 scripts/bench/sessions/s58/cublas_gemms.py S6DN:440:1536:8960 > $OUT/ncu-cublas.csv 2>&1
ncu_rows $OUT/ncu-cublas.csv cublas
cat $OUT/probe.txt

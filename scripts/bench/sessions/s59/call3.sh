#!/bin/bash
# Fifty-ninth session, call 3: the multicast probe with two more tile
# orders (2, 3: each cluster's dispatch index transposed over the 8 GPCs,
# so the clusters one GPC runs take consecutive places of the tile order,
# token tile or weight group fastest), timed and under ncu with the L2
# request coalescer's counters; where each cluster ran.
set -u
mkdir -p $OUT
. scripts/bench/session-lib.sh
nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a \
  scripts/gpu/multicast_probe.cu -o /tmp/mcp -lcuda || exit 1
timeout 60 /tmp/mcp | tee $OUT/probe.txt
MET=gpu__time_duration.sum,lts__t_bytes.sum,lts__t_sectors_srcunit_tex_op_read.sum,lrc__xbar2lrc_requests_op_read.sum,lrc__request_sectors_op_read_coalescable.sum,lrc__request_sectors_op_read_coalescing_achieved_type_hardware.sum,lrc__request_sectors_op_read_coalescing_achieved_type_programmatic.sum,lrc__lrc2xbar_sectors_op_read.sum,lrc__xbar2gpc_sectors_op_read.sum,l1tex__m_xbar2l1tex_read_bytes.sum
(cd $OUT && timeout 200 ncu --clock-control none --csv --metrics $MET -k regex:mcKernel /tmp/mcp once > ncu-probe.csv 2>&1)
ncu_rows $OUT/ncu-probe.csv probe
cat $OUT/probe.txt

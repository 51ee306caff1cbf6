#!/bin/bash
# Fifty-ninth session, call 1: does TMA multicast cut L2 bytes? The
# producer-only probe (scripts/gpu/multicast_probe.cu: S6's and S2's down
# GEMMs, the token tile loaded by every CTA, multicast whole by a rotating
# rank or by rank 0, or in slices by every rank) timed, then under ncu with
# L2 and L2-request-coalescer counters; the same counters for cuBLAS's
# S6 down GEMM at M = 440 and ours (.device/s59-a: copies of call 5's
# S6DN440s88x64-c1s8 and -c4s8 of the fifty-eighth session).
set -u
mkdir -p $OUT
. scripts/bench/session-lib.sh
nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a \
  scripts/gpu/multicast_probe.cu -o /tmp/mcp -lcuda || exit 1
cuobjdump -sass /tmp/mcp | grep -o "UTMALDG[.A-Z0-9]*" | sort | uniq -c
timeout 60 /tmp/mcp | tee $OUT/probe.txt
ncu --query-metrics --chip gh100 > $OUT/metrics.txt 2>&1
grep -E "^(lrc__|lts__t_(sectors|requests)_srcunit_tex |lts__t_sectors_srcnode|l1tex__m_xbar2l1tex|lts__t_(sectors|requests)_srcunit_)" $OUT/metrics.txt | cut -c1-150 | head -40
EXTRA=$(awk '$1 ~ /^lrc__/ {print $1".sum"}' $OUT/metrics.txt | head -8 | paste -sd,)
BASE=gpu__time_duration.sum,lts__t_bytes.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_requests_srcunit_tex_op_read.sum,dram__bytes_read.sum
MET=$BASE${EXTRA:+,$EXTRA}
echo "metrics: $MET"
prof() { # prof OUTFILE ARGS...: ncu CSV with MET, else with BASE
  local f=$1; shift
  timeout 120 ncu --clock-control none --csv --metrics $MET "$@" > $f 2>&1 ||
    timeout 120 ncu --clock-control none --csv --metrics $BASE "$@" > $f 2>&1
}
prof $OUT/ncu-probe.csv -k regex:mcKernel /tmp/mcp once
ncu_rows $OUT/ncu-probe.csv probe
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /dev/null 2>&1
for v in c1s8 c4s8; do
  prof $OUT/ncu-$v.csv -k regex:ff_gemm --launch-skip 3 -c 1 $ffrun .device/s59-a/S6DN440s88x64-$v --bench 1
  ncu_rows $OUT/ncu-$v.csv ours-$v
done
prof $OUT/ncu-cublas.csv -k regex:nvjet --launch-skip 40 -c 1 python3 scripts/bench/sessions/s58/cublas_gemms.py S6DN:440:1536:8960
ncu_rows $OUT/ncu-cublas.csv cublas
cat $OUT/probe.txt

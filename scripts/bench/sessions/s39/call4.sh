#!/bin/bash
# Thirty-ninth session, call 4. (a) The grouped raster for split-K GEMM
# clusters on every workload whose bundles it changes (.device/s39-rast:
# compile-workloads.py --single-gemms --anchors --only <17 names>, suffix
# -nfast built with Materialize.cpp of 282d656, -rast with the change),
# ab.sh side by side. (b) compute-sanitizer memcheck, racecheck and
# synccheck plus 20 bitwise repeats on two gated split-K GEMMs (pairs:
# gate's tile reduced, then up's, through one buffer) and a rastered
# split-K GEMM (reliability.sh).
set -u
RUN_TIMEOUT=30 BENCH=20 scripts/gpu/ab.sh /tmp/b .device/s39-rast > $OUT/ab.log 2>&1
echo "ab rc=$? $(grep -c status=PASS $OUT/ab.log) PASS"
grep -E "FAIL|rror|rc=[1-9]" $OUT/ab.log | head
mkdir -p /tmp/rel
cp -r .device/s39-gatedr/S3GG256-128x128c2r .device/s39-gatedr/S3GG128-128x64c2r .device/s39-rast/GEMM-4096-m256-rast /tmp/rel/
SKIP_TESTS=1 CONTROLS=0 JOBS=3 REPEAT=20 TIMEOUT=150 bash scripts/gpu/reliability.sh /tmp/rel /tmp/b > $OUT/rel.log 2>&1
echo "reliability rc=$?"
tail -22 $OUT/rel.log
sed -n "/^| workload/,\$p" $OUT/ab.log

#!/bin/bash
# Thirty-ninth session, call 5: call 4's reliability step again (its
# script was not executable there), and the small workloads whose medians
# moved most in call 4's A/B (C7-b1 +13 %, G9 +8 %, C3-b1 -5 %) with the
# raster again, two rounds of ab.sh at 40 batches each.
set -u
mkdir -p /tmp/rel
cp -r .device/s39-gatedr/S3GG256-128x128c2r .device/s39-gatedr/S3GG128-128x64c2r .device/s39-rast/GEMM-4096-m256-rast /tmp/rel/
SKIP_TESTS=1 CONTROLS=0 JOBS=3 REPEAT=20 TIMEOUT=150 bash scripts/gpu/reliability.sh /tmp/rel /tmp/b > $OUT/rel.log 2>&1
echo "reliability rc=$?"
tail -16 $OUT/rel.log
for round in 1 2; do
  ONLY='^(C7-b1|G9|G7|C3-b1|T4-k512-m512|G4)$' RUN_TIMEOUT=30 BENCH=40 scripts/gpu/ab.sh /tmp/b .device/s39-rast > $OUT/ab-$round.log 2>&1
  echo "ab $round rc=$? $(grep -c status=PASS $OUT/ab-$round.log) PASS"
  sed -n "/^| workload/,\$p" $OUT/ab-$round.log | head -8
done

#!/bin/bash
# Fifty-eighth session, call 1 (.device/s58-a: stages.py DIR 8 2 with a
# test build taking up to 12 stages): single GEMMs of the chains behind
# PyTorch at M = 440 and 560, each tile shape's best-ranked plan as ranked
# (-base) and with deeper rings (-d<stages>), --check'ed and timed side by
# side in CUDA graphs (ab.sh: ff-run medians of 20 replays of 10
# launches); then cuBLAS's time for the same GEMMs.
set -u
mkdir -p $OUT
GRAPH=1 RUN_TIMEOUT=30 BENCH=20 timeout 420 scripts/gpu/ab.sh /tmp/b .device/s58-a > $OUT/ab.log 2>&1
echo "ab rc=$?"
grep -c "status=PASS" $OUT/ab.log
grep -E "FAIL|rror|rc=[1-9]" $OUT/ab.log | head
timeout 120 python3 scripts/bench/sessions/s58/cublas_gemms.py \
  S6DN:440:1536:8960 S6DN:560:1536:8960 S3DN:440:4096:11008 \
  S3DN:560:4096:11008 G4DN:440:768:3072 G4DN:560:768:3072 \
  G5DN:560:4096:16384 G6DN:440:1024:4096 G9DN:440:512:2048 \
  S6GG:440:8960:1536:gated > $OUT/cublas.log 2>&1
cat $OUT/cublas.log
sed -n '/^| workload/,$p' $OUT/ab.log

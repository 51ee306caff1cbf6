#!/bin/bash
# Forty-first session, call 2: where S3's chain loses to PyTorch's split
# chain at M = 16, 256 and 512 (bench.py, call 1: 1.04-1.07x). ncu
# (--clock-control none, caches flushed between kernels) on ours
# (.device/s41-s, ff-run: one launch, two kernels) and on PyTorch's split
# chain (s3_chain_kernels.py: two F.linear, silu * mul, F.linear).
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
d=scripts/bench/sessions/s41
. scripts/bench/sessions/s41/lib.sh
METRICS=$(ncu_metric_list)
mkdir -p $OUT
args=()
for m in 16 256 512; do
  w=S3; [ $m != 128 ] && w=S3-m$m
  timeout 120 ncu --clock-control none --csv --page raw --metrics $METRICS -k regex:ff_ \
    $ffrun .device/s41-s/$w > $OUT/ours-m$m.csv 2> /tmp/ncu-ours-$m.err || tail -5 /tmp/ncu-ours-$m.err
  timeout 200 ncu --clock-control none --csv --page raw --metrics $METRICS --profile-from-start off \
    python3 $d/s3_chain_kernels.py $m > $OUT/torch-m$m.csv 2> /tmp/ncu-torch-$m.err || tail -5 /tmp/ncu-torch-$m.err
  args+=(ours-m$m $OUT/ours-m$m.csv torch-m$m $OUT/torch-m$m.csv)
done
python3 $d/ncu_metrics.py "${args[@]}" | tee $OUT/table.md

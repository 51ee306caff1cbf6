#!/bin/bash
# Twenty-eighth session, second call: dynamic-M gated FFNs as kernel
# sequences (a gated GEMM and the down GEMM per M bin where --dsm-search
# prefers them) for S1, S3, S5, S8 (.device/s28c: compile-workloads.py DIR
# --weight-layout nk --dynamic-m --only S1,S3,S5,S8, and -fused with
# --search-options sequences=false), --check'ed at M inside every bin and
# timed against the fused dynamic bundles; a gated GEMM bundled alone
# (.device/s28c/GG-seq: search-gated-gemm.mlir through ff-opt --dsm-search
# --lower-to-nvvm="format=bin emit-bundle=DIR"), checked against ff-run's
# act(x wg) * (x wu) reference; the Python package on S1's bundle (s28b.py).
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
out=$($ffrun .device/s28c/GG-seq --check --bench 20 --repeat 2 2>&1); echo "GG rc=$?"; grep -E "RESULT|error" <<<"$out"
$ffrun .device/s28c/S1 --m 128 --bench 200 > /dev/null 2>&1
for w in S1 S3 S5 S8; do
  for m in 1 77 128 200 300 1000 4096 8192; do
    line="$w M=$m"
    for v in "" -fused; do
      out=$(timeout 60 $ffrun .device/s28c/$w$v --m $m --check --bench 20 --repeat 2 2>&1)
      res=$(grep RESULT <<<"$out" | sed 's/.*rel_l2=\([^ ]*\).*median_us=\([^ ]*\).*status=\([A-Z]*\).*/\1 \2 \3/')
      line="$line | ${v:-seq}: $res"
    done
    echo "$line"
  done
done
FLASHFUSER_RUNTIME_LIB=$ff_build/lib/libffrt.so python3 scripts/bench/sessions/s28/s28b.py 2>&1 | tail -6

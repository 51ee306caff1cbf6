#!/bin/bash
# Thirty-first session: the streamed-halo variants
# of s31q-variants.sh (.device/s31q) side by side, ff-run per call with
# --check (fp32 reference, output poisoned), memcheck of both halo ones.
set -u
BENCH=30 REPEAT=3 scripts/gpu/ab.sh /tmp/b .device/s31q > /tmp/ab.log 2>&1
echo "ab rc=$?"; grep -c "status=PASS" /tmp/ab.log; grep -E "rc=[1-9]|FAIL|rror|status=" /tmp/ab.log | grep -v PASS | head
for v in halo64 halo128; do
  echo "memcheck $v $(timeout 120 compute-sanitizer --tool memcheck /tmp/b/bin/ff-run .device/s31q/C8-b32-$v --check 2>&1 | grep -oE 'ERROR SUMMARY.*|status=[A-Z]+|rel_l2=[^ ]+' | tr '\n' ' ')"
done
tail -4 /tmp/ab.log

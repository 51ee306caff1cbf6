#!/bin/bash
# Thirty-first session: the variants of s31o-variants.sh (.device/s31o)
# side by side, ff-run per call with --check (fp32 reference, output
# poisoned; the whole output compared), and compute-sanitizer memcheck of
# one with a row group per warpgroup.
set -u
BENCH=30 REPEAT=3 scripts/gpu/ab.sh /tmp/b .device/s31o > /tmp/ab.log 2>&1
echo "ab rc=$?"; grep -c "status=PASS" /tmp/ab.log; grep -E "rc=[1-9]|FAIL|rror" /tmp/ab.log | head
echo "memcheck $(timeout 120 compute-sanitizer --tool memcheck /tmp/b/bin/ff-run .device/s31o/C8-b32-m128n64s8 --check 2>&1 | grep -oE 'ERROR SUMMARY.*|status=[A-Z]+' | tr '\n' ' ')"
tail -4 /tmp/ab.log

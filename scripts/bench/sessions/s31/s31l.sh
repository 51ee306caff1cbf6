#!/bin/bash
# Thirty-first session: the B-multicast variants of s31l-variants.sh
# (.device/s31l) side by side, ff-run per call with --check (fp32
# reference, output poisoned), and compute-sanitizer memcheck of the one
# whose last cluster has a CTA past M.
set -u
BENCH=30 REPEAT=3 scripts/gpu/ab.sh /tmp/b .device/s31l > /tmp/ab.log 2>&1
echo "ab rc=$?"; grep -c "status=PASS" /tmp/ab.log; grep -E "rc=[1-9]|FAIL|rror" /tmp/ab.log | head
echo "memcheck $(timeout 120 compute-sanitizer --tool memcheck /tmp/b/bin/ff-run .device/s31l/C8-b32-m2s1 --check 2>&1 | grep -E 'ERROR SUMMARY|status=' | grep -oE 'ERROR SUMMARY.*|status=[A-Z]+' | tr '\n' ' ')"
tail -5 /tmp/ab.log

#!/bin/bash
# Thirty-first session: the A-multicast variants of s31j-variants.sh
# (.device/s31j) side by side, ff-run per call with --check (fp32
# reference, output poisoned).
set -u
BENCH=30 REPEAT=3 scripts/gpu/ab.sh /tmp/b .device/s31j > /tmp/ab.log 2>&1
echo "ab rc=$?"; grep -c "status=PASS" /tmp/ab.log; grep -E "rc=[1-9]|FAIL" /tmp/ab.log | head
tail -6 /tmp/ab.log

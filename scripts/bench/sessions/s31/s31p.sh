#!/bin/bash
# Thirty-first session: three wgmma groups in flight in the main loop
# instead of two (-d3: built with s31p-wgmma-depth.patch applied, a stage
# released two k steps late) against the default kernels (-d2: the
# .device/s31c and .device/s29y bundles), ff-run per call with --check.
set -u
BENCH=30 REPEAT=3 scripts/gpu/ab.sh /tmp/b .device/s31p > /tmp/ab.log 2>&1
echo "ab rc=$?"; grep -c "status=PASS" /tmp/ab.log; grep -E "rc=[1-9]|FAIL|rror" /tmp/ab.log | head
tail -10 /tmp/ab.log

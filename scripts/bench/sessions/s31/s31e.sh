#!/bin/bash
# Thirty-first session: the small G chains' ranked fused plans against
# their default bundles (.device/s31e: compile-workloads.py .device/s31e
# --weight-layout nk --only G1,G2,G3,G7,G9,G10 --ranks 8 --spread 4, and
# the same with --suffix=-def), ff-run per call with --check.
set -u
BENCH=30 REPEAT=3 scripts/gpu/ab.sh /tmp/b .device/s31e > /tmp/ab.log 2>&1
echo "ab rc=$?"; grep -c "status=PASS" /tmp/ab.log; grep -E "rc=[1-9]|FAIL" /tmp/ab.log | head
tail -12 /tmp/ab.log

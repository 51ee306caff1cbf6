#!/bin/bash
# Thirty-first session: the variants of s31d-variants.sh (.device/s31d)
# side by side, ff-run per call with --check (fp32 reference, output
# poisoned).
set -u
BENCH=30 REPEAT=3 scripts/gpu/ab.sh /tmp/b .device/s31d 2>&1 | tail -${TAIL:-6}

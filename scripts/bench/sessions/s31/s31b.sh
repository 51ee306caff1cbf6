#!/bin/bash
# Thirty-first session: the variants of s31b-variants.sh (.device/s31b,
# with -old the whole-image-row bundles of .device/s30g) side by side,
# ff-run per call with --check (fp32 reference, output poisoned).
set -u
BENCH=30 REPEAT=3 scripts/gpu/ab.sh /tmp/b .device/s31b 2>&1 | tail -${TAIL:-40}

#!/bin/bash
# Thirtieth session: C8-b32's sequence with its first kernel (the 3x3 GEMM)
# at other tiles and ring depths, hand-set in the searched IR's `sequence`
# attribute (.device/s30j/C8-b32-VARIANT: base 64x128 at 8 stages (the
# search's), a 128x64 at 8, b 128x64 at 6, c 128x128 at 6, d 64x64 at 8,
# e 128x128 at 4, f 64x128 at 6); ff-run --check and per call, interleaved.
set -u
BENCH=30 REPEAT=3 scripts/gpu/ab.sh /tmp/b .device/s30j 2>&1 | tail -14

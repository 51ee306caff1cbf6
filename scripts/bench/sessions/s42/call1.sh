#!/bin/bash
# Forty-second session, call 1: the S chains' gate|up GEMMs on n tiles
# sized to the SM count (widths.py: .device/s42-w) against the search's
# plan. Every bundle: ff-run --check, then --bench 20 --graph in two rounds
# (the second in reverse order); compute-sanitizer memcheck on two
# 96-wide kernels (one box of 96 rows, a partial last tile).
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
. scripts/bench/sessions/s42/lib.sh
widths_table .device/s42-w S3-m128-n96 S3-m16-n96

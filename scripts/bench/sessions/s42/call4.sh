#!/bin/bash
# Forty-second session, call 4: gate|up GEMMs on n tiles of 8-column multiples (widths.py with
# SET=call4: .device/s42-w8) against the 16-column ones of call 1 and
# the search. Every bundle: ff-run --check, then --bench 20 --graph in two rounds
# (the second in reverse order); compute-sanitizer memcheck on two
# 88-wide kernels (a width storeRowBf16 does not take).
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
. scripts/bench/sessions/s42/lib.sh
widths_table .device/s42-w8 S3-m128-n88 S3-m16-n88s5

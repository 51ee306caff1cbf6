#!/bin/bash
# Fortieth session, call 12: S3 at M = 256 and 1024 again (.device/s40-ab,
# old and new plans), four interleaved rounds without the check: call 11's
# two rounds of S3-m1024 disagreed.
set -u
for r in 1 2 3 4; do
  CHECK=0 BENCH=30 ONLY='S3-m1024|S3-m256' scripts/gpu/ab.sh /tmp/b .device/s40-ab 2>&1 | grep -E "^\| S3"
done

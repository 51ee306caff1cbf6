#!/bin/bash
# Forty-first session, call 3: S3's down GEMM alone at M = 256 and 512
# (.device/s41-dn, downs.py): every tile shape's best-ranked plan, 128-row
# unsplit tiles at 4-8 stages and with B multicast over 2 m tiles, in CUDA
# graphs (ab.sh GRAPH=1), two rounds, and cuBLAS's F.linear the same way.
set -u
d=scripts/bench/sessions/s41
GRAPH=1 BENCH=20 scripts/gpu/ab.sh /tmp/b .device/s41-dn > /tmp/r1.log 2>&1
GRAPH=1 BENCH=20 CHECK=0 scripts/gpu/ab.sh /tmp/b .device/s41-dn > /tmp/r2.log 2>&1
python3 $d/cublas_down.py 256 512
python3 $d/cublas_down.py 512 256
mkdir -p $OUT && cp /tmp/r1.log /tmp/r2.log $OUT/
grep -c PASS /tmp/r1.log; grep FAIL /tmp/r1.log | head
echo "round 1"; sed -n '/^| workload/,$p' /tmp/r1.log
echo "round 2"; sed -n '/^| workload/,$p' /tmp/r2.log

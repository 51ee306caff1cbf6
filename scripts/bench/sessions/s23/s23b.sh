#!/bin/bash
set -u
. scripts/gpu/build-runtime.sh $PWD /tmp/b > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
RUN_TIMEOUT=60 BENCH=40 scripts/gpu/ab.sh /tmp/b .device/s23b 2>&1 | tail -12

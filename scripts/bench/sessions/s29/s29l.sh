#!/bin/bash
# Twenty-ninth session: the weight stream's ceiling by other paths than TMA
# tensor boxes (scripts/gpu/stream_probe.cu: the TMA ring table again, one
# 128-row box per stage, then 16-byte loads and 1-D bulk copies over the
# same 100.7 MB).
set -u
nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a scripts/gpu/stream_probe.cu -o /tmp/sp -lcuda && /tmp/sp | tee $OUT/probe.txt

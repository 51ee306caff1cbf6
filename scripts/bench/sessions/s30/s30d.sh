#!/bin/bash
# Thirtieth session: host cost of a kernel launch against a graph launch
# (launch_probe.cu), to weigh launching single-kernel bundles directly.
set -u
nvcc -O2 -arch=sm_90a -o /tmp/launch_probe scripts/bench/sessions/s30/launch_probe.cu || exit 1
/tmp/launch_probe

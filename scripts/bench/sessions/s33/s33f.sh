#!/bin/bash
# Thirty-third session: the variants of s33f-variants.sh (.device/s33f),
# checked and timed by time-variants.sh (cuDNN's chain beside the defaults).
scripts/bench/sessions/s33/time-variants.sh .device/s33f .device/s32c C4-b1 graph,ours_graph

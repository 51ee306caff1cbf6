#!/bin/bash
# Sixty-ninth session, call 3: the search with 64 x 64 split-K tiles over 4
# on rings of up to 8 stages at M = 65-128 (deepSplitK64, Plan.cpp) against
# the search before it, rings held in full: .device/s69-ab/W-new from
# .device/s69-gnew (README). It ran ab_bench.sh's lines without the
# archive of the four bench.py folders, so only g-new1's came back.
exec bash scripts/bench/sessions/s69/ab_bench.sh .device/s69-gnew

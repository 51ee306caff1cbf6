#!/bin/bash
# Thirty-ninth session, call 9: gateup_probe.py (PyTorch alone).
set -u
timeout 400 python3 scripts/bench/sessions/s39/gateup_probe.py > $OUT/gateup.csv 2>$OUT/gateup.err
echo "rc=$?"; tail -3 $OUT/gateup.err
cat $OUT/gateup.csv

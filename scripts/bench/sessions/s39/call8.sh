#!/bin/bash
# Thirty-ninth session, call 8: unfused_probe.py on G5-m256 and S3-m256
# (.device/s39-final manifests; PyTorch alone, no runtime needed).
set -u
timeout 200 python3 scripts/bench/sessions/s39/unfused_probe.py .device/s39-final/G5-m256 .device/s39-final/S3-m256 .device/s39-final/G5-m512 2>&1 | tail -8

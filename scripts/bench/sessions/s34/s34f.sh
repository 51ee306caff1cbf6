#!/bin/bash
# Thirty-fourth session, one GPU call: split-K GEMMs searched with rings of
# up to eight stages (.device/s34f, isLowerable's split-K ring limit raised
# from 4 to 8) against the session's defaults before that change
# (.device/s34e), as s34a.sh.
ON=.device/s34f OFF=.device/s34e bash scripts/bench/sessions/s34/s34a.sh

#!/bin/bash
# Thirty-fourth session, one GPU call: split-K GEMMs with rings of up to
# eight stages that the model prices as four (.device/s34g: the same plans
# as .device/s34e, deeper rings where they fit at the same occupancy)
# against the session's defaults before that change (.device/s34e), as
# s34a.sh.
ON=.device/s34g OFF=.device/s34e bash scripts/bench/sessions/s34/s34a.sh

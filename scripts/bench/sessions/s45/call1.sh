#!/bin/bash
# Forty-fifth session, call 1: the forty-fourth session's pending driver
# (snake rounds, first form, against the default on the dynamic S2, S3, S5,
# S7 at M = 257, 320, 384, 448, 200, 1000; bundles .device/s44-snake, see
# ../s44/README.md row 8), run as it was committed.
exec bash "$(dirname "$0")/../s44/call8.sh"

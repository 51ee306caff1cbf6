#!/usr/bin/env python3
"""Thirty-first session: prints one paper workload's chain as linalg on
tensors with PyTorch's weight layout (compile-workloads.py's linalg_text,
--weight-layout nk), the input the session's *-variants.sh scripts search
and then edit by hand.

usage: gen-linalg.py WORKLOAD   (e.g. C8-b32)"""
import importlib.util
import os
import sys

ROOT = os.path.dirname(os.path.abspath(__file__))
for _ in range(4):
    ROOT = os.path.dirname(ROOT)
spec = importlib.util.spec_from_file_location(
    "cw", os.path.join(ROOT, "scripts", "compile-workloads.py"))
cw = importlib.util.module_from_spec(spec)
spec.loader.exec_module(cw)
matches = [w for w in cw.selected() if w.name == sys.argv[1]]
if not matches:
    sys.exit("gen-linalg: no workload " + sys.argv[1])
print(cw.linalg_text(matches[0], weight_layout="nk"))

#!/usr/bin/env python3
"""Thirty-third session: replaces entry INDEX of the first `sequence = [...]`
attribute of a searched module with SCHEDULE (a #dsm.schedule<...> text),
the hand-set kernel of a variant.

usage: splice.py IN.mlir INDEX SCHEDULE > OUT.mlir"""
import re
import sys

text = open(sys.argv[1]).read()
index, schedule = int(sys.argv[2]), sys.argv[3]
m = re.search(r"sequence = \[(#dsm\.schedule<[^>]*>(?:, #dsm\.schedule<[^>]*>)*)\]",
              text)
if not m:
    sys.exit("splice: no sequence attribute")
entries = re.findall(r"#dsm\.schedule<[^>]*>", m.group(1))
if not 0 <= index < len(entries):
    sys.exit(f"splice: the sequence has {len(entries)} entries")
entries[index] = schedule
sys.stdout.write(text[:m.start(1)] + ", ".join(entries) + text[m.end(1):])

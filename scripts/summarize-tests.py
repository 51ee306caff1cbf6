#!/usr/bin/env python3
"""Sums JUnit XML results (lit, pytest, scripts) into one closing line.

Prints "N passed, N failed, N skipped" last and exits 1 when anything failed
or when no test ran at all.
"""
import sys
import xml.etree.ElementTree as ET

passed = failed = skipped = 0
for path in sys.argv[1:]:
    try:
        root = ET.parse(path).getroot()
    except (OSError, ET.ParseError) as e:
        print(f"summarize: cannot read {path}: {e}")
        failed += 1
        continue
    for case in root.iter("testcase"):
        if case.find("failure") is not None or case.find("error") is not None:
            failed += 1
            print(f"FAILED: {case.get('classname')}::{case.get('name')}")
        elif case.find("skipped") is not None:
            skipped += 1
        else:
            passed += 1

print(f"{passed} passed, {failed} failed, {skipped} skipped")
sys.exit(1 if failed or passed == 0 else 0)

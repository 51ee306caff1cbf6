#!/usr/bin/env python3
"""Writes a one-test JUnit XML file: junit.py OUT.xml NAME pass|fail."""
import sys
from xml.sax.saxutils import quoteattr

out, name, status = sys.argv[1:4]
failure = '<failure message="failed"/>' if status != "pass" else ""
with open(out, "w") as f:
    f.write('<testsuites><testsuite name="scripts" tests="1">'
            f'<testcase classname="scripts" name={quoteattr(name)}>{failure}'
            '</testcase></testsuite></testsuites>\n')

"""Puts python/ on sys.path so `python3 -m pytest python/tests` works from
the repository root without installing the package."""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

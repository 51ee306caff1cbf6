#!/usr/bin/env python3
"""Builds ff-fuzz's seed corpus: every test/**/*.mlir split at `// -----`
(the --split-input-file marker), one file per piece, named by content hash.
Files marked XFAIL (known upstream crashes) are left out."""
import hashlib
import pathlib
import re
import sys

root = pathlib.Path(__file__).resolve().parent.parent
out = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else root / "build-fuzz/seeds")
out.mkdir(parents=True, exist_ok=True)
count = 0
for path in sorted((root / "test").rglob("*.mlir")):
    text = path.read_text()
    if "XFAIL:" in text:  # known crashes (upstream): found again at once
        continue
    for piece in re.split(r"^// -----.*$", text, flags=re.M):
        if not piece.strip():
            continue
        data = piece.encode()
        (out / hashlib.sha1(data).hexdigest()).write_bytes(data)
        count += 1
print(f"{count} seeds in {out}")

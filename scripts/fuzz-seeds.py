#!/usr/bin/env python3
"""Builds ff-fuzz's seed corpus: every test/**/*.mlir split at `// -----`
(the --split-input-file marker), one file per piece, named by content hash.
Files marked XFAIL (known upstream crashes) are left out.

usage: fuzz-seeds.py [OUT] [--ff-opt PATH [--max-seconds S]]

With --ff-opt (a release ff-opt), every piece first runs through the
harness's pipeline (--dsm-fuse --dsm-search --dsm-materialize
--convert-dsm-to-nvgpu) and a piece that takes longer than S seconds
(default 1) is left out: under ASan the harness runs 10-13x slower, and
the fuzzer's per-input limit is 20 s, so such a seed (search-dynamic-m.mlir:
8 s in release, 70 s under ASan) would be reported as a timeout whenever a
fuzzing job drew it. Those pieces are compiled by lit in every run."""
import argparse
import hashlib
import pathlib
import re
import subprocess

root = pathlib.Path(__file__).resolve().parent.parent
ap = argparse.ArgumentParser()
ap.add_argument("out", nargs="?", default=str(root / "build-fuzz/seeds"))
ap.add_argument("--ff-opt", help="release ff-opt that times each seed")
ap.add_argument("--max-seconds", type=float, default=1.0)
args = ap.parse_args()
out = pathlib.Path(args.out)
out.mkdir(parents=True, exist_ok=True)
PIPELINE = ["--dsm-fuse", "--dsm-search", "--dsm-materialize",
            "--convert-dsm-to-nvgpu", "-o", "/dev/null"]


def too_slow(seed: pathlib.Path) -> bool:
    if not args.ff_opt:
        return False
    try:
        subprocess.run([args.ff_opt, str(seed), *PIPELINE],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                       timeout=args.max_seconds)
    except subprocess.TimeoutExpired:
        return True
    return False


count = 0
slow = []
for path in sorted((root / "test").rglob("*.mlir")):
    text = path.read_text()
    if "XFAIL:" in text:  # known crashes (upstream): found again at once
        continue
    for piece in re.split(r"^// -----.*$", text, flags=re.M):
        if not piece.strip():
            continue
        data = piece.encode()
        seed = out / hashlib.sha1(data).hexdigest()
        seed.write_bytes(data)
        if too_slow(seed):
            seed.unlink()
            slow.append(str(path.relative_to(root)))
            continue
        count += 1
print(f"{count} seeds in {out}")
if slow:
    print(f"{len(slow)} left out (over {args.max_seconds:g} s in release "
          f"ff-opt): {', '.join(sorted(set(slow)))}")

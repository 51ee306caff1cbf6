#!/usr/bin/env python3
"""Lowers the collectives value-check kernel to PTX for a GPU machine.

  python3 scripts/gpu/make-collectives-check.py OUTDIR [--ff-opt FF_OPT]

Runs `ff-opt test/Pipelines/Inputs/collectives-check.mlir --lower-to-nvvm`
and writes the PTX held by its gpu.binary to OUTDIR/collectives_check.ptx.
On the GPU machine (carry OUTDIR):

  nvcc -O2 -std=c++17 scripts/gpu/collectives_check.cpp -lcuda -o /tmp/cc
  /tmp/cc OUTDIR/collectives_check.ptx
"""
import argparse
import os
import re
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
KERNEL = os.path.join(ROOT, "test", "Pipelines", "Inputs",
                      "collectives-check.mlir")


def unescape_mlir_string(body):
    """MLIR prints string attributes with \\XX hex escapes and \\\\."""
    out = bytearray()
    i = 0
    while i < len(body):
        c = body[i]
        if c == "\\":
            if body[i + 1] == "\\":
                out.append(ord("\\"))
                i += 2
                continue
            out.append(int(body[i + 1:i + 3], 16))
            i += 3
            continue
        out += c.encode()
        i += 1
    return bytes(out)


def extract_ptx(mlir_text):
    """The object text of the first gpu.binary (format=isa: its PTX
    `assembly`; format=bin: the cubin `bin`)."""
    m = re.search(r'(?:assembly|bin) = "((?:[^"\\]|\\.)*)"', mlir_text)
    if not m:
        raise ValueError("no gpu.binary object in the ff-opt output")
    return unescape_mlir_string(m.group(1))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("outdir")
    ap.add_argument("--ff-opt")
    a = ap.parse_args()
    ff_opt = a.ff_opt or os.path.join(ROOT, "build", "bin", "ff-opt")
    if not os.path.isfile(ff_opt):
        ff_opt = shutil.which("ff-opt")
    if not ff_opt:
        sys.exit("make-collectives-check: ff-opt not found (build it or pass "
                 "--ff-opt)")
    proc = subprocess.run([ff_opt, KERNEL, "--lower-to-nvvm"],
                          capture_output=True, text=True)
    if proc.returncode != 0:
        sys.exit("make-collectives-check: ff-opt failed:\n" + proc.stderr)
    try:
        ptx = extract_ptx(proc.stdout)
    except ValueError as e:
        sys.exit("make-collectives-check: %s" % e)
    os.makedirs(a.outdir, exist_ok=True)
    path = os.path.join(a.outdir, "collectives_check.ptx")
    with open(path, "wb") as f:
        f.write(ptx)
    print(path)


if __name__ == "__main__":
    main()

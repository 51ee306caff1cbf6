#!/usr/bin/env python3
"""Short summary of one ff-opt pipeline run (README command 1).

Reads the IR each stage wrote and, when present, the kernel bundle: chains
found, chosen plans, kernel names, PTX size and, when ptxas exists, the
registers / spills / shared memory ptxas reports for each kernel.
"""
import argparse
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))), "python"))
from flashfuser.compiler import find_ptxas  # noqa: E402  (one lookup for all)


def read(path):
    with open(path) as f:
        return f.read()


def balanced(text, start):
    """The <...> group starting at text[start] == '<'."""
    depth = 0
    for i in range(start, len(text)):
        if text[i] == "<":
            depth += 1
        elif text[i] == ">":
            depth -= 1
            if depth == 0:
                return text[start:i + 1]
    return text[start:]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--input", required=True)
    ap.add_argument("--fused")
    ap.add_argument("--planned")
    ap.add_argument("--lowered")
    ap.add_argument("--bundle")
    a = ap.parse_args()

    print("== FlashFuser pipeline summary")
    print(f"input:          {a.input}")
    src = read(a.input)
    gemms = re.findall(r"linalg\.(?:batch_)?matmul|linalg\.conv_2d", src)
    print(f"GEMMs in input: {len(gemms)}")
    if a.fused:
        kinds = re.findall(r"dsm\.fused_chain (\w+)\(", read(a.fused))
        print(f"chains found:   {len(kinds)} ({', '.join(kinds) or 'none'})")
    if a.planned:
        text = read(a.planned)
        for i, m in enumerate(re.finditer(r"schedule = #dsm\.schedule", text)):
            plan = balanced(text, text.index("<", m.end() - 1))
            print(f"plan {i}:         #dsm.schedule{plan}")
        # A chain the search runs as two GEMM kernels (its `sequence`).
        for m in re.finditer(r"sequence = \[", text):
            at = m.end()
            for j in range(2):
                at = text.index("#dsm.schedule", at)
                plan = balanced(text, text.index("<", at))
                print(f"  kernel {j} of its sequence: #dsm.schedule{plan}")
                at += len(plan)
    if a.bundle and os.path.isfile(os.path.join(a.bundle, "manifest.json")):
        with open(os.path.join(a.bundle, "manifest.json")) as f:
            manifest = json.load(f)
        ptxas = find_ptxas()
        for k in manifest.get("kernels", []):
            ptx_path = os.path.join(a.bundle, k.get("ptx", ""))
            size = os.path.getsize(ptx_path) if os.path.isfile(ptx_path) else 0
            print(f"kernel:         {k['name']}  grid {k.get('grid')} cluster "
                  f"{k.get('cluster')} block {k.get('block')} smem "
                  f"{k.get('dynamic_smem')} B  PTX {size} B")
            if ptxas and size:
                r = subprocess.run([ptxas, "-arch=sm_90a", "-v", ptx_path, "-o",
                                    os.devnull], capture_output=True, text=True)
                for line in r.stderr.splitlines():
                    if "registers" in line or "spill" in line:
                        print(f"  ptxas:        {line.split('info    : ')[-1].strip()}")
                if r.returncode != 0:
                    print(f"  ptxas failed: {r.stderr.strip()}")
        if not ptxas:
            print("ptxas:          not found (set CUDA_HOME or PATH to report resources)")
    elif a.lowered:
        print(f"lowered IR:     {a.lowered}")


if __name__ == "__main__":
    main()

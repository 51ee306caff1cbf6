#!/usr/bin/env python3
"""Wraps race_control.cu's kernel in two ffn bundles: naive_ffn_smem (with
the barrier: racecheck must be clean) and naive_ffn_race (without it: the
negative control, racecheck must report hazards).

usage: make_race_bundles.py OUT_DIR   (needs nvcc)
"""

import hashlib
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "python"))
from flashfuser.bundle import write_bundle  # noqa: E402
from make_naive_bundles import N, manifest  # noqa: E402


def build(tmp):
    src = os.path.join(HERE, "race_control.cu")
    nvcc = os.environ.get("NVCC", "nvcc")
    files = {}
    for kind, arch in (("cubin", "-gencode=arch=compute_90a,code=sm_90a"),
                       ("ptx", "-arch=compute_90a")):
        path = os.path.join(tmp, f"race.{kind}")
        subprocess.run([nvcc, f"-{kind}", "-O3", arch, src, "-o", path],
                       check=True)
        with open(path, "rb") as f:
            files[f"race.{kind}"] = f.read()
    with open(src, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest(), files


def main():
    out = sys.argv[1]
    with tempfile.TemporaryDirectory() as tmp:
        source_hash, files = build(tmp)
    for bundle, sync in (("naive_ffn_smem", 1), ("naive_ffn_race", 0)):
        m = manifest("ffn", "gelu_tanh", "smem_ffn", ["x", "w1", "w2"],
                     source_hash)
        m["compiler"] = "hand-written racecheck control (race_control.cu)"
        k = m["kernels"][0]
        k["cubin"], k["ptx"] = "race.cubin", "race.ptx"
        k["dynamic_smem"] = 4 * N
        # The workspace of naive_ffn becomes the barrier switch.
        k["params"][-1] = {"kind": "i32", "value": sync}
        digest = write_bundle(os.path.join(out, bundle), m, files)
        print(f"{bundle}: {digest}")


if __name__ == "__main__":
    main()

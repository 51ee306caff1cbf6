#!/usr/bin/env python3
"""Wraps naive_chain.cu's kernels in an ffn and a gated_ffn bundle.

usage: make_naive_bundles.py OUT_DIR   (needs nvcc)
"""

import hashlib
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "python"))
from flashfuser.bundle import write_bundle  # noqa: E402

N, K, L = 512, 256, 256


def build(tmp):
    src = os.path.join(HERE, "naive_chain.cu")
    nvcc = os.environ.get("NVCC", "nvcc")
    for kind in ("cubin", "ptx"):
        subprocess.run([nvcc, f"-{kind}", "-O3",
                        "-gencode=arch=compute_90a,code=sm_90a"
                        if kind == "cubin" else "-arch=compute_90a",
                        src, "-o", os.path.join(tmp, f"naive.{kind}")],
                       check=True)
    with open(src, "rb") as f:
        source = f.read()
    files = {}
    for kind in ("cubin", "ptx"):
        with open(os.path.join(tmp, f"naive.{kind}"), "rb") as f:
            files[f"naive.{kind}"] = f.read()
    return hashlib.sha256(source).hexdigest(), files


def manifest(kind, act, name, inputs, source_hash):
    tensors = inputs + ["out"]
    return {
        "format": "flashfuser-bundle", "version": 1,
        "compiler": "hand-written naive reference (naive_chain.cu)",
        "source_hash": source_hash,
        "target": {"name": "h100-sxm", "chip": "sm_90a"},
        "chain": {"kind": kind, "activation": act, "dtype": "bf16",
                  "m": -1, "n": N, "k": K, "l": L,
                  "inputs": [dict(t, dtype="bf16") for t in inputs_spec(
                      kind)],
                  "outputs": [{"name": "out", "shape": [-1, L],
                               "dtype": "bf16"}]},
        "kernels": [{
            "name": name, "cubin": "naive.cubin", "ptx": "naive.ptx",
            "m_lo": 1, "m_hi": 1 << 20,
            "block": [256, 1, 1], "cluster": [1, 1, 1], "grid": [1, 1, 1],
            "grid_m_tile": 1, "dynamic_smem": 0,
            "params": [{"kind": "ptr", "tensor": t} for t in tensors] + [
                {"kind": "i64", "value": "M"},
                {"kind": "i32", "value": N}, {"kind": "i32", "value": K},
                {"kind": "i32", "value": L},
                {"kind": "workspace", "bytes_per_m": 4 * N, "zero": True}]}],
    }


def inputs_spec(kind):
    if kind == "ffn":
        return [{"name": "x", "shape": [-1, K]},
                {"name": "w1", "shape": [K, N], "layout": "kn"},
                {"name": "w2", "shape": [N, L], "layout": "kn"}]
    return [{"name": "x", "shape": [-1, K]},
            {"name": "wg", "shape": [N, K], "layout": "nk"},
            {"name": "wu", "shape": [N, K], "layout": "nk"},
            {"name": "wd", "shape": [L, N], "layout": "nk"}]


def main():
    out = sys.argv[1]
    with tempfile.TemporaryDirectory() as tmp:
        source_hash, files = build(tmp)
    for bundle, kind, act, name in [
            ("naive_ffn_gelu_tanh", "ffn", "gelu_tanh", "naive_ffn"),
            ("naive_gated_silu_nk", "gated_ffn", "silu", "naive_gated")]:
        inputs = [t["name"] for t in inputs_spec(kind)]
        digest = write_bundle(os.path.join(out, bundle),
                              manifest(kind, act, name, inputs, source_hash),
                              files)
        print(f"{bundle}: {digest}")


if __name__ == "__main__":
    main()
